"""Benchmarks, side by side in one run (not part of CI's pass/fail).

    pip install '.[bench]'
    python -m benchmarks.run                # every measure, ~10 s each
    python -m benchmarks.run --seconds 3    # shorter
    python -m benchmarks.run --only games   # games | score | wilds | mcr

games: complete 4-player 云南卡二条 hands per second and player decisions
per second with random agents, and the same for rlcard's `mahjong`
environment with its random agents (rlcard is installed by the `bench`
extra); also our greedy bots for reference. The three run interleaved in
five slices each, so that they share the machine's load. A decision is one
action a player takes: a discard, a claim, a pass, a declaration (for
rlcard: one `env.step`).

score: winning hands scored per second through `mjc score`'s code path
(JSON line in, JSON line out), on random complete hands.

mcr: Chinese Official hands scored per second by our compiled `mcr` module
and by PyMahjongGB (`pymahjonggb`, a C++ calculator called from Python) on
the same 5,000 random winning hands of every shape, in interleaved slices:
from the hand JSON object (ours: parse, score, result object; theirs: the
conversion to its arguments and the call), and the calculators alone (our
parsed hand; its prepared arguments). The two agree on every hand
(tests/test_mcr_differential.py).

wilds: 潮州 with White wild (白板做鬼): win checks (14 tiles) and waits (13
tiles) per second for hands holding 0, 1, 2, 3 and 4 wilds, by our per-suit
joker tables and, on the same hands, by brute-force substitution of every
wild by every tile kind.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time


class Ours:
    """Complete 4-player hands of a variant (云南卡二条 by default) with one kind of bot."""

    def __init__(self, bot: str, variant: str = "yunnan_ka_er_tiao"):
        from runtime.bots import make_bot
        from runtime.registry import load

        self.table = load(variant).configure({}, 4)
        self.bots = [make_bot(bot, s) for s in range(4)]
        self.games = self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        from runtime.game import deal

        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            game = deal(self.table, f"bench-{self.games}", dealer=self.games % 4)
            bots = self.bots
            while not game.over:
                for seat in game.to_act():
                    game.apply(seat, bots[seat].choose(game, seat))
                    self.decisions += 1
                    if game.over:
                        break
            self.games += 1
        self.seconds += time.perf_counter() - start


class Rlcard:
    """rlcard's `mahjong` environment with its random agents."""

    def __init__(self):
        import rlcard
        from rlcard.agents import RandomAgent

        self.version = getattr(rlcard, "__version__", "?")
        self.env = rlcard.make("mahjong", config={"seed": 0})
        self.agent = RandomAgent(num_actions=self.env.num_actions)
        self.games = self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        env, agent = self.env, self.agent
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(agent.step(state))
                self.decisions += 1
            self.games += 1
        self.seconds += time.perf_counter() - start


def _figures(runner) -> dict:
    return {"games": runner.games, "decisions": runner.decisions, "seconds": runner.seconds,
            "games_per_s": runner.games / runner.seconds, "decisions_per_s": runner.decisions / runner.seconds}


_BASELINE_SLICE = """
import json, sys, time
sys.path.insert(0, {root!r})
from runtime.bots import make_bot
from runtime.game import deal
from runtime.registry import load
table = load("yunnan_ka_er_tiao").configure({{}}, 4)
bots = [make_bot("random", s) for s in range(4)]
games = decisions = 0
first = {first}
start = time.perf_counter()
while time.perf_counter() - start < {seconds}:
    game = deal(table, f"bench-{{first + games}}", dealer=(first + games) % 4)
    while not game.over:
        for seat in game.to_act():
            game.apply(seat, bots[seat].choose(game, seat))
            decisions += 1
            if game.over:
                break
    games += 1
print(json.dumps({{"games": games, "decisions": decisions, "seconds": time.perf_counter() - start}}))
"""


