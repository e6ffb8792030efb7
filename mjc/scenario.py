"""Run scenario files (shared/spec/scenario.md): one scripted hand each."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from compiler.errors import CompileError
from compiler.loader import load_file
from runtime.actions import CLAIM_VERBS, Action, ActionError, parse_action
from runtime.claims import explain
from runtime.game import CLAIM, END, REPLACE, START, Game, IllegalAction, deal
from runtime.registry import UnknownVariant, load
from runtime.ruleset import OptionError
from runtime.tiles import NAMES, TileError, format_tiles, parse_tiles

from .project import ProjectError, announce, resolve


def load_variant(name: str):
    """The variant a scenario names (by name, Chinese title or English name)."""
    name = resolve(name)
    rs = load(name)
    announce(name)
    return rs

KEYS = {
    "variant", "players", "options", "dealer", "hands", "wall", "seed", "actions", "expect", "description", "rules",
    # optional keys this project adds (README): the wild indicator turned
    # before the deal, the bought horses by seat, the dealer's streak
    "indicator", "horses", "streak",
    "round_wind",  # the prevailing wind (spec: Additions)
    # scenario.md "Additions": the direction an exchange moves in
    "exchange_direction",
}
EXPECT_EXTRA = {"not_offered"}  # expect keys that are checks, not result keys
# what a result may hold; those a result leaves out when they do not apply, with their value then
RESULT_DEFAULTS = {"robbing_kong": False, "horses": [], "wilds": [], "indicator": None, "win_tile": None}
RESULT_KEYS = {"variant", "end", "winners", "discarder", "self_drawn", "fans", "totals", "deltas", "payments",
               "next_dealer", "wins", "exhausted", "file"} | set(RESULT_DEFAULTS)
DIRECTIONS = ("next", "previous", "across")
TURN_VERBS = {"discard", "kong", "hu", "ready", "double"}


class ScenarioError(Exception):
    """Bad input: exit 2 with this message."""


@dataclass
class Step:
    seat: int
    verb: str
    arg: str
    text: str
    line: int


@dataclass
class Outcome:
    result: dict
    differences: list = field(default_factory=list)


def _steps(data, pos, file: str) -> list[Step]:
    out = []
    if not isinstance(data.get("actions") or [], list):
        raise ScenarioError(f"{file}:{pos.of(('actions',))[0]}: actions is a list of 'SEAT VERB [ARGUMENT]'")
    for i, raw in enumerate(data.get("actions") or []):
        line = pos.of(("actions", i))[0]
        words = str(raw).split()
        if len(words) < 2 or not words[0].isdigit():
            raise ScenarioError(f"{file}:{line}: an action is 'SEAT VERB [ARGUMENT]', not {raw!r}")
        verb = words[1].lower()
        out.append(Step(int(words[0]), "pong" if verb == "pung" else verb, " ".join(words[2:]), str(raw), line))
    return out


class Runner:
    def __init__(self, path: str, verbose: bool = False, explain: bool = False):
        self.file = path
        self.verbose = verbose
        self.explain = explain
        try:
            data, pos, _ = load_file(path)
        except CompileError as exc:
            raise ScenarioError(str(exc)) from None
        if not isinstance(data, dict):
            raise ScenarioError(f"{path}:1: a scenario is a mapping with variant, hands or seed, and actions")
        self.data, self.pos = data, pos
        for key in data:
            if key not in KEYS:
                line = pos.of((key,), key=True)[0]
                raise ScenarioError(f"{path}:{line}: unknown key {key!r}; expected one of: {', '.join(sorted(KEYS))}")
        if "variant" not in data:
            raise ScenarioError(f"{path}:1: missing key 'variant'")
        if not isinstance(data.get("options") or {}, dict):
            raise ScenarioError(f"{path}:{self.line('options')}: options maps option ids to values")
        self._check_expect()
        try:
            self.ruleset = load_variant(str(data["variant"]))
            self.table = self.ruleset.configure(data.get("options") or {}, data.get("players"))
        except (UnknownVariant, OptionError, ProjectError) as exc:
            key = "options" if isinstance(exc, OptionError) else "variant"
            raise ScenarioError(f"{path}:{self.line(key)}: {exc}") from None
        self.steps = _steps(data, pos, path)
        self._check_steps()
        self.not_offered = self._not_offered()
        self.game = self._deal()

    def _check_expect(self) -> None:
        expect = self.data.get("expect")
        if expect is None:
            return
        if not isinstance(expect, dict):
            raise ScenarioError(f"{self.file}:{self.line('expect')}: expect maps result keys to their expected values")
        for key in expect:
            if key not in RESULT_KEYS and key not in EXPECT_EXTRA:
                import difflib

                close = difflib.get_close_matches(str(key), sorted(RESULT_KEYS | EXPECT_EXTRA), n=2, cutoff=0.6)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                raise ScenarioError(f"{self.file}:{self.pos.of(('expect', key), key=True)[0]}: expect.{key} is not a key "
                                    f"of a result{hint}; the keys: {', '.join(sorted(RESULT_KEYS | EXPECT_EXTRA))}")
        shapes = {"fans": dict, "totals": dict, "winners": list, "deltas": list, "payments": list, "wins": list}
        for key, shape in shapes.items():
            if key in expect and expect[key] is not None and not isinstance(expect[key], shape):
                what = "a mapping of seats" if shape is dict else "a list"
                raise ScenarioError(f"{self.file}:{self.line('expect', key)}: expect.{key} is {what}")

    def _check_steps(self) -> None:
        """Seats and verbs are checked before play, so that a typo is named
        at its line rather than waiting to the end of the hand."""
        n, verbs = self.table.players, set(self.ruleset.verbs) | {"pass"}
        if "exchange_direction" in self.data:
            way = self.data["exchange_direction"]
            line = self.line("exchange_direction")
            if way not in DIRECTIONS:
                raise ScenarioError(f"{self.file}:{line}: exchange_direction is one of: {', '.join(DIRECTIONS)}, not {way!r}")
            if not any(step.kind == "exchange" for step in self.table.opening):
                raise ScenarioError(f"{self.file}:{line}: these options make no exchange at the opening")
            if way == "across" and n != 4:
                raise ScenarioError(f"{self.file}:{line}: across needs four players")
        for step in self.steps:
            if not 0 <= step.seat < n:
                raise ScenarioError(f"{self.file}:{step.line}: no seat {step.seat} at a {n}-player table")
            if step.verb not in verbs:
                raise ScenarioError(
                    f"{self.file}:{step.line}: {step.verb!r} is not a verb of {self.ruleset.name}; "
                    f"its verbs: {', '.join(sorted(verbs))}"
                )

    def line(self, *path) -> int:
        return self.pos.of(path)[0]

    # ------------------------------------------------------------ deal

    def _deal(self) -> Game:
        data, n = self.data, self.table.players
        dealer = data.get("dealer", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise ScenarioError(f"{self.file}:{self.line('dealer')}: dealer must be a seat 0..{n - 1}")
        streak = data.get("streak", 0)
        if not isinstance(streak, int) or streak < 0:
            raise ScenarioError(f"{self.file}:{self.line('streak')}: streak is a count of hands, 0 or more")
        horses = None
        if "horses" in data:
            if not isinstance(data["horses"], dict):
                raise ScenarioError(f"{self.file}:{self.line('horses')}: horses maps each seat to its horse tiles")
            horses = {}
            for k, v in data["horses"].items():
                if not str(k).isdigit() or not 0 <= int(k) < n:
                    raise ScenarioError(f"{self.file}:{self.line('horses', k)}: no seat {k} at a {n}-player table")
                horses[int(k)] = self._tiles(("horses", k), v)
        if "hands" not in data:
            if "seed" not in data:
                raise ScenarioError(f"{self.file}:1: give hands and wall, or a seed")
            if "indicator" in data:
                raise ScenarioError(
                    f"{self.file}:{self.line('indicator')}: with a seed the indicator is turned from the shuffled wall; "
                    "give it with hands and wall"
                )
            game = deal(self.table, data["seed"], dealer, round_wind=self._round_wind(), streak=streak,
                        exchange_direction=self._direction())
            if horses is not None:
                game.horses = horses
            return game
        hands = [None] * n
        keys = {}
        if not isinstance(data["hands"], dict):
            raise ScenarioError(f"{self.file}:{self.line('hands')}: hands maps each seat to its tiles")
        for key, text in data["hands"].items():
            seat = int(key) if str(key).isdigit() else -1
            if not 0 <= seat < n:
                raise ScenarioError(f"{self.file}:{self.line('hands', key)}: no seat {key} at a {n}-player table")
            hands[seat] = self._tiles(("hands", key), text)
            keys[seat] = key
        rs = self.ruleset
        for seat, tiles in enumerate(hands):
            if tiles is None:
                raise ScenarioError(f"{self.file}:{self.line('hands')}: no hand for seat {seat}")
            want = rs.dealer_tiles if seat == dealer else rs.other_tiles
            if len(tiles) != want:
                raise ScenarioError(
                    f"{self.file}:{self.line('hands', keys[seat])}: seat {seat} holds {len(tiles)} tiles, "
                    f"expected {want}" + (" (the dealer's hand)" if seat == dealer else "")
                )
        wall = self._wall(hands)
        indicator = -1
        if "indicator" in data:
            if not self.table.wild_indicator:
                raise ScenarioError(f"{self.file}:{self.line('indicator')}: these options turn no wild indicator")
            indicator = self._tiles(("indicator",), data["indicator"])
            if len(indicator) != 1:
                raise ScenarioError(f"{self.file}:{self.line('indicator')}: the indicator is one tile")
            indicator = indicator[0]
        if self.rest is not None:  # `wall: ... ...`: the tiles not used yet, shuffled from the seed
            wall += self._rest(hands, wall + ([indicator] if indicator >= 0 else []))
        self._check_tile_set(hands, wall + ([indicator] if indicator >= 0 else []))
        return Game(self.table, hands, wall, dealer, round_wind=self._round_wind(), indicator=indicator, streak=streak,
                    horses=horses, seed=data.get("seed", 0), exchange_direction=self._direction())

    def _direction(self) -> str:
        return str(self.data.get("exchange_direction") or "")

    def _tiles(self, path, text) -> list[int]:
        if text is not None and not isinstance(text, (str, list)):
            raise ScenarioError(f"{self.file}:{self.line(*path)}: tiles are text such as 123m5p or a list, not {text!r}")
        try:
            return parse_tiles(text if text is not None else "")
        except TileError as exc:
            raise ScenarioError(f"{self.file}:{self.line(*path)}: {exc}") from None

    # ------------------------------------------------------------ additions (issue 15)

    def _round_wind(self) -> int:
        """`round_wind: 1z`..`4z` (default East)."""
        if "round_wind" not in self.data:
            return 27
        tiles = self._tiles(("round_wind",), self.data["round_wind"])
        if len(tiles) != 1 or not 27 <= tiles[0] <= 30:
            raise ScenarioError(f"{self.file}:{self.line('round_wind')}: round_wind is one wind, 1z (East) to 4z (North)")
        return tiles[0]

    def _wall(self, hands) -> list[int]:
        """The listed wall; a wall ending in `...` is completed by `_rest`."""
        text = self.data.get("wall", "")
        self.rest = None
        if isinstance(text, str) and text.rstrip().endswith("..."):
            self.rest = self.data.get("seed", 0)
            text = text.rstrip()[:-3]
        elif isinstance(text, list) and text and text[-1] == "...":
            self.rest = self.data.get("seed", 0)
            text = text[:-1]
        return self._tiles(("wall",), text)

    def _rest(self, hands, used) -> list[int]:
        """Every tile of the set that the hands and listed tiles have not
        used, in the order runtime/shuffle.py gives them from `seed`."""
        from runtime.shuffle import shuffled

        left = Counter(self.table.wall_tiles()) - Counter(t for h in hands for t in h) - Counter(used)
        over = (Counter(t for h in hands for t in h) + Counter(used)) - Counter(self.table.wall_tiles())
        if over:
            raise ScenarioError(
                f"{self.file}:{self.line('hands')}: hands and wall use {sum(over.values())} tiles more than the set has "
                f"({format_tiles(over.elements())})"
            )
        seed = self.rest
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ScenarioError(f"{self.file}:{self.line('seed')}: seed is a number or text")
        return shuffled(sorted(left.elements()), seed)

    def _not_offered(self) -> list:
        """expect.not_offered: [{after: N or "SEAT VERB ...", offer: "SEAT VERB [T]"}]: right
        after that action, the seat is not offered that verb (with that tile)."""
        expect = self.data.get("expect") or {}
        entries = expect.get("not_offered") if isinstance(expect, dict) else None
        if entries is None:
            return []
        where = f"{self.file}:{self.line('expect', 'not_offered')}"
        if not isinstance(entries, list):
            raise ScenarioError(f"{where}: expect.not_offered is a list of {{after, offer}}")
        out = []
        for i, entry in enumerate(entries):
            line = self.line("expect", "not_offered", i)
            if not isinstance(entry, dict) or set(entry) - {"after", "offer"} or "offer" not in entry:
                raise ScenarioError(f"{self.file}:{line}: a not_offered entry is {{after: ACTION, offer: 'SEAT VERB [T]'}}")
            after = entry.get("after", 0)
            if isinstance(after, int) and not isinstance(after, bool):
                index = after
            else:
                index = next((k + 1 for k, st in enumerate(self.steps) if st.text.split() == str(after).split()), None)
            if index is None or not 0 <= index <= len(self.steps):
                raise ScenarioError(f"{self.file}:{line}: after names an action of the script (its text or its number 1..{len(self.steps)})")
            words = str(entry["offer"]).split()
            if len(words) < 2 or not words[0].isdigit():
                raise ScenarioError(f"{self.file}:{line}: offer is 'SEAT VERB [TILE]', not {entry['offer']!r}")
            try:
                action = parse_action(" ".join(words[1:]))
            except ActionError as exc:
                raise ScenarioError(f"{self.file}:{line}: {exc}") from None
            out.append((index, int(words[0]), action, str(entry["offer"]), line))
        return out

    def _check_offers(self, done: int) -> None:
        """The not_offered checks due after `done` actions were taken."""
        for index, seat, action, text, line in self.not_offered:
            if index != done:
                continue
            offered = [a for a in self.game.legal_actions(seat) if a.verb == action.verb and (action.tile < 0 or a.tile == action.tile)
                       and (not action.extra or a.extra == action.extra)]
            self.checked.append((line, text, [str(a) for a in offered]))
            self._trace(f"  check (line {line}): {text} not offered: " + ("ok" if not offered else f"offered: {', '.join(map(str, offered))}"))

    def _point(self) -> str:
        """Where the game stands, in a player's words."""
        g = self.game
        if g.phase == START:
            return "at the opening (before the dealer's first discard)"
        if g.phase == CLAIM:
            w = g.window
            what = {"discard": "discard", "rob": "added kong", "history": "run of discards"}.get(w.kind, w.kind)
            return f"in the claim window on seat {w.source}'s {what} of {NAMES[w.tile]}"
        if g.phase == REPLACE:
            return f"after seat {g.current}'s kong, choosing a face-up replacement"
        if g.phase == END:
            return "after the end of the hand"
        st = g.seats[g.current]
        how = f"having drawn {NAMES[st.drawn]}" if st.drawn >= 0 and g.turn_kind != "claim" else "after a claim"
        return f"at seat {g.current}'s turn ({how})"

    def _could(self, seat: int) -> str:
        legal = self.game.legal_actions(seat)
        if not legal:
            return f"seat {seat} had nothing to do there"
        shown = sorted({str(a) for a in legal}, key=lambda t: (t.split()[0] != "hu", t))
        more = f" … ({len(shown)} in all)" if len(shown) > 12 else ""
        return f"seat {seat} could: {', '.join(shown[:12])}{more}"

    def _trace(self, text: str) -> None:
        if self.explain:
            print(text, file=sys.stderr)

    def _check_tile_set(self, hands, wall) -> None:
        have = Counter(t for h in hands for t in h) + Counter(wall)
        want = Counter(self.table.wall_tiles())
        if have == want:
            return
        missing = want - have
        extra = have - want
        parts = []
        if missing:
            parts.append(f"missing {sum(missing.values())} ({format_tiles(missing.elements())})")
        if extra:
            parts.append(f"extra {sum(extra.values())} ({format_tiles(extra.elements())})")
        raise ScenarioError(
            f"{self.file}:{self.line('hands')}: hands and wall hold {sum(have.values())} tiles, "
            f"the variant's set has {sum(want.values())}: " + "; ".join(parts)
        )

    # ------------------------------------------------------------ play

    def run(self) -> Outcome:
        try:
            return self._play()
        finally:
            # the events so far, also when the script stops on an error
            if self.verbose:
                for event in self.game.events:
                    print(_event_line(event), file=sys.stderr)

    def _play(self) -> Outcome:
        game = self.game
        self.i = 0
        self.held_back: dict[int, str] = {}  # step index -> why its seat's forced turn did not take it
        self.checked: list = []  # (line, offer, what was offered) of expect.not_offered
        self._check_offers(0)
        guard = 0
        while not game.over:
            guard += 1
            if guard > 10000:
                raise ScenarioError(f"{self.file}: the hand does not end")
            if game.phase == START:
                self._window(self._opening_verbs())
            elif game.phase == CLAIM:
                self._window(set(CLAIM_VERBS))
            elif game.phase == REPLACE:
                self._take()
            else:
                self._turn()
        if self.i < len(self.steps):
            step = self.steps[self.i]
            raise ScenarioError(
                f"{self.file}:{step.line}: the hand ended ({game.result.end}) before {step.text!r} could be played"
                + self._held_back_note()
            )
        result = scenario_result(game, self.ruleset.name)
        differences = compare(self.data.get("expect"), result) if "expect" in self.data else []
        for line, text, offered in self.checked:
            if offered:
                differences.append(f"not_offered (line {line}): {text!r} was offered: {', '.join(offered)}")
        return Outcome(result, differences)

    def _next(self) -> Step | None:
        return self.steps[self.i] if self.i < len(self.steps) else None

    def _apply(self, step: Step, action: Action) -> None:
        point = self._point()
        try:
            self.game.apply(step.seat, action)
        except IllegalAction as exc:
            raise ScenarioError(
                f"{self.file}:{step.line}: {exc}{self._held_back_note()}; taken {point}; {self._could(step.seat)}"
            ) from None
        self.i += 1
        self._trace(f"line {step.line}: {step.text!r} taken {point}")
        self._check_offers(self.i)

    def _held_back_note(self) -> str:
        why = self.held_back.get(self.i)
        return f" ({why})" if why else ""

    def _opening_verbs(self) -> set:
        """The verbs the opening step in progress takes."""
        step = self.table.opening[self.game.opening_index]
        return {"stakes": {"buy", "pass"}, "ready": {"ready", "pass"}, "exchange": {"exchange"}}.get(step.kind, {step.id})

    def _window(self, verbs: set) -> None:
        game = self.game
        phase, window = game.phase, game.window
        opening_step = game.opening_index
        named = set()
        while True:
            step = self._next()
            pending = game.to_act()
            if step is not None and step.verb in verbs and step.seat not in pending and phase == CLAIM:
                self._note_refused_claim(step)
            if step is None or step.verb not in verbs or step.seat not in pending or step.seat in named:
                break
            if phase == CLAIM and self._is_turn_kong(step):
                break  # `kong T` of another tile is the seat's own kong at a later turn
            named.add(step.seat)
            self._apply(step, self._claim_action(step))
            if game.phase != phase or game.window is not window or game.opening_index != opening_step:
                return
        for seat in list(game.to_act()):
            forced = game.forced_action(seat)
            if forced is None and phase == START:
                forced = game.automatic_action(seat)  # an unnamed opening decision, as automatic play makes it
            if self.explain:
                offered = ", ".join(str(a) for a in game.legal_actions(seat))
                what = f"plays {forced}" if forced is not None else "passes"
                self._trace(f"  seat {seat} {what}, not named ({self._point()}; offered: {offered})")
            game.apply(seat, forced if forced is not None else Action("pass"))
            if game.phase != phase or game.window is not window or game.opening_index != opening_step:
                return

    def _is_turn_kong(self, step: Step) -> bool:
        action = _parsed(step) if step.verb == "kong" and step.arg else None
        return action is not None and action.tile not in (-1, self.game.window.tile)

    def _note_refused_claim(self, step: Step) -> None:
        """A claim named for a seat this window offers none: it waits, but
        if it never fits, say why it did not fit here."""
        action = _parsed(step)
        if step.verb == "pass" or self.i in self.held_back or action is None:
            return
        tile = self.game.window.tile
        if step.seat == self.game.window.source or action.tile not in (-1, tile):
            return  # meant for another point of the hand
        if step.verb in ("pong", "kong"):
            action = Action(step.verb, tile)
        # with a stand-in offer, explain() gives the claim's own reason
        why = explain(self.game, step.seat, action, [Action("pass")])
        self.held_back[self.i] = f"on {NAMES[tile]} from seat {self.game.window.source} it was not allowed: {why}"

    def _claim_action(self, step: Step) -> Action:
        game = self.game
        tile_text = step.arg
        try:
            action = parse_action(f"{step.verb} {tile_text}".strip())
        except ActionError as exc:
            raise ScenarioError(f"{self.file}:{step.line}: seat {step.seat} cannot {step.text.split(None, 1)[1]}: {exc}") from None
        if game.phase == CLAIM and step.verb in ("pong", "kong", "hu"):
            offered = game.window.tile
            if action.tile >= 0 and action.tile != offered:
                raise ScenarioError(
                    f"{self.file}:{step.line}: seat {step.seat} cannot {step.verb} {NAMES[action.tile]}: "
                    f"the tile on offer is {NAMES[offered]}"
                )
            action = Action(step.verb, offered if step.verb in ("pong", "kong") else -1)
        if game.phase == CLAIM and step.verb == "chow":
            action = Action("chow", game.window.tile, action.extra)
        return action

    def _turn(self) -> None:
        game = self.game
        seat = game.current
        step = self._next()
        forced = game.forced_action(seat)
        # a `hu` (or `double`) with no win on offer at this turn is meant for a later discard
        offered = {a.verb for a in game.legal_actions(seat)}
        later = step is not None and step.verb in ("hu", "double") and step.verb not in offered
        if step is not None and step.seat == seat and step.verb in TURN_VERBS and not later:
            action = self._turn_action(step)
            # a turn the rules force (a locked ready hand's discard) plays by
            # itself; a named action that is not the forced one waits
            if forced is None or action == forced:
                self._apply(step, action)
                return
            why = explain(game, seat, action, game.legal_actions(seat))
            self.held_back.setdefault(self.i, f"at seat {seat}'s forced turn it was not allowed: {why}")
        if forced is not None:
            self._trace(f"  seat {seat} plays the forced {forced} ({self._point()})")
            game.apply(seat, forced)
            return
        drawn = game.seats[seat].drawn
        if drawn < 0:
            where = f"{self.file}:{step.line}" if step is not None else f"{self.file}"
            raise ScenarioError(
                f"{where}: seat {seat} has claimed and must name its discard; the script's next action "
                + (f"is {step.text!r}" if step else "is missing")
            )
        discard = Action("discard", drawn)
        if discard not in game.legal_actions(seat):
            # a restriction forbids it (a void suit goes first): the lowest tile allowed
            discard = next(a for a in game.legal_actions(seat) if a.verb == "discard")
        how = "the tile it drew" if discard.tile == drawn else "the lowest tile it may"
        self._trace(f"  seat {seat} discards {NAMES[discard.tile]}, {how}, not named ({self._point()})")
        game.apply(seat, discard)

    def _take(self) -> None:
        """After a kong with a face-up tail: the script's `take T`, else the
        face-up tile nearest the end of the wall."""
        game = self.game
        seat = game.current
        step = self._next()
        if step is not None and step.seat == seat and step.verb == "take":
            try:
                action = parse_action(f"take {step.arg}".strip())
            except ActionError as exc:
                raise ScenarioError(f"{self.file}:{step.line}: {exc}") from None
            self._apply(step, action)
            return
        game.apply(seat, Action("take", game.face_up_tiles()[-1]))

    def _turn_action(self, step: Step) -> Action:
        try:
            action = parse_action(f"{step.verb} {step.arg}".strip())
        except ActionError as exc:
            raise ScenarioError(f"{self.file}:{step.line}: {exc}") from None
        if action.verb == "kong" and action.tile < 0 and not action.extra:
            kongs = [a for a in self.game.legal_actions(step.seat) if a.verb == "kong"]
            if len(kongs) == 1:
                return kongs[0]
            if not kongs:
                ready = " (declared ready: a kong must keep the waiting tiles)" if self.game.seats[step.seat].declared else ""
                raise ScenarioError(
                    f"{self.file}:{step.line}: seat {step.seat} cannot kong: it has no kong to make here{ready}"
                    + self._held_back_note()
                )
            raise ScenarioError(f"{self.file}:{step.line}: seat {step.seat} must name the tile to kong{self._held_back_note()}")
        if action.verb in ("discard", "ready") and action.tile < 0:
            if action.verb == "ready":
                raise ScenarioError(
                    f"{self.file}:{step.line}: seat {step.seat} cannot ready: a declaration with no tile is made at "
                    "the opening, where this seat had none to make (its hand was not ready, or the variant declares "
                    "no opening ready hands); at a turn, ready names the tile to discard"
                )
            raise ScenarioError(f"{self.file}:{step.line}: discard names a tile")
        return action


