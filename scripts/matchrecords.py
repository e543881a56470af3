"""What the match scripts share: their results files, the commits they count, the interval.

`scripts/level-match`, `scripts/pachi-match` and `scripts/nn-match` append one line a game to a
tab-separated file under data/matches/ (a header line first) and sum it up; Python finds this
module beside them.
"""
import math
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def read_results(path, columns, program):
    """The games of a results file as dicts by column; exits with a message when it is missing."""
    if not os.path.exists(path):
        sys.exit(f"{program}: no results in {path}")
    with open(path) as f:
        return [dict(zip(columns, line.rstrip("\n").split("\t"))) for line in f.readlines()[1:]]


def built_since(rows, since, program):
    """The games of binaries built from the commit `since` or a later one (a change of the
    search's defaults starts a new count of the same pairings); exits when `since` names no
    commit."""
    if subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "--quiet", since + "^{commit}"],
                      capture_output=True).returncode != 0:
        sys.exit(f"{program}: --since {since}: no such commit")
    later = {c for c in {row["commit"] for row in rows}
             if subprocess.run(["git", "-C", ROOT, "merge-base", "--is-ancestor", since, c],
                               capture_output=True).returncode == 0}
    return [row for row in rows if row["commit"] in later]


def wilson(points, n, z=1.96):
    """The 95% Wilson score interval of `points` of `n` (0 to 1 for no game)."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)
    # Rounding leaves -1e-17 for no point won, which prints as "-0%".
    return max(low, 0.0), min(high, 1.0)
