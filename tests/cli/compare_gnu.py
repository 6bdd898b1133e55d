#!/usr/bin/env python3
"""Differential conformance test: shasta's sha*sum mode against GNU coreutils 9.1.

Runs the shasta CLI and the real GNU tools (/usr/bin/sha224sum ... sha512sum) side by side on the
same operands, in a fixture directory full of awkward file names, and compares stdout, stderr and
the exit status byte for byte. The contract is that of GNU coreutils 9.1 on Debian 12: GNU's output
is the reference for every case.

    python3 tests/cli/compare_gnu.py PATH/TO/shasta [--quick] [-k SUBSTRING] [--needs WHAT] [--self-test]

shasta is run three ways for most cases:
  multi   argv[0] = 'sha256sum' (the multi-call binary; GNU gets the same argv[0])
  j3      the same with the shasta extension '-j 3' in front (output must not change)
  sum     'shasta sum -a 256 ARGS...'; 'shasta sum' in its stderr is replaced by GNU's program
          name before comparing
Also: --list (case names), --dump (GNU's output per selected case), --seed, --max-report.
--self-test puts GNU on the shasta side too (extension options left out, 'shasta sum' emulated by
running GNU with argv[0] = 'shasta sum') and must pass 100%: it validates the harness itself.

Standard library only (Python 3.11). Exit status: 0 all passed, 1 some case failed, 2 harness error
(or no case selected), 77 every selected case skipped.
Cases this host cannot run (running as root without setpriv, no C.UTF-8 locale) are left out and
counted as skipped in the summary line (with a SKIP line saying why). --needs selects the cases by
what they need (nothing, utf8, nobody), so that ctest runs each kind as an entry of its own and
reports one the host cannot run as skipped (exit 77), not as passed.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

# Held while a pipe is made and a child started (Runner.execute).
SPAWN_LOCK = threading.Lock()

ALGOS = (224, 256, 384, 512)
HEXLEN = {224: 56, 256: 64, 384: 96, 512: 128}
NOBODY = 65534
RUN_TIMEOUT = 30
PAR_TIMEOUT = 120


def gnu_exe(algo: int) -> str:
    return f'/usr/bin/sha{algo}sum'


def prog(algo: int) -> str:
    return f'sha{algo}sum'


def B(x) -> bytes:
    return x if isinstance(x, bytes) else os.fsencode(x)


# ------------------------------------------------------------------------------------------------
# Fixture: every file the cases use, created once in a temporary directory (cases run with it as
# their working directory).

CONTENT: dict[bytes, bytes] = {}  # relative path -> contents
DIRS: list[bytes] = []
MODE000: list[bytes] = []  # files made mode 000 (the unreadable cases)


def fx(name, data) -> bytes:
    """Registers a fixture file (same name twice must mean the same contents)."""
    name, data = B(name), B(data)
    old = CONTENT.get(name)
    if old is not None and old != data:
        raise RuntimeError(f'fixture {name!r} registered twice with different contents')
    CONTENT[name] = data
    return name


_ck_counter = [0]


def ckfile(data: bytes, prefix='k') -> bytes:
    """A fresh check file with these contents; returns its name."""
    _ck_counter[0] += 1
    return fx(B(prefix) + f'{_ck_counter[0]:04d}.sum'.encode(), data)


def D(algo: int, name) -> bytes:
    """Lowercase hex digest of a fixture file (of the name itself for a name that is not one)."""
    data = CONTENT.get(B(name), b'not a file: ' + B(name))
    return hashlib.new(f'sha{algo}', data).hexdigest().encode()


def Hd(algo: int, data) -> bytes:
    return hashlib.new(f'sha{algo}', B(data)).hexdigest().encode()


def needs_esc(name: bytes) -> bool:
    return any(c in name for c in b'\\\n\r')


def esc(name: bytes) -> bytes:
    return name.replace(b'\\', b'\\\\').replace(b'\n', b'\\n').replace(b'\r', b'\\r')


def line_std(algo, name, hexd=None, flag=b' ') -> bytes:
    """A GNU generation line (without the terminator): '[\\]HEX FLAGNAME'."""
    name = B(name)
    hexd = D(algo, name) if hexd is None else B(hexd)
    if needs_esc(name):
        return b'\\' + hexd + b' ' + flag + esc(name)
    return hexd + b' ' + flag + name


def line_rev(algo, name, hexd=None) -> bytes:
    """BSD reversed ('md5 -r') line: 'HEX NAME'."""
    name = B(name)
    hexd = D(algo, name) if hexd is None else B(hexd)
    if needs_esc(name):
        return b'\\' + hexd + b' ' + esc(name)
    return hexd + b' ' + name


def line_tag(algo, name, hexd=None, tag=None) -> bytes:
    name = B(name)
    hexd = D(algo, name) if hexd is None else B(hexd)
    tag = f'SHA{algo}'.encode() if tag is None else B(tag)
    if needs_esc(name):
        return b'\\' + tag + b' (' + esc(name) + b') = ' + hexd
    return tag + b' (' + name + b') = ' + hexd


def lines(*ls, end=b'\n', last=True) -> bytes:
    """Joins lines, each terminated by `end`; last=False leaves the last one unterminated."""
    out = end.join(B(x) for x in ls)
    return out + end if (last and ls) else out


def wrong(algo, seed=0) -> bytes:
    return Hd(algo, f'wrong digest {seed}')


# Existing files with names that need care. Each holds its own name plus a newline.
ODD_EXISTING = [
    b'back\\slash', b'new\nline', b'cr\rret', b'tab\tname', b'sp ace', b' lead', b'*star', b'trail ',
    b"quo'te", b'dq"te', b'x\xffy', 'é'.encode(), b'b\\s\nn', b'cr\r', b'\\lead', b'paren)s(',
    b'eq = x', b'SHA256 (x) = y', b'#hash', b'-dash', b'a\x01b', b'x\\nope', b'  ', b'nl\n',
]
# Names that do not exist, for the quoting of diagnostics.
MISSING_NAMES = [
    b'nonexist', b'no such', b"it's", b'a=b', b'a:b', b'a[b', b'a?b', b'#x', b'x#', b'a@b', b'a]b',
    b'{', b'}', b'a{b', b'{}', b'~x', b'x~', b'%+,-./@]_', b'', b'back\\nope', b'no\nsuch', b't\tb',
    b'x\xffz', 'mé'.encode(), b'a$b', b'a`b', b'a!b', b'a&b', b'a(b', b'a)b', b'a;b', b'a<b', b'a>b',
    b'a^b', b'a|b', b'a"b', b'a\'b"c', b'm\x01b', b'a\x7fb', b'\x1b[31m', b'a*b', b'a\\b', b'cr\rx',
    b'\xe9t\xe9', b'\xc3', b'-x', b'd/nope', b'a b\tc\nd', b'nope/', 'ü日本'.encode(), b'a\xc2\xa0b',
    b'\xe2\x80\x8bzw', b"'", b'"', b'\\', b' ', b'=', b'a,b', b'a+b',
]
VECTORS = [  # contents of vec0..vec9: the messages of md5sum.pl and sha*sum.pl
    b'', b'a', b'abc', b'message digest', b'abcdefghijklmnopqrstuvwxyz',
    b'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', b'1234567890' * 8,
    b'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    b'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
    b'a' * 1000000,
]
# Literal expected outputs from coreutils' tests/cksum/sha*sum.pl (s3 'abc' and s8 a*10^6).
LITERAL = {
    (224, 2): '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7',
    (224, 9): '20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67',
    (256, 2): 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    (256, 7): '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    (256, 9): 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    (384, 2): 'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7',
    (384, 8): '09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039',
    (384, 9): '9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985',
    (512, 2): 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    (512, 8): '8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909',
    (512, 9): 'e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b',
}


def base_fixture():
    fx('a.txt', b'abc')
    fx('b.txt', b'hello\n')
    fx('c.txt', b'the third file\n')
    fx('empty', b'')
    fx('-', b'a file named dash\n')
    fx('big', bytes(random.Random(7).randbytes(300_000)))
    for name in ODD_EXISTING:
        fx(name, name + b'\n')
    for i, v in enumerate(VECTORS):
        fx(f'vec{i}', v)
    DIRS.extend([b'd', b'sp dir', b'bsd', b'par', b'par/e'])
    fx('d/inner.txt', b'inner\n')
    fx('unread', b'secret\n')
    MODE000.append(b'unread')
    # the check files most cases share
    fx('good.sum', lines(line_std(256, 'a.txt'), line_std(256, 'b.txt'), line_std(256, 'empty')))
    fx('mixed.sum', lines(line_std(256, 'a.txt'), line_std(256, 'b.txt', wrong(256)),
                          line_std(256, 'missing1'), b'garbage line', line_tag(256, 'empty')))
    # a check file of every outcome: 3 OK, 2 mismatches, 2 missing, 1 directory
    fx('multi.sum', lines(line_std(256, 'a.txt'), line_std(256, 'b.txt'), line_std(256, 'empty'),
                          line_std(256, 'a.txt', wrong(256, 1)), line_std(256, 'empty', wrong(256, 2)),
                          line_std(256, 'missing1', wrong(256, 3)), line_std(256, 'missing2', wrong(256, 4)),
                          line_std(256, 'd', wrong(256, 5))))
    fx('multibad.sum', lines(line_std(256, 'a.txt'), b'not a checksum', line_std(256, 'b.txt', wrong(256)),
                             b'# comment', b'', line_std(256, 'missing1', wrong(256, 3)),
                             line_tag(512, 'a.txt'), line_std(256, 'empty')))
    fx('unread.sum', lines(line_std(256, 'a.txt')))
    MODE000.append(b'unread.sum')
    for a in ALGOS:
        fx(f'good{a}.sum', lines(line_std(a, 'a.txt'), line_std(a, 'b.txt', flag=b'*'), line_tag(a, 'empty')))
        fx(f'multi{a}.sum', lines(line_std(a, 'a.txt'), line_std(a, 'b.txt', wrong(a)), line_std(a, 'missing1'),
                                  b'junk', line_tag(a, 'empty'), line_std(a, 'd', wrong(a, 9))))


def write_fixture(root: str):
    for d in DIRS:
        os.makedirs(os.path.join(B(root), d), exist_ok=True)
    for name, data in CONTENT.items():
        path = os.path.join(B(root), name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            f.write(data)
    for name in MODE000:
        os.chmod(os.path.join(B(root), name), 0)


# ------------------------------------------------------------------------------------------------
# Cases

@dataclass
class Case:
    name: str
    args: list
    algo: int = 256
    stdin: object = b''          # bytes, or ('path', relative path) opened read-only as stdin
    locale: str = 'C'
    argv0: str | None = None     # default 'sha{algo}sum'
    out: str = 'pipe'            # pipe | full | closed | epipe (SIGPIPE ignored) | epipe-dfl | stdin-closed
    nobody: bool = False         # run both tools as uid/gid 65534 (the unreadable-file cases)
    kind: str = 'cmp'            # cmp | info (--help/--version: rc 0, stdout, no stderr)
    variants: tuple | None = None  # None: the Cases rotation (every case runs 'multi', some 'j3'/'sum')
    cwd: str = ''
    note: bytes = b''            # shown with a failure (e.g. the check file's contents)
    expect_out: bytes | None = None  # a literal expected stdout (ported vectors), checked on both sides
    quirk: str = ''              # a documented GNU quirk shasta may leave out: reported, not counted,
    quirk_split: list | None = None  # when shasta's output equals GNU's runs on these argument lists, concatenated
    timeout: int = RUN_TIMEOUT


# A variant: (label, how shasta is invoked, extension options shasta gets in front of the arguments)
VARIANTS = {
    'multi': ('multi', ()),
    'j3': ('multi', ('-j', '3')),
    'sum': ('sum', ()),
    'sum-j2': ('sum', ('-j2',)),
    'j1': ('multi', ('-j1',)),
    'j2': ('multi', ('-j', '2')),
    'j8': ('multi', ('--jobs', '8')),
    'jobs=4': ('multi', ('--jobs=4',)),
    'j8-noprog': ('multi', ('-j8', '--no-progress')),
    'noprog': ('multi', ('--no-progress',)),
    'sum-j8': ('sum', ('-j', '8')),
}


class Cases:
    ROTATION = (('multi', 'j3'), ('multi', 'sum'), ('multi', 'j3', 'sum'))

    def __init__(self, quick: bool):
        self.quick = quick
        self.list: list[Case] = []
        self.names: set[str] = set()

    def add(self, name, args, **kw):
        if name in self.names:
            raise RuntimeError(f'duplicate case name {name}')
        self.names.add(name)
        if kw.get('variants') is None:
            kw['variants'] = self.ROTATION[len(self.list) % len(self.ROTATION)]
        c = Case(name, list(args), **kw)
        self.list.append(c)
        return c


def cases_options(C: Cases):
    """Every option, prefixes, bundling, ordering, '--', unknown options."""
    # Every subset of the ten options, in a seeded random order, some after the operands.
    flags = ['-b', '-t', '--tag', '-z', '-c', '--ignore-missing', '--status', '-w', '--quiet', '--strict']
    masks = random.Random(1).sample(range(1 << len(flags)), 128 if C.quick else 512)
    for mask in sorted(masks):
        rng = random.Random(mask)
        chosen = [f for i, f in enumerate(flags) if mask >> i & 1]
        rng.shuffle(chosen)
        if mask % 3 == 0:
            args = ['mixed.sum'] + chosen + ['nonexist']
        else:
            args = chosen + ['mixed.sum', 'nonexist']
        var = ('multi', 'j3') if mask % 8 == 1 else ('multi', 'sum') if mask % 8 == 2 else ('multi',)
        C.add(f'opt-subset-{mask:04d}:{" ".join(chosen)}', args, variants=var)
    # Unambiguous long-option prefixes (each in a context where it matters).
    gen_prefixes = ['--b', '--bi', '--binar', '--binary', '--ta', '--tag', '--te', '--tex', '--text',
                    '--z', '--ze', '--zero']
    for p in gen_prefixes:
        C.add(f'opt-prefix{p}', [p, 'a.txt', 'new\nline', 'back\\slash'])
    for p in ['--c', '--ch', '--chec', '--check']:
        C.add(f'opt-prefix{p}', [p, 'mixed.sum'])
    ck_prefixes = ['--i', '--ig', '--ignore', '--ignore-missing', '--q', '--qu', '--quiet', '--sta', '--stat',
                   '--status', '--str', '--stri', '--strict', '--w', '--wa', '--warn']
    for p in ck_prefixes:
        C.add(f'opt-prefix-c{p}', ['-c', p, 'mixed.sum'])
        C.add(f'opt-prefix-nocheck{p}', [p, 'a.txt'])
    # Ambiguous prefixes, arguments to options that take none, unknown options.
    bad = [['--s'], ['--st'], ['--t'], ['--s', 'a.txt'], ['-c', '--s', 'good.sum'], ['--s=1'], ['--st=x'],
           ['--bogus'], ['--bogus=1'], ['--tagx'], ['--check=yes', 'good.sum'], ['--tag=', 'a.txt'],
           ['--ch=1', 'good.sum'], ['--help=x'], ['--version=1'], ['--binary=no', 'a.txt'], ['--statu=1'],
           ['-x'], ['-B'], ['-Z'], ['-0'], ['-l'], ['-?'], ['-cx', 'good.sum'], ['-xc'], ['-bx'], ['---'],
           ['---tag'], ['--=', 'a.txt'], ['--=x'], ['-c-'], ['a.txt', '--bogus'], ['a.txt', '-x'],
           ['--bogus', '-x'], ['-x', '--bogus'], ['--tag', '-t', '--bogus'], ['-c', '-z', '-y'],
           ['--s', '--bogus'], ['--bogus', '--s'], ['--ignore-missing', '--bogus'], ['--ignore-missin=1'],
           ['--WARN'], ['--Tag', 'a.txt'], ['-C'], ['- -x'], ['--', '--bogus']]
    for i, args in enumerate(bad):
        C.add(f'opt-bad-{i:02d}:{" ".join(args)}', args)
    # '-a' selects the algorithm in 'shasta sum' only: as sha256sum it is an invalid option.
    C.add('opt-bad-a', ['-a', '256', 'a.txt'], variants=('multi', 'j3'))
    C.add('opt-bad-a-bundled', ['-ba', 'a.txt'], variants=('multi', 'j3'))
    # Bundling.
    for b in ['-bt', '-tb', '-bz', '-zb', '-tz', '-zt', '-bzt', '-tbz']:
        C.add(f'opt-bundle{b}', [b, 'a.txt', 'back\\slash'])
    for b in ['-cw', '-wc', '-cb', '-bc', '-cz', '-zc', '-ct', '-cwz']:
        C.add(f'opt-bundle{b}', [b, 'mixed.sum'])
    # Options after operands, '--'.
    order = [['a.txt', '-b'], ['a.txt', '--tag', 'b.txt'], ['a.txt', '-z', 'new\nline'], ['mixed.sum', '-c'],
             ['mixed.sum', '-c', '--quiet'], ['mixed.sum', '--status', '-c'], ['--', '-b'], ['a.txt', '--', '--tag'],
             ['-c', '--', 'mixed.sum'], ['--', '-'], ['a.txt', '--', '--'], ['--'], ['--', '--', 'a.txt'],
             ['-b', '--', '-dash', '-x'], ['--tag', '--', '-dash'], ['-c', '--', '-'], ['a.txt', '-', '--', '-b'],
             ['-', '-b', '--tag'], ['./-', '-'], ['-t', 'a.txt', '-b', 'b.txt'], ['-b', 'a.txt', '-t', 'b.txt'],
             ['a.txt', '--tag', '-t'], ['-t', 'a.txt', '--tag'], ['-b', '-b', 'a.txt'], ['--tag', '--tag', 'a.txt'],
             ['-c', '-c', 'good.sum'], ['-z', '-z', 'a.txt'], ['good.sum', '-c', '-w', '--', '-']]
    for i, args in enumerate(order):
        C.add(f'opt-order-{i:02d}', args, stdin=b'standard input data\n')
    # Every algorithm parses the same.
    for a in ALGOS:
        C.add(f'opt-algo{a}-s', ['--s'], algo=a)
        C.add(f'opt-algo{a}-x', ['-x'], algo=a)
        C.add(f'opt-algo{a}-tagtext', ['--tag', '-t', 'a.txt'], algo=a)


def cases_usage(C: Cases):
    """Every usage error, and their order when several apply."""
    lst = [
        ['--tag', '-t'], ['--tag', '-t', 'a.txt'], ['-t', '--tag', 'a.txt'], ['--tag', '-b', '-t', 'a.txt'],
        ['--tag', '--text', '-c', 'good.sum'], ['-c', '-z', 'good.sum'], ['-c', '--tag', 'good.sum'],
        ['-c', '-z', '--tag', 'good.sum'], ['-c', '--tag', '-b', 'good.sum'], ['-c', '-b', 'good.sum'],
        ['-c', '-t', 'good.sum'], ['-c', '-b', '-z'], ['-c', '--tag', '-t'], ['--ignore-missing', 'a.txt'],
        ['--status', 'a.txt'], ['--warn', 'a.txt'], ['-w', 'a.txt'], ['--quiet', 'a.txt'], ['--strict', 'a.txt'],
        ['--strict', '--quiet', '--warn', '--status', '--ignore-missing'], ['--strict', '--quiet'],
        ['--quiet', '--warn'], ['--warn', '--status'], ['--tag', '--status'], ['-z', '--ignore-missing'],
        ['-b', '--strict'], ['--tag', '-t', '--status', '-c'], ['-c', '-z', '--strict'],
    ]
    for i, args in enumerate(lst):
        for a in ((256,) if i % 4 else ALGOS):
            C.add(f'usage-{i:02d}-{a}:{" ".join(args)}', args, algo=a)


def cases_format(C: Cases):
    """Output formats and name escaping, all four algorithms."""
    flagsets = [[], ['-b'], ['-t'], ['--tag'], ['-z'], ['-b', '-z'], ['-t', '-z'], ['--tag', '-z'],
                ['--tag', '-b'], ['-t', '--tag'], ['-b', '-t'], ['-t', '-b'], ['--binary', '--zero'], ['--text']]
    ops = ['a.txt', 'empty', '-', 'b.txt'] + ODD_EXISTING
    for a in ALGOS:
        for fl in flagsets:
            C.add(f'fmt-{a}:{" ".join(fl) or "default"}', fl + ['--'] + ops, algo=a, stdin=b'abc',
                  variants=('multi', 'j3', 'sum'))
    for i, n in enumerate(ODD_EXISTING):
        for fl in ([], ['--tag'], ['-z']):
            C.add(f'esc-{i:02d}-{"".join(fl) or "default"}:{n!r}', fl + ['--', n])
    # the escape prefix and the binary flag together, '-z' keeps names raw
    C.add('esc-bin-all', ['-b', '--'] + ODD_EXISTING)
    C.add('esc-z-tag-bin', ['-z', '--tag', '-b', '--'] + ODD_EXISTING)


def cases_vectors(C: Cases):
    """tests/cksum/sha*sum.pl and md5sum.pl's messages, on all four algorithms (with --text as GNU's
    tests do), with the expected output from hashlib and the literals from the GNU tests."""
    for a in ALGOS:
        for i, v in enumerate(VECTORS):
            exp = Hd(a, v)
            lit = LITERAL.get((a, i))
            if lit is not None:
                assert exp == lit.encode(), (a, i)
            C.add(f'vec-{a}-{i}', ['--text', f'vec{i}'], algo=a, expect_out=exp + f'  vec{i}\n'.encode(),
                  variants=('multi', 'sum'))
        C.add(f'vec-{a}-all', [f'vec{i}' for i in range(len(VECTORS))], algo=a)
        C.add(f'vec-{a}-stdin-big', ['-'], algo=a, stdin=VECTORS[9], expect_out=Hd(a, VECTORS[9]) + b'  -\n')
    # md5sum.pl backslash-1..3 and md5sum-newline.pl, as sha256sum
    e = Hd(256, b'')
    for n, nm in [('backslash-1', b'.\nfoo'), ('backslash-2', b'.\\foo'), ('backslash-3', b'.\rfoo')]:
        fx(nm, b'')
        C.add(f'gnu-md5sum-{n}', ['--text', nm], expect_out=b'\\' + e + b'  ' + esc(nm) + b'\n')
    fx(b'a\nb', b'')
    C.add('gnu-newline-newline', ['--text', b'a\nb'], expect_out=b'\\' + e + b'  a\\nb\n')
    C.add('gnu-newline-zero', ['--text', '--zero', b'a\nb'], expect_out=e + b'  a\nb\0')


def cases_stdin(C: Cases):
    data = b'standard input\n'
    lst = [
        ('dash', ['-'], data), ('none', [], data), ('dash-twice', ['-', '-'], data),
        ('dash-file-dash', ['-', 'a.txt', '-'], data), ('dash-empty', ['-'], b''), ('none-empty', [], b''),
        ('dev-stdin', ['/dev/stdin'], data), ('dev-null', ['/dev/null'], data), ('dot-dash', ['./-'], data),
        ('dash-tag', ['--tag', '-', '-'], data), ('dash-bin', ['-b', '-'], data), ('dash-z', ['-z', '-'], data),
        ('none-tag', ['--tag'], data), ('none-z', ['-z'], data), ('dash-big', ['-', '-'], bytes(range(256)) * 5000),
        ('dash-dev-stdin', ['-', '/dev/stdin'], data), ('dash-then-dash-file', ['-', './-', '-'], data),
        ('three', ['-', '-', '-'], b''),
    ]
    for label, args, sin in lst:
        for a in ((256,) if label not in ('dash', 'dash-twice') else ALGOS):
            C.add(f'stdin-{label}-{a}', args, stdin=sin, algo=a)
    C.add('stdin-is-dir', ['-'], stdin=('path', 'd'))
    C.add('stdin-is-dir-mix', ['a.txt', '-', 'b.txt'], stdin=('path', 'd'))
    C.add('stdin-is-file', ['-', '-'], stdin=('path', 'big'))
    C.add('stdin-is-devnull', ['-'], stdin=('path', '/dev/null'))
    C.add('stdin-check-is-dir', ['-c'], stdin=('path', 'd'))
    C.add('stdin-check-is-dir-dash', ['-c', '-'], stdin=('path', 'd'))
    C.add('stdin-check-is-file', ['-c'], stdin=('path', 'multi.sum'))


def cases_errors(C: Cases):
    """Errors while hashing, their order, quoting of names in diagnostics."""
    lst = [['nonexist'], ['d'], ['d/'], ['.'], ['/'], ['sp dir'], ['/dev/null'], ['empty'], [''],
           ['a.txt', 'nonexist', 'empty', 'd', 'b.txt'], ['nonexist', 'nonexist'], ['d', 'd', 'a.txt'],
           ['a.txt', 'nonexist/x'], ['a.txt/'], ['a.txt/x'], ['big', 'nonexist', 'big'], ['d/inner.txt', 'd/nope']]
    for i, args in enumerate(lst):
        for fl in ([], ['--tag'], ['-z'], ['-b']):
            C.add(f'err-{i:02d}{"".join(fl)}:{" ".join(args)}', fl + ['--'] + args)
    C.add('err-long-name', ['x' * 300, 'y' * 5000, 'a/' * 3000])
    for i, n in enumerate(MISSING_NAMES):
        C.add(f'quote-{i:02d}:{n!r}', ['--', n])
    C.add('quote-all', ['--'] + MISSING_NAMES)
    C.add('quote-all-utf8', ['--'] + MISSING_NAMES, locale='C.UTF-8')
    C.add('quote-dirs', ['sp dir', 'd', 'sp dir/'])
    for n in MISSING_NAMES:
        if n and any(c >= 0x80 for c in n):
            C.add(f'utf8-quote:{n!r}', ['--', n, 'a.txt'], locale='C.UTF-8')
    C.add('utf8-gen-odd', ['--'] + ODD_EXISTING, locale='C.UTF-8')
    C.add('utf8-gen-odd-tag', ['--tag', '--'] + ODD_EXISTING, locale='C.UTF-8')


def cases_unreadable(C: Cases):
    """Mode-000 files, as a non-root user (uid 65534 when running as root)."""
    fx('unread-list.sum', lines(line_std(256, 'a.txt'), line_std(256, 'unread'), line_std(256, 'b.txt'),
                                line_std(256, 'missing1')))
    fx('unread-only.sum', lines(line_std(256, 'unread'), line_std(256, 'missing1')))
    lst = [['unread'], ['a.txt', 'unread', 'b.txt'], ['--tag', 'unread', 'nonexist', 'a.txt'],
           ['-c', 'unread-list.sum'], ['-c', '--quiet', 'unread-list.sum'], ['-c', '--status', 'unread-list.sum'],
           ['-c', '--ignore-missing', 'unread-list.sum'], ['-c', '--ignore-missing', 'unread-only.sum'],
           ['-c', 'unread.sum'], ['-c', 'unread.sum', 'good.sum'], ['-c', 'good.sum', 'unread.sum', 'nonexist.sum'],
           ['-z', 'unread', 'a.txt']]
    for i, args in enumerate(lst):
        C.add(f'unread-{i:02d}:{" ".join(args)}', args, nobody=True)


def grammar_lines():
    """(label, line) pairs for the --check line grammar, as seen by sha256sum. Every line refers to fixture files."""
    H = D(256, 'a.txt')
    Hb = D(256, 'b.txt')
    E = D(256, 'empty')
    mix = bytes(c if i % 2 else chr(c).upper().encode()[0] for i, c in enumerate(H))
    H512, H224, H384 = D(512, 'a.txt'), D(224, 'a.txt'), D(384, 'a.txt')
    Hnl, Hbs, Hcr = D(256, 'new\nline'), D(256, 'back\\slash'), D(256, 'cr\rret')
    Hlead, Hstar, Hp = D(256, ' lead'), D(256, '*star'), D(256, 'paren)s(')
    md5 = hashlib.md5(b'abc').hexdigest().encode()
    sha1 = hashlib.sha1(b'abc').hexdigest().encode()
    return [
        # untagged
        ('std', H + b'  a.txt'), ('bin', H + b' *a.txt'), ('rev', H + b' a.txt'), ('tab-sep', H + b'\ta.txt'),
        ('tab-sp', H + b'\t a.txt'), ('tab-star', H + b'\t*a.txt'), ('sp-tab', H + b' \ta.txt'),
        ('3sp', H + b'   a.txt'), ('4sp', H + b'    a.txt'), ('lead-sp', b' ' + H + b'  a.txt'),
        ('lead-tab', b'\t' + H + b'  a.txt'), ('lead-sps', b'   ' + H + b' *a.txt'), ('trail-sp', H + b'  a.txt '),
        ('trail-tab', H + b'  a.txt\t'), ('upper', H.upper() + b'  a.txt'), ('mixed-case', mix + b'  a.txt'),
        ('short', H[:-1] + b'  a.txt'), ('long', H + b'0  a.txt'), ('long-rev', H + b'0 a.txt'),
        ('nonhex', H[:-1] + b'g  a.txt'), ('nonhex-first', b'x' + H[1:] + b'  a.txt'),
        ('nul-hex', H[:10] + b'\0' + H[11:] + b'  a.txt'), ('no-name', H + b'  '), ('no-name1', H + b' '),
        ('no-name-star', H + b' *'), ('hex-only', H), ('hex-sp-star-sp', H + b' * '), ('min', H + b' x'),
        ('min-std', H + b'  x'), ('dstar', Hstar + b' **star'), ('star-name-rev', Hstar + b' *star'),
        ('lead-name', Hlead + b'   lead'), ('lead-name-rev', Hlead + b'  lead'), ('nul-name', H + b'  a.txt\0junk'),
        ('nul-in-name', H + b'  a\0.txt'), ('cr-mid', Hcr + b'  cr\rret'), ('cr-end', H + b'  a.txt\r'),
        ('crcr', H + b'  a.txt\r\r'), ('sha512-hex', H512 + b'  a.txt'), ('sha224-hex', H224 + b'  a.txt'),
        ('sha384-hex', H384 + b'  a.txt'), ('md5-hex', md5 + b'  a.txt'), ('mismatch', Hb + b'  a.txt'),
        ('missing', H + b'  missing1'), ('dir', H + b'  d'), ('dir-slash', H + b'  d/'), ('empty-ok', E + b'  empty'),
        ('dev-null', E + b'  /dev/null'), ('dot-dash', D(256, '-') + b'  ./-'), ('spaces-in', H + b'  a .txt'),
        ('name-eq', D(256, 'eq = x') + b'  eq = x'), ('name-tag', D(256, 'SHA256 (x) = y') + b'  SHA256 (x) = y'),
        ('name-hash', D(256, '#hash') + b'  #hash'), ('two-sp-name', D(256, '  ') + b'    '),
        ('long-name', H + b'  ' + b'n' * 5000), ('long-garbage', b'z' * 100000),
        # escaped names
        ('esc-nl', b'\\' + Hnl + b'  new\\nline'), ('esc-bs', b'\\' + Hbs + b'  back\\\\slash'),
        ('esc-cr', b'\\' + Hcr + b'  cr\\rret'), ('esc-plain', b'\\' + H + b'  a.txt'),
        ('esc-bad-t', b'\\' + H + b'  tab\\tname'), ('esc-trail', b'\\' + H + b'  x\\'),
        ('esc-nope', b'\\' + H + b'  x\\nope'), ('unesc-bs', Hbs + b'  back\\slash'),
        ('unesc-bs2', Hbs + b'  back\\\\slash'), ('unesc-nl-seq', H + b'  new\\nline'),
        ('esc-lead-sp', b' \\' + Hnl + b'  new\\nline'), ('esc-rev', b'\\' + Hnl + b' new\\nline'),
        ('esc-bin', b'\\' + Hnl + b' *new\\nline'), ('esc-double', b'\\\\' + H + b'  a.txt'),
        ('esc-space', b'\\ ' + H + b'  a.txt'), ('esc-upper', b'\\' + Hnl.upper() + b'  new\\nline'),
        ('esc-0', b'\\' + H + b'  a\\0'), ('esc-only', b'\\'), ('esc-x', b'\\' + H + b'  \\x41'),
        ('esc-bsn-name', b'\\' + D(256, b'b\\s\nn') + b'  b\\\\s\\nn'),
        ('esc-nl-end', b'\\' + D(256, b'nl\n') + b'  nl\\n'),
        # tagged
        ('tag', b'SHA256 (a.txt) = ' + H), ('tag-nosp', b'SHA256(a.txt)= ' + H), ('tag-nosp2', b'SHA256(a.txt) = ' + H),
        ('tag-eqnosp', b'SHA256 (a.txt)=' + H), ('tag-eq-nosp-after', b'SHA256 (a.txt) =' + H),
        ('tag-2sp', b'SHA256  (a.txt) = ' + H), ('tag-tab', b'SHA256\t(a.txt) = ' + H),
        ('tag-ws-eq', b'SHA256 (a.txt)\t=\t' + H), ('tag-many-ws', b'SHA256 (a.txt)   =   ' + H),
        ('tag-lead', b'  SHA256 (a.txt) = ' + H), ('tag-trail', b'SHA256 (a.txt) = ' + H + b' '),
        ('tag-lower', b'sha256 (a.txt) = ' + H), ('tag-wrong', b'SHA512 (a.txt) = ' + H),
        ('tag-512-hex512', b'SHA512 (a.txt) = ' + H512), ('tag-224', b'SHA224 (a.txt) = ' + H224),
        ('tag-sha2-256', b'SHA2-256(a.txt)= ' + H), ('tag-no-eq', b'SHA256 (a.txt) ' + H),
        ('tag-2eq', b'SHA256 (a.txt) == ' + H), ('tag-paren', b'SHA256 (paren)s() = ' + Hp),
        ('tag-noclose', b'SHA256 (a.txt = ' + H), ('tag-empty-name', b'SHA256 () = ' + E),
        ('tag-only', b'SHA256 ('), ('tag-word', b'SHA256'), ('tag-open-name', b'SHA256 (a.txt'),
        ('tag-close', b'SHA256 (a.txt)'), ('tag-eq-nohex', b'SHA256 (a.txt) = '), ('tag-upper', b'SHA256 (a.txt) = ' + H.upper()),
        ('tag-short', b'SHA256 (a.txt) = ' + H[:-2]), ('tag-long', b'SHA256 (a.txt) = ' + H + b'ab'),
        ('tag-esc', b'\\SHA256 (new\\nline) = ' + Hnl), ('tag-esc-bs', b'\\SHA256 (back\\\\slash) = ' + Hbs),
        ('tag-esc-bad', b'\\SHA256 (a\\tb) = ' + H), ('tag-unesc-bs', b'SHA256 (back\\slash) = ' + Hbs),
        ('tag-name-sp', b'SHA256 ( lead) = ' + Hlead), ('tag-name-extra-paren', b'SHA256 (a.txt)) = ' + H),
        ('tag-hex-nul', b'SHA256 (a.txt) = ' + H[:5] + b'\0' + H[6:]), ('tag-cr', b'SHA256 (a.txt) = ' + H + b'\r'),
        ('tag-md5', b'MD5 (a.txt) = ' + md5), ('tag-sha1', b'SHA1 (a.txt) = ' + sha1), ('tag-md5-open', b'MD5 ('),
        ('tag-256-hex512', b'SHA256 (a.txt) = ' + H512), ('tag-space-in-tag', b'SHA 256 (a.txt) = ' + H),
        ('tag-missing', b'SHA256 (missing1) = ' + H), ('tag-dir', b'SHA256 (d) = ' + H),
        ('tag-mismatch', b'SHA256 (a.txt) = ' + Hb), ('tag-nospace-paren-sp', b'SHA256( a.txt) = ' + H),
        ('tag-star', b'SHA256 (*star) = ' + Hstar), ('tag-dash', b'SHA256 (-) = ' + Hd(256, b'abc')),
        ('tag-prefix-junk', b'xSHA256 (a.txt) = ' + H), ('tag-sha256sum', b'SHA256SUM (a.txt) = ' + H),
        # comments, blanks
        ('comment', b'# a comment'), ('comment-empty', b'#'), ('comment-sp', b' # c'), ('blank', b''),
        ('spaces', b'   '), ('tab-only', b'\t'), ('cr-only', b'\r'), ('hash-hex', b'#' + H + b'  a.txt'),
        ('nul-only', b'\0'), ('nul-lead', b'\0' + H + b'  a.txt'),
        # '-' (stdin) as a named file
        ('dash', Hd(256, b'abc') + b'  -'), ('dash-bin', Hd(256, b'abc') + b' *-'),
    ]


def cases_check_grammar(C: Cases):
    """The --check line grammar: each rule, alone, between good lines, from disk and from stdin."""
    good_a = line_std(256, 'b.txt')
    good_b = line_tag(256, 'empty')
    for i, (label, ln) in enumerate(grammar_lines()):
        # alone (with and without the final newline) with -w; between good lines (LF or CRLF) with
        # --strict; some from standard input
        solo = ckfile(ln + (b'\n' if i % 2 == 0 else b''))
        sand = lines(good_a, ln, good_b, end=b'\n' if i % 2 == 0 else b'\r\n')
        note = repr(ln[:200]).encode()
        rot = (('multi', 'j3'), ('multi', 'sum'), ('multi',))[i % 3]
        C.add(f'ck-{label}/solo-w', ['-c', '-w', solo], stdin=b'abc', note=note, variants=rot)
        C.add(f'ck-{label}/sand-strict', ['-c', '--strict', ckfile(sand)], stdin=b'abc', note=note,
              variants=('multi', 'sum') if i % 3 == 2 else ('multi',))
        if i % 3 == 0:
            C.add(f'ck-{label}/stdin-w', ['-c', '-w'], stdin=sand, note=note, variants=('multi',))
    # the grammar for the other algorithms (tag word and hex length are theirs)
    for a in ALGOS:
        H = D(a, 'a.txt')
        other = 512 if a != 512 else 256
        Ho = D(other, 'a.txt')
        ls = [('std', H + b'  a.txt'), ('bin', H + b' *a.txt'), ('rev', H + b' a.txt'),
              ('tag', f'SHA{a} (a.txt) = '.encode() + H), ('tag-nosp', f'SHA{a}(a.txt)= '.encode() + H),
              ('tag-other', f'SHA{other} (a.txt) = '.encode() + Ho), ('hex-other', Ho + b'  a.txt'),
              ('upper', H.upper() + b'  a.txt'), ('short', H[:-1] + b'  a.txt'), ('long', H + b'f  a.txt'),
              ('tag-other-word', f'SHA{other} (a.txt) = '.encode() + H), ('esc', b'\\' + D(a, 'new\nline') + b'  new\\nline')]
        for label, ln in ls:
            f = ckfile(lines(line_std(a, 'b.txt'), ln))
            C.add(f'ck-algo{a}-{label}', ['-c', '-w', f], algo=a, note=repr(ln).encode())
            C.add(f'ck-algo{a}-{label}/solo', ['-c', ckfile(ln + b'\n')], algo=a, note=repr(ln).encode(),
                  variants=('multi',))
        C.add(f'ck-algo{a}-good', ['-c', f'good{a}.sum'], algo=a)
        C.add(f'ck-algo{a}-multi', ['-c', f'multi{a}.sum'], algo=a)
        C.add(f'ck-algo{a}-multi-w', ['-c', '-w', f'multi{a}.sum'], algo=a)
        C.add(f'ck-algo{a}-multi-strict', ['-c', '--strict', '--quiet', f'multi{a}.sum'], algo=a)
        # a check file of another algorithm: nothing properly formatted
        C.add(f'ck-algo{a}-foreign', ['-c', f'good{other}.sum'], algo=a)
    # the '-' line: stdin in a disk check file, improperly formatted in a stdin check file
    dash = lines(line_std(256, 'a.txt'), Hd(256, b'abc') + b'  -', line_std(256, 'b.txt'))
    f = ckfile(dash)
    C.add('ck-dash-disk', ['-c', f], stdin=b'abc')
    C.add('ck-dash-disk-mismatch', ['-c', f], stdin=b'abd')
    C.add('ck-dash-disk-twice', ['-c', ckfile(lines(Hd(256, b'abc') + b'  -', E_line('-')))], stdin=b'abc')
    C.add('ck-dash-stdin', ['-c', '-w'], stdin=dash)
    C.add('ck-dash-stdin-dash', ['-c', '-w', '-'], stdin=dash)
    C.add('ck-dash-tag-stdin', ['-c', '-w'], stdin=lines(b'SHA256 (-) = ' + Hd(256, b'')))
    C.add('ck-dash-disk-and-stdin-check', ['-c', f, '-'], stdin=dash)
    # format lock (first valid untagged line decides standard vs BSD reversed), within one file
    H, Hb = D(256, 'a.txt'), D(256, 'b.txt')
    locks = [
        ('rev-then-std', [H + b' a.txt', Hb + b'  b.txt']), ('std-then-rev', [H + b'  a.txt', Hb + b' b.txt']),
        ('bin-then-rev', [H + b' *a.txt', Hb + b' b.txt']), ('rev-then-bin', [H + b' a.txt', Hb + b' *b.txt']),
        ('rev-then-lead', [H + b' a.txt', D(256, ' lead') + b'  lead']),
        ('lead-then-rev', [D(256, ' lead') + b'   lead', H + b' a.txt']),
        ('tag-then-rev-then-std', [line_tag(256, 'empty'), H + b' a.txt', Hb + b'  b.txt']),
        ('bad-then-rev-then-std', [b'junk', H + b' a.txt', Hb + b'  b.txt', line_tag(256, 'empty')]),
        ('rev-tab-then-std', [H + b'\ta.txt', Hb + b'  b.txt']), ('std-tab-then-rev', [H + b'\t a.txt', Hb + b' b.txt']),
        ('missing-rev-then-std', [H + b' missing1', Hb + b'  b.txt']),
        ('invalid-rev-then-std', [H[:-1] + b' a.txt', Hb + b'  b.txt']),
        ('rev-star-name-then-std', [D(256, '*star') + b' *star', Hb + b'  b.txt']),
        ('esc-rev-then-std', [b'\\' + D(256, 'new\nline') + b' new\\nline', Hb + b'  b.txt']),
    ]
    for label, ls in locks:
        C.add(f'ck-lock-{label}', ['-c', '-w', ckfile(lines(*ls))], note=repr(ls).encode())
        C.add(f'ck-lock-{label}/strict', ['-c', '--strict', ckfile(lines(*ls))], note=repr(ls).encode(),
              variants=('multi',))
    rev = ckfile(lines(line_rev(256, 'a.txt')))
    q = ('9.1 keeps the format lock (the first untagged line decides between the standard and the BSD reversed form) '
         'across check files')
    C.add('ck-lock-crossfile', ['-c', rev, 'good.sum'], quirk=q, quirk_split=[['-c', rev], ['-c', 'good.sum']])
    C.add('ck-lock-crossfile-std-first', ['-c', 'good.sum', rev], quirk=q,
          quirk_split=[['-c', 'good.sum'], ['-c', rev]])
    # CRLF everywhere, mixed endings, last line without newline or with a lone CR
    std = [line_std(256, n) for n in ['a.txt', 'b.txt', 'new\nline', 'back\\slash', 'cr\rret', 'sp ace', 'trail ']]
    tag = [line_tag(256, n) for n in ['a.txt', 'new\nline', 'cr\rret', 'trail ']]
    C.add('ck-crlf-all', ['-c', '-w', ckfile(lines(*std, *tag, end=b'\r\n'))])
    C.add('ck-crlf-noeol', ['-c', '-w', ckfile(lines(*std, end=b'\r\n', last=False))])
    C.add('ck-crlf-last-cr', ['-c', '-w', ckfile(lines(*std, end=b'\r\n', last=False) + b'\r')])
    C.add('ck-lf-noeol', ['-c', '-w', ckfile(lines(*std, last=False))])
    C.add('ck-cr-only-endings', ['-c', '-w', ckfile(lines(*std, end=b'\r'))])
    C.add('ck-mixed-endings', ['-c', '-w', ckfile(b'\r\n'.join(std[:3]) + b'\n' + b'\n'.join(std[3:]) + b'\r\n')])
    C.add('ck-crlf-comments', ['-c', '-w', '--strict', ckfile(lines(b'# c', b'', *std, b'#', b'', end=b'\r\n'))])
    C.add('ck-crlf-stdin', ['-c'], stdin=lines(*std, end=b'\r\n'))
    C.add('ck-lineno', ['-c', '-w', ckfile(lines(b'# c', b'', b'bad 1', std[0], b'', b'bad 2', b'#', b'bad 3', std[1]))])
    C.add('ck-only-comments', ['-c', ckfile(lines(b'# one', b'# two', b''))])
    C.add('ck-only-blank', ['-c', '--strict', ckfile(b'\n\n\n')])
    C.add('ck-only-garbage', ['-c', '-w', ckfile(lines(b'x', b'y', b'zz z'))])
    C.add('ck-empty-file', ['-c', 'empty'])
    C.add('ck-empty-stdin', ['-c'], stdin=b'')
    C.add('ck-nul-file', ['-c', '-w', ckfile(b'\0' * 100)])
    C.add('ck-binary-file', ['-c', '-w', 'big'])
    # every odd existing name through the checker, each format
    for fmt, fn in [('std', line_std), ('rev', line_rev), ('tag', line_tag)]:
        good = ckfile(lines(*[fn(256, n) for n in ODD_EXISTING]))
        bad = ckfile(lines(*[fn(256, n, wrong(256, i)) for i, n in enumerate(ODD_EXISTING)]))
        for extra in ([], ['--quiet'], ['--status'], ['-w', '--strict']):
            C.add(f'ck-odd-{fmt}-ok{"".join(extra)}', ['-c'] + extra + [good])
            C.add(f'ck-odd-{fmt}-bad{"".join(extra)}', ['-c'] + extra + [bad])
        C.add(f'ck-odd-{fmt}-ok-utf8', ['-c', good], locale='C.UTF-8')
    good = ckfile(lines(*[line_std(256, n, flag=b'*') for n in ODD_EXISTING]))
    C.add('ck-odd-bin-ok', ['-c', good])
    # missing files with names that need quoting (stdout raw/escaped, stderr quoted)
    qs = ckfile(lines(*[line_std(256, n, D(256, 'a.txt')) for n in MISSING_NAMES if n]))
    for extra in ([], ['--quiet'], ['--status'], ['--ignore-missing']):
        C.add(f'ck-quote{"".join(extra)}', ['-c'] + extra + [qs])
    C.add('ck-quote-utf8', ['-c', qs], locale='C.UTF-8')
    C.add('ck-quote-tag', ['-c', ckfile(lines(*[line_tag(256, n, D(256, 'a.txt')) for n in MISSING_NAMES if n]))])
    for n in [b'no such', b"it's", b'\xe9t\xe9', 'mé'.encode(), b'no\nsuch']:
        f = ckfile(lines(line_std(256, 'a.txt')), prefix=n.replace(b'\n', b'_') + b'-')
        C.add(f'ck-quote-checkfile:{n!r}', ['-c', '-w', ckfile(b'junk\n', prefix=n + b'-'), f])
        C.add(f'ck-quote-checkfile-utf8:{n!r}', ['-c', ckfile(b'junk\n', prefix=n + b'=')], locale='C.UTF-8')


def E_line(name):
    return Hd(256, b'') + b'  ' + B(name)


def cases_summary(C: Cases):
    """--check output: status lines, summaries, exit status, options' interplay."""
    opts = [[], ['--quiet'], ['--status'], ['--ignore-missing'], ['--ignore-missing', '--quiet'],
            ['--ignore-missing', '--status'], ['--strict'], ['-w'], ['--strict', '-w'], ['--status', '--strict'],
            ['--quiet', '--strict', '--ignore-missing'], ['-w', '--ignore-missing']]
    for f in ['multi.sum', 'multibad.sum', 'good.sum', 'mixed.sum']:
        for o in opts:
            C.add(f'rep-{f}{"".join(o)}', ['-c'] + o + [f])
    # singular and plural of every summary
    H = D(256, 'a.txt')
    one = ckfile(lines(H + b'  a.txt', b'bad', H + b'  b.txt', H + b'  missing1'))
    two = ckfile(lines(H + b'  a.txt', b'bad', H + b'  b.txt', H + b'  missing1', b'bad2', H + b'  c.txt',
                       H + b'  missing2'))
    three = ckfile(lines(H + b'  d', H + b'  b.txt', H + b'  missing1', b'x', b'y', b'z', H + b'  c.txt',
                         H + b'  empty', H + b'  missing2'))
    for f in (one, two, three):
        for o in ([], ['-w'], ['--ignore-missing'], ['--strict', '--quiet']):
            C.add(f'rep-plural-{f.decode()}{"".join(o)}', ['-c'] + o + [f])
    # --ignore-missing and 'no file was verified'
    allmissing = ckfile(lines(H + b'  missing1', H + b'  missing2'))
    onlydir = ckfile(lines(H + b'  d'))
    onlybad = ckfile(lines(H + b'  b.txt', H + b'  missing1'))
    for f in (allmissing, onlydir, onlybad):
        for o in (['--ignore-missing'], ['--ignore-missing', '--status'], ['--ignore-missing', '--quiet'],
                  ['--ignore-missing', '--strict', '-w'], []):
            C.add(f'rep-ignmiss-{f.decode()}{"".join(o)}', ['-c'] + o + [f])
    # GNU's check-ignore-missing-6: a digest starting with '00' is not "missing"
    data = next(s for s in (f'{i}t'.encode() for i in range(100000)) if Hd(256, s).startswith(b'00'))
    fx('zz00', data)
    C.add('rep-ignmiss-00', ['-c', '--ignore-missing', ckfile(lines(Hd(256, data) + b'  zz00'))])
    # no properly formatted lines (printed even with --status)
    for label, content in [('empty', b''), ('comments', b'# x\n#\n'), ('garbage', b'foo\nbar\n'),
                           ('wrong-tag', lines(line_tag(256, 'a.txt', tag='SHA512'))),
                           ('wrong-len', lines(D(512, 'a.txt') + b'  a.txt')), ('blank', b'\n\n')]:
        f = ckfile(content)
        for o in ([], ['--status'], ['-w'], ['--quiet'], ['--ignore-missing'], ['--strict']):
            C.add(f'rep-noproper-{label}{"".join(o)}', ['-c'] + o + [f])
        C.add(f'rep-noproper-{label}-stdin', ['-c'], stdin=content)
    # multiple check files: summaries per file, not aggregated
    multi = [['good.sum', 'multi.sum'], ['multi.sum', 'multi.sum'], ['nonexist.sum', 'good.sum'],
             ['d', 'good.sum'], ['empty', 'good.sum', 'empty'], ['good.sum', '-'], ['-', '-'],
             ['multibad.sum', 'mixed.sum', 'multi.sum'], ['good.sum', 'nonexist.sum', 'd', 'sp dir', 'no such'],
             ['d/'], ['.'], ['/dev/null'], ['a.txt'], ['multi.sum', '-', 'good.sum']]
    for i, fs in enumerate(multi):
        for o in ([], ['--status'], ['--quiet', '-w'], ['--ignore-missing']):
            C.add(f'rep-files-{i:02d}{"".join(o)}:{" ".join(fs)}', ['-c'] + o + fs, stdin=lines(line_std(256, 'a.txt')))
    # last-wins between --status, --warn, --quiet: every order of every subset, with and without --strict
    trio = ['--status', '-w', '--quiet']
    seqs = [list(p) for r in range(4) for comb in itertools.combinations(trio, r)
            for p in itertools.permutations(comb)]
    seqs += [['--status', '--quiet', '--status'], ['-w', '--status', '-w'], ['--quiet', '--quiet'],
             ['--warn', '--warn', '--status'], ['--status', '--warn', '--quiet', '--warn']]
    for s in seqs:
        for extra in ([], ['--strict'], ['--ignore-missing']):
            C.add(f'rep-lastwins:{" ".join(s + extra) or "none"}', ['-c'] + s + extra + ['multibad.sum'])
    # check file unreadable as a directory / missing / standard input named in the warning
    C.add('rep-stdin-name', ['-c', '-w'], stdin=b'junk\n' + lines(line_std(256, 'a.txt')))
    C.add('rep-stdin-name-noproper', ['-c', '--status'], stdin=b'junk\n')
    C.add('rep-dir-checkfile', ['-c', 'd'])
    C.add('rep-dir-checkfile-status', ['-c', '--status', 'd', 'good.sum'])
    C.add('rep-missing-checkfile', ['-c', 'nonexist.sum'])
    C.add('rep-missing-checkfile-ign', ['-c', '--ignore-missing', 'nonexist.sum'])
    C.add('rep-status-diagnostics', ['-c', '--status', 'multi.sum'])
    C.add('rep-hex-case-insensitive', ['-c', ckfile(lines(D(256, 'a.txt').upper() + b' *a.txt'))])


