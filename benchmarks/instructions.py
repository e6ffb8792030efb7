"""Instructions a hand, counted by valgrind's callgrind: a figure that does
not move with the host's load (wall-clock figures on a shared machine move
by ±20 %), for comparing two builds or two commits step by step.

    python -m benchmarks.instructions                  # hand JSON, calculators, reading
    python -m benchmarks.instructions --only json --hands 2000 --warm 20000

Each figure is the difference of two runs of one process under callgrind:
both warm the per-group tables on `--warm` random MCR hands (the hands of
`benchmarks.pymahjonggb.random_hand`) and make `--hands` fresh ones; one
also scores them. Hash randomisation is off (PYTHONHASHSEED=0), so the
count repeats to within a few instructions. Needs valgrind on the PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

from benchmarks.run import ROOT, installed_first

# what one run does: warm, make the fresh hands, then score them `reps` times
_LOOP = r"""
import os, random
from benchmarks.pymahjonggb import random_hand
from mjc.handjson import parse_hand, score_hand
from runtime.registry import load
from runtime.scoring import evaluate

what, hands, warm, reps = os.environ["MJC_I_WHAT"], *map(int, os.environ["MJC_I_ARGS"].split())
ruleset = load("mcr")
table = ruleset.configure({})
cache: dict = {}
rng = random.Random(7)
for _ in range(warm):
    score_hand(random_hand(rng), ruleset, cache)
fresh = [random_hand(rng) for _ in range(hands)]
parsed = [parse_hand(h, table) for h in fresh] if what == "calc" else []
for _ in range(reps):
    if what == "json":
        for h in fresh:
            score_hand(h, ruleset, cache)
    elif what == "parse":
        for h in fresh:
            parse_hand(h, table)
    else:
        for ctx in parsed:
            evaluate(table, ctx)
"""

MEASURES = {
    "json": "MCR hand JSON in, result out (mjc.handjson.score_hand)",
    "calc": "MCR calculators alone (runtime.scoring.evaluate on a parsed hand)",
    "parse": "reading the hand JSON (mjc.handjson.parse_hand)",
}


def _count(what: str, hands: int, warm: int, reps: int) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0", MJC_I_WHAT=what, MJC_I_ARGS=f"{hands} {warm} {reps}")
    # the installed build first (a compiled install, not the checkout's sources), as benchmarks.run measures
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *installed_first(None, code=_LOOP)],
        env=env, capture_output=True, text=True, cwd=str(ROOT),
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode or not found:
        raise SystemExit(f"callgrind failed ({what}):\n{out.stderr[-2000:]}")
    return int(found.group(1))


def _build() -> str:
    probe = "import runtime; print(getattr(runtime, 'build_info', lambda: 'unknown build')())"
    out = subprocess.run(installed_first(None, code=probe), capture_output=True, text=True, cwd=str(ROOT))
    return out.stdout.strip() or out.stderr.strip()[-200:]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=sorted(MEASURES), action="append", help="one measure (repeatable)")
    ap.add_argument("--hands", type=int, default=2000, help="fresh hands scored (default 2000)")
    ap.add_argument("--warm", type=int, default=20000, help="hands scored first, to warm the per-group tables")
    args = ap.parse_args(argv)
    if not shutil.which("valgrind"):
        print("valgrind is not installed (apt install valgrind)", file=sys.stderr)
        return 2
    print(f"{_build()}; {args.hands} fresh hands after {args.warm} warm ones; callgrind, PYTHONHASHSEED=0")
    for what in args.only or list(MEASURES):
        base = _count(what, args.hands, args.warm, 0)
        scored = _count(what, args.hands, args.warm, 1)
        print(f"{(scored - base) / args.hands:10,.0f} instructions a hand  {MEASURES[what]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
