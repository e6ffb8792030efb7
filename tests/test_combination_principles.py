"""The Chinese Official combination principles (MCR72-89), each on its own:
through the engine directly (runtime/combos.py `SetPattern`, `SetFans`;
exclusion modes in small variants compiled in memory) and through MCR hands
scored with variants/mcr.yaml.

- 不重复: a fan that implies another excludes it; with `exclusion: listed`
  only counted fans exclude, so an excluded fan excludes nothing;
- 套算一次: a set combines with other sets once for fans of one kind;
  n sets make at most n - 1 pair fans;
- 不得相同: when there are too many pair fans, identical ones go first;
- the largest group first: a four- or three-set fan, then each leftover set
  once, with its best pair fan;
- 就高不就低: the best reading of a hand with several splits; `prefer` on ties;
- per-set and `times` exclusions, bonus fans (flowers), `alone` fans, and
  the `transitive` exclusion mode the other variants still use.

Hands are written as in tests/test_mcr_fans.py (the winning tile among the
concealed tiles); every expectation is derived by hand from the rules.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from mjc.handjson import score_hand
from runtime.combos import SetFans, SetPattern
from runtime.registry import load
from runtime.tiles import parse_tile
from support import compile_ruleset
from test_mcr_fans import fans_of, hand, parse_expect, score

MCR_YAML = Path(__file__).resolve().parent.parent / "variants" / "mcr.yaml"

# ---------------------------------------------------------------- the engine

# MCR's chow patterns, in its table's order (the order of preference).
CHOW_PATTERNS = {
    "一色四同顺": SetPattern("chow", 4, suits="same", steps=(0,)),
    "一色四步高": SetPattern("chow", 4, suits="same", steps=(1, 2)),
    "一色三同顺": SetPattern("chow", 3, suits="same", steps=(0,)),
    "清龙": SetPattern("chow", 3, suits="same", ranks=(1, 4, 7)),
    "一色三步高": SetPattern("chow", 3, suits="same", steps=(1, 2)),
    "花龙": SetPattern("chow", 3, suits="different", ranks=(1, 4, 7)),
    "三色三同顺": SetPattern("chow", 3, suits="different", steps=(0,)),
    "三色三步高": SetPattern("chow", 3, suits="different", steps=(1,)),
    "一般高": SetPattern("chow", 2, suits="same", steps=(0,)),
    "喜相逢": SetPattern("chow", 2, suits="different", steps=(0,)),
    "连六": SetPattern("chow", 2, suits="same", steps=(3,)),
    "老少副": SetPattern("chow", 2, suits="same", ranks=(1, 7)),
}
MCR_ORDER = list(CHOW_PATTERNS)


def engine(names=MCR_ORDER, principle="account_once") -> tuple[SetFans, list]:
    names = list(names)
    return SetFans([(i, CHOW_PATTERNS[n]) for i, n in enumerate(names)], principle), names


def keys(text: str) -> tuple:
    """Chows by their lowest tile, '2s 5s 2p' -> sorted tile indices."""
    return tuple(sorted(parse_tile(t) for t in text.split()))


def counted(text: str, names=MCR_ORDER, principle="account_once") -> Counter:
    e, names = engine(names, principle)
    return Counter(names[i] for i, _ in e.count(keys(text)))


def test_set_patterns_match_what_they_say():
    t = keys
    assert CHOW_PATTERNS["一般高"].matches(t("2m 2m"))
    assert not CHOW_PATTERNS["一般高"].matches(t("2m 2p"))
    assert CHOW_PATTERNS["喜相逢"].matches(t("2m 2p"))
    assert CHOW_PATTERNS["连六"].matches(t("2m 5m")) and not CHOW_PATTERNS["连六"].matches(t("2m 4m"))
    assert CHOW_PATTERNS["老少副"].matches(t("1s 7s")) and not CHOW_PATTERNS["老少副"].matches(t("1s 7p"))
    assert CHOW_PATTERNS["一色三步高"].matches(t("1m 3m 5m")) and CHOW_PATTERNS["一色三步高"].matches(t("1m 2m 3m"))
    assert not CHOW_PATTERNS["一色三步高"].matches(t("1m 2m 4m")), "one step for the whole group"
    assert CHOW_PATTERNS["三色三步高"].matches(t("1m 2p 3s")) and not CHOW_PATTERNS["三色三步高"].matches(t("1m 2p 3p"))
    assert CHOW_PATTERNS["花龙"].matches(t("1m 4s 7p")) and not CHOW_PATTERNS["花龙"].matches(t("1m 4m 7p"))
    winds = SetPattern("pung", 3, tiles=tuple(range(27, 31)))
    assert winds.matches(t("1z 2z 4z")) and not winds.matches(t("1z 2z 5z"))
    same_rank = SetPattern("pung", 3, suits="different", steps=(0,))
    assert same_rank.matches(t("7m 7p 7s"))
    assert not same_rank.matches(t("7m 7p 7z")), "honours never match a number pattern"


def test_account_once_never_counts_every_pair():
    """套算一次: 234567s 234567p holds 喜相逢 twice and 连六 twice, but four
    chows make at most three pair fans; which fan loses its second count
    follows the table's order (MCR lists 喜相逢 before 连六)."""
    mcr = counted("2s 5s 2p 5p")
    assert mcr == Counter({"喜相逢": 2, "连六": 1})
    swapped = counted("2s 5s 2p 5p", ["连六", "喜相逢"])
    assert swapped == Counter({"连六": 2, "喜相逢": 1})
    assert counted("2s 5s 2p 5p", principle="each_group") == Counter({"喜相逢": 2, "连六": 2})


