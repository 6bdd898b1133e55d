// pbkdf2.hpp: PBKDF2 (RFC 8018 section 5.2) with HMAC over the six SHA-2 hashes. The password's
// pads are prepared once; each iteration is exactly two kernel calls on pre-padded one-block
// buffers (U(j-1) under K^ipad, then the inner digest under K^opad): no streaming machinery. The
// engine is in src/pbkdf2.cpp.
//
//   std::array<std::uint8_t, 32> dk;
//   shasta::Error e = shasta::pbkdf2_hmac<shasta::Sha256>(password, salt, 600000, dk);
#pragma once

#include <cstdint>
#include <span>

#include "bytes.hpp"
#include "error.hpp"
#include "hmac.hpp"
#include "many.hpp"

namespace shasta {

// pbkdf2_hmac fills `out` with PBKDF2-HMAC-H(password, salt, iterations). Refused, with nothing
// written: zero iterations (Error::zero_iterations), an empty output (Error::output_too_small), an
// output over (2^32 - 1) x HashLen bytes (Error::output_too_long), an output of more than HashLen
// bytes over the salt, which is read again for each output block (Error::overlapping_buffers).
// `out` may overlap the password, and a one-block output the salt.
//
// The output blocks are independent: where the kernel has lanes (SHA-NI: 4 SHA-256 streams; AVX2:
// 8 SHA-256 or 5 SHA-512 streams; AVX-512: 16 or 8; ARMv8: 2) and the lane kernel's min_busy
// blocks (3 to 9) or a full call's worth are left, they run side by side; the rest one at a time.
template <ManyHasher H>
Error pbkdf2_hmac(ByteView password, ByteView salt, std::uint64_t iterations, std::span<std::uint8_t> out) noexcept;

// The same from the password already prepared as an HMAC key (HmacKey<H>(password)): the password
// itself can then be wiped before the iterations start, rather than stay in memory while they run
// (seconds, at a password's iteration counts). The same refusals, the same output.
template <ManyHasher H>
Error pbkdf2_hmac(const HmacKey<H>& password, ByteView salt, std::uint64_t iterations,
                  std::span<std::uint8_t> out) noexcept;

// Defined in src/pbkdf2.cpp for exactly the six hashers.
#define SHASTA_PBKDF2_EXTERN(H)                                                                          \
  extern template Error pbkdf2_hmac<H>(ByteView, ByteView, std::uint64_t, std::span<std::uint8_t>) noexcept; \
  extern template Error pbkdf2_hmac<H>(const HmacKey<H>&, ByteView, std::uint64_t, std::span<std::uint8_t>) noexcept;
SHASTA_PBKDF2_EXTERN(Sha224)
SHASTA_PBKDF2_EXTERN(Sha256)
SHASTA_PBKDF2_EXTERN(Sha384)
SHASTA_PBKDF2_EXTERN(Sha512)
SHASTA_PBKDF2_EXTERN(Sha512_224)
SHASTA_PBKDF2_EXTERN(Sha512_256)
#undef SHASTA_PBKDF2_EXTERN

}  // namespace shasta
