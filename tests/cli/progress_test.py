#!/usr/bin/env python3
"""The progress line of `shasta sum` (--progress) knows the total of what it is to hash.

Usage: progress_test.py SHASTA

Hashing the files named as operands, the total is their sizes; checking (-c), it is the sizes of
the files the check file's lines name (not the check file's own size, which the display once took,
so that a run showed a tiny total and then none). Each run lists a FIFO after a regular file: its
reader blocks until this test writes to it, so the test can wait for the line that names the total
instead of racing the 100 ms redraws. Also: --no-progress and a stderr that is not a terminal show
nothing, the line is cleared before the results are printed, and at an interactive shell the
automatic line stays off while standard input is what is hashed (it drew over the typing).
"""
import hashlib
import os
import select
import subprocess
import sys
import tempfile
import threading
import time

failures = []


def check(ok: bool, what: str) -> None:
    if not ok:
        failures.append(what)


def run_with_fifo(argv: list, fifo: str, fifo_data: bytes, wanted, cwd: str):
    """Runs argv; waits (up to 60 s) for `wanted` in its stderr (None: no wait), then feeds the
    FIFO. Returns (returncode, stdout, stderr, whether `wanted` was seen before the FIFO was fed)."""
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = bytearray()
    seen = threading.Event()

    def read_stderr():
        while chunk := os.read(proc.stderr.fileno(), 4096):
            err.extend(chunk)
            if wanted is not None and wanted.encode() in err:
                seen.set()

    reader = threading.Thread(target=read_stderr)
    reader.start()
    was_seen = wanted is not None and seen.wait(60)
    with open(os.path.join(cwd, fifo), 'wb') as f:  # unblocks the reader either way
        f.write(fifo_data)
    out = proc.stdout.read()
    proc.wait(60)
    reader.join(10)
    return proc.returncode, out.decode(), err.decode(errors='replace'), was_seen


def drawn_on_terminal(argv: list, cwd: str, fifo: str, fifo_data: bytes) -> bytes:
    """Runs argv with standard input and standard error on one new terminal, as at an interactive
    shell; after 1.6 s (the automatic line's 1 s delay and its first redraws) types a line and
    Ctrl-D and feeds the FIFO. Returns what the terminal showed."""
    master, slave = os.openpty()
    env = dict(os.environ, TERM='xterm')
    proc = subprocess.Popen(argv, cwd=cwd, stdin=slave, stderr=slave, stdout=subprocess.PIPE, env=env,
                            start_new_session=True)
    shown = bytearray()
    try:
        deadline = time.monotonic() + 1.6
        while (left := deadline - time.monotonic()) > 0:
            if select.select([master], [], [], left)[0]:
                shown += os.read(master, 4096)
        os.write(master, b'typed\n\x04')
        with open(os.path.join(cwd, fifo), 'wb') as f:  # unblocks a reader of the FIFO
            f.write(fifo_data)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(slave)
        while select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        os.close(master)
    return bytes(shown)


def main() -> int:
    shasta = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as d:
        big = os.urandom(3 << 20)  # 3.0 MiB
        with open(os.path.join(d, 'big'), 'wb') as f:
            f.write(big)
        os.mkfifo(os.path.join(d, 'fifo'))
        fifo_data = b'through the fifo\n'
        sums = (f'{hashlib.sha256(big).hexdigest()}  big\n'
                f'{hashlib.sha256(fifo_data).hexdigest()}  fifo\n')
        with open(os.path.join(d, 'list.sum'), 'w') as f:
            f.write(sums)

        # Operands: the total is known from the start (the FIFO counts nothing).
        rc, out, err, seen = run_with_fifo([shasta, 'sum', '--progress', '-j2', 'big', 'fifo'], 'fifo',
                                           fifo_data, '/ 3.0 MiB', d)
        check(rc == 0 and out == sums, f'sum: rc {rc}, stdout {out!r}')
        check(seen, f'sum: no progress line with the total "/ 3.0 MiB" while the FIFO blocked: {err!r}')

        # --check: the total is the listed files' (3 MiB), once the check file is read.
        size = os.path.getsize(os.path.join(d, 'list.sum'))
        rc, out, err, seen = run_with_fifo([shasta, 'sum', '--progress', '-j2', '-c', 'list.sum'], 'fifo',
                                           fifo_data, '/ 3.0 MiB', d)
        check(rc == 0 and out == 'big: OK\nfifo: OK\n', f'-c: rc {rc}, stdout {out!r}')
        check(seen, f'-c: no progress line with the listed files\' total "/ 3.0 MiB": {err!r}')
        check(f'/ {size} B' not in err, f'-c: the check file\'s own size {size} B shown as the total: {err!r}')
        # A drawing is "\r LINE ESC[K"; at the end the line is cleared away ("\r ESC[K").
        check(err.endswith('\r\x1b[K'), f'-c: the line not cleared at the end: {err[-80:]!r}')

        # Not a terminal, or --no-progress: nothing at all on stderr.
        for argv in ([shasta, 'sum', '-j2', '-c', 'list.sum'],
                     [shasta, 'sum', '-j2', '--progress', '--no-progress', '-c', 'list.sum']):
            rc, _, err, _ = run_with_fifo(argv, 'fifo', fifo_data, None, d)
            check(rc == 0 and err == '', f'{argv[2:]}: rc {rc}, stderr {err!r}')

        # At an interactive shell: no automatic line while what is hashed is being typed ('-' on a
        # terminal), where it drew over the typing; the same terminal does show it for a FIFO.
        fifo_only = drawn_on_terminal([shasta, 'sum', 'fifo'], d, 'fifo', fifo_data)
        check(b'\x1b[K' in fifo_only, f'a FIFO at a terminal: no automatic progress line: {fifo_only!r}')
        typed = drawn_on_terminal([shasta, 'sum', '-', 'fifo'], d, 'fifo', fifo_data)
        check(b'\x1b[K' not in typed, f'standard input at a terminal: a progress line drawn over the typing: {typed!r}')

    if failures:
        print('\n'.join(failures))
        return 1
    print('progress: totals of operands and of --check lines shown; nothing without a terminal')
    return 0


if __name__ == '__main__':
    sys.exit(main())
