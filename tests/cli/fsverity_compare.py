#!/usr/bin/env python3
"""fsverity_compare.py SHASTA [--quick]: `shasta fsverity digest` against fsverity-utils'
`fsverity digest`, byte for byte (standard output and exit status; standard error too where both
print the same messages), on files of 0, 1, 4095, 4096, 4097 and 1 MiB + 1 bytes and a few MiB of
random data, with SHA-256 and SHA-512, block sizes 1024, 4096 and 65536, with and without a salt,
and the --compact and --for-builtin-sig forms. Exits 77 (skipped) when `fsverity` is not installed
(Debian: apt-get install fsverity)."""
import os
import random
import shutil
import subprocess
import sys
import tempfile


def run(argv):
    p = subprocess.run(argv, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    shasta = sys.argv[1]
    quick = "--quick" in sys.argv[2:]
    fsverity = shutil.which("fsverity")
    if fsverity is None:
        print("SKIPPED: fsverity (fsverity-utils) is not installed; apt-get install fsverity")
        return 77

    rng = random.Random(int(os.environ.get("SHASTA_SEED", "20240601")))
    failures = 0
    cases = 0
    with tempfile.TemporaryDirectory(prefix="shasta-fsverity-") as tmp:
        # The last: past 16 MiB, read by a second thread (read_ahead.hpp).
        sizes = [0, 1, 4095, 4096, 4097, (1 << 20) + 1, 3 << 20, (5 << 20) + 12345, (17 << 20) + 4097]
        if quick:
            sizes = sizes[:-2]
        files = []
        for n in sizes:
            path = os.path.join(tmp, "f%d" % n)
            with open(path, "wb") as f:
                f.write(rng.randbytes(n))
            files.append(path)

        salts = [None, "deadbeef", "".join("%02x" % rng.randrange(256) for _ in range(32))]
        combos = []
        for alg in ("sha256", "sha512"):
            for bs in (1024, 4096, 65536):
                for salt in salts:
                    opts = ["--hash-alg=" + alg, "--block-size=%d" % bs]
                    if salt is not None:
                        opts.append("--salt=" + salt)
                    combos.append(opts)
        combos += [[], ["--compact"], ["--for-builtin-sig"], ["--hash-alg=sha512", "--compact", "--for-builtin-sig"],
                   ["--hash-alg=2", "--salt=00"], ["--block-size=64"], ["--block-size=1048576", "--salt=AbCd"]]

        for opts in combos:
            want = run([fsverity, "digest"] + opts + files)
            got = run([shasta, "fsverity", "digest"] + opts + files)
            cases += len(files)
            if want != got:
                failures += 1
                print("DIFFER: digest %s\n  fsverity: %r\n  shasta:   %r" % (" ".join(opts), want, got))

        # Refused parameters: the same messages and status (fsverity checks them at the first file,
        # once it is open: a file that cannot be opened is reported instead).
        missing = os.path.join(tmp, "missing")
        refused = 0
        for opts in (["--salt=" + "ab" * 33], ["--hash-alg=3"], ["--block-size=32"],
                     ["--hash-alg=sha512", "--block-size=64"]):
            for names in (files[:1], [missing], [files[1], missing]):
                want = run([fsverity, "digest"] + opts + names)
                got = run([shasta, "fsverity", "digest"] + opts + names)
                cases += 1
                refused += 1
                if want != got:
                    failures += 1
                    print("DIFFER: digest %s\n  fsverity: %r\n  shasta:   %r" % (" ".join(opts + names), want, got))

        # --help wins over every other argument before "--" (fsverity's handle_common_options), and
        # the options' abbreviations are fsverity's (no "help" in its digest table: --h is --hash-alg).
        common = 0
        for args in (["--block-size=3", "--help"], ["--hash-alg=bad", "--help", files[1]], ["--salt", "--help", "abc"],
                     ["--h=sha512", files[1]], ["--he", files[1]], ["--", "--help"], ["--help", "--version"]):
            want = run([fsverity, "digest"] + args)
            got = run([shasta, "fsverity", "digest"] + args)
            cases += 1
            common += 1
            # the usage text names shasta; the status, and the digests when there are some, must agree
            if want[0] != got[0] or (want[0] == 0 and b"Usage" not in want[1] and want[1] != got[1]):
                failures += 1
                print("DIFFER: digest %s\n  fsverity: %r\n  shasta:   %r" % (" ".join(args), want, got))
        # --version too, but shasta names itself
        for args in (["abc", "--version"], ["--version", "--help"]):
            want = run([fsverity, "digest"] + args)
            got = run([shasta, "fsverity", "digest"] + args)
            cases += 1
            common += 1
            if want[0] != got[0] or b"fsverity v1.5" not in want[1] or b"shasta fsverity" not in got[1]:
                failures += 1
                print("DIFFER: digest %s\n  fsverity: %r\n  shasta:   %r" % (" ".join(args), want, got))

        # A file that cannot be read: fsverity-utils prints the files before it, its error, and stops.
        for names in ([files[1], missing, files[2]], [missing, files[1]], [files[1], tmp, files[2]]):
            want = run([fsverity, "digest"] + names)
            got = run([shasta, "fsverity", "digest"] + names)
            cases += 1
            if want != got:
                failures += 1
                print("DIFFER: digest %s\n  fsverity: %r\n  shasta:   %r" % (" ".join(names), want, got))

        # Usage errors: status 2 and nothing on standard output (the usage text names shasta).
        for opts in (["--salt=abc"], ["--block-size=1000"], ["--hash-alg=md5"], ["--nonsense"], []):
            want = run([fsverity, "digest"] + opts + (files[:1] if opts else []))
            got = run([shasta, "fsverity", "digest"] + opts + (files[:1] if opts else []))
            cases += 1
            if want[:2] != got[:2]:
                failures += 1
                print("DIFFER: digest %s\n  fsverity: %r\n  shasta:   %r" % (" ".join(opts), want, got))

    runs = len(combos) + 8 + refused + common
    if failures:
        print("%d of %d runs differ" % (failures, runs))
    else:
        print("all equal: %d runs, %d file digests" % (runs, cases))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