def cases_gnu_tests(C: Cases):
    """coreutils tests/cksum/md5sum.pl and md5sum-bsd.sh, adapted from MD5 to SHA-256."""
    deg = Hd(256, b'')
    fx('gf', b'')
    fx('gfoo', b'foo')
    fx('gbar', b'bar')
    t = [
        ('check-1', ['--check', ckfile(lines(deg + b'  gf'))]),
        ('check-windows', ['--check', ckfile(deg + b'  gf\r\n')]),
        ('ck-strict-1', ['--check', '--strict', ckfile(deg + b'  gf\n\n')]),
        ('ck-strict-2', ['--check', '--strict', ckfile(b'ERR\n' + deg + b'  gf\n')]),
        ('check-2', ['--check', '--status', ckfile(deg + b'  gfoo\n')]),
        ('check-quiet1', ['--check', '--quiet', ckfile(deg + b'  gf\n')]),
        ('check-quiet2', ['--check', '--quiet', ckfile(deg + b'  gfoo\n')]),
        ('check-multifail', ['--check', ckfile(deg + b'  gfoo\n' + deg + b'  gfoo\ninvalid\n')]),
        ('check-multifail-warn', ['--check', '--warn', ckfile(deg + b'  gfoo\n' + deg + b'  gfoo\ninvalid\n')]),
        ('check-multifail-state', ['--check', '--warn', ckfile(deg + b'  gf\n' + deg + b'  gbar\n' + deg + b'  gf\n')]),
        ('check-bsd', ['--check', ckfile(b'SHA1 (gf) = ' + deg + b'\n')]),
        ('check-bsd-512', ['--check', ckfile(b'SHA512 (gf) = ' + deg + b'\n')]),
        ('check-bsd2', ['--check', ckfile(b'SHA256 (gf) = ' + deg + b'\n')]),
        ('check-bsd3', ['--check', '--status', ckfile(b'SHA256 (gbar) = ' + deg + b'\n')]),
        ('check-openssl', ['--check', ckfile(b'SHA1(gf)= ' + deg + b'\n')]),
        ('check-openssl2', ['--check', ckfile(b'SHA256(gf)= ' + deg + b'\n')]),
        ('check-openssl3', ['--check', '--status', ckfile(b'SHA256(gbar)= ' + deg + b'\n')]),
        ('check-ignore-missing-1', ['--check', '--ignore-missing', ckfile(deg + b'  gf\n' + deg + b'  gf.missing\n')]),
        ('check-ignore-missing-3', ['--check', '--quiet', '--ignore-missing',
                                    ckfile(deg + b'  missing/gf\n' + deg + b'  gf\n')]),
        ('check-ignore-missing-4', ['--ignore-missing', 'gf']),
        ('check-ignore-missing-5', ['--check', '--ignore-missing', ckfile(deg + b'  missing\n')]),
        ('bsd-segv', ['--check', ckfile(b'SHA256 (')]),
        ('bsd-segv-md5', ['--check', ckfile(b'MD5 (')]),
        ('nul-in-cksum', ['--check', ckfile(b'\0' * 64 + b'  h\n')]),
    ]
    for label, args in t:
        C.add(f'gnu-md5sum-{label}', args)
    for i in range(7):
        C.add(f'gnu-md5sum-{i + 1}', ['--text', f'vec{i}'], expect_out=Hd(256, VECTORS[i]) + f'  vec{i}\n'.encode())
    # md5sum-bsd.sh, in the subdirectory bsd/ (names ' b', '*c', ' ' must be at the start of the line)
    names = [b'a', b' b', b'*c', b'dd', b' ']
    for n in names:
        fx(b'bsd/' + n, n + b'\n')
    std = b''.join(Hd(256, n + b'\n') + b'  ' + n + b'\n' for n in names)
    rev = b''.join(Hd(256, n + b'\n') + b' ' + n + b'\n' for n in names)  # sed 's/  / /'
    fx('bsd/check.sha256sum', std)
    fx('bsd/check.sha256', rev)
    fx('bsd/check2.sha256sum', b'____not_all_hex_so_no_match_____ blah\n' + std)
    tagged = b''.join(b'SHA256 (' + n + b') = ' + Hd(256, n + b'\n') + b'\n' for n in names)
    fx('bsd/check-tag.sha256', tagged)
    C.add('bsd-gen-text', ['--text', '--'] + names, cwd='bsd')
    C.add('bsd-gen-tag', ['--tag', '--'] + names, cwd='bsd')
    C.add('bsd-strict-std', ['--strict', '-c', 'check.sha256sum'], cwd='bsd')
    C.add('bsd-strict-rev', ['--strict', '-c', 'check.sha256'], cwd='bsd')
    C.add('bsd-gpg-header', ['-c', 'check2.sha256sum'], cwd='bsd')
    C.add('bsd-tail-rev-stdin', ['--strict', '-c'], stdin=rev.split(b'\n', 1)[1], cwd='bsd')
    C.add('bsd-tag-check-devnull', ['--tag', '--check', '/dev/null'], cwd='bsd')
    C.add('bsd-tag-text-devnull', ['--tag', '--text', '/dev/null'], cwd='bsd')
    C.add('bsd-strict-tag', ['--strict', '-c', 'check-tag.sha256'], cwd='bsd')
    esc_names = [b'a\\b', b'a\\', b'\\a', b'a\nb', b'a\tb']
    for n in esc_names:
        fx(b'bsd/' + n, b'')
    fx('bsd/check-esc.sha256', b''.join(line_tag(256, n, Hd(256, b'')) + b'\n' for n in esc_names))
    C.add('bsd-gen-tag-esc', ['--tag', '--'] + esc_names, cwd='bsd')
    C.add('bsd-strict-tag-esc', ['--strict', '-c', 'check-esc.sha256'], cwd='bsd')
    ex = b'test\n\\\\file'
    fx(b'bsd/' + ex, b'')
    C.add('bsd-tag-ex-file', ['--tag', ex], cwd='bsd',
          expect_out=b'\\SHA256 (test\\n\\\\\\\\file) = ' + Hd(256, b'') + b'\n')


