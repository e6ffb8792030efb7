"""The hand being valued: `WinContext` (what a game, a hand JSON line or a
ready check asks about), and the `h` and `d` that compiled fan conditions
read: `HandFacts` (facts of the whole hand and the win, computed once per
hand) and `Arrangement` (one reading of it). Typed, and kept apart from the
valuing, so that the generated fan finders and `runtime.flat` read their
fields natively in the compiled build.
"""

from __future__ import annotations

from .melds import ADDED, CHOW, CONCEALED, PUNG, SPECIAL, Meld
from .ruleset import Table
from .tiles import NUM_PLAYABLE

TYPE_CHECKING = False  # `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Any, Final

# the kinds of a split's sets as runtime/hand.py numbers them (hand.CHOW,
# hand.PUNG; tests/test_architecture.py holds them equal): a variant imports
# this module, and hand.py with its tables is not needed to import one
SET_CHOW: "Final" = 0  # Final: a number in the compiled modules that read it
SET_PUNG: "Final" = 1
_NO_TILES: "Final[frozenset[int]]" = frozenset()  # shared: most hands set no flowers aside


class _Later:
    """Modules a variant's import does not need (import time), imported at
    their first use and kept: a function-level import runs the import
    machinery at every call, which in the compiled build cost more than a
    hand's fan conditions."""

    def __init__(self) -> None:
        self.analysis: Any = None
        self.scoring_form: Any = None
        self.facts: Any = None

    def load(self) -> None:
        from . import analysis, facts, scoring_form

        self.analysis, self.facts, self.scoring_form = analysis, facts, scoring_form


_LATER: "Final" = _Later()


def _later() -> _Later:
    """The late modules, imported at the first call."""
    if _LATER.facts is None:
        _LATER.load()
    return _LATER


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

    def __init__(self, ctx: WinContext, table: Table, wild_tiles: int = 0):
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
        self.flowers_aside = frozenset(ctx.flowers_aside) if ctx.flowers_aside else _NO_TILES
        self.players = ctx.players
        self.first_draw = ctx.first_draw and ctx.self_drawn
        self.flower_replacement = ctx.flower_replacement and ctx.self_drawn
        self.declared_at_opening = ctx.declared_at_opening
        self.doublings = ctx.doublings
        self.choices = ctx.choices

        full: list[int] = list(ctx.concealed)  # typed: counted with small ints when compiled
        full[ctx.win_tile] = full[ctx.win_tile] + 1
        self.full_concealed = full
        self.completes_quad = full[ctx.win_tile] == 4
        melds = ctx.melds
        self.melds = len(melds)
        claimed = chows = pungs = kongs = concealed_kongs = added_kongs = 0
        specials = special_kongs = 0
        specials_outside = True
        by_id = table.special_by_id
        everything: list[int] = list(full)
        kong_bits = 0  # the kinds of the kongs laid down, one bit each
        m: Meld  # typed: its fields are read natively when compiled
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
                kong_bits |= 1 << m.tile
                concealed_kongs += m.kind == CONCEALED
                added_kongs += m.kind == ADDED
            m.add_to(everything)
        self.claimed_melds = claimed
        self.concealed = claimed == 0
        self.meld_chows, self.meld_pungs, self.meld_kongs = chows, pungs, kongs
        self.concealed_kongs, self.added_kongs = concealed_kongs, added_kongs
        self.exposed_kongs = kongs - concealed_kongs
        meld_sets: list[tuple[int, int]] = []
        for m in melds:
            if m.type != SPECIAL:
                meld_sets.append((SET_CHOW if m.type == CHOW else SET_PUNG, m.tile))
        self.meld_sets = tuple(meld_sets)
        self.special_sets, self.special_kongs, self.specials_outside = specials, special_kongs, specials_outside
        self.game_melds = ctx.game_melds if ctx.game_melds >= 0 else len(melds)
        self.game_claims = max(ctx.game_claims, claimed)

        self.all_counts = everything
        # one pass over the kinds: this runs once per hand scored
        present = kinds = quads = hogs = honours = terminals = suits = 0
        low, high = 9, -1
        for t in range(NUM_PLAYABLE):
            c = everything[t]
            if not c:
                continue
            present |= 1 << t
            kinds += 1
            if full[t] == 4:
                quads += 1
            if c == 4 and not kong_bits >> t & 1:
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
        self.present_bits = present  # the kinds held, melds included, one bit each
        self.kinds = kinds
        self.concealed_quads, self.hogs, self.honours, self.terminals = quads, hogs, honours, terminals
        self.rank_span = high - low if high >= 0 else 0
        self.number_suits = (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1)
        self._wait_count: int | None = None
        self._shape_wait_count: int | None = None
        self._shape_waits_at_least = 0
        self._readings: frozenset | None = None

    @property
    def readings(self) -> frozenset:
        """How some split of the hand reads the winning tile: closed, edge,
        single, two_sided, dual_pung (standard splits only)."""
        if self._readings is None:
            found = set()
            win = self.win_tile
            for pair, sets in _later().scoring_form.splitter()(self.full_concealed):
                if pair == win:
                    found.add("single")
                for kind, t in sets:
                    if kind == SET_PUNG and t == win:
                        found.add("dual_pung")
                    elif kind == SET_CHOW and t <= win <= t + 2:
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
        return _later().facts._suit_count(self.all_counts, suit)

    def concealed_copies(self, tile: int) -> int:
        return self.full_concealed[tile]

    def meld_copies(self, tile: int) -> int:
        return self.all_counts[tile] - self.full_concealed[tile]

    def kinds_in_bits(self, bits: int) -> int:
        """kinds_in of a set given as bits (a variant's BITS_ constants)."""
        return (self.present_bits & bits).bit_count()

    def only_bits(self, bits: int) -> bool:
        return self.present_bits & ~bits == 0

    def any_bits(self, bits: int) -> bool:
        return self.present_bits & bits != 0

    def kinds_in(self, tiles) -> int:
        return self.kinds_in_bits(_bits(tiles))

    def only(self, tiles) -> bool:
        return self.only_bits(_bits(tiles))

    def any(self, tiles) -> bool:
        return self.any_bits(_bits(tiles))

    @property
    def wait_count(self) -> int:
        if self._wait_count is None:
            self._wait_count = len(_later().analysis.waits(self.table, self.ctx.concealed, self.ctx.melds))
        return self._wait_count

    @property
    def shape_wait_count(self) -> int:
        if self._shape_wait_count is None:
            self._shape_wait_count = len(self._shape_waits(0))
        return self._shape_wait_count

    def shape_waits_upto(self, cap: int) -> int:
        """min(shape_wait_count, cap), looking no further than `cap` kinds:
        what a comparison of the count with cap - 1 reads (`Fact.capped`)."""
        if self._shape_wait_count is not None:
            return min(self._shape_wait_count, cap)
        if self._shape_waits_at_least >= cap:
            return cap
        found = len(self._shape_waits(cap))
        if found < cap:
            self._shape_wait_count = found  # the search stopped at no cap: the count is whole
        else:
            self._shape_waits_at_least = cap
        return min(found, cap)

    def _shape_waits(self, enough: int) -> set[int]:
        return _later().analysis.shape_waits(self.table, self.ctx.concealed, self.ctx.melds, True, enough)


