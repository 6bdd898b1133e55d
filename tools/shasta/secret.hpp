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

// The most bytes a key, password, salt or IKM read from a file (or standard input) may hold: a
// secret is short, and /dev/zero must not grow memory until the program aborts.
inline constexpr std::size_t kMaxSecretFileSize = std::size_t{1} << 20;

// Reads the whole of `path` ("-": standard input) into `secret`, at most kMaxSecretFileSize + 1
// bytes. Returns 0, errno, EFBIG when it holds more than kMaxSecretFileSize bytes, or ENOTTY when
// it is a terminal (whatever was typed would be echoed).
int read_secret_file(const std::string& path, Secret& secret);
// The same for an open descriptor, read to its end (or past the limit).
int read_secret_descriptor(int fd, Secret& secret);
// Why read_secret_file failed: strerror, the size limit for EFBIG, the terminal for ENOTTY. A
// value that is not secret (pbkdf2's salt) is named as what it is: `what`, "salt".
std::string secret_file_error(int err, std::string_view what = {});

// Keeps secrets out of core files: RLIMIT_CORE 0 and, on Linux, not dumpable (which also covers
// a core_pattern pipe, where RLIMIT_CORE does not apply, and ptrace by other processes of the user).
void protect_secrets_from_core_dumps();

// Overwrites a secret given on the command line (--key-hex's value) with 'x's once it has been
// copied: ps and /proc/PID/cmdline show it to every user of the machine, and from here on they
// show only its length. (Before, they show it: a file or an environment variable is the safe way.)
// The same for an environment variable's value (--key-env): the process's copy of its environment
// is memory like any other, and /proc/PID/environ shows it to the user's other processes.
void conceal_argument(char* argument) noexcept;

// Wipes a std::string that held a secret (its characters; what it has copied elsewhere is gone).
void wipe_string(std::string& text) noexcept;

// Decodes hex digits (either case) into `secret`, replacing its contents (the library's
// from_hex: every digit read, no branch on one); false, and `secret` empty, if `hex` is not an
// even run of them.
bool decode_hex_secret(std::string_view hex, Secret& secret);

}  // namespace shasta::cli
