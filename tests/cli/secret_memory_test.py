#!/usr/bin/env python3
"""Whether a running shasta still holds a secret it has finished with: its memory, read whole.

    python3 tests/cli/secret_memory_test.py PATH/TO/shasta [-k SUBSTRING]

`shasta hmac` needs its key only until the key's pads are hashed, and `shasta pbkdf2` its password
only until the password's pads are: from then on the raw secret is to be gone from the process, its
heap, stack, argv and environment alike, however long the hashing goes on (a large file, a FIFO that
waits, a million iterations). Each case stops the process at such a moment: `hmac` blocked reading a
FIFO after its key was prepared, `pbkdf2` a fifth of a second into its iterations. It then reads
every mapping in /proc/PID/maps through /proc/PID/mem and looks for each 16-byte piece of the secret
(and of its hex, where it was given in hex). Each case also looks for a token of its command line
that must be there, so that a scan that read nothing cannot pass.

The processes make themselves non-dumpable, so reading their memory takes CAP_SYS_PTRACE: without
it (not root, or Yama's ptrace_scope 3) the test exits 77, which ctest counts as skipped; so it does
under the sanitizers (SHASTA_SANITIZED), whose quarantines and shadow maps are theirs, not ours.

Not covered: hkdf, which never waits after reading its IKM (it derives and exits at once), and a
password typed at a terminal (read by the same Secret as a file's; tests/cli/secret_handling_test.py
drives the terminal). Prints one line per failed case and a summary 'N cases, M failed'.
Standard library only (Python 3.11).
"""

from __future__ import annotations

import errno
import hmac
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time

from tally import Tally

SHASTA = ''
WORK = ''
ENV = {k: v for k, v in os.environ.items() if not k.startswith('LC_') and k != 'LANG'} | {'LC_ALL': 'C'}
TALLY = Tally()
case = TALLY.case
wanted = TALLY.wanted
PIECE = 16  # a secret's pieces searched for: any 16 bytes of it left anywhere is a leak


def memory_of(pid: int) -> bytes:
    """Every readable mapping of process `pid`, concatenated (with a separator between mappings,
    so that no match spans two). Raises PermissionError where /proc/PID/mem cannot be read."""
    chunks = []
    with open(f'/proc/{pid}/maps') as maps:
        regions = [line.split() for line in maps]
    fd = os.open(f'/proc/{pid}/mem', os.O_RDONLY)
    try:
        for fields in regions:
            start, end = (int(x, 16) for x in fields[0].split('-'))
            name = fields[5] if len(fields) > 5 else ''
            if 'r' not in fields[1] or name in ('[vvar]', '[vsyscall]'):
                continue
            try:
                chunks.append(os.pread(fd, end - start, start))
            except OSError as e:
                if e.errno == errno.EPERM or e.errno == errno.EACCES:
                    raise PermissionError(e.errno, e.strerror) from e
                continue  # EIO: a guard page or a mapping beyond its file's end
            chunks.append(b'\0' * PIECE)
    finally:
        os.close(fd)
    return b''.join(chunks)


def pieces(secret: bytes) -> list[bytes]:
    """The secret's 16-byte pieces, at every 8th offset (the last one ending at its end)."""
    starts = sorted(set(list(range(0, len(secret) - PIECE + 1, 8)) + [len(secret) - PIECE]))
    return [secret[i:i + PIECE] for i in starts]


def left_in(memory: bytes, secrets_given: dict[str, bytes]) -> list[str]:
    """Names of the secrets some piece of which `memory` holds, with the count of pieces found."""
    found = []
    for what, secret in secrets_given.items():
        hits = [p for p in pieces(secret) if p in memory]
        if hits:
            found.append(f'{what}: {len(hits)} of {len(pieces(secret))} pieces')
    return found


