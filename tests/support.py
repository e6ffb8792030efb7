"""Helpers for tests: compile a variant from inline YAML, build games from
explicit tiles, and drive them."""

from __future__ import annotations

import textwrap
import types

from compiler.build import compile_text
from runtime.actions import Action, parse_action
from runtime.game import Game
from runtime.tiles import parse_tiles

BASE = """
title: {zh: 测试, en: Test}
players: {allowed: [4, 3, 2], default: 4}
tiles: {suits: [p, s]}
deal: {dealer: 14, others: 13}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
    self_drawn: {zh: 自摸, value: 1, when: win.self_drawn}
"""


def compile_ruleset(yaml_text: str, name: str = "test_variant"):
    """Compile YAML into a module in memory and return its Ruleset."""
    compiled = compile_text(textwrap.dedent(yaml_text), name, f"{name}.yaml")
    module = types.ModuleType(f"generated.{name}")
    exec(compile(compiled.module, f"<{name}>", "exec"), module.__dict__)
    return module.RULESET


def variant(extra: str = "", base: str = BASE, **_):
    """BASE with sections appended (later keys must not repeat BASE's)."""
    return compile_ruleset(textwrap.dedent(base) + textwrap.dedent(extra))


def game(ruleset, hands: dict, wall: str = "", dealer: int = 0, options=None, players=None) -> Game:
    table = ruleset.configure(options or {}, players or len(hands))
    tiles = [parse_tiles(hands[s]) for s in range(table.players)]
    return Game(table, tiles, parse_tiles(wall), dealer)


def act(g: Game, text: str) -> None:
    """`"2 pong"`, `"0 discard 5p"`: apply one action (claims take the tile on offer)."""
    seat, rest = text.split(" ", 1)
    action = parse_action(rest)
    if g.phase == "claim" and action.verb in ("pong", "kong") and action.tile < 0:
        action = Action(action.verb, g.window.tile)
    if g.phase == "claim" and action.verb == "chow":
        action = Action("chow", g.window.tile, action.extra)
    g.apply(int(seat), action)


def pass_others(g: Game) -> None:
    """Every seat still asked in a window passes."""
    while g.phase in ("claim", "start"):
        pending = g.to_act()
        if not pending:
            break
        g.apply(pending[0], Action("pass"))


def verbs(g: Game, seat: int) -> set[str]:
    return {str(a) for a in g.legal_actions(seat)}
