#!/usr/bin/env python3
"""How shasta's keyed subcommands (hmac, hkdf, pbkdf2) treat their secrets.

    python3 tests/cli/secret_handling_test.py PATH/TO/shasta [-k SUBSTRING]

Each case is one of the hardening rules a careless or hostile user found missing:
  * a key, password, salt or IKM read from a file or standard input holds at most 1 MiB;
    /dev/zero is refused at once, in bounded memory;
  * `pbkdf2` reading its password from a terminal prompts on stderr with echo off, and puts the
    terminal back however it ends (Enter, Ctrl-D, a signal);
  * the keyed commands make no core file (RLIMIT_CORE 0, not dumpable);
  * a message about a bad option never shows the option's value;
  * a secret given in argv (--key-hex, --ikm-hex, --prk-hex) is overwritten there once read, so
    that ps and /proc/PID/cmdline stop showing it;
  * the key and a FILE, or the salt and the password, are never the same stream under two names;
  * `hkdf --tls13-label` is given once and is not empty.

Prints one line per failed case and a summary 'N cases, M failed'. Exit status 1 on any failure.
Standard library only (Python 3.11).
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time

from tally import Tally

SHASTA = ''
WORK = ''
ENV = {k: v for k, v in os.environ.items() if not k.startswith('LC_') and k != 'LANG'} | {'LC_ALL': 'C'}
MIB = 1 << 20
TALLY = Tally()
case = TALLY.case
wanted = TALLY.wanted


def limit_memory(megabytes: int):
    # A sanitizer's shadow memory needs terabytes of address space: under ASan/TSan (the build says
    # so in SHASTA_SANITIZED) the refusal is still checked, without the address-space cap.
    if os.environ.get('SHASTA_SANITIZED'):
        return None

    def preexec():
        resource.setrlimit(resource.RLIMIT_AS, (megabytes * MIB, megabytes * MIB))
    return preexec


def run(args, stdin: bytes = b'', timeout: float = 60, preexec=None, stdout=subprocess.PIPE):
    p = subprocess.run([SHASTA, *args], input=stdin, stdout=stdout, stderr=subprocess.PIPE, cwd=WORK, env=ENV,
                       timeout=timeout, preexec_fn=preexec)
    return p.returncode, p.stdout or b'', p.stderr


def write(name: str, data: bytes) -> str:
    with open(os.path.join(WORK, name), 'wb') as f:
        f.write(data)
    return name


def expect_refusal(name: str, args, err_has: bytes, stdin: bytes = b'', err_lacks: bytes = b'', preexec=None) -> None:
    if not wanted(name):
        return
    try:
        rc, out, err = run(args, stdin, timeout=30, preexec=preexec)
    except subprocess.TimeoutExpired:
        case(name, False, 'timed out')
        return
    problems = []
    if rc != 1:
        problems.append(f'exit {rc}, want 1')
    if out:
        problems.append(f'stdout {out[:80]!r}, want nothing')
    if err_has not in err:
        problems.append(f'stderr {err[:200]!r} lacks {err_has!r}')
    if err_lacks and err_lacks in err:
        problems.append(f'stderr {err[:200]!r} shows {err_lacks!r}')
    case(name, not problems, '; '.join(problems))


def expect_output(name: str, args, want: bytes, stdin: bytes = b'') -> None:
    if not wanted(name):
        return
    rc, out, err = run(args, stdin)
    case(name, rc == 0 and out == want, f'exit {rc}, stdout {out[:100]!r}, want {want[:100]!r}, stderr {err[:200]!r}')


# ------------------------------------------------------------------------------------------------
# Secrets read from files: at most 1 MiB

def test_secret_size_limit() -> None:
    limit = b'more than 1048576 bytes'
    small_memory = limit_memory(256)  # /dev/zero read whole would pass this long before the timeout
    expect_refusal('limit: hmac --key-file /dev/zero', ['hmac', '--key-file', '/dev/zero', '/dev/null'], limit,
                   preexec=small_memory)
    expect_refusal('limit: hkdf --ikm-file /dev/zero', ['hkdf', '--ikm-file', '/dev/zero'], limit, preexec=small_memory)
    expect_refusal('limit: hkdf --prk-file /dev/zero', ['hkdf', '--prk-file', '/dev/zero'], limit, preexec=small_memory)
    expect_refusal('limit: pbkdf2 --password-file /dev/zero',
                   ['pbkdf2', '-i', '1', '--salt', 's', '--password-file', '/dev/zero'], limit, preexec=small_memory)
    expect_refusal('limit: pbkdf2 --salt-file /dev/zero', ['pbkdf2', '-i', '1', '--salt-file', '/dev/zero'],
                   limit + b' (the limit for a salt read', stdin=b'pw', preexec=small_memory)
    expect_refusal('limit: hkdf --ikm-file /dev/zero, named a secret', ['hkdf', '--ikm-file', '/dev/zero'],
                   limit + b' (the limit for a secret read', preexec=small_memory)
    expect_refusal('limit: pbkdf2 password of 1 MiB + 1 on stdin', ['pbkdf2', '-i', '1', '--salt', 's'], limit,
                   stdin=b'p' * (MIB + 1))
    # Exactly the limit is accepted.
    key = b'k' * MIB
    write('key-1mib', key)
    expect_output('limit: hmac key of exactly 1 MiB', ['hmac', '--key-file', 'key-1mib', '-'],
                  hmac.new(key, b'msg', 'sha256').hexdigest().encode() + b'  -\n', stdin=b'msg')
    expect_output('limit: pbkdf2 password of exactly 1 MiB', ['pbkdf2', '-i', '1', '--salt', 's', '--keep-newline'],
                  hashlib.pbkdf2_hmac('sha256', key, b's', 1).hex().encode() + b'\n', stdin=key)
    if wanted('limit: --help'):
        for sub in ('hmac', 'hkdf', 'pbkdf2'):
            rc, out, _ = run([sub, '--help'])
            case(f'limit: {sub} --help states it', rc == 0 and b'1 MiB' in out, f'exit {rc}, no "1 MiB" in --help')


# ------------------------------------------------------------------------------------------------
# pbkdf2 at a terminal: a prompt, no echo, the terminal put back

def read_until(fd: int, want: bytes, seconds: float) -> bytes:
    got = b''
    deadline = time.monotonic() + seconds
    while want not in got and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the other side closed
                break
            if not chunk:
                break
            got += chunk
    return got


def echo_on(fd: int) -> bool:
    return bool(termios.tcgetattr(fd)[3] & termios.ECHO)


def pbkdf2_at_terminal(name: str, finish, extra: tuple[str, ...] = ()) -> None:
    """Runs pbkdf2 with its stdin and stderr on a new pseudo-terminal, waits for the prompt, checks
    that echo is off, then lets `finish(process, master)` end the read; returns what it checks."""
    if not wanted(name):
        return
    master, slave = os.openpty()
    p = subprocess.Popen([SHASTA, 'pbkdf2', '-i', '1', '--salt', 's', *extra], stdin=slave, stderr=slave,
                         stdout=subprocess.PIPE, cwd=WORK, env=ENV, start_new_session=True)
    try:
        prompt = read_until(master, b'Password: ', 3)
        case(f'{name}: a prompt on stderr', b'Password: ' in prompt, f'terminal showed {prompt!r}')
        case(f'{name}: echo off while typing', not echo_on(slave), 'ECHO is still set')
        problems = finish(p, master)
        case(f'{name}: terminal put back', echo_on(slave), 'ECHO left off')
        case(name, not problems, problems)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdout.close()
        os.close(master)
        os.close(slave)


def typed(p, master) -> str:
    os.write(master, b'hunter2\n')
    try:
        out, _ = p.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        return 'still reading after the line was typed (Enter)'
    shown = read_until(master, b'never', 0.3)
    want = hashlib.pbkdf2_hmac('sha256', b'hunter2', b's', 1).hex().encode() + b'\n'
    problems = []
    if b'hunter2' in shown:
        problems.append(f'the password was echoed: {shown!r}')
    if p.returncode != 0 or out != want:
        problems.append(f'exit {p.returncode}, stdout {out!r}, want {want!r}')
    return '; '.join(problems)


def signalled(sig):
    def finish(p, master) -> str:
        p.send_signal(sig)
        p.wait(5)
        return '' if p.returncode == -sig else f'exit {p.returncode}, want death by signal {sig}'
    return finish


def end_of_file(p, master) -> str:
    os.write(master, b'\x04')  # Ctrl-D at the start of a line: an empty password, refused
    try:
        out, _ = p.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        return 'still reading after Ctrl-D'
    return '' if p.returncode == 1 and out == b'' else f'exit {p.returncode}, stdout {out!r}, want exit 1 and nothing'


def end_of_file_accepted(p, master) -> str:
    os.write(master, b'\x04')  # the same, with --empty-password
    try:
        out, _ = p.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        return 'still reading after Ctrl-D'
    want = hashlib.pbkdf2_hmac('sha256', b'', b's', 1).hex().encode() + b'\n'
    return '' if p.returncode == 0 and out == want else f'exit {p.returncode}, stdout {out!r}, want {want!r}'


def test_terminal_password() -> None:
    pbkdf2_at_terminal('tty: pbkdf2 password typed', typed)
    pbkdf2_at_terminal('tty: pbkdf2 interrupted (SIGINT)', signalled(signal.SIGINT))
    pbkdf2_at_terminal('tty: pbkdf2 terminated (SIGTERM)', signalled(signal.SIGTERM))
    pbkdf2_at_terminal('tty: pbkdf2 hung up (SIGHUP)', signalled(signal.SIGHUP))
    pbkdf2_at_terminal('tty: pbkdf2 Ctrl-D (an empty password, refused)', end_of_file)
    pbkdf2_at_terminal('tty: pbkdf2 Ctrl-D with --empty-password', end_of_file_accepted, ('--empty-password',))
    # hmac's key and hkdf's IKM are not asked for: a terminal there would show them as typed (the
    # reads waited with echo on); refused before anything is read. pbkdf2's salt is no secret, and
    # its refusal says why it is refused instead (it would be read to the end, newline and all).
    secret_typed = b'a terminal: a secret typed there would be shown'
    for args, err_has in ((['hmac', '--key-file', '-', '/dev/null'], secret_typed),
                          (['hkdf', '--ikm-file', '-'], secret_typed), (['hkdf', '--prk-file', '-'], secret_typed),
                          (['pbkdf2', '-i', '1', '--salt-file', '-', '--password-file', '/dev/null',
                            '--empty-password'], b'-: a terminal: the salt is read to its end, newline and all')):
        name = f'tty: {" ".join(args)} at a terminal is refused'
        if not wanted(name):
            continue
        master, slave = os.openpty()
        p = subprocess.Popen([SHASTA, *args], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=WORK,
                             env=ENV, start_new_session=True)
        try:
            out, err = p.communicate(timeout=5)
            case(name, p.returncode == 1 and out == b'' and err_has in err,
                 f'exit {p.returncode}, stdout {out!r}, stderr {err!r}')
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            case(name, False, 'waited for the secret to be typed')
        finally:
            os.close(master)
            os.close(slave)


# ------------------------------------------------------------------------------------------------
# No core files while secrets are in memory

def core_limit(pid: int) -> str:
    with open(f'/proc/{pid}/limits') as f:
        for line in f:
            if line.startswith('Max core file size'):
                return line.split()[4]  # the soft limit
    return '?'


def test_no_core_dumps() -> None:
    """Each keyed command, blocked reading standard input (a secret or a message), must have made
    itself undumpable: RLIMIT_CORE 0, and (Linux) PR_SET_DUMPABLE 0, which /proc shows by owning the
    process's files (status) by root. The child runs as an unprivileged user so that the owner tells."""
    def allow_cores(as_user: int | None):
        def preexec():
            hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
            resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
            if as_user is not None:
                os.setgid(as_user)
                os.setuid(as_user)
        return preexec

    commands = {'hmac': ['hmac', '--key-hex', '00', '-'], 'hkdf': ['hkdf', '--ikm-file', '-'],
                'pbkdf2': ['pbkdf2', '-i', '1', '--salt', 's']}
    for sub, args in commands.items():
        name = f'core: {sub}'
        if not wanted(name):
            continue
        user = 65534 if os.geteuid() == 0 else None  # root owns every /proc file of a root process
        try:
            p = subprocess.Popen([SHASTA, *args], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, cwd='/', env=ENV, preexec_fn=allow_cores(user))
        except PermissionError:  # nobody may not reach the build tree: the owner then tells nothing
            user = None
            p = subprocess.Popen([SHASTA, *args], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, cwd='/', env=ENV, preexec_fn=allow_cores(None))
        owner_tells = user is not None or os.geteuid() != 0
        try:
            deadline = time.monotonic() + 3
            limit, owner = '?', -1
            while time.monotonic() < deadline:
                limit, owner = core_limit(p.pid), os.stat(f'/proc/{p.pid}/status').st_uid
                if limit == '0' and (owner == 0 or not owner_tells):
                    break
                time.sleep(0.05)
            case(f'{name}: RLIMIT_CORE 0', limit == '0', f'the soft core limit is {limit}')
            if owner_tells:
                case(f'{name}: not dumpable', owner == 0, f'/proc/{p.pid}/status is owned by {owner}, not root')
        finally:
            p.kill()
            p.wait()
            p.stdin.close()


