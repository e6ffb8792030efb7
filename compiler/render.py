"""Render an `ir.Variant` as a Python module with Jinja2.

This module prepares the template's data: the functions compiled from
expressions, and the `Ruleset(...)` construction laid out as Python. The
template (`templates/variant.py.j2`) owns the file's layout.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

import jinja2

from runtime.tiles import format_tiles
from runtime.vocabulary import SCOPE_PARAMS

from . import flat, ir
from .pyformat import INDENT, TILE_SET, Call, Ref, fmt, wrap_doc, wrap_expression


@dataclass(frozen=True)
class Function:
    name: str
    params: str
    doc: str
    body: str
    returns: str = ""
    text: str = ""  # the docstring's text, unwrapped: emitted as data too (DOCSTRINGS)


_TILE_BITS = re.compile(r"tilebits\(\{([0-9, ]*)\}\)")  # a constant set as bits (compiler/expressions.py)


class _Functions:
    """Collects the functions that expressions compile to, and the sets of
    tiles they use, made once at import as module constants."""

    def __init__(self):
        self.items: list[Function] = []
        self.names: set[str] = set()
        self.constants: dict[str, str] = {}  # name -> Python literal
        self.bit_constants: dict[str, str] = {}  # name -> int literal: the same kinds, one bit each

    def add(self, base: str, expr: ir.Expr, doc: str = "") -> Ref:
        name = re.sub(r"[^a-z0-9_]", "_", base.lower())
        while name in self.names:
            name += "_"
        self.names.add(name)
        text = (doc + ": " if doc else "") + " ".join(expr.source.split())
        doc = wrap_doc(_doc(text), 1)
        code = self._hoisted(expr.code)
        self.items.append(Function(name, ", ".join(SCOPE_PARAMS[expr.scope]), doc, wrap_expression(code, 1), text=text))
        return Ref(name)

    def add_body(self, name: str, params: str, doc: str, body: str, returns: str = "") -> Ref:
        """A function written out statement by statement."""
        self.names.add(name)
        self.items.append(Function(name, params, wrap_doc(_doc(doc), 1), self._hoisted(body), returns, doc))
        return Ref(name)

    def _hoisted(self, code: str) -> str:
        """The code with its constant tile sets named as module constants."""
        return TILE_SET.sub(self._constant, _TILE_BITS.sub(self._bits, code))

    def _bits(self, match: re.Match) -> str:
        tiles = sorted({int(t) for t in match.group(1).split(",") if t.strip()})
        name = "BITS_" + (format_tiles(tiles).replace(" ", "_") or "none")
        self.bit_constants[name] = hex(sum(1 << t for t in tiles))
        return name

    def _constant(self, match: re.Match) -> str:
        tiles = [int(t) for t in match.group(1).split(",") if t.strip()]
        name = "TILES_" + format_tiles(tiles).replace(" ", "_")
        self.constants[name] = match.group(0)
        return name

    def value(self, base: str, v: ir.Value, doc: str = ""):
        return self.add(base, v.expr, doc) if v.expr is not None else v.const


def _doc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def _text(t: ir.Text) -> Call:
    return Call("Text", (t.zh, t.en))


def _options(v: ir.Variant) -> tuple:
    out = []
    for o in v.options:
        kwargs = [("id", o.id), ("name", _text(o.name)), ("type", o.type), ("default", o.default)]
        if o.values:
            kwargs.append(("values", tuple(o.values)))
            kwargs.append(("labels", tuple(_text(t) for t in o.labels)))
        for key in ("minimum", "maximum"):
            if getattr(o, key) is not None:
                kwargs.append((key, getattr(o, key)))
        if o.advanced:
            kwargs.append(("advanced", True))
        if o.rule:
            kwargs.append(("rule", o.rule))
        if o.doc:
            kwargs.append(("doc", o.doc))
        out.append(Call("OptionSpec", (), tuple(kwargs)))
    return tuple(out)


def _fans(v: ir.Variant, fx: _Functions) -> tuple:
    out = []
    for f in v.scoring.fans:
        label = f"{f.name.zh} {f.name.en}" + (f" ({f.rule})" if f.rule else "")
        kwargs = [
            ("id", f.id),
            ("name", _text(f.name)),
            ("value", fx.value(f"value_{f.id}", f.value, label)),
            ("when", None),
            ("count", None),
            ("per_arrangement", f.per_arrangement),
        ]
        if f.excludes:
            kwargs.append(("excludes", tuple(f.excludes)))
        if f.alone:
            kwargs.append(("alone", True))
        if f.sets is not None:
            kwargs.append(("sets", _set_pattern(f.sets)))
        if f.each is not None:
            kind, tiles = f.each
            kwargs.append(("each", (kind, fx.add(f"each_{f.id}", tiles, label + ": the tiles of its sets"))))
        if f.excludes_times:
            kwargs.append(("excludes_times", tuple(f.excludes_times)))
        if f.excludes_sets:
            kwargs.append(("excludes_sets", tuple(f.excludes_sets)))
        if f.bonus:
            kwargs.append(("bonus", True))
        if f.rule:
            kwargs.append(("rule", f.rule))
        kwargs.append(("when_source", " ".join(f.when.source.split()) if f.when else "true"))
        if f.count:
            kwargs.append(("count_source", " ".join(f.count.source.split())))
        if f.doc:
            kwargs.append(("doc", f.doc))
        out.append(Call("FanSpec", (), tuple(kwargs)))
    return tuple(out)


def _fan_finders(v: ir.Variant, fx: _Functions) -> tuple[Ref, Ref]:
    """Two functions that test every plain fan of the table in one go: the
    fans read from the whole hand (once per hand), and those that read one
    arrangement of it (once per arrangement)."""
    hand, arrangement = [], []
    for i, f in enumerate(v.scoring.fans):
        if f.sets is not None or f.each is not None:
            continue  # counted by the runtime's set engines
        (arrangement if f.per_arrangement else hand).append((i, f))
    return (
        fx.add_body("fans_of_hand", "h, o", "The fans read from the whole hand: [(fan index, count)].", _finder(hand)),
        fx.add_body(
            "fans_of_arrangement", "h, d, o", "The fans read from one arrangement: [(fan index, count)].", _finder(arrangement)
        ),
    )


def _flat_finders(v: ir.Variant, fx: _Functions) -> tuple[Ref, Ref]:
    """The same two finders in the fast form (compiler/flat.py)."""
    # typed: the compiled build reads the facts' fields natively
    return (
        fx.add_body(
            "flat_fans_of_hand", "h: HandFacts, o, many: dict[int, int]",
            "The fans read from the whole hand, as a mask of positions in FLAT_FANS.",
            flat.finder(v.scoring, per_arrangement=False), "int",
        ),
        fx.add_body(
            "flat_fans_of_arrangement", "h: HandFacts, d: Arrangement, o, many: dict[int, int]",
            "The fans read from one arrangement, as a mask of positions in FLAT_FANS.",
            flat.finder(v.scoring, per_arrangement=True), "int",
        ),
    )


def _finder(fans: list) -> str:
    lines = [f"{INDENT}found = []"]
    for i, f in fans:
        lines.append(f"{INDENT}# {f.name.zh} {f.name.en}")
        lines += flat.fan_hit(f, [f"found.append(({i}, 1))"], [f"found.append(({i}, n))"])
    lines.append(f"{INDENT}return found")
    return "\n".join(lines)


def _set_pattern(g: ir.SetGroup) -> Call:
    kwargs = [("kind", g.kind), ("size", g.size)]
    for key in ("suits", "steps", "ranks", "tiles"):
        if getattr(g, key):
            kwargs.append((key, getattr(g, key)))
    return Call("SetPattern", (), tuple(kwargs))


def _ruleset(v: ir.Variant, fx: _Functions) -> Call:
    c, k, r, w, s, d = v.claims, v.kongs, v.ready, v.winning, v.settlement, v.dealer
    constraints = tuple(
        Call("ConstraintSpec", (fx.add(f"option_rule_{i}", x.check, x.message.en or x.message.zh), _text(x.message), " ".join(x.check.source.split())))
        for i, x in enumerate(v.constraints)
    )
    claims = Call("ClaimsSpec", (), (
        ("chow", fx.value("claims_chow", c.chow)),
        ("pong", fx.value("claims_pong", c.pong)),
        ("kong", fx.value("claims_kong", c.kong)),
        ("hu", fx.value("claims_hu", c.hu)),
        ("priority", tuple(tuple(level) for level in c.priority)),
        ("multiple_winners", fx.value("claims_multiple_winners", c.multiple_winners)),
        ("last_discard", tuple(c.last_discard)),
        ("rob_kinds", tuple(c.rob_kinds)),
        ("rob_when", fx.value("claims_rob_when", c.rob_when)),
        ("rob_counts_as", fx.value("claims_rob_counts_as", c.rob_counts_as)),
        ("must_win", fx.value("claims_must_win", c.must_win)),
        ("pass_rules", tuple(
            Call("PassRule", (), (
                ("claim", p.claim),
                ("when", fx.value(f"pass_rule_{i}_when", p.when)),
                ("same_tile", p.same_tile),
                ("unless_worth_more", p.unless_worth_more),
                ("until_draw", p.until_draw),
            ))
            for i, p in enumerate(c.pass_rules)
        )),
        ("join_wins", fx.value("claims_join_wins", c.join_wins)),
    ))
    kongs = Call("KongSpec", (), (
        ("concealed", fx.value("kongs_concealed", k.concealed)),
        ("added", fx.value("kongs_added", k.added)),
        ("in_pung_turn", fx.value("kongs_in_pung_turn", k.in_pung_turn)),
        ("chain", fx.value("kongs_chain", k.chain)),
        ("show_concealed", k.show_concealed),
    ))
    ready = Call("ReadySpec", (), (
        ("declare", r.declare),
        ("locks_hand", fx.value("ready_locks_hand", r.locks_hand)),
        ("forbids", tuple(r.forbids)),
        ("kong", r.kong),
    ) + ((("when", fx.value("ready_when", r.when)),) if r.when.const is not True else ())
      + ((("kong_ignores", tuple(r.kong_ignores)),) if r.kong_ignores else ()))
    winning = Call("WinSpec", (), (
        ("standard", w.standard),
        ("seven_pairs", w.seven_pairs),
        ("quads_as_two_pairs", w.quads_as_two_pairs),
        ("thirteen_orphans", w.thirteen_orphans),
        *((("honours_and_knitted", True),) if w.honours_and_knitted else ()),
        *((("knitted_straight", True),) if w.knitted_straight else ()),
        ("allowed", fx.add("win_allowed", w.allowed) if w.allowed else None),
        ("allowed_source", w.allowed.source if w.allowed else ""),
        ("why_not", _text(w.why_not)),
    ) + ((("double", fx.value("win_double", w.double)),) if w.double.const is not False else ()))
    fans = _fans(v, fx)
    fans_of_hand, fans_of_arrangement = _fan_finders(v, fx)
    flat_fans_of_hand, flat_fans_of_arrangement = _flat_finders(v, fx)
    scoring = Call("ScoringSpec", (), (
        ("unit", v.scoring.unit),
        ("unit_name", _text(v.scoring.unit_name)),
        ("combine", fx.value("scoring_combine", v.scoring.combine)),
        ("cap", fx.value("scoring_cap", v.scoring.cap)),
        ("final", fx.add("scoring_final", v.scoring.final, "the hand's total") if v.scoring.final else None),
        ("final_source", " ".join(v.scoring.final.source.split()) if v.scoring.final else ""),
        ("fans", fans),
        ("fans_of_hand", fans_of_hand),
        ("fans_of_arrangement", fans_of_arrangement),
        ("flat", Ref("FLAT_FANS")),
        ("flat_fans_of_hand", flat_fans_of_hand),
        ("flat_fans_of_arrangement", flat_fans_of_arrangement),
        *((("exclusion", v.scoring.exclusion),) if v.scoring.exclusion != "transitive" else ()),
        *((("set_principle", v.scoring.set_groups),) if v.scoring.set_groups != "account_once" else ()),
        *((("prefer", v.scoring.prefer),) if v.scoring.prefer else ()),
    ))
    settlement = Call("SettlementSpec", (), (
        ("discard_payers", fx.value("settlement_discard_payers", s.discard_payers)),
        ("self_draw_payers", s.self_draw_payers),
        ("amount", fx.add("win_amount", s.amount, "what one payer pays one winner")),
        ("amount_source", " ".join(s.amount.source.split())),
        ("self_draw_when", fx.add("settled_as_self_draw", s.self_draw_when) if s.self_draw_when else None),
        ("self_draw_when_source", " ".join(s.self_draw_when.source.split()) if s.self_draw_when else ""),
        ("liable", tuple(
            Call("LiableSpec", (fx.add(f"liable_{i}", rule.when, f"{rule.who} pays for all"), rule.who, " ".join(rule.when.source.split())))
            for i, rule in enumerate(s.liable)
        )),
        ("extras", tuple(
            (reason, fx.add(f"extra_{reason}", e, f"{reason}: what one payer pays one winner"), " ".join(e.source.split()))
            for reason, e in s.extras
        )),
    ) + ((("table_fee", fx.value("settlement_table_fee", s.table_fee)),) if s.table_fee.const != 0 else ()))
    horses = None
    if v.horses is not None:
        hs = v.horses
        horses = Call("HorseSpec", (), (
            ("seats", {n: tuple(tuple(t) for t in lists) for n, lists in sorted(hs.seats.items())}),
            ("bought_each", fx.value("horses_each", hs.bought_each)),
            ("bought_dealer", fx.value("horses_dealer", hs.bought_dealer)),
            ("mirror", hs.mirror),
            ("reason", hs.reason),
            ("reward", fx.value("horses_reward", hs.reward)),
            *((("amount", fx.add("horse_amount", hs.amount, "what a horse pays or collects per share")),) if hs.amount else ()),
        ))
    follow = None
    if v.follow_dealer is not None:
        fd = v.follow_dealer
        follow = Call("FollowSpec", (), (
            ("when", fx.value("follow_dealer_when", fd.when)),
            ("amount", fx.add("follow_dealer_amount", fd.amount, "what the dealer pays each player for a round")),
            ("amount_source", " ".join(fd.amount.source.split())),
            ("reason", fd.reason),
        ))
    kong_payments = None
    if v.kong_payments is not None:
        kp = v.kong_payments
        kong_payments = Call("KongPaySpec", (), (
            ("timing", kp.timing),
            ("at_draw", fx.value("kongs_paid_at_draw", kp.at_draw)),
            ("rules", tuple((kind, who, fx.value(f"kong_{kind}_amount", amount)) for kind, who, amount in kp.rules)),
            ("reason", kp.reason),
        ))
    special_sets = tuple(
        Call("SpecialSetSpec", (), (
            ("id", sp.id),
            ("name", _text(sp.name)),
            ("groups", tuple(sp.groups)),
            ("counts_as", sp.counts_as),
            ("declare", sp.declare),
            ("payment", fx.value(f"special_{sp.id}_payment", sp.payment)),
            ("when", fx.value(f"special_{sp.id}_when", sp.when)),
            ("rule", sp.rule),
        ))
        for sp in v.special_sets
    )
    observation = None
    if v.ready_sees_opponent.const is not False:
        observation = Call("ObservationSpec", (), (
            ("ready_player_sees_opponent", fx.value("ready_player_sees_opponent", v.ready_sees_opponent)),
        ))
    stakes = None
    if v.stakes is not None:
        stakes = Call("StakesSpec", (), (("when", fx.value("stakes_when", v.stakes.when)), ("values", tuple(v.stakes.values))))
    def shapeless_wins(wins, prefix):
        return tuple(
            Call("HistoryWinSpec", (), (
                ("id", h.id),
                ("name", _text(h.name)),
                ("when", fx.add(f"{prefix}_{h.id}", h.when, f"{h.name.zh} {h.name.en}")),
                ("when_source", " ".join(h.when.source.split())),
                ("fans", tuple(h.fans)),
            ))
            for h in wins
        )

    history = shapeless_wins(v.history_wins, "wins_on_discards")
    flower_wins = shapeless_wins(v.flower_wins, "wins_on_flowers")
    flower_robs = shapeless_wins(v.flower_robs, "wins_on_a_flower")
    wall_rules = tuple(_wall_rule(rule, fx) for rule in v.wall_rules)
    opening = tuple(_opening_step(step, fx) for step in v.opening)
    restrictions = tuple(
        Call("RestrictionSpec", (), (
            ("tiles", fx.add(f"restriction_{i}_tiles", r.tiles, "the tiles restricted")),
            ("tiles_source", " ".join(r.tiles.source.split())),
            *((("discard_first", True),) if r.discard_first else ()),
            *((("forbids", tuple(r.forbids)),) if r.forbids else ()),
            *((("no_win", True),) if r.no_win else ()),
            ("why", _text(r.why)),
            *((("rule", r.rule),) if r.rule else ()),
        ))
        for i, r in enumerate(v.restrictions)
    )
    he = v.hand_end
    hand_end = None
    if he != ir.HandEnd():
        hand_end = Call("HandEndSpec", (), (
            ("winners", he.winners),
            ("until_in", fx.value("hand_end_until_in", he.until_in)),
            ("resume", he.resume),
            ("locked_forbids", tuple(he.locked_forbids)),
            ("locked_kong", he.locked_kong),
        ))
    moves = tuple(
        Call("PaymentMoveSpec", (), (
            ("payments", m.payments),
            ("when", fx.add(f"move_{i}_when", m.when, f"{m.reason}: the payments move")),
            ("when_source", " ".join(m.when.source.split())),
            ("to", m.to),
            ("reason", m.reason),
            ("name", _text(m.name)),
        ))
        for i, m in enumerate(v.payment_moves)
    )
    dealer = Call("DealerSpec", (), (
        ("first", d.first),
        ("next", tuple(d.next)),
        ("may_repeat", fx.value("dealer_may_repeat", d.may_repeat)),
        *((("creator_deals", fx.value("dealer_creator_deals", d.creator_deals)),)
          if d.creator_deals.expr is not None or d.creator_deals.const else ()),
    ))
    wilds = None
    if v.wilds is not None:
        wl = v.wilds
        wilds = Call("WildSpec", (), (
            ("fixed", tuple((tiles, fx.value(f"wild_{i}_when", when)) for i, (tiles, when) in enumerate(wl.fixed))),
            ("indicator", fx.value("wild_indicator_when", wl.indicator)),
            ("honour_order", tuple(wl.honour_order)),
            ("win_with_count", wl.win_with_count),
            ("win_with_when", fx.value("wild_win_when", wl.win_with_when)),
        ))
    return Call("Ruleset", (), (
        ("name", v.name),
        ("title", _text(v.title)),
        ("source", v.source_file),
        ("source_sha256", v.sha256),
        ("parents", tuple(name for name, _ in v.parents)),
        ("rules_file", v.rules_file),
        ("summary", v.summary),
        ("players", tuple(v.players)),
        ("default_players", v.default_players),
        ("tile_kinds", tuple(v.tile_kinds)),
        ("removals", tuple((tiles, fx.value(f"tiles_removed_{i}", when)) for i, (tiles, when) in enumerate(v.removals))),
        ("copies", v.copies),
        *((("flower_sets", tuple(v.flower_sets)),) if v.flower_sets else ()),
        ("dealer_tiles", v.dealer_tiles),
        ("other_tiles", v.other_tiles),
        ("reserved_tail", fx.value("wall_reserved_tail", v.reserved_tail)),
        ("left_undrawn", fx.value("wall_left_undrawn", v.left_undrawn)),
        ("options", _options(v)),
        ("constraints", constraints),
        ("claims", claims),
        ("kongs", kongs),
        ("ready", ready),
        ("winning", winning),
        ("scoring", scoring),
        ("settlement", settlement),
        ("dealer", dealer),
        ("hands", fx.value("match_hands", v.hands)),
        ("verbs", tuple(v.verbs)),
        ("face_up_tail", fx.value("wall_face_up_tail", v.face_up_tail)),
        ("stakes", stakes),
        ("history_wins", history),
        *((("flower_wins", flower_wins),) if flower_wins else ()),
        *((("flower_robs", flower_robs),) if flower_robs else ()),
        ("kong_payments", kong_payments),
        ("wilds", wilds),
        ("horses", horses),
        ("follow_dealer", follow),
        *((("prevailing_wind", v.prevailing_wind),) if v.prevailing_wind != "east" else ()),
        *((("wind_rounds", fx.value("match_wind_rounds", v.wind_rounds)),)
          if v.wind_rounds.expr is not None or v.wind_rounds.const else ()),
        *((("autoplay_wins", fx.value("autoplay_wins", v.autoplay_wins)),)
          if v.autoplay_wins.expr is not None or v.autoplay_wins.const else ()),
    ) + ((("special_sets", special_sets),) if special_sets else ())
      + ((("observation", observation),) if observation is not None else ())
      + ((("wall_rules", wall_rules),) if wall_rules else ())
      + (("opening", opening),)
      + ((("restrictions", restrictions),) if restrictions else ())
      + ((("hand_end", hand_end),) if hand_end is not None else ())
      + ((("payment_moves", moves),) if moves else ())
      + ((("provenance", v.provenance),) if v.provenance else ()))


def _wall_rule(rule: ir.WallRule, fx: "_Functions") -> Call:
    kwargs = [("id", rule.id), ("name", _text(rule.name)), ("kind", rule.kind)]
    if rule.when.const is not True:
        kwargs.append(("when", fx.value(f"{rule.id}_when", rule.when)))
    for key, what in (("pays", "the seat pays"), ("collects", "the seat collects"),
                      ("amount", "what one payer pays one collector"), ("by", "the seat returns what it received")):
        e = getattr(rule, key)
        if e is not None:
            kwargs.append((key, fx.add(f"{rule.id}_{key}", e, what)))
            kwargs.append((f"{key}_source", " ".join(e.source.split())))
    if rule.ignore_fans:
        kwargs.append(("ignore_fans", tuple(rule.ignore_fans)))
    if rule.refund:
        kwargs.append(("refund", rule.refund))
    if rule.rule:
        kwargs.append(("rule", rule.rule))
    return Call("WallRuleSpec", (), tuple(kwargs))


def _opening_step(step: ir.OpeningStep, fx: "_Functions") -> Call:
    if step.kind not in ("exchange", "declare"):
        return Call("OpeningStep", (step.kind,))
    kwargs = [("kind", step.kind), ("id", step.id), ("name", _text(step.name))]
    if step.when.const is not True:
        kwargs.append(("when", fx.value(f"{step.id}_when", step.when)))
    if step.kind == "exchange":
        kwargs += [("tiles", step.tiles), ("same_suit", step.same_suit), ("directions", tuple(step.directions))]
    else:
        kwargs += [("choices", tuple(step.choices)), ("choices_are_suits", step.choices_are_suits), ("auto", step.auto)]
    if step.rule:
        kwargs.append(("rule", step.rule))
    return Call("OpeningStep", (), tuple(kwargs))


@functools.lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    """The module template, compiled once per process (Jinja2 compiles a
    template to Python code: a build of every variant needs it once)."""
    env = _environment()
    return env.from_string(env.globals["template_source"])


def _environment() -> jinja2.Environment:
    source = resources.files("compiler").joinpath("templates", "variant.py.j2").read_text(encoding="utf-8")
    env = jinja2.Environment(
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True
    )
    env.globals["template_source"] = source
    return env


def _classes(value, out: set) -> set:
    """The runtime classes a construction uses, for the import list."""
    if isinstance(value, Call):
        out.add(value.func)
        for a in value.args:
            _classes(a, out)
        for _, a in value.kwargs:
            _classes(a, out)
    elif isinstance(value, (tuple, list)):
        for a in value:
            _classes(a, out)
    return out


def render(v: ir.Variant) -> str:
    fx = _Functions()
    ruleset = _ruleset(v, fx)
    return _template().render(
        variant=v,
        imports=sorted(_classes(ruleset, set()) | {"FlatFans"}),
        flat_tables=flat.tables(v.scoring),
        functions=fx.items,
        constants=sorted(fx.constants.items()),
        bit_constants=sorted(fx.bit_constants.items()),
        ruleset=fmt(ruleset, 0, "RULESET = "),
        docstrings=fmt({f.name: " ".join(f.text.split()) for f in fx.items}, 0, "DOCSTRINGS = "),
        summary_lines=_wrap(v.summary, 72),
    )


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width) if text else []
