"""Valuing a winning hand with a variant's fan table.

`WinContext`, `HandFacts` and `Arrangement` (runtime/hand_facts.py) say
what is being valued and are the `h` and `d` that fan conditions read. Every
arrangement of the hand (each decomposition, each reading of the winning
tile) is valued and the best one kept.
"""

from __future__ import annotations

from . import flat as fl
from . import hand as hm
from . import knitted as kn
from . import scoring_form
from .copying import replace
from .hand_facts import SET_CHOW, SET_PUNG, Arrangement, HandFacts, WinContext, _chow_reading  # noqa: F401  (their home before)
from .ruleset import FanSpec, Table
from .tiles import NUM_PLAYABLE

TYPE_CHECKING = False  # mypy reads the block below; `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Any, Final


_READING_ORDER: "Final" = {"edge": 0, "two_sided": 0, "closed": 1, "single": 2, "dual_pung": 3}


def _readings(pair: int, sets: tuple[tuple[int, int], ...], win: int) -> list[str]:
    """How the winning tile can be read in one split, chow readings first."""
    found = ["single"] if pair == win else []
    for kind, t in sets:
        if kind == SET_PUNG and t == win:
            reading = "dual_pung"
        elif kind == SET_CHOW and t <= win <= t + 2:
            reading = _chow_reading(t, win)
        else:
            continue
        if reading not in found:
            found.append(reading)
    return sorted(found, key=_READING_ORDER.__getitem__) if len(found) > 1 else found


def _split_arrangement(h: HandFacts, pair: int, sets: tuple[tuple[int, int], ...], reading: str,
                       extra_chows: int = 0) -> Arrangement:
    """One reading of a split of the concealed tiles; melds join its sets."""
    a = Arrangement()
    a.pair = pair
    a.sets = sets + h.meld_sets
    chows = 0
    for k, _ in sets:
        chows += k == SET_CHOW
    concealed_pungs = len(sets) - chows
    if reading == "dual_pung" and not h.self_drawn:
        concealed_pungs -= 1  # completed by a discard: not concealed
    a.chows = chows + h.meld_chows + extra_chows
    a.pungs = (len(sets) - chows) + h.meld_pungs + h.meld_kongs + h.special_kongs
    a.kongs = h.meld_kongs + h.special_kongs
    a.specials_outside = h.specials_outside
    a.concealed_pungs = concealed_pungs + h.concealed_kongs
    _read_as(a, reading)
    return a


def _read_as(a: Arrangement, reading: str) -> None:
    """Set the reading's flag (by name: a compiled class has no setattr fast path)."""
    if reading == "edge":
        a.edge = True
    elif reading == "two_sided":
        a.two_sided = True
    elif reading == "closed":
        a.closed = True
    elif reading == "single":
        a.single = True
    elif reading == "dual_pung":
        a.dual_pung = True
    elif reading:
        raise ValueError(f"unknown reading {reading!r}")


def _in_set_order(split) -> list:
    """A split's sets lowest tile first, a pung before a chow on one tile."""
    return sorted((t, kind != hm.PUNG) for kind, t in split[1])


def _standard_arrangements(h: HandFacts) -> list[Arrangement]:
    out = []
    splits: list[tuple[int, tuple[tuple[int, int], ...]]] = scoring_form.splitter()(h.full_concealed)
    if len(splits) > 1:
        splits = sorted(splits, key=_in_set_order)  # equal readings: the first is kept
    for pair, sets in splits:
        for reading in _readings(pair, sets, h.win_tile):
            a = _split_arrangement(h, pair, sets, reading)
            a.standard = True
            out.append(a)
    return out


def _knitted_arrangements(h: HandFacts) -> list[Arrangement]:
    """A knitted straight (read as three chows), one set and a pair."""
    out = []
    for straight, pair, sets in kn.decompositions(h.full_concealed, scoring_form.splitter()):
        readings = _readings(pair, sets, h.win_tile)
        if h.win_tile in straight:
            readings.append("")  # the winning tile completed the straight
        for reading in readings:
            a = _split_arrangement(h, pair, sets, reading, extra_chows=3)
            a.knitted = True
            out.append(a)
    return out