def test_identical_pair_fans_go_first():
    """不得相同: 234s 223344567p has 一般高 once, 喜相逢 and 连六 twice each;
    with room for three, the doubles are cut: one of each."""
    assert counted("2s 2p 2p 5p") == Counter({"一般高": 1, "喜相逢": 1, "连六": 1})
    # 123m 789m 123p 789p: 喜相逢 and 老少副 twice each, room for three
    assert counted("1m 7m 1p 7p") == Counter({"喜相逢": 2, "老少副": 1})
    # 123m 123m 789m 789m: 一般高 twice and 老少副 four times, room for three
    assert counted("1m 1m 7m 7m") == Counter({"一般高": 2, "老少副": 1})


def test_sets_that_do_not_combine_do_not_raise_the_limit():
    """Three related chows make at most two pair fans; an unrelated fourth
    chow does not make room for a third."""
    assert counted("2s 5s 5p") == Counter({"连六": 1, "喜相逢": 1})
    assert counted("2s 5s 5p 1m") == Counter({"连六": 1, "喜相逢": 1})
    assert counted("2s 2s 2p") == Counter({"一般高": 1, "喜相逢": 1})


def test_the_largest_group_first_then_each_leftover_once():
    """A three-set fan is counted first; the set left over combines once,
    with its best pair fan, however many partners it has."""
    e, names = engine()
    found = e.count(keys("1m 1m 1m 7m"))
    assert [(names[i], group) for i, group in found] == [("一色三同顺", (0, 1, 2)), ("老少副", (0, 3))]
    # a four-set fan takes every set: nothing is left over to combine
    assert counted("1m 2m 3m 4m") == Counter({"一色四步高": 1})
    assert counted("1m 3m 5m 7m") == Counter({"一色四步高": 1})
    # 三色三步高 123m 234p 345s, then 456m once: 连六 with 123m
    assert counted("1m 2p 3s 4m") == Counter({"三色三步高": 1, "连六": 1})


def test_a_leftover_takes_its_best_pair_fan_in_table_order():
    """234m 234m 234p 234s: 三色三同顺 on three suits; the second 234m could
    make 一般高 with the first or 喜相逢 with the others: the first in the
    table's order, once."""
    assert counted("2m 2m 2p 2s") == Counter({"三色三同顺": 1, "一般高": 1})
    assert counted("2m 2m 2p 2s", ["三色三同顺", "喜相逢", "一般高"]) == Counter({"三色三同顺": 1, "喜相逢": 1})


def test_each_group_counts_every_matching_group():
    assert counted("1m 1m 1m 7m", principle="each_group") == Counter({"一色三同顺": 1, "一般高": 3, "老少副": 3})
    assert counted("1m 1m 1m 7m", principle="account_once") == Counter({"一色三同顺": 1, "老少副": 1})


# ---------------------------------------------------------------- MCR hands


