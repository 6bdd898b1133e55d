// error.hpp: the errors that input can cause, as values (never exceptions, never truncation).
#pragma once

#include <string_view>

namespace shasta {

// Error values are stable: the C API returns each as the negative of its value.
enum class Error : int {
  ok = 0,
  unknown_algorithm = 1,   // an algorithm id or name the library does not have
  output_too_small = 2,    // the caller's buffer is shorter than the result
  null_pointer = 3,        // NULL where data is required (a non-zero length, an output, a context)
  unknown_kernel = 4,      // a kernel name no family of this build has
  kernel_unsupported = 5,  // the kernel exists but this CPU lacks its instructions
  out_of_memory = 6,       // the C API could not allocate a context
  invalid_hex = 7,         // a non-hex character, or not two digits a byte
  output_too_long = 8,     // more output than the function can give (HKDF: 255 x HashLen; a MAC: HashLen)
  prk_too_short = 9,       // an HKDF-Expand PRK (or TLS secret) shorter than HashLen
  label_too_long = 10,     // a TLS 1.3 label over 249 bytes (255 with "tls13 ")
  context_too_long = 11,   // a TLS 1.3 context over 255 bytes
  zero_iterations = 12,    // PBKDF2 with an iteration count of 0
  tag_too_short = 13,      // a MAC tag below the truncation floor (max(10, HashLen / 2) bytes)
  tag_mismatch = 14,       // a MAC tag that does not verify
  invalid_export = 15,     // exported key bytes of the wrong length
  invalid_parameter = 16,  // a parameter outside its range (an fs-verity block size or salt)
  input_too_long = 17,     // a length no memory can hold, or past FIPS 180-4's message limit
  overlapping_buffers = 18,  // an output of more than one block over an input read again after its
                             // first block is written (HKDF's info, a TLS 1.3 label or context, a
                             // PBKDF2 salt): the result would be wrong
  transcript_hash_size = 19,  // a TLS 1.3 Derive-Secret transcript hash that is not HashLen bytes (the
                              // messages, or an empty string, passed where their hash belongs)
};

// The last Error value (the C API's most negative code).
inline constexpr Error kLastError = Error::transcript_hash_size;

// error_name gives the enumerator's name, e.g. "output_too_small".
std::string_view error_name(Error e) noexcept;

// error_message gives one plain sentence for a person, e.g. "output buffer is smaller than the digest".
std::string_view error_message(Error e) noexcept;

}  // namespace shasta
