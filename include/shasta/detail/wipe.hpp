// wipe.hpp: erasing secrets in a way the optimiser cannot drop.
#pragma once

#include <cstddef>

namespace shasta::detail {

// secure_wipe zeroes `size` bytes at `p` (explicit_bzero where the C library has it). It lives in
// the library, out of line, so no caller's dead-store elimination can see through it.
void secure_wipe(void* p, std::size_t size) noexcept;

// wipe_object zeroes a trivially copyable object in place.
template <class T>
void wipe_object(T& object) noexcept {
  secure_wipe(static_cast<void*>(&object), sizeof object);
}

}  // namespace shasta::detail
