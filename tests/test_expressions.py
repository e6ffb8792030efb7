"""The expression language: grammar, checking, and the Python it emits."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from compiler.expressions import Env, ExprError, OptionType, compile_expr, parse

OPTIONS = {
    "flag": OptionType("bool"),
    "rounds": OptionType("int", (4, 8)),
    "mode": OptionType("str", ("bao_pao", "dai_zai")),
}


def run(text: str, scope: str = "table", **facts):
    """Compile `text` and evaluate the emitted code with given facts."""
    env = Env(scope, OPTIONS)
    compiled = compile_expr(text, env)
    o = SimpleNamespace(flag=True, rounds=8, mode="dai_zai")
    names = {"o": o, "n": 4, **facts}
    builtins = {"min": min, "max": max, "abs": abs, "frozenset": frozenset}
    # a constant set read as bits: the renderer makes it a BITS_ constant of the module
    tilebits = lambda tiles: sum(1 << t for t in tiles)  # noqa: E731
    return eval(compiled.code, {"__builtins__": builtins, "tilebits": tilebits}, names)


@pytest.mark.parametrize(
    "text, value",
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("2 ** 3 ** 2", 512),
        ("-2 ** 2", -4),
        ("7 / 2", 3),
        ("7 % 4", 3),
        ("3 * 2 ** (4 - 1)", 24),
        ("not true or true", True),
        ("not (true or true)", False),
        ("1 if false else 2 if true else 3", 2),
        ("1 < 2 <= 2", True),
        ("options.rounds in [4, 8]", True),
        ("options.mode == 'dai_zai' and options.flag", True),
        ("max(1, options.rounds, 3) - min(5, 2)", 6),
        ("players == 4", True),
    ],
)
def test_values(text, value):
    assert run(text) == value


def test_tiles_and_groups_in_hand_scope():
    h = SimpleNamespace(win_tile=19, count=lambda t: {19: 2}.get(t, 0), only=lambda ts: 19 in ts,
                        only_bits=lambda bits: bits & ~(1 << 19) == 0 or bool(bits >> 19 & 1))
    d = SimpleNamespace(closed=True)
    assert run("win.tile == 2s and win.closed", "hand", h=h, d=d)
    assert run("win.tile in 123s", "hand", h=h, d=d)
    assert run("hand.count(2s) * 2", "hand", h=h, d=d) == 4
    assert run("hand.only([1s, 2s, honours])", "hand", h=h, d=d)
    assert not run("win.tile in honours", "hand", h=h, d=d)


@pytest.mark.parametrize(
    "text, offset, message",
    [
        ("1 +", 3, "expected a value, found the end of the expression"),
        ("(1 + 2", 6, "expected ')', found the end of the expression"),
        ("1 2", 2, "unexpected '2' after a complete expression"),
        ("1 $ 2", 2, "unexpected character '$'"),
        ("options.flag + 1", 0, "'+' needs an int, got a bool"),
        ("options.nope", 0, "unknown option 'nope'; expected one of: flag, mode, rounds"),
        ("options.mode == 'baopao'", 16, "option mode has no value 'baopao'; expected one of: bao_pao, dai_zai"),
        ("1 if true else false", 15, "both branches of 'if' must have one type, got an int and a bool"),
        ("8z", 0, "bad tile text '8z': z tiles run 1..7"),
        ("win.self_drawn", 0, "win.self_drawn is not known in a table expression (it is known in: hand, play, result, settle)"),
        ("playrs", 0, "unknown name 'playrs' (did you mean players?)"),
        ("min(true)", 0, "min() takes one or more integers"),
    ],
)
def test_errors_name_the_offset_and_the_problem(text, offset, message):
    with pytest.raises(ExprError) as err:
        compile_expr(text, Env("table", OPTIONS))
    assert (err.value.offset, err.value.message) == (offset, message)


def test_hand_function_arity_and_types():
    env = Env("hand", OPTIONS)
    with pytest.raises(ExprError, match=r"hand.count\(\) takes \(tile\), got \(tile, tile\)"):
        compile_expr("hand.count(2s, 3s)", env)
    with pytest.raises(ExprError, match="needs arguments"):
        compile_expr("hand.count", env)


def test_expected_type_is_enforced():
    with pytest.raises(ExprError, match="expected a bool expression, this one gives an int"):
        compile_expr("1 + 1", Env("table", OPTIONS), want="bool")


def test_definitions_inline_and_record_their_names():
    env = Env("hand", OPTIONS)
    d = compile_expr("shape.quads if win.completes_quad else 0", env)
    env = Env("hand", OPTIONS, {"long_count": d})
    c = compile_expr("long_count == 1", env)
    assert c.code == "(d.quads if h.completes_quad else 0) == 1"
    assert "shape.quads" in c.names


def test_parse_keeps_offsets():
    node = parse("a.b and  c")
    assert [v.offset for v in node.values] == [0, 9]


class _Waits:
    """A hand whose shape-wait count is known, recording the caps it is read with."""

    def __init__(self, count):
        self.count, self.caps = count, []

    def shape_waits_upto(self, cap):
        self.caps.append(cap)
        return min(self.count, cap)


@pytest.mark.parametrize("text, code", [
    ("win.shape_waits == 1", "h.shape_waits_upto(2) == 1"),
    ("1 == win.shape_waits", "1 == h.shape_waits_upto(2)"),
    ("win.shape_waits >= 3", "h.shape_waits_upto(4) >= 3"),
    ("win.shape_waits == options.rounds", "h.shape_wait_count == o.rounds"),  # no number: the whole count
    ("win.shape_waits + 1 == 2", "h.shape_wait_count + 1 == 2"),
    ("1 <= win.shape_waits <= 2", "1 <= h.shape_wait_count <= 2"),
])
def test_a_costly_count_against_a_number_is_read_capped(text, code):
    assert compile_expr(text, Env("hand", OPTIONS)).code == code


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
@pytest.mark.parametrize("k", [0, 1, 2, 5])
def test_a_capped_count_decides_every_comparison_as_the_whole_count(op, k):
    for count in range(8):
        h = _Waits(count)
        whole = eval(f"{count} {op} {k}")
        assert run(f"win.shape_waits {op} {k}", "hand", h=h, d=None) == whole, (count, op, k)
        assert run(f"{k} {op} win.shape_waits", "hand", h=h, d=None) == eval(f"{k} {op} {count}")
        assert h.caps == [k + 1, k + 1]


@pytest.mark.parametrize("text, code", [
    ("hand.only([1s, 2s, honours])", "h.only_bits(tilebits({18, 19, 27, 28, 29, 30, 31, 32, 33}))"),
    ("hand.any(dragons)", "h.any_bits(tilebits({31, 32, 33}))"),
    ("hand.kinds_in(19m) == 2", "h.kinds_in_bits(tilebits({0, 8})) == 2"),
    ("hand.only([win.tile, honours])", "h.only((frozenset((h.win_tile,)) | frozenset({27, 28, 29, 30, 31, 32, 33})))"),
])
def test_a_test_against_a_constant_set_reads_its_bits(text, code):
    assert compile_expr(text, Env("hand", OPTIONS)).code == code


def test_a_list_of_tiles_known_at_run_time_and_groups_is_their_union():
    h = SimpleNamespace(win_tile=19, only=lambda ts: ts >= {19, 27})
    assert run("hand.only([win.tile, honours])", "hand", h=h, d=None)
    assert run("win.tile in [win.tile, honours]", "hand", h=h, d=None)
    assert run("1z in [win.tile, honours]", "hand", h=h, d=None)
    assert not run("2s in [1s, win.tile]", "hand", h=SimpleNamespace(win_tile=0), d=None)
