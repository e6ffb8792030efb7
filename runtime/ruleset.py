"""The shape of a compiled ruleset.

A generated module builds one `Ruleset` out of these immutable classes.
Fields that a variant may tie to table options hold either a constant or a
function of `(o, n)` (options, player count); `Ruleset.configure` resolves
them once per table into a `Table`, so play never re-evaluates them.

The specs are plain classes with an explicit `__init__`, not dataclasses,
for import time (issue 14): `@dataclass` execs generated code for every
class when the module loads (compiled too) and `dataclasses` imports
`inspect`; the two cost ~70 ms of importing a variant. They are immutable
by convention (nothing assigns to a spec after it is built) and compare by
identity: nothing compares or hashes them by value. `runtime.copying.replace`
is `dataclasses.replace` for them.
"""

from __future__ import annotations

import sys

from .combos import SetPattern  # noqa: F401  (generated modules import it from here)
from .exclusion_order import excluders_first

TYPE_CHECKING = False  # mypy reads the block below; at run time `typing` is not imported (import time)
if TYPE_CHECKING:
    from typing import Any, Callable, Final


class OptionError(ValueError):
    """A table option or player count the variant does not offer."""


class Spec:
    """An immutable spec: a copy is the spec itself (copy.deepcopy of a
    compiled game, which copies field by field)."""

    def __copy__(self) -> "Spec":
        return self

    def __deepcopy__(self, memo: dict) -> "Spec":
        return self


class Text(Spec):
    def __init__(self, zh: str, en: str) -> None:
        self.zh = zh
        self.en = en

    def both(self) -> str:
        if self.zh and self.en and self.zh != self.en:
            return f"{self.zh} ({self.en})"
        return self.zh or self.en


class OptionSpec(Spec):
    def __init__(
        self,
        id: str,
        name: Text,
        type: str,
        default: Any,
        values: tuple = (),
        labels: tuple = (),
        minimum: int | None = None,
        maximum: int | None = None,
        advanced: bool = False,
        rule: str = "",
        doc: str = "",
    ) -> None:
        self.id = id
        self.name = name
        self.type = type  # bool, int or choice
        self.default = default
        self.values = values  # allowed values; empty = any within min/max
        self.labels = labels  # Text per value, parallel to values
        self.minimum = minimum
        self.maximum = maximum
        self.advanced = advanced
        self.rule = rule
        self.doc = doc

    def coerce(self, value: Any) -> Any:
        """The value as this option stores it; raises OptionError."""
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            raise OptionError(f"option {self.id} takes true or false, not {value!r}")
        if self.type == "int":
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.id} takes an integer, not {value!r}")
        if self.type == "choice":
            for v in self.values:
                if str(v) == str(value):
                    return v
            raise OptionError(
                f"option {self.id} has no value {value!r}; expected one of: "
                + ", ".join(str(v) for v in self.values)
            )
        if self.values and value not in self.values:
            raise OptionError(
                f"option {self.id} has no value {value!r}; expected one of: "
                + ", ".join(str(v) for v in self.values)
            )
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.id} must be at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.id} must be at most {self.maximum}, not {value}")
        return value


class ConstraintSpec(Spec):
    def __init__(self, check: Callable, message: Text, source: str) -> None:
        self.check = check
        self.message = message
        self.source = source


class FanSpec(Spec):
    def __init__(
        self,
        id: str,
        name: Text,
        value: Any,
        when: Callable | None,
        count: Callable | None,
        per_arrangement: bool,
        excludes: tuple = (),
        alone: bool = False,
        sets: Any = None,
        each: Any = None,
        excludes_times: tuple = (),
        excludes_sets: tuple = (),
        bonus: bool = False,
        rule: str = "",
        when_source: str = "true",
        count_source: str = "",
        doc: str = "",
    ) -> None:
        self.id = id
        self.name = name
        self.value = value  # int or f(o, n)
        self.when = when  # f(h, d, o) -> bool; None = always
        self.count = count  # f(h, d, o) -> int; None = 1
        self.per_arrangement = per_arrangement  # reads facts of one arrangement (d)
        self.excludes = excludes  # ids this fan excludes (closed under exclusion when the table's exclusion is transitive)
        self.alone = alone  # counted only when no other fan is
        self.sets = sets  # combos.SetPattern: a fan over a group of sets
        self.each = each  # (kind, f(h, d, o) -> tiles): counted once per such set
        self.excludes_times = excludes_times  # (id, n): this fan removes n counts of that fan (不计 ×n)
        self.excludes_sets = excludes_sets  # ids of per-set fans not counted again on this fan's sets
        self.bonus = bonus  # added to the hand's fans (flowers); does not stop a fan counted alone
        self.rule = rule
        self.when_source = when_source
        self.count_source = count_source
        self.doc = doc


