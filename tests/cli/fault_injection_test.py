#!/usr/bin/env python3
"""CLI fault injection: GNU sha256sum and shasta-as-sha256sum under the same injected faults.

    python3 tests/cli/fault_injection_test.py PATH/TO/shasta [--quick] [-v] [GROUP...]

Both tools run on the same operands in the same fixture directory, each under strace(1) with the
same fault, and their stdout, stderr and exit status are compared byte for byte. GNU and shasta
make different system calls (GNU reads 32 KiB at a time through stdio; shasta reads a small file
whole in one 128 KiB read, a large one in 256 KiB reads, files on the lanes in 64 KiB chunks), so
"the N-th read" is not the same place in both. A fault is therefore aimed at what both share:

  * one file, by path (strace -P PATH): the other files' reads are never touched, and their lines
    must come out identical and complete;
  * one offset in that file: a dry run of each tool under strace lists the offsets at which its
    reads of the file start; a fault goes into the read starting at an offset both tools read
    from (GNU's read number n_gnu, shasta's n_shasta), once (when=N) or from there on (when=N+).

The groups:
  eio        read:error=EIO into one file's read at each shared offset, files of 0 B to 1 MiB,
             batched (small), alone (256 KiB reads) and on the lanes (64 KiB chunks); with -c too
  checkfile  read faults (EIO, EINTR) into the --check file itself (both read it through stdio's
             getline, so every read is shared)
  write      write:error=ENOSPC/EIO into stdout, a regular file (both write one line a write; -z:
             both buffer as stdio does, flushing before each diagnostic and at exit), at the 1st,
             2nd, 3rd and every later write; and every write to stderr failing (GNU's
             close_stdout then exits 1)
  short      short reads: standard input, a FIFO operand and a --check list fed through pipes in
             pieces of 1 to 700 bytes, with pauses, so reads return a few bytes at a time
  mutate     files truncated or grown while they are read: the tool is held at the exit of the
             read that ends at a shared offset (strace delay_exit, or delay_enter of the first
             read), this script sees the file's position reach that offset (/proc/PID/fdinfo),
             changes the file, and lets the tool go on; the digest must be what the bytes read give
  check-j    -c over a long list (small, large, missing, wrong, faulted) with -j 1, 2, 3, 8

Each comparison runs shasta as `sha256sum` (PATH holds the build's link beside PATH/TO/shasta), as
`sha256sum -j1` and as `sha256sum -j3` (check-j: -j1, -j2, -j3, -j8; mutate: the first two),
against GNU with the same operands. --quick (sanitized builds) runs shasta as `sha256sum -j3` only
(check-j: -j2 and -j8).

Justified differences (ALLOWANCES below; each is checked for exactly what it allows):
  eintr-read  An injected EINTR from read(2) of a file being hashed: GNU's fread treats it as an
              error ("sha256sum: F: Interrupted system call", exit 1); shasta retries the read, as
              POSIX intends, and prints the digest. The allowance: shasta's output is exactly the
              fault-free output, and GNU's is that output with the file's line replaced by the
              error. (A --check file is read through stdio by both and fails the same way.)
  stderr-pieces  One failed write to stderr: GNU's error() writes a message in three or four
              pieces ("sha256sum: ", the text, "\n"), shasta in one write (so that messages of
              concurrent jobs never interleave): GNU loses a piece, shasta the whole message.
              Allowed: shasta's stderr is the fault-free one less its first message; stdout and
              the exit status (1: close_stdout fails on stderr) are GNU's.
  eintr-write An injected EINTR from write(2) to stdout: GNU's stdio gives up ("write error",
              exit 1); shasta writes again. Allowed: shasta's output is the fault-free one.
  mutate-unaligned  A file shrunk after each tool's first read: GNU has read 32 KiB by then,
              shasta the whole file (or 256 KiB), so each prints the digest of the bytes it had
              read before the file shrank. Allowed: each digest is that of its own prefix.

Exit status: 0 all passed, 1 a comparison failed, 2 a harness error, 77 (skipped) when strace is
missing or cannot trace here. Standard library only (Python 3.11).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

GNU = '/usr/bin/sha256sum'
STRACE = shutil.which('strace')
DELAYS_US = (300_000, 2_000_000)  # how long a tool is held while this script changes its file
KIB = 1024

WORK = ''
# Files streamed side by side on the lanes: more than the widest lane kernel has (AVX-512's 16), so
# that they reach digest_streams (64 KiB chunks) on every CPU, not one at a time.
LANE_FILES = 18
VERBOSE = False
COMPARISONS = 0
FAILED = 0
ALLOWED = 0


@dataclass(frozen=True)
class Result:
    stdout: bytes
    stderr: bytes
    rc: int


@dataclass(frozen=True)
class Tool:
    name: str
    bindir: str  # holds `sha256sum`
    extra: tuple[str, ...] = ()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def line(name: str, data: bytes) -> bytes:
    return f'{sha(data)}  {name}\n'.encode()


def report(name: str, ok: bool, detail: str = '', allowed: bool = False) -> bool:
    global COMPARISONS, FAILED, ALLOWED
    COMPARISONS += 1
    if not ok:
        FAILED += 1
        print(f'FAIL {name}\n{detail}', flush=True)
    elif allowed:
        ALLOWED += 1
        if VERBOSE:
            print(f'ALLOWED {name}', flush=True)
    elif VERBOSE:
        print(f'ok {name}', flush=True)
    return ok


def diff(g: Result, s: Result) -> str:
    out = []
    for stream in ('stdout', 'stderr', 'rc'):
        a, b = getattr(g, stream), getattr(s, stream)
        if a != b:
            out.append(f'   {stream}: gnu={a!r:.600}\n   {" " * len(stream)}  shasta={b!r:.600}')
    return '\n'.join(out)


# ------------------------------------------------------------------------------------------------
# Running a tool, under strace or not.

def command(tool: Tool, args: list[str], trace: tuple[str, str, str | None] | None, log: str) -> list[str]:
    argv = ['sha256sum', *tool.extra, *args]
    if trace is None:
        return argv
    path, syscall, inject = trace
    cmd = [STRACE, '-f', '-qq', '-s0', '-o', log, '-P', path, '-e', f'trace={syscall}']
    if inject:
        cmd += ['-e', f'inject={syscall}:{inject}']
    return cmd + ['--'] + argv


def environment(tool: Tool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(('LC_', 'SHASTA_'))}
    env.update(PATH=f'{tool.bindir}:/usr/bin:/bin', LC_ALL='C', LANG='C')
    # An ASan build: LeakSanitizer cannot work under ptrace, and would fail every traced run.
    env['ASAN_OPTIONS'] = ':'.join(filter(None, [env.get('ASAN_OPTIONS', ''), 'detect_leaks=0']))
    return env


def run(tool: Tool, args: list[str], trace=None, stdin=None, stdout_file: str | None = None,
        during=None, stderr_file: str | None = None) -> tuple[Result, str]:
    """Runs `sha256sum ARGS` of `tool`; returns its result and strace's log. `stdin`: bytes, or a
    function given the pipe to write to; `stdout_file`: stdout goes there (read back as stdout);
    `during(popen)`: called while the tool runs; `stderr_file` as `stdout_file`."""
    fd, log = tempfile.mkstemp(dir=WORK, prefix='strace.')
    os.close(fd)
    out = open(stdout_file, 'wb') if stdout_file else subprocess.PIPE
    err = open(stderr_file, 'wb') if stderr_file else subprocess.PIPE
    try:
        p = subprocess.Popen(command(tool, args, trace, log), cwd=WORK, env=environment(tool),
                             stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                             stdout=out, stderr=err)
        feeder = None
        if stdin is not None:
            def feed():
                try:
                    if callable(stdin):
                        stdin(p.stdin)
                    else:
                        p.stdin.write(stdin)
                except BrokenPipeError:
                    pass
                finally:
                    try:
                        p.stdin.close()
                    except BrokenPipeError:
                        pass
            feeder = threading.Thread(target=feed, daemon=True)
            feeder.start()
        collected: dict[str, bytes] = {'out': b'', 'err': b''}

        def collect(key, pipe):
            collected[key] = pipe.read()
        collectors = []
        if p.stderr:
            collectors.append(threading.Thread(target=collect, args=('err', p.stderr), daemon=True))
        if p.stdout:
            collectors.append(threading.Thread(target=collect, args=('out', p.stdout), daemon=True))
        for c in collectors:
            c.start()
        if during is not None:
            during(p)
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            raise RuntimeError(f'timed out: {command(tool, args, trace, log)}')
        for c in collectors:
            c.join()
        if feeder:
            feeder.join()
        stdout, stderr = collected['out'], collected['err']
        if stdout_file:
            out.close()
            with open(stdout_file, 'rb') as f:
                stdout = f.read()
        if stderr_file:
            err.close()
            with open(stderr_file, 'rb') as f:
                stderr = f.read()
        with open(log, encoding='utf-8', errors='replace') as f:
            text = f.read()
        return Result(stdout, stderr, p.returncode), text
    finally:
        for f in (out, err):
            if f is not subprocess.PIPE and not f.closed:
                f.close()
        os.unlink(log)


SYSCALL_LINE = re.compile(r'^\d+\s+(read|write)\((\d+),.* = (-?\d+)')


def read_starts(tool: Tool, args: list[str], path: str) -> list[int]:
    """The offsets in `path` at which the tool's reads of it start, in order (a dry run)."""
    _, log = run(tool, args, trace=(path, 'read', None))
    starts, at = [], 0
    for text in log.splitlines():
        m = SYSCALL_LINE.match(text)
        if not m:
            continue
        starts.append(at)
        at += max(0, int(m.group(3)))
    return starts


