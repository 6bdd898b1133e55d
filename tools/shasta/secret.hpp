// secret.hpp: keys, IKM, PRKs and passwords read by the CLI: kept in one buffer that is wiped when
// it dies or grows (a vector's reallocation would leave copies behind in freed memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace shasta::cli {

class Secret {
 public:
  Secret() = default;
  ~Secret() { clear(); }
  Secret(const Secret&) = delete;
  Secret& operator=(const Secret&) = delete;

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  void append(const std::uint8_t* data, std::size_t size);
  // `size` zero bytes, replacing the contents, to be written in place (a derived key).
  std::span<std::uint8_t> assign_zeros(std::size_t size);
  void remove_suffix(std::size_t n) { size_ -= n < size_ ? n : size_; }
  void clear();

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// Reads the whole of `path` ("-": standard input) into `secret`. Returns 0 or errno.
int read_secret_file(const std::string& path, Secret& secret);
// Decodes hex digits (either case) into `secret`; false if `hex` is not an even run of them.
bool decode_hex_secret(std::string_view hex, Secret& secret);

}  // namespace shasta::cli
