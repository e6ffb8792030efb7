"""`mjc docs VARIANT`: every mechanism a compiled ruleset declares shows in
its rulebook, with Chinese terms beside English, and expressions read as
values (no "combined by when `...`")."""

from __future__ import annotations

import re

import pytest

from mjc.cli import main
from mjc.docs import rulebook
from runtime.copying import replace
from runtime.registry import load, names

VARIANTS = names()


def docs(capsys, variant: str) -> str:
    code = main(["docs", variant])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_chaozhou_rulebook_has_its_wilds(capsys):
    out = docs(capsys, "chaozhou")
    assert "## Wild tiles (鬼牌)" in out
    assert "- 5z 白 is wild (鬼牌) when the option “Wild tiles” is “White is wild” · 选项「鬼牌」为「白板做鬼」." in out
    assert "- 7z 中 is wild (鬼牌) when the option “Wild tiles” is “Red is wild” · 选项「鬼牌」为「红中做鬼」." in out
    assert "Turned indicator (翻鬼), when the option “Wild tiles” is “The tile after a turned indicator is wild” · 选项「鬼牌」为「翻鬼」" in out
    assert "9 going round to 1" in out
    assert "1z 东 → 2z 南 → 3z 西 → 4z 北 → 7z 中 → 6z 发 → 5z 白" in out
    assert "四鬼胡牌 (4 wilds win), when the option “Four wilds win” is on · 选项「四鬼胡牌」开启" in out


def test_chaozhou_rulebook_has_its_horses(capsys):
    out = docs(capsys, "chaozhou")
    section = out.split("## Horses", 1)[1].split("\n## ", 1)[0]
    for text in (
        "买马", "罚马", "奖马",
        ("- 4 players: dealer (庄家) 159m159p159s17z; dealer's next (下家) 26m26p26s26z; "
         "dealer's opposite (对家) 37m37p37s35z; dealer's previous (上家) 48m48p48s4z."),
        "- 3 players: dealer (庄家)",
        "- 2 players: dealer (庄家) 13579m13579p13579s1357z; the other player (对家) 2468m2468p2468s246z.",
        "every player buys as many horses as `1 if options.mai_ma == '1' else 2 if options.mai_ma == '2' else 0` gives",
        "the dealer alone buys as many horses as `1 if options.mai_ma == 'fa_1'",
        "`horse.share`",
        "as many tiles as `options.jiang_ma` says",
        "extra line `jiang_ma` (奖马): `total * winner.horse_hits`",
        "`won`", "`lost`", "`none`",
    ):
        assert text in section, text


def test_chaozhou_rulebook_has_follow_the_dealer_and_the_streak(capsys):
    out = docs(capsys, "chaozhou")
    follow = out.split("## Follow the dealer (跟庄)", 1)[1].split("\n## ", 1)[0]
    assert ("- Played: when the option “Follow-the-dealer points” is on and the number of players is at least 3"
            " · 选项「跟庄1分」开启且人数至少为3.") in follow
    assert "the dealer at once pays each other player `follow.round`" in follow
    assert "`gen_zhuang` (跟庄)" in follow
    assert "### Dealer streak (连庄)" in out
    assert "- Extra line `lian_zhuang` (连庄): each payer also pays each winner `winner.streak if options.lian_zhuang else 0`" in out
    assert "- Extra line `jiang_ma` (奖马)" in out
    assert "A concealed kong (暗杠) shows one of its tiles" in out
    assert "Automatic play (托管), for a player whose time runs out, takes every win the rules allow: yes" in out


def test_chaozhou_rulebook_reads_expressions_as_values(capsys):
    out = docs(capsys, "chaozhou")
    assert "combined by when" not in out and "capped at when" not in out
    assert "Hands in a match: as `options.rounds` says." in out
    assert "Fans are combined by addition (`add`) or multiplication (`multiply`), as `'multiply' if options.da_hu_xiang_cheng else 'add'` chooses." in out
    assert "capped as `options.feng_ding` says (0: no cap)" in out
    assert "Tiles set aside at the end of the wall, never drawn (kong replacements come from just before them): as `options.jiang_ma` says." in out


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_expression_reads_as_a_condition_where_a_value_is_meant(variant):
    out = rulebook(load(variant))
    for glitch in ("combined by when", "capped at when", "paid by when", "settled as: when", "Hands in a match: when",
                   "when when", "drawn when when"):
        assert glitch not in out, glitch
    assert not re.search(r"\b(by|at|of|as|in) when `", out)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_kong_verb_mentions_special_sets_only_where_there_are_some(variant):
    rs = load(variant)
    out = rulebook(rs)
    kong = next(line for line in out.splitlines() if line.startswith("- **kong**"))
    assert ("special set" in kong) == bool(rs.special_sets)
    for sp in rs.special_sets:
        assert sp.name.zh in kong


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_declared_mechanism_shows(variant):
    rs = load(variant)
    out = rulebook(rs)
    s = rs.settlement
    expected = ["## Tiles and players", "## Options", "## Turns and claims", "## Winning", "## Fan table", "## Settlement",
                "## Dealer and match", "## Verbs", "Prevailing wind (圈风)", "Automatic play (托管)"]
    if rs.wilds is not None:
        expected.append("## Wild tiles (鬼牌)")
    if rs.horses is not None:
        expected.append("## Horses (马")
    if rs.follow_dealer is not None:
        expected.append("## Follow the dealer (跟庄)")
    expected += [f"Extra line `{reason}`" for reason, _, _ in s.extras]
    if any("winner.streak" in src for _, _, src in s.extras):
        expected.append("### Dealer streak (连庄)")
    if rs.kong_payments is not None:
        expected.append("Kongs (杠钱) are paid")
    if s.table_fee:
        expected.append("Table fee (台费)")
    if s.liable:
        expected.append("pays every payer's share")
    if rs.stakes is not None:
        expected.append("Stakes (买点)")
    if rs.face_up_tail:
        expected.append("Tail tiles turned face up")
    if rs.left_undrawn:
        expected.append("Tiles left undrawn")
    for rule in rs.wall_rules:
        expected.append(f"{rule.name.zh} ({rule.name.en})")
    if rs.observation is not None:
        expected.append("sees the other players' concealed tiles")
    if rs.kongs.show_concealed:
        expected.append("shows one of its tiles")
    if rs.dealer.creator_deals is not False:
        expected.append("The room's creator (seat 0) deals the first hand")
    if rs.winning.honours_and_knitted:
        expected.append("honours and knitted tiles (全不靠")
    if rs.winning.knitted_straight:
        expected.append("knitted straight (组合龙)")
    if rs.scoring.prefer:
        expected.append("On equal totals")
    if rs.ready.kong_ignores and rs.ready.kong == "same_waits_and_values":
        expected.append(f"values compared without {', '.join(rs.ready.kong_ignores)}")
    expected += [sp.name.both() for sp in rs.special_sets]
    expected += [h.name.both() for h in rs.history_wins]
    expected += [f"| `{o.id}` | {o.name.zh} |" for o in rs.options]
    expected += [f"| {f.id} | {f.name.zh} |" for f in rs.scoring.fans]
    for text in expected:
        assert text in out, text


