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
    case Error::invalid_hex: return "not an even number of hex digits";
  }
  return "unknown error code";
}

}  // namespace shasta