class Arrangement:
    """The `d` of fan conditions: one way of reading the hand."""

    __slots__ = (
        "standard", "seven_pairs", "thirteen_orphans", "honours_knitted", "knitted", "quads", "chows", "pungs",
        "kongs", "concealed_pungs", "pair", "sets", "closed", "edge", "single", "two_sided", "dual_pung", "_outside",
        "specials_outside",
    )

    def __init__(self) -> None:
        # typed: fan conditions read these natively and count with small ints when compiled
        self.standard: bool = False
        self.seven_pairs: bool = False
        self.thirteen_orphans: bool = False
        self.honours_knitted: bool = False
        self.knitted: bool = False
        self.quads: int = 0
        self.chows: int = 0
        self.pungs: int = 0
        self.kongs: int = 0
        self.concealed_pungs: int = 0
        self.pair: int = -1
        self.sets: tuple[tuple[int, int], ...] = ()  # (SET_CHOW or SET_PUNG, lowest tile)
        self.closed: bool = False
        self.edge: bool = False
        self.single: bool = False
        self.two_sided: bool = False
        self.dual_pung: bool = False
        self._outside: bool | None = None
        self.specials_outside: bool = True  # every special set laid down holds a terminal or an honour

    @property
    def all_outside(self) -> bool:
        """Every set and the pair hold a terminal or an honour."""
        if self._outside is None:
            outside = self.standard and self.specials_outside and _outside(SET_PUNG, self.pair)
            if outside:
                for k, t in self.sets:
                    if not _outside(k, t):
                        outside = False
                        break
            self._outside = outside
        return self._outside

    def has_pung(self, tile: int) -> bool:
        for k, t in self.sets:
            if k != SET_CHOW and t == tile:
                return True
        return False

    def pungs_of(self, tiles: frozenset) -> int:
        n = 0
        for k, t in self.sets:
            if k != SET_CHOW and t in tiles:
                n += 1
        return n

    def chows_of(self, tiles: frozenset) -> int:
        n = 0
        for k, t in self.sets:
            if k == SET_CHOW and t in tiles:
                n += 1
        return n

    def all_contain(self, tiles: frozenset) -> bool:
        """Every set and the pair hold one of the tiles (standard shape)."""
        if not self.standard or self.pair not in tiles:
            return False
        for k, t in self.sets:
            if not ((t in tiles or t + 1 in tiles or t + 2 in tiles) if k == SET_CHOW else t in tiles):
                return False
        return True

    def has_chow(self, tile: int) -> bool:
        for k, t in self.sets:
            if k == SET_CHOW and t == tile:
                return True
        return False


# the tile sets fan conditions ask about (module constants of a variant,
# mostly), one bit per kind; bounded, in case conditions build sets of their own
_BITS: "Final[dict[frozenset, int]]" = {}


def _bits(tiles) -> int:
    """A set of tile kinds as one bit each (kinds of the playable tiles only:
    a hand's `present_bits` hold no flowers)."""
    bits = _BITS.get(tiles) if isinstance(tiles, frozenset) else None
    if bits is None:
        bits = 0
        for t in tiles:
            if 0 <= t < NUM_PLAYABLE:
                bits |= 1 << t
        if isinstance(tiles, frozenset) and len(_BITS) < 4096:
            _BITS[tiles] = bits
    return bits


def _outside(kind: int, t: int) -> bool:
    """A set (or, as a pung, the pair) holds a terminal or an honour."""
    return (t % 9 in (0, 6)) if kind == SET_CHOW and t < 27 else (t >= 27 or t % 9 in (0, 8))


def _chow_reading(low: int, win: int) -> str:
    pos = win - low
    if pos == 1:
        return "closed"
    if (pos == 2 and low % 9 == 0) or (pos == 0 and low % 9 == 6):
        return "edge"
    return "two_sided"
