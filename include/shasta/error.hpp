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
  invalid_hex = 7,         // odd length or a non-hex character
};

// error_name gives the enumerator's name, e.g. "output_too_small".
std::string_view error_name(Error e) noexcept;

// error_message gives one plain sentence for a person, e.g. "output buffer is smaller than the digest".
std::string_view error_message(Error e) noexcept;

}  // namespace shasta