def arrangements(h: HandFacts) -> list[Arrangement]:
    """Every winning reading of the hand that the variant's shapes allow."""
    win = h.table.ruleset.winning
    out = []
    melds = h.ctx.melds
    full = h.full_concealed
    if win.standard:
        out.extend(_standard_arrangements(h))
    # each shape below is first ruled out by the kinds held where it can be
    # (no melds: the kinds are the concealed ones), as most hands are
    if not melds and win.seven_pairs and h.kinds <= 7 and hm.is_seven_pairs(full, win.quads_as_two_pairs):
        a = Arrangement()
        a.seven_pairs = True
        a.quads = sum(1 for c in full[:NUM_PLAYABLE] if c == 4)
        a.pair = next(t for t in range(NUM_PLAYABLE) if full[t])
        a.single = True
        out.append(a)
    if not melds and win.thirteen_orphans and h.kinds == 13 and hm.is_thirteen_orphans(full):
        a = Arrangement()
        a.thirteen_orphans = True
        a.pair = next(t for t in hm.ORPHANS if full[t] == 2)
        a.single = full[h.win_tile] == 2
        out.append(a)
    if not melds and win.honours_and_knitted and h.kinds == 14 and kn.honours_and_knitted(full):
        a = Arrangement()
        a.honours_knitted = True
        a.knitted = kn.full_straight(full)
        out.append(a)
    if len(melds) <= 1 and win.knitted_straight and h.number_suits == 3:
        out.extend(_knitted_arrangements(h))
    return out


class Valuation:
    def __init__(
        self,
        fans: list,
        total: int,
        arrangement: Arrangement | None = None,
        win_allowed: bool = True,
        why: str = "",
        facts: HandFacts | None = None,
        result: Any = None,
        history: str = "",
        uncapped: int = 0,
    ) -> None:
        self.fans = fans  # (FanSpec, value, count)
        self.total = total
        self.arrangement = arrangement
        self.win_allowed = win_allowed
        self.why = why
        self.facts = facts
        self.result = result  # the `r` of result expressions
        self.history = history  # the id of a win on discards, which examines no hand
        self.uncapped = uncapped  # the total before the variant's cap

    def __deepcopy__(self, memo: dict) -> "Valuation":
        """A finished valuation is a value, never changed once made: a deep
        copy (copy.deepcopy of a game) shares it."""
        return self

    def fan_json(self) -> list[dict]:
        return [
            {"id": f.id, "name": f.name.zh, "en": f.name.en, "value": v, "count": c} for f, v, c in self.fans
        ]

    def counted(self, fan_id: str) -> int:
        return sum(c for f, _, c in self.fans if f.id == fan_id)


class Result:
    """The `r` of result expressions: a valued hand, before any cap."""

    __slots__ = ("total", "counts")

    def __init__(self, total: int, counted: list[tuple[FanSpec, int, int]] | None = None):
        self.total = total
        counts: dict[str, int] = {}
        if counted is not None:
            for spec, _, n in counted:
                counts[spec.id] = n
        self.counts = counts


def combine(table: Table, counted: list[tuple[FanSpec, int, int]]) -> int:
    """The counted fans' values added or multiplied, before any cap."""
    if table.combine == "multiply":
        total = 1
        for _, value, count in counted:
            total *= value**count
        return total if counted else 0
    total = 0
    for _, value, count in counted:
        total += value * count
    return total


def _total(table: Table, h: HandFacts, counted: list) -> tuple[int, int]:
    """(total after the variant's final formula and cap, total before the cap)."""
    total = combine(table, counted)
    final = table.ruleset.scoring.final
    if final is not None:
        total = final(h, Result(total, counted), table.o)
    return (min(total, table.cap) if table.cap else total), total


def value_arrangement(table, h: HandFacts, d: Arrangement, ignore=frozenset(), cache=None) -> list:
    """The fans counted for one reading: [(FanSpec, value, count)]."""
    plan = table.fan_plan
    hits = _plain_hits(table, plan, h, d, ignore, cache)
    if d.sets:
        _set_hits(table, plan, h, d, ignore, hits)
    if plan.listed:
        counted = _listed(table, plan, hits)
    else:
        counted = _transitive(table, hits)
    if any(f.alone for f, _, _ in counted) and not all(f.alone or f.bonus for f, _, _ in counted):
        counted = [c for c in counted if not c[0].alone]  # counted only when nothing else is
    return counted