class Baseline:
    """Our 云南卡二条 random games as a revision of this repository plays
    them (a git worktree at that revision), each slice in a fresh
    subprocess; `rev` None is this tree, run the same way, so that the two
    compare like for like in one run."""

    def __init__(self, rev: str | None):
        import subprocess
        import tempfile
        from pathlib import Path

        self.root = Path(__file__).resolve().parent.parent
        self.games = self.decisions = 0
        self.seconds = 0.0
        if rev is None:
            self.rev, self.dir = "this tree", self.root
            return
        self.rev = subprocess.run(["git", "-C", str(self.root), "rev-parse", "--short", rev], check=True,
                                  capture_output=True, text=True).stdout.strip()
        self.dir = Path(tempfile.mkdtemp(prefix="mjc-baseline-")) / self.rev
        subprocess.run(["git", "-C", str(self.root), "worktree", "add", "--detach", str(self.dir), rev], check=True,
                       capture_output=True)

    def run(self, seconds: float) -> None:
        import subprocess

        code = _BASELINE_SLICE.format(root=str(self.dir), first=self.games, seconds=seconds)
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=str(self.dir))
        r = json.loads(out.stdout)
        self.games += r["games"]
        self.decisions += r["decisions"]
        self.seconds += r["seconds"]

    def close(self) -> None:
        import subprocess

        if self.dir != self.root:
            subprocess.run(["git", "-C", str(self.root), "worktree", "remove", "--force", str(self.dir)],
                           capture_output=True)


def bench_games(seconds: float, rounds: int = 5, baseline: str | None = None) -> dict:
    """Ours and rlcard's, interleaved in slices so that both see the same
    machine load; 血战到底 beside them; with `baseline`, our 云南卡二条 games
    at that revision too."""
    ours, greedy, flow = Ours("random"), Ours("greedy"), Ours("random", "sichuan_xuezhan")
    before = Baseline(baseline) if baseline else None
    now = Baseline(None) if baseline else None
    try:
        peer = Rlcard()
    except ImportError:
        peer = None
    try:
        for _ in range(rounds):
            ours.run(seconds / rounds)
            if before:
                before.run(seconds / rounds)
                now.run(seconds / rounds)
            if peer:
                peer.run(seconds / rounds)
            greedy.run(seconds / rounds)
            flow.run(seconds / rounds)
    finally:
        if before:
            before.close()
    out = {"ours_random": _figures(ours), "ours_greedy": _figures(greedy), "rlcard_random": None,
           "xuezhan_random": _figures(flow)}
    if before:
        out["baseline_random"] = dict(_figures(before), rev=before.rev)
        out["now_random"] = _figures(now)
        out["vs_baseline"] = out["now_random"]["decisions_per_s"] / out["baseline_random"]["decisions_per_s"]
    if peer:
        out["rlcard_random"] = dict(_figures(peer), version=peer.version)
        out["decisions_ratio"] = out["ours_random"]["decisions_per_s"] / out["rlcard_random"]["decisions_per_s"]
        out["games_ratio"] = out["ours_random"]["games_per_s"] / out["rlcard_random"]["games_per_s"]
    return out


def random_winning_hands(count: int, seed: int = 1) -> list[str]:
    """Hand JSON lines: four sets and a pair drawn from the 72 tiles."""
    from runtime.tiles import NAMES

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        left = {t: 4 for t in range(9, 27)}
        tiles = []
        ok = True
        for _ in range(4):
            if rng.random() < 0.6:
                t = rng.choice([t for t in left if t % 9 <= 6 and left[t] and left[t + 1] and left[t + 2]] or [None])
                if t is None:
                    ok = False
                    break
                group = [t, t + 1, t + 2]
            else:
                t = rng.choice([t for t in left if left[t] >= 3] or [None])
                if t is None:
                    ok = False
                    break
                group = [t, t, t]
            for x in group:
                left[x] -= 1
            tiles += group
        pairs = [t for t in left if left[t] >= 2]
        if not ok or not pairs:
            continue
        p = rng.choice(pairs)
        tiles += [p, p]
        win = tiles.pop(rng.randrange(len(tiles)))
        out.append(json.dumps({"concealed": [NAMES[t] for t in tiles], "win_tile": NAMES[win],
                               "self_drawn": rng.random() < 0.5}))
    return out


def bench_score(seconds: float) -> dict:
    from mjc.handjson import score_hand
    from runtime.registry import load

    rs = load("yunnan_ka_er_tiao")
    lines = random_winning_hands(2000)
    cache: dict = {}
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for line in lines:
            result = score_hand(json.loads(line), rs, cache)
            json.dumps(result, ensure_ascii=False)
        hands += len(lines)
    elapsed = time.perf_counter() - start
    return {"hands": hands, "seconds": elapsed, "hands_per_s": hands / elapsed}


