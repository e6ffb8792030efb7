"""Conditions and formulas of a variant as sentences, in English and
Chinese, generated from the expression tree (for the rulebook).

`sentence(source, options)` parses an expression the compiler accepted
(the compiled module keeps each one's source) and reads it aloud: facts by
their phrases below (or their vocabulary description), options by their
labels, tiles by name. Formulas stay formulas, with facts named in words.
"""

from __future__ import annotations

from compiler.expressions import BoolOp, Binary, Compare, Const, ExprError, IfExpr, ListExpr, Name, parse
from runtime import vocabulary as vocab
from runtime.ruleset import Text
from runtime.tiles import NAMES, ZH_NAMES

# fact -> (English, 中文): a true/false fact reads as a clause, a number as a noun
PHRASES = {
    "win.self_drawn": ("the win is self-drawn", "自摸"),
    "win.tile": ("the winning tile", "和牌张"),
    "win.robbing_kong": ("the win robs a kong", "抢杠胡"),
    "win.kong_replacement": ("the win is on a kong replacement", "杠上开花"),
    "win.kong_chain": ("kongs made in a row before the winning replacement", "连杠数"),
    "win.after_kong_discard": ("the win is on a discard made right after a kong", "杠后点炮"),
    "win.last_tile": ("the win is on the last tile", "海底"),
    "win.last_copy": ("the winning tile is the last copy", "和绝张"),
    "win.first_turn": ("the win is in the first go-around with no meld made", "首轮和牌且无人鸣牌"),
    "win.first_discard": ("the win is on the dealer's first discard", "和庄家第一张打出的牌"),
    "win.first_own_draw": ("the win is self-drawn with the winner's first tile", "以自己第一张牌自摸"),
    "win.completes_quad": ("the winning tile is the fourth of its kind in hand", "和牌张为手中第四张"),
    "win.waits": ("the number of tiles waited on", "听牌种数"),
    "win.shape_waits": ("the number of tiles that complete the shape", "成型听牌种数"),
    "win.can_be_closed": ("the winning tile can be read as a closed wait", "可作坎张"),
    "win.can_be_edge": ("the winning tile can be read as an edge wait", "可作边张"),
    "win.can_be_single": ("the winning tile can be read as a single wait", "可作单钓"),
    "win.closed": ("the winning tile is a closed wait", "坎张"),
    "win.edge": ("the winning tile is an edge wait", "边张"),
    "win.single": ("the winning tile completes the pair", "单钓将"),
    "win.two_sided": ("the winning tile is a two-sided wait", "两面听"),
    "win.dual_pung": ("the winning tile completes a pung", "对倒"),
    "winner.is_dealer": ("the winner is the dealer", "和牌者为庄家"),
    "winner.declared_ready": ("the winner declared ready", "和牌者已报听"),
    "winner.declared_at_opening": ("the winner declared ready at the opening", "和牌者开局报听"),
    "winner.seat_wind": ("the winner's seat wind", "门风"),
    "winner.doublings": ("the winner's doublings", "加倍次数"),
    "winner.streak": ("the dealer's streak", "连庄数"),
    "winner.bought": ("the winner's stakes", "和牌者买点"),
    "winner.horse_hits": ("the horses hitting the winner", "中马数"),
    "game.round_wind": ("the prevailing wind", "圈风"),
    "game.claims": ("the claims made by anyone", "全场吃碰杠数"),
    "game.melds": ("the sets laid down by anyone", "全场落地副露数"),
    "discarder.is_dealer": ("the discarder is the dealer", "点炮者为庄家"),
    "hand.concealed": ("the hand is concealed", "门前清"),
    "hand.number_suits": ("the number of suits", "花色数"),
    "hand.honours": ("the honour tiles", "字牌张数"),
    "hand.terminals": ("the terminal tiles", "幺九张数"),
    "hand.flowers": ("the flowers", "花牌数"),
    "hand.wilds": ("the wild tiles held", "鬼牌数"),
    "hand.concealed_quads": ("the kinds held four times in hand, not konged", "手中四张（未杠）种数"),
    "hand.hogs": ("the kinds held four times, not konged", "四归一数"),
    "hand.kinds": ("the kinds of tile held", "牌种数"),
    "hand.kinds_in": ("the kinds held among", "所含种数"),
    "hand.rank_span": ("the span of the numbers", "点数跨度"),
    "hand.only": ("every tile is among", "全部为"),
    "hand.any": ("some tile is among", "含有"),
    "hand.count": ("the copies held of", "所持张数"),
    "melds.count": ("the melds laid down", "副露数"),
    "melds.claimed": ("the melds made with others' tiles", "吃碰明杠数"),
    "melds.chows": ("the chows claimed", "吃牌数"),
    "melds.pungs": ("the pungs claimed", "碰牌数"),
    "melds.kongs": ("the kongs", "杠数"),
    "melds.concealed_kongs": ("the concealed kongs", "暗杠数"),
    "melds.exposed_kongs": ("the exposed kongs", "明杠数"),
    "melds.added_kongs": ("the added kongs", "补杠数"),
    "melds.special": ("the special sets laid down", "特殊杠数"),
    "shape.standard": ("the hand is four sets and a pair", "四组一对"),
    "shape.seven_pairs": ("the hand is seven pairs", "七对"),
    "shape.thirteen_orphans": ("the hand is thirteen orphans", "十三幺"),
    "shape.honours_and_knitted": ("the hand is honours and knitted tiles", "全不靠"),
    "shape.knitted_straight": ("the hand holds a knitted straight", "组合龙"),
    "shape.quads": ("the kinds held four times in seven pairs", "七对中四张种数"),
    "sets.chows": ("the chows", "顺子数"),
    "sets.pungs": ("the pungs and kongs", "刻子数"),
    "sets.kongs": ("the kongs among the sets", "杠子数"),
    "sets.concealed_pungs": ("the concealed pungs", "暗刻数"),
    "sets.pair": ("the pair", "将牌"),
    "sets.pungs_of": ("the pungs of", "刻子数，取自"),
    "sets.chows_of": ("the chows starting at", "顺子数，起于"),
    "sets.all_outside": ("every set and the pair hold a terminal or honour", "全带幺"),
    "sets.all_contain": ("every set and the pair hold one of", "每组均含"),
    "sets.has_pung": ("a pung of", "有刻子"),
    "sets.has_chow": ("a chow starting at", "有顺子起于"),
    "total": ("the hand's value", "番数"),
    "payer.is_discarder": ("the payer discarded the winning tile", "付款者点炮"),
    "payer.is_dealer": ("the payer is the dealer", "付款者为庄家"),
    "payer.declared_ready": ("the payer declared ready", "付款者已报叫"),
    "payer.bought": ("the payer's stakes", "付款者买点"),
    "winners": ("the number of winners", "和牌人数"),
    "seat.ready": ("the seat is ready", "已听牌"),
    "seat.declared_ready": ("the seat declared ready", "已报叫"),
    "seat.is_dealer": ("the seat is the dealer", "为庄家"),
    "seat.honour_run": ("the seat's run of honour discards", "连续打出字牌数"),
    "seat.distinct_honour_run": ("the seat's run of different honour discards", "连续打出不同字牌数"),
    "wall.remaining": ("the tiles left in the wall", "牌墙余牌"),
    "players": ("the number of players", "人数"),
    "follow.round": ("the follow-the-dealer round", "跟庄轮数"),
    "horse.share": ("the horse's share", "马的份额"),
    "kong.tile": ("the kong's tile", "杠牌"),
    "kong.kind": ("the kind of kong", "杠的种类"),
    "seat.suit_count": ("the tiles the seat holds of the suit", "所持花色张数"),
    "seat.won": ("the seat has won", "已和牌"),
    "seat.flowers": ("the flowers the seat has set aside", "花牌数"),
    "seat.flowers_held": ("the seat's flowers among", "所持花牌数"),
    "hand.suit_count": ("the tiles the hand holds of the suit", "该花色张数"),
    "hand.flowers_held": ("the flowers held among", "所持花牌数"),
    "hand.own_flowers": ("the player's own flowers", "正花数"),
    "hand.flower_sets": ("the complete sets of flowers", "花杠数"),
    "hand.own_flowers_outside_sets": ("the player's own flowers outside complete sets", "不成花杠的正花数"),
    "win.flower_replacement": ("the win is on a flower's replacement", "花上开花"),
    "dealer.streak": ("the dealer's streak", "连庄数"),
    "tile.suit": ("the tile's suit", "牌的花色"),
    "tile.rank": ("the tile's number", "牌的点数"),
    "tile.is_honour": ("the tile is an honour", "字牌"),
    "tile.is_flower": ("the tile is a flower", "花牌"),
    "tile": ("the tile", "该牌"),
}
# a count reads as "the number of ..."
for _name, (_en, _zh) in list(PHRASES.items()):
    _facts = [f for f in vocab.FACTS if f.name == _name]
    if _facts and _facts[0].type == vocab.INT and _en.startswith("the ") and not _en.startswith(("the number", "the hand's")) \
            and _name not in ("winner.doublings", "winner.streak", "winner.bought", "payer.bought", "follow.round", "horse.share",
                              "hand.rank_span"):
        PHRASES[_name] = ("the number of " + _en[4:], _zh)