def _parsed(step: Step) -> Action | None:
    """The step's action, or None where its text does not read as one (the
    point where it is taken says why)."""
    try:
        return parse_action(f"{step.verb} {step.arg}".strip())
    except ActionError:
        return None


def scenario_result(game: Game, variant: str) -> dict:
    return {"variant": variant, **game.result.to_json()}


def _event_line(event: dict) -> str:
    data = " ".join(f"{k}={v}" for k, v in event.items() if k != "type")
    return f"{event['type']}: {data}"


# ------------------------------------------------------------ expect


def _fan_matches(expected, actual: dict) -> bool:
    if isinstance(expected, str):
        return expected in (actual["id"], actual["name"], actual["en"])
    if not isinstance(expected, dict):
        return False
    for key, value in expected.items():
        if key in ("id", "name", "en"):
            if value not in (actual["id"], actual["name"], actual["en"]):
                return False
        elif actual.get(key) != value:
            return False
    return True


def _fans_equal(expected, actual: list) -> bool:
    if not isinstance(expected, list) or len(expected) != len(actual):
        return False
    left = list(actual)
    for e in expected:
        for i, a in enumerate(left):
            if _fan_matches(e, a):
                del left[i]
                break
        else:
            return False
    return True


def _norm_payment(p) -> tuple:
    return (p.get("from"), p.get("to"), p.get("amount"), p.get("reason")) if isinstance(p, dict) else (p,)


