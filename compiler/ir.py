"""The typed intermediate form of a variant: checked, resolved, ready to
render. Every expression here has parsed and type-checked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Text:
    zh: str
    en: str


@dataclass(frozen=True)
class Expr:
    source: str
    code: str
    type: str
    scope: str
    names: frozenset = frozenset()

    @property
    def reads_arrangement(self) -> bool:
        import re

        return re.search(r"\bd\.", self.code) is not None


@dataclass(frozen=True)
class Value:
    """A constant, or a table expression over options and players."""

    const: Any = None
    expr: Expr | None = None


@dataclass(frozen=True)
class Option:
    id: str
    name: Text
    type: str
    default: Any
    values: tuple
    labels: tuple  # Text per value
    minimum: int | None
    maximum: int | None
    advanced: bool
    rule: str
    doc: str


@dataclass(frozen=True)
class Constraint:
    check: Expr
    message: Text


@dataclass(frozen=True)
class SetGroup:
    kind: str  # chow or pung
    size: int
    suits: str
    steps: tuple
    ranks: tuple
    tiles: tuple | None


@dataclass(frozen=True)
class Fan:
    id: str
    name: Text
    value: Value
    when: Expr | None
    count: Expr | None
    excludes: tuple  # in table order; the transitive closure unless exclusion is listed
    rule: str
    doc: str
    alone: bool = False
    sets: "SetGroup | None" = None
    each: "tuple | None" = None  # (kind, Expr giving tiles)
    excludes_times: tuple = ()  # (fan id, n)
    excludes_sets: tuple = ()  # fan ids
    bonus: bool = False

    @property
    def per_arrangement(self) -> bool:
        return any(e is not None and e.reads_arrangement for e in (self.when, self.count))


@dataclass(frozen=True)
class PassRule:
    claim: str
    when: Value
    same_tile: bool
    unless_worth_more: bool
    rule: str
    until_draw: bool = False


@dataclass(frozen=True)
class Claims:
    chow: Value
    pong: Value
    kong: Value
    hu: Value
    priority: tuple
    multiple_winners: Value
    last_discard: tuple
    rob_kinds: tuple
    rob_when: Value
    rob_counts_as: str
    must_win: Value  # constant or a play expression
    pass_rules: tuple
    join_wins: Value


@dataclass(frozen=True)
class Kongs:
    concealed: Value
    added: Value
    in_pung_turn: Value
    chain: Value
    show_concealed: bool = False


@dataclass(frozen=True)
class Ready:
    declare: str
    locks_hand: Value
    forbids: tuple
    kong: str
    when: Value = Value(const=True)
    kong_ignores: tuple = ()


@dataclass(frozen=True)
class Winning:
    standard: bool
    seven_pairs: bool
    quads_as_two_pairs: bool
    thirteen_orphans: bool
    honours_and_knitted: bool
    knitted_straight: bool
    allowed: Expr | None
    why_not: Text
    double: Value = Value(const=False)


@dataclass(frozen=True)
class Scoring:
    unit: str
    unit_name: Text
    combine: Value  # "add", "multiply", or a table expression giving one
    cap: Value
    final: Expr | None
    defines: tuple  # (name, Expr) for the rulebook
    fans: tuple
    exclusion: str = "transitive"
    set_groups: str = "account_once"
    prefer: tuple = ()


@dataclass(frozen=True)
class Liable:
    when: Expr
    who: str


@dataclass(frozen=True)
class Settlement:
    discard_payers: Value  # "discarder", "others", or a table expression giving one
    self_draw_payers: str
    amount: Expr
    self_draw_when: Expr | None = None
    liable: tuple = ()
    extras: tuple = ()  # (reason, Expr)
    table_fee: Value = Value(const=0)


@dataclass(frozen=True)
class KongPayments:
    timing: str
    at_draw: Value
    rules: tuple  # (kind, payers, Value amount: a constant or a kong expression)
    reason: str


@dataclass(frozen=True)
class SpecialSet:
    id: str
    name: Text
    groups: tuple  # sorted tuples of distinct tiles
    counts_as: str
    declare: str
    payment: Value  # a constant or a kong expression
    when: Value
    rule: str


@dataclass(frozen=True)
class Stakes:
    when: Value
    values: tuple


@dataclass(frozen=True)
class Horses:
    seats: dict  # player count -> tuple of tile tuples, by seat offset
    bought_each: Value
    bought_dealer: Value
    mirror: str
    reason: str
    reward: Value
    amount: Expr | None = None


@dataclass(frozen=True)
class Follow:
    when: Value
    amount: Expr
    reason: str


@dataclass(frozen=True)
class Wilds:
    fixed: tuple  # (tiles, Value)
    indicator: Value
    honour_order: tuple
    win_with_count: int
    win_with_when: Value


@dataclass(frozen=True)
class HistoryWin:
    id: str
    name: Text
    when: Expr
    fans: tuple


@dataclass(frozen=True)
class WallRule:
    id: str
    name: Text
    kind: str  # pay or refund
    when: Value
    collects: Expr | None = None
    pays: Expr | None = None
    amount: Expr | None = None
    ignore_fans: tuple = ()
    refund: str = ""
    by: Expr | None = None
    rule: str = ""


@dataclass(frozen=True)
class OpeningStep:
    kind: str  # stakes, deal, flowers, ready, exchange, declare
    id: str = ""
    name: Text = Text("", "")
    when: Value = Value(const=True)
    tiles: int = 0
    same_suit: bool = True
    directions: tuple = ()
    choices: tuple = ()
    choices_are_suits: bool = False
    auto: str = "first"
    rule: str = ""


@dataclass(frozen=True)
class Restriction:
    tiles: Expr
    discard_first: bool
    forbids: tuple
    no_win: bool
    why: Text
    rule: str


@dataclass(frozen=True)
class HandEnd:
    winners: str = "end"
    until_in: Value = Value(const=1)
    resume: str = "after_last_winner"
    locked_forbids: tuple = ("pong", "chow")
    locked_kong: str = "same_waits"


@dataclass(frozen=True)
class PaymentMove:
    payments: str
    when: Expr
    to: str
    reason: str
    name: Text
    rule: str


@dataclass(frozen=True)
class Dealer:
    first: str
    next: tuple  # (after, deals)
    may_repeat: Value
    creator_deals: Value = Value(const=False)


@dataclass(frozen=True)
class Variant:
    name: str
    source_file: str
    sha256: str  # of the file, or of the file and its ancestors together
    parents: tuple  # (name, file) of the variants it extends, nearest first
    title: Text
    summary: str
    seed: str
    rules_file: str
    players: tuple
    default_players: int
    tile_kinds: tuple
    removals: tuple  # (tiles, Value) pairs
    copies: int
    flower_sets: tuple  # tuples of flower tiles
    dealer_tiles: int
    other_tiles: int
    reserved_tail: Value
    left_undrawn: Value
    replacement: str
    options: tuple
    constraints: tuple
    claims: Claims
    kongs: Kongs
    ready: Ready
    winning: Winning
    scoring: Scoring
    settlement: Settlement
    dealer: Dealer
    hands: Value
    verbs: tuple
    face_up_tail: Value = Value(const=0)
    stakes: Stakes | None = None
    history_wins: tuple = ()
    flower_wins: tuple = ()  # HistoryWin: wins on one's own flowers
    flower_robs: tuple = ()  # HistoryWin: wins on another's flower
    kong_payments: KongPayments | None = None
    wilds: Wilds | None = None
    horses: Horses | None = None
    follow_dealer: Follow | None = None
    special_sets: tuple = ()
    ready_sees_opponent: Value = Value(const=False)
    prevailing_wind: str = "east"
    autoplay_wins: Value = Value(const=False)
    wind_rounds: Value = Value(const=0)
    wall_rules: tuple = ()  # WallRule
    opening: tuple = ()  # OpeningStep
    restrictions: tuple = ()  # Restriction
    hand_end: HandEnd = HandEnd()
    payment_moves: tuple = ()  # PaymentMove
    provenance: dict | None = None  # where values come from (compiler/provenance.py)
