#!/usr/bin/env python3
"""The CLI's memory and write-error limits, each a bug once found by a hostile user.

    python3 tests/cli/resource_limits_test.py PATH/TO/shasta [--memory]

  * a --check line naming a 20 MB file costs about what GNU sha256sum needs for it (twice the
    line: the line read, and the name quoted in the error), not six times;
  * `fsverity digest --block-size=1073741824` of a 1-byte file needs no 1 GiB buffer, and its
    digest is the one computed here from the fs-verity format;
  * `info`, `bench` and every --help report a failed write to stdout (/dev/full, a closed stdout)
    and exit 1, as the other subcommands do.

Memory is the child's own peak RSS (wait4's rusage), judged only with --memory, a test of its own
that runs the first two cases again: under ASan/TSan (SHASTA_SANITIZED) shadow memory inflates the
RSS, so there it exits 77, which ctest counts as skipped. Prints one line per failed case and a
summary 'N cases, M failed'. Exit status 1 on any failure. Standard library only (Python 3.11).
"""

from __future__ import annotations

import hashlib
import os
import struct
import subprocess
import sys
import tempfile

from tally import Tally

SHASTA = ''
WORK = ''
MIB = 1 << 20
TALLY = Tally()
case = TALLY.case


def run_measured(argv: list[str], stdout=subprocess.DEVNULL) -> tuple[int, int, bytes]:
    """(exit status, peak RSS in KiB, stdout when captured) of one run."""
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out if stdout is None else stdout, stderr=err,
                             cwd=WORK)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return p.returncode, usage.ru_maxrss, out.read()


# ------------------------------------------------------------------------------------------------

SANITIZED = bool(os.environ.get('SHASTA_SANITIZED'))  # set by CMake for ASan/TSan builds
MEMORY = False  # --memory: judge the peak RSS of the memory cases, not their outputs


def test_long_check_line() -> None:
    length = 20 * MIB
    with open(os.path.join(WORK, 'long.sha256'), 'wb') as f:
        f.write(b'0' * 64 + b'  ' + b'a' * length + b'\n')
    budget = (2 * length + 24 * MIB) // 1024  # the line, its quoted name, and the program itself
    for jobs in ([], ['-j1'], ['-j2']):
        argv = [os.path.join(os.path.dirname(SHASTA), 'sha256sum'), *jobs, '-c', 'long.sha256']
        if not os.path.exists(argv[0]):
            argv = [SHASTA, 'sum', *jobs, '-c', 'long.sha256']
        rc, rss, _ = run_measured(argv)
        if MEMORY:
            case(f'check line of 20 MB {" ".join(jobs)}: memory', rss <= budget,
                 f'peak RSS {rss} KiB (at most {budget} KiB)')
        else:
            case(f'check line of 20 MB {" ".join(jobs)}', rc == 1, f'exit {rc} (want 1)')


def fsverity_digest_of(data: bytes, block_size: int) -> bytes:
    """fs-verity's SHA-256 file digest of a file of one block, no salt."""
    assert 0 < len(data) <= block_size
    h = hashlib.sha256(data)
    zeros = bytes(MIB)
    left = block_size - len(data)
    while left:
        n = min(left, len(zeros))
        h.update(zeros[:n])
        left -= n
    root = h.digest()
    descriptor = struct.pack('<BBBBIQ', 1, 1, block_size.bit_length() - 1, 0, 0, len(data))
    descriptor += root + bytes(64 - len(root)) + bytes(32) + bytes(144)
    return hashlib.sha256(descriptor).digest()


def test_fsverity_large_block() -> None:
    with open(os.path.join(WORK, 'one'), 'wb') as f:
        f.write(b'x')
    block = 1 << 30
    rc, rss, out = run_measured([SHASTA, 'fsverity', 'digest', f'--block-size={block}', 'one'], stdout=None)
    want = b'sha256:' + fsverity_digest_of(b'x', block).hex().encode() + b' one\n'
    if MEMORY:
        case('fsverity 1-byte file, 1 GiB blocks: memory', rss <= 64 * 1024, f'peak RSS {rss} KiB (at most 64 MiB)')
    else:
        case('fsverity 1-byte file, 1 GiB blocks: digest', rc == 0 and out == want,
             f'exit {rc}, {out!r}, want {want!r}')


# ------------------------------------------------------------------------------------------------

def test_write_errors() -> None:
    runs = {
        'info': ['info'], 'info --help': ['info', '--help'], 'bench --help': ['bench', '--help'],
        'bench': ['bench', '--seconds', '0.01', '-a', 'sha256'], '--help': ['--help'], 'help': ['help'],
        'fsverity --help': ['fsverity', '--help'], 'sum --help': ['sum', '--help'], 'hmac --help': ['hmac', '--help'],
        'hkdf --help': ['hkdf', '--help'], 'pbkdf2 --help': ['pbkdf2', '--help'],
    }
    for name, args in runs.items():
        for where in ('/dev/full', 'closed'):
            if where == 'closed':
                p = subprocess.run(['/bin/sh', '-c', '"$0" "$@" >&-', SHASTA, *args], capture_output=True, timeout=60)
            else:
                with open('/dev/full', 'wb') as full:
                    p = subprocess.run([SHASTA, *args], stdout=full, stderr=subprocess.PIPE, timeout=60)
            reported = b'write error' in p.stderr or b'writing to standard output' in p.stderr  # fsverity's words
            case(f'{name} > {where}', p.returncode == 1 and reported,
                 f'exit {p.returncode} (want 1), stderr {p.stderr[-200:]!r} (want a write error)')


# ------------------------------------------------------------------------------------------------

def main() -> int:
    global SHASTA, WORK, MEMORY
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ['--memory']):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    MEMORY = sys.argv[2:] == ['--memory']
    if MEMORY and SANITIZED:
        print('SKIPPED: the memory budgets need a build without sanitizers (shadow memory inflates the RSS)')
        return 77
    SHASTA = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix='shasta-limits-') as work:
        WORK = work
        test_long_check_line()
        test_fsverity_large_block()
        if not MEMORY:
            test_write_errors()
    return TALLY.finish()


if __name__ == '__main__':
    sys.exit(main())
