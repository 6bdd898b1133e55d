#!/usr/bin/env python3
"""Streams among the operands are read in their turn, as GNU sha256sum's one thread reads them.

    python3 tests/cli/streams_test.py PATH/TO/shasta [--process-limits]

With -j2 a regular file is hashed on a pool thread while later operands wait; a stream cannot be
read that way. Each case below once went wrong (a review against GNU coreutils 9.1):
  * `cat a | sha256sum BIG - /dev/stdin`: "-" and /dev/stdin are one pipe; /dev/stdin was read
    first, on a pool thread, so "-" got the empty digest;
  * a FIFO named twice: both names were opened at once, so the writer's second message was lost;
  * `sha256sum -c LIST /dev/stdin`: the check file /dev/stdin was read before LIST's "-" line
    hashed standard input, changing the verdict and the exit status;
  * `sha256sum -c LIST FIFO`: LIST's results were held until the FIFO opened, so a co-process
    waiting for them before writing the FIFO deadlocked;
  * a thread the system refuses (a small RLIMIT_AS) aborted with std::system_error; now the work
    runs on fewer threads;
  * descriptors run short (a small RLIMIT_NOFILE; or many threads of 16 lanes against the default
    1,024): files failed with EMFILE that GNU, one file at a time, reads; now they wait.
The last two (threads and descriptors refused) run only with --process-limits, a test of its own:
under the sanitizers (SHASTA_SANITIZED) it exits 77, which ctest counts as skipped. ASan's shadow
memory needs terabytes of address space, and UBSan's vptr check probes memory through a pipe, so
with no descriptor to spare it reports a false "invalid vptr".
Prints one line per failed case and a summary 'N cases, M failed'; exit status 1 on any failure.
"""

from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time

from tally import Tally

SHASTA = ''
WORK = ''
TALLY = Tally()
case = TALLY.case
SANITIZED = bool(os.environ.get('SHASTA_SANITIZED'))


def path(name: str) -> str:
    return os.path.join(WORK, name)


def write(name: str, data: bytes) -> bytes:
    with open(path(name), 'wb') as f:
        f.write(data)
    return data


def line(data: bytes, name: str) -> bytes:
    return hashlib.sha256(data).hexdigest().encode() + b'  ' + name.encode() + b'\n'


def sum_run(args: list[str], stdin: bytes = b'', timeout: float = 30):
    return subprocess.run([SHASTA, 'sum', '-j2', *args], input=stdin, capture_output=True, cwd=WORK, timeout=timeout)


def test_stdin_under_two_names(big: bytes) -> None:
    p = sum_run(['big', '-', '/dev/stdin'], stdin=b'abc\n')
    want = line(big, 'big') + line(b'abc\n', '-') + line(b'', '/dev/stdin')
    case('BIG - /dev/stdin', p.returncode == 0 and p.stdout == want, f'exit {p.returncode}, stdout {p.stdout!r}')


def feed_fifo(name: str, messages: list[bytes], pause: float) -> threading.Thread:
    def writer():
        for m in messages:
            with open(path(name), 'wb') as f:  # blocks until a reader opens it
                f.write(m)
            time.sleep(pause)
    t = threading.Thread(target=writer, daemon=True)
    t.start()
    return t


def test_fifo_named_twice() -> None:
    os.mkfifo(path('fifo2'))
    writer = feed_fifo('fifo2', [b'a\n', b'b\n'], 0.3)
    try:
        p = sum_run(['fifo2', 'fifo2'], timeout=10)
        want = line(b'a\n', 'fifo2') + line(b'b\n', 'fifo2')
        case('FIFO FIFO', p.returncode == 0 and p.stdout == want, f'exit {p.returncode}, stdout {p.stdout!r}')
    except subprocess.TimeoutExpired:
        case('FIFO FIFO', False, 'timed out (the second read got EOF and the writer waited)')
    writer.join(timeout=5)


def test_check_file_on_stdin_after_dash(big: bytes) -> None:
    good = line(b'abc\n', 'a.txt')
    write('a.txt', b'abc\n')
    write('dash.sum', line(big, 'big') + line(b'', '-'))
    p = sum_run(['-c', 'dash.sum', '/dev/stdin'], stdin=good)
    # "-" reads the whole of standard input (the second check file's text), so its digest is not
    # the empty one; /dev/stdin, read after it, is empty.
    want_out = b'big: OK\n-: FAILED\n'
    want_err = (b'shasta sum: WARNING: 1 computed checksum did NOT match\n'
                b'shasta sum: /dev/stdin: no properly formatted checksum lines found\n')
    case('-c LIST /dev/stdin', p.returncode == 1 and p.stdout == want_out and p.stderr == want_err,
         f'exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}')