class PassRule(Spec):
    """A refusal that lasts after a pass, until the passer's own next draw or claim."""

    def __init__(
        self,
        claim: str,
        when: Any,
        same_tile: bool,
        unless_worth_more: bool,
        until_draw: bool = False,
    ) -> None:
        self.claim = claim  # hu or pong
        self.when = when  # bool or f(o, n)
        self.same_tile = same_tile  # True: only the passed tile kind; False: every tile
        self.unless_worth_more = unless_worth_more  # a strictly more valuable win lifts it
        self.until_draw = until_draw  # lasts through the passer's claims, until his draw


class ClaimsSpec(Spec):
    def __init__(
        self,
        chow: Any = False,
        pong: Any = True,
        kong: Any = True,
        hu: Any = True,
        priority: tuple = (("hu",), ("kong", "pong"), ("chow",)),
        multiple_winners: Any = True,
        last_discard: tuple = ("hu",),
        rob_kinds: tuple = ("added",),
        rob_when: Any = True,
        rob_counts_as: Any = "discard",
        must_win: Any = False,
        pass_rules: tuple = (),
        join_wins: Any = False,
    ) -> None:
        self.chow = chow
        self.pong = pong
        self.kong = kong
        self.hu = hu
        self.priority = priority
        self.multiple_winners = multiple_winners
        self.last_discard = last_discard
        self.rob_kinds = rob_kinds
        self.rob_when = rob_when
        self.rob_counts_as = rob_counts_as  # discard or self_draw, or f(o, n) giving one
        self.must_win = must_win  # bool or f(p, o) over the game as it stands
        self.pass_rules = pass_rules
        self.join_wins = join_wins  # one seat's win on a discard carries all who could win


class KongSpec(Spec):
    def __init__(
        self,
        concealed: Any = True,
        added: Any = True,
        in_pung_turn: Any = True,
        chain: Any = True,
        show_concealed: bool = False,
    ) -> None:
        self.concealed = concealed
        self.added = added
        self.in_pung_turn = in_pung_turn
        self.chain = chain
        self.show_concealed = show_concealed  # other players see one tile of a concealed kong


class ReadySpec(Spec):
    def __init__(
        self,
        declare: str = "none",
        locks_hand: Any = True,
        forbids: tuple = ("pong", "chow"),
        kong: str = "same_waits",
        when: Any = True,
        kong_ignores: tuple = (),
    ) -> None:
        self.declare = declare  # none, opening or any_turn (the opening and any later discard)
        self.locks_hand = locks_hand
        self.forbids = forbids
        self.kong = kong  # never, same_waits, same_waits_and_values, any
        self.when = when  # declaring is offered at this table
        self.kong_ignores = kong_ignores  # fans left out when comparing wait values


class WinSpec(Spec):
    def __init__(
        self,
        standard: bool = True,
        seven_pairs: bool = False,
        quads_as_two_pairs: bool = True,
        thirteen_orphans: bool = False,
        honours_and_knitted: bool = False,
        knitted_straight: bool = False,
        allowed: Callable | None = None,
        allowed_source: str = "",
        why_not: Text = Text("", ""),
        double: Any = False,
    ) -> None:
        self.standard = standard
        self.seven_pairs = seven_pairs
        self.quads_as_two_pairs = quads_as_two_pairs
        self.thirteen_orphans = thirteen_orphans
        self.honours_and_knitted = honours_and_knitted  # fourteen different tiles around a knitted straight
        self.knitted_straight = knitted_straight  # a knitted straight, one more set and a pair
        self.allowed = allowed  # f(h, r, o) -> bool
        self.allowed_source = allowed_source
        self.why_not = why_not
        self.double = double  # a possible win may be deferred to double (加倍)


WORD: "Final" = 62  # bits of a mask word: below mypyc's 63-bit small ints
LOW_WORD: "Final" = (1 << WORD) - 1


class FlatFans:
    """The fan table as the compiler lays it out for the fast scoring path.

    Fans sit at bit positions in exclusion order (every fan after the fans
    that exclude it), so settling 不计 walks a hit mask from its low bit up.
    Every mask is over those positions.
    """

    def __init__(
        self,
        order: tuple[int, ...],
        position: tuple[int, ...],
        excludes: tuple[int, ...],
        excludes_times: tuple[tuple[tuple[int, int], ...], ...],
        excludes_sets: tuple[int, ...],
        partial: int = 0,
        alone: int = 0,
        bonus: int = 0,
        prefer: int = 0,
        listed: bool = False,
    ) -> None:
        self.order = order  # the fan index at each position
        self.position = position  # the position of each fan index
        self.excludes = excludes  # per position: the fans it excludes (the closure when exclusion is transitive)
        self.excludes_times = excludes_times  # per position: (position, n) counts it removes
        self.excludes_sets = excludes_sets  # per position: per-set fans not counted again on its sets
        self.partial = partial  # fans with 不计 ×n or 不计 on their sets: the only ones needing more than a mask
        self.alone = alone  # fans counted only when nothing else is
        self.bonus = bonus  # fans that do not stop a fan counted alone
        self.prefer = prefer  # on equal totals, a reading counting one of these is kept
        self.listed = listed  # only counted fans exclude (else every hit fan does)
        # derived, for runtime/flat.py: masks split into words of WORD bits
        # (small ints: a compiled build works on them without allocating)
        self.excludes_low = tuple(m & LOW_WORD for m in excludes)
        self.excludes_high = tuple(m >> WORD for m in excludes)
        self.partial_low, self.partial_high = partial & LOW_WORD, partial >> WORD
        self.alone_low, self.alone_high = alone & LOW_WORD, alone >> WORD
        other = ~(alone | bonus) & ((1 << len(order)) - 1)  # fans that stop one counted alone
        self.other_low, self.other_high = other & LOW_WORD, other >> WORD


