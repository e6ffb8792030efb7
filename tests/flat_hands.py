"""Random hand JSON for any compiled variant, winning or nearly so: the
inputs of the fast-form/readable-form differential test.

Hands are built from the variant's own tiles: standard shapes of sets and
a pair (some sets laid down as melds, kongs exposed or concealed), seven
pairs, the MCR generator's special shapes where the tiles allow, wild tiles
where the variant has them, and now and then a broken hand that wins
nothing. Flags, winds and flowers are drawn at random, so fans of the win's
context come up too.
"""

from __future__ import annotations

import random

from benchmarks import pymahjonggb as mcr_hands
from mjc.handjson import COUNT_FLAGS, FLAGS, HandError, hand_table, parse_hand
from runtime.tiles import NAMES


def _sets(kinds: list[int], rng: random.Random, n: int, left: dict[int, int]) -> list[tuple[str, list[int]]] | None:
    out = []
    for _ in range(n):
        chows = [t for t in kinds if t < 27 and t % 9 <= 6 and left.get(t, 0) and left.get(t + 1, 0) and left.get(t + 2, 0)]
        pungs = [t for t in kinds if left.get(t, 0) >= 3]
        if chows and (not pungs or rng.random() < 0.55):
            t = rng.choice(chows)
            group = ("chow", [t, t + 1, t + 2])
        elif pungs:
            t = rng.choice(pungs)
            group = ("pung", [t, t, t])
        else:
            return None
        for x in group[1]:
            left[x] -= 1
        out.append(group)
    return out


def _standard(table, kinds: list[int], rng: random.Random) -> dict | None:
    left = {t: table.ruleset.copies for t in kinds}
    if rng.random() < 0.4:  # a hand of few suits, so that flushes come up
        suit = rng.randrange(3)
        narrow = [t for t in kinds if t // 9 == suit or (t >= 27 and rng.random() < 0.3)]
        kinds = narrow if len(narrow) >= 5 else kinds
    sets = _sets(kinds, rng, table.sets, left)
    pairs = [t for t in kinds if left[t] >= 2]
    if sets is None or not pairs:
        return None
    pair = rng.choice(pairs)
    concealed, melds = [pair, pair], []
    for kind, tiles in sets:
        roll = rng.random()
        if kind == "pung" and roll < 0.15 and left[tiles[0]] >= 1:
            left[tiles[0]] -= 1
            melds.append({"type": "kong", "tiles": [NAMES[tiles[0]]] * 4, "exposed": rng.random() < 0.5})
        elif roll < 0.3 and (kind == "pung" or table.chow):
            melds.append({"type": kind, "tiles": [NAMES[t] for t in tiles], "exposed": True})
        else:
            concealed += tiles
    return _finish(table, rng, concealed, melds)


def _seven_pairs(table, kinds: list[int], rng: random.Random) -> dict | None:
    if table.sets != 4:
        return None
    chosen = rng.sample(kinds, 7) if rng.random() < 0.7 else [rng.choice(kinds) for _ in range(7)]
    tiles = [t for k in chosen for t in (k, k)]
    if max(tiles.count(t) for t in tiles) > table.ruleset.copies:
        return None
    return _finish(table, rng, tiles, [])


def _mcr_shape(table, kinds: list[int], rng: random.Random) -> dict | None:
    """One of the MCR generator's shapes (knitted, orphans, nine gates ...),
    when every tile of it is the variant's."""
    if table.sets != 4:
        return None
    hand = mcr_hands.random_hand(rng)
    names = hand["concealed"] + [hand["win_tile"]] + [t for m in hand["melds"] for t in m["tiles"]]
    allowed = {NAMES[t] for t in kinds}
    if not set(names) <= allowed:
        return None
    hand["flowers"] = 0
    return _playable(table, hand, rng)


def _finish(table, rng: random.Random, concealed: list[int], melds: list[dict]) -> dict | None:
    concealed = list(concealed)
    if table.wilds and rng.random() < 0.5:  # some tiles become wild tiles
        wilds = sorted(table.wilds)
        for _ in range(rng.randint(1, 3)):
            concealed[rng.randrange(len(concealed))] = rng.choice(wilds)
    if rng.random() < 0.05:  # a hand that wins nothing
        concealed[rng.randrange(len(concealed))] = rng.choice(sorted(table.kind_set))
    win = concealed.pop(rng.randrange(len(concealed)))
    rng.shuffle(concealed)
    flags: dict = {}
    for flag in sorted(FLAGS):
        if rng.random() < 0.08:
            flags[flag] = rng.randint(1, min(COUNT_FLAGS[flag], 3)) if flag in COUNT_FLAGS else True
    winds = [t for t in range(27, 31) if t in table.kind_set] or [27]
    hand = {
        "concealed": [NAMES[t] for t in concealed],
        "melds": melds,
        "win_tile": NAMES[win],
        "self_drawn": rng.random() < 0.45,
        "seat_wind": NAMES[rng.choice(winds)],
        "round_wind": NAMES[rng.choice(winds)],
        "flags": flags,
    }
    if any(t >= 34 for t in table.kind_set):
        hand["flowers"] = rng.choice((0, 0, 1, 2, 3))
    return _playable(table, hand, rng)


def _playable(table, hand: dict, rng: random.Random) -> dict | None:
    """The hand with flags dropped until the table accepts it (flags that
    contradict the win or the table are refused before any scoring)."""
    while True:
        try:
            parse_hand(hand, hand_table(hand, table))
            return hand
        except HandError:
            if not hand["flags"]:
                return None
            del hand["flags"][rng.choice(sorted(hand["flags"]))]


def random_hand(table, rng: random.Random) -> dict:
    """A random hand JSON object for `table`'s variant."""
    kinds = sorted(t for t in table.kind_set if t < 34 and t not in table.wilds)
    makers = ((_standard, 80), (_seven_pairs, 10), (_mcr_shape, 10))
    fns, weights = zip(*makers)
    while True:
        hand = rng.choices(fns, weights)[0](table, kinds, rng)
        if hand is not None:
            return hand
