# The kernel table of the build: one row per kernel file, with the ISA flags that file alone is
# compiled with (an assembly file: none), and the definition that puts it in the dispatch table
# (src/dispatch/kernel_table.cpp). SHASTA_KERNEL_OBJECTS lists the files' object names for
# scripts/check-isa-leak, which exempts them (and only them) from its baseline-ISA check.
# SHASTA_ENABLE_<KERNEL>=OFF leaves a kernel out.
set(SHASTA_KERNEL_SOURCES src/kernels/sha256_portable.cpp src/kernels/sha512_portable.cpp
                          src/kernels/round_constants.cpp)
set(SHASTA_KERNEL_DEFINITIONS "")
set(SHASTA_KERNEL_OBJECTS "")

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(SHASTA_ARCH x86_64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(SHASTA_ARCH aarch64)
else()
  set(SHASTA_ARCH other)
endif()

# The rows' order is the order of the code in the library. The SHA-NI files come first, so that a
# change in a SHA-512 file does not move them: the AVX2 SHA-512 loop's move into assembly shrank
# sha512_avx2.cpp, which then stood before them, and on Zen 3 `hash_many` of 64-byte messages and
# Merkle roots ran 6-9% slower with not one of their instructions changed (doc/performance.md).
#   kernel  arch     file                              flags                         definition
set(_shasta_kernel_rows
  "shani|x86_64|src/kernels/x86/sha256_shani.cpp|-msha -mssse3 -msse4.1|SHASTA_HAVE_SHANI"
  "shani|x86_64|src/kernels/x86/sha256_shani_lanes.cpp|-msha -mssse3 -msse4.1|SHASTA_HAVE_SHANI_LANES"
  "shani|x86_64|src/kernels/x86/sha256_shani_x4_blocks.S|none|SHASTA_HAVE_SHANI_X4_ASM"
  "shani|x86_64|src/kernels/x86/sha256_shani_hmac.cpp|-msha -mssse3 -msse4.1|SHASTA_HAVE_SHANI_HMAC"
  "avx2|x86_64|src/kernels/x86/sha256_avx2.cpp|-mavx2 -mbmi2|SHASTA_HAVE_AVX2"
  "avx2|x86_64|src/kernels/x86/sha512_avx2.cpp|-mavx2 -mbmi2|SHASTA_HAVE_AVX2"
  "avx2|x86_64|src/kernels/x86/sha512_avx2_lanes.cpp|-mavx2 -mbmi2|SHASTA_HAVE_AVX2_SHA512_LANES"
  "avx2|x86_64|src/kernels/x86/sha512_avx2_x5_blocks.S|none|SHASTA_HAVE_AVX2_X5_ASM"
  "avx2|x86_64|src/kernels/x86/sha512_avx2_blocks.S|none|SHASTA_HAVE_AVX2_SHA512_ASM"
  "avx2|x86_64|src/kernels/x86/sha256_avx2_x8.cpp|-mavx2 -mbmi2|SHASTA_HAVE_AVX2_X8"
  "avx512|x86_64|src/kernels/x86/sha256_avx512_x16.cpp|-mavx512f -mavx512bw -mavx512vl|SHASTA_HAVE_AVX512_SHA256_X16"
  "avx512|x86_64|src/kernels/x86/sha512_avx512_x8.cpp|-mavx512f -mavx512bw -mavx512vl|SHASTA_HAVE_AVX512_SHA512_X8"
  "avx512|x86_64|src/kernels/x86/sha512_avx512.cpp|-mavx512f -mavx512vl -mbmi2|SHASTA_HAVE_AVX512_SHA512"
  "avx512|x86_64|src/kernels/x86/sha256_avx512.cpp|-mavx512f -mavx512vl -mbmi2|SHASTA_HAVE_AVX512_SHA256"
  "armv8|aarch64|src/kernels/arm/sha256_armv8.cpp|-march=armv8-a+crypto|SHASTA_HAVE_ARMV8"
  "armv8|aarch64|src/kernels/arm/sha512_armv8.cpp|-march=armv8.2-a+sha3|SHASTA_HAVE_ARMV8_SHA512"
  "armv8|aarch64|src/kernels/arm/sha256_armv8_x2.cpp|-march=armv8-a+crypto|SHASTA_HAVE_ARMV8_X2"
  "armv8|aarch64|src/kernels/arm/sha512_armv8_x2.cpp|-march=armv8.2-a+sha3|SHASTA_HAVE_ARMV8_SHA512_X2")

set(SHASTA_KERNELS portable)
foreach(row IN LISTS _shasta_kernel_rows)
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 0 kernel)
  list(GET fields 1 arch)
  list(GET fields 2 file)
  list(GET fields 3 flags)
  list(GET fields 4 definition)
  string(TOUPPER "${kernel}" upper)
  if(NOT arch STREQUAL SHASTA_ARCH OR NOT EXISTS "${PROJECT_SOURCE_DIR}/${file}")
    continue()
  endif()
  option(SHASTA_ENABLE_${upper} "Build the ${kernel} kernels" ON)
  if(NOT SHASTA_ENABLE_${upper})
    continue()
  endif()
  if(file MATCHES "\\.S$")
    # Assembly (GNU syntax, ELF sections): the assembler takes every instruction, so no flags
    # ("none"); elsewhere the intrinsics beside it do the work.
    if(NOT CMAKE_EXECUTABLE_FORMAT STREQUAL "ELF")
      continue()
    endif()
    enable_language(ASM)
  else()
    separate_arguments(flag_list UNIX_COMMAND "${flags}")
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
      # Each kernel at the start of a 64-byte line, so that its loops lie in the same place against
      # the instruction fetch and uop cache lines whatever the rest of the library links before it:
      # a change that moved the AVX-512 lane kernels by 32 bytes once made hash_many 3-9% slower
      # on the Zen 5 with not one of their instructions changed.
      list(APPEND flag_list -falign-functions=64)
    endif()
    set_source_files_properties(${file} PROPERTIES COMPILE_OPTIONS "${flag_list}")
  endif()
  list(APPEND SHASTA_KERNEL_SOURCES ${file})
  get_filename_component(object ${file} NAME)
  list(APPEND SHASTA_KERNEL_OBJECTS ${object}.o)
  list(APPEND SHASTA_KERNEL_DEFINITIONS ${definition})
  list(APPEND SHASTA_KERNELS ${kernel})
endforeach()
list(REMOVE_DUPLICATES SHASTA_KERNEL_DEFINITIONS)
list(REMOVE_DUPLICATES SHASTA_KERNELS)
message(STATUS "shasta kernels: ${SHASTA_KERNELS}")
