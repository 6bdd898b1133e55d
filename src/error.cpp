// error.cpp: names and sentences for Error values.
#include "shasta/error.hpp"

namespace shasta {

std::string_view error_name(Error e) noexcept {
  switch (e) {
    case Error::ok: return "ok";
    case Error::unknown_algorithm: return "unknown_algorithm";
    case Error::output_too_small: return "output_too_small";
    case Error::null_pointer: return "null_pointer";
    case Error::unknown_kernel: return "unknown_kernel";
    case Error::kernel_unsupported: return "kernel_unsupported";
    case Error::out_of_memory: return "out_of_memory";
    case Error::invalid_hex: return "invalid_hex";
    case Error::output_too_long: return "output_too_long";
    case Error::prk_too_short: return "prk_too_short";
    case Error::label_too_long: return "label_too_long";
    case Error::context_too_long: return "context_too_long";
    case Error::zero_iterations: return "zero_iterations";
    case Error::tag_too_short: return "tag_too_short";
    case Error::tag_mismatch: return "tag_mismatch";
    case Error::invalid_export: return "invalid_export";
    case Error::invalid_parameter: return "invalid_parameter";
    case Error::input_too_long: return "input_too_long";
    case Error::overlapping_buffers: return "overlapping_buffers";
    case Error::transcript_hash_size: return "transcript_hash_size";
  }
  return "unknown_error";
}

std::string_view error_message(Error e) noexcept {
  switch (e) {
    case Error::ok: return "success";
    case Error::unknown_algorithm: return "unknown algorithm";
    case Error::output_too_small: return "output buffer is smaller than the result";
    case Error::null_pointer: return "null pointer where data is required";
    case Error::unknown_kernel: return "no kernel of that name";
    case Error::kernel_unsupported: return "this CPU lacks the instructions that kernel needs";
    case Error::out_of_memory: return "out of memory";
    case Error::invalid_hex: return "not hex: a non-hex digit, or not two digits a byte";
    case Error::output_too_long: return "requested output is longer than the function can produce";
    case Error::prk_too_short: return "pseudorandom key is shorter than the hash output";
    case Error::label_too_long: return "TLS 1.3 label is longer than 249 bytes";
    case Error::context_too_long: return "TLS 1.3 context is longer than 255 bytes";
    case Error::zero_iterations: return "PBKDF2 iteration count is zero";
    case Error::tag_too_short: return "MAC tag is shorter than the truncation floor";
    case Error::tag_mismatch: return "MAC tag does not verify";
    case Error::invalid_export: return "exported key has the wrong length";
    case Error::invalid_parameter: return "a parameter is outside its allowed range";
    case Error::input_too_long: return "input is longer than memory can hold or FIPS 180-4 allows";
    case Error::overlapping_buffers: return "output of more than one block overlaps an input read after it is written";
    case Error::transcript_hash_size: return "transcript hash is not the hash function's digest size";
  }
  return "unknown error code";
}

}  // namespace shasta
