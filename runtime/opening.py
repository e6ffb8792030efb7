"""The opening of a hand: the steps a variant declares (`opening:`), run
in order before the dealer's first discard.

Each step is a generic mechanism with a small state of its own:

- `stakes`: every seat buys one of the declared stakes, before it
  sees its tiles when the step comes before `deal`.
- `deal`: the dealt tiles are shown to their seats.
- `flowers`: 补花, the dealer first, then the others in turn order.
- `exchange`: every seat passes N tiles (of one suit, or any) face down;
  when all have chosen, every set moves at once in one direction, fixed
  or drawn from the hand's seed.
- `declare`: every seat chooses one value (a suit to go without, or one of the
  declared values); the choices are revealed together and read by
  expressions as `seat.choice.ID` and by `restrictions`.
- `ready`: the non-dealers whose hands wait may declare ready.

A step that asks seats for a decision leaves the game in the `start`
phase with `start_choices` (seat -> the actions it may take) until every
asked seat has answered; the game only runs the sequence. Each step also
says what automatic play chooses (scenarios' unnamed seats, 托管).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from . import analysis
from .actions import PASS, Action
from .shuffle import derive
from .tiles import NAMES, NUM_KINDS

# the seat offsets of the exchange directions
OFFSETS = {"next": 1, "previous": -1, "across": 2}
DIRECTION_ORDER = ("next", "previous", "across")
_SUIT_ORDER = "mpsz"  # automatic play: ties go to the later suit


def advance(game) -> None:
    """Run the opening from its current step until a step asks seats for a
    decision, or, at the end, begin the dealer's first turn."""
    steps = game.table.opening
    while game.opening_index < len(steps):
        step = steps[game.opening_index]
        choices = _begin(game, step)
        if choices:
            game.phase = "start"
            game.start_stage = stage_name(step)
            game.start_choices = choices
            game.start_responses = {}
            return
        game.opening_index += 1
    game.start_stage = ""
    game.start_choices = {}
    game.start_responses = {}
    game._begin_turn(game.dealer, "deal")


def stage_name(step) -> str:
    """What a view calls the step in progress: its kind, or a declaration's id."""
    return step.id if step.kind == "declare" else step.kind


def current(game):
    steps = game.table.opening
    return steps[game.opening_index] if game.phase == "start" and game.opening_index < len(steps) else None


def answer(game, seat: int, action: Action) -> None:
    """A seat's answer to the step in progress; the step ends once every
    asked seat has answered."""
    step = current(game)
    game.start_responses[seat] = action
    if step.kind == "stakes" and action.verb == "buy":
        game.seats[seat].bought = action.extra[0]
    elif step.kind == "ready" and action.verb == "ready":
        game._declare(seat, opening=True)
        game._event("ready", seat=seat)
    elif step.kind == "exchange":
        game._event("exchange_chosen", seat=seat, tiles=[NAMES[t] for t in action.extra])
    elif step.kind == "declare":
        game._event("declaring", seat=seat)
    if all(s in game.start_responses for s in game.start_choices):
        _finish(game, step)
        game.opening_index += 1
        advance(game)


def automatic(game, seat: int) -> Action | None:
    """What automatic play answers for `seat` in the step in progress."""
    step = current(game)
    choices = game.start_choices.get(seat) if step is not None else None
    if not choices or seat in game.start_responses:
        return None
    if step.kind == "exchange":
        return _auto_exchange(game, seat, step)
    if step.kind == "declare":
        if step.auto == "fewest_suit":
            counts = game.seats[seat].counts
            suits = [a.extra[0] for a in choices]
            best = min(suits, key=lambda s: (_suit_count(counts, s), -_SUIT_ORDER.index(s)))
            return Action(step.id, -1, (best,))
        return choices[0]
    return PASS if PASS in choices else choices[0]


# ------------------------------------------------------------ steps


