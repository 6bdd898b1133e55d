"""The cases of a CLI test script: each one counted, a failure printed the moment it is seen, and
the summary line and exit status at the end (the scripts run alone, from ctest; no test framework)."""
from __future__ import annotations

import time


class Tally:
    def __init__(self) -> None:
        self.cases = 0
        self.failed = 0
        self.only = ''  # a script's -k SUBSTRING: run only the cases whose names hold it
        self.start = time.monotonic()

    def case(self, name: str, ok: bool, detail: str = '') -> bool:
        self.cases += 1
        if not ok:
            self.failed += 1
            print(f'FAIL {name}: {detail}', flush=True)
        return ok

    def wanted(self, name: str) -> bool:
        return self.only in name

    def finish(self) -> int:
        """Prints the summary; the script's exit status: 1 if any case failed."""
        print(f'{self.cases} cases, {self.failed} failed ({time.monotonic() - self.start:.1f} s)')
        return 1 if self.failed else 0