def check(data: dict, expect: str, total: int, ruleset=None) -> dict:
    got = score_hand(data, ruleset, {}) if ruleset is not None else score(data)
    assert got["ok"], got
    assert (fans_of(got), got["total"]) == (parse_expect(expect), total)
    return got


@lru_cache(maxsize=None)
def mcr_with(old: str, new: str):
    """variants/mcr.yaml with one line changed, compiled in memory."""
    text = MCR_YAML.read_text(encoding="utf-8")
    assert old in text
    return compile_ruleset(text.replace(old, new), "mcr_changed")


# --- 不重复 and listed exclusions

def test_a_fan_that_implies_another_excludes_it():
    """MCR72-33/88: 大三元 implies 双箭刻 and 箭刻; 清一色 implies 无字."""
    check(hand("666z 777z 99m", "9m", ["pung 555z", "chow 234m"]), "大三元 混一色 双暗刻 单钓将", 97)
    check(hand("345p 678p 222p 99p", "5p", ["chow 123p"]), "清一色 四归一 连六", 27)


def test_a_self_drawn_four_concealed_pungs_scores_self_drawn():
    """MCR72-40/88: 四暗刻 不计 不求人, and 不求人 (not counted) excludes
    nothing: 自摸 counts. Won on a discard, 门前清 is excluded instead."""
    check(hand("111m 333m 555p 777s 22z", "2z", self_drawn=True), "四暗刻 幺九刻 单钓将 自摸", 67)
    check(hand("111m 333m 555p 777s 22z", "2z"), "四暗刻 幺九刻 单钓将", 66)


def test_a_self_drawn_nine_gates_scores_self_drawn():
    """MCR72-34/88: 九莲宝灯 不计 不求人 (and 门前清), yet scores 自摸."""
    check(hand("1112345678999m 5m", "5m", self_drawn=True), "九莲宝灯 双暗刻 幺九刻 自摸", 92)


def test_self_drawn_seven_pairs_score_self_drawn():
    """MCR72-47/88: 七对 不计 不求人 门前清 单钓将; 自摸 still counts."""
    check(hand("223344m 55p 66p 55s 77z", "7z", self_drawn=True), "七对 自摸", 25)


def test_the_same_table_with_transitive_exclusions_would_lose_self_drawn():
    """Under `transitive` the excluded 不求人 would still exclude 自摸: the
    reason MCR uses `listed`."""
    transitive = mcr_with("exclusion: listed", "exclusion: transitive")
    check(hand("111m 333m 555p 777s 22z", "2z", self_drawn=True), "四暗刻 幺九刻 单钓将", 66, transitive)


# --- 套算一次, 不得相同, the largest group first, through hands

def test_account_once_in_a_hand():
    """234567s 234567p 55m: 喜相逢×2 + 连六×1, never 2 + 2 (MCR72-89)."""
    check(hand("234567s 234567p 55m", "5m"), "门前清 平和 断幺 喜相逢×2 连六 单钓将", 10)


def test_identical_fans_dropped_first_in_a_hand():
    """234s 223344567p 99m: 一般高, 喜相逢, 连六, once each."""
    check(hand("234s 223344567p 99m", "9m"), "门前清 平和 一般高 喜相逢 连六 单钓将", 8)
    # 123m 123m 789m 789m (chowed, so no seven pairs): 一般高×2 and 老少副 once
    check(hand("789m 789m 55p", "5p", ["chow 123m", "chow 123m"]), "平和 一般高×2 老少副 缺一门 单钓将", 7)


def test_a_three_set_fan_then_the_leftover_once_in_a_hand():
    """123m ×3 then 789m: 一色三同顺 and one 老少副 (not three)."""
    check(hand("789m 55p", "5p", ["chow 123m", "chow 123m", "chow 123m"]), "一色三同顺 平和 老少副 缺一门 单钓将", 29)
    # 234m 234m 234p 234s: 三色三同顺, the second 234m makes 一般高 once
    check(hand("234p 234s 55m", "5m", ["chow 234m", "chow 234m"]), "三色三同顺 平和 断幺 一般高 单钓将", 14)
    # 123m 345m 567m, then 123p: 喜相逢 with 123m
    check(hand("123m 345m 567m 123p 55s", "5s"), "一色三步高 门前清 平和 喜相逢 单钓将", 22)