def bench_mcr(seconds: float, slices: int = 5) -> dict | None:
    from benchmarks import pymahjonggb as oracle
    from mjc.handjson import parse_hand, score_hand
    from runtime.registry import load
    from runtime.scoring import evaluate

    if not oracle.available():
        return None
    from MahjongGB import MahjongFanCalculator

    rng = random.Random(2026)
    hands = [oracle.random_hand(rng) for _ in range(5000)]
    calls = [oracle.their_call(h) for h in hands]
    rs, cache = load("mcr"), {}
    table = rs.configure({})
    contexts = [parse_hand(h, table) for h in hands]

    def theirs(call):
        try:
            MahjongFanCalculator(**call)
        except TypeError:  # a hand it finds no win in (none here)
            pass

    measures = {
        # from the hand JSON object to the result object, both sides
        "ours_from_json": (lambda hand: score_hand(hand, rs, cache), hands),
        "theirs_from_json": (lambda hand: theirs(oracle.their_call(hand)), hands),
        # the calculators alone: our parsed hand, their prepared arguments
        "ours_from_parsed": (lambda ctx: evaluate(table, ctx), contexts),
        "theirs_from_parsed": (theirs, calls),
    }
    rates = {key: 0.0 for key in measures}
    for _ in range(slices):
        for key, (fn, items) in measures.items():
            rates[key] += _rate(fn, items, seconds / slices / len(measures) * 2) / slices
    return {
        "hands": len(hands),
        **{f"{key}_per_s": rate for key, rate in rates.items()},
        "ratio_from_json": rates["ours_from_json"] / rates["theirs_from_json"],
        "ratio_from_parsed": rates["ours_from_parsed"] / rates["theirs_from_parsed"],
    }


def _wild_hands(count: int, size: int, wilds: int, seed: int) -> list[list[int]]:
    from runtime.tiles import counts_of

    rng = random.Random(seed)
    pool = [t for t in range(34) if t != 31 for _ in range(4)]
    return [counts_of(rng.sample(pool, size - wilds) + [31] * wilds) for _ in range(count)]


