# Cross build for 64-bit Arm Linux with Debian's cross compilers (g++-aarch64-linux-gnu); tests run
# under qemu-user (qemu-aarch64). SHASTA_QEMU_CPU picks the emulated CPU: `max` has SHA2 and SHA512,
# `cortex-a53` SHA2 only. Libraries for arm64 (OpenSSL, GoogleTest) come from Debian's multiarch
# packages (libssl-dev:arm64, libgtest-dev:arm64), which the cross compiler finds by itself.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(SHASTA_QEMU_CPU max CACHE STRING "CPU that qemu-aarch64 emulates for the tests (max, cortex-a53, ...)")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu ${SHASTA_QEMU_CPU})

# pkg-config (which FindOpenSSL asks first) must see the arm64 .pc files, not the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