def cases_output_errors(C: Cases):
    """Write errors: stdout to /dev/full, closed, a closed pipe with SIGPIPE ignored or default."""
    many = ['a.txt'] * 150
    lst = [['a.txt'], ['a.txt', 'nonexist', 'b.txt'], ['--tag', 'a.txt'], ['-z', 'a.txt'], ['-'],
           ['-c', 'good.sum'], ['-c', '--quiet', 'good.sum'], ['-c', '--status', 'multi.sum'], ['-c', 'multi.sum'],
           ['-c', '--quiet', 'multi.sum'], many, ['nonexist'], ['--bogus'], ['-c', 'nonexist.sum'],
           ['big', 'big', 'nonexist', 'big'], ['-c', '--ignore-missing', '--quiet', 'multi.sum']]
    for out in ('full', 'closed', 'epipe', 'epipe-dfl'):
        for i, args in enumerate(lst):
            C.add(f'out-{out}-{i:02d}', args, out=out, stdin=b'abc')
    # stdin closed: reading '-' fails with EBADF, and GNU reports "standard input" again at exit.
    for i, args in enumerate([['-'], [], ['a.txt', '-', 'b.txt'], ['-c', '-'], ['-c', 'good.sum', '-'],
                              ['a.txt', 'nonexist'] + ['a.txt'] * 20, ['-c', 'good.sum']]):
        C.add(f'in-closed-{i:02d}', args, out='stdin-closed')


