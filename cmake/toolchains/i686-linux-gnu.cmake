# 32-bit x86 Linux with Debian's cross compiler (g++-i686-linux-gnu; g++-multilib would do, but
# Debian's gcc-multilib conflicts with the aarch64 and s390x cross compilers); tests run under
# qemu-user (qemu-i386), since the kernels here may run no 32-bit binaries. It proves the library where
# size_t is 32 bits: lengths past 4 GiB streamed, refusals of counts that no longer fit, the
# portable kernels (there are no 32-bit x86 kernels). Debian's security archive index for i386 does
# not always download here, so i386 cannot be a multiarch architecture of this machine:
# scripts/test-i686 unpacks the i386 packages of OpenSSL and GoogleTest into SHASTA_I686_DEPS_ROOT,
# and the tests link them statically.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)

set(CMAKE_C_COMPILER i686-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER i686-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-i386 -L /usr/i686-linux-gnu)

set(SHASTA_I686_DEPS_ROOT "" CACHE PATH "unpacked i386 libssl-dev and libgtest-dev (their usr folder)")
if(SHASTA_I686_DEPS_ROOT)
  include(${CMAKE_CURRENT_LIST_DIR}/unpacked-deps.cmake)
  shasta_unpacked_deps("${SHASTA_I686_DEPS_ROOT}" i386-linux-gnu)
endif()

set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
