"""What a seat's declarations forbid it to do with some tiles
(`restrictions:`, for example the tiles of a void suit chosen at the
opening): discard them first, claim or kong them, win while holding them.

Each restriction names its tiles by a tile expression over one tile kind
and the seat (`tile.suit == seat.choice.void`); once the seat's
declarations are known, the kinds it names are fixed per seat, so play
only looks them up."""

from __future__ import annotations

from .facts import SeatFacts
from .tiles import rank_of, suit_of


class TileFacts:
    """The `t` of tile expressions: one tile kind."""

    __slots__ = ("kind", "suit", "rank", "is_honour", "is_flower")

    def __init__(self, kind: int):
        self.kind = kind
        self.suit = suit_of(kind)
        self.rank = rank_of(kind) if kind < 27 else 0
        self.is_honour = 27 <= kind < 34
        self.is_flower = kind >= 34


class Limits:
    """One seat's restricted tile kinds."""

    __slots__ = ("first", "forbid", "no_win", "why")

    def __deepcopy__(self, memo: dict) -> "Limits":
        from .copying import copy_fields

        return copy_fields(self, Limits(), memo)

    def __init__(self):
        self.first: frozenset = frozenset()  # to be discarded before any other tile
        self.forbid: dict = {}  # claim or kong verb -> kinds it may not be made with
        self.no_win: frozenset = frozenset()  # a hand holding one neither wins nor is ready
        self.why: dict = {}  # kind -> the Text of the first restriction naming it


def apply(game) -> None:
    """Fix every seat's limits from its declarations (after they are revealed)."""
    rules = game.table.restrictions
    if not rules:
        return
    o = game.table.o
    kinds = [TileFacts(t) for t in game.table.tile_kinds]
    for seat, st in enumerate(game.seats):
        facts = SeatFacts(game, seat)
        lim = Limits()
        first: set = set()
        no_win: set = set()
        forbid: dict = {}
        for rule in rules:
            named = frozenset(t.kind for t in kinds if rule.tiles(t, facts, o))
            if not named:
                continue
            for t in named:
                lim.why.setdefault(t, rule.why)
            if rule.discard_first:
                first |= named
            if rule.no_win:
                no_win |= named
            for verb in rule.forbids:
                forbid[verb] = forbid.get(verb, frozenset()) | named
        lim.first, lim.no_win, lim.forbid = frozenset(first), frozenset(no_win), forbid
        st.limits = lim if (first or no_win or forbid) else None


def forbidden(st, verb: str, tile: int) -> bool:
    """The seat may not make this claim or kong with this tile."""
    lim = st.limits
    return lim is not None and tile in lim.forbid.get(verb, ())


def blocks_win(st, counts, melds, tile: int = -1) -> bool:
    """A hand of these tiles (and `tile`) holds a tile its seat may not
    win holding."""
    lim = st.limits
    if lim is None or not lim.no_win:
        return False
    banned = lim.no_win
    if tile in banned or any(counts[t] for t in banned):
        return True
    return any(t in banned for m in melds for t in m.tiles)


def discards(st, held: list) -> list:
    """The tiles among `held` the seat may discard now: those it must shed
    first while it holds any."""
    lim = st.limits
    if lim is None or not lim.first:
        return held
    first = [t for t in held if t in lim.first]
    return first or held


def why(st, tile: int) -> str:
    lim = st.limits
    text = lim.why.get(tile) if lim is not None else None
    return text.both() if text is not None and (text.zh or text.en) else "a restriction of its declarations"