def can_read_memory() -> bool:
    """Whether this process may read a non-dumpable child's memory (CAP_SYS_PTRACE)."""
    child = subprocess.Popen([SHASTA, 'hmac', '--key-hex', '00' * 16, '-'], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    try:
        time.sleep(0.2)  # past its prctl(PR_SET_DUMPABLE, 0), blocked on standard input
        memory_of(child.pid)
        return True
    except (PermissionError, FileNotFoundError):
        return False
    finally:
        child.kill()
        child.wait()


def wait_for_reader(fifo: str, child: subprocess.Popen) -> int | None:
    """Opens `fifo` for writing once `child` has it open for reading (a writer's O_NONBLOCK open
    fails with ENXIO until then). Returns the write descriptor, or None if the child ended."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
        if child.poll() is not None:
            return None
        time.sleep(0.01)
    return None


def wait_until_blocked(pid: int) -> None:
    """Until the process sleeps (its reader thread waiting on the FIFO's first byte), at most 5 s."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with open(f'/proc/{pid}/stat') as f:
            if f.read().rsplit(')', 1)[1].split()[0] == 'S':
                return
        time.sleep(0.01)


def start(argv: list[str], stdin: bytes | None, env: dict[str, str] | None = None) -> subprocess.Popen:
    """`shasta ARGV` in WORK with its output piped, `stdin` (if any) written to it and closed."""
    child = subprocess.Popen([SHASTA, *argv], stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV | (env or {}), cwd=WORK)
    if stdin is not None:
        child.stdin.write(stdin)
        child.stdin.close()
        child.stdin = None  # communicate() must not flush it again
    return child


def hmac_case(name: str, key_args: list[str], key: bytes, given: dict[str, bytes], stdin: bytes | None = None,
              env: dict[str, str] | None = None) -> None:
    """`shasta hmac KEY_ARGS FIFO`, its memory read while it waits on the FIFO (its key prepared),
    then the FIFO closed: the tag of the empty message must be HMAC(key, '')."""
    if not wanted(name):
        return
    token = secrets.token_hex(8)
    fifo = os.path.join(WORK, f'fifo-{token}')
    os.mkfifo(fifo)
    child = start(['hmac', '-a', '256', *key_args, fifo], stdin, env)
    problems = []
    try:
        writer = wait_for_reader(fifo, child)
        if writer is None:
            case(name, False, f'it never opened the FIFO: stderr {child.stderr.read()[:200]!r}')
            return
        wait_until_blocked(child.pid)
        memory = memory_of(child.pid)
        os.close(writer)
        out, err = child.communicate(timeout=30)
        if token.encode() not in memory:
            problems.append('the scan missed the FIFO name on its command line (it read nothing?)')
        problems += left_in(memory, given)
        want = f'{hmac.new(key, b"", "sha256").hexdigest()}  {fifo}\n'.encode()
        if child.returncode != 0 or out != want:
            problems.append(f'exit {child.returncode}, stdout {out[:120]!r}, want {want!r}, stderr {err[:200]!r}')
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.unlink(fifo)
    case(name, not problems, '; '.join(problems))


def test_hmac() -> None:
    key = secrets.token_bytes(64)
    key_file = os.path.join(WORK, 'key')
    with open(key_file, 'wb') as f:
        f.write(key)
    hmac_case('hmac --key-file FILE', ['--key-file', key_file], key, {'key': key})
    hmac_case('hmac --key-file - (a pipe)', ['--key-file', '-'], key, {'key': key}, stdin=key)
    hmac_case('hmac --key-hex', ['--key-hex', key.hex()], key, {'key': key, 'its hex': key.hex().encode()})
    hmac_case('hmac --key-hex=', [f'--key-hex={key.hex().upper()}'], key,
              {'key': key, 'its hex': key.hex().upper().encode()})
    # A key longer than the block is hashed down first: neither it nor its digest may stay.
    long_key = secrets.token_bytes(200)
    with open(key_file, 'wb') as f:
        f.write(long_key)
    hmac_case('hmac --key-file FILE (200 bytes)', ['--key-file', key_file], long_key, {'key': long_key})
    # An environment variable's value is the process's own copy of it (/proc/PID/environ).
    text_key = secrets.token_hex(24).encode()
    hmac_case('hmac --key-env', ['--key-env', 'SHASTA_TEST_KEY'], text_key, {'key': text_key},
              env={'SHASTA_TEST_KEY': text_key.decode()})


def cpu_ticks(pid: int) -> int:
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15)


def pbkdf2_case(name: str, args: list[str], password: bytes, stdin: bytes | None) -> None:
    """`shasta pbkdf2 ARGS` with an iteration count no test waits for: its memory read once it has
    run 0.2 s of iterations, then killed."""
    if not wanted(name):
        return
    token = secrets.token_hex(8)
    child = start(['pbkdf2', '-a', '256', '-i', str(1 << 40), '--salt', token, *args], stdin)
    problems = []
    try:
        deadline = time.monotonic() + 30
        hz = os.sysconf('SC_CLK_TCK')
        while child.poll() is None and cpu_ticks(child.pid) < hz // 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        if child.poll() is not None:
            case(name, False, f'exit {child.returncode}: stderr {child.stderr.read()[:200]!r}')
            return
        os.kill(child.pid, signal.SIGSTOP)
        memory = memory_of(child.pid)
        if token.encode() not in memory:
            problems.append('the scan missed the salt on its command line (it read nothing?)')
        problems += left_in(memory, {'password': password})
    finally:
        child.kill()
        child.wait()
    case(name, not problems, '; '.join(problems))


def test_pbkdf2() -> None:
    password = secrets.token_hex(20).encode()
    password_file = os.path.join(WORK, 'password')
    with open(password_file, 'wb') as f:
        f.write(password + b'\n')
    pbkdf2_case('pbkdf2 --password-file FILE', ['--password-file', password_file], password, None)
    pbkdf2_case('pbkdf2, password on standard input', [], password, password + b'\n')
    long_password = secrets.token_bytes(300)
    with open(password_file, 'wb') as f:
        f.write(long_password)
    pbkdf2_case('pbkdf2 --password-file FILE (300 bytes)', ['--password-file', password_file, '--keep-newline'],
                long_password, None)


TESTS = [test_hmac, test_pbkdf2]


def main() -> int:
    global SHASTA, WORK
    argv = sys.argv[1:]
    if '-k' in argv:
        i = argv.index('-k')
        TALLY.only = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    SHASTA = os.path.abspath(argv[0])
    if os.environ.get('SHASTA_SANITIZED'):
        print('SKIPPED: the memory scan needs a build without sanitizers (their quarantine and shadow maps)')
        return 77
    if not can_read_memory():
        print('SKIPPED: reading a non-dumpable process\'s memory needs CAP_SYS_PTRACE (run as root)')
        return 77
    with tempfile.TemporaryDirectory(prefix='shasta-secret-memory-') as work:
        WORK = work
        for test in TESTS:
            test()
    return TALLY.finish()


if __name__ == '__main__':
    sys.exit(main())
