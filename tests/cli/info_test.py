#!/usr/bin/env python3
"""`shasta info` shows every row of the kernel table with the reason for the choice.

Usage: info_test.py SHASTA KERNEL...   (KERNEL...: the build's kernels, from cmake/Kernels.cmake)

Checks, for the environment unset and for SHASTA_KERNEL / SHASTA_KERNEL_SHA256 / _SHA512 set to each
kernel and to an unknown name: every kernel of the build is a row of some family; each family says
which kernel it runs on and why, in the words of the dispatch rule that applies (forced, refused
because the CPU lacks it, no such kernel, none for this family, the best); the kernel it runs on is
the row marked active, and a row the CPU lacks ('no') is never active.
"""
import os
import re
import subprocess
import sys

FAMILY_RE = re.compile(r'^(sha224, sha256|sha384, sha512, sha512/224, sha512/256)$')
RUN_RE = re.compile(r'^  run on (\S+): (.+)$')
ROW_RE = re.compile(r'^  (\S+)\s+needs (.+?)\s+(\d+ lanes|no lanes)\s+-- (yes|no)(, active)?$')

failures = []


def check(ok: bool, what: str) -> None:
    if not ok:
        failures.append(what)


def info(shasta: str, env: dict) -> dict:
    full = {k: v for k, v in os.environ.items() if not k.startswith('SHASTA_KERNEL')}
    full.update(env)
    out = subprocess.run([shasta, 'info'], capture_output=True, text=True, env=full, check=True).stdout
    families, current = {}, None
    for line in out.splitlines():
        if FAMILY_RE.match(line):
            current = families.setdefault(line, {'rows': {}, 'run': None, 'reason': None})
        elif current is not None and (m := RUN_RE.match(line)):
            current['run'], current['reason'] = m.group(1), m.group(2)
        elif current is not None and (m := ROW_RE.match(line)):
            current['rows'][m.group(1)] = {'supported': m.group(4) == 'yes', 'active': bool(m.group(5))}
    return families


def expected_reason(family: dict, others: list, variable: str, name: str, generic: bool) -> tuple:
    """(kernel it must run on, reason) by dispatch's rules, from the rows `shasta info` listed."""
    rows = family['rows']
    best = next(n for n, r in rows.items() if r['supported'])
    setting = f'{variable}={name}'
    if name in rows:
        if rows[name]['supported']:
            return name, f'forced by {setting}'
        return best, f'{setting} refused: this CPU lacks it; the best is used'
    if generic and any(name in o['rows'] for o in others):
        return best, f'the best this CPU has ({setting} has none for this family)'
    return best, f'{setting} refused: no such kernel; the best is used'


def main() -> int:
    shasta, kernels = sys.argv[1], sys.argv[2:]
    base = info(shasta, {})
    check(len(base) == 2, f'two families expected, got {list(base)}')
    first = subprocess.run([shasta, 'info'], capture_output=True, text=True, check=True).stdout.split('\n')[0]
    version = subprocess.run([shasta, '--version'], capture_output=True, text=True, check=True).stdout.split('\n')[0]
    check(first == version and re.fullmatch(r'shasta \d+\.\d+\.\d+', first) is not None,
          f'the first line of `shasta info` is {first!r}, `shasta --version` says {version!r}')
    listed = {n for f in base.values() for n in f['rows']}
    for k in kernels:
        check(k in listed, f'kernel {k} of the build is no row of `shasta info`')
    for f in base.values():
        check(list(f['rows'])[-1:] == ['portable'], f'the last row is not portable: {list(f["rows"])}')
        check(f['reason'] == 'the best this CPU has', f'no environment: reason {f["reason"]!r}')
    cases = 0
    for name in sorted(listed) + ['no-such-kernel']:
        for variable in ('SHASTA_KERNEL', 'SHASTA_KERNEL_SHA256', 'SHASTA_KERNEL_SHA512'):
            got = info(shasta, {variable: name})
            for title, family in got.items():
                others = [o for t, o in got.items() if t != title]
                own = 'SHASTA_KERNEL_SHA256' if title.startswith('sha224') else 'SHASTA_KERNEL_SHA512'
                if variable not in ('SHASTA_KERNEL', own):
                    want_run, want_reason = next(n for n, r in family['rows'].items() if r['supported']), \
                        'the best this CPU has'
                else:
                    want_run, want_reason = expected_reason(family, others, variable, name,
                                                            variable == 'SHASTA_KERNEL')
                cases += 1
                where = f'{variable}={name}, {title}'
                check(family['run'] == want_run, f'{where}: runs on {family["run"]}, want {want_run}')
                check(family['reason'] == want_reason, f'{where}: reason {family["reason"]!r}, want {want_reason!r}')
                active = [n for n, r in family['rows'].items() if r['active']]
                check(active == [family['run']], f'{where}: active rows {active}, runs on {family["run"]}')
                for n, r in family['rows'].items():
                    check(r['supported'] or not r['active'], f'{where}: {n} is active but the CPU lacks it')
    for f in failures:
        print('FAIL:', f)
    print(f'{cases} family cases over {len(listed)} kernels, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
