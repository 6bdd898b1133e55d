# Cross build for IBM Z (s390x) Linux, Debian's only big-endian architecture, with Debian's cross
# compiler (g++-s390x-linux-gnu); tests run under qemu-user (qemu-s390x). It proves the portable
# kernels and every byte-order branch (`std::endian::native == std::endian::big`) on a big-endian CPU.
# GoogleTest comes from Debian's multiarch package (libgtest-dev:s390x). OpenSSL's s390x package can
# not be installed beside the host's (bookworm-security carries no s390x, so the versions differ), so
# scripts/test-s390x unpacks it into SHASTA_S390X_OPENSSL_ROOT and the tests link it statically.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)

set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER s390x-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE s390x-linux-gnu)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x -L /usr/s390x-linux-gnu)

set(SHASTA_S390X_OPENSSL_ROOT "" CACHE PATH "an unpacked libssl-dev:s390x (its usr folder)")
if(SHASTA_S390X_OPENSSL_ROOT)
  include(${CMAKE_CURRENT_LIST_DIR}/unpacked-deps.cmake)
  shasta_unpacked_deps("${SHASTA_S390X_OPENSSL_ROOT}" s390x-linux-gnu)
endif()

set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/s390x-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