def read_ends(starts: list[int], size: int) -> list[int]:
    """The offset each read ended at (the next one's start; the last read returns 0)."""
    return starts[1:] + [size]


# ------------------------------------------------------------------------------------------------
# Fixture

FILES: dict[str, bytes] = {}


def put(name: str, data: bytes) -> str:
    FILES[name] = data
    with open(os.path.join(WORK, name), 'wb') as f:
        f.write(data)
    return name


def restore(name: str) -> None:
    put(name, FILES[name])


def make_fixture() -> None:
    seed = 0
    def blob(n: int) -> bytes:
        nonlocal seed
        seed += 1
        out = bytearray()
        counter = 0
        while len(out) < n:
            out += hashlib.sha512(f'{seed}:{counter}'.encode()).digest()
            counter += 1
        return bytes(out[:n])
    put('a.txt', b'the first file\n')
    put('b.txt', blob(5000))
    put('empty', b'')
    put('small', blob(1000))
    put('exact', blob(128 * KIB))  # exactly the batch limit: read as a large file
    put('mid', blob(200_000))
    put('big', blob(1 << 20))
    put('grow', blob(300_000))
    put('sm', blob(100_000))
    put('huge', blob(17 << 20))  # alone: read ahead by a reader thread
    for i in range(LANE_FILES):
        put(f'lane{i}', blob(150_000 + 7 * i))