class ScoringSpec(Spec):
    def __init__(
        self,
        unit: str,
        unit_name: Text,
        combine: Any,
        fans: tuple,
        cap: Any = 0,
        final: Callable | None = None,
        final_source: str = "",
        exclusion: str = "transitive",
        set_principle: str = "account_once",
        prefer: tuple = (),
        fans_of_hand: Callable | None = None,
        fans_of_arrangement: Callable | None = None,
        flat: FlatFans | None = None,
        flat_fans_of_hand: Callable | None = None,
        flat_fans_of_arrangement: Callable | None = None,
    ) -> None:
        self.unit = unit
        self.unit_name = unit_name
        self.combine = combine  # add or multiply, or f(o, n) giving one
        self.fans = fans  # FanSpec, in evaluation order
        self.cap = cap  # the most a total may be; 0 = no cap
        self.final = final  # f(h, r, o): the total from the combined fans
        self.final_source = final_source
        self.exclusion = exclusion  # transitive, or listed (only counted fans exclude, as listed)
        self.set_principle = set_principle  # how fans over groups of sets combine (combos.py)
        self.prefer = prefer  # fan ids: on equal totals, a reading counting one of them is kept
        self.fans_of_hand = fans_of_hand  # f(h, o) -> [(fan index, count)]: plain fans read from the hand
        self.fans_of_arrangement = fans_of_arrangement  # f(h, d, o) -> [(fan index, count)]: those reading one arrangement
        self.flat = flat  # the same table for the fast path (runtime/flat.py)
        self.flat_fans_of_hand = flat_fans_of_hand  # f(h, o, many) -> mask of positions; counts other than 1 into many
        self.flat_fans_of_arrangement = flat_fans_of_arrangement  # f(h, d, o, many) -> mask, likewise


class LiableSpec(Spec):
    """When `when` holds, `who` pays every payer's share of the win."""

    def __init__(self, when: Callable, who: str, source: str = "") -> None:
        self.when = when  # f(h, r, o)
        self.who = who  # discarder or kong_feeder
        self.source = source


class SettlementSpec(Spec):
    def __init__(
        self,
        discard_payers: Any = "discarder",
        self_draw_payers: str = "others",
        amount: Callable | None = None,
        amount_source: str = "total",
        self_draw_when: Callable | None = None,
        self_draw_when_source: str = "",
        liable: tuple = (),
        extras: tuple = (),
        table_fee: Any = 0,
    ) -> None:
        self.discard_payers = discard_payers  # discarder or others, or f(o, n) giving one
        self.self_draw_payers = self_draw_payers
        self.amount = amount  # f(s, o) -> int
        self.amount_source = amount_source
        self.self_draw_when = self_draw_when  # f(h, r, o): settle a discard win as a self-draw
        self.self_draw_when_source = self_draw_when_source
        self.liable = liable  # LiableSpec
        self.extras = extras  # (reason, f(s, o), source): more lines per payer and winner
        self.table_fee = table_fee  # every seat pays the house this much each hand (台费)


class KongPaySpec(Spec):
    """Kong payments: per kind (direct, added, concealed) who pays how much."""

    def __init__(self, timing: str, at_draw: Any, rules: tuple, reason: str = "kong") -> None:
        self.timing = timing  # immediate, at_end or owner_wins
        self.at_draw = at_draw  # at_end: paid too at an exhausted wall
        self.rules = rules  # (kind, who, amount), who: discarder or others
        self.reason = reason