def _rate(fn, hands, seconds: float) -> float:
    """Hands per second after one warm-up pass (the caches a long-running
    server would have)."""
    for h in hands:
        fn(h)
    done = 0
    start = time.perf_counter()
    while True:
        for h in hands:
            fn(h)
        done += len(hands)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def bench_wilds(seconds: float) -> dict:
    from itertools import combinations_with_replacement

    from runtime import analysis
    from runtime import hand as hm
    from runtime.registry import load

    table = load("chaozhou").configure({"gui_pai": "bai_ban"}, 4)
    plain = load("chaozhou").configure({}, 4)
    kinds = [t for t in range(34)]

    def brute_complete(counts):
        base = list(counts)
        n = base[31]
        base[31] = 0
        for subst in combinations_with_replacement(kinds, n):
            full = list(base)
            for t in subst:
                full[t] += 1
            if max(full[:34]) <= 4 and analysis.is_complete(plain, full, []):
                return True
        return False

    def brute_waits(counts):
        out = []
        for t in kinds:
            counts[t] += 1
            if counts[t] <= 4 and brute_complete(counts):
                out.append(t)
            counts[t] -= 1
        return out

    report = {}
    share = seconds / 22
    no_wild_table = [_rate(lambda c: analysis.is_complete(plain, c, []), _wild_hands(500, 14, 0, 0), share),
                     _rate(lambda c: analysis.waits(plain, c, []), _wild_hands(300, 13, 0, 10), share)]
    for w in range(5):
        wins = _wild_hands(500, 14, w, w)
        waits = _wild_hands(300, 13, w, 10 + w)
        ours_win = _rate(lambda c: analysis.is_complete(table, c, []), wins, share)
        ours_waits = _rate(lambda c: analysis.waits(table, c, []), waits, share)
        few = max(2, 40 // (1 + 8 * w * w))
        brute_win = _rate(brute_complete, wins[:few * 5], share)
        brute_w = _rate(brute_waits, waits[:few], share)
        report[w] = {"win_checks_per_s": ours_win, "waits_per_s": ours_waits,
                     "brute_win_checks_per_s": brute_win, "brute_waits_per_s": brute_w}
    base = report[0]
    for w in range(5):
        report[w]["win_check_time_vs_no_wilds"] = base["win_checks_per_s"] / report[w]["win_checks_per_s"]
        report[w]["waits_time_vs_no_wilds"] = base["waits_per_s"] / report[w]["waits_per_s"]
        report[w]["win_check_time_vs_table_without_wilds"] = no_wild_table[0] / report[w]["win_checks_per_s"]
        report[w]["waits_time_vs_table_without_wilds"] = no_wild_table[1] / report[w]["waits_per_s"]
    report["table_without_wilds"] = {"win_checks_per_s": no_wild_table[0], "waits_per_s": no_wild_table[1]}
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="time per measure (default 10)")
    ap.add_argument("--only", choices=["games", "score", "wilds", "mcr"], help="run one benchmark")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--baseline", metavar="REV", help="games: also play 云南卡二条 as git revision REV does, interleaved")
    args = ap.parse_args(argv)
    report = {"python": platform.python_version(), "machine": platform.machine()}
    if args.only in (None, "games"):
        report.update(bench_games(args.seconds, baseline=args.baseline))
    if args.only in (None, "score"):
        report["score"] = bench_score(args.seconds)
    if args.only in (None, "wilds"):
        report["wilds"] = bench_wilds(args.seconds)
    if args.only in (None, "mcr"):
        report["mcr"] = bench_mcr(args.seconds)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"Python {report['python']} on {report['machine']}, {args.seconds:g} s per measure")
    for key, label in (("ours_random", "云南卡二条, 4 players, random bots"),
                       ("baseline_random", f"云南卡二条 at {report.get('baseline_random', {}).get('rev')}, random bots, fresh process per slice"),
                       ("now_random", "云南卡二条, this tree, random bots, fresh process per slice"),
                       ("rlcard_random", "rlcard mahjong, 4 players, random agents"),
                       ("ours_greedy", "云南卡二条, 4 players, greedy bots"),
                       ("xuezhan_random", "四川 血战到底, 4 players, random bots")):
        if key in report:
            r = report[key]
            if r is None:
                print(f"  {label}: not installed (pip install '.[bench]')")
                continue
            print(f"  {label}: {r['games_per_s']:.1f} games/s, {r['decisions_per_s']:.0f} decisions/s "
                  f"({r['games']} games, {r['decisions']} decisions)")
    if "vs_baseline" in report:
        print(f"  this tree against {report['baseline_random']['rev']}: {report['vs_baseline']:.3f}x decisions/s")
    if "decisions_ratio" in report:
        print(f"  ratio (ours / rlcard): {report['decisions_ratio']:.1f}x decisions/s, {report['games_ratio']:.1f}x games/s")
    if "score" in report:
        print(f"  mjc score code path: {report['score']['hands_per_s']:.0f} hands/s")
    if "mcr" in report:
        r = report["mcr"]
        if r is None:
            print("  MCR scoring: PyMahjongGB not installed (pip install '.[oracle]')")
        else:
            print(f"  MCR hands scored, {r['hands']} random hands: from hand JSON ours {r['ours_from_json_per_s']:.0f}/s, "
                  f"PyMahjongGB {r['theirs_from_json_per_s']:.0f}/s, ratio {r['ratio_from_json']:.3f}; "
                  f"calculators alone ours {r['ours_from_parsed_per_s']:.0f}/s, PyMahjongGB "
                  f"{r['theirs_from_parsed_per_s']:.0f}/s, ratio {r['ratio_from_parsed']:.3f}")
    if "wilds" in report:
        plain = report["wilds"]["table_without_wilds"]
        print(f"  潮州 without wilds: win checks {plain['win_checks_per_s']:.0f}/s, waits {plain['waits_per_s']:.0f}/s")
        print("  潮州 with White wild, by wild tiles held: per second (time against 0 held; against no wilds at all)")
        for w in range(5):
            r = report["wilds"][w]
            print(f"    {w}: win checks {r['win_checks_per_s']:.0f} ({r['win_check_time_vs_no_wilds']:.1f}x; "
                  f"{r['win_check_time_vs_table_without_wilds']:.1f}x), waits {r['waits_per_s']:.0f} "
                  f"({r['waits_time_vs_no_wilds']:.1f}x; {r['waits_time_vs_table_without_wilds']:.1f}x); "
                  f"brute force: win checks {r['brute_win_checks_per_s']:.1f}, waits {r['brute_waits_per_s']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
