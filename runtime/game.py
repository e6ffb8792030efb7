"""One hand of mahjong under a configured table: the state machine.

The API follows OpenSpiel's: `legal_actions(seat)`, `apply(seat, action)`,
`view(seat)` for what one seat may see, and `to_json()`/`from_json()` for
any state. Phases:

- `start`: the opening steps the variant declares (runtime/opening.py:
  stakes, the deal, 补花, exchanges, declarations, ready declarations),
  every asked seat answering each step; a flower drawn later is set aside
  and replaced at once.
- `turn`: the current seat has drawn (or claimed) and must act.
- `replace`: after a kong, the seat takes one of the face-up tail tiles.
- `claim`: a discard, a tile added to a kong, or a run of discards that
  wins, can be claimed; every seat with a claim answers, then priority
  decides.
- `end`: the hand is over; `result` holds winners and payments.

When a win does not end the hand (`hand_end.winners`: leave or stay), it
is settled at once among the seats still in and play goes on
(runtime/hand_end.py); `wins` lists the wins so far.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import analysis, claims, hand_end, opening, restrictions, settlement
from .actions import Action
from .melds import ADDED, CHOW, CONCEALED, DIRECT, KONG, PUNG, SPECIAL, Meld
from .scoring import WinContext, evaluate
from .tiles import FLOWER_BASE, NAMES, NUM_KINDS, counts_of

if TYPE_CHECKING:
    from .restrictions import Limits
    from .ruleset import Table

START, TURN, REPLACE, CLAIM, END = "start", "turn", "replace", "claim", "end"

_ORDERS = {n: [[(s + i) % n for i in range(n)] for s in range(n)] for n in (2, 3, 4)}


class IllegalAction(ValueError):
    """An action that is not legal now; names the seat, action and reason."""

    def __init__(self, seat: int, action, reason: str):
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"seat {seat} cannot {action}: {reason}")


class SeatState:
    __slots__ = (
        "counts", "melds", "discards", "claimed", "flowers", "declared", "declared_waits",
        "declared_values", "drawn", "refusals", "has_discarded", "waits_key", "waits", "bought",
        "opening_ready", "doublings", "deferred", "choices", "gave", "received", "out", "wins", "won_tiles",
        "locked", "forbids", "kong_rule", "limits",
    )

    def __deepcopy__(self, memo: dict) -> "SeatState":
        from .copying import copy_fields

        return copy_fields(self, SeatState(), memo)

    def __init__(self) -> None:
        # typed (a checked __init__): the compiled build reads and compares these natively
        self.counts: list[int] = [0] * NUM_KINDS
        self.melds: list[Meld] = []
        self.discards: list[int] = []
        self.claimed: list[bool] = []  # parallel to discards: taken by a claim
        self.flowers: list[int] = []
        self.declared: bool = False
        self.declared_waits: tuple = ()
        self.declared_values: tuple = ()
        self.drawn: int = -1
        self.refusals: list[tuple] = []  # (claim, tile or -1 for every tile, value)
        self.has_discarded: bool = False
        self.waits_key: list[int] | None = None  # the counts `waits` was computed for
        self.waits: frozenset = frozenset()
        self.bought: int = 0  # stakes bought before the deal
        self.opening_ready: bool = False  # declared before the dealer's first discard, or with it (the dealer)
        self.doublings: int = 0  # wins deferred to double (加倍) this hand
        self.deferred: bool = False  # doubled on this turn: no win until the next tile
        self.choices: dict = {}  # declaration id -> the value chosen at the opening
        self.gave: tuple = ()  # tiles passed on in an exchange
        self.received: tuple = ()  # tiles received in an exchange
        self.out: bool = False  # left the hand after a win
        self.wins: int = 0  # wins this hand
        self.won_tiles: list[int] = []  # winning tiles taken from others, or set aside
        self.locked: bool = False  # must discard every drawn tile it does not win or kong with
        self.forbids: frozenset = frozenset()  # claims it may no longer make
        self.kong_rule: str = ""  # how a kong must keep its waits; "" when free
        self.limits: Limits | None = None  # restrictions.Limits from its declarations, or None

    def tiles(self) -> list[int]:
        return [t for t in range(NUM_KINDS) for _ in range(self.counts[t])]


class Window:
    """An open claim window on one tile."""

    __slots__ = ("tile", "source", "kind", "choices", "responses", "valuations")

    def __deepcopy__(self, memo: dict) -> "Window":
        from .copying import copy_fields

        return copy_fields(self, Window(self.tile, self.source, self.kind), memo)

    def __init__(self, tile: int, source: int, kind: str):
        self.tile = tile
        self.source = source  # the discarder, or the player adding to his kong
        self.kind = kind  # discard, rob, or history (a winning run of discards)
        self.choices: dict[int, tuple] = {}
        self.responses: dict[int, Action] = {}
        self.valuations: dict = {}


class Game:
    def __copy__(self) -> "Game":
        from .copying import copy_fields

        return copy_fields(self, Game())

    def __deepcopy__(self, memo: dict) -> "Game":
        """Every field deep-copied but the table (the rules, shared)."""
        from .copying import copy_fields

        new = Game()
        memo[id(self)] = new
        memo[id(self.table)] = self.table
        return copy_fields(self, new, memo)

    def __init__(
        self, table=None, hands=None, wall=None, dealer: int = 0, round_wind: int = 27, hand_number: int = 0, indicator: int = -1,
        streak: int = 0, horses: dict | None = None, horse_deck: list | None = None, seed=0,
        exchange_direction: str = "",
    ):
        """Start a hand from given concealed hands (dealer's last tile is
        his "drawn" one) and the rest of the wall in draw order. Where the
        variant turns a wild indicator, `indicator` is that tile, out of
        play; by default the wall's last tile is turned. `streak` is how
        many hands in a row the dealer has kept the deal. Bought horses are
        `horses` (seat -> tiles) or dealt from `horse_deck`. `seed` draws
        what the hand leaves to chance after the deal (an exchange's
        direction, unless `exchange_direction` fixes it)."""
        if table is None:  # a blank game for state_json.game_from_json to fill (a compiled class's __new__ runs __init__)
            return
        self.table: Table = table  # typed: the compiled build reads its fields natively
        self.streak = streak
        self.n = table.players
        self.dealer = dealer
        self.round_wind = round_wind
        self.hand_number = hand_number
        self.seed = seed
        self.exchange_direction = exchange_direction
        self.wall = list(wall)
        self.indicator = -1
        if table.wild_indicator:
            self.indicator = indicator if indicator >= 0 else self.wall.pop()
            self.table = table = table.with_wilds(frozenset({wild_after(table, self.indicator)}))
        self.front = 0
        self.back = len(self.wall)
        self.seats = [SeatState() for _ in range(self.n)]
        self.phase = START
        self.current = dealer
        self.turn_kind = "deal"  # deal, draw, replacement or claim
        self.kong_chain = 0  # kongs made in a row this turn
        self.kong_fed_by = -1  # discarder of an exposed kong made this turn
        self.after_kong_discard = False
        self.melds_made = False
        self.discards_made = 0
        self.window: Window | None = None
        self.start_stage = ""  # the opening step in progress, while phase is start
        self.flower_replaced = False  # the tile just drawn replaced a flower
        self.flower_kind = ""  # the draw a claim window on a flower interrupted
        self.flower_win = ""  # the win on flowers the seat to play takes now (`winning.by_flowers`)
        self.opening_index = 0  # the opening step in progress (table.opening)
        self.dealt = False  # the deal step has shown the seats their tiles
        self.wins: list = []  # settlement.WinRecord of every win so far this hand
        self.any_out = False  # some seat has left the hand
        self.start_choices: dict[int, tuple] = {}
        self.start_responses: dict[int, Action] = {}
        self.payments: list = []  # made during the hand (kongs paid at once, 跟庄-style rounds, wins that do not end it)
        self.moved: set = set()  # indices in `payments` of money since passed on to a winner
        self.follow = {"round": 1, "tile": -1, "count": 0} if table.follow else None
        self.horses = self._deal_horses(horses, horse_deck)
        self.kongs: list = []  # (owner, kind, feeder, tile) of every completed kong and special set
        self.events: list[dict] = []
        self.log: list[tuple[int, Action]] = []
        self.result: Any = None  # settlement.HandResult once the hand is over
        self._legal: dict = {}
        rs = table.ruleset
        for seat, tiles in enumerate(hands):
            want = rs.dealer_tiles if seat == dealer else rs.other_tiles
            if len(tiles) != want:
                raise ValueError(f"seat {seat} is dealt {len(tiles)} tiles, expected {want}")
        for seat, tiles in enumerate(hands):
            st = self.seats[seat]
            for t in tiles:
                st.counts[t] += 1
        self.seats[dealer].drawn = hands[dealer][-1] if hands[dealer] else -1
        self._hands = [[NAMES[t] for t in h] for h in hands]
        opening.advance(self)

    def _deal_horses(self, given, deck) -> dict:
        """Bought horses: seat -> tiles, from `given` or dealt from `deck`."""
        t = self.table
        wanted = {s: t.horses_each + (t.horses_dealer if s == self.dealer else 0) for s in range(self.n)}
        if not any(wanted.values()):
            return {}
        if given is not None:
            return {s: list(given.get(s, [])) for s in range(self.n) if given.get(s)}
        if deck is None:
            from .shuffle import shuffled

            deck = shuffled(t.wall_tiles(), "horses")
        out, pos = {}, 0
        for s in self._order_from(self.dealer):
            if wanted[s]:
                out[s] = list(deck[pos : pos + wanted[s]])
                pos += wanted[s]
        return out

    def horse_seat(self, tile: int) -> int:
        """The seat a horse tile points at, or -1."""
        offset = self.table.horse_seat.get(tile)
        return -1 if offset is None else (self.dealer + offset) % self.n

    def reward_tiles(self) -> list[int]:
        k = self.table.reward_horses
        return self.wall[self.back - k : self.back] if k else []

    def horse_hits(self, seat: int) -> int:
        return sum(1 for t in self.reward_tiles() if self.horse_seat(t) == seat)

    def _dealt(self) -> None:
        """The deal step: each seat is shown its tiles."""
        self.dealt = True
        extra: dict = {}
        if self.table.face_up:
            extra["face_up"] = self.face_up_names()
        if self.indicator >= 0:
            extra["indicator"] = NAMES[self.indicator]
        if self.table.wilds:
            extra["wilds"] = [NAMES[t] for t in sorted(self.table.wilds)]
        self._event("deal", dealer=self.dealer, wall=len(self.wall), hands=self._hands, **extra)

    # ------------------------------------------------------------ flowers

    def _opening_flowers(self) -> None:
        """补花 after the deal: the dealer first, then each seat in turn
        order sets its flowers aside and replaces them from the end of the
        wall; a replacement that is a flower is replaced in turn."""
        if not self.table.has_flowers:
            return
        for seat in self._order_from(self.dealer):
            st = self.seats[seat]
            last = -1
            for f in [t for t in range(FLOWER_BASE, NUM_KINDS) for _ in range(st.counts[t])]:
                st.counts[f] -= 1
                tile = self._flowers_aside(seat, f)
                if tile >= 0:
                    st.counts[tile] += 1
                    last = tile
            if seat == self.dealer and st.drawn >= FLOWER_BASE:
                st.drawn = last  # the dealer's "drawn" tile is his last replacement
        self.flower_replaced = False

    def _flowers_aside(self, seat: int, tile: int, kind: str = "") -> int:
        """Set a drawn flower aside and draw its replacement from the end,
        again while the replacement is a flower: the tile kept, -1 when the
        wall has no tile left to replace it, or -2 when another seat may
        win on the flower (`winning.on_flower`; in play, with `kind` the
        draw it interrupts): a claim window is open on it."""
        st = self.seats[seat]
        while tile >= FLOWER_BASE:
            st.flowers.append(tile)
            self._event("flower", seat=seat, tile=NAMES[tile])
            if kind and self.table.flower_robs and self._open_window(tile, seat, "flower", claims.open_flower_window):
                self.flower_kind = kind
                return -2
            tile = self._flower_replacement(seat)
        return tile

    def _flower_replacement(self, seat: int) -> int:
        """A flower's replacement from the end of the wall, or -1 when none is left."""
        if self.back - self.front - self.table.reserved_tail <= 0:
            return -1
        tile = self._draw_back()
        self.flower_replaced = True
        self._event("replacement", seat=seat, tile=NAMES[tile], flower=True)
        return tile

    def flower_passed(self, seat: int) -> None:
        """Nobody won on the flower `seat` set aside: it is replaced and
        the draw it interrupted goes on."""
        self.window = None
        tile = self._flower_replacement(seat)
        if tile < 0:
            self._end_draw()
            return
        self._receive(seat, tile, self.flower_kind, replaced=True)

    def _open_window(self, tile: int, source: int, kind: str, opener) -> bool:
        """A claim window on `tile`, when `opener` finds a seat with a claim."""
        window = Window(tile, source, kind)
        opener(self, window)
        if not window.choices:
            return False
        self.phase = CLAIM
        self.window = window
        return True

    def flower_robbed(self, winners: list, w: Window) -> None:
        """Seats win on the flower another set aside: it joins the first
        winner's flowers; settled as a win on the drawer's discard."""
        self.seats[w.source].flowers.pop()
        self.seats[winners[0]].flowers.append(w.tile)
        self._finish_win(winners, w.tile, self_drawn=False, source=w.source, valuations=w.valuations, flower=True)

    # ------------------------------------------------------------ wall

    def drawable(self) -> int:
        return self.back - self.front - self.table.reserved_tail - self.table.left_undrawn

    def face_up_tiles(self) -> list[int]:
        """The tail tiles turned face up, last = nearest the end."""
        n = self.table.face_up
        return self.wall[max(self.front, self.back - n) : self.back] if n else []

    def face_up_names(self) -> list[str]:
        return [NAMES[t] for t in self.face_up_tiles()]

    def kong_possible(self) -> bool:
        """A kong needs its replacement: a tile at the tail, or, with a
        face-up tail, a face-down tile left to turn over after the take."""
        if self.table.face_up:
            return self.back - self.front > self.table.face_up
        return self.drawable() > 0

    def _draw_front(self) -> int:
        tile = self.wall[self.front]
        self.front += 1
        return tile

    def _draw_back(self) -> int:
        """The last tile before the reserved tail (which is never drawn)."""
        i = self.back - self.table.reserved_tail - 1
        tile = self.wall.pop(i)
        self.back -= 1
        return tile

    # ------------------------------------------------------------ events

    def _event(self, event_type: str, **data) -> None:
        self.events.append({"type": event_type, **data})

    # ------------------------------------------------------------ seats

    def _order_from(self, seat: int) -> list[int]:
        """Seats in turn order starting at `seat`."""
        return _ORDERS[self.n][seat]

    def order_in(self, seat: int) -> list[int]:
        """Seats still in the hand in turn order starting at `seat`
        (`seat` first when it is still in)."""
        order = _ORDERS[self.n][seat]
        return [s for s in order if not self.seats[s].out] if self.any_out else order

    def next_in(self, seat: int) -> int:
        """The first seat after `seat` in turn order that is still in."""
        order = _ORDERS[self.n][seat]
        if not self.any_out:
            return order[1]
        return next(s for s in order[1:] if not self.seats[s].out)

    def restrict(self) -> None:
        """Fix what each seat's declarations forbid (`restrictions:`)."""
        restrictions.apply(self)

    def automatic_action(self, seat: int) -> Action | None:
        """An opening decision as automatic play makes it, or None outside
        the opening."""
        return opening.automatic(self, seat) if self.phase == START else None

    # ------------------------------------------------------------ turns

    def _begin_turn(self, seat: int, kind: str) -> None:
        self.phase = TURN
        self.current = seat
        self.turn_kind = kind
        self.seats[seat].deferred = False
        if kind in ("draw", "claim"):
            self.kong_chain = 0
            self.kong_fed_by = -1
        self.window = None
        self.flower_win = ""
        if self.table.flower_wins and kind != "claim":
            self.flower_win = claims.flower_win(self, seat)

    def _draw(self, seat: int) -> None:
        if self.drawable() <= 0:
            self._end_draw()
            return
        tile = self._draw_front()
        self.events.append({"type": "draw", "seat": seat, "tile": NAMES[tile]})  # _event, built in place
        self._receive(seat, tile, "draw")

    def _replacement(self, seat: int, tile: int = -1) -> None:
        """The kong's replacement: the tail tile, or the face-up tile chosen."""
        if tile < 0:
            tile = self._draw_back()
            self._event("replacement", seat=seat, tile=NAMES[tile])
        else:
            lo = max(self.front, self.back - self.table.face_up)
            i = max(i for i in range(lo, self.back) if self.wall[i] == tile)
            del self.wall[i]
            self.back -= 1
            self._event("replacement", seat=seat, tile=NAMES[tile], taken=True, face_up=self.face_up_names())
        self._receive(seat, tile, "replacement")  # a flower keeps the turn a kong replacement

    def _receive(self, seat: int, tile: int, kind: str, replaced: bool = False) -> None:
        """A drawn tile joins the hand (its flowers set aside first) and
        the seat's turn begins; no tile left ends the hand drawn."""
        self.flower_replaced = replaced
        tile = self._flowers_aside(seat, tile, kind)
        if tile == -2:
            return  # a claim window on the flower is open
        if tile < 0:
            self._end_draw()
            return
        st = self.seats[seat]
        st.counts[tile] += 1
        st.drawn = tile
        self._clear_refusals(seat)
        self._begin_turn(seat, kind)

    def _clear_refusals(self, seat: int, draw: bool = True) -> None:
        """A draw ends every refusal; a claim ends those not kept till a draw."""
        st = self.seats[seat]
        if st.refusals:
            st.refusals = [] if draw else [r for r in st.refusals if r[3]]

    # ------------------------------------------------------------ queries

    def legal_actions(self, seat: int) -> list[Action]:
        cached = self._legal.get(seat)
        if cached is None:
            cached = self._legal[seat] = self._compute_legal(seat)
        return list(cached)

    def _compute_legal(self, seat: int) -> list[Action]:
        if self.phase == END:
            return []
        if self.phase == START:
            if seat in self.start_choices and seat not in self.start_responses:
                return list(self.start_choices[seat])
            return []
        if self.phase == REPLACE:
            if seat != self.current:
                return []
            return [Action("take", t) for t in sorted(set(self.face_up_tiles()))]
        if self.phase == CLAIM:
            w = self.window
            assert w is not None
            if seat in w.choices and seat not in w.responses:
                return list(w.choices[seat])
            return []
        if seat != self.current:
            return []
        return claims.turn_actions(self, seat)

    def to_act(self) -> list[int]:
        """Seats that have a decision to make now."""
        if self.phase == END:
            return []
        if self.phase == START:
            return [s for s in self.start_choices if s not in self.start_responses]
        if self.phase == REPLACE:
            return [self.current]
        if self.phase == CLAIM:
            w = self.window
            assert w is not None
            return [s for s in w.choices if s not in w.responses]
        return [self.current]

    def must_win(self, self_drawn: bool = False) -> bool:
        return self.table.must_win(self, self_drawn)

    def forced_action(self, seat: int) -> Action | None:
        """The action the rules force on `seat`, when it has no choice."""
        acts = self.legal_actions(seat)
        if len(acts) == 1 and acts[0].verb != "pass":
            return acts[0]
        return None

    @property
    def over(self) -> bool:
        return self.phase == END

    def win_context(self, seat: int, tile: int, self_drawn: bool, source: int = -1, robbing: bool = False) -> WinContext:
        st = self.seats[seat]
        counts = list(st.counts)
        if self_drawn:
            counts[tile] -= 1
        everyone = [m for s in self.seats for m in s.melds]
        return WinContext(
            concealed=counts,
            melds=list(st.melds),
            win_tile=tile,
            self_drawn=self_drawn,
            robbing_kong=robbing,
            kong_replacement=self_drawn and self.turn_kind == "replacement",
            kong_chain=self.kong_chain if self_drawn and self.turn_kind == "replacement" else 0,
            after_kong_discard=(not self_drawn) and (not robbing) and self.after_kong_discard,
            last_tile=self.drawable() <= 0 and not robbing,
            last_copy=self._visible(tile, -1 if self_drawn or robbing else source) == self.table.ruleset.copies - 1,
            first_turn=self._first_turn(seat, self_drawn),
            first_discard=not self_drawn and not robbing and self.discards_made == 1,
            is_dealer=seat == self.dealer,
            discarder_is_dealer=source == self.dealer,
            declared_ready=st.declared,
            seat_wind=27 + (seat - self.dealer) % self.n,
            round_wind=self.round_wind,
            flowers=len(st.flowers),
            flowers_aside=tuple(st.flowers),
            players=self.n,
            first_draw=self_drawn and not st.has_discarded and self.turn_kind in ("deal", "draw"),
            flower_replacement=self_drawn and self.flower_replaced and self.turn_kind in ("draw", "replacement"),
            # a discard won earlier in the hand was claimed too
            game_claims=sum(1 for m in everyone if m.claimed_from_other) + sum(1 for w in self.wins if w.discarder >= 0),
            game_melds=len(everyone),
            declared_at_opening=st.opening_ready,
            doublings=st.doublings,
            choices=st.choices,
        )

    def _first_turn(self, seat: int, self_drawn: bool) -> bool:
        if self.melds_made:
            return False
        if self_drawn:
            return not self.seats[seat].has_discarded
        return self.discards_made == 1

    def _visible(self, tile: int, discarder: int = -1) -> int:
        """Copies of `tile` on the table: unclaimed discards and exposed
        melds, less the `discarder`'s last discard (the tile being won)."""
        n = 0
        for st in self.seats:
            n += sum(1 for t, c in zip(st.discards, st.claimed) if t == tile and not c)
            n += sum(m.tiles.count(tile) for m in st.melds if m.exposed)
        if discarder >= 0:
            st = self.seats[discarder]
            if st.discards and st.discards[-1] == tile and not st.claimed[-1]:
                n -= 1
        return n

    def valuation(self, seat: int, tile: int, self_drawn: bool, source: int = -1, robbing: bool = False,
                  shapeless: bool = False):
        return evaluate(self.table, self.win_context(seat, tile, self_drawn, source, robbing), shapeless=shapeless)

    # ------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action) -> None:
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self._compute_legal(seat)
        if action not in legal:
            raise IllegalAction(seat, action, claims.explain(self, seat, action, list(legal)))
        self._legal = {}
        self.log.append((seat, action))
        if self.phase == START:
            self._apply_start(seat, action)
        elif self.phase == CLAIM:
            self._apply_claim(seat, action)
        elif self.phase == REPLACE:
            self._replacement(seat, action.tile)
        else:
            self._apply_turn(seat, action)

    def _apply_start(self, seat: int, action: Action) -> None:
        opening.answer(self, seat, action)

    def _declare(self, seat: int, opening: bool = False) -> None:
        st = self.seats[seat]
        st.declared = True
        st.opening_ready = opening
        self.bind(seat, self.table.ready_forbids, self.table.ready_kong, self.table.ready_locks)

    def bind(self, seat: int, forbids, kong_rule: str, locked: bool) -> None:
        """From now on the seat may not make the claims `forbids`, kongs
        only as `kong_rule` allows (its waits, and their values, kept),
        and, `locked`, discards every tile it draws and does not win or
        kong with: a declared ready hand, or a winner who stays in."""
        st = self.seats[seat]
        st.forbids = frozenset(forbids)
        st.kong_rule = kong_rule
        st.locked = locked
        st.declared_waits = tuple(analysis.waits(self.table, st.counts, st.melds))
        if kong_rule == "same_waits_and_values":
            st.declared_values = tuple(claims.wait_values(self, seat, st.counts, st.melds))

    def _apply_turn(self, seat: int, action: Action) -> None:
        st = self.seats[seat]
        verb, tile = action.verb, action.tile
        if verb == "hu" and self.flower_win:
            v = claims.flower_win_valuation(self.table, self.flower_win)
            self._finish_win([seat], tile=st.flowers[-1], self_drawn=True, source=-1, valuations={seat: v}, flower=True)
        elif verb == "hu":
            v = claims.can_self_draw(self, seat)
            self._finish_win([seat], tile=st.drawn, self_drawn=True, source=-1, valuations={seat: v})
        elif verb in ("discard", "ready"):
            self._discard(seat, tile, declare=verb == "ready")
        elif verb == "kong" and action.extra:
            self._special_set(seat, action.extra)
        elif verb == "kong":
            self._turn_kong(seat, tile)
        elif verb == "double":
            self._double(seat)

    def _double(self, seat: int) -> None:
        """加倍: the win on offer is forgone and the seat's multiplier doubles."""
        st = self.seats[seat]
        st.doublings += 1
        st.deferred = True
        self._event("double", seat=seat, doublings=st.doublings)

    def _discard(self, seat: int, tile: int, declare: bool) -> None:
        st = self.seats[seat]
        # the dealer's first discard, before any kong: an opening declaration
        opening = seat == self.dealer and self.turn_kind == "deal" and not st.has_discarded
        st.counts[tile] -= 1
        st.discards.append(tile)
        st.claimed.append(False)
        st.drawn = -1
        st.has_discarded = True
        self.discards_made += 1
        self.after_kong_discard = self.kong_chain > 0
        if self.follow is not None:
            self._follow(seat, tile)
        if declare:
            self._declare(seat, opening)
        # the event as _event makes it, built in place (the hot path)
        event = {"type": "discard", "seat": seat, "tile": NAMES[tile]}
        if declare:
            event["ready"] = True
        self.events.append(event)
        window = Window(tile, seat, "discard")  # _open_window, with a native call of the opener
        claims.open_discard_window(self, window)
        if window.choices:
            self.phase = CLAIM
            self.window = window
        else:
            self._next_draw(seat)

    def _follow(self, seat: int, tile: int) -> None:
        """Follow-the-dealer rounds: every other seat discards the dealer's tile."""
        f = self.follow
        assert f is not None
        if seat == self.dealer:
            f["tile"], f["count"] = tile, 0
            return
        if tile != f["tile"]:
            self.follow = None
            return
        f["count"] += 1
        if f["count"] == self.n - 1:
            from .facts import PlayFacts
            from .settlement import Payment

            rule = self.table.follow
            assert rule is not None  # self.follow is set only where the table has the rule
            amount = rule.amount(PlayFacts(self, f["round"]), self.table.o)
            for other in self._order_from(self.dealer)[1:]:
                if amount:
                    p = Payment(self.dealer, other, amount, rule.reason)
                    self.payments.append(p)
                    self._event("payment", **p.to_json())
            f["round"] += 1
            f["tile"] = -1

    def _next_draw(self, after: int) -> None:
        """Nobody claimed `after`'s discard: perhaps his run of discards
        wins, else the next seat draws."""
        passed_history = self.window is not None and self.window.kind == "history"
        if self.table.history_wins and not passed_history:
            if self._open_window(self.seats[after].discards[-1], after, "history", claims.open_history_window):
                return
        self.window = None
        self.after_kong_discard = False
        self._draw(self.next_in(after))

    def _turn_kong(self, seat: int, tile: int) -> None:
        st = self.seats[seat]
        for i, m in enumerate(st.melds):
            if m.type == PUNG and m.tile == tile:
                st.counts[tile] -= 1
                st.melds[i] = Meld(KONG, tile, ADDED, m.source, m.claimed)
                self._event("kong", seat=seat, tile=NAMES[tile], kind=ADDED)
                if ADDED in self.table.rob_kinds and self._open_window(tile, seat, "rob", claims.open_rob_window):
                    return
                self._after_kong(seat, ADDED, tile=tile)
                return
        st.counts[tile] -= 4
        st.melds.append(Meld(KONG, tile, CONCEALED))
        self._event("kong", seat=seat, tile=NAMES[tile], kind=CONCEALED)
        self._after_kong(seat, CONCEALED, tile=tile)

    def _special_set(self, seat: int, group: tuple) -> None:
        """A special set laid down from the hand: four tiles like a kong
        (a replacement follows), three like a pung (the turn goes on)."""
        spec = self.table.special_by_group[group]
        st = self.seats[seat]
        for t in group:
            st.counts[t] -= 1
        st.melds.append(Meld(SPECIAL, group[0], spec.id, -1, -1, group))
        self._event("kong", seat=seat, kind=spec.id, tiles=[NAMES[t] for t in group])
        if len(group) == 4:
            self._after_kong(seat, spec.id, tile=group[0])
            return
        self._laid_down(seat, spec.id, -1, group[0])
        if st.drawn >= 0 and st.counts[st.drawn] == 0:
            st.drawn = -1

    def _laid_down(self, seat: int, kind: str, feeder: int, tile: int) -> None:
        """A kong (or special set) stands: it is recorded and paid for."""
        self.follow = None
        self.melds_made = True
        self._clear_refusals(seat, draw=False)
        self.kongs.append((seat, kind, feeder, tile))
        for p in settlement.kong_payments_now(self):
            self.payments.append(p)
            self._event("payment", **p.to_json())

    def _after_kong(self, seat: int, kind: str, feeder: int = -1, tile: int = -1) -> None:
        self.kong_chain += 1
        self._laid_down(seat, kind, feeder, tile)
        if self.table.face_up:
            self.phase = REPLACE
            self.current = seat
            self.window = None
        else:
            self._replacement(seat)

    def _apply_claim(self, seat: int, action: Action) -> None:
        w = self.window
        assert w is not None
        w.responses[seat] = action
        if action.verb == "double":
            st = self.seats[seat]
            st.doublings += 1
            self._event("double", seat=seat, doublings=st.doublings)
        if action.verb in ("pass", "double"):
            claims.record_pass(self, seat, w)
        if len(w.responses) == len(w.choices):
            claims.resolve(self, w)

    # ------------------------------------------------------------ claims resolved

    def take_discard(self, w: Window) -> None:
        st = self.seats[w.source]
        st.claimed[-1] = True

    def claim_pong(self, seat: int, w: Window) -> None:
        self.take_discard(w)
        st = self.seats[seat]
        st.counts[w.tile] -= 2
        st.melds.append(Meld(PUNG, w.tile, "", w.source, w.tile))
        self.melds_made = True
        self.follow = None
        self._clear_refusals(seat, draw=False)
        self._event("pong", seat=seat, tile=NAMES[w.tile], source=w.source)
        self._begin_turn(seat, "claim")
        st.drawn = -1

    def claim_chow(self, seat: int, w: Window, tiles: tuple) -> None:
        self.take_discard(w)
        st = self.seats[seat]
        for t in tiles:
            st.counts[t] -= 1
        low = min(tiles + (w.tile,))
        st.melds.append(Meld(CHOW, low, "", w.source, w.tile))
        self.melds_made = True
        self.follow = None
        self._clear_refusals(seat, draw=False)
        self._event("chow", seat=seat, tile=NAMES[w.tile], tiles=[NAMES[t] for t in tiles], source=w.source)
        self._begin_turn(seat, "claim")
        st.drawn = -1

    def claim_kong(self, seat: int, w: Window) -> None:
        self.take_discard(w)
        st = self.seats[seat]
        st.counts[w.tile] -= 3
        st.melds.append(Meld(KONG, w.tile, DIRECT, w.source, w.tile))
        self._event("kong", seat=seat, tile=NAMES[w.tile], kind=DIRECT, source=w.source)
        self._begin_turn(seat, "claim")
        self.kong_fed_by = w.source
        self._after_kong(seat, DIRECT, w.source, w.tile)

    def complete_added_kong(self, w: Window) -> None:
        self.window = None
        self._after_kong(w.source, ADDED, tile=w.tile)

    # ------------------------------------------------------------ ending

    def _finish_win(self, winners: list[int], tile: int, self_drawn: bool, source: int, robbing: bool = False,
                    valuations=None, flower: bool = False) -> None:
        """`flower`: a win on flowers (one's own, or another's set aside),
        whose tile is already among the winner's flowers."""
        vals = {}
        for seat in winners:
            v = (valuations or {}).get(seat) or self.valuation(seat, tile, self_drawn, source, robbing)
            vals[seat] = v
            self._event("hu", seat=seat, tile=NAMES[tile], self_drawn=self_drawn, **({"source": source} if source >= 0 else {}))
        if robbing:
            owner = self.seats[source]
            for i, m in enumerate(owner.melds):
                if m.type == KONG and m.tile == tile and m.kind == ADDED:
                    owner.melds[i] = Meld(PUNG, tile, "", m.source, m.claimed)
        elif not self_drawn and source >= 0 and not flower:
            self.seats[source].claimed[-1] = True
        if not self_drawn and not flower:
            self.seats[winners[0]].won_tiles.append(tile)  # the discard (or robbed tile) goes to the winner
        if self.table.after_win == "end":
            self.result = settlement.settle_win(self, winners, tile, self_drawn, source, robbing, vals)
            self._end()
            return
        hand_end.win_settled(self, winners, tile, self_drawn, source, robbing, vals)

    def _end_draw(self) -> None:
        """The wall is exhausted."""
        if self.table.after_win == "end":
            self.result = settlement.settle_draw(self)
        else:
            self.result = hand_end.result(self, exhausted=True)
        self._end()

    def _end(self) -> None:
        self.phase = END
        self.window = None
        r = self.result
        self._event(
            "end", end=r.end, winners=r.winners, deltas=r.deltas, next_dealer=r.next_dealer,
        )

    # ------------------------------------------------------------ views

    def view(self, seat: int) -> dict:
        from .views import seat_view

        return seat_view(self, seat)

    def to_json(self) -> dict:
        from .state_json import game_to_json

        return game_to_json(self)

    @staticmethod
    def from_json(data: dict, table=None) -> "Game":
        from .state_json import game_from_json

        return game_from_json(data, table)