def sums(names: list[str], wrong: tuple[str, ...] = ()) -> bytes:
    text = b''
    for n in names:
        digest = sha(FILES.get(n, b'missing'))
        if n in wrong:
            digest = ('0' if digest[0] != '0' else '1') + digest[1:]
        text += f'{digest}  {n}\n'.encode()
    return text


# ------------------------------------------------------------------------------------------------
# Comparisons

def compare(name: str, gnu: Tool, shastas: list[Tool], args: list[str], target: str, syscall: str,
            spec_for, untouched: list[str] = (), stdout_file: str | None = None, stdin=None,
            stderr_file: str | None = None) -> None:
    """For each shasta variant: `spec_for(starts_gnu, starts_shasta)` gives [(label, spec_gnu,
    spec_shasta)]; both run with their spec and must agree."""
    path = os.path.join(WORK, target)
    gnu_starts = read_starts(gnu, args, path) if syscall == 'read' else []
    gnu_cache: dict[str, Result] = {}
    for tool in shastas:
        s_starts = read_starts(tool, args, path) if syscall == 'read' else []
        for label, spec_g, spec_s in spec_for(gnu_starts, s_starts):
            if spec_g not in gnu_cache:
                gnu_cache[spec_g] = run(gnu, args, trace=(path, syscall, spec_g), stdout_file=stdout_file,
                                        stdin=stdin, stderr_file=stderr_file)[0]
            g = gnu_cache[spec_g]
            s = run(tool, args, trace=(path, syscall, spec_s), stdout_file=stdout_file, stdin=stdin,
                    stderr_file=stderr_file)[0]
            full = f'{name} {label} [{tool.name}] (gnu {spec_g}, shasta {spec_s})'
            problems = diff(g, s)
            for u in untouched:  # never lost: the lines of the files the fault did not touch
                if line(u, FILES[u]) not in s.stdout and f'{u}: OK\n'.encode() not in s.stdout:
                    problems += f'\n   the line for {u}, which the fault did not touch, is missing'
            report(full, not problems, problems)


