// bytes.hpp: ByteView, the one parameter type for "some bytes" in the HMAC and KDF functions.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

namespace shasta {

// ByteView is a non-owning view of bytes, made implicitly from a span of std::uint8_t or std::byte,
// a std::string_view or anything that converts to one (a string literal, a std::string), a
// std::vector<std::uint8_t> or std::array, or explicitly from a pointer and a length.
class ByteView {
 public:
  constexpr ByteView() noexcept = default;
  constexpr ByteView(const void* data, std::size_t size) noexcept
      : data_(static_cast<const std::uint8_t*>(data)), size_(size) {}
  template <class T>
  requires std::convertible_to<const T&, std::span<const std::uint8_t>>
  constexpr ByteView(const T& bytes) noexcept {  // NOLINT(google-explicit-constructor)
    const std::span<const std::uint8_t> s = bytes;
    data_ = s.data();
    size_ = s.size();
  }
  template <class T>
  requires(std::convertible_to<const T&, std::string_view> &&
           !std::convertible_to<const T&, std::span<const std::uint8_t>>) ByteView(const T& text)
  noexcept {  // NOLINT(google-explicit-constructor)
    const std::string_view s = text;
    data_ = reinterpret_cast<const std::uint8_t*>(s.data());
    size_ = s.size();
  }
  ByteView(std::span<const std::byte> bytes) noexcept  // NOLINT(google-explicit-constructor)
      : data_(reinterpret_cast<const std::uint8_t*>(bytes.data())), size_(bytes.size()) {}

  constexpr const std::uint8_t* data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr std::span<const std::uint8_t> span() const noexcept { return {data_, size_}; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

namespace detail {
// overlaps: whether two byte ranges share a byte. std::less orders pointers into different
// objects too, where `<` is unspecified.
inline bool overlaps(ByteView a, ByteView b) noexcept {
  if (a.empty() || b.empty()) return false;
  const std::less<const std::uint8_t*> before;
  return before(a.data(), b.data() + b.size()) && before(b.data(), a.data() + a.size());
}
}  // namespace detail

}  // namespace shasta
