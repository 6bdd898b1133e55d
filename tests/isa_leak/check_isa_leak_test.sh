#!/usr/bin/env bash
# check_isa_leak_test.sh CHECK_ISA_LEAK CXX: scripts/check-isa-leak must fail on the two leaks it
# exists for and pass a clean library, on libraries built here from three small sources:
#   - a portable object with a vector loop compiled with -mavx2 (a leak in a non-kernel object);
#   - a kernel object whose template function, left out of line, holds AVX2 (the weak copy the
#     linker may keep for every caller: -O0's detail::sha512_round and std::rotr once did);
#   - a kernel object with AVX2 only in a function of its own, and a clean portable object.
set -euo pipefail
check=$(realpath "$1") cxx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

cat >portable.cpp <<'SRC'
int portable_add(int x) { return x + 1; }
SRC
cat >vector_loop.cpp <<'SRC'
void add_arrays(int* __restrict a, const int* __restrict b) { for (int i = 0; i < 1024; ++i) a[i] += b[i]; }
SRC
cat >kernel_weak.cpp <<'SRC'
template <class T> T sum_of(const T* p) { T s{}; for (int i = 0; i < 1024; ++i) s += p[i]; return s; }
int kernel_entry(const int* p) { return sum_of(p); }
SRC
cat >kernel_own.cpp <<'SRC'
namespace { template <class T> T sum_of(const T* p) { T s{}; for (int i = 0; i < 1024; ++i) s += p[i]; return s; } }
int kernel_entry(const int* p) { return sum_of(p); }
SRC
"$cxx" -O2 -c portable.cpp -o portable.o
"$cxx" -O3 -mavx2 -c vector_loop.cpp -o vector_loop.o
"$cxx" -O3 -mavx2 -fno-inline -c kernel_weak.cpp -o kernel_weak.o
"$cxx" -O3 -mavx2 -fno-inline -c kernel_own.cpp -o kernel_own.o

# The sources must hold what each case is about, or the cases below prove nothing.
objdump -d kernel_own.o >own.txt  # (not piped into grep -q: pipefail would see objdump's SIGPIPE)
nm kernel_weak.o >weak.txt
grep -q '%ymm' own.txt || { echo "FAIL: kernel_own.o holds no AVX2 code"; exit 1; }
grep -q ' W .*sum_of' weak.txt || { echo "FAIL: kernel_weak.o has no weak sum_of"; exit 1; }

expect() {  # expect PASS|FAIL LIBRARY-OBJECTS... -- KERNEL-OBJECTS...
  local want=$1 objs=() kernels=()
  shift
  while [[ $1 != -- ]]; do objs+=("$1"); shift; done
  shift
  kernels=("$@")
  rm -f lib.a
  ar rcs lib.a "${objs[@]}"
  local got=PASS
  "$check" lib.a "${kernels[@]}" >out.txt 2>&1 || got=FAIL
  if [[ $got != "$want" ]]; then
    echo "FAIL: expected $want for objects ${objs[*]} (kernels ${kernels[*]}), got $got:"
    cat out.txt
    exit 1
  fi
  echo "ok: $want for ${objs[*]} (kernels ${kernels[*]})"
}
expect PASS portable.o kernel_own.o -- kernel_own.o
expect FAIL portable.o vector_loop.o kernel_own.o -- kernel_own.o
grep -q 'FAIL: vector_loop.o holds' out.txt || { echo "FAIL: the leaking object is not named:"; cat out.txt; exit 1; }
expect FAIL portable.o kernel_weak.o -- kernel_weak.o
grep -q 'sum_of' out.txt || { echo "FAIL: the weak function is not named:"; cat out.txt; exit 1; }