def _plain_hits(table, plan, h, d, ignore, cache) -> dict:
    """{fan index: (count, sets used)} for fans read from conditions: the
    hand's once per hand (kept in `cache`), the arrangement's each time."""
    scoring = table.ruleset.scoring
    found = cache.get("hand") if cache is not None else None
    if found is None:
        found = scoring.fans_of_hand(h, table.o)
        if cache is not None:
            cache["hand"] = found
    hits = {i: (n, ()) for i, n in found}
    for i, n in scoring.fans_of_arrangement(h, d, table.o):
        hits[i] = (n, ())
    if ignore:
        fans = table.fans
        hits = {i: hit for i, hit in hits.items() if fans[i].id not in ignore}
    return hits


def _set_hits(table, plan, h, d, ignore, hits) -> None:
    """Add fans over groups of sets and fans counted per set."""
    fans = table.fans
    chows: list = []
    pungs: list = []
    for pos, (k, t) in enumerate(d.sets):
        (chows if k == hm.CHOW else pungs).append((t, pos))
    for kind, engine in plan.set_engines:
        keyed = chows if kind == plan.chow_kind else pungs
        if len(keyed) < 2:
            continue
        keyed.sort()
        for i, group in engine.count(tuple(t for t, _ in keyed)):
            if ignore and fans[i].id in ignore:
                continue
            n, used = hits.get(i, (0, ()))
            hits[i] = (n + 1, used + tuple(keyed[g][1] for g in group))
    for i, kind, tiles_of in plan.each:
        if ignore and fans[i].id in ignore:
            continue
        tiles = tiles_of(h, d, table.o)
        used = tuple(pos for t, pos in (chows if kind == plan.chow_kind else pungs) if t in tiles)
        if used:
            hits[i] = (len(used), used)


def _transitive(table, hits) -> list:
    """A hit fan excludes its exclusions (closed under exclusion) whether
    or not it is itself counted."""
    fans = table.fans
    excluded = set()
    for i in hits:
        excluded.update(fans[i].excludes)
    return [(fans[i], table.fan_values[i], n) for i, (n, _) in sorted(hits.items()) if fans[i].id not in excluded]


def _listed(table, plan, hits) -> list:
    """Only counted fans exclude, and exactly what they list (不计): whole
    fans, n counts of a fan, or a per-set fan on their own sets."""
    fans = table.fans
    excluded: set = set()
    less: dict = {}
    on_sets: dict = {}
    counted = []
    for i in sorted(hits, key=plan.position.__getitem__):
        if fans[i].id in excluded:
            continue
        fan = fans[i]
        counted.append(i)
        excluded.update(fan.excludes)
        for fid, n in fan.excludes_times:
            less[fid] = less.get(fid, 0) + n
        for fid in fan.excludes_sets:
            on_sets.setdefault(fid, set()).update(hits[i][1])
    out = []
    for i in sorted(counted):
        fan = fans[i]
        n, used = hits[i]
        if fan.id in on_sets:
            n = sum(1 for pos in used if pos not in on_sets[fan.id])
        n -= less.get(fan.id, 0)
        if n > 0:
            out.append((fan, table.fan_values[i], n))
    return out


def _best(table: Table, h: HandFacts, ignore: frozenset, shapeless: bool = False) -> Valuation | None:
    readings = arrangements(h)
    if not readings:
        if not shapeless:
            return None
        readings = [Arrangement()]  # a win that needs no shape: only hand facts
    scoring = table.ruleset.scoring
    flat, find_hand, find = scoring.flat, scoring.flat_fans_of_hand, scoring.flat_fans_of_arrangement
    # a ruleset compiled without the fast form is scored by the readable one
    if scoring_form.readable() or flat is None or find_hand is None or find is None:
        cache: dict = {}
        return _best_of(table, h, [(d, value_arrangement(table, h, d, ignore, cache)) for d in readings])
    skip = fl.ignore_mask(table, flat, ignore) if ignore else 0
    hand_many: dict[int, int] = {}
    hand_bits: int = find_hand(h, table.o, hand_many)
    return _best_of(table, h, [(d, fl.value_flat(table, flat, find, h, d, skip, hand_bits, hand_many)) for d in readings])


