"""A match: N hands, or N rounds of wind, with dealer rotation, the
prevailing wind and running scores."""

from __future__ import annotations

from typing import Any

from .game import deal
from .shuffle import derive


class Match:
    def __init__(self, table, seed, first_dealer: int | None = None, hands: int | None = None):
        self.table = table
        self.seed = seed
        # hands given: that many; else the variant's hands, or its rounds of wind
        self.wind_rounds = table.wind_rounds if hands is None else 0
        self.hands = table.hands if hands is None else hands
        self.scores = [0] * table.players
        self.results: list = []
        self.dealer = self._first_dealer() if first_dealer is None else first_dealer
        self.first_dealer = self.dealer
        self.streak = 0  # hands in a row the dealer has kept the deal
        self.rounds = 0  # times the deal has come back to the first dealer from another seat
        self.game: Any = None  # the hand in play (runtime.game.Game)

    def _first_dealer(self) -> int:
        from .ruleset import resolve

        spec = self.table.ruleset.dealer
        if resolve(spec.creator_deals, self.table.o, self.table.players):
            return 0
        first = spec.first
        if first == "random":
            return int(derive(self.seed, "first-dealer"), 16) % self.table.players
        return int(first) % self.table.players

    def hand_seed(self, index: int) -> str:
        return derive(self.seed, "hand", index)

    def start_hand(self):
        index = len(self.results)
        self.game = deal(
            self.table, self.hand_seed(index), self.dealer, round_wind=self.round_wind(index), hand_number=index,
            streak=self.streak,
        )
        return self.game

    def round_wind(self, index: int = 0) -> int:
        """The prevailing wind of the next hand (27 is East): with by_round
        it moves on each time the deal has come back to the first dealer."""
        if self.table.ruleset.prevailing_wind == "by_round":
            return 27 + self.rounds % 4
        return 27

    def finish_hand(self) -> None:
        result = self.game.result
        for seat, d in enumerate(result.deltas):
            self.scores[seat] += d
        self.results.append(result)
        self.streak = self.streak + 1 if result.next_dealer == self.dealer else 0
        if result.next_dealer == self.first_dealer and self.dealer != self.first_dealer:
            self.rounds += 1
        self.dealer = result.next_dealer
        self.game = None

    @property
    def over(self) -> bool:
        if self.wind_rounds:
            return self.rounds >= self.wind_rounds
        return len(self.results) >= self.hands


def play_hand(game, bots, on_event=None) -> None:
    """Play a hand to its end with one bot per seat."""
    seen = 0
    if on_event:
        for event in game.events:
            on_event(event)
        seen = len(game.events)
    while not game.over:
        for seat in game.to_act():
            game.apply(seat, bots[seat].choose(game, seat))
            if on_event:
                while seen < len(game.events):
                    on_event(game.events[seen])
                    seen += 1
            if game.over:
                break
    if on_event:
        for event in game.events[seen:]:
            on_event(event)


def play_match(match: Match, bots, on_event=None, on_hand=None) -> Match:
    while not match.over:
        game = match.start_hand()
        play_hand(game, bots, on_event)
        match.finish_hand()
        if on_hand:
            on_hand(match, len(match.results) - 1)
    return match