def test_results_before_a_fifo_check_file() -> None:
    write('b.txt', b'b')
    write('list.sum', line(b'b', 'b.txt'))
    os.mkfifo(path('fifo-list'))
    p = subprocess.Popen([SHASTA, 'sum', '-j2', '-c', 'list.sum', 'fifo-list'], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=WORK)
    got = b''
    try:
        # A co-process: it writes the FIFO only once the first list's result has come.
        import select
        ready, _, _ = select.select([p.stdout], [], [], 10)
        if ready:
            got = os.read(p.stdout.fileno(), 100)
        case('-c LIST FIFO: LIST\'s results come first', got == b'b.txt: OK\n', f'read {got!r} before the FIFO')
    finally:
        with open(path('fifo-list'), 'wb') as f:
            f.write(line(b'b', 'b.txt'))
        out, _ = p.communicate(timeout=10)
    case('-c LIST FIFO: then the FIFO\'s', p.returncode == 0 and got + out == b'b.txt: OK\nb.txt: OK\n',
         f'exit {p.returncode}, stdout {got + out!r}')


def test_threads_refused(big: bytes) -> None:
    # 64 MiB of address space: the program and its buffers fit, eight 8 MiB thread stacks do not;
    # at 32 MiB the threads that start leave no room for their batch and lane buffers (those files
    # were "Cannot allocate memory"; now they are read one by one).
    def small_address_space():
        resource.setrlimit(resource.RLIMIT_AS, (limit << 20, limit << 20))
    small = write('small', b'small')
    for limit, args in ((64, ['-j8', 'small', 'big', 'small', 'small', 'small']),
                        (64, ['-j8', '--progress', 'big', 'small']), (64, ['-j2', 'big']),
                        (32, ['-j8', 'small', 'big', 'small', 'small', 'small'])):
        p = subprocess.run([SHASTA, 'sum', *args], capture_output=True, cwd=WORK, timeout=60,
                           preexec_fn=small_address_space)
        names = [a for a in args if not a.startswith('-')]
        want = b''.join(line(big if n == 'big' else small, n) for n in names)
        case(f'{limit} MiB of address space: sum {" ".join(args)}', p.returncode == 0 and p.stdout == want,
             f'exit {p.returncode}, stdout {p.stdout[:200]!r}, stderr {p.stderr[-300:]!r}')


def test_few_descriptors() -> None:
    # 12 descriptors: stdin, stdout, stderr and 9 more, fewer than a thread's 16 AVX-512 lanes or
    # two threads' 4 SHA-NI lanes and batches; files of 200 KiB stream, of 1 KiB are batched.
    def few_descriptors():
        resource.setrlimit(resource.RLIMIT_NOFILE, (12, 12))
    names, want = [], b''
    for i in range(48):
        data = os.urandom(200_000 if i % 4 else 1000)
        names.append(f'nofile{i:02d}')
        write(names[-1], data)
        want += line(data, names[-1])
    for jobs in ('-j1', '-j2', '-j4'):
        p = subprocess.run([SHASTA, 'sum', jobs, *names], capture_output=True, cwd=WORK, timeout=60,
                           preexec_fn=few_descriptors)
        case(f'12 descriptors: sum {jobs} of 48 files', p.returncode == 0 and p.stdout == want,
             f'exit {p.returncode}, {p.stdout.count(b"  ")} lines of 48, stderr {p.stderr[-300:]!r}')
    # One descriptor to spare: the threads take turns with it. A thread that found none, and then no
    # input open (its holder had just closed it), gave up: 8 runs in 30 failed so, before.
    def one_descriptor():
        resource.setrlimit(resource.RLIMIT_NOFILE, (4, 4))
    tiny = [write(f'tiny{i:03d}', str(i).encode()) for i in range(100)]
    want = b''.join(line(data, f'tiny{i:03d}') for i, data in enumerate(tiny))
    failures = []
    for run in range(20):
        p = subprocess.run([SHASTA, 'sum', '-j4', *[f'tiny{i:03d}' for i in range(100)]], capture_output=True,
                           cwd=WORK, timeout=60, preexec_fn=one_descriptor)
        if p.returncode != 0 or p.stdout != want:
            failures.append(f'run {run}: exit {p.returncode}, stderr {p.stderr[:200]!r}')
    case('4 descriptors: sum -j4 of 100 files, 20 runs', not failures, '; '.join(failures[:3]))


def main() -> int:
    global SHASTA, WORK
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ['--process-limits']):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    process_limits = sys.argv[2:] == ['--process-limits']
    if process_limits and SANITIZED:
        print('SKIPPED: the process-limit cases need a build without sanitizers')
        return 77
    SHASTA = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix='shasta-streams-') as work:
        WORK = work
        big = write('big', os.urandom(17 << 20))  # past the read-ahead threshold (16 MiB)
        if process_limits:
            test_threads_refused(big)
            test_few_descriptors()
        else:
            test_stdin_under_two_names(big)
            test_fifo_named_twice()
            test_check_file_on_stdin_after_dash(big)
            test_results_before_a_fifo_check_file()
    return TALLY.finish()


if __name__ == '__main__':
    sys.exit(main())
