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
