"""Semantic checks and lowering: schema-valid variant data → `ir.Variant`.

Every mistake is collected with its position; nothing is raised until the
whole file has been looked at, so a designer sees all errors at once.
"""

from __future__ import annotations

from runtime import tiles as tilemod
from runtime import vocabulary as vocab

from . import ir
from .errors import CompileError, Diagnostic
from .expressions import Env, ExprError, OptionType, compile_expr
from .loader import Positions

DEFAULT_ROUNDS = {"zh": "局数", "en": "Hands per match", "type": "int", "default": 8, "minimum": 1}


class _Lowering:
    def __init__(self, data: dict, pos: Positions, name: str, source, broken: frozenset | None = None):
        self.tolerant = broken is not None
        self.broken = broken or frozenset()  # top-level sections that failed the schema
        self.data = data
        self.pos = pos
        self.name = name
        self.source = source
        self.errors: list[Diagnostic] = []
        self.option_types: dict[str, OptionType] = {}
        self.defs: dict = {}
        self.fan_ids: frozenset = frozenset()
        self.seen: list = []  # (path, compiled, scope) of every expression, for compiler/playability.py
        self.choices: dict = {}  # declaration id -> the values offered
        self.excludes_all: set = set()  # fans that exclude every other (`excludes: all`)

    # ------------------------------------------------------------ helpers

    def error(self, path, message: str, key: bool = False, offset: int = 0) -> None:
        self.errors.append(self.pos.diag(path, message, key=key, offset=offset))

    def get(self, *path, default=None):
        node = self.data
        for p in path:
            if isinstance(node, dict) and p in node:
                node = node[p]
            elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
                node = node[p]
            else:
                return default
        return node

    def expr(self, path, scope: str, want: str | None, text=None, defs=None) -> ir.Expr | None:
        if text is None:
            text = self.get(*path)
        if text is None:
            return None
        text = str(text)
        env = Env(scope, self.option_types, defs if defs is not None else {}, self.fan_ids, self.choices)
        try:
            c = compile_expr(text, env, want)
        except ExprError as exc:
            shown = " ".join(text.split())
            self.errors.append(self.pos.diag_at(path, exc.offset, f"in {shown!r}: {exc.message}"))
            return None
        self.seen.append((tuple(path), c, scope))
        return ir.Expr(text, c.code, c.type, scope, c.names)

    def value(self, path, default, want: str, scope: str = vocab.TABLE) -> ir.Value:
        """A constant or a table (or play) expression."""
        raw = self.get(*path, default=default)
        if isinstance(raw, bool) or isinstance(raw, int):
            return ir.Value(const=raw)
        e = self.expr(path, scope, want, text=raw)
        return ir.Value(expr=e) if e else ir.Value(const=default)

    def play_value(self, path, default, want: str) -> ir.Value:
        """A play expression; one that reads nothing of the game as it
        stands is a table expression, fixed once per table."""
        value = self.value(path, default, want, vocab.PLAY)
        if value.expr is not None and not value.expr.names & set(vocab.names_in_scope(vocab.PLAY)) - set(
            vocab.names_in_scope(vocab.TABLE)
        ):
            return self.value(path, default, want, vocab.TABLE)
        return value

    def text(self, node, default_en="") -> ir.Text:
        node = node or {}
        zh = node.get("zh", "")
        return ir.Text(zh, node.get("en", default_en or zh))

    def tiles(self, path) -> list[tuple[int, tuple]]:
        """(tile, path of the text it came from) for a group of tiles."""
        raw = self.get(*path)
        if raw is None:
            return []
        items = [(raw, path)] if isinstance(raw, str) else [(x, path + (i,)) for i, x in enumerate(raw)]
        out = []
        for text, where in items:
            try:
                out.extend((t, where) for t in tilemod.parse_tiles(str(text)))
            except tilemod.TileError as exc:
                self.error(where, str(exc))
        return out

    # ------------------------------------------------------------ sections

    def guard(self, sections: str, check, default=None):
        """Run one section's checks. On a file that failed the schema, the
        sections the schema found broken are skipped (their mistakes are
        already reported, and checking them again would only echo them),
        while the other sections are still checked."""
        if not self.tolerant:
            return check()
        if self.broken & set(sections.split()):
            return default
        try:
            return check()
        except (KeyError, TypeError, AttributeError, ValueError, IndexError):
            return default

    def lower(self) -> ir.Variant:
        if self.tolerant and self.broken & {"options", "title"}:
            raise CompileError([])  # every expression depends on the options
        g = self.guard
        players = g("players", self.players, [4])
        kinds, copies = g("tiles", self.tile_set, ([], 4))
        options = g("options", self.options, [])
        removals = g("tiles", lambda: self.removals(kinds), [])
        constraints = g("option_rules", self.constraints, [])
        opening = g("opening deal tiles stakes ready players", lambda: self.opening(kinds, players), [])
        claims = g("claims", self.claims)
        kongs = g("kongs", self.kongs)
        ready = g("ready", self.ready)
        winning_shapes = g("winning", self.winning_shapes, {})
        fans_raw = self.get("scoring", "fans", default={})
        # fan ids are known even where the schema found the fan table broken (no false "unknown fan")
        self.fan_ids = frozenset(fans_raw) if isinstance(fans_raw, dict) else frozenset()
        scoring = g("scoring", self.scoring)
        fan_ids = {f.id for f in scoring.fans} if scoring else set(self.fan_ids)
        g("ready scoring", lambda: self.fan_refs(("ready", "kong_ignores"), fan_ids))
        winning = g("winning", lambda: self.winning(winning_shapes))
        settlement = g("settlement", self.settlement)

        def kong_payments_reason():
            return self.get("settlement", "kongs", "reason", default="kong") if self.get("settlement", "kongs") else None
        wall_rules = g("settlement scoring", lambda: self.wall_rules(fan_ids, kong_payments_reason()), [])
        restrictions = g("restrictions", self.restrictions, [])
        hand_end = g("hand_end players", lambda: self.hand_end(players), ir.HandEnd())
        payment_moves = g("settlement", self.payment_moves, [])
        dealer = g("dealer players", lambda: self.dealer(players))
        kong_payments = g("settlement", self.kong_payments)
        stakes = g("stakes", self.stakes)
        history_wins = g("winning scoring", lambda: self.history_wins(fan_ids), [])
        flower_wins = g("winning scoring", lambda: self.history_wins(fan_ids, "by_flowers"), [])
        flower_robs = g("winning scoring", lambda: self.history_wins(fan_ids, "on_flower"), [])
        face_up = g("wall", lambda: self.value(("wall", "face_up_tail"), 0, vocab.INT), ir.Value(const=0))
        wilds = g("wilds tiles", lambda: self.wilds(kinds))
        horses = g("horses tiles players", lambda: self.horses(kinds, players))
        follow = g("follow_dealer", self.follow_dealer)
        special_sets = g("special_sets tiles settlement", lambda: self.special_sets(kinds, kong_payments), [])
        sees = g("observation", lambda: self.value(("observation", "ready_player_sees_opponent"), False, vocab.BOOL),
                 ir.Value(const=False))
        if self.tolerant:
            g("wall", lambda: self.value(("wall", "reserved_tail"), 0, vocab.INT))
            g("wall", lambda: self.value(("wall", "left_undrawn"), 0, vocab.INT))
            g("match", lambda: self.value(("match", "hands"), self.default_hands(), vocab.INT))
            g("match", lambda: self.value(("match", "wind_rounds"), 0, vocab.INT))
            g("deal players tiles", lambda: self.deal_size(players, kinds, copies))
            raise CompileError(self.errors)
        dealer_tiles, other_tiles = self.deal_size(players, kinds, copies)
        reserved_tail = self.value(("wall", "reserved_tail"), 0, vocab.INT)
        left_undrawn = self.value(("wall", "left_undrawn"), 0, vocab.INT)
        hands = self.value(("match", "hands"), self.default_hands(), vocab.INT)
        wind_rounds = self.value(("match", "wind_rounds"), 0, vocab.INT)
        verbs = ["discard", "hu", "pass"]
        if claims.pong.expr or claims.pong.const:
            verbs.append("pong")
        if claims.chow.expr or claims.chow.const:
            verbs.append("chow")
        verbs.append("kong")
        if ready.declare != "none" and ready.when.const is not False:
            verbs.append("ready")
        if winning.double.const is not False:
            verbs.append("double")
        if face_up.const != 0 or face_up.expr is not None:
            verbs.append("take")
        if stakes is not None:
            verbs.append("buy")
        if any(step.kind == "exchange" for step in opening):
            verbs.append("exchange")
        verbs.extend(step.id for step in opening if step.kind == "declare")
        if self.errors:
            raise CompileError(self.errors)
        return ir.Variant(
            name=self.name,
            source_file=self.pos.file,
            sha256=self.source.sha256,
            parents=tuple(zip(self.source.parents, (f for f, _ in self.source.files[1:]))),
            title=self.text(self.data.get("title")),
            summary=" ".join(str(self.data.get("summary", "")).split()),
            seed=self.get("source", "seed", default=""),
            rules_file=self.get("source", "rules", default=""),
            players=tuple(players),
            default_players=self.get("players", "default", default=players[0]),
            tile_kinds=tuple(kinds),
            removals=tuple(removals),
            copies=copies,
            flower_sets=tuple(self.flower_sets(kinds)),
            dealer_tiles=dealer_tiles,
            other_tiles=other_tiles,
            reserved_tail=reserved_tail,
            left_undrawn=left_undrawn,
            replacement=self.get("wall", "replacement", default="tail"),
            options=tuple(options),
            constraints=tuple(constraints),
            claims=claims,
            kongs=kongs,
            ready=ready,
            winning=winning,
            scoring=scoring,
            settlement=settlement,
            dealer=dealer,
            hands=hands,
            verbs=tuple(verbs),
            face_up_tail=face_up,
            stakes=stakes,
            history_wins=tuple(history_wins),
            flower_wins=tuple(flower_wins),
            flower_robs=tuple(flower_robs),
            kong_payments=kong_payments,
            wilds=wilds,
            horses=horses,
            follow_dealer=follow,
            special_sets=tuple(special_sets),
            ready_sees_opponent=sees,
            prevailing_wind=self.get("match", "prevailing_wind", default="east"),
            wind_rounds=wind_rounds,
            autoplay_wins=self.value(("autoplay", "wins"), False, vocab.BOOL),
            wall_rules=tuple(wall_rules),
            opening=tuple(opening),
            restrictions=tuple(restrictions),
            hand_end=hand_end,
            payment_moves=tuple(payment_moves),
        )

    def flower_sets(self, kinds) -> list[tuple]:
        out = []
        for i, _ in enumerate(self.get("tiles", "flower_sets", default=[]) or []):
            path = ("tiles", "flower_sets", i)
            group = [t for t, _ in self.tiles(path)]
            wrong = [t for t in group if t < 34 or t not in kinds]
            if wrong:
                self.error(path, f"{tilemod.format_tiles(wrong)}: a flower set names flowers of the tile set")
            elif len(set(group)) != len(group) or len(group) < 2:
                self.error(path, "a flower set names two or more different flowers")
            else:
                out.append(tuple(sorted(group)))
        return out

    def default_hands(self):
        """A match counts `options.rounds` hands, unless it counts rounds of wind."""
        return 0 if self.get("match", "wind_rounds") is not None else "options.rounds"

    def removals(self, kinds) -> list[tuple]:
        out = []
        for i, entry in enumerate(self.get("tiles", "remove", default=[])):
            path = ("tiles", "remove", i)
            tiles = []
            for t, where in self.tiles(path + ("tiles",)):
                if t not in kinds:
                    self.error(where, f"{tilemod.NAMES[t]} is not in the tile set, so it cannot be removed")
                else:
                    tiles.append(t)
            out.append((tuple(tiles), self.value(path + ("when",), True, vocab.BOOL)))
        return out

    def enum_value(self, path, allowed: tuple, default: str) -> ir.Value:
        """A name from `allowed`, or a table expression giving one."""
        raw = self.get(*path, default=default)
        if raw in allowed:
            return ir.Value(const=raw)
        env = Env(vocab.TABLE, self.option_types)
        try:
            c = compile_expr(str(raw), env, vocab.STR)
        except ExprError as exc:
            self.errors.append(self.pos.diag_at(path, exc.offset, f"in {str(raw)!r}: {exc.message}"))
            return ir.Value(const=default)
        for value, offset in c.results():
            if value is not None and value not in allowed:
                self.errors.append(
                    self.pos.diag_at(path, offset, f"{value!r} is not allowed here; expected one of: {', '.join(allowed)}")
                )
        return ir.Value(expr=ir.Expr(str(raw), c.code, c.type, vocab.TABLE, c.names))

    def wilds(self, kinds) -> ir.Wilds | None:
        spec = self.get("wilds")
        if spec is None:
            return None
        fixed = []
        for i, entry in enumerate(spec.get("fixed", [])):
            path = ("wilds", "fixed", i)
            tiles = []
            for t, where in self.tiles(path + ("tiles",)):
                if t not in kinds:
                    self.error(where, f"{tilemod.NAMES[t]} is not in the tile set, so it cannot be wild")
                tiles.append(t)
            fixed.append((tuple(tiles), self.value(path + ("when",), True, vocab.BOOL)))
        order = [t for t, _ in self.tiles(("wilds", "indicator", "honour_order"))] or list(range(27, 34))
        if sorted(order) != sorted(set(order)) or any(not 27 <= t < 34 for t in order):
            self.error(("wilds", "indicator", "honour_order"), "the honour order lists each honour tile (z) once")
        win_with = spec.get("win_with") or {}
        return ir.Wilds(
            fixed=tuple(fixed),
            indicator=self.value(("wilds", "indicator", "when"), False, vocab.BOOL) if "indicator" in spec else ir.Value(const=False),
            honour_order=tuple(order),
            win_with_count=win_with.get("count", 0),
            win_with_when=self.value(("wilds", "win_with", "when"), False, vocab.BOOL) if win_with else ir.Value(const=False),
        )

    def deal_size(self, players, kinds, copies) -> tuple[int, int]:
        dealer_tiles = self.get("deal", "dealer", default=14)
        other_tiles = self.get("deal", "others", default=13)
        total = len([k for k in kinds if k < 34]) * copies + len([k for k in kinds if k >= 34])
        need = dealer_tiles + other_tiles * (max(players) - 1)
        if total and need >= total:
            self.error(("deal",), f"{max(players)} players need {need} tiles to deal but the set has only {total}")
        return dealer_tiles, other_tiles

    def players(self) -> list[int]:
        allowed = list(self.get("players", "allowed", default=[4]))
        default = self.get("players", "default")
        if default is not None and default not in allowed:
            self.error(("players", "default"), f"default player count {default} is not among allowed {allowed}")
        return allowed

    def tile_set(self) -> tuple[list[int], int]:
        kinds = []
        for suit in self.get("tiles", "suits", default=[]):
            base = {"m": 0, "p": 9, "s": 18}[suit]
            kinds.extend(range(base, base + 9))
        for key, lo, hi, what in (("honours", 27, 34, "an honour (z)"), ("flowers", 34, 42, "a flower (f)")):
            wrong: dict = {}
            for t, where in self.tiles(("tiles", key)):
                if not lo <= t < hi:
                    wrong.setdefault(where, []).append(t)
                elif t in kinds:
                    self.error(where, f"{tilemod.NAMES[t]} is listed twice")
                else:
                    kinds.append(t)
            for where, bad in wrong.items():
                listed = ", ".join(tilemod.NAMES[t] for t in bad)
                self.error(where, f"{listed} {'is' if len(bad) == 1 else 'are'} not {what} tile{'s' if len(bad) > 1 else ''}")
        if not kinds:
            self.error(("tiles",), "the tile set is empty: give suits, honours or flowers")
        return sorted(kinds), self.get("tiles", "copies", default=4)

    def options(self) -> list[ir.Option]:
        raw = dict(self.get("options", default={}) or {})
        if "rounds" not in raw and self.get("match", "wind_rounds") is None:
            raw["rounds"] = DEFAULT_ROUNDS
        out = []
        for oid, spec in raw.items():
            path = ("options", oid)
            kind = spec["type"]
            values, labels = [], []
            for i, v in enumerate(spec.get("values", [])):
                value, label = (v.get("value"), v) if isinstance(v, dict) else (v, {})
                if kind == "choice":
                    value = str(value)
                elif kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                    self.error(path + ("values", i), f"option {oid} is an int option; {value!r} is not an integer")
                elif kind == "bool" and not isinstance(value, bool):
                    self.error(path + ("values", i), f"option {oid} is a bool option; {value!r} is not true or false")
                values.append(value)
                labels.append(ir.Text(label.get("zh", str(value)), label.get("en", label.get("zh", str(value)))))
            default = spec["default"]
            if kind == "choice":
                default = str(default)
                if not values:
                    self.error(path, f"choice option {oid} needs values")
            if kind == "bool" and not values:
                values = [True, False]
                labels = [ir.Text("是", "yes"), ir.Text("否", "no")]
            if kind == "bool" and not isinstance(default, bool):
                self.error(path + ("default",), f"option {oid} is a bool option; its default must be true or false")
            elif kind == "int" and (isinstance(default, bool) or not isinstance(default, int)):
                self.error(path + ("default",), f"option {oid} is an int option; its default must be an integer")
            elif values and default not in values:
                self.error(
                    path + ("default",),
                    f"default {default!r} of option {oid} is not one of its values: {', '.join(map(str, values))}",
                )
            lo, hi = spec.get("minimum"), spec.get("maximum")
            if kind == "int" and isinstance(default, int):
                if lo is not None and default < lo or hi is not None and default > hi:
                    self.error(path + ("default",), f"default {default} of option {oid} is outside {lo}..{hi}")
            self.option_types[oid] = OptionType(
                {"bool": vocab.BOOL, "int": vocab.INT, "choice": vocab.STR}[kind], tuple(values)
            )
            out.append(
                ir.Option(
                    id=oid,
                    name=ir.Text(spec["zh"], spec.get("en", spec["zh"])),
                    type=kind,
                    default=default,
                    values=tuple(values),
                    labels=tuple(labels),
                    minimum=lo,
                    maximum=hi,
                    advanced=spec.get("advanced", False),
                    rule=spec.get("rule", ""),
                    doc=" ".join(spec.get("doc", "").split()),
                )
            )
        return out

    def constraints(self) -> list[ir.Constraint]:
        out = []
        for i, c in enumerate(self.get("option_rules", default=[])):
            e = self.expr(("option_rules", i, "check"), vocab.TABLE, vocab.BOOL)
            if e:
                out.append(ir.Constraint(e, self.text(c["message"])))
        return out

    def claims(self) -> ir.Claims:
        c = ("claims",)
        priority = []
        seen = set()
        for i, level in enumerate(self.get("claims", "priority", default=["hu", "kong", "pong", "chow"])):
            verbs = tuple(level) if isinstance(level, list) else (level,)
            for v in verbs:
                if v in seen:
                    self.error(c + ("priority", i), f"claim {v!r} appears twice in the priority")
                seen.add(v)
            priority.append(verbs)
        for v in ("hu", "kong", "pong", "chow"):
            if v not in seen:
                priority.append((v,))
        pass_rules = []
        for i, p in enumerate(self.get("claims", "after_pass", default=[])):
            if p.get("unless_worth_more") and p["claim"] != "hu":
                self.error(c + ("after_pass", i, "unless_worth_more"), "unless_worth_more applies to hu only")
            pass_rules.append(
                ir.PassRule(
                    claim=p["claim"],
                    when=self.value(c + ("after_pass", i, "when"), True, vocab.BOOL),
                    same_tile=p.get("tiles", "same") == "same",
                    unless_worth_more=p.get("unless_worth_more", False),
                    rule=p.get("rule", ""),
                    until_draw=p.get("until", "draw_or_claim") == "draw",
                )
            )
        return ir.Claims(
            chow=self.value(c + ("chow",), False, vocab.BOOL),
            pong=self.value(c + ("pong",), True, vocab.BOOL),
            kong=self.value(c + ("kong",), True, vocab.BOOL),
            hu=self.value(c + ("hu",), True, vocab.BOOL),
            priority=tuple(priority),
            multiple_winners=self.value(c + ("multiple_winners",), True, vocab.BOOL),
            last_discard=tuple(self.get("claims", "on_last_discard", default=["hu"])),
            rob_kinds=tuple(self.get("claims", "rob_kong", "kinds", default=["added"])),
            rob_when=self.value(c + ("rob_kong", "when"), True, vocab.BOOL),
            rob_counts_as=self.enum_value(c + ("rob_kong", "counts_as"), ("discard", "self_draw"), "discard"),
            must_win=self.play_value(c + ("must_win",), False, vocab.BOOL),
            pass_rules=tuple(pass_rules),
            join_wins=self.value(c + ("join_wins",), False, vocab.BOOL),
        )

    def kongs(self) -> ir.Kongs:
        k = ("kongs",)
        return ir.Kongs(
            concealed=self.value(k + ("concealed",), True, vocab.BOOL),
            added=self.value(k + ("added",), True, vocab.BOOL),
            in_pung_turn=self.value(k + ("in_pung_turn",), True, vocab.BOOL),
            chain=self.value(k + ("chain",), True, vocab.BOOL),
            show_concealed=self.get("kongs", "show_concealed", default=False),
        )

    def ready(self) -> ir.Ready:
        return ir.Ready(
            declare=self.get("ready", "declare", default="none"),
            locks_hand=self.value(("ready", "locks_hand"), True, vocab.BOOL),
            forbids=tuple(self.get("ready", "forbids", default=["pong", "chow"])),
            kong=self.get("ready", "kong", default="same_waits"),
            when=self.value(("ready", "when"), True, vocab.BOOL),
            kong_ignores=tuple(self.get("ready", "kong_ignores", default=[])),
        )

    def fan_refs(self, path: tuple, fan_ids: set) -> None:
        """Every fan id listed at `path` exists."""
        for i, f in enumerate(self.get(*path, default=[]) or []):
            if f not in fan_ids:
                self.error(path + (i,), f"unknown fan {f!r}" + _close(f, fan_ids))

    def winning_shapes(self) -> dict:
        shapes = self.get("winning", "shapes", default={}) or {}
        seven = shapes.get("seven_pairs", False)
        return {
            "standard": shapes.get("standard", True),
            "seven_pairs": seven is True or isinstance(seven, dict),
            "quads_as_two_pairs": seven.get("quads_as_two_pairs", True) if isinstance(seven, dict) else True,
            "thirteen_orphans": shapes.get("thirteen_orphans", False),
            "honours_and_knitted": shapes.get("honours_and_knitted", False),
            "knitted_straight": shapes.get("knitted_straight", False),
        }

    def winning(self, shapes: dict) -> ir.Winning:
        if not any(v for k, v in shapes.items() if k != "quads_as_two_pairs"):
            self.error(("winning", "shapes"), "no winning shape is allowed")
        return ir.Winning(
            **shapes,
            allowed=self.expr(("winning", "allowed"), vocab.RESULT, vocab.BOOL),
            why_not=self.text(self.get("winning", "why_not")),
            double=self.value(("winning", "double"), False, vocab.BOOL),
        )

    def scoring(self) -> ir.Scoring:
        defines = []
        for name in self.get("scoring", "define", default={}) or {}:
            path = ("scoring", "define", name)
            if vocab.lookup(name, vocab.HAND) or name in vocab.TILE_GROUPS or name == "options":
                self.error(path, f"definition {name!r} hides a fact of the same name", key=True)
                continue
            e = self.expr(path, vocab.HAND, None, defs=dict(self.defs))
            if e:
                self.defs[name] = e
                defines.append((name, e))
        fans_raw = self.get("scoring", "fans", default={}) or {}
        ids = list(fans_raw)
        self.fan_ids = frozenset(ids)
        listed = self.get("scoring", "exclusion", default="transitive") == "listed"
        direct, times, on_sets = self.exclusions(fans_raw, ids)
        closure = direct if listed else self.exclusion_closure(direct, ids)
        if listed:
            graph = {fid: direct[fid] + [x for x, _ in times[fid]] + on_sets[fid] for fid in ids}
            self.exclusion_closure(graph, ids)  # reports cycles
        fans = []
        for fid, spec in fans_raw.items():
            path = ("scoring", "fans", fid)
            when = self.expr(path + ("when",), vocab.HAND, vocab.BOOL, defs=self.defs)
            count = self.expr(path + ("count",), vocab.HAND, vocab.INT, defs=self.defs)
            fans.append(
                ir.Fan(
                    id=fid,
                    name=ir.Text(spec["zh"], spec.get("en", spec["zh"])),
                    value=self.value(path + ("value",), 0, vocab.INT),
                    when=when,
                    count=count,
                    excludes=tuple(x for x in ids if x in closure.get(fid, ()) or (fid in self.excludes_all and x != fid)),
                    rule=spec.get("rule", ""),
                    doc=" ".join(spec.get("doc", "").split()),
                    alone=spec.get("alone", False),
                    sets=self.set_group(path, spec),
                    each=self.each(path, spec),
                    excludes_times=tuple(times[fid]),
                    excludes_sets=tuple(on_sets[fid]),
                    bonus=spec.get("bonus", False),
                )
            )
        self.check_set_exclusions(fans)
        prefer = self.get("scoring", "prefer", default=[]) or []
        for i, fid in enumerate(prefer):
            if fid not in fans_raw:
                self.error(("scoring", "prefer", i), f"unknown fan {fid!r}" + _close(fid, ids))
        unit = self.get("scoring", "unit", default="fan")
        return ir.Scoring(
            unit=unit,
            unit_name=self.text(self.get("scoring", "unit_name"), unit),
            combine=self.enum_value(("scoring", "combine"), ("add", "multiply"), "add"),
            cap=self.value(("scoring", "cap"), 0, vocab.INT),
            final=self.expr(("scoring", "final"), vocab.RESULT, vocab.INT),
            defines=tuple(defines),
            fans=tuple(fans),
            exclusion="listed" if listed else "transitive",
            set_groups=self.get("scoring", "set_groups", default="account_once"),
            prefer=tuple(f for f in prefer if f in fans_raw),
        )

    def exclusions(self, fans_raw: dict, ids: list) -> tuple[dict, dict, dict]:
        """Each fan's exclusions: whole fans, (fan, n) counts, fans on its sets."""
        direct = {fid: [] for fid in ids}
        times = {fid: [] for fid in ids}
        on_sets = {fid: [] for fid in ids}
        for fid, spec in fans_raw.items():
            if spec.get("excludes") == "all":
                self.excludes_all.add(fid)
                continue
            for i, ex in enumerate(spec.get("excludes", [])):
                where = ("scoring", "fans", fid, "excludes", i)
                target = ex["fan"] if isinstance(ex, dict) else ex
                if target not in fans_raw:
                    self.error(
                        where + (("fan",) if isinstance(ex, dict) else ()),
                        f"fan {fid} excludes unknown fan {target!r}" + _close(target, [i for i in ids if i != fid]),
                    )
                elif target == fid:
                    self.error(where, f"fan {fid} excludes itself")
                elif not isinstance(ex, dict):
                    direct[fid].append(target)
                elif "times" in ex:
                    times[fid].append((target, ex["times"]))
                else:
                    on_sets[fid].append(target)
        return direct, times, on_sets

    def set_group(self, path, spec) -> ir.SetGroup | None:
        raw = spec.get("sets")
        if raw is None:
            return None
        kind = "chow" if "chows" in raw else "pung"
        size = raw[kind + "s"]
        where = path + ("sets",)
        ranks = tuple(sorted(raw.get("ranks", ())))
        if ranks and len(ranks) != size:
            self.error(where + ("ranks",), f"{len(ranks)} ranks for a group of {size} sets")
        if kind == "chow" and any(r > 7 for r in ranks):
            self.error(where + ("ranks",), "a chow's rank (its lowest number) is at most 7")
        tiles = None
        if "tiles" in raw:
            text = raw["tiles"]
            try:
                tiles = tuple(sorted(set(tilemod.parse_group(vocab.TILE_GROUPS.get(text, text)))))
            except tilemod.TileError as exc:
                self.error(where + ("tiles",), f"{exc}; expected MPSZ tiles or a group: " + ", ".join(vocab.TILE_GROUPS))
                tiles = ()
            if len(tiles) < size:
                self.error(where + ("tiles",), f"{size} sets of different tiles need at least {size} tiles")
            if raw.get("suits") or raw.get("steps") or ranks:
                self.error(where + ("tiles",), "give either tiles, or suits, steps and ranks")
        elif not (raw.get("suits") or raw.get("steps") or ranks):
            self.error(where, "say how the sets relate: suits, steps, ranks or tiles")
        return ir.SetGroup(kind, size, raw.get("suits", ""), tuple(raw.get("steps", ())), ranks, tiles)

    def each(self, path, spec) -> tuple | None:
        raw = spec.get("each")
        if raw is None:
            return None
        if spec.get("sets") is not None:
            self.error(path + ("each",), "a fan counts either over a group of sets or per set, not both")
        kind = "chow" if "chows" in raw else "pung"
        e = self.expr(path + ("each", kind + "s"), vocab.HAND, vocab.TILES, defs=self.defs)
        if e is None:
            return None
        if e.type == vocab.TILE:
            e = ir.Expr(e.source, f"({e.code},)", vocab.TILES, e.scope, e.names)
        if e.reads_arrangement:
            self.error(path + ("each", kind + "s"), "the tiles of a per-set fan are read from the hand, not from one arrangement")
        return (kind, e)

    def check_set_exclusions(self, fans: list) -> None:
        per_set = {f.id for f in fans if f.each is not None}
        for f in fans:
            for target in f.excludes_sets:
                if target not in per_set:
                    self.error(("scoring", "fans", f.id, "excludes"), f"{f.id} excludes {target} on its sets, but {target} is not counted per set (each)")
            if f.excludes_sets and f.sets is None and f.each is None:
                self.error(("scoring", "fans", f.id, "excludes"), f"{f.id} has no sets of its own (sets or each) to exclude {', '.join(f.excludes_sets)} on")

    def exclusion_closure(self, direct: dict, ids: list) -> dict:
        """Transitive exclusions; a cycle is reported at each fan on it."""
        closure: dict = {}
        state: dict = {}

        def visit(fid, stack):
            if state.get(fid) == "done":
                return closure[fid]
            if state.get(fid) == "busy":
                cycle = stack[stack.index(fid):] + [fid]
                self.error(("scoring", "fans", fid, "excludes"), "exclusion cycle: " + " -> ".join(cycle))
                return set()
            state[fid] = "busy"
            out = set()
            for ex in direct.get(fid, []):
                out.add(ex)
                out |= visit(ex, stack + [fid])
            state[fid] = "done"
            closure[fid] = out
            return out

        for fid in ids:
            visit(fid, [])
        return closure

    def settlement(self) -> ir.Settlement:
        path = ("settlement", "win", "amount")
        amount = self.expr(path, vocab.SETTLE, vocab.INT, text=self.get(*path, default="total"))
        liable = []
        for i, rule in enumerate(self.get("settlement", "win", "liable", default=[])):
            when = self.expr(("settlement", "win", "liable", i, "when"), vocab.RESULT, vocab.BOOL)
            if when:
                liable.append(ir.Liable(when, rule["who"]))
        return ir.Settlement(
            discard_payers=self.enum_value(
                ("settlement", "win", "payers", "discard"), ("discarder", "others"), "discarder"
            ),
            self_draw_payers=self.get("settlement", "win", "payers", "self_draw", default="others"),
            amount=amount or ir.Expr("total", "s.total", vocab.INT, vocab.SETTLE),
            self_draw_when=self.expr(("settlement", "win", "self_draw_when"), vocab.RESULT, vocab.BOOL),
            liable=tuple(liable),
            extras=tuple(self.extras()),
            table_fee=self.value(("settlement", "table_fee"), 0, vocab.INT),
        )

    def extras(self) -> list:
        out = []
        for i, extra in enumerate(self.get("settlement", "win", "extras", default=[])):
            e = self.expr(("settlement", "win", "extras", i, "amount"), vocab.SETTLE, vocab.INT)
            if e:
                out.append((extra["reason"], e))
        return out

    def horses(self, kinds, players) -> ir.Horses | None:
        spec = self.get("horses")
        if spec is None:
            return None
        seats = {}
        for count, lists in spec["seats"].items():
            path = ("horses", "seats", count)
            n = int(count)
            if n not in players:
                self.error(path, f"the variant is not played by {n} players", key=True)
            if len(lists) != n:
                self.error(path, f"{n} players need {n} lists of tiles, one per seat from the dealer")
            seen: dict = {}
            per_seat = []
            for i, _ in enumerate(lists):
                tiles = []
                for t, where in self.tiles(path + (i,)):
                    if t in seen:
                        self.error(where, f"{tilemod.NAMES[t]} already points at seat {seen[t]} from the dealer")
                    seen[t] = i
                    tiles.append(t)
                per_seat.append(tuple(tiles))
            missing = [t for t in kinds if t < 34 and t not in seen]
            if missing and not self.errors:
                self.error(path, "tiles pointing at no seat: " + tilemod.format_tiles(missing))
            seats[n] = tuple(per_seat)
        bought = spec.get("bought") or {}
        return ir.Horses(
            seats=seats,
            bought_each=self.value(("horses", "bought", "each"), 0, vocab.INT),
            bought_dealer=self.value(("horses", "bought", "dealer"), 0, vocab.INT),
            mirror=bought.get("mirror", "win"),
            reason=bought.get("reason", "horse"),
            reward=self.value(("horses", "reward", "count"), 0, vocab.INT),
            amount=self.expr(("horses", "bought", "amount"), vocab.SETTLE, vocab.INT),
        )

    def follow_dealer(self) -> ir.Follow | None:
        spec = self.get("follow_dealer")
        if spec is None:
            return None
        amount = self.expr(("follow_dealer", "amount"), vocab.PLAY, vocab.INT)
        if amount is None:
            return None
        return ir.Follow(self.value(("follow_dealer", "when"), True, vocab.BOOL), amount, spec.get("reason", "gen_zhuang"))

    def kong_payments(self) -> ir.KongPayments | None:
        spec = self.get("settlement", "kongs")
        if spec is None:
            return None
        path = ("settlement", "kongs")
        rules = tuple(
            (kind, spec[kind]["payers"], self.kong_value(path + (kind, "amount")))
            for kind in ("direct", "added", "concealed")
            if kind in spec
        )
        if spec.get("added", {}).get("payers") == "discarder" or spec.get("concealed", {}).get("payers") == "discarder":
            bad = "added" if spec.get("added", {}).get("payers") == "discarder" else "concealed"
            self.error(path + (bad, "payers"), f"an {bad} kong has no discarder: its payers are others")
        return ir.KongPayments(
            timing=spec["timing"],
            at_draw=self.value(path + ("at_draw",), False, vocab.BOOL),
            rules=rules,
            reason=spec.get("reason", "kong"),
        )

    def kong_value(self, path) -> ir.Value:
        """A kong payment: a constant, or a kong expression (`kong.tile`)."""
        raw = self.get(*path, default=0)
        if isinstance(raw, int) and not isinstance(raw, bool):
            return ir.Value(const=raw)
        e = self.expr(path, vocab.KONG, vocab.INT, text=raw)
        return ir.Value(expr=e) if e else ir.Value(const=0)

    def special_sets(self, kinds, kong_payments) -> list[ir.SpecialSet]:
        out = []
        seen: dict = {}
        for sid, spec in (self.get("special_sets", default={}) or {}).items():
            path = ("special_sets", sid)
            if sid in ("direct", "added", "concealed"):
                self.error(path, f"{sid!r} is a kind of kong; a special set needs another id", key=True)
            groups = []
            for i, text in enumerate(spec["groups"]):
                where = path + ("groups", i)
                try:
                    tiles = tilemod.parse_tiles(str(text))
                except tilemod.TileError as exc:
                    self.error(where, str(exc))
                    continue
                if len(set(tiles)) != len(tiles) or not 3 <= len(tiles) <= 4:
                    self.error(where, f"a special set is three or four different tiles, not {text!r}")
                    continue
                missing = [t for t in tiles if t not in kinds]
                if missing:
                    self.error(where, f"{tilemod.format_tiles(missing)} not in the tile set")
                    continue
                group = tuple(sorted(tiles))
                if group in seen:
                    self.error(where, f"{tilemod.format_tiles(group)} already makes the special set {seen[group]}")
                    continue
                seen[group] = sid
                groups.append(group)
            payment = self.kong_value(path + ("payment",))
            if (payment.expr is not None or payment.const) and kong_payments is None:
                self.error(path + ("payment",), "a special set is paid as a kong: add settlement.kongs with its timing")
            out.append(
                ir.SpecialSet(
                    id=sid,
                    name=self.text(spec),
                    groups=tuple(groups),
                    counts_as=spec.get("counts_as", "set"),
                    declare=spec.get("declare", "opening"),
                    payment=payment,
                    when=self.value(path + ("when",), True, vocab.BOOL),
                    rule=spec.get("rule", ""),
                )
            )
        return out

    def stakes(self) -> ir.Stakes | None:
        spec = self.get("stakes")
        if spec is None:
            return None
        return ir.Stakes(self.value(("stakes", "when"), True, vocab.BOOL), tuple(spec["values"]))

    def history_wins(self, fan_ids: set, key: str = "by_discards") -> list[ir.HistoryWin]:
        """Wins that examine no hand (on a run of discards, on flowers)."""
        out = []
        if key != "by_discards" and self.get("winning", key) and not any(t >= 34 for t, _ in self.tiles(("tiles", "flowers"))):
            self.error(("winning", key), "the tile set has no flowers")
        for wid, spec in (self.get("winning", key, default={}) or {}).items():
            path = ("winning", key, wid)
            for i, f in enumerate(spec["fans"]):
                if f not in fan_ids:
                    self.error(path + ("fans", i), f"unknown fan {f!r}" + _close(f, fan_ids))
            when = self.expr(path + ("when",), vocab.SEAT, vocab.BOOL)
            if when:
                out.append(ir.HistoryWin(wid, self.text(spec), when, tuple(spec["fans"])))
        return out

    def wall_rules(self, fan_ids: set, kong_reason) -> list[ir.WallRule]:
        out = []
        # the reasons of the payments made before the exhausted wall, which a refund may return
        reasons = {"win"}
        if self.get("horses") is not None:
            reasons.add(self.get("horses", "bought", "reason", default="horse"))
        if self.get("follow_dealer") is not None:
            reasons.add(self.get("follow_dealer", "reason", default="gen_zhuang"))
        reasons |= {kong_reason} if kong_reason else set()
        reasons |= {e["reason"] for e in self.get("settlement", "win", "extras", default=[]) or []}
        reasons |= {m.get("reason", "moved") for m in self.get("settlement", "moves", default=[]) or []}
        seen: set = set()
        for i, rule in enumerate(self.get("settlement", "exhausted_wall", default=[]) or []):
            path = ("settlement", "exhausted_wall", i)
            rid = rule["id"]
            if rid in seen:
                self.error(path + ("id",), f"exhausted-wall rule {rid!r} appears twice")
            seen.add(rid)
            self.fan_refs(path + ("ignore_fans",), fan_ids)
            name = self.text(rule, rid) if "zh" in rule else ir.Text(rid, rule.get("en", rid))
            when = self.value(path + ("when",), True, vocab.BOOL)
            if "refund" in rule:
                refund = rule["refund"]
                if refund not in reasons:
                    self.error(path + ("refund",), f"no payment made during a hand has reason {refund!r}; "
                               f"reasons paid before the exhausted wall: {', '.join(sorted(reasons))}")
                out.append(ir.WallRule(rid, name, "refund", when, refund=refund,
                                       by=self.expr(path + ("by",), vocab.SEAT, vocab.BOOL), rule=rule.get("rule", "")))
            else:
                out.append(ir.WallRule(
                    rid, name, "pay", when,
                    collects=self.expr(path + ("collects",), vocab.SEAT, vocab.BOOL),
                    pays=self.expr(path + ("pays",), vocab.SEAT, vocab.BOOL),
                    amount=self.expr(path + ("amount",), vocab.SETTLE, vocab.INT),
                    ignore_fans=tuple(rule.get("ignore_fans", [])),
                    rule=rule.get("rule", ""),
                ))
            reasons.add(rid)
        return out

    def opening(self, kinds, players) -> list[ir.OpeningStep]:
        """The opening steps in order, checked: one deal, everything that
        reads the hand after it, flowers right after it where the tile set
        has them, an exchange small enough for every hand."""
        has_flowers = any(k >= 34 for k in kinds)
        raw = self.get("opening")
        if raw is None:
            steps = [ir.OpeningStep("stakes")] if self.get("stakes") is not None else []
            steps.append(ir.OpeningStep("deal"))
            if has_flowers:
                steps.append(ir.OpeningStep("flowers"))
            if self.get("ready", "declare", default="none") != "none":
                steps.append(ir.OpeningStep("ready"))
            return steps
        out: list = []
        seen: set = set()
        for i, item in enumerate(raw):
            path = ("opening", i)
            kind, spec = (item, {}) if isinstance(item, str) else next(iter(item.items()))
            step = self.opening_step(kind, spec, path + (() if isinstance(item, str) else (kind,)), kinds, players)
            key = step.id if kind in ("exchange", "declare") else kind
            if key in seen:
                self.error(path, f"the opening has {key!r} twice")
            seen.add(key)
            if kind != "stakes" and "deal" not in seen and kind != "deal":
                self.error(path, f"{kind} comes before the deal: it needs the dealt tiles; put it after deal")
            out.append(step)
        kinds_in = [s.kind for s in out]
        if "deal" not in kinds_in:
            self.error(("opening",), "the opening has no deal step")
        if has_flowers and "flowers" not in kinds_in:
            self.error(("opening",), "the tile set has flowers: the opening needs a flowers step (补花) right after deal")
        if "flowers" in kinds_in and "deal" in kinds_in and kinds_in.index("flowers") != kinds_in.index("deal") + 1:
            self.error(("opening", kinds_in.index("flowers")), "flowers (补花) comes right after deal")
        return out

    def opening_step(self, kind, spec, path, kinds, players) -> ir.OpeningStep:
        if kind == "stakes" and self.get("stakes") is None:
            self.error(path, "a stakes step needs the stakes: section (the values a seat may buy)")
        if kind == "flowers" and not any(k >= 34 for k in kinds):
            self.error(path, "the tile set has no flowers to set aside")
        if kind == "ready" and self.get("ready", "declare", default="none") == "none":
            self.error(path, "ready.declare is none: no seat declares ready at the opening")
        if kind not in ("exchange", "declare"):
            return ir.OpeningStep(kind)
        name = self.text(spec) if "zh" in spec else ir.Text(spec.get("en", ""), spec.get("en", ""))
        when = self.value(path + ("when",), True, vocab.BOOL)
        if kind == "exchange":
            return self.exchange_step(spec, path, kinds, players, name, when)
        return self.declare_step(spec, path, kinds, name, when)

    def exchange_step(self, spec, path, kinds, players, name, when) -> ir.OpeningStep:
        n = spec["tiles"]
        same = spec.get("suit", "same") == "same"
        classes = len({tilemod.suit_of(k) for k in kinds if k < 34})
        hand = self.get("deal", "others", default=13)
        most = -(-hand // max(classes, 1)) if same else hand  # some suit holds at least this many
        if n > most:
            self.error(path + ("tiles",), f"a hand of {hand} tiles is sure to hold only {most} tiles of one suit "
                       f"in this tile set, so it cannot always pass {n}" if same else
                       f"a hand of {hand} tiles cannot pass {n}")
        raw = spec.get("direction", "random")
        directions = ("next", "previous", "across") if raw == "random" else tuple(raw) if isinstance(raw, list) else (raw,)
        if directions == ("across",) and min(players) < 4:
            self.error(path + ("direction",), f"across needs four players; this variant is also played by {min(players)}")
        return ir.OpeningStep("exchange", spec.get("id", "exchange"), name, when, tiles=n, same_suit=same,
                              directions=directions, rule=spec.get("rule", ""))

    def declare_step(self, spec, path, kinds, name, when) -> ir.OpeningStep:
        from runtime.actions import ALL_VERBS

        did = spec["id"]
        clash = did in ALL_VERBS or did == "exchange"
        if clash:
            self.error(path + ("id",), f"{did!r} is already a verb; a declaration needs an id of its own")
        suits = spec["choices"] == "suits"
        values = tuple(s for s in "mps" if any(tilemod.suit_of(k) == s for k in kinds)) if suits else tuple(spec["choices"])
        if suits and not values:
            self.error(path + ("choices",), "the tile set has no number suits to choose from")
        auto = spec.get("auto", "fewest_suit" if suits else "first")
        if auto == "fewest_suit" and not suits:
            self.error(path + ("auto",), "fewest_suit chooses a suit; these choices are not suits (choices: suits)")
        if did in self.choices:
            self.error(path + ("id",), f"declaration {did!r} is made twice")
        if not clash:
            self.choices[did] = values
        return ir.OpeningStep("declare", did, name, when, choices=() if suits else values, choices_are_suits=suits,
                              auto=auto, rule=spec.get("rule", ""))

    def restrictions(self) -> list[ir.Restriction]:
        out = []
        for i, r in enumerate(self.get("restrictions", default=[]) or []):
            path = ("restrictions", i)
            tiles = self.expr(path + ("tiles",), vocab.TILE_SCOPE, vocab.BOOL)
            if not (r.get("discard_first") or r.get("forbids") or r.get("no_win")):
                self.error(path, "this restriction forbids nothing: give discard_first, forbids or no_win")
            if tiles:
                out.append(ir.Restriction(tiles, r.get("discard_first", False), tuple(r.get("forbids", [])),
                                          r.get("no_win", False), self.text(r.get("why")), r.get("rule", "")))
        return out

    def hand_end(self, players) -> ir.HandEnd:
        spec = self.get("hand_end", default={}) or {}
        winners = spec.get("winners", "end")
        until_in = self.value(("hand_end", "until_in"), 1, vocab.INT)
        if isinstance(until_in.const, int) and not isinstance(until_in.const, bool) and until_in.const >= min(players):
            self.error(("hand_end", "until_in"), f"the hand would end before anyone won: until_in must be below "
                       f"{min(players)}, the fewest players of this variant")
        if "until_in" in spec and winners != "leave":
            self.error(("hand_end", "until_in"), "until_in applies when winners leave (winners: leave)")
        if "locked" in spec and winners != "stay":
            self.error(("hand_end", "locked"), "locked applies when winners stay in (winners: stay)")
        locked = spec.get("locked", {}) or {}
        return ir.HandEnd(winners, until_in, spec.get("resume", "after_last_winner"),
                          tuple(locked.get("forbids", ["pong", "chow"])), locked.get("kong", "same_waits"))

    def payment_moves(self) -> list[ir.PaymentMove]:
        out = []
        for i, m in enumerate(self.get("settlement", "moves", default=[]) or []):
            path = ("settlement", "moves", i)
            when = self.expr(path + ("when",), vocab.RESULT, vocab.BOOL)
            if m["payments"] == "discarder_last_kong" and self.get("settlement", "kongs", "timing") != "immediate":
                self.error(path + ("payments",), "only kongs paid at once (settlement.kongs.timing: immediate) "
                           "have collected money to move")
            if when:
                out.append(ir.PaymentMove(m["payments"], when, m.get("to", "first_winner"), m.get("reason", "moved"),
                                          self.text(m) if "zh" in m else ir.Text("", ""), m.get("rule", "")))
        return out

    # the hands a rotation rule may meet: (dealer won, several winners, anyone won)
    _HANDS = {"the dealer's own win": (True, False, True), "another player's win": (False, False, True),
              "several winners with the dealer": (True, True, True), "several winners without the dealer": (False, True, True),
              "a draw": (False, False, False)}

    def rotation(self) -> tuple:
        raw = self.get("dealer", "next")
        if raw is None:
            return (("several_winners", "discarder"), ("win", "winner"), ("draw", "dealer"))
        rules = tuple((r["after"], r["deals"]) for r in raw)
        several = self.get("claims", "multiple_winners", default=True) is not False
        covered: set = set()
        for i, (after, _) in enumerate(rules):
            fits = {name for name, hand in self._HANDS.items() if _rotation_fits(after, *hand)}
            if fits and fits <= covered:
                self.error(("dealer", "next", i), f"this rule never applies: the rules before it already decide after {after}")
            covered |= fits
        missing = [name for name, hand in self._HANDS.items() if name not in covered and (several or not hand[1])]
        if missing:
            self.error(("dealer", "next"), "no rule says who deals after " + ", ".join(missing) + "; add one (after: any catches the rest)")
        return rules

    def dealer(self, players: list[int]) -> ir.Dealer:
        first = self.get("dealer", "first", default=0)
        if isinstance(first, int) and first >= min(players):
            self.error(("dealer", "first"), f"seat {first} does not exist at a {min(players)}-player table")
        return ir.Dealer(
            first=str(first),
            next=self.rotation(),
            may_repeat=self.value(("dealer", "may_repeat"), True, vocab.BOOL),
            creator_deals=self.value(("dealer", "creator_deals"), False, vocab.BOOL),
        )


def _rotation_fits(after: str, dealer_won: bool, several: bool, won: bool) -> bool:
    return (after == "any" or (after == "draw" and not won) or (after == "win" and won)
            or (after == "several_winners" and several) or (after == "dealer_wins" and dealer_won))


def _close(word, candidates) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(candidates), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(close)}?)" if close else ""


def lower(data: dict, pos: Positions, name: str, source, seen: list | None = None) -> ir.Variant:
    """`source` is the `inherit.Source` the data was merged from; `seen`
    receives (path, compiled, scope) of every expression compiled."""
    lowering = _Lowering(data, pos, name, source)
    variant = lowering.lower()
    if seen is not None:
        seen.extend(lowering.seen)
    return variant


def semantic_errors(data, pos: Positions, name: str, source, broken: set) -> list[Diagnostic]:
    """The semantic mistakes of a file that also failed the schema check,
    in the sections the schema found sound."""
    if not isinstance(data, dict):
        return []
    try:
        _Lowering(data, pos, name, source, frozenset(broken)).lower()
    except CompileError as exc:
        return exc.diagnostics
    return []
