"""compiler/pyformat.py: the columns a line takes, as the generated modules count them."""

from __future__ import annotations

import unicodedata

import pytest

from compiler.pyformat import Call, fmt, width


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@pytest.mark.parametrize("text", ["", "abc", "麻将 mahjong", "ＡＢ full width", "ｱｲ half width", "±§ ambiguous",
                                  "e\u0301 combining", "\t\x00 controls", "🀄 tile", "一二三四五六七八九"])
def test_width_counts_wide_characters_twice(text):
    assert width(text) == _columns(text)


def test_a_call_too_wide_for_its_line_breaks_at_its_arguments():
    short = Call("Text", ("红中", "Red Dragon"))
    assert fmt(short, 0, "X = ") == 'X = Text("红中", "Red Dragon")'
    wide = Call("Spec", (), (("name", "麻" * 50), ("items", (1,))))
    assert fmt(wide, 0, "X = ") == 'X = Spec(\n    name="' + "麻" * 50 + '",\n    items=(1,),\n)'
