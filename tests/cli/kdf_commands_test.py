#!/usr/bin/env python3
"""Tests of shasta's keyed subcommands (hmac, hkdf, pbkdf2) against independent references.

    python3 tests/cli/kdf_commands_test.py PATH/TO/shasta [--seed N]

References:
  * RFC 4231 HMAC-SHA-224/256/384/512 test cases 1-4, 6, 7 from Debian's python3-cryptography-vectors
    (tests/vectors/pyca/HMAC/rfc-4231-sha*.txt; override the directory with SHASTA_PYCA_DIR), and case 5
    (truncation to 128 bits) typed in from RFC 4231 section 4.6;
  * RFC 5869 A.1-A.3 (KDF/rfc-5869-HKDF-SHA256.txt) and pyca's 1200-byte HKDF output (KDF/hkdf-generated.txt),
    and tests/vectors/hkdf-sha2-extra.txt;
  * the RFC 8448 TLS 1.3 key schedule (tests/vectors/rfc8448-keyschedule.txt) for --tls13-label, --prk-hex,
    --extract and HMAC (Finished verify_data, the PSK binder);
  * tests/vectors/pbkdf2-sha2.txt (rows marked slow=1 are left out);
  * GNU coreutils sha*sum (the line formats, name escaping, diagnostics and --check summaries of 'shasta hmac'
    must be GNU's, with the program name 'shasta hmac' and the tags HMAC-SHA256 ... HMAC-SHA512/256);
  * a seeded randomized differential against Python's hmac / hashlib.pbkdf2_hmac and an HKDF (and TLS 1.3
    HKDF-Expand-Label) written here from hmac, for all six algorithms and every way of passing keys,
    secrets, salts, infos and passwords;
  * refusals: exit status 1, a message on stderr, nothing on stdout.

Prints one line per failed case and a summary 'N cases, M failed'. Exit status 1 on any failure.
Standard library only (Python 3.11).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parent / 'vectors'
PYCA = Path(os.environ.get('SHASTA_PYCA_DIR', VECTORS / 'pyca'))  # copied from python3-cryptography-vectors


@dataclass(frozen=True)
class Alg:
    cli: str          # the -a value
    py: str           # hashlib name
    size: int         # HashLen (bytes)
    block: int        # block size (bytes)
    tag: str          # BSD tag after 'HMAC-'
    gnu: str          # the GNU tool whose line format (and digest, for the test's substitutions) stands in
    spellings: tuple  # accepted -a spellings


ALGS = {
    '224': Alg('224', 'sha224', 28, 64, 'SHA224', 'sha224sum', ('224', 'sha224', 'SHA-224')),
    '256': Alg('256', 'sha256', 32, 64, 'SHA256', 'sha256sum', ('256', 'sha256', 'SHA-256')),
    '384': Alg('384', 'sha384', 48, 128, 'SHA384', 'sha384sum', ('384', 'sha384', 'SHA-384')),
    '512': Alg('512', 'sha512', 64, 128, 'SHA512', 'sha512sum', ('512', 'sha512', 'SHA-512')),
    '512224': Alg('512224', 'sha512_224', 28, 128, 'SHA512/224', 'sha512sum', ('512224', 'sha512-224', 'sha512/224')),
    '512256': Alg('512256', 'sha512_256', 32, 128, 'SHA512/256', 'sha512sum', ('512256', 'sha512-256', 'sha512/256')),
}
BY_PY = {a.py: a for a in ALGS.values()}


# ------------------------------------------------------------------------------------------------
# References

def ref_hmac(alg: Alg, key: bytes, msg: bytes) -> bytes:
    return hmac.new(key, msg, alg.py).digest()


def ref_digest(alg: Alg, data: bytes) -> bytes:
    return hashlib.new(alg.py, data).digest()


def ref_extract(alg: Alg, salt: bytes, ikm: bytes) -> bytes:
    return ref_hmac(alg, salt if salt else bytes(alg.size), ikm)


def ref_expand(alg: Alg, prk: bytes, info: bytes, length: int) -> bytes:
    okm, t, i = b'', b'', 1
    while len(okm) < length:
        t = ref_hmac(alg, prk, t + info + bytes([i]))
        okm += t
        i += 1
    return okm[:length]


def ref_hkdf_label(label: bytes, context: bytes, length: int) -> bytes:
    full = b'tls13 ' + label
    return length.to_bytes(2, 'big') + bytes([len(full)]) + full + bytes([len(context)]) + context


def ref_pbkdf2(alg: Alg, password: bytes, salt: bytes, iterations: int, length: int) -> bytes:
    return hashlib.pbkdf2_hmac(alg.py, password, salt, iterations, length)


# ------------------------------------------------------------------------------------------------
# Running shasta and recording cases

SHASTA = ''
WORK = ''
BASE_ENV: dict[bytes, bytes] = {}


def run(args, stdin: bytes = b'', env: dict | None = None):
    p = subprocess.run([SHASTA, *args], input=stdin, capture_output=True, cwd=WORK,
                       env=env if env is not None else BASE_ENV, timeout=120)
    return p.returncode, p.stdout, p.stderr


def show_cmd(args, stdin: bytes = b'', env_note: str = '') -> str:
    words = ['shasta'] + [shlex.quote(os.fsdecode(a)) if isinstance(a, bytes) else shlex.quote(a) for a in args]
    s = ' '.join(words)
    if len(s) > 400:
        s = s[:400] + '...'
    if stdin:
        s += f'  <stdin {short(stdin)}>'
    if env_note:
        s = env_note + ' ' + s
    return s


def short(b: bytes, n: int = 160) -> str:
    r = repr(b)
    return r if len(r) <= n else r[:n] + f'...({len(b)} bytes)'


class Tally:
    def __init__(self):
        self.cases: Counter = Counter()
        self.failed: Counter = Counter()
        self.order: list[str] = []

    def case(self, area: str, name: str, ok: bool, detail: str = '') -> bool:
        if area not in self.cases:
            self.order.append(area)
        self.cases[area] += 1
        if not ok:
            self.failed[area] += 1
            print(f'FAIL [{area}] {name}: {detail}', flush=True)
        return ok


T = Tally()


def expect(area: str, name: str, args, want_out: bytes, stdin: bytes = b'', env=None, env_note: str = '',
           want_rc: int = 0, want_err: bytes | None = b'') -> bool:
    rc, out, err = run(args, stdin, env)
    problems = []
    if rc != want_rc:
        problems.append(f'exit {rc}, want {want_rc}')
    if out != want_out:
        problems.append(f'stdout {short(out)}, want {short(want_out)}')
    if want_err is not None and err != want_err:
        problems.append(f'stderr {short(err)}, want {short(want_err)}')
    return T.case(area, name, not problems, '; '.join(problems) + ' -- ' + show_cmd(args, stdin, env_note))


def expect_hex(area: str, name: str, args, want: bytes, stdin: bytes = b'', env=None, env_note: str = '') -> bool:
    return expect(area, name, args, want.hex().encode() + b'\n', stdin, env, env_note)


def expect_refusal(area: str, name: str, args, stdin: bytes = b'', env=None, env_note: str = '',
                   err_has: bytes | None = None) -> bool:
    rc, out, err = run(args, stdin, env)
    sub = args[0] if isinstance(args[0], str) else os.fsdecode(args[0])
    problems = []
    if rc != 1:
        problems.append(f'exit {rc}, want 1')
    if out:
        problems.append(f'stdout {short(out)}, want nothing')
    if not err.startswith(f'shasta {sub}: '.encode()) or len(err.strip()) <= len(f'shasta {sub}:'):
        problems.append(f'stderr {short(err)}, want a "shasta {sub}: ..." message')
    if err_has is not None and err_has not in err:
        problems.append(f'stderr {short(err)} lacks {err_has!r}')
    return T.case(area, name, not problems, '; '.join(problems) + ' -- ' + show_cmd(args, stdin, env_note))


def key_env(var: str, value: bytes) -> dict:
    env = dict(BASE_ENV)
    env[var.encode()] = value
    return env


def write(name: str, data: bytes) -> str:
    with open(os.path.join(WORK, name), 'wb') as f:
        f.write(data)
    return name


def hmac_line(alg: Alg, mac: bytes, name: str, tag: bool = False, binary: bool = False, zero: bool = False) -> bytes:
    end = b'\0' if zero else b'\n'
    if tag:
        return f'HMAC-{alg.tag} ({name}) = {mac.hex()}'.encode() + end
    return f'{mac.hex()} {"*" if binary else " "}{name}'.encode() + end


# ------------------------------------------------------------------------------------------------
# Vector files

def read_pyca_records(path: Path, last: str) -> list[dict[str, str]]:
    """Groups 'Name = value' lines into records that end with `last`."""
    records, cur = [], {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        if line.startswith('['):
            continue
        k, sep, v = line.partition('=')
        if not sep:
            raise ValueError(f'{path}: unexpected line {line!r}')
        cur[k.strip()] = v.strip()
        if k.strip() == last:
            records.append(cur)
            cur = {}
    return records


def read_kv_lines(path: Path) -> list[dict[str, str]]:
    rows = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith('#'):
            continue
        rows.append(dict(field.split('=', 1) for field in line.split()))
    return rows


def read_assignments(path: Path) -> dict[str, bytes]:
    values = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith('#'):
            continue
        name, _, value = line.partition('=')
        values[name.strip()] = bytes.fromhex(value.strip())
    return values


def need(area: str, path: Path) -> bool:
    return T.case(area, f'vector file {path}', path.is_file(), 'missing')


# ------------------------------------------------------------------------------------------------
# HMAC: RFC 4231

RFC4231_CASE5 = {  # RFC 4231 section 4.6: Key = 0x0c * 20, Data = "Test With Truncation", first 128 bits
    '224': '0e2aea68a90c8d37c988bcdb9fca6fa8',
    '256': 'a3b6167473100ee06e0c796c2955552b',
    '384': '3abf34c3503b2a23a46efc619baef897',
    '512': '415fad6271580a531d4179bc891d87a6',
}


def hex_key_args(key: bytes) -> list:
    """--key-hex KEY; an empty key (whose --key-hex value would be refused as empty) from an empty file,
    with --empty-key, which an empty key needs."""
    return ['--key-hex', key.hex()] if key else ['--key-file', write('empty.key', b''), '--empty-key']


def key_args(how: str, key: bytes, tag: str) -> tuple[list, bytes, dict | None, str]:
    """Returns (args, stdin, env, env_note) passing `key` by `how`: hex, file, env or stdin."""
    empty = ['--empty-key'] if not key else []
    if how in ('hex', 'HEX') and not key:
        return hex_key_args(key), b'', None, ''
    if how == 'hex':
        return ['--key-hex', key.hex()], b'', None, ''
    if how == 'HEX':
        return ['--key-hex=' + key.hex().upper()], b'', None, ''
    if how == 'file':
        return ['--key-file', write(f'key-{tag}.bin', key), *empty], b'', None, ''
    if how == 'env':
        return ['--key-env', 'SHASTA_TEST_KEY', *empty], b'', key_env('SHASTA_TEST_KEY', key), \
            f'SHASTA_TEST_KEY={key!r}'
    if how == 'stdin':
        return ['--key-file', '-', *empty], key, None, ''
    raise ValueError(how)


def test_rfc4231() -> None:
    area = 'hmac-rfc4231'
    hows = ['hex', 'file', 'env', 'stdin', 'HEX']
    n = 0
    for bits in ('224', '256', '384', '512'):
        alg = ALGS[bits]
        path = PYCA / 'HMAC' / f'rfc-4231-sha{bits}.txt'
        if not need(area, path):
            continue
        records = read_pyca_records(path, 'MD')
        T.case(area, f'{path.name}: 6 records', len(records) == 6, f'{len(records)} records')
        for i, r in enumerate(records):
            key, msg, md = bytes.fromhex(r['Key']), bytes.fromhex(r['Msg']), r['MD']
            how = hows[n % len(hows)]
            n += 1
            if how == 'env' and 0 in key:
                how = 'hex'
            kargs, stdin, env, note = key_args(how, key, 'rfc4231')
            name = write(f'rfc4231-{bits}-{i}', msg)
            tag = i % 2 == 1
            want = (f'HMAC-{alg.tag} ({name}) = {md}\n' if tag else f'{md}  {name}\n').encode()
            expect(area, f'sha{bits} record {i} key by {how}', ['hmac', '-a', bits, *kargs, *(['--tag'] if tag else []),
                   name], want, stdin, env, note)
        # A key file's bytes are the key: a trailing newline is not stripped.
        name = write('rfc4231-nl', b'Hi There')
        expect(area, f'sha{bits} --key-file ending in a newline is used verbatim',
               ['hmac', '-a', bits, '--key-file', write('key-nl', b'Jefe\n'), name],
               hmac_line(alg, ref_hmac(alg, b'Jefe\n', b'Hi There'), name))
        # Case 5: the RFC prints the first 128 bits only.
        name = write('rfc4231-case5', b'Test With Truncation')
        rc, out, err = run(['hmac', '-a', bits, '--key-hex', '0c' * 20, name])
        m = re.fullmatch(rb'([0-9a-f]+)  rfc4231-case5\n', out)
        ok = rc == 0 and not err and m is not None and len(m.group(1)) == 2 * alg.size and \
            m.group(1)[:32] == RFC4231_CASE5[bits].encode()
        T.case(area, f'sha{bits} case 5 (truncated)', ok, f'exit {rc} stdout {short(out)} stderr {short(err)}; want '
               f'{RFC4231_CASE5[bits]}... -- ' + show_cmd(['hmac', '-a', bits, '--key-hex', '0c' * 20, name]))


# ------------------------------------------------------------------------------------------------
# HKDF: RFC 5869, pyca's long output, hkdf-sha2-extra.txt

def hkdf_full_args(alg: Alg, ikm: bytes, salt: bytes, info: bytes, length: int, salt_flag: bool = True) -> list:
    args = ['hkdf', '-a', alg.cli, '--ikm-hex', ikm.hex()]
    if salt or salt_flag:
        args += ['--salt-hex', salt.hex()]
    if info:
        args += ['--info-hex', info.hex()]
    return args + ['-l', str(length)]


def test_rfc5869() -> None:
    area = 'hkdf-rfc5869'
    path = PYCA / 'KDF' / 'rfc-5869-HKDF-SHA256.txt'
    alg = ALGS['256']
    if need(area, path):
        records = read_pyca_records(path, 'OKM')
        T.case(area, f'{path.name}: 3 records', len(records) == 3, f'{len(records)} records')
        for r in records:
            ikm, salt, info = (bytes.fromhex(r[k]) for k in ('IKM', 'salt', 'info'))
            prk, okm, length = bytes.fromhex(r['PRK']), bytes.fromhex(r['OKM']), int(r['L'])
            c = r['COUNT']
            expect_hex(area, f'A.{c} ikm/salt/info', hkdf_full_args(alg, ikm, salt, info, length, salt_flag=False), okm)
            expect_hex(area, f'A.{c} --salt-hex given', hkdf_full_args(alg, ikm, salt, info, length), okm)
            expect_hex(area, f'A.{c} --extract', ['hkdf', '--ikm-hex', ikm.hex(), '--salt-hex', salt.hex(), '--extract'],
                       prk)
            expect_hex(area, f'A.{c} --prk-hex', ['hkdf', '--prk-hex', prk.hex(), '--info-hex', info.hex(), '-l',
                                                  str(length)], okm)
            prk_file = write('rfc5869.prk', prk)
            expect_hex(area, f'A.{c} --prk-file', ['hkdf', '-a', 'sha256', '--prk-file', prk_file, '--info-hex',
                                                   info.hex(), f'--length={length}'], okm)
            expect_hex(area, f'A.{c} --ikm-file -', ['hkdf', '--ikm-file', '-', '--salt-hex', salt.hex(),
                                                     '--info-hex', info.hex(), '-l', str(length)], okm, stdin=ikm)
    path = PYCA / 'KDF' / 'hkdf-generated.txt'
    if need(area, path):
        generated = read_pyca_records(path, 'OKM')
        T.case(area, f'{path.name}: 1 record', len(generated) == 1, f'{len(generated)} records')
        for r in generated:
            ikm, okm, length = bytes.fromhex(r['IKM']), bytes.fromhex(r['OKM']), int(r['L'])
            ikm_file = write('generated.ikm', ikm)
            args = ['hkdf', '--ikm-file', ikm_file, '-l', str(length)]
            if r['salt']:
                args += ['--salt-hex', r['salt']]
            if r['info']:
                args += ['--info-hex', r['info']]
            expect_hex(area, f'hkdf-generated COUNT {r["COUNT"]} (L={length})', args, okm)

    area = 'hkdf-extra'
    path = VECTORS / 'hkdf-sha2-extra.txt'
    if need(area, path):
        rows = read_kv_lines(path)
        T.case(area, f'{path.name}: 44 rows', len(rows) == 44, f'{len(rows)} rows')
        for r in rows:
            alg = BY_PY[r['hash']]
            ikm, salt, info = (bytes.fromhex(r[k]) for k in ('IKM', 'salt', 'info'))
            prk, okm, length = bytes.fromhex(r['PRK']), bytes.fromhex(r['OKM']), int(r['L'])
            expect_hex(area, f'{r["id"]} {r["hash"]}', hkdf_full_args(alg, ikm, salt, info, length, bool(salt)), okm)
            expect_hex(area, f'{r["id"]} {r["hash"]} --extract',
                       ['hkdf', '-a', alg.cli, '--ikm-hex', ikm.hex(), '--salt-hex', salt.hex(), '--extract'], prk)


# ------------------------------------------------------------------------------------------------
# TLS 1.3 key schedule: RFC 8448

def test_rfc8448() -> None:
    area = 'tls13-rfc8448'
    path = VECTORS / 'rfc8448-keyschedule.txt'
    if not need(area, path):
        return
    v = read_assignments(path)
    T.case(area, f'{path.name}: 98 values', len(v) == 98, f'{len(v)} values')
    toggle = [0]

    def xl(name: str, secret: str, label: str, context: bytes, length: int) -> None:
        toggle[0] += 1
        if toggle[0] % 3 == 0:
            args = ['hkdf', '--prk-file', write('tls13.prk', v[secret])]
        else:
            args = ['hkdf', '--prk-hex', v[secret].hex()]
        if toggle[0] % 2 == 0:
            args += ['-a', '256']
        args += ['--tls13-label', label, '-l', str(length)]
        if context or toggle[0] % 4 == 1:
            args += ['--context-hex', context.hex()]
        expect_hex(area, f'{name} = Expand-Label({secret}, "{label}")', args, v[name])

    def extract(name: str, salt: str | None, ikm: bytes) -> None:
        args = ['hkdf', '--ikm-hex', ikm.hex(), '--extract']
        if salt is not None:
            args += ['--salt-hex', v[salt].hex()]
        expect_hex(area, f'{name} = Extract({salt}, ...)', args, v[name])

    def mac(name: str, key: str, msg: str) -> None:
        want = v[name].hex().encode() + b'  -\n'
        expect(area, f'{name} = HMAC({key}, {msg})', ['hmac', '-a', '256', '--key-hex', v[key].hex(), '-'], want,
               stdin=v[msg])

    def info(name: str, secret: str, info_name: str, length: int) -> None:
        expect_hex(area, f'{name} = Expand({secret}, {info_name})',
                   ['hkdf', '--prk-hex', v[secret].hex(), '--info-hex', v[info_name].hex(), '-l', str(length)], v[name])

    zeros = bytes(32)
    empty = v['s3.empty_hash']
    extract('s3.early_secret', None, v['s3.psk_ikm'])
    extract('s4.early_secret', None, v['s3.resumption_psk'])
    for s, server_th, client_th in (('s3.', 'th_ch_cv', 'th_ch_sf'), ('s4.', 'th_ch_ee', 'th_ch_eoed')):
        xl(s + 'derived_for_handshake', s + 'early_secret', 'derived', empty, 32)
        extract(s + 'handshake_secret', s + 'derived_for_handshake', v[s + 'ecdhe_shared_secret'])
        xl(s + 'client_handshake_traffic_secret', s + 'handshake_secret', 'c hs traffic', v[s + 'th_ch_sh'], 32)
        xl(s + 'server_handshake_traffic_secret', s + 'handshake_secret', 's hs traffic', v[s + 'th_ch_sh'], 32)
        xl(s + 'derived_for_master', s + 'handshake_secret', 'derived', empty, 32)
        extract(s + 'master_secret', s + 'derived_for_master', zeros)
        xl(s + 'client_application_traffic_secret_0', s + 'master_secret', 'c ap traffic', v[s + 'th_ch_sf'], 32)
        xl(s + 'server_application_traffic_secret_0', s + 'master_secret', 's ap traffic', v[s + 'th_ch_sf'], 32)
        xl(s + 'exporter_master_secret', s + 'master_secret', 'exp master', v[s + 'th_ch_sf'], 32)
        xl(s + 'resumption_master_secret', s + 'master_secret', 'res master', v[s + 'th_ch_cf'], 32)
        for who, secret in (('client_handshake', 'client_handshake_traffic_secret'),
                            ('server_handshake', 'server_handshake_traffic_secret'),
                            ('client_application', 'client_application_traffic_secret_0'),
                            ('server_application', 'server_application_traffic_secret_0')):
            xl(s + who + '_write_key', s + secret, 'key', b'', 16)
            xl(s + who + '_write_iv', s + secret, 'iv', b'', 12)
        for side, th in (('server', server_th), ('client', client_th)):
            # Finished: verify_data = HMAC(Expand-Label(hs traffic secret, "finished", "", 32), transcript hash)
            rc, out, err = run(['hkdf', '--prk-hex', v[s + side + '_handshake_traffic_secret'].hex(),
                                '--tls13-label', 'finished'])
            fk = out.strip().decode() if rc == 0 else '00'
            v[s + side + '_finished_key_cli'] = bytes.fromhex(fk)
            mac(s + side + '_finished_verify_data', s + side + '_finished_key_cli', s + th)
            T.case(area, f'{s}msg_{side}_finished body', v[s + 'msg_' + side + '_finished'][4:] ==
                   v[s + side + '_finished_verify_data'], 'the trace file is inconsistent')
    xl('s3.server_finished_key', 's3.server_handshake_traffic_secret', 'finished', b'', 32)
    xl('s3.client_finished_key', 's3.client_handshake_traffic_secret', 'finished', b'', 32)
    xl('s3.resumption_psk', 's3.resumption_master_secret', 'resumption', v['s3.ticket_nonce'], 32)
    info('s3.client_handshake_traffic_secret', 's3.handshake_secret', 's3.c_hs_traffic_info', 32)
    info('s3.server_handshake_traffic_secret', 's3.handshake_secret', 's3.s_hs_traffic_info', 32)
    info('s3.server_handshake_write_key', 's3.server_handshake_traffic_secret', 's3.key_info_16', 16)
    info('s3.server_handshake_write_iv', 's3.server_handshake_traffic_secret', 's3.iv_info_12', 12)
    info('s3.server_finished_key', 's3.server_handshake_traffic_secret', 's3.finished_info', 32)
    info('s3.client_application_traffic_secret_0', 's3.master_secret', 's3.c_ap_traffic_info', 32)
    info('s3.exporter_master_secret', 's3.master_secret', 's3.exp_master_info', 32)
    info('s3.resumption_master_secret', 's3.master_secret', 's3.res_master_info', 32)
    xl('s4.binder_key', 's4.early_secret', 'res binder', empty, 32)
    xl('s4.binder_finished_key', 's4.binder_key', 'finished', b'', 32)
    mac('s4.psk_binder', 's4.binder_finished_key', 's4.th_truncated_client_hello')
    xl('s4.client_early_traffic_secret', 's4.early_secret', 'c e traffic', v['s4.th_ch'], 32)
    xl('s4.early_exporter_master_secret', 's4.early_secret', 'e exp master', v['s4.th_ch'], 32)
    xl('s4.client_early_write_key', 's4.client_early_traffic_secret', 'key', b'', 16)
    xl('s4.client_early_write_iv', 's4.client_early_traffic_secret', 'iv', b'', 12)


# ------------------------------------------------------------------------------------------------
# PBKDF2: tests/vectors/pbkdf2-sha2.txt

def pbkdf2_salt_args(salt: bytes, how: str, tag: str) -> list:
    if how == 'text' and 0 not in salt:
        return ['--salt', salt]
    if how == 'file':
        return ['--salt-file', write(f'salt-{tag}.bin', salt)]
    return ['--salt-hex', salt.hex()]


def test_pbkdf2_vectors() -> None:
    area = 'pbkdf2-vectors'
    path = VECTORS / 'pbkdf2-sha2.txt'
    if not need(area, path):
        return
    rows = read_kv_lines(path)
    T.case(area, f'{path.name}: 52 rows', len(rows) == 52, f'{len(rows)} rows')
    for i, r in enumerate(rows):
        if r.get('slow') == '1':
            continue
        alg = BY_PY[r['hash']]
        pw, salt, dk = bytes.fromhex(r['P']), bytes.fromhex(r['S']), bytes.fromhex(r['DK'])
        args = ['pbkdf2', '-a', alg.cli, '-i', r['c'], *pbkdf2_salt_args(salt, ('hex', 'text', 'file')[i % 3], 'v'),
                '-l', r['dklen']]
        ends_nl = pw.endswith(b'\n')
        mode = i % 4
        if mode == 0:    # stdin, exact bytes
            stdin = pw
            extra = ['--keep-newline'] if ends_nl else []
        elif mode == 1:  # stdin plus a newline that the CLI strips
            stdin, extra = (pw + b'\n', []) if not pw.endswith(b'\r') else (pw, ['--keep-newline'])
        elif mode == 2:  # --password-file, plus CRLF that the CLI strips
            stdin, extra = b'', ['--password-file', write('pw-v', pw + b'\r\n')]
        else:            # --password-file with --keep-newline
            stdin, extra = b'', ['--password-file', write('pw-v', pw), '--keep-newline']
        if not pw:
            extra.append('--empty-password')
        expect_hex(area, f'{r["id"]} {r["hash"]} c={r["c"]}', args + extra, dk, stdin=stdin)


# ------------------------------------------------------------------------------------------------
# HMAC line formats and diagnostics against GNU sha*sum

FORMAT_NAMES = {
    'a.txt': b'abc',
    'new\nline': b'newline file',
    'back\\slash': b'backslash file',
    'cr\rret': b'carriage return',
    ' lead': b'leading space',
    '*star': b'star',
    'tab\tb': b'tab',
    'x\udcffy': b'invalid utf-8',   # os.fsencode -> b'x\xffy'
    'empty': b'',
    'blocky': bytes(range(256)) * 9,
}


def gnu_tool(alg: Alg) -> str | None:
    return shutil.which(alg.gnu, path='/usr/bin:/bin') or shutil.which(alg.gnu)


def gnu_equivalent(alg: Alg, gnu_out: bytes, key: bytes, contents: dict[bytes, bytes]) -> bytes:
    """Turns a GNU sha*sum output into what 'shasta hmac' must print: digests -> HMACs, tags, program name."""
    galg = ALGS[{'sha224sum': '224', 'sha256sum': '256', 'sha384sum': '384', 'sha512sum': '512'}[alg.gnu]]
    for data in contents.values():
        gnu_out = gnu_out.replace(ref_digest(galg, data).hex().encode(), ref_hmac(alg, key, data).hex().encode())
    gnu_out = gnu_out.replace(f'{galg.tag} ('.encode(), f'HMAC-{alg.tag} ('.encode())
    gnu_out = gnu_out.replace(f'improperly formatted {galg.tag} checksum line'.encode(),
                              f'improperly formatted HMAC-{alg.tag} checksum line'.encode())
    return gnu_out.replace(alg.gnu.encode() + b': ', b'shasta hmac: ')


def test_hmac_format(rng: random.Random) -> None:
    area = 'hmac-format'
    names = []
    contents: dict[bytes, bytes] = {}
    for name, data in FORMAT_NAMES.items():
        b = os.fsencode(name)
        with open(os.path.join(WORK, os.fsdecode(b)), 'wb') as f:
            f.write(data)
        names.append(b)
        contents[b] = data
    stdin_data = b'standard input data'
    contents[b'-'] = stdin_data
    operands = names[:5] + [b'-', b'missing file'] + names[5:] + [b'nope']
    option_sets = [[], ['-b'], ['--tag'], ['-z'], ['-z', '--tag'], ['-t'], ['-b', '-z']]
    key = bytes(rng.randrange(256) for _ in range(rng.choice([0, 20, 64, 200])))
    for alg in ALGS.values():
        gnu = gnu_tool(alg)
        if gnu is None:
            print(f'note: {alg.gnu} not found: hmac-format cases for -a {alg.cli} left out')
            continue
        for opts in option_sets:
            for jobs in ([], ['-j2']):
                g = subprocess.run([alg.gnu, *opts, *operands], executable=gnu, input=stdin_data, capture_output=True,
                                   cwd=WORK, env=BASE_ENV)
                want_out = gnu_equivalent(alg, g.stdout, key, contents)
                want_err = gnu_equivalent(alg, g.stderr, key, contents)
                expect(area, f'-a {alg.cli} {" ".join(opts + jobs)} (GNU {alg.gnu} shape)',
                       ['hmac', '-a', alg.cli, *hex_key_args(key), *jobs, *opts, *operands], want_out,
                       stdin=stdin_data, want_rc=g.returncode, want_err=want_err)
    # The missing-file diagnostic, spelled out once without GNU.
    alg = ALGS['256']
    want = hmac_line(alg, ref_hmac(alg, key, b'abc'), 'a.txt') + hmac_line(alg, ref_hmac(alg, key, b''), 'empty')
    for jobs in ([], ['-j2']):
        expect(area, f'missing FILE between two files {" ".join(jobs)}',
               ['hmac', *jobs, *hex_key_args(key), 'a.txt', 'missing', 'empty'], want, want_rc=1,
               want_err=b'shasta hmac: missing: No such file or directory\n')


# ------------------------------------------------------------------------------------------------
# HMAC --check: round trips, tampering, and GNU's summaries

def test_hmac_check(rng: random.Random) -> None:
    area = 'hmac-check'
    files = {f'chk{i}': bytes(rng.randrange(256) for _ in range(n))
             for i, n in enumerate([0, 1, 64, 65, 128, 129, 1000, 70000])}
    for name, data in files.items():
        write(name, data)
    names = list(files)
    for alg in ALGS.values():
        key = bytes(rng.randrange(256) for _ in range(rng.choice([0, 13, alg.block, alg.block + 1, 300])))
        kh = hex_key_args(key)
        for tag in (False, True):
            lines = b''.join(hmac_line(alg, ref_hmac(alg, key, files[n]), n, tag=tag) for n in names)
            gen = ['hmac', '-a', alg.cli, *kh, *(['--tag'] if tag else []), *names]
            if not expect(area, f'-a {alg.cli} {"--tag" if tag else "untagged"} generate', gen, lines):
                continue
            sumfile = write(f'chk-{alg.cli}-{int(tag)}.sum', lines)
            ok_all = b''.join(f'{n}: OK\n'.encode() for n in names)
            for jobs in ([], ['-j2']):
                expect(area, f'-a {alg.cli} {"--tag" if tag else "untagged"} -c round trip {" ".join(jobs)}',
                       ['hmac', '-a', alg.cli, *kh, *jobs, '-c', sumfile], ok_all)
            # The same check file on stdin, keyed by a file.
            expect(area, f'-a {alg.cli} {"--tag" if tag else "untagged"} -c from stdin, --key-file',
                   ['hmac', '-a', alg.cli, '--key-file', write('chk.key', key), *(['--empty-key'] if not key else []),
                    '--check'], ok_all, stdin=lines)
            # One tampered line -> FAILED, GNU's warning, exit 1.
            k = rng.randrange(len(names))
            mac = ref_hmac(alg, key, files[names[k]]).hex()
            bad = mac[:-1] + ('0' if mac[-1] != '0' else '1')
            split = lines.split(b'\n')
            split[k] = split[k].replace(mac.encode(), bad.encode())
            tampered = write(f'chk-{alg.cli}-{int(tag)}-bad.sum', b'\n'.join(split))
            want = b''.join(f'{n}: {"FAILED" if i == k else "OK"}\n'.encode() for i, n in enumerate(names))
            expect(area, f'-a {alg.cli} {"--tag" if tag else "untagged"} -c tampered line {k + 1}',
                   ['hmac', '-a', alg.cli, *kh, '-c', tampered], want, want_rc=1,
                   want_err=b'shasta hmac: WARNING: 1 computed checksum did NOT match\n')
            # A different key (not key + zero bytes: HMAC pads short keys with zeros): every line fails.
            other = bytes([key[0] ^ 1]) + key[1:] if key else b'\x01'
            want = b''.join(f'{n}: FAILED\n'.encode() for n in names)
            expect(area, f'-a {alg.cli} {"--tag" if tag else "untagged"} -c with another key',
                   ['hmac', '-a', alg.cli, '--key-hex', other.hex(), '-c', sumfile], want, want_rc=1,
                   want_err=f'shasta hmac: WARNING: {len(names)} computed checksums did NOT match\n'.encode())

    # A messy check file, compared with GNU's handling of the same file (digests swapped for HMACs).
    extra = {'a.txt': b'abc', 'new\nline': b'newline file', 'back\\slash': b'backslash file'}
    for name, data in extra.items():
        write(name, data)
    allfiles = {**files, **extra}
    for alg in (ALGS['256'], ALGS['384'], ALGS['512256']):
        gnu = gnu_tool(alg)
        if gnu is None:
            continue
        galg = ALGS[alg.gnu[3:6]]
        key = b'check key'
        digests = {n: ref_digest(galg, d).hex() for n, d in allfiles.items()}
        macs = {n: ref_hmac(alg, key, d).hex() for n, d in allfiles.items()}

        def build(table: dict[str, str], tagword: str) -> bytes:
            def esc(n: str) -> tuple[str, str]:
                if '\\' in n or '\n' in n:
                    return '\\', n.replace('\\', '\\\\').replace('\n', '\\n')
                return '', n
            out = ['# a comment', '']
            for i, n in enumerate(allfiles):
                p, en = esc(n)
                h = table[n]
                if i == 2:  # mismatch
                    h = h[:-1] + ('0' if h[-1] != '0' else '1')
                if i % 2:
                    out.append(f'{p}{tagword} ({en}) = {h}')
                else:
                    out.append(f'{p}{h}  {en}')
            out.append(f'{table["a.txt"]}  missing-one')
            out.append('this line is garbage')
            out.append(f'{tagword} (a.txt) = {table["a.txt"][:-2]}')  # wrong length
            out.append(f'{table["chk1"]} *chk1\r')                    # CRLF
            return ('\n'.join(out) + '\n').encode()

        gnu_sum = build(digests, galg.tag)
        hmac_sum = build(macs, 'HMAC-' + alg.tag)
        write('gnu-mixed.sum', gnu_sum)
        write('hmac-mixed.sum', hmac_sum)
        for opts in ([], ['--quiet'], ['--status'], ['--strict'], ['-w'], ['--ignore-missing'], ['--status', '--strict'],
                     ['--quiet', '-w', '--ignore-missing']):
            g = subprocess.run([alg.gnu, '-c', *opts, 'gnu-mixed.sum'], executable=gnu, capture_output=True, cwd=WORK,
                               env=BASE_ENV)
            want_out = g.stdout
            want_err = g.stderr.replace(alg.gnu.encode() + b': ', b'shasta hmac: ').replace(
                b'gnu-mixed.sum', b'hmac-mixed.sum').replace(
                f'formatted {galg.tag} checksum'.encode(), f'formatted HMAC-{alg.tag} checksum'.encode())
            for jobs in ([], ['-j2']):
                expect(area, f'-a {alg.cli} -c mixed file {" ".join(opts + jobs)} (GNU {alg.gnu} -c)',
                       ['hmac', '-a', alg.cli, '--key-env', 'K', *jobs, '-c', *opts, 'hmac-mixed.sum'], want_out,
                       env=key_env('K', key), env_note='K="check key"', want_rc=g.returncode, want_err=want_err)
    # A check file with no valid line.
    write('nothing.sum', b'# nothing\n\n')
    expect(area, '-c with no properly formatted line', ['hmac', '--key-hex', '00', '-c', 'nothing.sum'], b'', want_rc=1,
           want_err=b'shasta hmac: nothing.sum: no properly formatted checksum lines found\n')


# ------------------------------------------------------------------------------------------------
# Randomized differential

def rand_bytes(rng: random.Random, n: int, no_nul: bool = False) -> bytes:
    lo = 1 if no_nul else 0
    return bytes(rng.randrange(lo, 256) for _ in range(n))


def rand_len(rng: random.Random, alg: Alg, top: int = 400) -> int:
    return rng.choice([0, 0, 1, 2, alg.size - 1, alg.size, alg.size + 1, alg.block - 1, alg.block, alg.block + 1,
                       2 * alg.block + 7, rng.randrange(top)])


def test_hmac_random(rng: random.Random, cases: int) -> None:
    area = 'hmac-random'
    sizes = [0, 1, 3, 55, 56, 63, 64, 65, 111, 112, 119, 127, 128, 129, 200, 1000, 4096, 65537, (1 << 20) + 3]
    data = {}
    for i, n in enumerate(sizes):
        data[f'r{i:02d}.bin'] = rand_bytes(rng, n)
        write(f'r{i:02d}.bin', data[f'r{i:02d}.bin'])
    for c in range(cases):
        alg = rng.choice(list(ALGS.values()))
        how = ('hex', 'HEX', 'file', 'env', 'stdin')[c % 5]
        key = rand_bytes(rng, rand_len(rng, alg, 300), no_nul=how == 'env')
        kargs, stdin, env, note = key_args(how, key, 'rand')
        files = rng.sample(list(data), rng.randrange(1, 6))
        msgs = {f: data[f] for f in files}
        if how != 'stdin' and rng.random() < 0.3:  # a '-' operand: the message on standard input
            stdin = rand_bytes(rng, rng.choice([0, 5, 128, 3000]))
            files.insert(rng.randrange(len(files) + 1), '-')
            msgs['-'] = stdin
        tag = rng.random() < 0.3
        binary = not tag and rng.random() < 0.3
        zero = rng.random() < 0.2
        jobs = rng.choice([[], [], ['-j1'], ['-j2'], ['--jobs=2'], ['-j3']])
        spelling = rng.choice(alg.spellings)
        opts = (['--tag'] if tag else []) + (['-b'] if binary else []) + (['-z'] if zero else [])
        algo = [] if alg.cli == '256' and rng.random() < 0.5 else ['-a', spelling]  # default: 256
        args = ['hmac', *algo, *kargs, *jobs, *opts, *files]
        want = b''.join(hmac_line(alg, ref_hmac(alg, key, msgs[f]), f, tag, binary, zero) for f in files)
        expect(area, f'#{c} -a {spelling} key {len(key)} bytes by {how}, {len(files)} files', args, want, stdin, env,
               note)


def test_hkdf_random(rng: random.Random, cases: int) -> None:
    area = 'hkdf-random'
    for c in range(cases):
        alg = rng.choice(list(ALGS.values()))
        args = ['hkdf'] + (['-a', rng.choice(alg.spellings)] if alg.cli != '256' or rng.random() < 0.5 else [])
        stdin = b''
        use_prk = rng.random() < 0.25
        if use_prk:
            secret = rand_bytes(rng, rng.choice([alg.size, alg.size + 1, alg.block, alg.block + 9, 200]))
            prk = secret
            how = rng.choice(['hex', 'file'])
            args += ['--prk-hex', secret.hex()] if how == 'hex' else ['--prk-file', write('rand.prk', secret)]
            salt_desc = 'none'
        else:
            secret = rand_bytes(rng, rand_len(rng, alg))
            how = rng.choice(['hex', 'file', 'stdin'])
            if not secret:  # an empty IKM needs --empty-ikm, and an empty --ikm-hex value is refused
                how = rng.choice(['file', 'stdin'])
                args.append('--empty-ikm')
            if how == 'hex':
                args += ['--ikm-hex', secret.hex()]
            elif how == 'file':
                args += ['--ikm-file', write('rand.ikm', secret)]
            else:
                args += ['--ikm-file', '-']
                stdin = secret
            salt_how = rng.choice(['none', 'hex', 'hex', 'text'])
            salt = b''
            if salt_how == 'hex':
                salt = rand_bytes(rng, rand_len(rng, alg, 300))
                args += ['--salt-hex', salt.hex()]
            elif salt_how == 'text':
                salt = rand_bytes(rng, rand_len(rng, alg, 300), no_nul=True)
                args += ['--salt', salt]
            salt_desc = f'{salt_how} {len(salt)}'
            prk = ref_extract(alg, salt, secret)
        if not use_prk and rng.random() < 0.15:
            args.append('--extract')
            expect_hex(area, f'#{c} {alg.py} extract ikm {len(secret)} by {how}, salt {salt_desc}', args, prk, stdin)
            continue
        tls = rng.random() < 0.25
        if tls:
            # An empty label is refused (secret_handling_test.py checks that).
            label = rand_bytes(rng, rng.choice([1, 5, 20, 249]), no_nul=True)
            context = rand_bytes(rng, rng.choice([0, 1, alg.size, 255]))
            args += ['--tls13-label', label]
            if context or rng.random() < 0.5:
                args += ['--context-hex', context.hex()]
            info_desc = f'tls13 label {len(label)} context {len(context)}'
        else:
            info_how = rng.choice(['none', 'hex', 'hex', 'text'])
            info = b''
            if info_how == 'hex':
                info = rand_bytes(rng, rand_len(rng, alg, 300))
                args += ['--info-hex', info.hex()]
            elif info_how == 'text':
                info = rand_bytes(rng, rand_len(rng, alg, 300), no_nul=True)
                args += [b'--info=' + info]
            info_desc = f'info {info_how} {len(info)}'
        top = 255 * alg.size
        length = rng.choice([None, 1, alg.size - 1, alg.size + 1, 2 * alg.size, top, top - 1, rng.randrange(1, top + 1),
                             rng.randrange(1, 300)])
        if length is not None:
            args += rng.choice([['-l', str(length)], [f'--length={length}']])
        n = alg.size if length is None else length
        if tls:
            info = ref_hkdf_label(label, context, n)
        want = ref_expand(alg, prk, info, n)
        expect_hex(area, f'#{c} {alg.py} {"prk" if use_prk else "ikm"} {len(secret)} by {how}, salt {salt_desc}, '
                   f'{info_desc}, L={length}', args, want, stdin)
    # The largest output, and one byte more, for every algorithm.
    for alg in ALGS.values():
        ikm = rand_bytes(rng, 22)
        top = 255 * alg.size
        expect_hex(area, f'{alg.py} L = 255*HashLen = {top}', ['hkdf', '-a', alg.cli, '--ikm-hex', ikm.hex(), '-l',
                   str(top)], ref_expand(alg, ref_extract(alg, b'', ikm), b'', top))


def test_pbkdf2_random(rng: random.Random, cases: int) -> None:
    area = 'pbkdf2-random'
    for c in range(cases):
        alg = rng.choice(list(ALGS.values()))
        pw = rand_bytes(rng, rand_len(rng, alg, 300))
        ending = rng.choice([b'', b'', b'\n', b'\r\n', b'\n\n', b'\r', b'\r\n\n'])
        raw = pw + ending
        keep = rng.random() < 0.3
        if keep:
            password = raw
        elif raw.endswith(b'\r\n'):
            password = raw[:-2]
        elif raw.endswith(b'\n'):
            password = raw[:-1]
        else:
            password = raw
        salt = rand_bytes(rng, rand_len(rng, alg, 300))
        salt_how = rng.choice(['hex', 'text', 'file'])
        iterations = rng.choice([1, 1, 2, 3, rng.randrange(1, 300), rng.randrange(1, 3000)])
        length = rng.choice([None, 1, alg.size - 1, alg.size, alg.size + 1, 3 * alg.size + 5, rng.randrange(1, 600)])
        args = ['pbkdf2'] + ([] if alg.cli == '256' and rng.random() < 0.5 else ['-a', rng.choice(alg.spellings)])
        args += rng.choice([['-i', str(iterations)], [f'--iterations={iterations}']])
        args += pbkdf2_salt_args(salt, salt_how, 'rand')
        if length is not None:
            args += ['-l', str(length)]
        if keep:
            args.append('--keep-newline')
        how = rng.choice(['stdin', 'file', 'file-dash'])
        stdin = b''
        if how == 'stdin':
            stdin = raw
        elif how == 'file':
            args += ['--password-file', write('rand.pw', raw)]
        else:
            args += ['--password-file', '-']
            stdin = raw
        if 0 in salt and salt_how == 'text':
            salt_how = 'hex'
        if not password:
            args.append('--empty-password')
        want = ref_pbkdf2(alg, password, salt, iterations, alg.size if length is None else length)
        expect_hex(area, f'#{c} {alg.py} pw {len(raw)} ({ending!r} keep={keep}) by {how}, salt {len(salt)} by '
                   f'{salt_how}, c={iterations}, L={length}', args, want, stdin)


# ------------------------------------------------------------------------------------------------
# Refusals: exit 1, a message on stderr, nothing on stdout

def test_refusals() -> None:
    area = 'refusals'
    write('msg', b'message')
    write('ikm', b'ikm bytes')
    prk32 = '11' * 32
    # HKDF
    for alg in ALGS.values():
        top = 255 * alg.size
        expect_refusal(area, f'hkdf -a {alg.cli} -l 255*HashLen+1', ['hkdf', '-a', alg.cli, '--ikm-hex', '00', '-l',
                       str(top + 1)])
        expect_refusal(area, f'hkdf -a {alg.cli} --prk-hex -l 255*HashLen+1',
                       ['hkdf', '-a', alg.cli, '--prk-hex', '22' * alg.size, '-l', str(top + 1)])
        expect_refusal(area, f'hkdf -a {alg.cli} --tls13-label -l 255*HashLen+1',
                       ['hkdf', '-a', alg.cli, '--ikm-hex', '00', '--tls13-label', 'x', '-l', str(top + 1)])
    for args in (['-l', '0'], ['--length=0'], ['-l', '-1'], ['-l', ''], ['-l', 'x'], ['-l', '99999999999999999999999']):
        expect_refusal(area, f'hkdf {" ".join(args)}', ['hkdf', '--ikm-hex', '00', *args])
    for opt, extra in (('--ikm-hex', []), ('--salt-hex', ['--ikm-hex', '00']), ('--info-hex', ['--ikm-hex', '00']),
                       ('--prk-hex', []), ('--context-hex', ['--ikm-hex', '00', '--tls13-label', 'x'])):
        for bad in ('0', 'abc', 'zz', '0g', 'g0' * 40, '00 11', '0x00'):
            expect_refusal(area, f'hkdf {opt} {bad!r}', ['hkdf', *extra, opt, bad])
    expect_refusal(area, 'hkdf no secret', ['hkdf', '--salt-hex', '00'])
    expect_refusal(area, 'hkdf --ikm-hex and --prk-hex', ['hkdf', '--ikm-hex', '00', '--prk-hex', prk32])
    expect_refusal(area, 'hkdf --ikm-hex and --ikm-file', ['hkdf', '--ikm-hex', '00', '--ikm-file', 'ikm'])
    expect_refusal(area, 'hkdf --ikm-file and --prk-file', ['hkdf', '--ikm-file', 'ikm', '--prk-file', 'ikm'])
    expect_refusal(area, 'hkdf --salt and --salt-hex', ['hkdf', '--ikm-hex', '00', '--salt', 's', '--salt-hex', '00'])
    expect_refusal(area, 'hkdf --info and --info-hex', ['hkdf', '--ikm-hex', '00', '--info', 's', '--info-hex', '00'])
    expect_refusal(area, 'hkdf --prk-hex with --salt', ['hkdf', '--prk-hex', prk32, '--salt', 'salt'])
    expect_refusal(area, 'hkdf --prk-hex with --salt-hex', ['hkdf', '--prk-hex', prk32, '--salt-hex', '00'])
    expect_refusal(area, 'hkdf --prk-file with --salt', ['hkdf', '--prk-file', write('p32', bytes(32)), '--salt', 'x'])
    expect_refusal(area, 'hkdf --prk-hex with --extract', ['hkdf', '--prk-hex', prk32, '--extract'])
    expect_refusal(area, 'hkdf --context-hex without --tls13-label', ['hkdf', '--ikm-hex', '00', '--context-hex', '00'])
    expect_refusal(area, 'hkdf --context-hex (empty) without --tls13-label',
                   ['hkdf', '--ikm-hex', '00', '--context-hex', ''])
    expect_refusal(area, 'hkdf --prk-hex --context-hex without --tls13-label',
                   ['hkdf', '--prk-hex', prk32, '--context-hex', '0011'])
    expect_refusal(area, 'hkdf --tls13-label with --info-hex',
                   ['hkdf', '--ikm-hex', '00', '--tls13-label', 'x', '--info-hex', '00'])
    expect_refusal(area, 'hkdf --tls13-label of 250 bytes', ['hkdf', '--ikm-hex', '00', '--tls13-label', 'a' * 250])
    expect_refusal(area, 'hkdf --context-hex of 256 bytes',
                   ['hkdf', '--ikm-hex', '00', '--tls13-label', 'a', '--context-hex', '00' * 256])
    expect_refusal(area, 'hkdf --prk-hex shorter than HashLen', ['hkdf', '--prk-hex', '11' * 31])
    expect_refusal(area, 'hkdf -a 512 --prk-hex shorter than HashLen', ['hkdf', '-a', '512', '--prk-hex', '11' * 63])
    expect_refusal(area, 'hkdf --ikm-file missing', ['hkdf', '--ikm-file', 'no-such-ikm'],
                   err_has=b'no-such-ikm: No such file or directory')
    expect_refusal(area, 'hkdf -a 1', ['hkdf', '-a', '1', '--ikm-hex', '00'])
    expect_refusal(area, 'hkdf -a sha1', ['hkdf', '-a', 'sha1', '--ikm-hex', '00'])
    expect_refusal(area, 'hkdf operand', ['hkdf', '--ikm-hex', '00', 'extra'])
    expect_refusal(area, 'hkdf --bogus', ['hkdf', '--ikm-hex', '00', '--bogus'])
    # HMAC
    expect_refusal(area, 'hmac no key', ['hmac', 'msg'])
    expect_refusal(area, 'hmac no key, -c', ['hmac', '-c', 'msg'])
    env = key_env('K', b'k')
    expect_refusal(area, 'hmac --key-hex and --key-file', ['hmac', '--key-hex', '00', '--key-file', 'msg', 'msg'])
    expect_refusal(area, 'hmac --key-hex and --key-env', ['hmac', '--key-hex', '00', '--key-env', 'K', 'msg'], env=env)
    expect_refusal(area, 'hmac --key-file and --key-env', ['hmac', '--key-file', 'msg', '--key-env', 'K', 'msg'], env=env)
    expect_refusal(area, 'hmac --key-hex twice', ['hmac', '--key-hex', '00', '--key-hex', '00', 'msg'])
    for bad in ('0', 'abc', 'zz', '0g', 'g0', ' 00', '0x00'):
        expect_refusal(area, f'hmac --key-hex {bad!r}', ['hmac', '--key-hex', bad, 'msg'])
    # An empty option value is refused, never read as another source or as the empty key (bug: '--key-file ""'
    # fell through to an empty --key-hex and signed with the empty key, and '-c' said OK to tags forged with it).
    write('empty-key', b'')
    forged = write('forged.sum', hmac_line(ALGS['256'], ref_hmac(ALGS['256'], b'', b'message'), 'msg'))
    env_empty = key_env('EMPTY_KEY', b'')
    for args in (['--key-file', ''], ['--key-file='], ['--key-env', ''], ['--key-env='], ['--key-hex', ''],
                 ['--key-hex=']):
        for extra in ([], ['--empty-key']):
            expect_refusal(area, f'hmac {" ".join(args + extra)!r} (an empty option value)',
                           ['hmac', *args, *extra, 'msg'])
            expect_refusal(area, f'hmac {" ".join(args + extra)!r} -c of a tag made with the empty key',
                           ['hmac', *args, *extra, '-c', forged])
    # An empty key from a file or a set-but-empty variable: refused unless --empty-key says it is meant.
    expect_refusal(area, 'hmac --key-file of an empty file', ['hmac', '--key-file', 'empty-key', 'msg'],
                   err_has=b'empty')
    expect_refusal(area, 'hmac --key-file of an empty file, -c', ['hmac', '--key-file', 'empty-key', '-c', forged])
    expect_refusal(area, 'hmac --key-env of an empty variable', ['hmac', '--key-env', 'EMPTY_KEY', 'msg'],
                   env=env_empty, env_note='EMPTY_KEY=')
    expect_refusal(area, 'hmac --key-file - with empty stdin', ['hmac', '--key-file', '-', 'msg'], stdin=b'')
    expect(area, 'hmac --key-file of an empty file with --empty-key',
           ['hmac', '--key-file', 'empty-key', '--empty-key', 'msg'],
           hmac_line(ALGS['256'], ref_hmac(ALGS['256'], b'', b'message'), 'msg'))
    expect(area, 'hmac --key-env of an empty variable with --empty-key, -c',
           ['hmac', '--key-env', 'EMPTY_KEY', '--empty-key', '-c', forged], b'msg: OK\n', env=env_empty,
           env_note='EMPTY_KEY=')
    unset = dict(BASE_ENV)
    unset.pop(b'SHASTA_UNSET_KEY', None)
    expect_refusal(area, 'hmac --key-env of an unset variable', ['hmac', '--key-env', 'SHASTA_UNSET_KEY', 'msg'],
                   env=unset)
    expect_refusal(area, 'hmac --key-file missing', ['hmac', '--key-file', 'no-such-key', 'msg'],
                   err_has=b'no-such-key: No such file or directory')
    expect_refusal(area, 'hmac --key-file - with no FILE (stdin twice)', ['hmac', '--key-file', '-'], stdin=b'k')
    expect_refusal(area, 'hmac --key-file - with FILE -', ['hmac', '--key-file', '-', 'msg', '-'], stdin=b'k')
    expect_refusal(area, 'hmac --key-file - with -c and no FILE', ['hmac', '--key-file', '-', '-c'], stdin=b'k')
    os.makedirs(os.path.join(WORK, 'adir'), exist_ok=True)
    expect_refusal(area, 'hmac --key-file DIRECTORY', ['hmac', '--key-file', 'adir', 'msg'], err_has=b'adir: Is a directory')
    expect_refusal(area, 'hkdf --ikm-file DIRECTORY', ['hkdf', '--ikm-file', 'adir'], err_has=b'adir: Is a directory')
    # An empty IKM or password derives keys anyone can: refused unless --empty-ikm / --empty-password
    # says it is meant; an empty value of a secret's option is refused outright, as hmac's is.
    for alg in (ALGS['256'], ALGS['512']):
        a = ['-a', alg.cli]
        expect_refusal(area, f'hkdf {alg.py} --ikm-file of an empty file', ['hkdf', *a, '--ikm-file', 'empty-key'],
                       err_has=b'empty')
        expect_refusal(area, f'hkdf {alg.py} --ikm-file - with empty stdin', ['hkdf', *a, '--ikm-file', '-'])
        expect_hex(area, f'hkdf {alg.py} --ikm-file of an empty file with --empty-ikm',
                   ['hkdf', *a, '--ikm-file', 'empty-key', '--empty-ikm'],
                   ref_expand(alg, ref_extract(alg, b'', b''), b'', alg.size))
        expect_refusal(area, f'pbkdf2 {alg.py} empty stdin', ['pbkdf2', *a, '-i', '1', '--salt', 's'],
                       err_has=b'empty')
        expect_refusal(area, f'pbkdf2 {alg.py} a newline alone on stdin', ['pbkdf2', *a, '-i', '1', '--salt', 's'],
                       stdin=b'\n')
        expect_refusal(area, f'pbkdf2 {alg.py} --password-file of an empty file',
                       ['pbkdf2', *a, '-i', '1', '--salt', 's', '--password-file', 'empty-key'])
        expect_hex(area, f'pbkdf2 {alg.py} empty stdin with --empty-password',
                   ['pbkdf2', *a, '-i', '2', '--salt', 's', '--empty-password'],
                   ref_pbkdf2(alg, b'', b's', 2, alg.size))
    for args in (['--ikm-file', ''], ['--ikm-file='], ['--ikm-hex', ''], ['--prk-file', ''], ['--prk-hex=']):
        for extra in ([], ['--empty-ikm']):
            expect_refusal(area, f'hkdf {" ".join(args + extra)!r} (an empty option value)', ['hkdf', *args, *extra])
    expect_refusal(area, 'pbkdf2 --password-file DIRECTORY', ['pbkdf2', '-i', '1', '--salt', 's', '--password-file',
                   'adir'], err_has=b'adir: Is a directory')
    expect_refusal(area, 'pbkdf2 --salt-file DIRECTORY', ['pbkdf2', '-i', '1', '--salt-file', 'adir'], stdin=b'pw',
                   err_has=b'adir: Is a directory')
    expect_refusal(area, 'hmac -j0', ['hmac', '--key-hex', '00', '-j0', 'msg'])
    expect_refusal(area, 'hmac -a 1', ['hmac', '-a', '1', '--key-hex', '00', 'msg'])
    expect_refusal(area, 'hmac -c --tag', ['hmac', '--key-hex', '00', '-c', '--tag', 'msg'])
    expect_refusal(area, 'hmac --quiet without -c', ['hmac', '--key-hex', '00', '--quiet', 'msg'])
    # The missing FILE: other files still printed (stdout is not empty here).
    alg = ALGS['512']
    expect('refusals', 'hmac missing FILE among others',
           ['hmac', '-a', '512', '--key-hex', 'aa', 'msg', 'no-such-file', 'msg'],
           hmac_line(alg, ref_hmac(alg, b'\xaa', b'message'), 'msg') * 2, want_rc=1,
           want_err=b'shasta hmac: no-such-file: No such file or directory\n')
    alg = ALGS['256']
    expect('refusals', 'hmac a directory FILE among others (default -a 256)',
           ['hmac', '--key-hex', 'aa', 'adir', 'msg'], hmac_line(alg, ref_hmac(alg, b'\xaa', b'message'), 'msg'),
           want_rc=1, want_err=b'shasta hmac: adir: Is a directory\n')
    expect('refusals', 'hmac only a missing FILE', ['hmac', '--key-hex', 'aa', 'no-such-file'], b'', want_rc=1,
           want_err=b'shasta hmac: no-such-file: No such file or directory\n')
    # PBKDF2
    pw = b'password'
    expect_refusal(area, 'pbkdf2 -i 0', ['pbkdf2', '-i', '0', '--salt', 'salt'], stdin=pw)
    expect_refusal(area, 'pbkdf2 --iterations=0', ['pbkdf2', '--iterations=0', '--salt', 'salt'], stdin=pw)
    for bad in ('-1', '', 'x', '1x', '99999999999999999999999'):
        expect_refusal(area, f'pbkdf2 -i {bad!r}', ['pbkdf2', '-i', bad, '--salt', 'salt'], stdin=pw)
    expect_refusal(area, 'pbkdf2 no -i', ['pbkdf2', '--salt', 'salt'], stdin=pw)
    expect_refusal(area, 'pbkdf2 no salt', ['pbkdf2', '-i', '1'], stdin=pw)
    expect_refusal(area, 'pbkdf2 no salt, --password-file', ['pbkdf2', '-i', '1', '--password-file', 'msg'])
    expect_refusal(area, 'pbkdf2 --salt and --salt-hex', ['pbkdf2', '-i', '1', '--salt', 's', '--salt-hex', '00'],
                   stdin=pw)
    expect_refusal(area, 'pbkdf2 --salt-hex and --salt-file', ['pbkdf2', '-i', '1', '--salt-hex', '00', '--salt-file',
                   'msg'], stdin=pw)
    for bad in ('0', 'abc', 'zz', '0g'):
        expect_refusal(area, f'pbkdf2 --salt-hex {bad!r}', ['pbkdf2', '-i', '1', '--salt-hex', bad], stdin=pw)
    expect_refusal(area, 'pbkdf2 --salt-file missing', ['pbkdf2', '-i', '1', '--salt-file', 'no-such-salt'], stdin=pw,
                   err_has=b'no-such-salt: No such file or directory')
    expect_refusal(area, 'pbkdf2 --salt-file - and password on stdin', ['pbkdf2', '-i', '1', '--salt-file', '-'],
                   stdin=pw)
    expect_refusal(area, 'pbkdf2 --password-file missing', ['pbkdf2', '-i', '1', '--salt', 's', '--password-file',
                   'no-such-pw'], err_has=b'no-such-pw: No such file or directory')
    for bad in ('0', '1048577', '-1', 'x'):
        expect_refusal(area, f'pbkdf2 -l {bad}', ['pbkdf2', '-i', '1', '--salt', 's', '-l', bad], stdin=pw)
    expect_refusal(area, 'pbkdf2 -a 1', ['pbkdf2', '-a', '1', '-i', '1', '--salt', 's'], stdin=pw)
    expect_refusal(area, 'pbkdf2 operand', ['pbkdf2', '-i', '1', '--salt', 's', 'extra'], stdin=pw)


# ------------------------------------------------------------------------------------------------

def main() -> int:
    global SHASTA, WORK, BASE_ENV
    argv = sys.argv[1:]
    seed = None
    if '--seed' in argv:
        i = argv.index('--seed')
        seed = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    SHASTA = os.path.abspath(argv[0])
    if not os.access(SHASTA, os.X_OK):
        print(f'{argv[0]}: not an executable', file=sys.stderr)
        return 2
    if seed is None:
        seed = int(os.environ.get('SHASTA_TEST_SEED', '0')) or random.SystemRandom().randrange(1, 2 ** 31)
    print(f'seed {seed} (rerun with --seed {seed} or SHASTA_TEST_SEED={seed})', flush=True)
    rng = random.Random(seed)
    BASE_ENV = {k: v for k, v in os.environb.items() if not k.startswith(b'LC_') and k != b'LANG'}
    BASE_ENV[b'LC_ALL'] = b'C'
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix='shasta-kdf-') as work:
        WORK = work
        test_rfc4231()
        test_rfc5869()
        test_rfc8448()
        test_pbkdf2_vectors()
        test_hmac_format(rng)
        test_hmac_check(rng)
        test_hmac_random(rng, 150)
        test_hkdf_random(rng, 160)
        test_pbkdf2_random(rng, 100)
        test_refusals()
    total, failed = sum(T.cases.values()), sum(T.failed.values())
    for area in T.order:
        print(f'  {area:16} {T.cases[area]:4} cases, {T.failed[area]} failed')
    print(f'{total} cases, {failed} failed ({time.monotonic() - start:.1f} s, seed {seed})')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