def compare(expect, result: dict, where: str = "") -> list[str]:
    if expect is None:
        return []
    if not isinstance(expect, dict):
        return [f"expect{where} must be a mapping of result keys"]
    diffs = []
    for key, want in expect.items():
        if key in EXPECT_EXTRA:
            continue  # checked during play
        if key not in result and key not in RESULT_DEFAULTS:
            diffs.append(f"expect{where}.{key}: the result has no {key!r}")
            continue
        got = result.get(key, RESULT_DEFAULTS.get(key))
        if key == "wins":
            diffs.extend(_compare_wins(want, got))
        elif key == "fans":
            want_map = {str(k): v for k, v in (want or {}).items()}
            for seat in sorted(set(want_map) | set(got)):
                if not _fans_equal(want_map.get(seat, []), got.get(seat, [])):
                    diffs.append(f"fans of seat {seat}: expected {want_map.get(seat, [])}, got {got.get(seat, [])}")
        elif key == "winners":
            if sorted(want or []) != sorted(got):
                diffs.append(f"winners: expected {want}, got {got}")
        elif key == "payments":
            wanted = sorted(map(_norm_payment, want or []), key=repr)
            if wanted != sorted(map(_norm_payment, got), key=repr):
                diffs.append(f"payments: expected {want}, got {got}")
        elif key == "totals":
            if {str(k): v for k, v in (want or {}).items()} != got:
                diffs.append(f"totals: expected {want}, got {got}")
        elif want != got:
            diffs.append(f"{key}: expected {want!r}, got {got!r}")
    return diffs


def _compare_wins(want, got: list) -> list[str]:
    """`wins`, entry by entry in order, each with the keys it gives."""
    if not isinstance(want, list):
        return ["expect.wins is a list, one entry per win in order"]
    diffs = []
    if len(want) != len(got):
        diffs.append(f"wins: expected {len(want)} wins, got {len(got)}: " + "; ".join(
            f"{w['winners']} {'self-drawn' if w['self_drawn'] else 'on ' + str(w['discarder'])}" for w in got))
    for i, (w, g) in enumerate(zip(want, got)):
        diffs.extend(f"wins[{i}] {d}" for d in compare(w, g, f".wins[{i}]"))
    return diffs


def run_file(path: str, verbose: bool = False, explain: bool = False) -> Outcome:
    runner = Runner(path, verbose, explain)
    outcome = runner.run()
    outcome.result["file"] = Path(path).as_posix()
    return outcome
