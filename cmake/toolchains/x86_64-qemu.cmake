# The host's own x86-64 build, its tests run under qemu-user's x86-64 emulator on an older CPU, so the
# library makes its choice from a CPUID that lacks the host's features, and the emulator faults on any
# instruction that CPU lacks (scripts/test-x86-cpus). SHASTA_QEMU_CPU picks the CPU: `qemu64` has
# SSE2 and SSE3 only (no SSSE3, AVX, SHA-NI: the portable kernels), `SandyBridge` AVX without AVX2
# (portable too), `Haswell-noTSX` AVX2 and BMI2 (no SHA-NI, no AVX-512: the avx2 row). qemu 7.2's TCG emulates neither SHA-NI nor AVX-512.
# The runner names that CPU's flags (as Linux spells them) in SHASTA_CPU_FLAGS for the tests that
# would otherwise read the host's /proc/cpuinfo.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(SHASTA_QEMU_CPU qemu64 CACHE STRING "CPU that qemu-x86_64 emulates for the tests (qemu64, Haswell-noTSX, ...)")
# Features TCG cannot emulate are dropped from the model by name, so that qemu does not warn of each
# one at every test's start.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-x86_64 -cpu ${SHASTA_QEMU_CPU},-pcid,-x2apic,-tsc-deadline,-invpcid)