# ------------------------------------------------------------------------------------------------
# Messages about bad options never show a value

def test_option_values_not_echoed() -> None:
    secret = b'hunter2'
    cases = {
        'hmac --key=SECRET (ambiguous)': (['hmac', '--key=hunter2', '/dev/null'], b"option '--key' is ambiguous"),
        'hmac --key-h=SECRET (abbreviated)': (['hmac', '--key-h=hunter2', '/dev/null'], b"must be written in full"),
        'hmac --key-f SECRET (abbreviated)': (['hmac', '--key-f', 'hunter2', '/dev/null'], b"must be written in full"),
        'hmac --nonsense=SECRET': (['hmac', '--key-hex', '00', '--nonsense=hunter2'], b"unrecognized option '--nonsense'"),
        'hmac --empty-key=SECRET': (['hmac', '--key-hex', '00', '--empty-key=hunter2'], b"doesn't allow an argument"),
        'pbkdf2 --password=SECRET': (['pbkdf2', '-i', '1', '--salt', 's', '--password=hunter2'],
                                     b"must be written in full"),
        'pbkdf2 SECRET as an operand': (['pbkdf2', '-i', '1', '--salt', 's', 'hunter2'], b'unexpected argument'),
        'pbkdf2 --salt-h=SECRET': (['pbkdf2', '-i', '1', '--salt-h=hunter2'], b"must be written in full"),
        'hkdf --ikm=SECRET (ambiguous)': (['hkdf', '--ikm=hunter2'], b"option '--ikm' is ambiguous"),
        'hkdf --prk-h=SECRET': (['hkdf', '--prk-h=hunter2'], b"must be written in full"),
        'hkdf --extract=SECRET': (['hkdf', '--ikm-hex', '00', '--extract=hunter2'], b"doesn't allow an argument"),
        'hkdf SECRET as an operand': (['hkdf', '--ikm-hex', '00', 'hunter2'], b'unexpected argument'),
        # A value an option refuses (a secret given where it belongs, as "-a --key-hex=...") is not
        # shown either: the option is named instead.
        'hmac -a SECRET': (['hmac', '--key-hex', '00', '-a', 'hunter2', '/dev/null'], b'-a: not an algorithm'),
        'hmac -j SECRET': (['hmac', '--key-hex', '00', '-j', 'hunter2', '/dev/null'], b'-j: not a number of jobs'),
        'hmac --key-env SECRET': (['hmac', '--key-env', 'hunter2', '/dev/null'], b'--key-env: the environment variable'),
        'hkdf -a SECRET': (['hkdf', '--ikm-hex', '00', '-a', 'hunter2'], b'-a: not an algorithm'),
        'hkdf -l SECRET': (['hkdf', '--ikm-hex', '00', '-l', 'hunter2'], b'-l: not a length'),
        'pbkdf2 -a SECRET': (['pbkdf2', '-i', '1', '--salt', 's', '-a', 'hunter2'], b'-a: not an algorithm'),
        'pbkdf2 -i SECRET': (['pbkdf2', '-i', 'hunter2', '--salt', 's'], b'-i: not an iteration count'),
        'pbkdf2 -l SECRET': (['pbkdf2', '-i', '1', '--salt', 's', '-l', 'hunter2'], b'-l: not a length'),
    }
    for name, (args, err_has) in cases.items():
        expect_refusal(f'echo: {name}', args, err_has, stdin=b'pw', err_lacks=secret)
    # "--=x" names no option (an empty prefix of all): hmac lists its own, key options included,
    # and as the value of an option it is that value, not a cue to forget hmac's options.
    expect_refusal('echo: hmac --= lists the key options', ['hmac', '--key-hex', '00', '--=', '/dev/null'],
                   b"'--key-hex' '--key-file' '--key-env' '--empty-key'")
    write('--=k', b'secret key')
    expect_output('echo: hmac --key-file --=k reads the file --=k', ['hmac', '--key-file', '--=k', '/dev/null'],
                  hmac.new(b'secret key', b'', 'sha256').hexdigest().encode() + b'  /dev/null\n')
    # Options without a value may still be abbreviated as GNU's are (--stat for --status).
    expect_output('echo: hmac --stat still abbreviates --status', ['hmac', '--key-hex', '00', '-c', '--stat', '-'],
                  b'', stdin=hmac.new(b'\0', b'', 'sha256').hexdigest().encode() + b'  /dev/null\n')