def cases_argv0(C: Cases):
    """Program name = argv[0] verbatim, with a directory in it."""
    lst = [['nonexist'], ['--bogus'], ['-x'], ['--s'], ['--tag', '-t'], ['-c', 'multibad.sum'],
           ['-c', '-w', 'multibad.sum'], ['-c', 'empty'], ['--status', 'a.txt'], ['a.txt', 'd', '-'],
           ['-c', '--ignore-missing', 'nonexist.sum'], ['-c'], ['-c', '--ignore-missing', 'multi.sum']]
    for i, args in enumerate(lst):
        for argv0, a in [('./bin/sha256sum', 256), ('/opt/x y/sha512sum', 512), ('../sha224sum', 224),
                         ('sha384sum', 384)]:
            C.add(f'argv0-{i:02d}-{argv0}', args, algo=a, argv0=argv0, stdin=b'junk\n',
                  variants=('multi', 'j3') if i % 2 else ('multi',))


def cases_info(C: Cases):
    """--help and --version: exit 0, non-empty stdout, empty stderr; texts are not compared."""
    lst = [['--help'], ['--version'], ['--h'], ['--he'], ['--v'], ['--vers'], ['--help', '--bogus'],
           ['-c', '--version'], ['a.txt', '--help'], ['--tag', '-t', '--help'], ['--version', '-x'],
           ['--help', '--version'], ['--version', '--help'], ['-c', '--tag', '-z', '--version']]
    for a in ALGOS:
        for i, args in enumerate(lst):
            C.add(f'info-{a}-{i:02d}:{" ".join(args)}', args, algo=a, kind='info', variants=('multi', 'sum'))
    C.add('info-argv0-dir', ['--version'], argv0='./bin/sha256sum', kind='info', variants=('multi',))