class SpecialSetSpec(Spec):
    """A named set of distinct tiles a player lays down from his hand.

    Four tiles are laid down like a kong and draw a replacement from the
    tail; three are laid down like a pung and draw nothing. `counts_as`
    says what the set is in the hand's sets: kong (a pung or kong for
    `sets.pungs` and `sets.kongs`) or set (a set of its own)."""

    def __init__(
        self,
        id: str,
        name: Text,
        groups: tuple,
        counts_as: str = "set",
        declare: str = "opening",
        payment: Any = 0,
        when: Any = True,
        rule: str = "",
    ) -> None:
        self.id = id
        self.name = name
        self.groups = groups  # tuples of distinct tiles, sorted
        self.counts_as = counts_as  # kong or set
        self.declare = declare  # opening: before the player's first discard; any_turn
        self.payment = payment  # int or f(k, o): what each other player pays its owner
        self.when = when
        self.rule = rule


class ObservationSpec(Spec):
    """What a seat may see beyond its own tiles."""

    def __init__(self, ready_player_sees_opponent: Any = False) -> None:
        self.ready_player_sees_opponent = ready_player_sees_opponent  # a declared player sees the others' concealed tiles


class StakesSpec(Spec):
    """Stakes each seat buys before the deal."""

    def __init__(self, when: Any, values: tuple) -> None:
        self.when = when
        self.values = values


class HorseSpec(Spec):
    def __init__(
        self,
        seats: dict,
        bought_each: Any = 0,
        bought_dealer: Any = 0,
        mirror: str = "win",
        reason: str = "horse",
        reward: Any = 0,
        amount: Callable | None = None,
    ) -> None:
        self.seats = seats  # player count -> tuple, per seat offset from the dealer, of tile tuples
        self.bought_each = bought_each
        self.bought_dealer = bought_dealer
        self.mirror = mirror
        self.reason = reason
        self.reward = reward
        self.amount = amount  # f(s, o) with s.share: a horse's payment per share; None = the share


class FollowSpec(Spec):
    def __init__(self, when: Any, amount: Callable, amount_source: str, reason: str = "gen_zhuang") -> None:
        self.when = when
        self.amount = amount  # f(p, o) with p.follow_round
        self.amount_source = amount_source
        self.reason = reason


class WildSpec(Spec):
    def __init__(
        self,
        fixed: tuple = (),
        indicator: Any = False,
        honour_order: tuple = tuple(range(27, 34)),
        win_with_count: int = 0,
        win_with_when: Any = False,
    ) -> None:
        self.fixed = fixed  # (tiles, when): kinds wild at some tables
        self.indicator = indicator  # a turned tile names the wild kind for the hand
        self.honour_order = honour_order
        self.win_with_count = win_with_count  # holding this many wilds wins at once
        self.win_with_when = win_with_when


class HistoryWinSpec(Spec):
    """A win on a seat's run of discards, the hand not examined."""

    def __init__(self, id: str, name: Text, when: Callable, when_source: str, fans: tuple) -> None:
        self.id = id
        self.name = name
        self.when = when  # f(s, o) over the seat
        self.when_source = when_source
        self.fans = fans  # fan ids counted


class WallRuleSpec(Spec):
    """One rule of an exhausted wall (`settlement.exhausted_wall`), run in
    the declared order among the seats that have not won this hand.

    A `pay` rule: every seat for which `pays` holds pays every seat for
    which `collects` holds (`pays` left out: every seat taking part that
    does not collect) the `amount`, where `total` is the collector's best
    discard-win value over its waits (a ready check). A
    `refund` rule: every seat for which `by` holds returns the payments of
    reason `refund` it received this hand (and still holds) to those who
    paid them and take part."""

    def __init__(
        self,
        id: str,
        name: Text,
        kind: str,
        when: Any = True,
        pays: Callable | None = None,
        pays_source: str = "",
        collects: Callable | None = None,
        collects_source: str = "",
        amount: Callable | None = None,
        amount_source: str = "",
        ignore_fans: tuple = (),
        refund: str = "",
        by: Callable | None = None,
        by_source: str = "",
        rule: str = "",
    ) -> None:
        self.id = id  # the payment reason
        self.name = name
        self.kind = kind  # pay or refund
        self.when = when
        self.pays = pays  # f(s, o) over one seat
        self.pays_source = pays_source
        self.collects = collects  # f(s, o) over one seat
        self.collects_source = collects_source
        self.amount = amount  # f(s, o): one payer to one collector
        self.amount_source = amount_source
        self.ignore_fans = ignore_fans  # fans left out of the collector's value
        self.refund = refund  # refund: the reason of the payments returned
        self.by = by  # refund: f(s, o), the seats that return
        self.by_source = by_source
        self.rule = rule


