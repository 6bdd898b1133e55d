// inputs.hpp: the inputs the cases share, so that shasta's and the other libraries' rates
// (bench_sha2.cpp, bench_kdf.cpp, bench_peers.cpp) measure the same work.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace shasta::bench {

// The one-shot cases' message: at least `size` bytes of 'a'.
inline const std::vector<std::uint8_t>& message(std::size_t size) {
  static std::vector<std::uint8_t> data(1 << 20, 0x61);
  if (data.size() < size) data.resize(size, 0x61);
  return data;
}

// The key and message of every HMAC case.
inline constexpr std::array<std::uint8_t, 32> kKey = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                                      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
inline constexpr std::array<std::uint8_t, 64> kMessage{};

}  // namespace shasta::bench