def cases_random(C: Cases, seed: int):
    """A differential of generated check files: valid lines for existing and missing files mixed with
    mutated ones, run with -c, -c -w and -c --strict --quiet."""
    rng = random.Random(seed)
    count = 50 if C.quick else 250
    existing = [b'a.txt', b'b.txt', b'c.txt', b'empty', b'-'] + ODD_EXISTING + ['vec3'.encode()]
    missing = [b'missing1', b'no such', b'zz', b'x y', b'm\\n', b'a\nb2', b'  sp']
    tokens = [b' ', b'  ', b'\t', b'\\', b'(', b')', b'=', b' = ', b'\0', b'\r', b'*', b'#', b'g', b'F', b'0',
              b'\\n', b'\\\\', b'SHA256', b' (', b') = ', b'\n', b'SHA512', b'\\r', b'\xff', b'-']
    for k in range(count):
        algo = rng.choice(ALGOS)
        out = []
        for _ in range(rng.choice([1, 1, 2, 3, 4, 6, 9, 14])):
            r = rng.random()
            if r < 0.05:
                out.append(b'#' + rng.choice(tokens) + b' comment')
                continue
            if r < 0.08:
                out.append(rng.choice([b'', b' ', b'\t', b'\r']))
                continue
            t = rng.random()
            if t < 0.7:
                name = rng.choice(existing)
            elif t < 0.9:
                name = rng.choice(missing)
            elif t < 0.95:
                name = b'd'
            else:
                name = b'-'
            a2 = algo if rng.random() < 0.85 else rng.choice(ALGOS)
            if name in CONTENT and rng.random() < 0.8:
                h = D(a2, name)
            elif name == b'-' and rng.random() < 0.8:
                h = Hd(a2, b'abc')
            else:
                h = Hd(a2, f'{k} {rng.random()}')
            if rng.random() < 0.1:
                h = h.upper()
            form = rng.choice(['std', 'std', 'bin', 'rev', 'tag', 'tag', 'openssl', 'tag-nospace'])
            escape_ok = rng.random() < 0.85
            nm = esc(name) if (needs_esc(name) and escape_ok) else name
            pre = b'\\' if (needs_esc(name) and escape_ok) else b''
            if form == 'std':
                ln = pre + h + b'  ' + nm
            elif form == 'bin':
                ln = pre + h + b' *' + nm
            elif form == 'rev':
                ln = pre + h + b' ' + nm
            else:
                tag = f'SHA{a2}'.encode() if rng.random() < 0.9 else rng.choice([b'SHA256', b'MD5', b'SHA2-256'])
                if form == 'tag':
                    ln = pre + tag + b' (' + nm + b') = ' + h
                elif form == 'openssl':
                    ln = pre + tag + b'(' + nm + b')= ' + h
                else:
                    ln = pre + tag + b'(' + nm + b') = ' + h
            if rng.random() < 0.35:
                for _ in range(rng.randint(1, 3)):
                    m = rng.random()
                    p = rng.randrange(len(ln) + 1)
                    if m < 0.35:
                        ln = ln[:p] + rng.choice(tokens) + ln[p:]
                    elif m < 0.55 and ln:
                        ln = ln[:p] + ln[p + 1:]
                    elif m < 0.7:
                        ln = ln[:p]
                    elif m < 0.8:
                        q = rng.randrange(len(ln) + 1)
                        ln = ln[:p] + ln[min(p, q):max(p, q)] + ln[p:]
                    elif m < 0.9:
                        ln = rng.choice([b' ', b'\t', b'  ']) + ln
                    else:
                        ln = ln + rng.choice([b' ', b'\t', b'\r', b'x', b'\0'])
            out.append(ln)
        ends = [rng.choice([b'\n'] * 8 + [b'\r\n'] * 2) for _ in out]
        if rng.random() < 0.15:
            ends[-1] = rng.choice([b'', b'\r'])
        content = b''.join(ln + e for ln, e in zip(out, ends))
        note = repr(content[:400]).encode()
        via_stdin = rng.random() < 0.2
        f = None if via_stdin else ckfile(content, prefix='r')
        for j, mode in enumerate((['-c'], ['-c', '-w'], ['-c', '--strict', '--quiet'])):
            var = ('multi',) + (('j3',) if (k + j) % 4 == 0 else ('sum',) if (k + j) % 4 == 1 else ())
            if via_stdin:
                C.add(f'rnd-{k:03d}-{algo}{"".join(mode)}-stdin', mode, algo=algo, stdin=content, note=note,
                      variants=var)
            else:
                C.add(f'rnd-{k:03d}-{algo}{"".join(mode)}', mode + [f], algo=algo, stdin=b'abc', note=note,
                      variants=var)


