"""PyMahjongGB (`pip install pymahjonggb`, a C++ MCR calculator) beside our
compiled `mcr` module: random winning hands in hand JSON, the same hand as
PyMahjongGB's call, and both results as comparable fan lists.

Used by tests/test_mcr_differential.py and by the MCR scoring benchmark;
`python -m benchmarks.pymahjonggb --hands 100000` compares a large sample.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

# PyMahjongGB's own spellings of three fans (shared/spec/notation.md).
THEIR_NAMES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}

SUITS = "mps"
WINDS = ["1z", "2z", "3z", "4z"]
DRAGONS = ["5z", "6z", "7z"]
HONOURS = WINDS + DRAGONS
ORPHANS = ["1m", "9m", "1p", "9p", "1s", "9s"] + HONOURS


def available() -> bool:
    try:
        import MahjongGB  # noqa: F401
    except ImportError:
        return False
    return True


# ---------------------------------------------------------------- random hands


def _number(rng, suit: str, lo: int = 1, hi: int = 9) -> str:
    return f"{rng.randint(lo, hi)}{suit}"


def _set(rng, main: str) -> tuple[str, list[str]]:
    """A random chow or pung, often in the hand's main suit, so that the
    fans over several sets come up."""
    suit = main if rng.random() < 0.6 else rng.choice(SUITS)
    roll = rng.random()
    if roll < 0.5:
        start = rng.randint(1, 7)
        return "chow", [f"{start + i}{suit}" for i in range(3)]
    tile = rng.choice(HONOURS) if rng.random() < 0.25 else _number(rng, suit)
    return "pung", [tile] * 3


def _fits(tiles: list[str]) -> bool:
    return max(Counter(tiles).values()) <= 4


def _standard(rng) -> dict | None:
    main = rng.choice(SUITS)
    sets = [_set(rng, main) for _ in range(4)]
    pair = rng.choice(HONOURS) if rng.random() < 0.3 else _number(rng, main if rng.random() < 0.6 else rng.choice(SUITS))
    return _arrange(rng, sets, pair, kong_chance=0.15)


def _chows(starts, suits=SUITS) -> list:
    return [("chow", [f"{r + i}{s}" for i in range(3)]) for s in suits for r in starts]


def _pungs(tiles) -> list:
    return [("pung", [t] * 3) for t in tiles]


# Pools of sets that make the rarer fans likely: (sets, pair tiles).
_THEMES = (
    (_pungs(HONOURS) + _chows(range(1, 8)), HONOURS),
    (_pungs(["1m", "9m", "1p", "9p", "1s", "9s"] + HONOURS), ORPHANS),
    (_pungs(["1m", "9m", "1p", "9p", "1s", "9s"]) + _chows((1, 7)), ["1m", "9m", "1p", "9p", "1s", "9s", "5m", "5p", "5s"]),
    (_pungs([f"{r}{s}" for s in SUITS for r in (2, 4, 6, 8)]), [f"{r}{s}" for s in SUITS for r in (2, 4, 6, 8)]),
    (_pungs([f"{r}{s}" for s in SUITS for r in (4, 5, 6)]) + _chows((4,)), [f"{r}{s}" for s in SUITS for r in (4, 5, 6)]),
    (_pungs([f"{r}{s}" for s in SUITS for r in (7, 8, 9)]) + _chows((7,)), [f"{r}{s}" for s in SUITS for r in (7, 8, 9)]),
    (_pungs([f"{r}{s}" for s in SUITS for r in (1, 2, 3)]) + _chows((1,)), [f"{r}{s}" for s in SUITS for r in (1, 2, 3)]),
    (_pungs([f"{r}{s}" for s in SUITS for r in (3, 4, 5)]) + _chows((3, 4, 5)), [f"{r}{s}" for s in SUITS for r in (3, 5)]),
    (_pungs(["2s", "3s", "4s", "6s", "8s", "6z"]) + _chows((2,), "s"), ["2s", "3s", "4s", "6s", "8s", "6z"]),
    (_chows(range(1, 8), "m") + _pungs([f"{r}m" for r in range(1, 10)]), [f"{r}m" for r in range(1, 10)]),
    (_chows((1, 7)), ["5m", "5p", "5s"]),
    (_pungs(HONOURS), HONOURS),
)


def _themed(rng) -> dict | None:
    pool, pairs = rng.choice(_THEMES)
    sets = [rng.choice(pool) for _ in range(4)]
    return _arrange(rng, sets, rng.choice(pairs), kong_chance=rng.choice((0.0, 0.2, 0.9)))


def _arrange(rng, sets: list, pair_tile: str, kong_chance: float) -> dict | None:
    """Lay some sets down as melds (pungs sometimes as kongs)."""
    everything = [t for _, ts in sets for t in ts] + [pair_tile] * 2
    meld_chance = rng.choice((0.0, 0.0, 0.25, 0.5, 1.0))
    melds, concealed = [], [pair_tile, pair_tile]
    for kind, ts in sets:
        if kind == "pung" and rng.random() < kong_chance:  # a kong, exposed or concealed
            everything.append(ts[0])
            melds.append({"type": "kong", "tiles": [ts[0]] * 4, "exposed": rng.random() < 0.5})
        elif rng.random() < meld_chance:
            melds.append({"type": kind, "tiles": ts, "exposed": True})
        else:
            concealed.extend(ts)
    if not _fits(everything):
        return None
    return _finish(rng, concealed, melds)


def _seven_pairs(rng) -> dict | None:
    if rng.random() < 0.3:  # seven shifted pairs
        suit, lo = rng.choice(SUITS), rng.randint(1, 3)
        kinds = [f"{lo + i}{suit}" for i in range(7)]
    else:
        pool = [f"{r}{s}" for s in rng.sample(SUITS, rng.randint(1, 3)) for r in range(1, 10)] + HONOURS
        kinds = [rng.choice(pool) for _ in range(7)]
    tiles = [t for k in kinds for t in (k, k)]
    return _finish(rng, tiles, []) if _fits(tiles) else None


def _thirteen_orphans(rng) -> dict | None:
    return _finish(rng, ORPHANS + [rng.choice(ORPHANS)], [])


def _knitted_tiles(rng) -> list[str]:
    order = rng.sample(SUITS, 3)
    return [f"{r}{suit}" for i, suit in enumerate(order) for r in (1 + i, 4 + i, 7 + i)]


def _honours_and_knitted(rng) -> dict | None:
    numbers = _knitted_tiles(rng)
    n = rng.randint(7, 9)
    tiles = rng.sample(numbers, n) + rng.sample(HONOURS, 14 - n)
    return _finish(rng, tiles, []) if 14 - n <= 7 else None


def _knitted_straight(rng) -> dict | None:
    kind, ts = _set(rng, rng.choice(SUITS))
    pair = rng.choice(HONOURS + [_number(rng, rng.choice(SUITS))])
    straight = _knitted_tiles(rng)
    if rng.random() < 0.3:
        melds, concealed = [{"type": kind, "tiles": ts, "exposed": True}], straight + [pair, pair]
    else:
        melds, concealed = [], straight + ts + [pair, pair]
    everything = straight + ts + [pair, pair]
    return _finish(rng, concealed, melds) if _fits(everything) else None


def _nine_gates(rng) -> dict | None:
    suit = rng.choice(SUITS)
    tiles = [f"{r}{suit}" for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)] + [_number(rng, suit)]
    return _finish(rng, tiles, [])


_SHAPES = (
    (_standard, 60), (_themed, 20), (_seven_pairs, 7), (_thirteen_orphans, 2), (_honours_and_knitted, 3),
    (_knitted_straight, 5), (_nine_gates, 3),
)


def _finish(rng, concealed: list[str], melds: list[dict]) -> dict:
    """Pick the winning tile among the concealed ones, and the win's flags."""
    concealed = list(concealed)
    win = concealed.pop(rng.randrange(len(concealed)))
    rng.shuffle(concealed)
    self_drawn = rng.random() < 0.4
    has_kong = any(m["type"] == "kong" for m in melds)
    flags = {"last_copy": rng.random() < 0.15}
    roll = rng.random()
    if roll < 0.1:
        flags["last_tile"] = True
    elif roll < 0.2 and (not self_drawn or has_kong):
        flags["kong_replacement" if self_drawn else "robbing_kong"] = True
    return {
        "concealed": concealed,
        "melds": melds,
        "win_tile": win,
        "self_drawn": self_drawn,
        "seat_wind": rng.choice(WINDS),
        "round_wind": rng.choice(WINDS),
        "flowers": rng.choice((0, 0, 0, 1, 2, 3, 8)),
        "flags": flags,
    }


