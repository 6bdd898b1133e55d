// hmac_inputs.hpp: the key and message of every HMAC case, shasta's (bench_kdf.cpp) and the other
// libraries' (bench_peers.cpp) alike, so that their rates compare the same work.
#pragma once

#include <array>
#include <cstdint>

namespace shasta::bench {

inline constexpr std::array<std::uint8_t, 32> kKey = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                                      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
inline constexpr std::array<std::uint8_t, 64> kMessage{};

}  // namespace shasta::bench
