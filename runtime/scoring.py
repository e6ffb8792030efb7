"""Valuing a winning hand with a variant's fan table.

`WinContext` says what is being valued (the same whether it comes from a
game, a hand JSON line or a ready check). `HandFacts` and `Arrangement`
are the `h` and `d` objects that compiled fan conditions read. Every
arrangement of the hand (each decomposition, each reading of the winning
tile) is valued and the best one kept.
"""

from __future__ import annotations

from . import flat as fl
from . import hand as hm
from . import knitted as kn
from . import scoring_form
from .copying import replace
from .melds import ADDED, CHOW, CONCEALED, KONG, PUNG, SPECIAL, Meld
from .tiles import NUM_PLAYABLE

TYPE_CHECKING = False  # mypy reads the block below; `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Any


class WinContext:
    def __init__(
        self,
        concealed: list,
        melds: list,
        win_tile: int,
        self_drawn: bool,
        robbing_kong: bool = False,
        kong_replacement: bool = False,
        kong_chain: int = 0,
        after_kong_discard: bool = False,
        last_tile: bool = False,
        last_copy: bool = False,
        first_turn: bool = False,
        first_discard: bool = False,
        is_dealer: bool = False,
        discarder_is_dealer: bool = False,
        declared_ready: bool = False,
        seat_wind: int = 27,
        round_wind: int = 27,
        flowers: int = 0,
        flowers_aside: tuple = (),
        players: int = 4,
        first_draw: bool = False,
        flower_replacement: bool = False,
        game_claims: int = 0,
        game_melds: int = -1,
        declared_at_opening: bool = False,
        doublings: int = 0,
        choices: dict | None = None,
    ) -> None:
        self.concealed = concealed  # counts (42) of the concealed tiles, winning tile excluded
        self.melds = melds  # Meld
        self.win_tile = win_tile
        self.self_drawn = self_drawn
        self.robbing_kong = robbing_kong
        self.kong_replacement = kong_replacement
        self.kong_chain = kong_chain
        self.after_kong_discard = after_kong_discard
        self.last_tile = last_tile
        self.last_copy = last_copy
        self.first_turn = first_turn
        self.first_discard = first_discard
        self.is_dealer = is_dealer
        self.discarder_is_dealer = discarder_is_dealer
        self.declared_ready = declared_ready
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.flowers = flowers
        self.flowers_aside = flowers_aside  # the flowers set aside, where known (hand JSON may give only their number)
        self.players = players
        self.first_draw = first_draw  # self-drawn with the winner's first tile, before his first discard
        self.flower_replacement = flower_replacement  # self-drawn on the replacement of a flower
        self.game_claims = game_claims  # chows, pungs and exposed kongs claimed by anyone before the win
        self.game_melds = game_melds  # sets laid down by anyone before the win; -1: the winner's own
        self.declared_at_opening = declared_at_opening
        self.doublings = doublings  # wins the winner deferred to double (加倍)
        self.choices: dict = {} if choices is None else choices  # the winner's declarations (declaration id -> value)


