"""`extends`: a variant states only what differs from its parent."""

from __future__ import annotations

import textwrap
import types

import pytest

from compiler.build import compile_file, compile_text
from compiler.errors import CompileError

PARENT = textwrap.dedent("""
    title: {zh: 父, en: Parent}
    summary: the parent
    players: {allowed: [4, 3], default: 4}
    tiles: {suits: [p, s]}
    options:
      bonus: {zh: 奖, type: bool, default: false}
      mode: {zh: 模式, type: choice, values: [a, b], default: a}
    claims: {chow: false, multiple_winners: true}
    scoring:
      unit: points
      fans:
        base: {zh: 底, value: 1}
        self_drawn: {zh: 自摸, value: 1, when: win.self_drawn}
        kong: {zh: 杠, value: 1, count: melds.kongs}
""")


def ruleset(text: str, parents=None):
    compiled = compile_text(textwrap.dedent(text), "child", "child.yaml", parents or {"parent": PARENT})
    module = types.ModuleType("generated.child")
    exec(compile(compiled.module, "<child>", "exec"), module.__dict__)
    return compiled, module.RULESET


def test_override_a_value_add_and_remove_fans_change_a_default():
    compiled, rs = ruleset("""
        extends: parent
        title: {zh: 子, en: Child}
        players: {allowed: [2, 3, 4]}
        options:
          bonus: {default: true}
        claims: {multiple_winners: false}
        scoring:
          fans:
            kong: ~
            seven_pairs: {zh: 七对, value: 2, when: shape.seven_pairs}
        winning: {shapes: {seven_pairs: true}}
    """)
    assert rs.title.zh == "子" and rs.summary == ""
    assert rs.players == (2, 3, 4) and rs.default_players == 4  # lists replace, siblings stay
    assert rs.option("bonus").default is True and rs.option("bonus").name.zh == "奖"
    assert rs.option("mode").values == ("a", "b")
    assert rs.claims.multiple_winners is False and rs.claims.chow is False
    assert [f.id for f in rs.scoring.fans] == ["base", "self_drawn", "seven_pairs"]
    assert rs.parents == ("parent",)
    assert "# It extends parent (parent.yaml);\n# the rules below are the merged ruleset." in compiled.module


def test_the_hash_covers_the_parent():
    a, _ = ruleset("extends: parent\ntitle: {zh: 子}\n")
    b, _ = ruleset("extends: parent\ntitle: {zh: 子}\n", {"parent": PARENT.replace("value: 1, when", "value: 2, when")})
    assert a.variant.sha256 != b.variant.sha256


def test_a_mistake_in_an_inherited_value_points_into_the_parent():
    broken = PARENT.replace("when: win.self_drawn", "when: win.selfdrawn")
    with pytest.raises(CompileError) as err:
        ruleset("extends: parent\ntitle: {zh: 子}\n", {"parent": broken})
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "win.selfdrawn" in text)
    assert str(err.value.diagnostics[0]).startswith(f"parent.yaml:{line}:")


def test_a_mistake_in_the_child_points_into_the_child():
    with pytest.raises(CompileError) as err:
        ruleset("extends: parent\ntitle: {zh: 子}\noptions:\n  bonus: {default: 3}\n")
    assert [str(d) for d in err.value.diagnostics] == [
        "child.yaml:4:20: option bonus is a bool option; its default must be true or false"
    ]


def test_unknown_parent_and_cycles():
    with pytest.raises(CompileError, match=r"child.yaml:1:10: extends unknown variant 'nobody'"):
        ruleset("extends: nobody\ntitle: {zh: 子}\n")
    loop = {"parent": "extends: child\n" + PARENT}
    with pytest.raises(CompileError, match="extends makes a cycle: child -> parent -> child"):
        compile_text("extends: parent\ntitle: {zh: 子}\n", "child", "child.yaml", loop)


def test_extends_between_files(tmp_path):
    (tmp_path / "parent.yaml").write_text(PARENT, encoding="utf-8")
    (tmp_path / "child.yaml").write_text("extends: parent\ntitle: {zh: 子, en: Child}\n", encoding="utf-8")
    compiled = compile_file(tmp_path / "child.yaml", "variants/child.yaml")
    assert "# It extends parent (variants/parent.yaml)" in compiled.module
    assert compiled.variant.title.en == "Child"


def test_a_null_for_a_key_the_parent_lacks_is_reported():
    with pytest.raises(CompileError, match=r"child.yaml:3:\d+: unknown key 'nothing' in scoring.fans.base"):
        ruleset("extends: parent\ntitle: {zh: 子}\nscoring: {fans: {base: {nothing: ~}}}\n")