# --- 就高不就低 and prefer

def test_the_best_split_is_kept():
    """111222333m: three pungs (一色三节高, 三暗刻) beat three chows (一色三
    同顺, 平和): 45 against 29."""
    check(hand("111222333m 456p 99s", "9s"), "一色三节高 三暗刻 门前清 幺九刻 无字 单钓将", 45)


def test_seven_pairs_beat_four_chows():
    """112233789789s 55m: 七对 (26) rather than 平和 一般高×2 老少副 (9)."""
    check(hand("112233789789s 55m", "5m"), "七对 缺一门 无字", 26)


def test_prefer_breaks_a_tie_for_pure_triple_chow():
    """111222333m 456m 44m won on 1m: as chows 清一色 一色三同顺 平和 连六,
    as pungs 清一色 一色三节高 双暗刻 幺九刻, 51 either way; `prefer` keeps
    一色三同顺 (as PyMahjongGB). Without it, the first split (a pung before
    a chow) would be kept."""
    data = hand("111222333m 44m", "1m", ["chow 456m"])
    check(data, "清一色 一色三同顺 平和 连六", 51)
    no_prefer = mcr_with("prefer: [pure_triple_chow, triple_pung]", "prefer: []")
    check(data, "清一色 一色三节高 双暗刻 幺九刻", 51, no_prefer)


# --- per-set and `times` exclusions

def test_big_three_winds_removes_only_its_own_pungs_terminal_fan():
    """MCR72-56/88: 三风刻 不计 the 幺九刻 of its three wind pungs; a fourth
    pung of 9s keeps its 幺九刻."""
    check(hand("999s 55m", "5m", ["pung 222z", "pung 333z", "pung 444z"]), "三风刻 碰碰和 幺九刻 缺一门 单钓将", 21)
    check(hand("555s 55m", "5m", ["pung 222z", "pung 333z", "pung 444z"]), "三风刻 碰碰和 缺一门 单钓将", 20)


def test_round_and_seat_wind_on_one_pung_remove_one_terminal_fan():
    """East round, East seat: the East pung is 圈风刻 and 门风刻, its single
    幺九刻 gone once; the West and 9s pungs keep theirs."""
    data = dict(concealed="999s 234m 55m", win="5m", melds=["pung 111z", "pung 333z"])
    check(hand(**data, seat="1z", round="1z"), "圈风刻 门风刻 幺九刻×2 缺一门", 7)
    check(hand(**data, seat="2z", round="1z"), "圈风刻 幺九刻×2 缺一门", 5)
    check(hand(**data, seat="3z", round="1z"), "圈风刻 门风刻 幺九刻 缺一门", 6)
    # the round's wind in 三风刻: both remove the same pung's 幺九刻
    check(hand("999s 55m", "5m", ["pung 222z", "pung 333z", "pung 444z"], round="2z"),
          "三风刻 碰碰和 圈风刻 幺九刻 缺一门 单钓将", 23)


def test_nine_gates_removes_one_terminal_pung_fan():
    """MCR72-34/88: 不计 幺九刻×1. On 5m (111 234 55 678 999) two pungs of
    terminals leave one; on 1m (111 123 456 789 99) the only one goes, and
    清龙 and 四归一 (four 1m), not implied, count."""
    check(hand("1112345678999m 5m", "5m"), "九莲宝灯 双暗刻 幺九刻", 91)
    check(hand("1112345678999m 1m", "1m"), "九莲宝灯 清龙 四归一", 106)


# --- bonus and alone fans

def test_flowers_do_not_stop_a_chicken_hand():
    """MCR72-85: flowers are bonus fans; 无番和 still counts."""
    check(hand("345s 678p 44z", "3s", ["chow 234m", "pung 777s"], flowers=2), "无番和 花牌×2", 10)
    check(hand("345s 678p 44z", "3s", ["chow 234m", "pung 777s"], self_drawn=True, flowers=2), "自摸 花牌×2", 3)


@pytest.mark.parametrize("flowers", [0, 3, 8])
def test_flowers_do_not_count_toward_the_minimum(flowers):
    """MCR72-26/27: 混一色 + 老少副 is 7 fan; flowers make the total larger
    but never lift it to the 8-fan minimum."""
    got = check(hand("789p 666p 22z", "9p", ["chow 123p", "chow 345p"], flowers=flowers),
                "混一色 老少副" + (f" 花牌×{flowers}" if flowers else ""), 7 + flowers)
    assert got["win_allowed"] is False