class OpeningStep(Spec):
    """One step of the opening (`opening:`), run in the declared order
    before the dealer's first discard: stakes, deal, flowers, exchange,
    declare or ready (runtime/opening.py)."""

    def __init__(
        self,
        kind: str,
        id: str = "",
        name: Text = Text("", ""),
        when: Any = True,
        tiles: int = 0,
        same_suit: bool = True,
        directions: tuple = (),
        choices: tuple = (),
        choices_are_suits: bool = False,
        auto: str = "first",
        rule: str = "",
    ) -> None:
        self.kind = kind
        self.id = id  # exchange and declare: the step's id (a declaration's id is its verb)
        self.name = name
        self.when = when
        self.tiles = tiles  # exchange: the tiles each seat passes
        self.same_suit = same_suit  # exchange: all of one suit
        self.directions = directions  # exchange: next, previous, across; several: drawn from the hand's seed
        self.choices = choices  # declare: the values offered
        self.choices_are_suits = choices_are_suits  # declare: the table's number suits (m, p, s) are the values
        self.auto = auto  # declare: how automatic play chooses: fewest_suit or first
        self.rule = rule


class RestrictionSpec(Spec):
    """What a seat may not do with some tiles, given its declarations
    (`restrictions:`): `tiles` is f(t, s, o) over one tile kind and the
    seat, fixed once the seat's declarations are known."""

    def __init__(
        self,
        tiles: Callable,
        tiles_source: str,
        discard_first: bool = False,
        forbids: tuple = (),
        no_win: bool = False,
        why: Text = Text("", ""),
        rule: str = "",
    ) -> None:
        self.tiles = tiles
        self.tiles_source = tiles_source
        self.discard_first = discard_first  # while it holds such tiles, it discards one of them
        self.forbids = forbids  # pong, kong (every kind), chow: not with such a tile
        self.no_win = no_win  # a hand holding such a tile neither wins nor is ready
        self.why = why
        self.rule = rule


class HandEndSpec(Spec):
    """When a hand ends (`hand_end:`): at the first win (`end`), or winners
    leave and the others play on until `until_in` seats are left or the
    wall is empty (`leave`), or winners stay in, locked, and may win again
    until the wall is empty (`stay`)."""

    def __init__(
        self,
        winners: str = "end",
        until_in: Any = 1,
        resume: str = "after_last_winner",
        locked_forbids: tuple = ("pong", "chow"),
        locked_kong: str = "same_waits",
    ) -> None:
        self.winners = winners
        self.until_in = until_in
        self.resume = resume  # or after_discarder: who draws after a win
        self.locked_forbids = locked_forbids  # stay: claims a winner may no longer make
        self.locked_kong = locked_kong  # stay: kongs a winner may still make


class PaymentMoveSpec(Spec):
    """On a win, payments made earlier in the hand pass to a winner: what
    the discarder's latest kong collected, when `when` holds for the win
    (f(h, r, o))."""

    def __init__(
        self,
        payments: str,
        when: Callable,
        when_source: str,
        to: str = "first_winner",
        reason: str = "moved",
        name: Text = Text("", ""),
    ) -> None:
        self.payments = payments  # discarder_last_kong
        self.when = when
        self.when_source = when_source
        self.to = to  # the first winner in turn order after the discarder
        self.reason = reason
        self.name = name


class DealerSpec(Spec):
    def __init__(
        self,
        first: str = "0",
        next: tuple = (("several_winners", "discarder"), ("win", "winner"), ("draw", "dealer")),
        may_repeat: Any = True,
        creator_deals: Any = False,
    ) -> None:
        self.first = first  # a seat number or "random"
        self.next = next
        self.may_repeat = may_repeat
        self.creator_deals = creator_deals  # seat 0 deals the first hand when this holds

    # (after, deals) tried in order: after dealer_wins, several_winners, win,
    # draw or any; deals dealer, next, winner, discarder or discarder_next