# ------------------------------------------------------------------------------------------------
# Two inputs on one stream, under two names

def test_one_stream_two_names() -> None:
    both = b'cannot both be standard input'
    expect_refusal('stream: hmac --key-file /dev/stdin FILE /dev/stdin', ['hmac', '--key-file', '/dev/stdin',
                   '/dev/stdin'], both, stdin=b'key')
    expect_refusal('stream: hmac --key-file - FILE /dev/stdin', ['hmac', '--key-file', '-', '/dev/stdin'], both,
                   stdin=b'key')
    expect_refusal('stream: hmac --key-file /dev/stdin FILE -', ['hmac', '--key-file', '/dev/stdin', '-'], both,
                   stdin=b'key')
    expect_refusal('stream: hmac -c with --key-file /dev/stdin', ['hmac', '--key-file', '/dev/stdin', '-c',
                   '/dev/stdin'], both, stdin=b'key')
    expect_refusal('stream: pbkdf2 --salt-file /dev/stdin, password on stdin', ['pbkdf2', '-i', '1', '--salt-file',
                   '/dev/stdin'], b'cannot both be standard input', stdin=b'pw')
    expect_refusal('stream: pbkdf2 --salt-file - --password-file /dev/stdin', ['pbkdf2', '-i', '1', '--salt-file',
                   '-', '--password-file', '/dev/stdin'], b'cannot both be standard input', stdin=b'pw')
    # A check line naming the stream the key used up fails as unreadable (it digested the empty rest
    # of standard input, and said FAILED, before); the other lines are still checked.
    name = 'stream: hmac -c, a line naming the key\'s standard input'
    if wanted(name):
        write('data', b'data')
        tag = hmac.new(b'key', b'data', 'sha256').hexdigest()
        empty = hmac.new(b'key', b'', 'sha256').hexdigest()
        write('tags', f'{tag}  data\n{empty}  -\n{empty}  /dev/stdin\n'.encode())
        for key_file in ('-', '/dev/stdin'):
            rc, out, err = run(['hmac', '--key-file', key_file, '-c', 'tags'], stdin=b'key')
            want_out = b'data: OK\n-: FAILED open or read\n/dev/stdin: FAILED open or read\n'
            want_err = (b"shasta hmac: -: already read to its end for the key\n"
                        b"shasta hmac: /dev/stdin: already read to its end for the key\n"
                        b"shasta hmac: WARNING: 2 listed files could not be read\n")
            case(f'{name} ({key_file})', rc == 1 and out == want_out and err == want_err,
                 f'exit {rc}, stdout {out!r}, stderr {err!r}')
    # A regular file on stdin is read afresh through /dev/stdin: that is allowed.
    name = 'stream: hmac --key-file /dev/stdin FILE /dev/stdin, stdin a regular file'
    if wanted(name):
        write('key-file', b'key')
        with open(os.path.join(WORK, 'key-file'), 'rb') as f:
            p = subprocess.run([SHASTA, 'hmac', '--key-file', '/dev/stdin', '/dev/stdin'], stdin=f,
                               capture_output=True, cwd=WORK, env=ENV, timeout=30)
        want = hmac.new(b'key', b'key', 'sha256').hexdigest().encode() + b'  /dev/stdin\n'
        case(name, p.returncode == 0 and p.stdout == want, f'exit {p.returncode}, stdout {p.stdout!r}, want {want!r}')
    # The same with -c and the key from "-": a "-" line is used up, a /dev/stdin line reads the file afresh.
    name = 'stream: hmac --key-file - -c, stdin a regular file'
    if wanted(name):
        again = hmac.new(b'key', b'key', 'sha256').hexdigest()
        empty = hmac.new(b'key', b'', 'sha256').hexdigest()
        write('tags-regular', f'{again}  /dev/stdin\n{empty}  -\n'.encode())
        with open(os.path.join(WORK, 'key-file'), 'rb') as f:
            p = subprocess.run([SHASTA, 'hmac', '--key-file', '-', '-c', 'tags-regular'], stdin=f,
                               capture_output=True, cwd=WORK, env=ENV, timeout=30)
        want_out = b'/dev/stdin: OK\n-: FAILED open or read\n'
        case(name, p.returncode == 1 and p.stdout == want_out and b'-: already read to its end' in p.stderr,
             f'exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}')
    # A directory is no stream: naming it as the key and a FILE fails as the key's read, not as one stream.
    expect_refusal('stream: hmac --key-file DIR DIR', ['hmac', '--key-file', '.', '.'], b'.: Is a directory',
                   err_lacks=both)