def shared_offsets(g: list[int], s: list[int], limit: int = 6) -> list[tuple[int, int, int]]:
    """(offset, gnu read number, shasta read number) for offsets both tools start a read at."""
    common = [(off, g.index(off) + 1, s.index(off) + 1) for off in sorted(set(g) & set(s))]
    if len(common) > limit:  # the first two, one in the middle, the last two
        common = common[:2] + [common[len(common) // 2]] + common[-2:]
    return common


def eio_specs(g: list[int], s: list[int]):
    out = []
    for off, ng, ns in shared_offsets(g, s):
        out.append((f'@{off}', f'error=EIO:when={ng}', f'error=EIO:when={ns}'))
        out.append((f'@{off}+', f'error=EIO:when={ng}+', f'error=EIO:when={ns}+'))
    if not out:
        raise RuntimeError(f'no shared read offset: gnu {g[:8]} shasta {s[:8]}')
    return out


def group_eio(gnu: Tool, shastas: list[Tool]) -> None:
    for target in ('empty', 'small', 'exact', 'mid', 'big'):
        operands = ['a.txt', target, 'missing', 'b.txt']
        compare(f'eio {target}', gnu, shastas, operands, target, 'read', eio_specs, untouched=['a.txt', 'b.txt'])
        put('list.sha256', sums(['a.txt', target, 'missing', 'b.txt', 'small' if target != 'small' else 'mid'],
                                wrong=('b.txt',)))
        compare(f'eio -c {target}', gnu, shastas, ['-c', 'list.sha256'], target, 'read', eio_specs)
    # Files on the lanes (64 KiB chunks), one of them faulted.
    lanes = [f'lane{i}' for i in range(LANE_FILES)]
    compare('eio lanes', gnu, shastas, ['a.txt', *lanes], 'lane2', 'read', eio_specs,
            untouched=['a.txt'] + [name for name in lanes if name != 'lane2'])
    compare('eio huge alone', gnu, shastas, ['huge'], 'huge', 'read', eio_specs)  # the read-ahead thread


def group_checkfile(gnu: Tool, shastas: list[Tool]) -> None:
    # stdio reads the check file in 4 KiB blocks for both: read N is the same place in both.
    short = sums(['a.txt', 'small', 'missing', 'b.txt'], wrong=('small',))
    long = sums([n for _ in range(40) for n in ('a.txt', 'small', 'b.txt')])
    for label, text in (('short', short), ('long', long)):
        put('list.sha256', text)
        reads = len(read_starts(gnu, ['-c', 'list.sha256'], os.path.join(WORK, 'list.sha256')))

        def specs(g, s, reads=reads):
            out = []
            for n in sorted({1, 2, reads}):
                for err in ('EIO', 'EINTR'):
                    out.append((f'{err}@{n}', f'error={err}:when={n}', f'error={err}:when={n}'))
            out.append(('EIO@1+', 'error=EIO:when=1+', 'error=EIO:when=1+'))
            return out
        compare(f'checkfile {label}', gnu, shastas, ['-c', 'list.sha256'], 'list.sha256', 'read', specs)
        compare(f'checkfile {label} -w --strict', gnu, shastas, ['-c', '-w', '--strict', 'list.sha256'],
                'list.sha256', 'read', specs)


def group_write(gnu: Tool, shastas: list[Tool]) -> None:
    out_file = os.path.join(WORK, 'out')
    open(out_file, 'wb').close()

    def specs(g, s):
        out = []
        for err in ('ENOSPC', 'EIO'):
            for when in ('1', '2', '3', '1+', '2+'):
                out.append((f'{err}@{when}', f'error={err}:when={when}', f'error={err}:when={when}'))
        return out
    names = ['a.txt', 'small', 'missing', 'b.txt', 'mid', 'empty']
    compare('write', gnu, shastas, names, 'out', 'write', specs, stdout_file=out_file)
    compare('write -z', gnu, shastas, ['-z', *names], 'out', 'write', specs, stdout_file=out_file)
    compare('write --tag', gnu, shastas, ['--tag', *names], 'out', 'write', specs, stdout_file=out_file)
    many = [n for _ in range(12) for n in ('a.txt', 'small', 'b.txt', 'mid', 'empty', 'missing')]  # > 4 KiB out
    compare('write -z many', gnu, shastas, ['-z', *many], 'out', 'write', specs, stdout_file=out_file)
    compare('write many', gnu, shastas, many, 'out', 'write', specs, stdout_file=out_file)
    put('list.sha256', sums(names, wrong=('mid',)))
    compare('write -c', gnu, shastas, ['-c', 'list.sha256'], 'out', 'write', specs, stdout_file=out_file)
    compare('write -c --quiet', gnu, shastas, ['-c', '--quiet', 'list.sha256'], 'out', 'write', specs,
            stdout_file=out_file)

    # stderr: every write failing is comparable (GNU writes a message in three or four pieces,
    # shasta in one): nothing reaches it, and GNU's close_stdout exits 1 for the failed stderr.
    err_file = os.path.join(WORK, 'err')
    open(err_file, 'wb').close()

    def all_fail(g, s):
        return [(f'{e}@1+', f'error={e}:when=1+', f'error={e}:when=1+') for e in ('ENOSPC', 'EIO')]
    put('warn.sha256', sums(['a.txt', 'small']) + b'junk\n' + sums(['b.txt']))
    compare('stderr -c improper line', gnu, shastas, ['-c', 'warn.sha256'], 'err', 'write', all_fail,
            stderr_file=err_file)
    compare('stderr missing file', gnu, shastas, ['a.txt', 'missing', 'b.txt'], 'err', 'write', all_fail,
            stderr_file=err_file)
    compare('stderr -c', gnu, shastas, ['-c', 'list.sha256'], 'err', 'write', all_fail, stderr_file=err_file)
    # One failed stderr write: GNU loses that piece of a message, shasta the whole message (the
    # allowance stderr-pieces); stdout and the exit status must agree.
    for args in (['-c', 'warn.sha256'], ['-c', 'list.sha256'], ['a.txt', 'missing', 'small', 'missing2']):
        clean = run(gnu, args)[0]
        g = run(gnu, args, trace=(err_file, 'write', 'error=EIO:when=1'), stderr_file=err_file)[0]
        for tool in shastas:
            s = run(tool, args, trace=(err_file, 'write', 'error=EIO:when=1'), stderr_file=err_file)[0]
            first_lost = b''.join(clean.stderr.splitlines(keepends=True)[1:])
            ok = (s.stdout, s.rc) == (g.stdout, g.rc) == (clean.stdout, 1) and s.stderr == first_lost
            report(f'stderr-pieces {" ".join(args)} [{tool.name}]', ok,
                   f'{diff(g, s)}\n   shasta must lose exactly its first message', allowed=True)


def pieces(data: bytes, seed: int):
    """A writer that sends `data` in pieces of 1 to 700 bytes with short pauses (short reads)."""
    def write(pipe):
        state = seed
        at = 0
        while at < len(data):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            n = 1 + state % 700 if state % 5 else 1 + state % 7
            pipe.write(data[at:at + n])
            pipe.flush()
            at += n
            if state % 3 == 0:
                time.sleep(0.0005)
    return write


def group_short(gnu: Tool, shastas: list[Tool]) -> None:
    data = FILES['mid'][:60_000]
    fifo = os.path.join(WORK, 'fifo')
    cases = [
        ('stdin', ['-'], lambda: pieces(data, 1)),
        ('stdin among files', ['a.txt', '-', 'b.txt'], lambda: pieces(data, 2)),
        ('check list on stdin', ['-c', '-'],
         lambda: pieces(sums(['a.txt', 'small', 'missing', 'b.txt', 'mid'], wrong=('b.txt',)) * 3, 3)),
        ('check list on stdin --strict -w', ['-c', '--strict', '-w', '-'],
         lambda: pieces(sums(['a.txt', 'small']) + b'junk line\n' + sums(['mid']), 4)),
    ]
    for label, args, feeder in cases:
        g = run(gnu, args, stdin=feeder())[0]
        for tool in shastas:
            s = run(tool, args, stdin=feeder())[0]
            report(f'short {label} [{tool.name}]', g == s, diff(g, s))
    # A FIFO operand, fed in pieces by a thread that opens it for writing.
    for label, args, payload in (
            ('fifo operand', ['a.txt', 'fifo', 'b.txt'], data),
            ('fifo check list', ['-c', 'fifo'], sums(['a.txt', 'small', 'missing', 'mid'], wrong=('a.txt',)) * 5)):
        results = []
        for tool in [gnu, *shastas]:
            if os.path.exists(fifo):
                os.unlink(fifo)
            os.mkfifo(fifo)

            def writer(payload=payload):
                with open(fifo, 'wb') as f:
                    try:
                        pieces(payload, 5)(f)
                    except BrokenPipeError:
                        pass
            t = threading.Thread(target=writer, daemon=True)
            t.start()
            results.append((tool, run(tool, args)[0]))
            t.join(30)
        g = results[0][1]
        for tool, s in results[1:]:
            report(f'short {label} [{tool.name}]', g == s, diff(g, s))
        os.unlink(fifo)


# --- files changed while they are read ----------------------------------------------------------

def tracee(strace_pid: int) -> int | None:
    """The process strace started (its child), once it exists."""
    try:
        with open(f'/proc/{strace_pid}/task/{strace_pid}/children') as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None
    except FileNotFoundError:  # a kernel without /proc/PID/task/TID/children: look for the parent
        for entry in os.listdir('/proc'):
            if entry.isdigit():
                try:
                    with open(f'/proc/{entry}/stat') as f:
                        if int(f.read().rsplit(')', 1)[1].split()[1]) == strace_pid:
                            return int(entry)
                except (OSError, ValueError, IndexError):
                    continue
        return None
    except (OSError, ValueError):
        return None


def position(pid: int, path: str) -> tuple[int, int] | None:
    """(descriptor, file position) of `pid`'s descriptor open on `path`, if one is."""
    try:
        for fd in os.listdir(f'/proc/{pid}/fd'):
            try:
                if os.readlink(f'/proc/{pid}/fd/{fd}') != path:
                    continue
                with open(f'/proc/{pid}/fdinfo/{fd}') as f:
                    for text in f:
                        if text.startswith('pos:'):
                            return int(fd), int(text.split()[1])
            except OSError:
                continue
    except OSError:
        pass
    return None


def in_read(pid: int, fd: int) -> bool:
    """Whether a thread of `pid` stands in read(fd, ...) (x86-64 and aarch64 number read 0 and 63)."""
    try:
        for tid in os.listdir(f'/proc/{pid}/task'):
            try:
                with open(f'/proc/{pid}/task/{tid}/syscall') as f:
                    words = f.read().split()
            except OSError:
                continue
            if len(words) > 1 and words[0] in ('0', '63') and int(words[1], 16) == fd:
                return True
    except OSError:
        pass
    return False


def run_mutating(tool: Tool, args: list[str], target: str, n: int, at: int, change, enter: bool) -> Result:
    """Runs the tool with its n-th read of `target` held (on entry or exit); once the file's
    position is `at` and the tool is held there, `change()` alters the file. A run whose moment
    this script missed (a loaded machine) is tried again with a longer hold."""
    path = os.path.join(WORK, target)
    for delay in DELAYS_US:
        done = []

        def during(p):
            deadline = time.monotonic() + 30
            while p.poll() is None and time.monotonic() < deadline:
                pid = tracee(p.pid)  # asked each time: strace first forks a child of its own to probe ptrace
                got = position(pid, path) if pid else None
                if got is not None and got[1] > at:
                    return
                if got is not None and got[1] == at and (not enter or in_read(pid, got[0])):
                    change()
                    done.append(True)
                    return
                time.sleep(0.0002)
        spec = f'delay_{"enter" if enter else "exit"}={delay}:when={n}'
        result = run(tool, args, trace=(path, 'read', spec), during=during)[0]
        if done:
            return result
        restore(target)
    raise RuntimeError(f'{tool.name} {args}: the file never stood at offset {at} during read {n}')


def group_mutate(gnu: Tool, shastas: list[Tool]) -> None:
    def truncate(name, size):
        return lambda: os.truncate(os.path.join(WORK, name), size)

    def append(name, extra):
        def go():
            with open(os.path.join(WORK, name), 'ab') as f:
                f.write(extra)
        return go
    extra = hashlib.sha512(b'appended').digest() * 1100  # 70,400 bytes
    lanes = [f'lane{i}' for i in range(LANE_FILES)]
    # (operands, target, [(offset to change it at (-1: its end), label, change, the bytes then hashed)])
    setups = []
    for target in ('grow', 'sm'):  # 300,000 bytes (256 KiB reads) and 100,000 (batched: one read)
        orig = FILES[target]
        plans = [
            (0, 'truncated to 1000 before the first read', truncate(target, 1000), orig[:1000]),
            (0, 'grown before the first read', append(target, extra), orig + extra),
            (-1, 'grown at its end', append(target, extra), orig + extra),
            (-1, 'grown by 10 bytes at its end', append(target, extra[:10]), orig + extra[:10]),
            (-1, 'truncated to 0 at its end', truncate(target, 0), orig),
        ]
        if target == 'grow':
            plans += [
                (262_144, 'truncated below the position', truncate(target, 100_000), orig[:262_144]),
                (262_144, 'truncated ahead of the position', truncate(target, 280_000), orig[:280_000]),
                (262_144, 'grown in the middle', append(target, extra), orig + extra),
            ]
        setups.append((['a.txt', target, 'b.txt'], target, plans))
    orig = FILES['lane2']  # on the lanes: 64 KiB chunks
    setups.append((['a.txt', *lanes], 'lane2', [
        (65_536, 'truncated below the position', truncate('lane2', 1000), orig[:65_536]),
        (-1, 'grown at its end', append('lane2', extra), orig + extra)]))
    orig = FILES['huge']  # alone and 16 MiB or more: a reader thread runs ahead in 1 MiB reads
    setups.append((['huge'], 'huge', [
        (1 << 20, 'truncated below the position', truncate('huge', 1000), orig[:1 << 20]),
        (-1, 'grown at its end', append('huge', extra), orig + extra)]))

    for operands, target, plans in setups:
        size = len(FILES[target])
        path = os.path.join(WORK, target)
        g_starts = read_starts(gnu, operands, path)
        gnu_results: dict[str, Result] = {}

        def held(t: Tool, starts: list[int], at: int, change) -> Result:
            n, enter = (1, True) if at == 0 else (read_ends(starts, size).index(at) + 1, False)
            try:
                return run_mutating(t, operands, target, n, at, change, enter)
            finally:
                restore(target)
        for tool in shastas:
            s_starts = read_starts(tool, operands, path)
            for at, label, change, hashed in plans:
                at = size if at < 0 else at
                expected = b''.join(line(n, FILES[n]) if n != target else line(n, hashed) for n in operands)
                if label not in gnu_results:
                    gnu_results[label] = held(gnu, g_starts, at, change)
                g = gnu_results[label]
                s = held(tool, s_starts, at, change)
                problems = diff(g, s)
                if g.stdout != expected:
                    problems += f'\n   GNU did not hash the expected bytes: {g.stdout!r:.300}'
                report(f'mutate {target} {label} ({" ".join(operands)}) [{tool.name}]', not problems, problems)
            # The allowance: changed after each tool's first read, which ends at different offsets.
            ends = [read_ends(st, size)[0] for st in (g_starts, s_starts)]
            outs = [held(t, st, end, truncate(target, 0)) for t, st, end in ((gnu, g_starts, ends[0]),
                                                                             (tool, s_starts, ends[1]))]
            ok = all(o.stdout == b''.join(line(n, FILES[n]) if n != target else line(n, FILES[target][:end])
                                          for n in operands) and o.rc == 0 and o.stderr == b''
                     for o, end in zip(outs, ends))
            report(f'mutate-unaligned {target} truncated after the first read ({" ".join(operands)}) '
                   f'[{tool.name}]: gnu read {ends[0]}, shasta {ends[1]}', ok,
                   diff(*outs) + f'\n   each should hash its own prefix {ends}', allowed=ends[0] != ends[1])
    # --check: a listed file grows at its end, so both find it FAILED.
    for target in ('grow', 'sm'):
        size = len(FILES[target])
        put('list.sha256', sums(['a.txt', target, 'b.txt']))
        args = ['-c', 'list.sha256']
        path = os.path.join(WORK, target)
        results = []
        for t in [gnu, *shastas]:
            ends = read_ends(read_starts(t, args, path), size)
            results.append(run_mutating(t, args, target, ends.index(size) + 1, size, append(target, b'x'), False))
            restore(target)
        for tool, s in zip(shastas, results[1:]):
            report(f'mutate -c {target} grown at its end [{tool.name}]',
                   s == results[0] and b'FAILED' in s.stdout, diff(results[0], s))


# --- EINTR: the allowances ----------------------------------------------------------------------

def group_eintr(gnu: Tool, shastas: list[Tool]) -> None:
    for target in ('small', 'mid', 'big'):
        operands = ['a.txt', target, 'b.txt']
        clean = run(gnu, operands)[0]
        path = os.path.join(WORK, target)
        g_starts = read_starts(gnu, operands, path)
        for tool in shastas:
            s_starts = read_starts(tool, operands, path)
            for off, ng, ns in shared_offsets(g_starts, s_starts):
                g = run(gnu, operands, trace=(path, 'read', f'error=EINTR:when={ng}'))[0]
                s = run(tool, operands, trace=(path, 'read', f'error=EINTR:when={ns}'))[0]
                gnu_as_expected = (g.stdout == clean.stdout.replace(line(target, FILES[target]), b'') and
                                   g.stderr == f'sha256sum: {target}: Interrupted system call\n'.encode() and g.rc == 1)
                report(f'eintr-read {target} @{off} [{tool.name}]', s == clean and gnu_as_expected,
                       f'   shasta must retry and match the fault-free run; GNU must report EINTR\n{diff(clean, s)}'
                       f'\n   gnu={g!r:.400}', allowed=True)
    out_file = os.path.join(WORK, 'out')
    operands = ['a.txt', 'small', 'b.txt']
    clean = run(gnu, operands)[0]
    for when in ('1', '2'):
        g = run(gnu, operands, trace=(out_file, 'write', f'error=EINTR:when={when}'), stdout_file=out_file)[0]
        for tool in shastas:
            s = run(tool, operands, trace=(out_file, 'write', f'error=EINTR:when={when}'), stdout_file=out_file)[0]
            report(f'eintr-write @{when} [{tool.name}]', s == clean and g.rc == 1 and b'write error' in g.stderr,
                   diff(clean, s) + f'\n   gnu={g!r:.300}', allowed=True)


# --- -c with -j over a long list ----------------------------------------------------------------

def group_check_jobs(gnu: Tool, shasta_bin: str, jobs: tuple[int, ...]) -> None:
    names = ['a.txt', 'empty', 'small', 'missing', 'exact', 'mid', 'big', 'b.txt'] + \
        [f'lane{i}' for i in range(LANE_FILES)] + ['sm', 'grow', 'missing2']
    put('list.sha256', sums(names, wrong=('small', 'lane3', 'grow')) + b'not a line\n' + sums(['a.txt']))
    tools = [Tool(f'-j{j}', shasta_bin, (f'-j{j}',)) for j in jobs]
    for target in ('mid', 'lane4', 'big'):
        compare(f'check-j {target}', gnu, tools, ['-c', 'list.sha256'], target, 'read', eio_specs)
        compare(f'check-j {target} --quiet -w', gnu, tools, ['-c', '--quiet', '-w', 'list.sha256'], target, 'read',
                eio_specs)


def strace_works() -> str | None:
    if STRACE is None:
        return 'strace is not installed'
    p = subprocess.run([STRACE, '-qq', '-o', '/dev/null', '-e', 'inject=getpid:error=EIO', '/bin/true'],
                       capture_output=True)
    return None if p.returncode == 0 else f'strace cannot trace here: {p.stderr[:200]!r}'


def main() -> int:
    global WORK, VERBOSE
    args = [a for a in sys.argv[1:] if a not in ('-v', '--quick')]
    VERBOSE = '-v' in sys.argv[1:]
    quick = '--quick' in sys.argv[1:]
    groups = [a for a in args[1:]]
    if not args:
        print(__doc__)
        return 2
    shasta = os.path.abspath(args[0])
    why = strace_works()
    if why:
        print(f'SKIPPED: {why}')
        return 77
    if not os.access(GNU, os.X_OK):
        print(f'SKIPPED: {GNU} (GNU coreutils) is missing')
        return 77
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix='shasta-faults-') as tmp:
        WORK = os.path.join(tmp, 'fx')
        os.mkdir(WORK)
        os.mkdir(os.path.join(tmp, 'gnu'))
        os.symlink(GNU, os.path.join(tmp, 'gnu', 'sha256sum'))
        gnu = Tool('gnu', os.path.join(tmp, 'gnu'))
        shasta_bin = os.path.dirname(shasta)  # the build's link sha256sum -> shasta
        if os.path.realpath(os.path.join(shasta_bin, 'sha256sum')) != os.path.realpath(shasta):
            shasta_bin = os.path.join(tmp, 'shasta')
            os.mkdir(shasta_bin)
            os.symlink(shasta, os.path.join(shasta_bin, 'sha256sum'))
        shastas = [Tool('sha256sum', shasta_bin), Tool('-j1', shasta_bin, ('-j1',)), Tool('-j3', shasta_bin, ('-j3',))]
        if quick:
            shastas = shastas[2:]
        make_fixture()
        all_groups = {
            'eio': lambda: group_eio(gnu, shastas),
            'checkfile': lambda: group_checkfile(gnu, shastas),
            'write': lambda: group_write(gnu, shastas),
            'short': lambda: group_short(gnu, shastas),
            'eintr': lambda: group_eintr(gnu, shastas),
            'mutate': lambda: group_mutate(gnu, shastas[:2]),
            'check-j': lambda: group_check_jobs(gnu, shasta_bin, (2, 8) if quick else (1, 2, 3, 8)),
        }
        counts = {}
        for name, fn in all_groups.items():
            if groups and name not in groups:
                continue
            before = COMPARISONS
            try:
                fn()
            except RuntimeError as e:
                print(f'harness error in {name}: {e}', file=sys.stderr)
                return 2
            counts[name] = COMPARISONS - before
    print('per group: ' + ', '.join(f'{k} {v}' for k, v in counts.items()))
    print(f'{COMPARISONS} comparisons with GNU under injected faults, {FAILED} failed, '
          f'{ALLOWED} justified differences allowed ({time.monotonic() - t0:.1f} s)')
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