def wild_after(table, indicator: int) -> int:
    """The kind after the indicator: 9 wraps to 1 within a suit, honours
    follow the variant's order; kinds out of play are skipped."""
    kinds = table.kind_set
    if indicator >= 27:
        order = table.honour_order
        i = order.index(indicator) if indicator in order else -1
        return order[(i + 1) % len(order)]
    base = indicator - indicator % 9
    t = indicator
    for _ in range(9):
        t = base + (t - base + 1) % 9
        if t in kinds:
            return t
    return indicator


def deal(
    table, seed: bytes | str | int, dealer: int = 0, round_wind: int = 27, hand_number: int = 0, streak: int = 0,
    exchange_direction: str = "",
) -> Game:
    """Shuffle the variant's tiles with the seed and deal a hand.

    The dealer takes the first `dealer_tiles` tiles of the shuffled wall,
    then each seat in turn order takes `other_tiles`; the rest is the wall.
    Bought horses come from a second deck, shuffled with the sub-seed
    `derive(seed, "horses")` and dealt from the dealer round the table.
    """
    from .shuffle import derive, shuffled

    rs = table.ruleset
    wall = shuffled(table.wall_tiles(), seed)
    hands: list[list[int]] = [[] for _ in range(table.players)]
    pos = 0
    for i in range(table.players):
        seat = (dealer + i) % table.players
        size = rs.dealer_tiles if i == 0 else rs.other_tiles
        hands[seat] = wall[pos : pos + size]
        pos += size
    horse_deck = shuffled(table.wall_tiles(), derive(seed, "horses")) if table.horses_each or table.horses_dealer else None
    return Game(
        table, hands, wall[pos:], dealer, round_wind, hand_number, streak=streak, horse_deck=horse_deck, seed=seed,
        exchange_direction=exchange_direction,
    )


__all__ = ["Game", "IllegalAction", "deal", "counts_of", "START", "TURN", "CLAIM", "END"]