def random_hand(rng: random.Random) -> dict:
    """A random winning hand of any MCR shape, in hand JSON."""
    makers, weights = zip(*_SHAPES)
    while True:
        hand = rng.choices(makers, weights)[0](rng)
        if hand is not None:
            return hand


# ---------------------------------------------------------------- PyMahjongGB


def _code(tile: str) -> str:
    rank, suit = tile[0], tile[1]
    if suit == "z":
        n = int(rank)
        return f"F{n}" if n <= 4 else f"J{8 - n}"  # their dragons run Red, Green, White
    return {"m": "W", "s": "T", "p": "B"}[suit] + rank


def their_call(hand: dict) -> dict:
    """The keyword arguments of MahjongGB.MahjongFanCalculator for a hand."""
    packs = []
    for m in hand["melds"]:
        tiles = sorted(m["tiles"], key=lambda t: (t[1], t[0]))
        if m["type"] == "chow":
            packs.append(("CHI", _code(tiles[1]), 1))
        elif m["type"] == "pung":
            packs.append(("PENG", _code(tiles[0]), 1))
        else:
            packs.append(("GANG", _code(tiles[0]), 1 if m.get("exposed", True) else 0))
    flags = hand.get("flags", {})
    flowers = hand.get("flowers", 0)
    return {
        "pack": tuple(packs),
        "hand": tuple(_code(t) for t in hand["concealed"]),
        "winTile": _code(hand["win_tile"]),
        "flowerCount": flowers if isinstance(flowers, int) else len(flowers),
        "isSelfDrawn": hand["self_drawn"],
        "is4thTile": flags.get("last_copy", False),
        "isAboutKong": flags.get("kong_replacement", False) or flags.get("robbing_kong", False),
        "isWallLast": flags.get("last_tile", False),
        "seatWind": int(hand["seat_wind"][0]) - 1,
        "prevalentWind": int(hand["round_wind"][0]) - 1,
        "verbose": True,
    }