def test_set_fans_and_per_set_fans_say_what_they_count():
    out = rulebook(load("mcr"))
    assert "| quadruple_chow | 一色四同顺 | Quadruple Chow | 48 | 4 chows in one suit, of the same rank | once |" in out
    assert "| big_three_winds | 三风刻 | Big Three Winds | 12 | 3 pungs or kongs of different tiles among 1234z | once | pung_of_terminals_or_honours on its sets |" in out
    assert "| dragon_pung | 箭刻 | Dragon Pung | 2 | a pung of `dragons` | once per such pung |" in out
    assert "pung_of_terminals_or_honours (once)" in out
    assert "as many times as the number of flowers · 花牌数, a bonus" in out
    assert "套算一次" in out


def test_constant_values_read_as_numbers_and_formulas_as_formulas():
    rs = load("chaozhou")
    fixed = replace(
        rs, hands=8, reserved_tail=2, scoring=replace(rs.scoring, cap=64, combine="add"),
        horses=replace(rs.horses, bought_each=2, bought_dealer=0, amount=None),
    )
    out = rulebook(fixed)
    assert "Hands in a match: 8." in out
    assert "never drawn (kong replacements come from just before them): 2." in out
    assert "capped at 64" in out and "combined by addition)" in out
    assert "every player buys 2 horses." in out and "罚马" not in out.split("## Horses", 1)[1].split("\n## ", 1)[0]
    assert "Each time it pays or collects the share itself" in out


def test_conditions_read_as_sentences_and_only_claims_that_exist():
    """Issue 15: sentences from the expression tree (zh and en), no chow in
    a priority where chow is off, horse marks as results give them."""
    from mjc.sentences import sentence

    out = rulebook(load("yunnan_ka_er_tiao"))
    assert "- Priority: hu > kong = pong; ties" in out
    assert "| self_drawn | 自摸 | Self-drawn | 1 | the win is self-drawn · 自摸 |" in out
    assert "`win.self_drawn`" not in out
    assert sentence("win.tile == 2s and not win.self_drawn") == "the winning tile is 2s and not (the win is self-drawn)"
    assert sentence("win.tile == 2s and not win.self_drawn", zh=True) == "和牌张为二条且非自摸"
    assert sentence("2 * (total + 1) if winner.is_dealer else total") == (
        "2 × (the hand's value + 1) if the winner is the dealer, else the hand's value")
    cz = rulebook(load("chaozhou"))
    assert "a reward horse is `won` or `none`" in cz


def test_every_value_says_where_it_comes_from():
    """Issue 15: `source:` marks from the YAML in the rulebook and the server's variant list."""
    from server.catalog import variant_json

    cx = rulebook(load("chuxiong_yuxi"))
    row = next(line for line in cx.splitlines() if line.startswith("| seven_pairs |"))
    assert row.endswith("| 自定 house |")  # CX-34: values the text never gives
    km = rulebook(load("kunming"))
    settlement = km.split("## Settlement")[1]
    assert settlement.split("\n")[2] == "*From: a house value (自定).*"  # 昆明's kong money (KM-40)
    ket = rulebook(load("yunnan_ka_er_tiao"))
    assert next(line for line in ket.splitlines() if line.startswith("| full_flush |")).endswith("| 原文 document |")
    assert next(line for line in ket.splitlines() if line.startswith("| `multiple_winners` |")).endswith("| 释疑 resolution |")
    api = variant_json(load("kunming"))
    assert {o["id"]: o.get("source") for o in api["options"]}["pinghu_liang_men"] == "resolution"
    assert {f["id"]: f.get("source") for f in api["fans"]}["all_pungs"] == "document"


def test_the_play_log_prints_the_horses(capsys):
    from mjc.cli import main

    assert main(["play", "chaozhou", "--option", "mai_ma=2", "--hands", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("  horses (马): "))
    assert line.count("points at seat") == 8