def _begin(game, step) -> dict:
    kind = step.kind
    if kind == "stakes":
        buys = tuple(Action("buy", -1, (v,)) for v in game.table.stakes)
        if not buys:
            return {}
        game._event("stakes", values=list(game.table.stakes))
        return {seat: buys + (PASS,) for seat in range(game.n)}
    if kind == "deal":
        game._dealt()
        return {}
    if kind == "flowers":
        game._opening_flowers()
        return {}
    if kind == "exchange":
        game._event("exchange_open", id=step.id, tiles=step.tiles, same_suit=step.same_suit)
        return {seat: _exchanges(game.seats[seat].counts, step) for seat in range(game.n)}
    if kind == "declare":
        values = game.table.suits if step.choices_are_suits else step.choices
        game._event("declare_open", id=step.id, values=list(values))
        acts = tuple(Action(step.id, -1, (v,)) for v in values)
        return {seat: acts for seat in range(game.n)}
    if kind == "ready":
        choices = {}
        if game.table.declare in ("opening", "any_turn"):
            for seat in game._order_from(game.dealer)[1:]:
                if analysis.seat_waits(game.table, game.seats[seat]):
                    choices[seat] = (Action("ready"), PASS)
        return choices
    raise ValueError(f"unknown opening step {kind!r}")


def _finish(game, step) -> None:
    if step.kind == "stakes":
        game._event("bought", stakes=[st.bought for st in game.seats])
    elif step.kind == "exchange":
        _move_tiles(game, step)
    elif step.kind == "declare":
        for seat, act in game.start_responses.items():
            game.seats[seat].choices[step.id] = act.extra[0]
        game._event("declared", id=step.id, choices={str(s): game.seats[s].choices[step.id] for s in range(game.n)})
        game.restrict()


def _suit_count(counts, suit: str) -> int:
    base = _SUIT_ORDER.index(suit) * 9
    return sum(counts[base : base + (9 if suit != "z" else 7)])


def _suit_kinds(suit: str) -> range:
    base = _SUIT_ORDER.index(suit) * 9
    return range(base, base + (9 if suit != "z" else 7))


def _exchanges(counts, step) -> tuple:
    """Every choice of `step.tiles` tiles a seat may pass, lowest first."""
    n = step.tiles
    groups = [_suit_kinds(s) for s in _SUIT_ORDER] if step.same_suit else [range(NUM_KINDS)]
    out = []
    for kinds in groups:
        held = [t for t in kinds if counts[t]]
        for combo in combinations_with_replacement(held, n):
            if all(combo.count(t) <= counts[t] for t in set(combo)):
                out.append(Action("exchange", -1, combo))
    return tuple(out)


def _auto_exchange(game, seat: int, step) -> Action:
    """The lowest tiles of the suit held fewest (ties to the later suit)
    that holds enough; for any suit, the lowest tiles in that order."""
    counts = game.seats[seat].counts
    suits = sorted((s for s in _SUIT_ORDER if _suit_count(counts, s)),
                   key=lambda s: (_suit_count(counts, s), -_SUIT_ORDER.index(s)))
    if step.same_suit:
        for s in suits:
            if _suit_count(counts, s) >= step.tiles:
                tiles = [t for t in _suit_kinds(s) for _ in range(counts[t])][: step.tiles]
                return Action("exchange", -1, tuple(tiles))
    tiles = [t for s in suits for t in _suit_kinds(s) for _ in range(counts[t])][: step.tiles]
    return Action("exchange", -1, tuple(sorted(tiles)))


def direction(game, step) -> str:
    """The direction of an exchange: the scenario's or server's fixed one,
    the step's only one, or drawn from the hand's seed among those that
    mean something at this table (across needs four players)."""
    if game.exchange_direction:
        return game.exchange_direction
    usable = [d for d in DIRECTION_ORDER if d in step.directions and (d != "across" or game.n == 4)]
    if game.n == 2:
        usable = usable[:1] or ["next"]
    if len(usable) == 1:
        return usable[0]
    return usable[int(derive(game.seed, "exchange", step.id), 16) % len(usable)]


def _move_tiles(game, step) -> None:
    way = direction(game, step)
    offset = OFFSETS[way]
    given = {seat: act.extra for seat, act in game.start_responses.items()}
    for seat, tiles in given.items():
        for t in tiles:
            game.seats[seat].counts[t] -= 1
    moves = []
    for seat, tiles in sorted(given.items()):
        to = (seat + offset) % game.n
        for t in tiles:
            game.seats[to].counts[t] += 1
        game.seats[to].received = tuple(tiles)
        game.seats[seat].gave = tuple(tiles)
        moves.append({"from": seat, "to": to, "tiles": [NAMES[t] for t in tiles]})
    dealer = game.seats[game.dealer]
    if dealer.drawn >= 0 and dealer.counts[dealer.drawn] == 0:
        # the dealer passed his "drawn" tile on: his last received tile takes its place
        dealer.drawn = dealer.received[-1]
    game._event("exchange", id=step.id, direction=way, moves=moves)