_CMP_EN = {"==": "is", "!=": "is not", ">=": "is at least", "<=": "is at most", ">": "is more than", "<": "is less than",
           "in": "is one of", "not in": "is not one of"}
_CMP_ZH = {"==": "为", "!=": "不为", ">=": "至少为", "<=": "至多为", ">": "多于", "<": "少于", "in": "属于", "not in": "不属于"}
_OPS = {"+": "+", "-": "−", "*": "×", "//": "÷", "%": "mod", "**": "^"}


def sentence(source: str, options=(), zh: bool = False) -> str:
    """The expression `source` in words (English, or Chinese with zh)."""
    try:
        node = parse(source)
    except ExprError:
        return source
    return _Reader(options, zh).read(node)


def both(source: str, options=()) -> Text:
    return Text(sentence(source, options, zh=True), sentence(source, options))


class _Reader:
    def __init__(self, options, zh: bool):
        self.options = {o.id: o for o in options}
        self.zh = zh

    def read(self, node, top: bool = True) -> str:
        return getattr(self, "_" + type(node).__name__)(node)

    def _Const(self, node):
        if isinstance(node.value, bool):
            return ("总是" if node.value else "从不") if self.zh else ("always" if node.value else "never")
        if isinstance(node.value, str):
            return f"“{node.value}”"
        return str(node.value)

    def _TileConst(self, node):
        return "、".join(self._tile(t) for t in node.tiles) if self.zh else " ".join(NAMES[t] for t in node.tiles)

    def _tile(self, t: int) -> str:
        return f"{ZH_NAMES[t]}" if self.zh else NAMES[t]

    def _Name(self, node):
        path = node.path
        if path.startswith("options."):
            o = self.options.get(path[8:])
            if o is None:
                return path
            if o.type == "bool":
                return f"选项「{o.name.zh}」开启" if self.zh else f"the option “{o.name.en}” is on"
            return f"选项「{o.name.zh}」" if self.zh else f"the option “{o.name.en}”"
        if path in vocab.TILE_GROUPS:
            zh = {"terminals": "幺九", "honours": "字牌", "winds": "风牌", "dragons": "箭牌", "simples": "中张",
                  "characters": "万子", "dots": "筒子", "bamboo": "条子"}
            return zh.get(path, path) if self.zh else path
        if path.startswith("fans."):
            return f"「{path[5:]}」计数" if self.zh else f"the count of {path[5:]}"
        parts = path.split(".")
        if len(parts) == 3 and parts[1] == "choice":
            who = {"seat": ("the seat", "本家"), "winner": ("the winner", "和牌者"), "payer": ("the payer", "付款者")}.get(
                parts[0], (parts[0], parts[0]))
            return f"{who[1]}所定「{parts[2]}」" if self.zh else f"{who[0]}'s declared “{parts[2]}”"
        phrase = PHRASES.get(path)
        if phrase:
            return phrase[1] if self.zh else phrase[0]
        facts = [f for f in vocab.FACTS if f.name == path]
        if facts and not self.zh:
            return facts[0].doc.rstrip(".").lower()
        return path  # a definition of the variant (scoring.define), or a fact without a phrase

    def _Call(self, node):
        args = [self.read(a, False) for a in node.args]
        if node.func in ("min", "max", "abs"):
            words = {"min": ("最小值", "the least of"), "max": ("最大值", "the greatest of"), "abs": ("绝对值", "the size of")}[node.func]
            return f"{'、'.join(args)}的{words[0]}" if self.zh else f"{words[1]} {', '.join(args)}"
        phrase = PHRASES.get(node.func)
        if phrase:
            return f"{phrase[1]}{'、'.join(args)}" if self.zh else f"{phrase[0]} {', '.join(args)}"
        return f"{node.func}({', '.join(args)})"

    def _ListExpr(self, node):
        items = [self.read(i, False) for i in node.items]
        return "、".join(items) if self.zh else ", ".join(items)

    def _Unary(self, node):
        inner = self.read(node.operand, False)
        if node.op == "not":
            if isinstance(node.operand, (BoolOp, Compare)):
                return f"并非（{inner}）" if self.zh else f"not ({inner})"
            return f"非{inner}" if self.zh else f"not ({inner})"
        return f"−{inner}"

    def _Binary(self, node):
        left, right = self._operand(node.left, node.op), self._operand(node.right, node.op)
        return f"{left} {_OPS[node.op]} {right}"

    def _operand(self, node, op) -> str:
        text = self.read(node, False)
        if isinstance(node, (Binary, IfExpr, BoolOp)) and not (isinstance(node, Binary) and node.op in ("*", "**", "//") and op in ("+", "-")):
            return f"({text})"
        return text

    def _value_of(self, option: Name, node) -> str:
        """An option's value by its label: `options.gui_pai == 'bai_ban'` reads 白板做鬼."""
        o = self.options.get(option.path[8:]) if isinstance(option, Name) and option.path.startswith("options.") else None
        if o is not None and isinstance(node, Const):
            for v, label in zip(o.values, o.labels):
                if str(v) == str(node.value) and label.zh != str(v):
                    return f"「{label.zh}」" if self.zh else f"“{label.en}”"
        if o is not None and isinstance(node, ListExpr):
            return ("、" if self.zh else ", ").join(self._value_of(option, i) for i in node.items)
        return self.read(node, False)

    def _Compare(self, node):
        parts = [self.read(node.operands[0], False)]
        first = node.operands[0]
        for op, operand in zip(node.ops, node.operands[1:]):
            if isinstance(first, Name) and first.path.startswith("options."):
                words = _CMP_ZH[op] if self.zh else _CMP_EN[op]
                value = self._value_of(first, operand)
                parts.append(f"{words}{value}" if self.zh else f"{words} {value}")
                continue
            words = _CMP_ZH[op] if self.zh else _CMP_EN[op]
            parts.append(f"{words}{self.read(operand, False)}" if self.zh else f"{words} {self.read(operand, False)}")
        return "".join(parts) if self.zh else " ".join(parts)

    def _BoolOp(self, node):
        values = []
        for v in node.values:
            text = self.read(v, False)
            if isinstance(v, BoolOp) and v.op != node.op:
                text = f"（{text}）" if self.zh else f"({text})"
            values.append(text)
        if self.zh:
            return ("且" if node.op == "and" else "或").join(values)
        return f" {node.op} ".join(values)

    def _IfExpr(self, node):
        cond, then, other = self.read(node.cond, False), self.read(node.then, False), self.read(node.other, False)
        if self.zh:
            return f"若{cond}则{then}，否则{other}"
        return f"{then} if {cond}, else {other}"
