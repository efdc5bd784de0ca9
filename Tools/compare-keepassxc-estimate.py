#!/usr/bin/env python3
"""Compares MyPass's strength estimates with `keepassxc-cli estimate` (KeePassXC's zxcvbn-c) on the
test corpus, for docs/user-guide.md (Password health). Too slow for CI (one keepassxc-cli process per password, about
0.1 s each); the CI test compares with Python's zxcvbn instead.

    MYPASS_STRENGTH_DUMP=/tmp/corpus.json swift test -c release --filter StrengthOracleTests
    python3 Tools/compare-keepassxc-estimate.py /tmp/corpus.json

The dump holds, per password, its category, the password, our log10(guesses) and Python zxcvbn's.
Prints the share within each tolerance, per category, and the largest disagreements.
"""

import concurrent.futures
import json
import math
import re
import subprocess
import sys

LINE = re.compile(r"Length (\d+)\tEntropy ([0-9.]+)\tLog10 ([0-9.]+)")


def keepassxc_log10(password):
    # On standard input: a password starting with - would read as an option.
    result = subprocess.run(["keepassxc-cli", "estimate"], input=password + "\n", capture_output=True, text=True, check=True)
    match = LINE.search(result.stdout)
    return float(match.group(3))


def score(log10):
    guesses = 10 ** log10
    for s, bound in enumerate([1e3, 1e6, 1e8, 1e10]):
        if guesses < bound + 5:
            return s
    return 4


def main():
    rows = json.load(open(sys.argv[1]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        theirs = list(pool.map(keepassxc_log10, [row[1] for row in rows]))
    tolerances = [("log10 within 1% or 0.05", lambda a, b: abs(a - b) <= max(0.05, 0.01 * abs(b))),
                  ("log10 within 1.0 (a factor of 10)", lambda a, b: abs(a - b) <= 1.0),
                  ("same score", lambda a, b: score(a) == score(b)),
                  ("score within 1", lambda a, b: abs(score(a) - score(b)) <= 1)]
    total = len(rows)
    for name, test in tolerances:
        agree = sum(1 for row, kxc in zip(rows, theirs) if test(row[2], kxc))
        print(f"{name}: {agree}/{total} ({100 * agree / total:.1f}%)")
    by_category = {}
    for row, kxc in zip(rows, theirs):
        entry = by_category.setdefault(row[0], [0, 0, 0.0])
        entry[0] += 1
        entry[1] += abs(score(row[2]) - score(kxc)) <= 1
        entry[2] += row[2] - kxc
    for name, (count, close, delta) in by_category.items():
        print(f"  {name}: score within 1 {close}/{count}, mean log10(ours) - log10(keepassxc) {delta / count:+.2f}")
    worst = sorted(zip(rows, theirs), key=lambda pair: -abs(pair[0][2] - pair[1]))[:25]
    print("largest differences (category, password, ours, zxcvbn, keepassxc-cli):")
    for row, kxc in worst:
        print(f"  {row[0]}: {row[1]!r} {row[2]:.2f} {row[3]:.2f} {kxc:.2f}")


if __name__ == "__main__":
    main()
