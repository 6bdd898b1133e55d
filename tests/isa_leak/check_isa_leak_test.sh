#!/usr/bin/env bash
# check_isa_leak_test.sh CHECK_ISA_LEAK CXX OBJDUMP: scripts/check-isa-leak must fail on the two leaks
# it exists for and pass a clean library, on libraries built here from small sources:
#   - a non-kernel object holding a kernel's instructions (a leak in portable code);
#   - a kernel object whose template function, left out of line, holds them (the weak copy the
#     linker may keep for every caller: -O0's detail::sha512_round and std::rotr once did);
#   - a kernel object with them only in a function of its own, and a clean portable object.
# On x86-64 the kernel's instructions are AVX2 (a vector loop compiled with -mavx2); on aarch64 they
# are Armv8.1's LSE atomics (a fetch_add compiled with -march=armv8.1-a, where the baseline calls a
# helper instead).
set -euo pipefail
check=$(realpath "$1") cxx=$2 objdump=$3
binutils=${objdump%objdump}  # (the prefix of the nm and ar beside that objdump)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

cat >portable.cpp <<'SRC'
int portable_add(int x) { return x + 1; }
SRC
# Per architecture: the flags of the kernel's instructions, a word of them in a listing, a non-kernel
# function that uses them (the leak), and a template helper that does (left out of line by -fno-inline).
case $("$cxx" -dumpmachine) in
  x86_64*)
    kernel_flags=-mavx2 kernel_code='%ymm' header=''
    leak='void add_arrays(int* __restrict a, const int* __restrict b) { for (int i = 0; i < 1024; ++i) a[i] += b[i]; }'
    helper='template <class T> T helper(const T* p) { T s{}; for (int i = 0; i < 1024; ++i) s += p[i]; return s; }'
    entry='int kernel_entry(const int* p) { return helper(p); }'
    ;;
  aarch64*)
    kernel_flags=-march=armv8.1-a kernel_code='ldadd' header='#include <atomic>'
    leak='int count(std::atomic<int>& n) { return n.fetch_add(1); }'
    helper='template <class T> T helper(std::atomic<T>& n) { return n.fetch_add(1); }'
    entry='int kernel_entry(std::atomic<int>& n) { return helper(n); }'
    ;;
  *) echo "SKIP: no kernel instructions known for $("$cxx" -dumpmachine)"; exit 77 ;;
esac
printf '%s\n' "$header" "$leak" >leak.cpp
printf '%s\n' "$header" "$helper" "$entry" >kernel_weak.cpp                # a weak helper<int>
printf '%s\n' "$header" "namespace { $helper }" "$entry" >kernel_own.cpp  # the kernel's own helper<int>
"$cxx" -O2 -c portable.cpp -o portable.o
"$cxx" -O3 "$kernel_flags" -c leak.cpp -o leak.o
"$cxx" -O3 "$kernel_flags" -fno-inline -c kernel_weak.cpp -o kernel_weak.o
"$cxx" -O3 "$kernel_flags" -fno-inline -c kernel_own.cpp -o kernel_own.o

# The sources must hold what each case is about, or the cases below prove nothing.
"$objdump" -d leak.o >leak.txt  # (not piped into grep -q: pipefail would see objdump's SIGPIPE)
"$objdump" -d kernel_own.o >own.txt
"$binutils"nm kernel_weak.o >weak.txt
grep -q "$kernel_code" leak.txt || { echo "FAIL: leak.o holds no $kernel_code"; exit 1; }
grep -q "$kernel_code" own.txt || { echo "FAIL: kernel_own.o holds no $kernel_code"; exit 1; }
grep -q ' W .*helper' weak.txt || { echo "FAIL: kernel_weak.o has no weak helper"; exit 1; }

expect() {  # expect PASS|FAIL LIBRARY-OBJECTS... -- KERNEL-OBJECTS...
  local want=$1 objs=() kernels=()
  shift
  while [[ $1 != -- ]]; do objs+=("$1"); shift; done
  shift
  kernels=("$@")
  rm -f lib.a
  "$binutils"ar rcs lib.a "${objs[@]}"
  local got=PASS
  "$check" --objdump "$objdump" lib.a "${kernels[@]}" >out.txt 2>&1 || got=FAIL
  if [[ $got != "$want" ]]; then
    echo "FAIL: expected $want for objects ${objs[*]} (kernels ${kernels[*]}), got $got:"
    cat out.txt
    exit 1
  fi
  echo "ok: $want for ${objs[*]} (kernels ${kernels[*]})"
}
expect PASS portable.o kernel_own.o -- kernel_own.o
expect FAIL portable.o leak.o kernel_own.o -- kernel_own.o
grep -q 'FAIL: leak.o holds' out.txt || { echo "FAIL: the leaking object is not named:"; cat out.txt; exit 1; }
expect FAIL portable.o kernel_weak.o -- kernel_weak.o
grep -q 'helper' out.txt || { echo "FAIL: the weak function is not named:"; cat out.txt; exit 1; }
