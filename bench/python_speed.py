#!/usr/bin/python3
"""bench/python_speed.py: shasta's Python package against hashlib, in one run (a benchmark, not a test).

  /usr/bin/python3 bench/python_speed.py [--quick] [--dir DIR]

Rows (SHA-256 throughout, best of several repetitions, each call's result freed after its clock
stops, files in the page cache):
  hash_many        100,000 x 64 B: shasta.hash_many vs [hashlib.sha256(m).digest() for m in msgs]
  hash_many_into   the same messages into one bytearray vs the same hashlib loop
  one buffer       one 256 MiB buffer: shasta.sha256(buf).digest() vs hashlib.sha256(buf).digest()
  pbkdf2_hmac      600,000 iterations, 32 bytes
  hash_files       2,000 files of 4 KiB - 1 MiB (log-uniform sizes): shasta.hash_files (threads: every CPU) vs
                   a hashlib.file_digest loop

Where page faults are dear (a VM whose faults cost 10 us or more), the hash_many row measures them:
each side's 100,000 digests land on pages pymalloc freed after the call before (shasta's in huge-page
regions of its own, hashlib's in 4 KiB pymalloc arenas). To time both sides without them, run it
under an allocator that keeps freed pages:
  PYTHONMALLOC=malloc MALLOC_TRIM_THRESHOLD_=4000000000 MALLOC_MMAP_THRESHOLD_=4000000000 \
    MALLOC_TOP_PAD_=100000000 /usr/bin/python3 bench/python_speed.py
"""

import argparse
import hashlib
import math
import os
import random
import shutil
import sys
import tempfile
import time

import shasta


def best(fn, repeat):
    """The best time of `repeat` calls. The clock stops before the call's result is freed: freeing
    100,000 digests (about 17 ns each on the Xeon, for either side) is the caller's later work, not
    the call's."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
        del result
    return min(times)


def best_pair(fn_a, fn_b, repeat):
    """The best time of each of two calls, run in turn: on a shared, noisy machine both see the same
    neighbours, and a slow spell does not fall on one side only."""
    a, b = [], []
    for _ in range(repeat):
        a.append(best(fn_a, 1))
        b.append(best(fn_b, 1))
    return min(a), min(b)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def make_files(root, count, rng):
    paths = []
    for i in range(count):
        size = int(math.exp(rng.uniform(math.log(4096), math.log(1 << 20))))
        path = os.path.join(root, f"f{i:05d}")
        with open(path, "wb") as f:
            f.write(rng.randbytes(size))
        paths.append(path)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions, smaller sizes (a smoke run)")
    ap.add_argument("--dir", help="where to write the 2,000 files (default: a temporary directory)")
    args = ap.parse_args()
    rep = 2 if args.quick else 7
    rng = random.Random(1)
    rows = []

    n = 100_000
    msgs = [rng.randbytes(64) for _ in range(n)]
    sha256 = hashlib.sha256

    def hashlib_loop():
        return [sha256(m).digest() for m in msgs]

    t_loop, t_many = best_pair(hashlib_loop, lambda: shasta.hash_many("sha256", msgs), rep)
    assert shasta.hash_many("sha256", msgs) == hashlib_loop()
    rows.append(("hash_many 100,000 x 64 B", t_loop, t_many, n, "msg", "4x (8x AVX-512 lanes)"))
    out = bytearray(32 * n)
    t_loop2, t_into = best_pair(hashlib_loop, lambda: shasta.hash_many_into("sha256", msgs, out), rep)
    t_loop = min(t_loop, t_loop2)
    assert bytes(out) == b"".join(hashlib_loop())
    rows.append(("hash_many_into 100,000 x 64 B", t_loop, t_into, n, "msg", "6x (12x AVX-512 lanes)"))

    big = os.urandom((32 if args.quick else 256) << 20)
    t_h, t_s = best_pair(lambda: hashlib.sha256(big).digest(), lambda: shasta.sha256(big).digest(), rep)
    assert hashlib.sha256(big).digest() == shasta.sha256(big).digest()
    rows.append((f"one {len(big) >> 20} MiB buffer", t_h, t_s, len(big), "B", "1.0x"))
    del big

    iters = 60_000 if args.quick else 600_000
    t_h, t_s = best_pair(lambda: hashlib.pbkdf2_hmac("sha256", b"password", b"salt", iters),
                         lambda: shasta.pbkdf2_hmac("sha256", b"password", b"salt", iters), min(rep, 3))
    assert hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1000) == shasta.pbkdf2_hmac("sha256", b"pw", b"salt", 1000)
    rows.append((f"pbkdf2_hmac {iters:,} iterations", t_h, t_s, iters, "iter", "2.5x"))

    count = 200 if args.quick else 2000
    root = tempfile.mkdtemp(prefix="shasta-bench-", dir=args.dir)
    try:
        paths = make_files(root, count, rng)
        total = sum(os.path.getsize(p) for p in paths)

        def file_digest_loop():
            result = []
            for p in paths:
                with open(p, "rb") as f:
                    result.append(hashlib.file_digest(f, "sha256").digest())
            return result

        file_digest_loop()  # into the page cache
        t_h, t_s = best_pair(file_digest_loop, lambda: shasta.hash_files(paths, "sha256"), rep)
        assert [d for _, d in shasta.hash_files(paths, "sha256")] == file_digest_loop()
        rows.append((f"hash_files {count:,} files, {total / 2**20:.0f} MiB", t_h, t_s, total, "B",
                     "2x (3x AVX-512 lanes)"))
    finally:
        shutil.rmtree(root)

    print(f"CPU: {cpu_name()}, {os.cpu_count()} CPUs; Python {sys.version.split()[0]} ({sys.executable}); "
          f"kernels: sha256 {shasta.kernel('sha256')} x{shasta.lane_count('sha256')}, "
          f"sha512 {shasta.kernel('sha512')} x{shasta.lane_count('sha512')}")
    print(f"{'case':<34} {'hashlib':>14} {'shasta':>14} {'speed-up':>9}  target")
    for name, th, ts, amount, unit, target in rows:
        if unit == "B":
            fmt = lambda t: f"{amount / t / 1e9:8.2f} GB/s"
        elif unit == "msg":
            fmt = lambda t: f"{t / amount * 1e9:7.1f} ns/msg"
        else:
            fmt = lambda t: f"{amount / t / 1e6:6.2f} M it/s"
        print(f"{name:<34} {fmt(th):>14} {fmt(ts):>14} {th / ts:8.2f}x  >= {target}")


if __name__ == "__main__":
    main()