class Ruleset(Spec):
    def __init__(
        self,
        name: str,
        title: Text,
        source: str,
        source_sha256: str,
        rules_file: str,
        summary: str,
        players: tuple,
        default_players: int,
        tile_kinds: tuple,
        removals: tuple,
        copies: int,
        dealer_tiles: int,
        other_tiles: int,
        reserved_tail: Any,
        left_undrawn: Any,
        options: tuple,
        constraints: tuple,
        claims: ClaimsSpec,
        kongs: KongSpec,
        ready: ReadySpec,
        winning: WinSpec,
        scoring: ScoringSpec,
        settlement: SettlementSpec,
        dealer: DealerSpec,
        hands: Any,
        verbs: tuple = (),
        parents: tuple = (),
        face_up_tail: Any = 0,
        stakes: StakesSpec | None = None,
        history_wins: tuple = (),
        flower_wins: tuple = (),
        flower_robs: tuple = (),
        kong_payments: KongPaySpec | None = None,
        wilds: WildSpec | None = None,
        autoplay_wins: Any = False,
        prevailing_wind: str = "east",
        wind_rounds: Any = 0,
        flower_sets: tuple = (),
        horses: HorseSpec | None = None,
        follow_dealer: FollowSpec | None = None,
        special_sets: tuple = (),
        observation: ObservationSpec | None = None,
        wall_rules: tuple = (),
        opening: tuple = (OpeningStep("deal"),),
        restrictions: tuple = (),
        hand_end: HandEndSpec = HandEndSpec(),
        payment_moves: tuple = (),
        provenance: dict | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.source = source
        self.source_sha256 = source_sha256
        self.rules_file = rules_file
        self.summary = summary
        self.players = players
        self.default_players = default_players
        self.tile_kinds = tile_kinds  # kinds in play, sorted
        self.removals = removals  # (tiles, when): kinds taken out at some tables
        self.copies = copies
        self.dealer_tiles = dealer_tiles
        self.other_tiles = other_tiles
        self.reserved_tail = reserved_tail
        self.left_undrawn = left_undrawn
        self.options = options
        self.constraints = constraints
        self.claims = claims
        self.kongs = kongs
        self.ready = ready
        self.winning = winning
        self.scoring = scoring
        self.settlement = settlement
        self.dealer = dealer
        self.hands = hands  # number of hands in a match
        self.verbs = verbs
        self.parents = parents  # the variants this one extends, nearest first
        self.face_up_tail = face_up_tail  # tail tiles turned face up; a kong takes one of them
        self.stakes = stakes
        self.history_wins = history_wins  # HistoryWinSpec
        self.flower_wins = flower_wins  # HistoryWinSpec: a win on one's own flowers
        self.flower_robs = flower_robs  # HistoryWinSpec: a win on a flower another seat sets aside
        self.kong_payments = kong_payments
        self.wilds = wilds
        self.autoplay_wins = autoplay_wins  # automatic play (托管) takes every win it may
        self.prevailing_wind = prevailing_wind  # or by_round: the wind moves on each time the deal comes back to the first dealer
        self.wind_rounds = wind_rounds  # a match of this many rounds of wind (0: of `hands` hands)
        self.flower_sets = flower_sets  # tuples of flowers counted when held complete
        self.horses = horses
        self.follow_dealer = follow_dealer
        self.special_sets = special_sets  # SpecialSetSpec
        self.observation = observation
        self.wall_rules = wall_rules  # WallRuleSpec, in order
        self.opening = opening  # OpeningStep, in order
        self.restrictions = restrictions  # RestrictionSpec
        self.hand_end = hand_end
        self.payment_moves = payment_moves  # PaymentMoveSpec
        self.provenance = provenance  # where values come from: {values, sections, fans, options, option_rules}

    def option(self, option_id: str) -> OptionSpec:
        for opt in self.options:
            if opt.id == option_id:
                return opt
        raise OptionError(
            f"{self.name} has no option {option_id!r}; its options are: "
            + ", ".join(o.id for o in self.options)
        )

    def configure(self, options: dict | None = None, players: int | None = None) -> "Table":
        """Check a table's options and player count and fix every rule."""
        players = self.default_players if players is None else players
        if players not in self.players:
            raise OptionError(
                f"{self.name} is played by {', '.join(map(str, self.players))} players, not {players}"
            )
        values = {o.id: o.default for o in self.options}
        for key, value in (options or {}).items():
            values[key] = self.option(key).coerce(value)
        from types import SimpleNamespace  # here, not at the top: ~0.7 ms of importing a variant

        o = SimpleNamespace(**values)
        for c in self.constraints:
            if not c.check(o, players):
                raise OptionError(f"options break a rule of {self.name}: {c.message.both()}")
        return Table(self, players, values, o)


def resolve(value, o, n):
    return value(o, n) if callable(value) else value


def _reads_play(value) -> bool:
    """A compiled play expression f(p, o), rather than a table one f(o, n)."""
    return callable(value) and parameters(value)[:1] == ("p",)


def parameters(fn) -> tuple:
    """The parameter names of a generated function, compiled (no `__code__`)
    or not."""
    code = getattr(fn, "__code__", None)
    if code is not None:
        return tuple(code.co_varnames[: code.co_argcount])
    import inspect

    return tuple(inspect.signature(fn).parameters)


def docstring(fn) -> str:
    """A generated function's docstring (the expression it was compiled
    from); where the build dropped it (mypyc), its module's DOCSTRINGS."""
    doc = getattr(fn, "__doc__", None)
    if doc:
        return str(doc)
    module = sys.modules.get(str(getattr(fn, "__module__", "") or ""))
    table = getattr(module, "DOCSTRINGS", None) if module is not None else None
    return str(table.get(getattr(fn, "__name__", ""), "")) if isinstance(table, dict) else ""


class Table:
    """A ruleset with its options and player count fixed."""

    def __init__(self, ruleset: Any = None, players: int = 0, values: Any = None, o: Any = None):
        if ruleset is None:  # a blank table for __copy__ to fill (a compiled class's __new__ runs __init__)
            return
        self.ruleset: Ruleset = ruleset  # typed: the compiled build reads its fields natively
        self.players = players
        self.option_values = values
        self.o = o
        n = players
        c, k, r = ruleset.claims, ruleset.kongs, ruleset.ready
        self.chow = bool(resolve(c.chow, o, n))
        self.pong = bool(resolve(c.pong, o, n))
        self.kong_claim = bool(resolve(c.kong, o, n))
        self.hu_on_discard = bool(resolve(c.hu, o, n))
        self.priority = {verb: level for level, verbs in enumerate(c.priority) for verb in verbs}
        self.multiple_winners = bool(resolve(c.multiple_winners, o, n))
        self.last_discard = frozenset(c.last_discard)
        self.rob_kinds = frozenset(c.rob_kinds) if resolve(c.rob_when, o, n) else frozenset()
        self.rob_counts_as = resolve(c.rob_counts_as, o, n)
        # a rule of the table alone is fixed now; one of the game, at each decision
        self._must_win = c.must_win if _reads_play(c.must_win) else bool(resolve(c.must_win, o, n))
        self.pass_rules = tuple(p for p in c.pass_rules if resolve(p.when, o, n))
        self.concealed_kong = bool(resolve(k.concealed, o, n))
        self.added_kong = bool(resolve(k.added, o, n))
        self.kong_in_pung_turn = bool(resolve(k.in_pung_turn, o, n))
        self.kong_chain = bool(resolve(k.chain, o, n))
        self.declare = r.declare if resolve(r.when, o, n) else "none"
        self.ready_locks = bool(resolve(r.locks_hand, o, n))
        self.ready_forbids = frozenset(r.forbids)
        self.ready_kong = r.kong
        self.ready_kong_ignores = frozenset(r.kong_ignores)
        self.reserved_tail = int(resolve(ruleset.reserved_tail, o, n))
        self.left_undrawn = int(resolve(ruleset.left_undrawn, o, n))
        self.hands = int(resolve(ruleset.hands, o, n))
        self.sets = (ruleset.other_tiles - 1) // 3  # sets and a pair in a winning hand
        self.wind_rounds = int(resolve(ruleset.wind_rounds, o, n))
        self.flower_sets = tuple(frozenset(g) for g in ruleset.flower_sets)
        self.fans: tuple[FanSpec, ...] = tuple(ruleset.scoring.fans)
        self.fan_values: tuple[int, ...] = tuple(int(resolve(f.value, o, n)) for f in self.fans)
        self.fan_plan = fan_plan(ruleset.scoring)
        self.autoplay_wins = bool(resolve(ruleset.autoplay_wins, o, n))
        self.wall_rules = tuple(r for r in ruleset.wall_rules if resolve(r.when, o, n))
        self.opening = tuple(step for step in ruleset.opening if resolve(step.when, o, n))
        self.restrictions = ruleset.restrictions
        he = ruleset.hand_end
        self.after_win = he.winners  # end, leave or stay
        self.until_in = int(resolve(he.until_in, o, n))
        self.resume = he.resume
        self.locked_forbids = frozenset(he.locked_forbids)
        self.locked_kong = he.locked_kong
        self.payment_moves = tuple(m for m in ruleset.payment_moves)
        self.dealer_may_repeat = bool(resolve(ruleset.dealer.may_repeat, o, n))
        self.join_wins = bool(resolve(c.join_wins, o, n))
        self.face_up = int(resolve(ruleset.face_up_tail, o, n))
        st = ruleset.stakes
        self.stakes = tuple(st.values) if st is not None and resolve(st.when, o, n) else ()
        self.history_wins = ruleset.history_wins
        self.flower_wins = ruleset.flower_wins
        self.flower_robs = ruleset.flower_robs
        s = ruleset.settlement
        self.self_draw_when = s.self_draw_when
        self.liable = s.liable
        kp = ruleset.kong_payments
        self.kong_timing = kp.timing if kp else ""
        self.kongs_paid_at_draw = bool(kp and resolve(kp.at_draw, o, n))
        # an amount is a number or a function of the kong (k) and the options
        self.kong_pay = {kind: (who, amount if callable(amount) else int(amount)) for kind, who, amount in (kp.rules if kp else ())}
        self.special_sets = tuple(sp for sp in ruleset.special_sets if resolve(sp.when, o, n))
        self.special_by_group = {g: sp for sp in self.special_sets for g in sp.groups}
        self.special_by_id = {sp.id: sp for sp in ruleset.special_sets}
        for sp in self.special_sets:
            if sp.payment:
                self.kong_pay[sp.id] = ("others", sp.payment if callable(sp.payment) else int(sp.payment))
        self.double = bool(resolve(ruleset.winning.double, o, n))
        self.table_fee = int(resolve(ruleset.settlement.table_fee, o, n))
        obs = ruleset.observation
        self.ready_sees_opponents = bool(obs and resolve(obs.ready_player_sees_opponent, o, n))
        self.kong_reason = kp.reason if kp else "kong"
        removed = {t for tiles, when in ruleset.removals if resolve(when, o, n) for t in tiles}
        self.tile_kinds = tuple(t for t in ruleset.tile_kinds if t not in removed)
        self.kind_set = frozenset(self.tile_kinds)
        self.has_flowers = any(t >= 34 for t in self.tile_kinds)  # set aside and replaced (补花)
        self.suits = tuple(s for i, s in enumerate("mps") if any(9 * i <= t < 9 * i + 9 for t in self.tile_kinds))
        w = ruleset.wilds
        # the wild kinds in force; a game that turns an indicator sets its own
        self.wilds = frozenset(
            t for tiles, when in (w.fixed if w else ()) if resolve(when, o, n) for t in tiles if t in self.kind_set
        )
        self.wild_indicator = bool(w and resolve(w.indicator, o, n))
        self.honour_order = tuple(t for t in (w.honour_order if w else ()) if t in self.kind_set)
        self.wild_win = w.win_with_count if w and resolve(w.win_with_when, o, n) else 0
        hs = ruleset.horses
        self.horse_seat = {t: off for off, tiles in enumerate(hs.seats.get(n, ()) if hs else ()) for t in tiles}
        self.horses_each = int(resolve(hs.bought_each, o, n)) if hs else 0
        self.horses_dealer = int(resolve(hs.bought_dealer, o, n)) if hs else 0
        self.reward_horses = int(resolve(hs.reward, o, n)) if hs else 0
        self.reserved_tail = max(self.reserved_tail, self.reward_horses)
        fd = ruleset.follow_dealer
        self.follow = fd if fd is not None and resolve(fd.when, o, n) else None
        self.extras = ruleset.settlement.extras
        self.cap = int(resolve(ruleset.scoring.cap, o, n))
        self.combine = resolve(ruleset.scoring.combine, o, n)
        self.discard_payers = resolve(ruleset.settlement.discard_payers, o, n)
        if self.discard_payers not in ("discarder", "others"):
            raise OptionError(f"{ruleset.name}: these options make the discard payers {self.discard_payers!r}")

    def must_win(self, game, self_drawn: bool = False) -> bool:
        """Whether a possible win (a self-draw, or on another's tile) must be taken now."""
        rule = self._must_win
        if callable(rule):
            from .facts import PlayFacts

            return bool(rule(PlayFacts(game, self_drawn=self_drawn), self.o))
        return bool(rule)

    def with_wilds(self, wilds: frozenset) -> "Table":
        """This table with another set of wild kinds (one hand's indicator)."""
        table = self.__copy__()
        table.wilds = wilds
        return table

    def __copy__(self) -> "Table":
        """A shallow copy (copy.copy): field by field, as a compiled class
        has no `__dict__` to copy."""
        from .copying import copy_fields

        return copy_fields(self, Table())

    def wall_tiles(self) -> list[int]:
        copies = self.ruleset.copies
        return [t for t in self.tile_kinds for _ in range(copies if t < 34 else 1)]

    def to_json(self) -> dict:
        return {"variant": self.ruleset.name, "players": self.players, "options": dict(self.option_values)}


class FanPlan:
    """How a fan table is evaluated: plain fans, fans over groups of sets
    (one engine per kind of set), fans counted per set, and the order in
    which exclusions are settled. Built once per ruleset."""

    def __init__(self, scoring: ScoringSpec):
        from .combos import CHOW, SetFans

        fans = scoring.fans
        self.scoring = scoring  # the spec the plan was built from (fan_plan's cache checks it)
        self.index = {f.id: i for i, f in enumerate(fans)}
        self.plain = tuple(i for i, f in enumerate(fans) if f.sets is None and f.each is None)
        self.set_engines: tuple[tuple[str, SetFans], ...] = tuple(
            (kind, SetFans([(i, f.sets) for i, f in enumerate(fans) if f.sets is not None and f.sets.kind == kind],
                           scoring.set_principle))
            for kind in sorted({f.sets.kind for f in fans if f.sets is not None})
        )
        self.chow_kind: str = CHOW
        self.each: tuple[tuple[int, str, Callable], ...] = tuple((i, f.each[0], f.each[1]) for i, f in enumerate(fans) if f.each is not None)
        self.listed = scoring.exclusion == "listed"
        self.order = excluders_first(fans) if self.listed else tuple(range(len(fans)))
        self.position = {i: p for p, i in enumerate(self.order)}
        self.prefer = frozenset(scoring.prefer)
        self.bonus = frozenset(f.id for f in fans if f.bonus)


_PLANS: dict = {}


def fan_plan(scoring: ScoringSpec) -> FanPlan:
    key = id(scoring)
    plan = _PLANS.get(key)
    if plan is None or plan.scoring is not scoring:
        plan = FanPlan(scoring)
        _PLANS[key] = plan
    return plan