# ------------------------------------------------------------------------------------------------
# hkdf --tls13-label: once, and not empty

def test_tls13_label() -> None:
    prk = ['hkdf', '--prk-hex', '00' * 32]
    expect_refusal('label: hkdf --tls13-label twice', [*prk, '--tls13-label', 'key', '--tls13-label', 'iv'],
                   b'--tls13-label is given once')
    expect_refusal('label: hkdf --tls13-label twice, the same', [*prk, '--tls13-label', 'key', '--tls13-label=key'],
                   b'--tls13-label is given once')
    expect_refusal("label: hkdf --tls13-label ''", [*prk, '--tls13-label', ''], b'the label is empty')
    expect_refusal('label: hkdf --tls13-label=', [*prk, '--tls13-label='], b'the label is empty')
    # pbkdf2's file options too, as hmac's and hkdf's: "--password-file $UNSET" names no file (it
    # said ": No such file or directory").
    expect_refusal("empty: pbkdf2 --password-file ''", ['pbkdf2', '-i', '1', '--salt', 's', '--password-file', ''],
                   b'--password-file: the value is empty')
    expect_refusal('empty: pbkdf2 --salt-file=', ['pbkdf2', '-i', '1', '--salt-file='], b'--salt-file: the value is empty',
                   stdin=b'pw')


