"""Every fan of the Chinese Official table (variants/mcr.yaml), one by one.

For each of the 82 fans there is at least one winning hand that counts it
(`-has`) and a close hand, a tile or a flag changed, that does not
(`-not`). Both are written by hand in compact form and each expectation
(the exact fans counted, with their counts, and the total) is derived from
the Chinese Official rules: the standard 国标 definitions, their 不计 lists
and the combination principles (shared/rules/erren_mcr72.md MCR72-28..90
describes many of them, their exclusions in MCR72-88/89; a case cites the
rule ID where there is one, and its note is printed when it fails). A fan
added to the table later without both cases fails
`test_every_fan_has_a_positive_and_a_negative_case`.

`hand()` builds hand JSON: the concealed tiles are written with the winning
tile among them (the whole hand, as a player lays it down), melds as
"chow 123s", "pung 555p", "kong 9999m" (exposed), "akong 9999m" (added)
or "ckong 1111s" (concealed). Seat and prevalent wind default to East.
Expectations are Chinese fan names, `×N` for a count above one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from mjc.handjson import score_hand
from runtime.registry import load

# ---------------------------------------------------------------- helpers


def tiles(text: str) -> list[str]:
    """'147m 25p 1z' -> ['1m', '4m', '7m', '2p', '5p', '1z']."""
    out = []
    for digits, suit in re.findall(r"(\d+)([mpsz])", text):
        out.extend(f"{d}{suit}" for d in digits)
    rest = re.sub(r"(\d+)([mpsz])|\s", "", text)
    assert not rest, f"bad tile text {text!r}"
    return out


def meld(text: str) -> dict:
    kind, ts = text.split()
    m = {"type": {"ckong": "kong", "akong": "kong"}.get(kind, kind), "tiles": tiles(ts), "exposed": kind != "ckong"}
    if kind == "akong":
        m["kind"] = "added"
    return m


def hand(concealed: str, win: str, melds=(), self_drawn=False, seat="1z", round="1z", flowers=0, **flags) -> dict:
    """Hand JSON from compact text; `concealed` includes the winning tile."""
    held = tiles(concealed)
    held.remove(win)
    return {
        "concealed": held,
        "melds": [meld(m) for m in melds],
        "win_tile": win,
        "self_drawn": self_drawn,
        "seat_wind": seat,
        "round_wind": round,
        "flowers": flowers,
        "flags": flags,
    }


_CACHE: dict = {}


def score(data: dict) -> dict:
    out = score_hand(data, load("mcr"), _CACHE)
    assert out["ok"], out
    return out


def fans_of(result: dict) -> dict:
    """{Chinese name: count} of a scored hand."""
    return {f["name"]: f["count"] for f in result["fans"]}


def parse_expect(text: str) -> dict:
    """'大四喜 幺九刻×2' -> {'大四喜': 1, '幺九刻': 2}."""
    out = {}
    for token in text.split():
        name, _, n = token.partition("×")
        out[name] = int(n or 1)
    return out


# ---------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    fan: str  # the fan id this case is about
    has: bool  # the hand counts the fan (True) or not (False)
    hand: dict
    expect: str  # every fan counted: Chinese names, ×N for counts above one
    total: int
    why: str = ""  # the rule and the reasoning

    @property
    def id(self) -> str:
        return f"{self.fan}-{'has' if self.has else 'not'}"


def has(fan, h, expect, total, why=""):
    return Case(fan, True, h, expect, total, why)


def not_(fan, h, expect, total, why=""):
    return Case(fan, False, h, expect, total, why)


# A 无番和 (chicken hand) skeleton reused by the win-flag fans: chows 234m,
# 345s, 678p (no two related), a pung of 7s, a North pair (not the seat's or
# the round's wind), a two-sided wait 36s won on 3s.
CHICKEN = dict(concealed="345s 678p 44z", win="3s", melds=["chow 234m", "pung 777s"])
# A one-fan skeleton: chow 234m and pung 888p melded, two-sided wait.
ONE = ["chow 234m", "pung 888p"]

CASES = [
    # ------------------------------------------------------------ 88
    has("big_four_winds", hand("444z 55m", "4z", ["pung 111z", "pung 222z", "pung 333z"]),
        "大四喜 混一色", 94,
        "MCR72-32/88: 不计 三风刻 碰碰和 圈风刻 门风刻 幺九刻; 混一色 (m + honours) still counts"),
    not_("big_four_winds", hand("44z 555m", "5m", ["pung 111z", "pung 222z", "pung 333z"]),
         "小四喜 碰碰和 混一色 圈风刻 门风刻", 80,
         "a North pair instead of a North pung: 小四喜 (MCR72-37), which excludes neither 碰碰和 nor the East "
         "pung's 圈风刻 and 门风刻"),
    has("big_three_dragons", hand("666z 777z 99m", "9m", ["pung 555z", "chow 234m"], self_drawn=True),
        "大三元 混一色 双暗刻 单钓将 自摸", 98,
        "MCR72-33/88: 不计 小三元 双箭刻 箭刻; the two concealed dragon pungs still make 双暗刻"),
    not_("big_three_dragons", hand("666z 777z 99m", "9m", ["pung 444z", "chow 234m"], self_drawn=True),
         "双箭刻 混一色 双暗刻 单钓将 自摸 幺九刻", 17,
         "North pung for the White one: 双箭刻 (不计 箭刻) and the North pung's 幺九刻"),
    has("all_green", hand("234s 666s 888s 66z", "6z", ["chow 234s"]),
        "绿一色 一般高 双暗刻 单钓将", 92,
        "only 23468s and 发; 不计 混一色 (and 缺一门)"),
    not_("all_green", hand("234s 666s 888s 55z", "5z", ["chow 234s"]),
         "混一色 一般高 双暗刻 单钓将", 10,
         "a White pair instead of Green"),
    has("nine_gates", hand("1112345678999m 5m", "5m"),
        "九莲宝灯 双暗刻 幺九刻", 91,
        "MCR72-34/88: 1112345678999m waiting on all nine; read 111 234 55 678 999: two concealed pungs "
        "(双暗刻), two 幺九刻 less the one 九莲宝灯 不计; also 不计 清一色 门前清 无字"),
    not_("nine_gates", hand("111m 55m 678m 999m", "5m", ["chow 234m"]),
         "清一色 双暗刻 幺九刻×2", 28,
         "the same tiles with 234m chowed: no longer concealed; waits 5m 7m 8m, so no wait fan"),
    has("four_kongs", hand("22z", "2z", ["kong 1111m", "kong 9999p", "ckong 5555s", "kong 7777z"]),
        "四杠 五门齐 箭刻 幺九刻×2", 98,
        "MCR72-35/88: 不计 三杠 明暗杠 明杠 暗杠 碰碰和 单钓将"),
    not_("four_kongs", hand("22z", "2z", ["kong 1111m", "kong 9999p", "ckong 5555s", "pung 777z"]),
         "三杠 碰碰和 五门齐 箭刻 幺九刻×2 单钓将", 49,
         "MCR72-45: the Red dragons as a pung: 三杠 (不计 明暗杠), 碰碰和 and 单钓将 count again"),
    has("seven_shifted_pairs", hand("11223344556677p", "7p"),
        "连七对", 88,
        "MCR72-36/88: 不计 七对 清一色 门前清 单钓将 (and 无字); beats the 123 123 456 456 77 reading"),
    not_("seven_shifted_pairs", hand("11223344556699p", "9p"),
         "七对 清一色", 48,
         "one pair not in sequence: 七对 (不计 门前清 单钓将) and 清一色 (不计 无字)"),
    has("thirteen_orphans", hand("119m 19p 19s 1234567z", "9s"),
        "十三幺", 88,
        "不计 五门齐 门前清 单钓将 (and 混幺九)"),
    not_("thirteen_orphans", hand("1199m 1199p 1199s 11z", "1z"),
         "混幺九 七对", 56,
         "only terminals and honours as seven pairs: 混幺九 (MCR72-46) and 七对 (MCR72-47)"),
    # ------------------------------------------------------------ 64
    has("all_terminals", hand("111s 999s 99m", "9m", ["pung 111m", "pung 999p"]),
        "清幺九 双暗刻 单钓将", 67,
        "不计 混幺九 碰碰和 全带幺 幺九刻 无字 双同刻"),
    not_("all_terminals", hand("111s 999s 11z", "1z", ["pung 111m", "pung 999p"]),
         "混幺九 双同刻×2 双暗刻 单钓将", 39,
         "MCR72-46: an East pair: 混幺九 (不计 碰碰和 全带幺 幺九刻), both 双同刻 count (4 pungs, 2 pairs)"),
    has("little_four_winds", hand("44z 555m", "5m", ["pung 111z", "pung 222z", "pung 333z"]),
        "小四喜 碰碰和 混一色 圈风刻 门风刻", 80,
        "MCR72-37/88: 不计 三风刻 and the wind pungs' 幺九刻"),
    not_("little_four_winds", hand("44m 555m", "5m", ["pung 111z", "pung 222z", "pung 333z"]),
         "三风刻 碰碰和 混一色 圈风刻 门风刻", 28,
         "MCR72-56: a 4m pair instead of North: 三风刻, its wind pungs without 幺九刻"),
    has("little_three_dragons", hand("77z 123m 789m", "3m", ["pung 555z", "pung 666z"]),
        "小三元 混一色 全带幺 老少副 边张", 76,
        "MCR72-38/88: 不计 双箭刻 箭刻; 12m waiting 3m only is 边张 (MCR72-82)"),
    not_("little_three_dragons", hand("11z 123m 789m", "3m", ["pung 555z", "pung 666z"]),
         "双箭刻 混一色 全带幺 老少副 边张", 18,
         "MCR72-65: an East pair instead of Red"),
    has("all_honours", hand("666z 444z 11z", "1z", ["pung 222z", "pung 555z"]),
        "字一色 双箭刻 双暗刻 单钓将", 73,
        "MCR72-39/88: 不计 碰碰和 混幺九 全带幺 幺九刻"),
    not_("all_honours", hand("666z 444z 11m", "1m", ["pung 222z", "pung 555z"]),
         "混幺九 混一色 双箭刻 双暗刻 单钓将", 47,
         "a 1m pair: 混幺九 (MCR72-46) and 混一色"),
    has("four_concealed_pungs", hand("111m 333m 555p 777s 22z", "2z"),
        "四暗刻 幺九刻 单钓将", 66,
        "MCR72-40/88: four pungs concealed when the pair is won; 不计 碰碰和 门前清 (not 单钓将)"),
    not_("four_concealed_pungs", hand("111m 333m 555p 777s 22z", "7s"),
         "三暗刻 碰碰和 门前清 幺九刻", 25,
         "MCR72-53: won on 7s, a discard that completes a pung, which is then not concealed (MCR72-40)"),
    has("pure_terminal_chows", hand("112233789789s 55s", "5s"),
        "一色双龙会 门前清 单钓将", 67,
        "MCR72-41/88: 不计 七对 清一色 平和 一般高 老少副 (and 无字)"),
    not_("pure_terminal_chows", hand("112233789789s 55m", "5m"),
         "七对 缺一门 无字", 26,
         "MCR72-47/89: a 5m pair: the hand is best read as seven pairs (就高不就低), not as four chows"),
    # ------------------------------------------------------------ 48
    has("quadruple_chow", hand("66p", "6p", ["chow 234p", "chow 234p", "chow 234p", "chow 234p"]),
        "一色四同顺 清一色 全求人 平和 断幺", 82,
        "MCR72-42/88: 不计 一色三同顺 一色三节高 一般高 四归一"),
    not_("quadruple_chow", hand("66p", "6p", ["chow 234p", "chow 234p", "chow 234p", "chow 345p"]),
         "一色三同顺 清一色 全求人 平和 断幺 四归一×2", 62,
         "MCR72-49/73: one chow 345p: 一色三同顺; the two 四归一 (3p, 4p) count again"),
    has("four_pure_shifted_pungs", hand("666s 77z", "6s", ["pung 333s", "pung 444s", "pung 555s"]),
        "一色四节高 混一色", 54,
        "MCR72-43/88: 不计 一色三节高 一色三同顺 碰碰和"),
    not_("four_pure_shifted_pungs", hand("777s 77z", "7s", ["pung 333s", "pung 444s", "pung 555s"]),
         "一色三节高 碰碰和 混一色", 36,
         "MCR72-50: 777s breaks the run"),
    # ------------------------------------------------------------ 32
    has("four_pure_shifted_chows", hand("456m 99p", "6m", ["chow 123m", "chow 234m", "chow 345m"]),
        "一色四步高 平和 缺一门", 35,
        "MCR72-44/88: 不计 一色三步高 连六 老少副"),
    not_("four_pure_shifted_chows", hand("567m 99p", "7m", ["chow 123m", "chow 234m", "chow 345m"]),
         "一色三步高 连六 平和 缺一门", 20,
         "MCR72-52: 567m: 一色三步高, and the leftover 567m combines once (连六 with 234m)"),
    has("three_kongs", hand("567s 11z", "5s", ["kong 2222m", "kong 8888p", "ckong 4444s"]),
        "三杠", 32,
        "MCR72-45/88: 不计 双明杠 双暗杠 明暗杠 明杠 暗杠"),
    not_("three_kongs", hand("567s 11z", "5s", ["kong 2222m", "pung 888p", "ckong 4444s"]),
         "明暗杠", 5,
         "the 8p as a pung: one exposed and one concealed kong"),
    has("all_terminals_and_honours", hand("999p 222z 33z", "2z", ["pung 111m", "pung 999s"]),
        "混幺九 双同刻", 34,
        "MCR72-46/88: 不计 碰碰和 全带幺 幺九刻; 双同刻 (9p 9s) still counts"),
    not_("all_terminals_and_honours", hand("999p 222z 33m", "2z", ["pung 111m", "pung 999s"]),
         "碰碰和 双同刻 幺九刻×4", 12,
         "MCR72-61/80: a 3m pair"),
    # ------------------------------------------------------------ 24
    has("seven_pairs", hand("223344m 55p 66p 55s 77z", "7z"),
        "七对", 24,
        "MCR72-47/88: 不计 门前清 不求人 单钓将"),
    not_("seven_pairs", hand("223344m 567p 55s 777z", "7z"),
         "一般高 箭刻 门前清", 5,
         "5566p 77z regrouped as 567p 777z: four sets and a pair, 7z a dual-pung wait"),
    has("greater_honours_and_knitted_tiles", hand("147m 25p 36s 1234567z", "7z"),
        "七星不靠", 24,
        "all seven honours; 不计 全不靠 五门齐 门前清 单钓将"),
    not_("greater_honours_and_knitted_tiles", hand("147m 25p 369s 123456z", "6z"),
         "全不靠", 12,
         "9s instead of Red: six honours, 全不靠 only"),
    has("all_even_pungs", hand("666s 888m 44s", "4s", ["pung 222m", "pung 444p"]),
        "全双刻 双暗刻", 26,
        "不计 碰碰和 断幺 无字; 666s 4s waits 4s and 5s, so no 单钓将"),
    not_("all_even_pungs", hand("666s 888m 55s", "5s", ["pung 222m", "pung 444p"]),
         "碰碰和 断幺 双暗刻", 10,
         "MCR72-61/76: a 5s pair; 断幺 不计 无字"),
    has("full_flush", hand("345p 678p 222p 99p", "5p", ["chow 123p"]),
        "清一色 四归一 连六", 27,
        "MCR72-48: 不计 无字; four 2p over 123p and 222p (MCR72-73); waits 2p 5p"),
    not_("full_flush", hand("345p 678p 222p 99s", "5p", ["chow 123p"]),
         "四归一 连六 缺一门 无字", 5,
         "a 9s pair"),
    has("pure_triple_chow", hand("345s 789m 11z", "3s", ["chow 345s", "chow 345s"]),
        "一色三同顺 缺一门", 25,
        "MCR72-49/88: 不计 一般高 一色三节高"),
    not_("pure_triple_chow", hand("456s 789m 11z", "4s", ["chow 345s", "chow 345s"]),
         "一般高 缺一门", 2,
         "MCR72-77: 456s for the third 345s"),
    has("pure_shifted_pungs", hand("666m 234p 99s", "2p", ["pung 444m", "pung 555m"]),
        "一色三节高 无字", 25,
        "MCR72-50/88: 不计 一色三同顺"),
    not_("pure_shifted_pungs", hand("777m 234p 99s", "2p", ["pung 444m", "pung 555m"]),
         "无字", 1,
         "777m breaks the run"),
    has("upper_tiles", hand("789p 777s 999s 88m", "8m", ["chow 789m"]),
        "全大 喜相逢 双暗刻 幺九刻 单钓将", 29,
        "only 789; 不计 大于五 无字"),
    not_("upper_tiles", hand("789p 777s 999s 66m", "6m", ["chow 789m"]),
         "大于五 喜相逢 双暗刻 幺九刻 单钓将", 17,
         "MCR72-54: a 6m pair"),
    has("middle_tiles", hand("456p 444s 666s 55m", "5m", ["chow 456m"]),
        "全中 喜相逢 双暗刻 单钓将", 28,
        "only 456; 不计 断幺 无字"),
    not_("middle_tiles", hand("456p 444s 666s 33m", "3m", ["chow 456m"]),
         "断幺 喜相逢 双暗刻 单钓将", 6,
         "MCR72-76: a 3m pair; 断幺 不计 无字"),
    has("lower_tiles", hand("123p 111s 333s 22m", "2m", ["chow 123m"]),
        "全小 喜相逢 双暗刻 幺九刻 单钓将", 29,
        "only 123; 不计 小于五 无字"),
    not_("lower_tiles", hand("123p 111s 333s 44m", "4m", ["chow 123m"]),
         "小于五 喜相逢 双暗刻 幺九刻 单钓将", 17,
         "MCR72-55: a 4m pair"),
    # ------------------------------------------------------------ 16
    has("pure_straight", hand("456p 789p 567s 22m", "4p", ["chow 123p"]),
        "清龙 平和", 18,
        "MCR72-51: 123 456 789 of one suit, the rest free (MCR72-A10); 不计 连六 老少副"),
    not_("pure_straight", hand("456p 678p 567s 22m", "4p", ["chow 123p"]),
         "平和 连六", 3,
         "MCR72-78: 678p for 789p"),
    has("three_suited_terminal_chows", hand("123m 789m 123p 789p 55s", "5s"),
        "三色双龙会 门前清 单钓将", 19,
        "不计 平和 喜相逢 老少副 无字"),
    not_("three_suited_terminal_chows", hand("123m 789m 123p 789p 55p", "5p"),
         "平和 门前清 喜相逢×2 老少副 缺一门 单钓将", 9,
         "a 5p pair: four pair fans possible, three counted (套算一次), one of the two identical 老少副 dropped"),
    has("pure_shifted_chows", hand("567s 678m 22p", "8m", ["chow 123s", "chow 345s"]),
        "一色三步高 平和", 18,
        "MCR72-52: chows up by 2"),
    not_("pure_shifted_chows", hand("678s 678m 22p", "8m", ["chow 123s", "chow 345s"]),
         "平和 连六 喜相逢", 4,
         "678s for 567s"),
    has("all_fives", hand("456s 567s 55m", "7s", ["chow 345m", "pung 555p"]),
        "全带五", 16,
        "every set and the pair hold a 5; 不计 断幺 无字"),
    not_("all_fives", hand("456s 567s 22m", "7s", ["chow 345m", "pung 555p"]),
         "断幺", 2,
         "MCR72-76: a 2m pair; 断幺 不计 无字"),
    has("triple_pung", hand("777s 234m 88p", "8p", ["pung 777m", "pung 777p"]),
        "三同刻 断幺 单钓将", 19,
        "不计 双同刻"),
    not_("triple_pung", hand("666s 234m 88p", "8p", ["pung 777m", "pung 777p"]),
         "双同刻 断幺 单钓将", 5,
         "666s for 777s"),
    has("three_concealed_pungs", hand("444p 666p 888s 55s", "5s", ["chow 123m"]),
        "三暗刻 无字 单钓将", 18,
        "MCR72-53/88: 不计 双暗刻"),
    not_("three_concealed_pungs", hand("444p 666p 888s 55s", "8s", ["chow 123m"]),
         "双暗刻 无字", 3,
         "MCR72-74: won on 8s discarded (waits 5s 8s): that pung is not concealed"),
    # ------------------------------------------------------------ 12
    has("lesser_honours_and_knitted_tiles", hand("147m 258p 36s 123456z", "6z"),
        "全不靠", 12,
        "fourteen unrelated tiles from one knitted straight and honours; 不计 五门齐 门前清 单钓将"),
    not_("lesser_honours_and_knitted_tiles", hand("147m 25p 36s 1234567z", "6z"),
         "七星不靠", 24,
         "8p for Red: all seven honours, 七星不靠 不计 全不靠"),
    has("knitted_straight", hand("147m 258p 369s 12345z", "5z"),
        "全不靠 组合龙", 24,
        "a whole knitted straight with five honours: 全不靠 and 组合龙 both count"),
    not_("knitted_straight", hand("147m 258p 36s 123456z", "6z"),
         "全不靠", 12,
         "Green for 9s: the straight is not whole"),
    has("upper_four", hand("789p 777s 999s 66m", "6m", ["chow 789m"]),
        "大于五 喜相逢 双暗刻 幺九刻 单钓将", 17,
        "MCR72-54: only 6789; 不计 无字"),
    not_("upper_four", hand("789p 777s 999s 55m", "5m", ["chow 789m"]),
         "喜相逢 双暗刻 幺九刻 无字 单钓将", 6,
         "a 5m pair"),
    has("lower_four", hand("123p 111s 333s 44m", "4m", ["chow 123m"]),
        "小于五 喜相逢 双暗刻 幺九刻 单钓将", 17,
        "MCR72-55: only 1234; 不计 无字"),
    not_("lower_four", hand("123p 111s 333s 55m", "5m", ["chow 123m"]),
         "喜相逢 双暗刻 幺九刻 无字 单钓将", 6,
         "a 5m pair"),
    has("big_three_winds", hand("444z 567m 99p", "6m", ["pung 222z", "pung 333z"]),
        "三风刻 缺一门 坎张", 14,
        "MCR72-56/88: 不计 幺九刻 of its wind pungs; 57m waiting 6m only is 坎张 (MCR72-83)"),
    not_("big_three_winds", hand("555z 567m 99p", "6m", ["pung 222z", "pung 333z"]),
         "箭刻 幺九刻×2 缺一门 坎张", 6,
         "White for North: two wind pungs, each 幺九刻"),
    # ------------------------------------------------------------ 8
    has("mixed_straight", hand("456p 789s 234m 55s", "4p", ["chow 123m"]),
        "花龙 平和", 10,
        "123 456 789 in three suits"),
    not_("mixed_straight", hand("456p 789p 234m 55s", "4p", ["chow 123m"]),
         "平和 连六", 3,
         "789p for 789s"),
    has("reversible_tiles", hand("123p 345p 888p 456s 99s", "3p"),
        "推不倒 门前清 无字", 11,
        "only 1234589p 245689s 白; 不计 缺一门; 12345p waits 3p and 6p"),
    not_("reversible_tiles", hand("123p 345p 888p 456s 77s", "3p"),
         "门前清 缺一门 无字", 4,
         "7s is not symmetrical"),
    has("mixed_triple_chow", hand("345s 789m 22p", "3s", ["chow 345m", "chow 345p"]),
        "三色三同顺 平和", 10,
        "345 in three suits"),
    not_("mixed_triple_chow", hand("456s 789m 22p", "4s", ["chow 345m", "chow 345p"]),
         "平和 喜相逢", 3,
         "456s for 345s"),
    has("mixed_shifted_pungs", hand("555s 678m 99p", "6m", ["pung 333m", "pung 444p"]),
        "三色三节高 无字", 9,
        "333 444 555 in three suits"),
    not_("mixed_shifted_pungs", hand("555p 678m 99p", "6m", ["pung 333m", "pung 444p"]),
         "缺一门 无字", 2,
         "555p for 555s"),
    has("chicken_hand", hand(**CHICKEN),
        "无番和", 8,
        "no fan at all"),
    not_("chicken_hand", hand(**CHICKEN, self_drawn=True),
         "自摸", 1,
         "MCR72-86: self-drawn, so one fan"),
    has("last_tile_draw", hand(**CHICKEN, self_drawn=True, last_tile=True),
        "妙手回春", 8,
        "MCR72-57/88: self-drawn on the wall's last tile; 不计 自摸"),
    not_("last_tile_draw", hand(**CHICKEN, self_drawn=True),
         "自摸", 1,
         "not the last tile"),
    has("last_tile_claim", hand(**CHICKEN, last_tile=True),
        "海底捞月", 8,
        "MCR72-58: the last tile, discarded"),
    not_("last_tile_claim", hand(**CHICKEN, self_drawn=True, last_tile=True),
         "妙手回春", 8,
         "MCR72-57: self-drawn, so 妙手回春 instead"),
    has("out_with_replacement_tile", hand("345s 678p 44z", "3s", ["chow 234m", "kong 7777s"],
                                          self_drawn=True, kong_replacement=True),
        "杠上开花 明杠", 9,
        "MCR72-59/88: self-drawn on a kong's replacement; 不计 自摸"),
    not_("out_with_replacement_tile", hand("345s 678p 44z", "3s", ["chow 234m", "kong 7777s"], self_drawn=True),
         "明杠 自摸", 2,
         "an ordinary draw"),
    has("robbing_the_kong", hand(**CHICKEN, robbing_kong=True, last_copy=True),
        "抢杠和", 8,
        "MCR72-60/88: the robbed tile is the last one; 不计 和绝张"),
    not_("robbing_the_kong", hand(**CHICKEN, last_copy=True),
         "和绝张", 4,
         "MCR72-69: the same last copy, discarded"),
    # ------------------------------------------------------------ 6
    has("all_pungs", hand("888s 333p 11z", "3p", ["pung 222m", "pung 555p"]),
        "碰碰和", 6,
        "MCR72-61: 3p completes a pung by discard, so one concealed pung only"),
    not_("all_pungs", hand("888s 234p 11z", "3p", ["pung 222m", "pung 555p"]),
         "坎张", 1,
         "MCR72-83: 234p for 333p"),
    has("half_flush", hand("789p 666p 22z", "9p", ["chow 123p", "chow 345p"]),
        "混一色 老少副", 7,
        "MCR72-62: one suit and honours"),
    not_("half_flush", hand("789p 666p 22s", "9p", ["chow 123p", "chow 345p"]),
         "老少副 缺一门 无字", 3,
         "a 2s pair"),
    has("mixed_shifted_chows", hand("345s 789m 55p", "3s", ["chow 123m", "chow 234p"]),
        "三色三步高 平和 老少副", 9,
        "123m 234p 345s; the leftover 789m combines once, 老少副 with 123m"),
    not_("mixed_shifted_chows", hand("456s 789m 55p", "4s", ["chow 123m", "chow 234p"]),
         "平和 老少副", 3,
         "456s for 345s"),
    has("all_types", hand("567p 789s 22z", "9s", ["chow 123m", "pung 555z"]),
        "五门齐 箭刻", 8,
        "characters, dots, bamboo, a wind and a dragon"),
    not_("all_types", hand("567p 789s 22s", "9s", ["chow 123m", "pung 555z"]),
         "箭刻", 2,
         "MCR72-70: a 2s pair, no wind"),
    has("melded_hand", hand("55s", "5s", ["chow 123m", "chow 456p", "pung 777s", "pung 999m"]),
        "全求人 幺九刻 无字", 8,
        "MCR72-63/88: four claimed sets, won on a discard; 不计 单钓将"),
    not_("melded_hand", hand("55s", "5s", ["chow 123m", "chow 456p", "pung 777s", "pung 999m"], self_drawn=True),
         "幺九刻 无字 单钓将 自摸", 4,
         "self-drawn"),
    has("two_concealed_kongs", hand("567s 99m", "5s", ["ckong 2222m", "ckong 8888p", "chow 345s"]),
        "双暗杠 无字", 7,
        "MCR72-64/88: 不计 暗杠 双暗刻"),
    not_("two_concealed_kongs", hand("567s 99m", "5s", ["ckong 2222m", "kong 8888p", "chow 345s"]),
         "明暗杠 无字", 6,
         "one kong exposed"),
    has("two_dragon_pungs", hand("123m 456m 99m", "9m", ["pung 555z", "pung 666z"]),
        "双箭刻 混一色 连六 单钓将", 14,
        "MCR72-65/88: 不计 箭刻"),
    not_("two_dragon_pungs", hand("123m 456m 99m", "9m", ["pung 444z", "pung 666z"]),
         "混一色 箭刻 连六 幺九刻 单钓将", 11,
         "North for White"),
    # ------------------------------------------------------------ 4
    has("outside_hand", hand("123s 999s 11p", "1p", ["chow 123m", "chow 789p"]),
        "全带幺 喜相逢 幺九刻 无字 单钓将", 8,
        "MCR72-66: a terminal in every set and the pair"),
    not_("outside_hand", hand("123s 999s 22p", "2p", ["chow 123m", "chow 789p"]),
         "喜相逢 幺九刻 无字 单钓将", 4,
         "a 2p pair"),
    has("fully_concealed_hand", hand("234m 567p 345s 678s 55p", "5p", self_drawn=True),
        "不求人 平和 断幺 连六", 9,
        "MCR72-67/88: concealed and self-drawn; 不计 门前清 自摸; waits 5p 8p"),
    not_("fully_concealed_hand", hand("234m 567p 345s 678s 55p", "5p"),
         "门前清 平和 断幺 连六", 7,
         "MCR72-71: won on a discard"),
    has("two_melded_kongs", hand("567s 99m", "5s", ["kong 2222m", "kong 8888p", "chow 345s"]),
        "双明杠 无字", 5,
        "MCR72-68/88: 不计 明杠"),
    not_("two_melded_kongs", hand("567s 99m", "5s", ["kong 2222m", "pung 888p", "chow 345s"]),
         "明杠 无字", 2,
         "MCR72-81: one of them a pung"),
    has("last_tile", hand(**CHICKEN, last_copy=True),
        "和绝张", 4,
        "MCR72-69: the fourth copy, three visible"),
    not_("last_tile", hand(**CHICKEN),
         "无番和", 8,
         "not the last copy"),
    # ------------------------------------------------------------ 2
    has("dragon_pung", hand("345s 678p 44p", "3s", ["chow 234m", "pung 777z"]),
        "箭刻", 2,
        "MCR72-70: not 幺九刻 as well"),
    not_("dragon_pung", hand("345s 678p 44p", "3s", ["chow 234m", "pung 777s"]),
         "断幺", 2,
         "MCR72-76: 7s for Red leaves only simples"),
    has("prevalent_wind", hand("345s 678p 44p", "3s", ["chow 234m", "pung 222z"], round="2z"),
        "圈风刻", 2,
        "a pung of the round's wind, not 幺九刻 as well"),
    not_("prevalent_wind", hand("345s 678p 44p", "3s", ["chow 234m", "pung 222z"], round="3z"),
         "幺九刻", 1,
         "MCR72-80: West round: a South pung is only 幺九刻"),
    has("seat_wind", hand("345s 678p 44p", "3s", ["chow 234m", "pung 222z"], seat="2z"),
        "门风刻", 2,
        "a pung of the seat's wind, not 幺九刻 as well"),
    not_("seat_wind", hand("345s 678p 44p", "3s", ["chow 234m", "pung 222z"], seat="3z"),
         "幺九刻", 1,
         "MCR72-80: West seat"),
    has("concealed_hand", hand("234m 345s 678p 999s 44p", "3s"),
        "门前清 幺九刻 无字", 4,
        "MCR72-71: nothing claimed, won on a discard"),
    not_("concealed_hand", hand("234m 345s 678p 999s 44p", "3s", self_drawn=True),
         "不求人 幺九刻 无字", 6,
         "MCR72-67: self-drawn makes it 不求人, which 不计 门前清"),
    has("all_chows", hand("345s 678p 789p 88m", "3s", ["chow 234m"]),
        "平和", 2,
        "MCR72-72: four chows and a number pair; 不计 无字"),
    not_("all_chows", hand("345s 678p 789p 44z", "3s", ["chow 234m"]),
         "无番和", 8,
         "an honour pair"),
    has("tile_hog", hand("222m 567p 345s 99s", "5s", ["chow 234m"]),
        "四归一 无字", 3,
        "MCR72-73: four 2m, not a kong"),
    not_("tile_hog", hand("555m 567p 345s 99s", "5s", ["chow 234m"]),
         "无字", 1,
         "555m for 222m: no tile held four times"),
    has("double_pung", hand("678s 123m 99s", "6s", ["pung 444m", "pung 444p"]),
        "双同刻 无字", 3,
        "pungs of 4 in two suits; waits 6s 9s"),
    not_("double_pung", hand("678s 123m 99s", "6s", ["pung 444m", "pung 555p"]),
         "无字", 1,
         "555p for 444p"),
    has("two_concealed_pungs", hand("555s 999p 22m", "2m", ["chow 234m", "chow 678p"]),
        "双暗刻 幺九刻 无字 单钓将", 5,
        "MCR72-74"),
    not_("two_concealed_pungs", hand("555s 999p 22m", "9p", ["chow 234m", "chow 678p"]),
         "幺九刻 无字", 2,
         "won on 9p discarded: that pung is not concealed"),
    has("concealed_kong", hand("456p 22m", "4p", ["ckong 5555s", "chow 234m", "chow 678p"]),
        "暗杠 断幺", 4,
        "MCR72-75"),
    not_("concealed_kong", hand("456p 22m", "4p", ["kong 5555s", "chow 234m", "chow 678p"]),
         "明杠 断幺", 3,
         "MCR72-81: the kong exposed"),
    has("all_simples", hand("345s 678p 567s 88m", "3s", ["chow 234m"]),
        "平和 断幺", 4,
        "MCR72-76: 2-8 only; 不计 无字"),
    not_("all_simples", hand("345s 678p 567s 99m", "3s", ["chow 234m"]),
         "平和", 2,
         "a 9m pair"),
    # ------------------------------------------------------------ 1
    has("pure_double_chow", hand("234m 567s 11z", "5s", ONE),
        "一般高", 1,
        "MCR72-77: 234m twice"),
    not_("pure_double_chow", hand("345m 567s 11z", "5s", ONE),
         "无番和", 8,
         "345m for the second 234m"),
    has("mixed_double_chow", hand("234s 567p 11z", "5p", ONE),
        "喜相逢", 1,
        "234 in two suits"),
    not_("mixed_double_chow", hand("345s 567p 11z", "5p", ONE),
         "无番和", 8,
         "345s for 234s"),
    has("short_straight", hand("567m 345s 11z", "5s", ONE),
        "连六", 1,
        "MCR72-78: 234m 567m"),
    not_("short_straight", hand("678m 345s 11z", "5s", ONE),
         "无番和", 8,
         "678m for 567m"),
    has("two_terminal_chows", hand("789m 345s 11z", "5s", ["chow 123m", "pung 888p"]),
        "老少副", 1,
        "MCR72-79: 123m 789m"),
    not_("two_terminal_chows", hand("678m 345s 11z", "5s", ["chow 123m", "pung 888p"]),
         "无番和", 8,
         "678m for 789m"),
    has("pung_of_terminals_or_honours", hand("345s 678p 44z", "3s", ["chow 234m", "pung 999p"]),
        "幺九刻", 1,
        "MCR72-80"),
    not_("pung_of_terminals_or_honours", hand("345s 567p 44z", "3s", ["chow 234m", "pung 888p"]),
         "无番和", 8,
         "888p for 999p"),
    has("melded_kong", hand("345s 567p 11z", "3s", ["chow 234m", "kong 8888p"]),
        "明杠", 1,
        "MCR72-81"),
    not_("melded_kong", hand("345s 567p 11z", "3s", ["chow 234m", "pung 888p"]),
         "无番和", 8,
         "a pung, not a kong"),
    has("one_voided_suit", hand("678m 345p 11z", "3p", ONE),
        "缺一门", 1,
        "no bamboo"),
    not_("one_voided_suit", hand("678s 345p 11z", "3p", ONE),
         "无番和", 8,
         "678s for 678m"),
    has("no_honours", hand("567s 345s 11s", "3s", ONE),
        "无字", 1,
        "no honour"),
    not_("no_honours", hand("567s 345s 11z", "3s", ONE),
         "无番和", 8,
         "an East pair"),
    has("edge_wait", hand("123s 567p 11z", "3s", ONE),
        "边张", 1,
        "MCR72-82: 12s waiting 3s only"),
    not_("edge_wait", hand("123s 567p 11z", "1s", ONE),
         "无番和", 8,
         "23s waiting 1s 4s"),
    has("closed_wait", hand("123s 567p 11z", "2s", ONE),
        "坎张", 1,
        "MCR72-83: 13s waiting 2s only"),
    not_("closed_wait", hand("455667s 11z", "6s", ONE),
         "无番和", 8,
         "MCR72-83: 45567 waiting 6 (also 3) is not 坎张"),
    has("single_wait", hand("567s 345s 11z", "1z", ONE),
        "单钓将", 1,
        "MCR72-84: East alone, waiting to pair it"),
    not_("single_wait", hand("22345s 567p", "2s", ONE),
         "断幺", 2,
         "2345s waits 2s and 5s: the pair 22s is not a single wait"),
    has("self_drawn", hand(**CHICKEN, self_drawn=True),
        "自摸", 1,
        "MCR72-86"),
    not_("self_drawn", hand(**CHICKEN),
         "无番和", 8,
         "won on a discard"),
    has("flower_tiles", hand(**CHICKEN, flowers=3),
        "无番和 花牌×3", 11,
        "MCR72-85: one fan a flower; they do not stop 无番和"),
    not_("flower_tiles", hand(**CHICKEN),
         "无番和", 8,
         "no flower"),
    has("concealed_kong_and_melded_kong", hand("567s 99m", "5s", ["kong 2222m", "ckong 8888p", "chow 345s"]),
        "明暗杠 无字", 6,
        "one exposed and one concealed kong (5, as PyMahjongGB); 不计 明杠 暗杠"),
    not_("concealed_kong_and_melded_kong", hand("567s 99m", "5s", ["kong 2222m", "kong 8888p", "chow 345s"]),
         "双明杠 无字", 5,
         "MCR72-68: both exposed"),
]

# Further cases for readings worth pinning.
MORE = [
    not_("nine_gates", hand("2344445678999m 5m", "5m"),
         "清一色 门前清 四归一 双暗刻 幺九刻", 31,
         "MCR72-34: concealed, one suit, and by shape 2344445678999m waits on all nine kinds, but only eight "
         "tiles (it holds every 4m): not 1112345678999; read 234 444 55 678 999"),
    has("melded_kong", hand("345s 567p 11z", "3s", ["chow 234m", "akong 8888p"]),
        "明杠", 1,
        "MCR72-81: an added kong (a pung and the fourth tile drawn) is a melded kong"),
    not_("robbing_the_kong", hand("345s 678p 44z", "3s", ["chow 234s", "pung 777s"], robbing_kong=True),
         "缺一门", 1,
         "MCR72-60: the winner holds another 3s, so nobody could have added a fourth 3s to a pung: the flag is "
         "not believed"),
    not_("last_tile", hand("345s 678p 44z", "4z", ["chow 234m", "pung 777s"], last_copy=True),
         "单钓将", 1,
         "MCR72-69: the winner held the other North himself, so at most two were visible: not 和绝张 whatever "
         "the flag"),
    has("last_tile", hand("789s 678p 44z", "7s", ["chow 234m", "pung 777s"]),
        "和绝张 边张 四归一", 7,
        "three 7s melded: the winning 7s is the last whatever the flag says; 89s waiting 7s only is 边张 "
        "(MCR72-82); the four 7s, not a kong, are 四归一 (MCR72-73)"),
    has("closed_wait", hand("45556s 123p", "5s", ONE),
        "坎张 无字", 2,
        "MCR72-83: 4556 waiting on 5 counts (its only winning tile)"),
    has("edge_wait", hand("789s 567p 11z", "7s", ONE),
        "边张", 1,
        "MCR72-82: 89s waiting 7s only"),
    has("seven_pairs", hand("1111m 22p 88p 33s 66s 77z", "7z"),
        "七对 四归一", 26,
        "MCR72-47: four of a kind as two pairs; 四归一 still counts (MCR72-73)"),
    has("knitted_straight", hand("147m 258p 369s 123m 55z", "5z"),
        "组合龙 门前清 单钓将", 15,
        "a knitted straight with a chow and a pair"),
    has("tile_hog", hand("222234333m 567p 99s", "9s"),
        "四归一×2 双暗刻 门前清 无字 单钓将", 10,
        "MCR72-73: four 2m and four 3m (222 234 333): 四归一 twice"),
]


def _ids(cases):
    seen: dict = {}
    out = []
    for c in cases:
        n = seen[c.id] = seen.get(c.id, 0) + 1
        out.append(c.id if n == 1 else f"{c.id}{n}")
    return out


ALL = CASES + MORE


def test_every_fan_has_a_positive_and_a_negative_case():
    table = {f.id for f in load("mcr").scoring.fans}
    covered = {(c.fan, c.has) for c in ALL}
    wanted = [(fid, h) for fid in table for h in (True, False)]
    missing = sorted(f"{fid}-{'has' if h else 'not'}" for fid, h in wanted if (fid, h) not in covered)
    assert not missing, f"fans without a case: {missing}"
    assert {c.fan for c in ALL} <= table, "a case names a fan that is not in the table"


def test_expectations_name_real_fans():
    names = {f.name.zh for f in load("mcr").scoring.fans}
    for c in ALL:
        assert set(parse_expect(c.expect)) <= names, c.id


@pytest.mark.parametrize("case", ALL, ids=_ids(ALL))
def test_fan(case: Case):
    """The case's fan is counted (-has) or not (-not); every fan counted, the
    total, and whether the hand may win (8 fan without flowers) as derived."""
    got = score(case.hand)
    fans = fans_of(got)
    zh = next(f.name.zh for f in load("mcr").scoring.fans if f.id == case.fan)
    note = f"{case.why}\n  got: {fans} = {got['total']}"
    if case.has:
        assert zh in fans, note
    else:
        assert zh not in fans, note
    assert fans == parse_expect(case.expect), note
    assert got["total"] == case.total, note
    flowers = fans.get("花牌", 0)
    assert got.get("win_allowed", True) == (case.total - flowers >= 8), note
