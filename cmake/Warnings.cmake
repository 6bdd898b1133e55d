# shasta_warnings turns on the warnings shasta's own code is kept clean of (g++ 12, clang 14).
function(shasta_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
                                           -Wnon-virtual-dtor -Wold-style-cast -Wcast-align)
endfunction()