# ------------------------------------------------------------------------------------------------

# ------------------------------------------------------------------------------------------------
# Secrets given in argv: overwritten there once read

def blocked_stdout() -> tuple[int, int]:
    """A pipe whose buffer is full: a write to `w` blocks until `r` is read."""
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)
    os.set_blocking(w, False)
    try:
        while True:
            os.write(w, b'.' * 4096)
    except BlockingIOError:
        pass
    os.set_blocking(w, True)
    return r, w


def argument_concealed(name: str, args, secret: bytes, want_out: bytes, hold_stdin: bool) -> None:
    """Runs shasta ARGS, held before it finishes (standard input left open, or standard output
    full), and reads its /proc/PID/cmdline until `secret` has gone from it (5 s at most)."""
    if not wanted(name):
        return
    r = w = -1
    if not hold_stdin:
        r, w = blocked_stdout()
    p = subprocess.Popen([SHASTA, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE if hold_stdin else w,
                         stderr=subprocess.PIPE, cwd=WORK, env=ENV)
    if w >= 0:
        os.close(w)
    cmdline = b''
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            with open(f'/proc/{p.pid}/cmdline', 'rb') as f:
                cmdline = f.read()
        except OSError:
            break
        if args[0].encode() in cmdline and secret not in cmdline:  # exec'd, and the options read
            break
        time.sleep(0.01)
    if hold_stdin:
        out, err = p.communicate(b'', timeout=30)
    else:
        chunks = []
        while chunk := os.read(r, 65536):
            chunks.append(chunk)
        os.close(r)
        out = b''.join(chunks).lstrip(b'.')
        err = p.stderr.read()
        p.wait(timeout=30)
    problems = []
    if secret in cmdline or b'x' * len(secret) not in cmdline:
        problems.append(f'/proc/PID/cmdline {cmdline!r}')
    if p.returncode != 0 or out != want_out:
        problems.append(f'exit {p.returncode}, stdout {out[:100]!r}, want {want_out[:100]!r}, stderr {err[:200]!r}')
    case(name, not problems, '; '.join(problems))


def test_argument_concealed() -> None:
    key = bytes(range(1, 21))
    argument_concealed('argv: hmac --key-hex', ['hmac', '--key-hex', key.hex(), '-'], key.hex().encode(),
                       hmac.new(key, b'', 'sha256').hexdigest().encode() + b'  -\n', hold_stdin=True)
    argument_concealed('argv: hmac --key-hex=', ['hmac', f'--key-hex={key.hex()}', '-'], key.hex().encode(),
                       hmac.new(key, b'', 'sha256').hexdigest().encode() + b'  -\n', hold_stdin=True)
    prk = hmac.new(b'salt', key, 'sha256').digest()
    okm = hmac.new(prk, b'\x01', 'sha256').hexdigest().encode() + b'\n'
    argument_concealed('argv: hkdf --ikm-hex', ['hkdf', '--ikm-hex', key.hex(), '--salt', 'salt'],
                       key.hex().encode(), okm, hold_stdin=False)
    argument_concealed('argv: hkdf --prk-hex=', ['hkdf', f'--prk-hex={prk.hex()}'], prk.hex().encode(), okm,
                       hold_stdin=False)


TESTS = [test_secret_size_limit, test_terminal_password, test_no_core_dumps, test_option_values_not_echoed,
         test_one_stream_two_names, test_tls13_label, test_argument_concealed]


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
    with tempfile.TemporaryDirectory(prefix='shasta-secrets-') as work:
        WORK = work
        for test in TESTS:
            test()
    return TALLY.finish()


if __name__ == '__main__':
    sys.exit(main())