def theirs(hand: dict) -> tuple[list, int] | None:
    """PyMahjongGB's ([(name, count)], total) for a hand; None if it says
    the hand does not win."""
    from MahjongGB import MahjongFanCalculator

    try:
        found = MahjongFanCalculator(**their_call(hand))
    except TypeError:
        return None
    fans = [(THEIR_NAMES.get(name, name), count) for value, count, name, _ in found]
    return fans, sum(value * count for value, count, _, _ in found)


def ours(ruleset, hand: dict, cache: dict) -> tuple[list, int] | None:
    from mjc.handjson import score_hand

    out = score_hand(hand, ruleset, cache)
    if not out["ok"]:
        return None
    return [(f["name"], f["count"]) for f in out["fans"]], out["total"]


def compare(ruleset, hand: dict, cache: dict) -> tuple | None:
    """None when both agree fan by fan, else (ours, theirs)."""
    a, b = ours(ruleset, hand, cache), theirs(hand)
    if a is None or b is None:
        return None if a == b else (a, b)
    if sorted(a[0]) == sorted(b[0]) and a[1] == b[1]:
        return None
    return a, b


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=10, help="disagreements to print")
    args = parser.parse_args(argv)
    if not available():
        print("PyMahjongGB is not installed: pip install pymahjonggb", file=sys.stderr)
        return 2
    from runtime.registry import load

    ruleset, cache = load("mcr"), {}
    rng = random.Random(args.seed)
    shown = differ = 0
    for _ in range(args.hands):
        hand = random_hand(rng)
        d = compare(ruleset, hand, cache)
        if d is not None:
            differ += 1
            if shown < args.show:
                shown += 1
                print(hand, "\n  ours  ", d[0], "\n  theirs", d[1])
    print(f"{args.hands - differ} of {args.hands} hands agree ({differ} differ)")
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