class HandFacts:
    """The `h` of fan conditions: facts of the whole hand and the win."""

    def __init__(self, ctx: WinContext, table, wild_tiles: int = 0):
        self.ctx = ctx
        self.table = table
        self.wilds = wild_tiles
        self.self_drawn = ctx.self_drawn
        self.win_tile = ctx.win_tile
        self.robbing_kong = ctx.robbing_kong
        self.kong_replacement = ctx.kong_replacement
        self.kong_chain = ctx.kong_chain if ctx.kong_replacement else 0
        self.after_kong_discard = ctx.after_kong_discard
        self.last_tile = ctx.last_tile
        self.last_copy = ctx.last_copy
        self.first_turn = ctx.first_turn
        self.first_discard = ctx.first_discard and not ctx.self_drawn
        self.is_dealer = ctx.is_dealer
        self.discarder_is_dealer = ctx.discarder_is_dealer and not ctx.self_drawn
        self.declared_ready = ctx.declared_ready
        self.seat_wind = ctx.seat_wind
        self.round_wind = ctx.round_wind
        self.flowers = ctx.flowers
        self.flowers_aside = frozenset(ctx.flowers_aside)
        self.players = ctx.players
        self.first_draw = ctx.first_draw and ctx.self_drawn
        self.flower_replacement = ctx.flower_replacement and ctx.self_drawn
        self.declared_at_opening = ctx.declared_at_opening
        self.doublings = ctx.doublings
        self.choices = ctx.choices

        full = list(ctx.concealed)
        full[ctx.win_tile] += 1
        self.full_concealed = full
        self.completes_quad = full[ctx.win_tile] == 4
        melds = ctx.melds
        self.melds = len(melds)
        claimed = chows = pungs = kongs = concealed_kongs = added_kongs = 0
        specials = special_kongs = 0
        specials_outside = True
        by_id = getattr(table, "special_by_id", {})
        everything = list(full)
        kong_tiles = set()
        for m in melds:
            claimed += m.claimed_from_other
            if m.type == CHOW:
                chows += 1
            elif m.type == PUNG:
                pungs += 1
            elif m.type == SPECIAL:
                # a special set (`special_sets`): a kong among the sets, or a set of its own
                specials += 1
                special_kongs += getattr(by_id.get(m.kind), "counts_as", "set") == "kong"
                specials_outside = specials_outside and any(t >= 27 or t % 9 in (0, 8) for t in m.group)
            else:
                kongs += 1
                kong_tiles.add(m.tile)
                concealed_kongs += m.kind == CONCEALED
                added_kongs += m.kind == ADDED
            for t in m.tiles:
                everything[t] += 1
        self.claimed_melds = claimed
        self.concealed = claimed == 0
        self.meld_chows, self.meld_pungs, self.meld_kongs = chows, pungs, kongs
        self.concealed_kongs, self.added_kongs = concealed_kongs, added_kongs
        self.exposed_kongs = kongs - concealed_kongs
        self.meld_sets = tuple((hm.CHOW if m.type == CHOW else hm.PUNG, m.tile) for m in melds if m.type != SPECIAL)
        self.special_sets, self.special_kongs, self.specials_outside = specials, special_kongs, specials_outside
        self.game_melds = ctx.game_melds if ctx.game_melds >= 0 else len(melds)
        self.game_claims = max(ctx.game_claims, claimed)

        self.all_counts = everything
        present = [t for t in range(NUM_PLAYABLE) if everything[t]]
        self.present = frozenset(present)
        self.kinds = len(present)
        # one pass over the kinds held: this runs once per hand scored
        quads = hogs = honours = terminals = suits = 0
        low, high = 9, -1
        for t in present:
            c = everything[t]
            if full[t] == 4:
                quads += 1
            if c == 4 and t not in kong_tiles:
                hogs += 1
            if t >= 27:
                honours += c
                continue
            r = t % 9
            if r < low:
                low = r
            if r > high:
                high = r
            suits |= 1 << (t // 9)
            if r == 0 or r == 8:
                terminals += c
        self.concealed_quads, self.hogs, self.honours, self.terminals = quads, hogs, honours, terminals
        self.rank_span = high - low if high >= 0 else 0
        self.number_suits = (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1)
        self._wait_count: int | None = None
        self._shape_wait_count: int | None = None
        self._readings: frozenset | None = None

    @property
    def readings(self) -> frozenset:
        """How some split of the hand reads the winning tile: closed, edge,
        single, two_sided, dual_pung (standard splits only)."""
        if self._readings is None:
            found = set()
            win = self.win_tile
            for pair, sets in scoring_form.splitter()(self.full_concealed):
                if pair == win:
                    found.add("single")
                for kind, t in sets:
                    if kind == hm.PUNG and t == win:
                        found.add("dual_pung")
                    elif kind == hm.CHOW and t <= win <= t + 2:
                        found.add(_chow_reading(t, win))
            self._readings = frozenset(found)
        return self._readings

    @property
    def can_be_closed(self) -> bool:
        return "closed" in self.readings

    @property
    def can_be_edge(self) -> bool:
        return "edge" in self.readings

    @property
    def can_be_single(self) -> bool:
        return "single" in self.readings

    def count(self, tile: int) -> int:
        return self.all_counts[tile]

    def flowers_held(self, tiles) -> int:
        return len(self.flowers_aside & tiles)

    @property
    def own_flowers(self) -> int:
        """The flowers carrying the seat wind's number (East 1f 5f ...)."""
        return sum(1 for t in self.flowers_aside if (t - 34) % 4 == self.seat_wind - 27)

    @property
    def flower_sets(self) -> int:
        return sum(1 for group in getattr(self.table, "flower_sets", ()) if group <= self.flowers_aside)

    @property
    def own_flowers_outside_sets(self) -> int:
        complete = [g for g in getattr(self.table, "flower_sets", ()) if g <= self.flowers_aside]
        return sum(1 for t in self.flowers_aside
                   if (t - 34) % 4 == self.seat_wind - 27 and not any(t in g for g in complete))

    def suit_count(self, suit: str) -> int:
        from .facts import _suit_count

        return _suit_count(self.all_counts, suit)

    def concealed_copies(self, tile: int) -> int:
        return self.full_concealed[tile]

    def meld_copies(self, tile: int) -> int:
        return self.all_counts[tile] - self.full_concealed[tile]

    def kinds_in(self, tiles) -> int:
        return len(self.present & tiles)

    def only(self, tiles) -> bool:
        return self.present <= tiles

    def any(self, tiles) -> bool:
        return not self.present.isdisjoint(tiles)

    @property
    def wait_count(self) -> int:
        if self._wait_count is None:
            from .analysis import waits

            self._wait_count = len(waits(self.table, self.ctx.concealed, self.ctx.melds))
        return self._wait_count

    @property
    def shape_wait_count(self) -> int:
        if self._shape_wait_count is None:
            from .analysis import shape_waits

            self._shape_wait_count = len(shape_waits(self.table, self.ctx.concealed, self.ctx.melds, fifth_copy=True))
        return self._shape_wait_count


class Arrangement:
    """The `d` of fan conditions: one way of reading the hand."""

    __slots__ = (
        "standard", "seven_pairs", "thirteen_orphans", "honours_knitted", "knitted", "quads", "chows", "pungs",
        "kongs", "concealed_pungs", "pair", "sets", "closed", "edge", "single", "two_sided", "dual_pung", "_outside",
        "specials_outside",
    )

    def __init__(self):
        self.standard = self.seven_pairs = self.thirteen_orphans = self.honours_knitted = self.knitted = False
        self.quads = self.chows = self.pungs = self.kongs = self.concealed_pungs = 0
        self.pair = -1
        self.sets = ()
        self.closed = self.edge = self.single = self.two_sided = self.dual_pung = False
        self._outside = None
        self.specials_outside = True  # every special set laid down holds a terminal or an honour

    @property
    def all_outside(self) -> bool:
        """Every set and the pair hold a terminal or an honour."""
        if self._outside is None:
            def outside(kind, t):
                return (t % 9 in (0, 6)) if kind == hm.CHOW and t < 27 else (t >= 27 or t % 9 in (0, 8))

            self._outside = (
                self.standard
                and self.specials_outside
                and outside(hm.PUNG, self.pair)
                and all(outside(k, t) for k, t in self.sets)
            )
        return self._outside

    def has_pung(self, tile: int) -> bool:
        return any(k != hm.CHOW and t == tile for k, t in self.sets)

    def pungs_of(self, tiles) -> int:
        return sum(1 for k, t in self.sets if k != hm.CHOW and t in tiles)

    def chows_of(self, tiles) -> int:
        return sum(1 for k, t in self.sets if k == hm.CHOW and t in tiles)

    def all_contain(self, tiles) -> bool:
        """Every set and the pair hold one of the tiles (standard shape)."""
        if not self.standard or self.pair not in tiles:
            return False
        return all((t in tiles or t + 1 in tiles or t + 2 in tiles) if k == hm.CHOW else t in tiles for k, t in self.sets)

    def has_chow(self, tile: int) -> bool:
        return any(k == hm.CHOW and t == tile for k, t in self.sets)


def _chow_reading(low: int, win: int) -> str:
    pos = win - low
    if pos == 1:
        return "closed"
    if (pos == 2 and low % 9 == 0) or (pos == 0 and low % 9 == 6):
        return "edge"
    return "two_sided"


_READING_ORDER = {"edge": 0, "two_sided": 0, "closed": 1, "single": 2, "dual_pung": 3}


def _readings(pair: int, sets, win: int) -> list[str]:
    """How the winning tile can be read in one split, chow readings first."""
    found = ["single"] if pair == win else []
    for kind, t in sets:
        if kind == hm.PUNG and t == win:
            reading = "dual_pung"
        elif kind == hm.CHOW and t <= win <= t + 2:
            reading = _chow_reading(t, win)
        else:
            continue
        if reading not in found:
            found.append(reading)
    return sorted(found, key=_READING_ORDER.__getitem__) if len(found) > 1 else found


def _split_arrangement(h: HandFacts, pair: int, sets, reading: str, extra_chows: int = 0) -> Arrangement:
    """One reading of a split of the concealed tiles; melds join its sets."""
    a = Arrangement()
    a.pair = pair
    a.sets = tuple(sets) + h.meld_sets
    chows = [k for k, _ in sets].count(hm.CHOW)
    concealed_pungs = len(sets) - chows
    if reading == "dual_pung" and not h.self_drawn:
        concealed_pungs -= 1  # completed by a discard: not concealed
    a.chows = chows + h.meld_chows + extra_chows
    a.pungs = (len(sets) - chows) + h.meld_pungs + h.meld_kongs + h.special_kongs
    a.kongs = h.meld_kongs + h.special_kongs
    a.specials_outside = h.specials_outside
    a.concealed_pungs = concealed_pungs + h.concealed_kongs
    if reading:
        setattr(a, reading, True)
    return a


def _in_set_order(split) -> list:
    """A split's sets lowest tile first, a pung before a chow on one tile."""
    return sorted((t, kind != hm.PUNG) for kind, t in split[1])


def _standard_arrangements(h: HandFacts) -> list[Arrangement]:
    out = []
    splits = scoring_form.splitter()(h.full_concealed)
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
    if not melds and win.seven_pairs and hm.is_seven_pairs(full, win.quads_as_two_pairs):
        a = Arrangement()
        a.seven_pairs = True
        a.quads = sum(1 for c in full[:NUM_PLAYABLE] if c == 4)
        a.pair = next(t for t in range(NUM_PLAYABLE) if full[t])
        a.single = True
        out.append(a)
    if not melds and win.thirteen_orphans and hm.is_thirteen_orphans(full):
        a = Arrangement()
        a.thirteen_orphans = True
        a.pair = next(t for t in hm.ORPHANS if full[t] == 2)
        a.single = full[h.win_tile] == 2
        out.append(a)
    if not melds and win.honours_and_knitted and kn.honours_and_knitted(full):
        a = Arrangement()
        a.honours_knitted = True
        a.knitted = kn.full_straight(full)
        out.append(a)
    if len(melds) <= 1 and win.knitted_straight:
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

    def __init__(self, total: int, counted=()):
        self.total = total
        self.counts = {f.id: n for f, _, n in counted}


def combine(table, counted) -> int:
    """The counted fans' values added or multiplied, before any cap."""
    if table.combine == "multiply":
        total = 1
        for _, value, count in counted:
            total *= value**count
        return total if counted else 0
    return sum(value * count for _, value, count in counted)


def _total(table, h, counted) -> tuple[int, int]:
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


def _best(table, h: HandFacts, ignore, shapeless: bool = False) -> Valuation | None:
    best: Valuation | None = None
    cache: dict = {}
    prefer = table.fan_plan.prefer
    # a ruleset compiled without the fast form is scored by the readable one
    fast = not scoring_form.readable() and table.ruleset.scoring.flat is not None
    readings = arrangements(h)
    if not readings and shapeless:
        readings = [Arrangement()]  # a win that needs no shape: only hand facts
    if fast and readings:
        scoring = table.ruleset.scoring
        skip = fl.ignore_mask(table, scoring.flat, ignore) if ignore else 0
        hand_many: dict[int, int] = {}
        hand_bits = scoring.flat_fans_of_hand(h, table.o, hand_many)
    for d in readings:
        if fast:
            counted = fl.value_flat(table, h, d, skip, hand_bits, hand_many)
        else:
            counted = value_arrangement(table, h, d, ignore, cache)
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
    full[ctx.win_tile] += 1
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
            concealed[wt] -= 1
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


def evaluate(table, ctx: WinContext, ignore=frozenset(), shapeless: bool = False,
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


def _evaluate(table, ctx: WinContext, ignore, shapeless: bool) -> Valuation | None:
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
    if allowed is not None and not allowed(best.facts, Result(best.uncapped, best.fans), table.o):
        best.win_allowed = False
        best.why = table.ruleset.winning.why_not.both() or "the variant does not allow this win"
    best.result = Result(best.uncapped, best.fans)
    return best
