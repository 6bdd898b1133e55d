#!/usr/bin/env python3
"""`shasta sum -a ALGO` for the algorithms GNU has no tool for, SHA-512/224 and SHA-512/256 (and the
other four by the same route), untagged and with --tag, and -c of what each wrote.

    python3 tests/cli/sum_algorithms_test.py PATH/TO/shasta

For each algorithm, under each of its names (224, sha512-224, SHA512/224 ...): the digests are
hashlib's; --tag writes `SHA512/224 (NAME) = HEX` as Perl's shasum does; -c accepts both forms,
reports a changed file FAILED (exit 1), and finds no proper line in another algorithm's tagged
list. -c also takes other tools' tags for the same hash: OpenSSL 3's `openssl dgst` lines
(`SHA2-512/224(NAME)= HEX`) and FreeBSD's (`SHA512t224 (NAME) = HEX`), `shasta hmac -c` OpenSSL's
`HMAC-SHA2-256(NAME)= HEX`; GNU's sha256sum (the same binary under that name) takes none of them.
Prints one line per failed case and 'N cases, M failed'. Standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import subprocess
import sys
import tempfile

from tally import Tally

TALLY = Tally()
case = TALLY.case

# -a value, the other names it goes by, hashlib's name, the --tag name
ALGOS = [
    ('224', ['sha224', 'SHA224'], 'sha224', 'SHA224'),
    ('256', ['sha256'], 'sha256', 'SHA256'),
    ('384', ['sha384'], 'sha384', 'SHA384'),
    ('512', ['sha512'], 'sha512', 'SHA512'),
    ('512224', ['sha512-224', 'sha512/224', 'SHA512/224'], 'sha512_224', 'SHA512/224'),
    ('512256', ['sha512-256', 'sha512/256', 'SHA512/256'], 'sha512_256', 'SHA512/256'),
]
# Other tools' lines for the same hashes: OpenSSL 3's `openssl dgst` and FreeBSD's sha512t224/t256.
FOREIGN = {
    '224': ['SHA2-224({n})= {h}'], '256': ['SHA2-256({n})= {h}'], '384': ['SHA2-384({n})= {h}'],
    '512': ['SHA2-512({n})= {h}'], '512224': ['SHA2-512/224({n})= {h}', 'SHA512t224 ({n}) = {h}'],
    '512256': ['SHA2-512/256({n})= {h}', 'SHA512t256 ({n}) = {h}'],
}


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    shasta = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix='shasta-sum-') as work:
        files = {'empty': b'', 'abc': b'abc', 'block': bytes(range(256)) * 4 + b'x', 'spaced name': b'hi\n'}
        for name, data in files.items():
            with open(os.path.join(work, name), 'wb') as f:
                f.write(data)
        names = list(files)

        def run(*args, stdin=None):
            p = subprocess.run([shasta, 'sum', *args], cwd=work, input=stdin, capture_output=True,
                               env={**os.environ, 'LC_ALL': 'C'})
            return p.stdout, p.stderr, p.returncode

        for value, aliases, py, tag in ALGOS:
            want = {n: hashlib.new(py, d).hexdigest() for n, d in files.items()}
            plain = b''.join(f'{want[n]}  {n}\n'.encode() for n in names)
            tagged = b''.join(f'{tag} ({n}) = {want[n]}\n'.encode() for n in names)
            for name in [value, *aliases]:
                out = run('-a', name, *names)
                case(f'-a {name}', out == (plain, b'', 0), repr(out)[:300])
                out = run('-a', name, '--tag', *names)
                case(f'-a {name} --tag', out == (tagged, b'', 0), repr(out)[:300])
            for label, listing in (('untagged', plain), ('tagged', tagged)):
                ok_lines = b''.join(f'{n}: OK\n'.encode() for n in names)
                out = run('-a', value, '-c', '-', stdin=listing)
                case(f'-a {value} -c {label}', out == (ok_lines, b'', 0), repr(out)[:300])
                with open(os.path.join(work, 'list'), 'wb') as f:
                    f.write(listing)
                out = run('-a', value, '--check', '--strict', 'list')
                case(f'-a {value} --check --strict {label} file', out == (ok_lines, b'', 0), repr(out)[:300])
                # A file changed since: FAILED and the warning, exit 1.
                with open(os.path.join(work, 'abc'), 'wb') as f:
                    f.write(b'abd')
                out = run('-a', value, '-c', 'list')
                failed = ok_lines.replace(b'abc: OK', b'abc: FAILED')
                case(f'-a {value} -c {label}, one file changed',
                     out == (failed, b'shasta sum: WARNING: 1 computed checksum did NOT match\n', 1), repr(out)[:300])
                with open(os.path.join(work, 'abc'), 'wb') as f:
                    f.write(files['abc'])
            ok_lines = b''.join(f'{n}: OK\n'.encode() for n in names)
            for form in FOREIGN[value]:
                listing = b''.join((form.format(n=n, h=want[n]) + '\n').encode() for n in names)
                out = run('-a', value, '-c', '--strict', '-', stdin=listing)
                case(f'-a {value} -c {form}', out == (ok_lines, b'', 0), repr(out)[:300])
            # Another algorithm's tagged list has no line for this one.
            other_value, _, other_py, other_tag = ALGOS[(ALGOS.index((value, aliases, py, tag)) + 1) % len(ALGOS)]
            other = f'{other_tag} (abc) = {hashlib.new(other_py, b"abc").hexdigest()}\n'.encode()
            out = run('-a', value, '-c', '-', stdin=other)
            case(f'-a {value} -c a {other_tag} line', out[0] == b'' and out[2] == 1 and
                 b'no properly formatted checksum lines found' in out[1], repr(out)[:300])
        # SHA2-512/256 begins with SHA2-512: under -a 512 its line is improper, not SHA-512's.
        line = f'SHA2-512/256(abc)= {hashlib.new("sha512_256", b"abc").hexdigest()}\n'.encode()
        out = run('-a', '512', '-c', '-', stdin=line)
        case('-a 512 -c a SHA2-512/256 line', out[0] == b'' and out[2] == 1 and
             b'no properly formatted checksum lines found' in out[1], repr(out)[:300])
        # shasta hmac -c: OpenSSL's `openssl dgst -sha256 -hmac key` lines.
        tag = hmac.new(b'key', b'abc', 'sha256').hexdigest()
        p = subprocess.run([shasta, 'hmac', '--key-hex', '6b6579', '-c', '-'], cwd=work, capture_output=True,
                           input=f'HMAC-SHA2-256(abc)= {tag}\n'.encode())
        case('hmac -c HMAC-SHA2-256(NAME)= HEX', (p.stdout, p.stderr, p.returncode) == (b'abc: OK\n', b'', 0),
             repr((p.stdout, p.stderr, p.returncode))[:300])
        # As sha256sum, GNU's tool, it takes GNU's tag alone (GNU 9.1: no proper line).
        gnu = os.path.join(work, 'sha256sum')
        os.symlink(shasta, gnu)
        p = subprocess.run([gnu, '-c', '-'], cwd=work, capture_output=True,
                           input=f'SHA2-256(abc)= {hashlib.sha256(b"abc").hexdigest()}\n'.encode())
        case('sha256sum -c SHA2-256(NAME)= HEX is improper', p.returncode == 1 and p.stdout == b'' and
             b'no properly formatted checksum lines found' in p.stderr, repr((p.stdout, p.stderr, p.returncode)))
    return TALLY.finish()


if __name__ == '__main__':
    sys.exit(main())
