"""Reads the SGF files tengen wrote with sgfmill and compares them with the manifest.

Usage: check_sgfmill.py MANIFEST.json. Prints "N passed, M failed"; exit 1 on any failure.
"""
import json
import os
import sys

from sgfmill import sgf


def sgf_point(size, point):
    """sgfmill (row, col) from the bottom -> SGF letters."""
    row, col = point
    return chr(ord("a") + col) + chr(ord("a") + size - 1 - row)


def check(entry, directory):
    with open(os.path.join(directory, entry["file"]), "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    size = game.get_size()
    problems = []
    if size != entry["size"]:
        problems.append(f"size {size} != {entry['size']}")
    if game.get_komi() != entry["komi"]:
        problems.append(f"komi {game.get_komi()} != {entry['komi']}")
    if (game.get_handicap() or 0) != entry["handicap"]:
        problems.append(f"handicap {game.get_handicap()} != {entry['handicap']}")
    root = game.get_root()
    result = root.get("RE") if root.has_property("RE") else None
    if result != entry["result"]:
        problems.append(f"result {result!r} != {entry['result']!r}")
    black, white, _ = root.get_setup_stones()
    if sorted(sgf_point(size, p) for p in black) != sorted(entry["black_setup"]):
        problems.append("black setup stones differ")
    if sorted(sgf_point(size, p) for p in white) != sorted(entry["white_setup"]):
        problems.append("white setup stones differ")
    moves = []
    for node in game.get_main_sequence()[1:]:
        colour, point = node.get_move()
        moves.append([colour.upper(), "" if point is None else sgf_point(size, point)])
    if moves != entry["moves"]:
        problems.append(f"moves differ: {moves[:5]}... != {entry['moves'][:5]}...")
    if root.get("PB") != entry["black"] or root.get("PW") != entry["white"]:
        problems.append(f"players {root.get('PB')!r}/{root.get('PW')!r}")
    return problems


def main():
    manifest = sys.argv[1]
    directory = os.path.dirname(manifest)
    with open(manifest, encoding="utf-8") as f:
        entries = json.load(f)
    failed = 0
    for entry in entries:
        try:
            problems = check(entry, directory)
        except Exception as e:  # a reader error is a failure of the file
            problems = [f"{type(e).__name__}: {e}"]
        if problems:
            failed += 1
            print(f"sgfmill: {entry['file']}: {'; '.join(problems)}")
    print(f"sgfmill: {len(entries) - failed} passed, {failed} failed")
    sys.exit(1 if failed or not entries else 0)


main()
