"""What the match scripts share: their parts' folders and openings, their results files, the
commits they count, the interval.

`scripts/level-match`, `scripts/pachi-match` and `scripts/nn-match` run a part of a match as
two `tengen match` processes, append one line a game to a tab-separated file under
data/matches/ (a header line first) and sum it up; Python finds this module beside them.
"""
import datetime
import glob
import math
import os
import re
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# One process runs one part: its UTC time and process id name the part's folders, so that two
# parts started in the same second do not share one (one would count the other's records).
PART = f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"


def head_commit():
    """The checkout's commit, short: the one a part's binaries are taken to be built from."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()


def part_folder(kind, size, k):
    """The folder of match `k` of this part under target/matches/, made."""
    out = os.path.join(ROOT, "target", "matches", f"{kind}-{size}-{PART}-{k}")
    os.makedirs(out, exist_ok=True)
    return out


def rotated_openings(source, k):
    """The openings of the file `source` (no blank or # lines), starting at a line of the
    minute and of match `k`, so that parts and matches start at their own."""
    lines = [l for l in open(source).read().splitlines() if l.strip() and not l.startswith("#")]
    offset = (int(time.time()) // 60 + k * 97) % len(lines)
    return lines[offset:] + lines[:offset]


def part_games(out):
    """The games of a match folder, in order: (SGF path, Black's command, result, moves)."""
    for path in sorted(glob.glob(os.path.join(out, "game-*.sgf"))):
        text = open(path).read()
        black = re.search(r"PB\[([^\]]*)\]", text).group(1)
        result = (re.search(r"RE\[([^\]]*)\]", text) or [None, "?"])[1]
        yield path, black, result, len(re.findall(r";[BW]\[", text))


def score(result, colour):
    """A game's points for the side of `colour` (B or W): 1, 0.5 for a draw, 0, or empty
    when the result names no winner."""
    return "0.5" if result == "0" else ("1" if result[:1] == colour else "0" if result[:1] in "BW" else "")


def append_results(path, columns, rows):
    """Appends rows (lists of fields) to the results file, its header first when it is new."""
    new = not os.path.exists(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a") as f:
        if new:
            f.write("\t".join(columns) + "\n")
        for row in rows:
            f.write("\t".join(row) + "\n")


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
