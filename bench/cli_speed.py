#!/usr/bin/env python3
"""cli_speed.py: the shasta CLI against GNU sha*sum and `openssl dgst`, in one run, as ratios.

Usage: python3 bench/cli_speed.py [--shasta build/tools/shasta/shasta] [--big-mib 1024] [--files 600] [--reps 3]
                                 [--dir DIR] [--only big|many|startup|fsverity] [--json PATH]

Measures (page cache warm; best of --reps runs of each command, runs interleaved):
  1. one big file: `shasta sum` (SHA-256, SHA-512) vs `sha256sum`/`sha512sum` and `openssl dgst`;
  2. --files files (600) of 4 KiB to 1 MiB (log-uniform sizes): `shasta sum -j1`, `-j2`, GNU `sha256sum`
     and `openssl dgst -sha256` (one process each, all the files on its command line);
  3. start-up: one 3-byte file, 200 runs each: shasta (as sha256sum and as `shasta sum`) vs GNU;
  4. fs-verity: `shasta fsverity digest` of the big file vs `fsverity digest` (fsverity-utils), where
     that tool is installed (--only fsverity, or all four).
On a big file (16 MiB or more) shasta reads ahead on a second thread where it has more than one CPU,
while `fsverity digest` and the other tools use one: parts 1 and 4 also time shasta pinned to one
CPU (sched_setaffinity), and print both.
Each command's output is discarded; the digests are compared once, so a fast wrong answer fails.
--json PATH also writes each part's best times (seconds) and sizes as JSON (scripts/cpu-table reads it).
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

# What --json writes: {part: {label: best seconds, ...}, ...}, filled in as each part runs.
RESULTS = {}


def one_cpu():
    """The first CPU this process may run on: where a child pinned to it runs every thread."""
    return min(os.sched_getaffinity(0))


def run_timed(argv, pinned):
    """Seconds `argv` took; where pinned, on one CPU. The child inherits this process's CPUs, so the
    process pins itself for the run (a preexec_fn would make subprocess fork rather than spawn, slower
    by milliseconds)."""
    allowed = os.sched_getaffinity(0)
    if pinned:
        os.sched_setaffinity(0, {one_cpu()})
    try:
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - t0
    finally:
        os.sched_setaffinity(0, allowed)


def best_time(runs, pinned=()):
    """runs: {label: argv}; returns {label: best seconds}, each command run --reps times, interleaved.
    The labels in `pinned` run on one CPU."""
    best = {label: float('inf') for label in runs}
    for _ in range(ARGS.reps):
        for label in random.sample(list(runs), len(runs)):
            best[label] = min(best[label], run_timed(runs[label], label in pinned))
    return best


def same_digests(a, b):
    out_a = subprocess.run(a, capture_output=True, check=True).stdout.split()[0]
    out_b = subprocess.run(b, capture_output=True, check=True).stdout.split()[0]
    if out_a != out_b:
        sys.exit(f'digests differ: {a} -> {out_a!r}, {b} -> {out_b!r}')


def write_random(path, size, rng):
    with open(path, 'wb') as f:
        left = size
        while left:
            n = min(left, 1 << 20)
            f.write(rng.randbytes(n))
            left -= n


def row(name, seconds, reference=None, size=None):
    rate = f'{size / seconds / 1e6:8.0f} MB/s' if size else ' ' * 13
    ratio = f'{reference / seconds:6.2f}x' if reference else ''
    print(f'  {name:40s} {seconds * 1e3:9.1f} ms {rate}  {ratio}')


def big_input(d):
    """The --big-mib file of random bytes (made once, kept where --dir is given), in the page cache."""
    path = os.path.join(d, 'big.bin')
    size = ARGS.big_mib << 20
    if not os.path.exists(path) or os.path.getsize(path) != size:
        write_random(path, size, random.Random(1))
    subprocess.run(['cat', path], stdout=subprocess.DEVNULL, check=True)  # into the page cache
    return path, size


def big_file(d, shasta):
    path, size = big_input(d)
    same_digests([shasta, 'sum', path], ['sha256sum', path])
    same_digests([shasta, 'sum', '-a', '512', path], ['sha512sum', path])
    t = best_time({
        'shasta256': [shasta, 'sum', path], 'gnu256': ['sha256sum', path],
        'openssl256': ['openssl', 'dgst', '-sha256', path],
        'shasta512': [shasta, 'sum', '-a', '512', path], 'gnu512': ['sha512sum', path],
        'openssl512': ['openssl', 'dgst', '-sha512', path],
        'shasta256_one_cpu': [shasta, 'sum', path], 'shasta512_one_cpu': [shasta, 'sum', '-a', '512', path],
    }, pinned={'shasta256_one_cpu', 'shasta512_one_cpu'})
    print(f'one {ARGS.big_mib} MiB file (ratio = the other tool\'s time / shasta\'s; one CPU: shasta pinned to '
          f'CPU {one_cpu()}):')
    row('shasta sum (SHA-256)', t['shasta256'], size=size)
    row('shasta sum (SHA-256), one CPU', t['shasta256_one_cpu'], size=size)
    row('  vs GNU sha256sum', t['gnu256'], size=size)
    print(f'  {"":40s} shasta/GNU sha256sum       {t["gnu256"] / t["shasta256"]:6.2f}x')
    row('  vs openssl dgst -sha256', t['openssl256'], size=size)
    print(f'  {"":40s} shasta/openssl -sha256     {t["openssl256"] / t["shasta256"]:6.2f}x')
    print(f'  {"":40s} the same, one CPU          {t["openssl256"] / t["shasta256_one_cpu"]:6.2f}x')
    row('shasta sum -a 512', t['shasta512'], size=size)
    row('shasta sum -a 512, one CPU', t['shasta512_one_cpu'], size=size)
    row('  vs GNU sha512sum', t['gnu512'], size=size)
    row('  vs openssl dgst -sha512', t['openssl512'], size=size)
    print(f'  {"":40s} shasta/openssl -sha512     {t["openssl512"] / t["shasta512"]:6.2f}x')
    print(f'  {"":40s} the same, one CPU          {t["openssl512"] / t["shasta512_one_cpu"]:6.2f}x')
    RESULTS['big'] = dict(t, bytes=size)


def many_files(d, shasta):
    sub = os.path.join(d, 'many')
    os.makedirs(sub, exist_ok=True)
    sizes = random.Random(2)  # its own generator: the same sizes whether or not files exist already
    data = random.Random(3)
    names, total = [], 0
    for i in range(ARGS.files):
        size = int(4096 * 256 ** sizes.random())  # log-uniform, 4 KiB .. 1 MiB
        name = os.path.join(sub, f'f{i:04d}')
        if not os.path.exists(name) or os.path.getsize(name) != size:
            write_random(name, size, data)
        names.append(name)
        total += size
    subprocess.run(['cat'] + names, stdout=subprocess.DEVNULL, check=True)
    for j in ('1', '2'):
        a = subprocess.run([shasta, 'sum', '-j', j] + names, capture_output=True, check=True).stdout
        b = subprocess.run(['sha256sum'] + names, capture_output=True, check=True).stdout
        if a != b:
            sys.exit(f'shasta sum -j{j} output differs from sha256sum on the {ARGS.files} files')
    t = best_time({'j1': [shasta, 'sum', '-j1'] + names, 'j2': [shasta, 'sum', '-j2'] + names,
                   'gnu': ['sha256sum'] + names, 'openssl': ['openssl', 'dgst', '-sha256'] + names})
    print(f'{ARGS.files} files, {total / 2**20:.0f} MiB in all:')
    row('shasta sum -j1', t['j1'], size=total)
    row('shasta sum -j2', t['j2'], size=total)
    row('GNU sha256sum', t['gnu'], size=total)
    row('openssl dgst -sha256', t['openssl'], size=total)
    print(f'  {"":40s} -j2 / -j1                  {t["j1"] / t["j2"]:6.2f}x')
    print(f'  {"":40s} -j1 / GNU                  {t["gnu"] / t["j1"]:6.2f}x')
    print(f'  {"":40s} -j1 / openssl dgst         {t["openssl"] / t["j1"]:6.2f}x')
    RESULTS['many'] = dict(t, bytes=total, files=ARGS.files)


def start_up(d, shasta):
    tiny = os.path.join(d, 'tiny')
    with open(tiny, 'wb') as f:
        f.write(b'abc')
    link = os.path.join(d, 'sha256sum')
    if not os.path.islink(link):
        os.symlink(os.path.abspath(shasta), link)
    n = 200
    runs = {'shasta-as-sha256sum': [link, tiny], 'shasta sum': [shasta, 'sum', tiny], 'gnu': ['sha256sum', tiny]}
    best = {k: float('inf') for k in runs}
    for _ in range(ARGS.reps + 2):
        for label in random.sample(list(runs), len(runs)):
            t0 = time.perf_counter()
            for _ in range(n):
                subprocess.run(runs[label], stdout=subprocess.DEVNULL, check=True)
            best[label] = min(best[label], (time.perf_counter() - t0) / n)
    print('start-up: one 3-byte file (per run, best of batches of 200):')
    for label, s in best.items():
        row(label, s, reference=best['gnu'] if label != 'gnu' else None)
    RESULTS['startup'] = best


def fs_verity(d, shasta):
    if shutil.which('fsverity') is None:
        print('fs-verity: skipped, no `fsverity` command (Debian package fsverity)')
        return
    path, size = big_input(d)
    ours, theirs = [shasta, 'fsverity', 'digest', path], ['fsverity', 'digest', path]
    a = subprocess.run(ours, capture_output=True, check=True).stdout
    b = subprocess.run(theirs, capture_output=True, check=True).stdout
    if a != b:
        sys.exit(f'shasta fsverity digest printed {a!r}, fsverity digest {b!r}')
    t = best_time({'shasta': ours, 'shasta_one_cpu': ours, 'fsverity': theirs}, pinned={'shasta_one_cpu'})
    print(f'fs-verity digest of one {ARGS.big_mib} MiB file (SHA-256, 4 KiB blocks; `fsverity digest` uses one '
          f'CPU, so shasta is timed on one CPU too, pinned to CPU {one_cpu()}):')
    row('shasta fsverity digest', t['shasta'], size=size)
    row('shasta fsverity digest, one CPU', t['shasta_one_cpu'], size=size)
    row('fsverity digest', t['fsverity'], size=size)
    print(f'  {"":40s} shasta/fsverity            {t["fsverity"] / t["shasta"]:6.2f}x')
    print(f'  {"":40s} the same, shasta on one CPU {t["fsverity"] / t["shasta_one_cpu"]:5.2f}x')
    RESULTS['fsverity'] = dict(t, bytes=size)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument('--shasta', default='build/tools/shasta/shasta')
    parser.add_argument('--big-mib', type=int, default=1024)
    parser.add_argument('--reps', type=int, default=3)
    parser.add_argument('--files', type=int, default=600, help='how many files the many-files row hashes')
    parser.add_argument('--dir', help='where to keep the data (default: a temporary directory)')
    parser.add_argument('--only', choices=['big', 'many', 'startup', 'fsverity'])
    parser.add_argument('--json', help='also write the best times and sizes to this file, as JSON')
    ARGS = parser.parse_args()
    shasta = os.path.abspath(ARGS.shasta)
    with tempfile.TemporaryDirectory() as tmp:
        d = ARGS.dir or tmp
        os.makedirs(d, exist_ok=True)
        if ARGS.only in (None, 'big'):
            big_file(d, shasta)
        if ARGS.only in (None, 'many'):
            many_files(d, shasta)
        if ARGS.only in (None, 'startup'):
            start_up(d, shasta)
        if ARGS.only in (None, 'fsverity'):
            fs_verity(d, shasta)
    if ARGS.json:
        with open(ARGS.json, 'w') as f:
            json.dump(RESULTS, f, indent=1)


if __name__ == '__main__':
    main()
