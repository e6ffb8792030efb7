"""The fact objects of payment formulas (`s`), seat conditions (`s`),
play-time conditions (`p`) and kong payments (`k`); see
runtime/vocabulary.py."""

from __future__ import annotations

from .tiles import is_honour


class SettleFacts:
    """One payer paying one receiver (a winner, or a ready seat)."""

    __slots__ = (
        "total", "payer_is_discarder", "payer_is_dealer", "payer_declared", "payer_bought", "winner_is_dealer",
        "winner_declared", "winner_bought", "self_drawn", "robbing_kong", "kong_replacement", "winners", "players",
        "winner_streak", "dealer_streak", "winner_horse_hits", "share", "winner_doublings", "payer_choices", "winner_choices", "fans",
    )

    def __init__(self, game, payer: int, payee: int, total: int, discarder: int = -1, self_drawn=False,
                 robbing=False, kong_replacement=False, winners=1, fans=None):
        self.total = total
        self.payer_is_discarder = payer == discarder
        self.payer_is_dealer = payer == game.dealer
        self.payer_declared = game.seats[payer].declared
        self.payer_bought = game.seats[payer].bought
        self.winner_is_dealer = payee == game.dealer
        self.winner_declared = game.seats[payee].declared
        self.winner_bought = game.seats[payee].bought
        self.self_drawn = self_drawn
        self.robbing_kong = robbing
        self.kong_replacement = kong_replacement
        self.winners = winners
        self.players = game.n
        self.winner_streak = game.streak if payee == game.dealer else 0
        self.dealer_streak = game.streak
        self.winner_horse_hits = game.horse_hits(payee)
        self.share = 0
        self.winner_doublings = game.seats[payee].doublings
        self.payer_choices = game.seats[payer].choices
        self.winner_choices = game.seats[payee].choices
        self.fans = fans if fans is not None else {}  # the winner's fan id -> times counted


class KongFacts:
    """One kong (or special set) being paid for."""

    __slots__ = ("tile", "kind", "players")

    def __init__(self, game, owner: int, kind: str, tile: int):
        self.tile = tile  # the kong's tile (a special set's lowest tile)
        self.kind = kind  # direct, added, concealed, or the special set's id
        self.players = game.n


class SeatFacts:
    """One seat: at an exhausted wall, or after a discard (its run of
    discards)."""

    def __init__(self, game, seat: int):
        self.game = game
        self.seat = seat
        st = game.seats[seat]
        self.declared = st.declared
        self.is_dealer = seat == game.dealer
        self.bought = st.bought
        self.players = game.n
        self.choices = st.choices
        self.won = st.wins > 0
        self.flowers = len(st.flowers)

    def flowers_held(self, tiles) -> int:
        return sum(1 for t in self.game.seats[self.seat].flowers if t in tiles)

    @property
    def ready(self) -> bool:
        """The hand waits on a tile it could win with (restrictions included)."""
        from .settlement import seat_can_win

        return seat_can_win(self.game, self.seat)

    def suit_count(self, suit: str) -> int:
        return _suit_count(self.game.seats[self.seat].counts, suit)

    def _run(self) -> list[int]:
        """The seat's latest discards that are honours and were not claimed."""
        st = self.game.seats[self.seat]
        run = []
        for tile, taken in zip(reversed(st.discards), reversed(st.claimed)):
            if taken or not is_honour(tile):
                break
            run.append(tile)
        return run

    @property
    def honour_run(self) -> int:
        return len(self._run())

    @property
    def distinct_honour_run(self) -> int:
        seen = set()
        for tile in self._run():
            if tile in seen:
                break
            seen.add(tile)
        return len(seen)


def _suit_count(counts, suit: str) -> int:
    if not suit or suit not in "mpsz":
        return 0
    base = "mpsz".index(suit) * 9
    return sum(counts[base : base + (7 if suit == "z" else 9)])


class PlayFacts:
    """The game as it stands at a decision (the `p` of play expressions)."""

    __slots__ = ("wall_remaining", "players", "follow_round", "self_drawn")

    def __init__(self, game, follow_round: int = 0, self_drawn: bool = False):
        self.wall_remaining = max(game.drawable(), 0)
        self.players = game.n
        self.follow_round = follow_round
        self.self_drawn = self_drawn
