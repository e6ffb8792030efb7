"""The compiled build against the pure one: the same results on random
winning hands and the same events in seeded bot games, for every variant.

    python tests/differential.py --hands 10000 --games 200

(as a script, so that the installed package is imported, not the checkout's
sources) runs the installed build (compiled, normally) and the pure build
in a subprocess (`MJC_PURE=1`), and compares their digests: per variant, one
SHA-256 per block of hands and of games, so that a difference is named down
to a block. Exit 0 equal, 1 a difference, 2 the compiled build is not
installed. `--side` prints this process's digests as JSON and stops (what the
subprocess runs). tests/test_differential.py runs it from pytest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time

BLOCK = 500  # hands or games per digest


def winning_hands(table, count: int, seed: int) -> list[dict]:
    """Hand JSON objects over the table's own tiles: four sets (chows of the
    number suits, pungs, now and then a kong or an exposed meld) and a pair,
    or seven pairs, with a random winning tile, self-draw and winds."""
    from runtime.tiles import NAMES

    rng = random.Random(seed)
    kinds = [t for t in table.tile_kinds if t < 34]
    kind_set = set(kinds)
    sets = table.sets  # sets and a pair in a winning hand
    out: list[dict] = []
    while len(out) < count:
        left = {t: 4 for t in kinds}
        concealed: list[int] = []
        melds: list[dict] = []
        ok = True
        if sets == 4 and rng.random() < 0.1:  # seven pairs (any variant may refuse the shape: a result all the same)
            for _ in range(7):
                t = rng.choice([t for t in kinds if left[t] >= 2] or [-1])
                if t < 0:
                    ok = False
                    break
                left[t] -= 2
                concealed += [t, t]
        else:
            for _ in range(sets):
                chows = [t for t in kinds if t < 27 and t % 9 <= 6 and {t + 1, t + 2} <= kind_set
                         and left[t] and left[t + 1] and left[t + 2]]
                r = rng.random()
                if r < 0.55 and chows:
                    t = rng.choice(chows)
                    group, kind = [t, t + 1, t + 2], "chow"
                elif r < 0.9 or not any(left[t] == 4 for t in kinds):
                    t = rng.choice([t for t in kinds if left[t] >= 3] or [-1])
                    group, kind = [t, t, t], "pung"
                else:
                    t = rng.choice([t for t in kinds if left[t] == 4])
                    group, kind = [t] * 4, "kong"
                if t < 0:
                    ok = False
                    break
                for x in group:
                    left[x] -= 1
                if kind == "kong" or (rng.random() < 0.25 and (kind != "chow" or table.chow)):
                    meld: dict = {"type": kind, "tiles": [NAMES[x] for x in group]}
                    if kind == "kong":
                        meld["exposed"] = rng.random() < 0.5
                    melds.append(meld)
                else:
                    concealed += group
            pairs = [t for t in kinds if left[t] >= 2]
            if not ok or not pairs:
                continue
            p = rng.choice(pairs)
            concealed += [p, p]
        if not ok or not concealed:
            continue
        win = concealed.pop(rng.randrange(len(concealed)))
        hand = {"concealed": [NAMES[t] for t in concealed], "win_tile": NAMES[win], "self_drawn": rng.random() < 0.5}
        if melds:
            hand["melds"] = melds
        if 27 in kind_set:
            hand["seat_wind"] = NAMES[rng.choice([27, 28, 29, 30])]
            hand["round_wind"] = NAMES[rng.choice([27, 28, 29, 30])]
        out.append(hand)
    return out


def _sha(items: list) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True, ensure_ascii=False, default=repr).encode()).hexdigest()


def hand_digests(name: str, count: int) -> list[str]:
    from mjc.handjson import score_hand
    from runtime.registry import load

    rs = load(name)
    hands = winning_hands(rs.configure({}), count, seed=14)
    cache: dict = {}
    results = [score_hand(h, rs, cache) for h in hands]
    return [_sha(results[i:i + BLOCK]) for i in range(0, len(results), BLOCK)]


def game_digests(name: str, count: int) -> list[str]:
    """Seeded games with the default options, every player count, random and
    greedy bots: every event, the result and the payments."""
    from runtime.bots import make_bot
    from runtime.game import deal
    from runtime.match import play_hand
    from runtime.registry import load

    rs = load(name)
    tables = {n: rs.configure({}, n) for n in rs.players}
    records = []
    for i in range(count):
        table = tables[rs.players[i % len(rs.players)]]
        game = deal(table, f"differential-{name}-{i}", dealer=i % table.players)
        kind = "greedy" if i % 2 else "random"
        bots = [make_bot(kind, f"{i}/{s}") for s in range(table.players)]
        play_hand(game, bots)
        r = game.result
        records.append({"events": game.events, "end": r.end, "winners": list(r.winners),
                        "deltas": list(r.deltas), "next_dealer": r.next_dealer})
    return [_sha(records[i:i + BLOCK]) for i in range(0, len(records), BLOCK)]


def digests(hands: int, games: int, variants: list[str]) -> dict:
    import runtime

    out: dict = {"build": runtime.build_info(), "variants": {}}
    for name in variants:
        t = time.perf_counter()
        out["variants"][name] = {"hands": hand_digests(name, hands), "games": game_digests(name, games)}
        out["variants"][name]["seconds"] = round(time.perf_counter() - t, 2)
    return out


def compare(hands: int, games: int, variants: list[str] | None = None) -> tuple[bool, str, dict, dict]:
    """(equal, report, compiled digests, pure digests)."""
    from runtime.registry import packaged_names

    variants = variants or packaged_names()
    env = dict(os.environ, MJC_PURE="1")
    cmd = [sys.executable, os.path.abspath(__file__), "--side", "--hands", str(hands), "--games", str(games),
           "--variants", ",".join(variants)]
    # as a script from a neutral folder: the same package as this process, pure
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tempfile.gettempdir())
    mine = digests(hands, games, variants)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"the pure side failed ({' '.join(cmd)}):\n{err}")
    pure = json.loads(out)
    lines = [f"{mine['build']} vs {pure['build']}: {hands} hands and {games} games per variant"]
    equal = True
    for name in variants:
        a, b = mine["variants"][name], pure["variants"][name]
        for what in ("hands", "games"):
            bad = [i for i, (x, y) in enumerate(zip(a[what], b[what])) if x != y]
            if bad or len(a[what]) != len(b[what]):
                equal = False
                first = bad[0] * BLOCK if bad else 0
                lines.append(f"  {name}: {what} differ from #{first} on (blocks of {BLOCK}: {bad})")
        lines.append(f"  {name}: {a['seconds']} s compiled, {b['seconds']} s pure")
    return equal, "\n".join(lines), mine, pure


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python tests/differential.py", description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10000, help="random winning hands per variant (default 10000)")
    ap.add_argument("--games", type=int, default=200, help="seeded bot games per variant (default 200)")
    ap.add_argument("--variants", default="", help="comma-separated variants (default: every packaged one)")
    ap.add_argument("--side", action="store_true", help="print this build's digests as JSON and stop")
    args = ap.parse_args(argv)
    if args.hands < 0 or args.games < 0:
        ap.error("--hands and --games are counts (0 or more)")
    from runtime.registry import UnknownVariant, load, packaged_names

    variants = [v for v in args.variants.split(",") if v] or packaged_names()
    try:
        for v in variants:
            load(v)
    except UnknownVariant as e:
        print(f"tests/differential.py: {e}", file=sys.stderr)
        return 2
    if args.side:
        json.dump(digests(args.hands, args.games, variants), sys.stdout)
        return 0
    import runtime

    if not runtime.build_info().startswith("compiled"):
        print(f"tests/differential.py: the compiled build is not what runs here ({runtime.build_info()}); "
              "install it with `python -m pip install .` and run this file as a script", file=sys.stderr)
        return 2
    equal, report, _, _ = compare(args.hands, args.games, variants)
    print(report)
    print("equal" if equal else "DIFFERENT")
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(main())