def test_eight_fan_and_a_flower_may_win():
    got = check(hand("567p 789s 22z", "9s", ["chow 123m", "pung 555z"], flowers=1), "五门齐 箭刻 花牌", 9)
    assert got.get("win_allowed", True)


# ---------------------------------------------------------------- exclusion modes in a small variant

SMALL = """
title: {{zh: 测试, en: Test}}
players: {{allowed: [4], default: 4}}
tiles: {{suits: [m, p, s], honours: 1234567z, copies: 4}}
deal: {{dealer: 14, others: 13}}
scoring:
  unit: fan
  exclusion: {exclusion}
  set_groups: {groups}
  fans:
    top: {{zh: 上, value: 10, when: win.self_drawn, excludes: [middle]}}
    middle: {{zh: 中, value: 5, when: win.last_tile, excludes: [bottom]}}
    bottom: {{zh: 下, value: 1, when: win.kong_replacement}}
    mixed: {{zh: 喜相逢, value: 1, sets: {{chows: 2, suits: different, steps: [0]}}}}
    straight: {{zh: 连六, value: 1, sets: {{chows: 2, suits: same, steps: [3]}}}}
    chicken: {{zh: 无番和, value: 8, alone: true}}
    flowers: {{zh: 花牌, value: 1, count: hand.flowers, bonus: true}}
"""


@lru_cache(maxsize=None)
def small(exclusion: str, groups: str = "account_once"):
    return compile_ruleset(SMALL.format(exclusion=exclusion, groups=groups), f"small_{exclusion}_{groups}")


PLAIN = dict(concealed="234m 567p 345s 789s 11z", win="3s")  # no chow fan


@pytest.mark.parametrize("exclusion, flags, expect, total", [
    # top (self-drawn) excludes middle (last tile), middle excludes bottom (kong replacement)
    pytest.param("transitive", dict(self_drawn=True, kong_replacement=True), "上", 10, id="transitive-closed"),
    pytest.param("listed", dict(self_drawn=True, kong_replacement=True), "上 下", 11, id="listed-only-its-own"),
    pytest.param("transitive", dict(self_drawn=True, last_tile=True, kong_replacement=True), "上", 10,
                 id="transitive-excluded-still-excludes"),
    pytest.param("listed", dict(self_drawn=True, last_tile=True, kong_replacement=True), "上 下", 11,
                 id="listed-excluded-excludes-nothing"),
    pytest.param("transitive", dict(last_tile=True, kong_replacement=True), "中", 5, id="transitive-counted-excludes"),
    pytest.param("listed", dict(last_tile=True, kong_replacement=True), "中", 5, id="listed-counted-excludes"),
])
def test_transitive_and_listed_exclusions(exclusion, flags, expect, total):
    check(hand(**PLAIN, **flags), expect, total, small(exclusion))


def test_the_other_variants_still_use_transitive_exclusions():
    from runtime.registry import names

    modes = {n: load(n).scoring.exclusion for n in names()}
    assert modes.pop("mcr") == "listed"
    for child in [n for n in modes if "mcr" in load(n).parents]:  # erren_mcr72 extends mcr
        assert modes.pop(child) == "listed"
    assert modes and set(modes.values()) == {"transitive"}


@pytest.mark.parametrize("groups, expect, total", [
    pytest.param("account_once", "喜相逢×2 连六", 3, id="account_once"),
    pytest.param("each_group", "喜相逢×2 连六×2", 4, id="each_group"),
])
def test_set_groups_in_a_compiled_variant(groups, expect, total):
    """234567s 234567p: four chows, two 喜相逢 and two 连六 among them."""
    check(hand("234567s 234567p 55m", "5m"), expect, total, small("listed", groups))


def test_alone_and_bonus_in_a_compiled_variant():
    rs = small("listed")
    check(hand(**PLAIN), "无番和", 8, rs)
    check(hand(**PLAIN, flowers=2), "无番和 花牌×2", 10, rs)
    check(hand(**PLAIN, self_drawn=True, flowers=2), "上 花牌×2", 12, rs)