def _best_of(table: Table, h: HandFacts, valued: list[tuple[Arrangement, list]]) -> Valuation | None:
    """The reading with the highest total (then the highest before the cap;
    then one counting a preferred fan); the first of equals."""
    best: Valuation | None = None
    prefer = table.fan_plan.prefer
    for d, counted in valued:
        total, uncapped = _total(table, h, counted)
        better = best is None or (total, uncapped) > (best.total, best.uncapped)
        if not better and best is not None and prefer and (total, uncapped) == (best.total, best.uncapped):
            better = _prefers(prefer, counted) and not _prefers(prefer, best.fans)
        if better:
            best = Valuation(counted, total, d)
            best.uncapped = uncapped
            best.facts = h
    return best


def _prefers(prefer, counted) -> bool:
    return any(f.id in prefer for f, _, _ in counted)


def _with_jokers(table, ctx: WinContext, ignore, shapeless: bool, wild_tiles: int) -> Valuation | None:
    """Every wild counted as the tile that scores best: the best valuation
    over the concrete hands the wilds can make."""
    from . import jokers as jk
    from .analysis import split_wilds

    full = list(ctx.concealed)
    full[ctx.win_tile] = full[ctx.win_tile] + 1
    plain, n = split_wilds(full, table.wilds)
    win = table.ruleset.winning
    kinds = table.tile_kinds
    candidates = []
    if win.standard:
        candidates += jk.completions(plain, n, kinds)
    if not ctx.melds and win.seven_pairs:
        candidates += jk.seven_pairs_completions(plain, n, kinds, win.quads_as_two_pairs)
    if not ctx.melds and win.thirteen_orphans and jk.thirteen_orphans_complete(plain, n):
        candidates += _orphan_completions(plain)
    best = None
    for concrete in candidates:
        if ctx.win_tile in table.wilds:
            win_tiles = sorted({t for t in range(len(concrete)) if concrete[t] > plain[t]})
        else:
            win_tiles = [ctx.win_tile]
        for wt in win_tiles:
            concealed = list(concrete) + [0] * (len(ctx.concealed) - len(concrete))
            concealed[wt] = concealed[wt] - 1
            h = HandFacts(replace(ctx, concealed=concealed, win_tile=wt), table, wild_tiles)
            v = _best(table, h, ignore)
            if v is not None and (best is None or (v.total, v.uncapped) > (best.total, best.uncapped)):
                best = v
    if best is None and shapeless:
        best = _best(table, HandFacts(ctx, table, wild_tiles), ignore, shapeless=True)
    return best


def _orphan_completions(plain: list) -> list[list]:
    from .hand import ORPHANS

    out = []
    for pair in ORPHANS:
        full = list(plain[:NUM_PLAYABLE])
        for t in ORPHANS:
            full[t] = max(full[t], 1)
        full[pair] = 2
        out.append(full)
    return out


def evaluate(table: Table, ctx: WinContext, ignore: frozenset = frozenset(), shapeless: bool = False,
             readable: bool | None = None) -> Valuation | None:
    """The best valuation of a complete hand, or None if it does not win.
    `shapeless`: the hand may win without a shape (a win on wild tiles).
    `readable`: score with the readable form of the fan table rather than
    the fast one (default: as `scoring_form` says)."""
    if readable is None or readable == scoring_form.readable():
        return _evaluate(table, ctx, ignore, shapeless)
    # the splits and wait searches read the form too: hold it for this one call
    before = scoring_form.set_readable(readable)
    try:
        return _evaluate(table, ctx, ignore, shapeless)
    finally:
        scoring_form.set_readable(before)


def _evaluate(table: Table, ctx: WinContext, ignore: frozenset, shapeless: bool) -> Valuation | None:
    wild_tiles = 0
    if table.wilds:
        wild_tiles = sum(ctx.concealed[t] for t in table.wilds) + (ctx.win_tile in table.wilds)
        wild_tiles += sum(1 for m in ctx.melds for t in m.tiles if t in table.wilds)
        in_hand = sum(ctx.concealed[t] for t in table.wilds) + (ctx.win_tile in table.wilds)
        best = _with_jokers(table, ctx, ignore, shapeless, wild_tiles) if in_hand else None
        if not in_hand:
            best = _best(table, HandFacts(ctx, table, wild_tiles), ignore, shapeless)
    else:
        best = _best(table, HandFacts(ctx, table), ignore, shapeless)
    if best is None:
        return None
    allowed = table.ruleset.winning.allowed
    result = Result(best.uncapped, best.fans)
    if allowed is not None and not allowed(best.facts, result, table.o):
        best.win_allowed = False
        best.why = table.ruleset.winning.why_not.both() or "the variant does not allow this win"
    best.result = result
    return best