def cases_parallel(C: Cases, seed: int):
    """-j on a few thousand files (sizes 0..64 KiB, 2% of 128..400 KiB (streamed side by side), missing
    names, directories, '-' once): generation
    and --check output identical to GNU's for -j1, -j2, -j8 and the other spellings."""
    rng = random.Random(seed)
    n = 500 if C.quick else 3000
    ops, ck = [], []
    for i in range(n):
        if i == n // 2:
            ops.append(b'-')
            ck.append(Hd(256, PAR_STDIN) + b'  -')
            continue
        if i % 37 == 5:
            nm = f'par/missing{i}'.encode()
            ops.append(nm)
            ck.append(Hd(256, nm) + b'  ' + nm)
            continue
        if i % 601 == 77:
            nm = f'par/dir{i}'.encode()
            DIRS.append(nm)
            ops.append(nm)
            ck.append(Hd(256, nm) + b'  ' + nm)
            continue
        if i % 97 == 3:
            nm = rng.choice([f'par/sp {i}', f'par/bs\\{i}', f'par/nl\n{i}', f'par/cr\r{i}', f'par/*{i}']).encode()
        else:
            nm = f'par/f{i:05d}'.encode()
        r = rng.random()
        size = 0 if r < 0.05 else rng.randrange(1, 1024) if r < 0.5 else rng.randrange(1024, 8192) if r < 0.85 \
            else rng.randrange(8192, 65537) if r < 0.98 else rng.randrange(131072, 400000)
        fx(nm, rng.randbytes(size))
        ops.append(nm)
        h = D(256, nm) if rng.random() > 0.05 else Hd(256, nm)
        ck.append(line_std(256, nm, h, flag=rng.choice([b' ', b'*'])))
        if i % 211 == 100:
            ck.append(b'improper line ' + str(i).encode())
    fx('par.sum', lines(*ck))
    fx('par-tag.sum', lines(*[line_tag(256, nm) for nm in ops[:n // 3] if nm in CONTENT]))
    for i in range(1, 501):
        fx(f'par/e/{i}', b'')
    empties = [f'par/e/{i}' for i in range(1, 501)] * 3  # md5sum-parallel.sh: 500 empty files, three times
    allj = ('j1', 'j2', 'j8', 'sum-j8')
    lst = [
        ('gen', ops, ('j1', 'j2', 'j8', 'jobs=4', 'j8-noprog', 'sum-j8', 'noprog')),
        ('gen-tag', ['--tag'] + ops, allj), ('gen-z-b', ['-z', '-b'] + ops, ('j1', 'j8')),
        ('gen-empties', empties, ('j1', 'j8')),
        ('check', ['-c', 'par.sum'], ('j1', 'j2', 'j8', 'jobs=4', 'sum-j8')),
        ('check-quiet', ['-c', '--quiet', 'par.sum'], allj), ('check-ignmiss', ['-c', '--ignore-missing', 'par.sum'], allj),
        ('check-w-strict', ['-c', '-w', '--strict', 'par.sum'], allj),
        ('check-status', ['-c', '--status', 'par.sum'], ('j1', 'j8')),
        ('check-two', ['-c', 'par.sum', 'par-tag.sum', 'nonexist.sum', 'par.sum'], ('j1', 'j2', 'j8')),
    ]
    for label, args, var in lst:
        C.add(f'par-{label}', args, stdin=PAR_STDIN, variants=var, timeout=PAR_TIMEOUT,
              note=f'{len(args)} operands'.encode())


PAR_STDIN = bytes(random.Random(3).randbytes(65536))


def build_cases(quick: bool, seed: int) -> list[Case]:
    base_fixture()
    C = Cases(quick)
    cases_options(C)
    cases_usage(C)
    cases_format(C)
    cases_vectors(C)
    cases_stdin(C)
    cases_errors(C)
    cases_unreadable(C)
    cases_check_grammar(C)
    cases_summary(C)
    cases_gnu_tests(C)
    cases_output_errors(C)
    cases_argv0(C)
    cases_info(C)
    cases_random(C, seed)
    cases_parallel(C, seed)
    return C.list


# ------------------------------------------------------------------------------------------------
# Running

@dataclass
class Result:
    stdout: bytes | None
    stderr: bytes
    rc: object


class Runner:
    def __init__(self, root: str, shasta: str | None, self_test: bool, nobody_mode: str | None):
        self.root = root
        self.shasta = shasta
        self.self_test = self_test
        self.nobody_mode = nobody_mode  # 'setpriv' (root), 'direct' (already non-root) or None (skip)
        self.bindir_lock = threading.Lock()
        self.bindirs: dict[tuple, str] = {}

    def link_dir(self, side: str, exe: str, name: bytes) -> str:
        """A directory holding one link named `name` to `exe`, for running through setpriv + PATH
        (which keeps argv[0] exactly `name`)."""
        key = (side, exe, name)
        with self.bindir_lock:
            d = self.bindirs.get(key)
            if d is None:
                d = os.path.join(self.root + '.bin', f'{side}{len(self.bindirs)}')
                os.makedirs(d)
                os.chmod(d, 0o755)
                os.symlink(exe, os.path.join(B(d), name))
                self.bindirs[key] = d
            return d

    def execute(self, side, exe, argv, case: Case) -> Result:
        argv = [B(a) for a in argv]
        env = {'PATH': '/usr/bin:/bin', 'LC_ALL': case.locale}
        cmd, executable = argv, exe
        if case.nobody and self.nobody_mode == 'setpriv':
            env['PATH'] = self.link_dir(side, exe, argv[0])
            cmd = [b'setpriv', f'--reuid={NOBODY}'.encode(), f'--regid={NOBODY}'.encode(), b'--clear-groups', b'--'] + argv
            executable = '/usr/bin/setpriv'
        if case.out in ('closed', 'stdin-closed'):  # the shell closes the descriptor, then execs
            closer = b'>&-' if case.out == 'closed' else b'<&-'
            cmd = [b'bash', b'-c', b'exec -a "$0" "$@" ' + closer, argv[0], B(exe)] + argv[1:]
            executable = '/bin/bash'
        cwd = os.path.join(self.root, case.cwd)
        stdin_fd, inp = None, None
        if isinstance(case.stdin, tuple):
            stdin_fd = os.open(os.path.join(cwd, case.stdin[1]), os.O_RDONLY)
            stdin = stdin_fd
        else:
            stdin, inp = subprocess.PIPE, case.stdin
        out_fd = None
        # Pipes made and processes started under one lock: a closed pipe's read end exists for a
        # moment after os.pipe(), and a child another thread forks then keeps a copy until its
        # exec; a tool writing meanwhile finds a reader and no EPIPE (seen once in CI, GNU exit 0).
        with SPAWN_LOCK:
            if case.out in ('pipe', 'stdin-closed'):
                stdout = subprocess.PIPE
            elif case.out == 'full':
                out_fd = os.open('/dev/full', os.O_WRONLY)
                stdout = out_fd
            elif case.out in ('epipe', 'epipe-dfl'):
                r, out_fd = os.pipe()
                os.close(r)
                stdout = out_fd
            else:  # closed: the shell closes it
                stdout = subprocess.DEVNULL
            try:
                p = subprocess.Popen(cmd, executable=executable, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
                                     cwd=cwd, env=env, restore_signals=(case.out != 'epipe'))
            finally:
                if stdin_fd is not None:
                    os.close(stdin_fd)
                if out_fd is not None:
                    os.close(out_fd)
        try:
            so, se = p.communicate(inp, timeout=case.timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            p.kill()
            so, se = p.communicate()
            rc = f'timeout after {case.timeout}s'
        return Result(so if case.out in ('pipe', 'stdin-closed') else None, se, rc)

    def gnu(self, case: Case) -> Result:
        argv0 = case.argv0 or prog(case.algo)
        return self.execute('gnu', gnu_exe(case.algo), [argv0] + case.args, case)

    def shasta_run(self, case: Case, variant: str) -> tuple[Result, list]:
        how, ext = VARIANTS[variant]
        argv0 = case.argv0 or prog(case.algo)
        if self.self_test:
            if how == 'multi':
                argv = [argv0] + case.args
            else:
                argv = ['shasta sum'] + case.args
            exe = gnu_exe(case.algo)
        else:
            exe = self.shasta
            if how == 'multi':
                argv = [argv0] + list(ext) + case.args
            else:
                argv = ['shasta', 'sum', '-a', str(case.algo)] + list(ext) + case.args
        res = self.execute('shasta', exe, argv, case)
        if how == 'sum':
            res.stderr = res.stderr.replace(b'shasta sum', B(argv0))
        return res, argv


def snippet(a: bytes | None, b: bytes | None, width=150) -> tuple[str, str]:
    """repr() of both sides around their first difference."""
    if a is None or b is None:
        return repr(a), repr(b)
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    start = max(0, i - 40)
    pre = f'[@{start}/{len(a)}]' if start or len(a) > width else ''
    preb = f'[@{start}/{len(b)}]' if start or len(b) > width else ''
    return pre + repr(a[start:start + width]), preb + repr(b[start:start + width])


def short_argv(argv) -> str:
    s = repr([B(x) for x in argv])
    return s if len(s) < 240 else s[:200] + f'... ({len(argv)} args)'


VERSION_RE = re.compile(rb'^(sha(224|256|384|512)sum) \((shasta|GNU coreutils)\) \S+$')


def check_info(case: Case, variant: str, res: Result, self_test: bool) -> list[str]:
    probs = []
    if res.rc != 0:
        probs.append(f'exit status {res.rc!r} (want 0)')
    if not res.stdout:
        probs.append('empty stdout')
    if res.stderr:
        probs.append(f'stderr {res.stderr[:200]!r}')
    how, _ = VARIANTS[variant]
    # getopt acts on the first of --help/--version; check the version line when that is --version
    first_info = next(B(a) for a in case.args if B(a).startswith((b'--h', b'--v')))
    if how == 'multi' and res.stdout and first_info.startswith(b'--v'):
        first = res.stdout.split(b'\n', 1)[0]
        m = VERSION_RE.match(first)
        want_pkg = b'GNU coreutils' if self_test else b'shasta'
        if not m or m.group(1) != prog(case.algo).encode() or m.group(3) != want_pkg:
            probs.append(f'--version first line {first!r} (want {prog(case.algo)} ({want_pkg.decode()}) VERSION)')
    return probs


# Other tools' tags (OpenSSL 3's "SHA2-256(", FreeBSD's "SHA512t256 ("), which `shasta sum -c`
# reads and GNU's tools (shasta under their names too) do not: sum_algorithms_test.py checks them.
FOREIGN_TAG_RE = re.compile(rb'SHA2-|SHA512t')


def reads_foreign_tags(case: Case) -> bool:
    stdin = case.stdin if isinstance(case.stdin, bytes) else b''
    return bool(FOREIGN_TAG_RE.search(case.note) or FOREIGN_TAG_RE.search(stdin))


def run_case(runner: Runner, case: Case, self_test: bool):
    """Returns (case, [(variant, argv, [problem lines])], quirk_notes)."""
    fails = []
    if case.kind == 'info':
        for v in case.variants:
            if v.startswith('sum') and case.argv0:
                continue
            res, argv = runner.shasta_run(case, v)
            probs = check_info(case, v, res, self_test)
            if probs:
                fails.append((v, argv, probs))
        return case, fails
    g = runner.gnu(case)
    alt = None
    if case.quirk_split:  # GNU run on each check file alone, the outputs concatenated
        parts = [runner.gnu(Case(case.name, args, algo=case.algo, locale=case.locale, cwd=case.cwd))
                 for args in case.quirk_split]
        alt = Result(b''.join(r.stdout for r in parts), b''.join(r.stderr for r in parts),
                     max(r.rc for r in parts))
    gprobs = []
    if case.expect_out is not None and g.stdout != case.expect_out:
        ga, gb = snippet(case.expect_out, g.stdout)
        gprobs.append(f'GNU stdout differs from the expected: want={ga} gnu={gb}')
    if gprobs:
        fails.append(('gnu', [case.argv0 or prog(case.algo)] + case.args, gprobs))
    for v in case.variants:
        if v.startswith('sum') and (case.argv0 or reads_foreign_tags(case)):
            continue
        s, argv = runner.shasta_run(case, v)
        probs = []
        for stream in ('stdout', 'stderr'):
            ga, sa = getattr(g, stream), getattr(s, stream)
            if ga != sa:
                x, y = snippet(ga, sa)
                probs.append(f'{stream}: gnu={x}\n      {" " * len(stream)}shasta={y}')
        if g.rc != s.rc:
            probs.append(f'exit status: gnu={g.rc!r} shasta={s.rc!r}')
        if probs and alt is not None and (alt.stdout, alt.stderr, alt.rc) == (s.stdout, s.stderr, s.rc):
            probs = [f'QUIRK: {case.quirk}; shasta behaves as GNU on each check file alone']
        if probs:
            fails.append((v, argv, probs))
    return case, fails


def needs(case: Case) -> str:
    """What a case needs of the host: 'nobody' (setpriv, as root), 'utf8' (the locale) or 'nothing'."""
    if case.nobody:
        return 'nobody'
    return 'utf8' if case.locale != 'C' else 'nothing'


def probe_nobody(root: str, shasta: str | None, self_test: bool) -> tuple[str | None, str]:
    if os.geteuid() != 0:
        return 'direct', f'running as uid {os.geteuid()}'
    if not shutil.which('setpriv'):
        return None, 'running as root and setpriv is not installed'
    base = ['setpriv', f'--reuid={NOBODY}', f'--regid={NOBODY}', '--clear-groups', '--']
    try:
        p = subprocess.run(base + ['/usr/bin/test', '-r', 'a.txt', '-a', '!', '-r', 'unread'], cwd=root,
                           capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as e:
        return None, f'setpriv failed: {e}'
    if p.returncode != 0:
        return None, f'setpriv to uid {NOBODY} failed or the fixture is not readable to it: {p.stderr[:200]!r}'
    if not self_test:
        p = subprocess.run(base + ['/usr/bin/test', '-x', shasta], cwd=root, capture_output=True, timeout=10)
        if p.returncode != 0:
            return None, f'{shasta} is not executable by uid {NOBODY} (a directory above it is not searchable?)'
    return 'setpriv', f'as uid {NOBODY} through setpriv'


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('shasta', nargs='?', help='path to the shasta binary (not needed with --self-test)')
    ap.add_argument('--self-test', action='store_true', help='GNU on both sides: validates the harness')
    ap.add_argument('--quick', action='store_true', help='shrink the exhaustive and randomized parts')
    ap.add_argument('-k', action='append', default=[], metavar='SUBSTRING',
                    help='run only cases whose name contains SUBSTRING (repeatable: any of them)')
    ap.add_argument('--needs', choices=['nothing', 'utf8', 'nobody'],
                    help='run only the cases that need this of the host (default: all)')
    ap.add_argument('--seed', type=int, default=20240601, help='seed of the randomized parts')
    ap.add_argument('--jobs', type=int, default=max(2, min(4, (os.cpu_count() or 2))),
                    help='cases run concurrently')
    ap.add_argument('--max-report', type=int, default=60, help='failing cases printed in full (default 60)')
    ap.add_argument('--list', action='store_true', help='list the selected cases and exit')
    ap.add_argument('--dump', action='store_true', help='print GNU\'s output for each selected case')
    opts = ap.parse_args()

    for a in ALGOS:
        if not os.access(gnu_exe(a), os.X_OK):
            print(f'compare_gnu: {gnu_exe(a)} is missing', file=sys.stderr)
            return 2
    shasta = None
    if not opts.self_test:
        if not opts.shasta:
            ap.error('the path to shasta is required (or --self-test)')
        shasta = os.path.abspath(opts.shasta)
        if not os.access(shasta, os.X_OK):
            print(f'compare_gnu: {shasta} is not an executable file', file=sys.stderr)
            return 2

    t0 = time.monotonic()
    os.umask(0o022)
    cases = build_cases(opts.quick, opts.seed)
    if opts.k:
        cases = [c for c in cases if any(k in c.name for k in opts.k)]
    if opts.needs:
        cases = [c for c in cases if needs(c) == opts.needs]
    if opts.list:
        for c in cases:
            print(c.name)
        return 0
    if not cases:
        print('compare_gnu: no case selected (-k or --needs matches nothing?)', file=sys.stderr)
        return 2

    skipped = []
    skipped_cases = 0
    with tempfile.TemporaryDirectory(prefix='shasta-cli-') as tmp:
        root = os.path.join(tmp, 'fx')
        os.chmod(tmp, 0o755)
        os.mkdir(root)
        write_fixture(root)
        nobody_mode, why = (None, '')
        if any(c.nobody for c in cases):
            nobody_mode, why = probe_nobody(root, shasta, opts.self_test)
            if nobody_mode is None:
                n = sum(c.nobody for c in cases)
                skipped.append(f'{n} unreadable-file cases skipped: {why}')
                skipped_cases += n
                cases = [c for c in cases if not c.nobody]
        n = sum(c.locale != 'C' for c in cases)
        if n and 'C.utf8' not in subprocess.run(['locale', '-a'], capture_output=True, text=True).stdout.split():
            skipped.append(f'{n} C.UTF-8 cases skipped: the locale is not installed')
            skipped_cases += n
            cases = [c for c in cases if c.locale == 'C']
        runner = Runner(root, shasta, opts.self_test, nobody_mode)

        if opts.dump:
            for c in cases:
                g = runner.gnu(c)
                print(f'== {c.name}  argv={short_argv([c.argv0 or prog(c.algo)] + c.args)} stdin={c.stdin!r:.80}')
                print(f'   stdout={g.stdout!r:.1000}\n   stderr={g.stderr!r:.1000}\n   rc={g.rc!r}')
            return 0

        # the big parallel cases first, so they overlap with the many small ones
        order = sorted(range(len(cases)), key=lambda i: (not cases[i].name.startswith('par-'), i))
        with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
            futs = {i: pool.submit(run_case, runner, cases[i], opts.self_test) for i in order}
            results = [futs[i].result() for i in range(len(cases))]

    failed = quirks = 0
    runs = 0
    per_area: dict[str, list[int]] = {}
    printed = 0
    for case, fails in results:
        area = case.name.split('-', 1)[0].split(':')[0]
        st = per_area.setdefault(area, [0, 0])
        st[0] += 1
        runs += len(case.variants) + (case.kind != 'info')
        if not fails:
            continue
        if case.quirk and all(p[0].startswith('QUIRK') for _, _, p in fails):
            quirks += 1
            print(f'QUIRK {case.name} [{",".join(v for v, _, _ in fails)}]: differs from GNU 9.1 '
                  f'({case.quirk}); not counted')
            continue
        failed += 1
        st[1] += 1
        if printed >= opts.max_report:
            continue
        printed += 1
        stdin = case.stdin if isinstance(case.stdin, tuple) else case.stdin[:60]
        head = f'FAIL {case.name}  locale={case.locale}' + (f' cwd={case.cwd}' if case.cwd else '') + \
            (f' out={case.out}' if case.out != 'pipe' else '') + (' as-nobody' if case.nobody else '') + \
            f' stdin={stdin!r}'
        print(head)
        if case.note:
            print(f'   note: {case.note[:300].decode(errors="replace")}')
        for v, argv, probs in fails:
            print(f'   [{v}] argv={short_argv(argv)}')
            for p in probs:
                print(f'      {p}')
    if failed > printed:
        print(f'... {failed - printed} more failing cases not shown (--max-report)')
    for s in skipped:
        print(f'SKIP {s}')
    print('per area (cases/failed): ' + ', '.join(f'{a} {n}/{f}' for a, (n, f) in per_area.items()))
    mode = 'self-test (GNU against GNU)' if opts.self_test else shasta
    print(f'{len(results) + skipped_cases} cases: {len(results)} run, {failed} failed, {skipped_cases} skipped'
          + (f', {quirks} known-quirk differences not counted' if quirks else '')
          + f' ({runs} runs, {time.monotonic() - t0:.1f} s, {mode})')
    if failed:
        return 1
    if not results:
        print('SKIPPED: every selected case needs what this host lacks')
        return 77
    return 0


if __name__ == '__main__':
    sys.exit(main())
