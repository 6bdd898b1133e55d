# shasta_warnings turns on the warnings shasta's own code is kept clean of (g++ 12, clang 14);
# SHASTA_WERROR=ON (the test script sets it) makes them errors.
option(SHASTA_WERROR "Treat warnings in shasta's own code as errors" OFF)
function(shasta_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
                                           -Wnon-virtual-dtor -Wold-style-cast -Wcast-align)
  if(SHASTA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# shasta_test_warnings is shasta_warnings for the tests. Where size_t is 32 bits (the i686 run) it
# leaves out -Wconversion: the tests draw sizes from 64-bit generators (rng() % n) by the hundred,
# and narrowing those is harmless; nor -Wrestrict, which g++ 12 raises there on a std::string
# concatenation in the CLI's check-line test (GCC bug 105329, a false positive). The library and the
# CLI keep every warning there.
function(shasta_test_warnings target)
  shasta_warnings(${target})
  if(CMAKE_SIZEOF_VOID_P EQUAL 4)
    target_compile_options(${target} PRIVATE -Wno-conversion -Wno-restrict)
  endif()
endfunction()
