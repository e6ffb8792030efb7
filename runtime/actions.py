"""Player actions and their text form (`discard 3s`, `chow 2m3m`, `pass`)."""

from __future__ import annotations

import re
from typing import NamedTuple

from .tiles import INDEX, NAMES, TileError, format_tiles, parse_group

# Every verb the runtime knows; a variant's rulebook lists those it uses.
TURN_VERBS = ("discard", "kong", "hu", "ready", "double")
CLAIM_VERBS = ("hu", "kong", "pong", "chow", "pass", "double")
START_VERBS = ("ready", "buy", "pass", "exchange")
ALL_VERBS = ("discard", "kong", "hu", "ready", "pong", "chow", "pass", "buy", "take", "double", "exchange")
# A declaration at the opening is a verb of the variant's own (its id),
# with one word for the value chosen: `void m`.
_CHOICE_WORD = re.compile(r"[a-z][a-z0-9_]*$")


class Action(NamedTuple):
    verb: str
    tile: int = -1
    extra: tuple = ()  # chow: the two tiles taken from the hand; buy: the stake; kong: a special set's tiles;
    # exchange: the tiles passed; a declaration: (the value chosen,)

    @property
    def choice(self) -> str | None:
        """The value of a declaration (`void m` -> "m"), or None."""
        return self.extra[0] if self.extra and isinstance(self.extra[0], str) else None

    def __str__(self) -> str:
        if self.choice is not None:
            return f"{self.verb} {self.extra[0]}"
        if self.verb == "exchange":
            return "exchange " + "".join(NAMES[t] for t in self.extra)
        if self.verb == "kong" and self.extra:
            return f"kong {format_tiles(self.extra)}"
        if self.verb == "chow":
            return f"chow {NAMES[self.extra[0]]}{NAMES[self.extra[1]]}"
        if self.verb == "buy":
            return f"buy {self.extra[0]}"
        return self.verb if self.tile < 0 else f"{self.verb} {NAMES[self.tile]}"

    def to_json(self) -> dict:
        out: dict = {"verb": self.verb}
        if self.tile >= 0:
            out["tile"] = NAMES[self.tile]
        if self.verb == "buy":
            out["amount"] = self.extra[0]
        elif self.choice is not None:
            out["value"] = self.extra[0]
        elif self.extra:
            out["tiles"] = [NAMES[t] for t in self.extra]
        return out


# Shared instances for the actions built on every turn.
DISCARDS = tuple(Action("discard", t) for t in range(len(NAMES)))
HU = Action("hu")
PASS = Action("pass")
DOUBLE = Action("double")


class ActionError(ValueError):
    """An action text or JSON that does not parse."""


def parse_action(text: str) -> Action:
    """`discard 3s`, `pong`, `chow 2m3m`, `hu`, `ready 5p`, `pass`, `double`,
    `kong 1234z` (a special set), `exchange 1m2m3m`, and a declaration of the
    variant's own, `ID VALUE` (`void m`)."""
    words = text.split()
    if not words:
        raise ActionError("empty action")
    verb, args = words[0].lower(), words[1:]
    if verb == "pung":
        verb = "pong"
    if verb not in ALL_VERBS:
        if _CHOICE_WORD.match(verb) and len(args) == 1 and _CHOICE_WORD.match(args[0]):
            return Action(verb, -1, (args[0],))
        raise ActionError(f"unknown verb {words[0]!r}; expected one of: {', '.join(ALL_VERBS)}, or a declaration such as 'void m'")
    if verb == "buy":
        if len(args) != 1 or not args[0].isdigit():
            raise ActionError("buy names the stake, e.g. buy 2")
        return Action("buy", -1, (int(args[0]),))
    try:
        tiles = parse_group(" ".join(args)) if args else []
    except TileError as exc:
        raise ActionError(str(exc)) from None
    if verb == "exchange":
        if not tiles:
            raise ActionError("exchange names the tiles passed, e.g. exchange 1m2m3m")
        return Action("exchange", -1, tuple(sorted(tiles)))
    if verb == "chow":
        if len(tiles) != 2:
            raise ActionError("chow names the two tiles taken from the hand, e.g. chow 2m3m")
        return Action("chow", -1, tuple(sorted(tiles)))
    if verb == "kong" and len(tiles) > 1:
        if len(set(tiles)) != len(tiles):
            raise ActionError("a kong of several tiles names a special set of distinct tiles, e.g. kong 1234z")
        return Action("kong", -1, tuple(sorted(tiles)))
    if len(tiles) > 1:
        raise ActionError(f"{verb} takes at most one tile")
    return Action(verb, tiles[0] if tiles else -1)


def action_from_json(data) -> Action:
    if isinstance(data, str):
        return parse_action(data)
    if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
        raise ActionError('an action is {"verb": ..., "tile": ...} or text such as "discard 3s"')
    text = data["verb"]
    if text == "chow" and isinstance(data.get("tile"), str) and data["tile"] in INDEX and "tiles" in data:
        # a chow on offer names the claimed tile and the two from the hand
        taken = parse_action(f"chow {''.join(map(str, data['tiles']))}")
        return Action("chow", INDEX[data["tile"]], taken.extra)
    if "amount" in data:
        if isinstance(data["amount"], bool) or not isinstance(data["amount"], int):
            raise ActionError("amount must be an integer")
        text += f" {data['amount']}"
    if "value" in data:
        if not isinstance(data["value"], str) or not _CHOICE_WORD.match(data["value"]):
            raise ActionError("value must be a word such as m")
        text += f" {data['value']}"
    if "tile" in data:
        if not isinstance(data["tile"], str) or data["tile"] not in INDEX:
            raise ActionError(f"bad tile {data['tile']!r}")
        if text == "chow":  # the claimed discard beside the two tiles from the hand
            chow = parse_action("chow " + "".join(data.get("tiles") or []) if isinstance(data.get("tiles"), list) else "chow")
            return Action("chow", INDEX[data["tile"]], chow.extra)
        text += " " + data["tile"]
    if "tiles" in data:
        if not isinstance(data["tiles"], list) or not all(isinstance(t, str) for t in data["tiles"]):
            raise ActionError("tiles must be a list of tile texts")
        text += " " + "".join(data["tiles"])
    return parse_action(text)
