#!/usr/bin/env python3
"""man_page_test.py SHASTA MANPAGE: doc/shasta.1 renders without a warning, and names every
subcommand and every long option the program's --help texts print, and carries the version
`shasta --version` prints, so the page cannot fall behind the program. Exits 77 (skipped) when man(1) is not installed.

Rendered by `man --warnings -l` (man-db: groff with -ww), and checked by `mandoc -Tlint` where
mandoc is installed; any message on stderr is a failure. The options are looked for in the roff
source, with its escaped hyphens (\\-) read as hyphens."""
import os
import re
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    shasta, page = sys.argv[1], sys.argv[2]
    if shutil.which("man") is None:
        print("SKIPPED: man is not installed")
        return 77
    failures = []
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80", MAN_KEEP_FORMATTING="")
    p = subprocess.run(["man", "--warnings", "-l", "-P", "cat", page], capture_output=True, env=env)
    if p.returncode != 0 or p.stderr:
        failures.append("man -l: exit %d, warnings:\n%s" % (p.returncode, p.stderr.decode(errors="replace")))
    if shutil.which("mandoc"):
        m = subprocess.run(["mandoc", "-Tlint", "-Wwarning", page], capture_output=True)
        if m.returncode != 0 or m.stdout or m.stderr:
            failures.append("mandoc -Tlint:\n%s%s" % (m.stdout.decode(errors="replace"), m.stderr.decode(errors="replace")))

    with open(page, encoding="utf-8") as f:
        source = f.read().replace("\\-", "-")

    def named(word):
        return re.search(r"(?<![a-z0-9-])" + re.escape(word) + r"(?![a-z0-9-])", source) is not None

    top = subprocess.run([shasta, "--help"], capture_output=True, text=True).stdout
    commands = re.findall(r"^  ([a-z][a-z0-9]*) ", top, re.M)
    if len(commands) < 7:
        failures.append("found only %r in 'shasta --help'" % commands)
    helps = {"shasta": top}
    for command in commands:
        if not named(command):
            failures.append("subcommand %r is not in the page" % command)
        helps[command] = subprocess.run([shasta, command, "--help"], capture_output=True, text=True).stdout
    gnu = os.path.join(os.path.dirname(shasta), "sha256sum")
    if os.path.exists(gnu):
        helps["sha256sum"] = subprocess.run([gnu, "--help"], capture_output=True, text=True).stdout
    options = 0
    for command, text in helps.items():
        if not text:
            failures.append("%s --help printed nothing" % command)
        for option in sorted(set(re.findall(r"(?<![a-z0-9-])--[a-z0-9][a-z0-9-]*", text))):
            options += 1
            if not named(option):
                failures.append("%s's option %s is not in the page" % (command, option))

    version = subprocess.run([shasta, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    header = re.search(r'^\.TH SHASTA 1 "[^"]*" "([^"]*)"', source, re.M)
    if not version.startswith("shasta ") or header is None or header.group(1) != version:
        failures.append("the page's .TH names %r, shasta --version prints %r"
                        % (header.group(1) if header else None, version))

    for failure in failures:
        print("FAIL " + failure)
    print("%d subcommands, %d options checked, %d failures" % (len(commands), options, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
