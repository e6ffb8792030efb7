"""A variant's rulebook in Markdown, written from its compiled module.

Everything here is read from the compiled `Ruleset` (and the sources its
compiled functions carry as docstrings), never from the YAML."""

from __future__ import annotations

import re

from runtime.ruleset import docstring
from runtime.tiles import ZH_NAMES, format_tiles

_PAYERS = {"discarder": "the discarder alone", "others": "every player who did not win"}
_DEALER = {
    "winner": "the winner deals",
    "next": "the dealer's next seat deals",
    "discarder": "the discarder deals",
    "discarder_next": "the discarder's next seat deals",
    "first_winner": "the first winner in turn order deals",
    "stay": "the dealer deals again",
}
_READY_KONG = {
    "never": "none",
    "same_waits": "only one that keeps the same waits",
    "same_waits_and_values": "only one that keeps the same waits and their values",
    "any": "any",
}
# Chinese beside the ids that label payments in a hand's result.
_REASONS = {
    "win": "胡",
    "kong": "杠",
    "horse": "马",
    "gen_zhuang": "跟庄",
    "lian_zhuang": "连庄",
    "jiang_ma": "奖马",
    "cha_jiao": "查叫",
    "table_fee": "台费",
}
_ZH_NUMBERS = "零一二三四五六七八九十"
_NAME = re.compile(r"[A-Za-z_][\w.]*")


def _source(fn) -> str:
    """The expression a compiled function was made from (its docstring's last part)."""
    return " ".join(docstring(fn).split()).split(": ")[-1]


_OPTIONS: tuple = ()  # the options of the ruleset being written, for the sentences' labels
_RS = None  # the ruleset being written
# where a value comes from (the variant's `source:` marks, compiler/provenance.py)
_MARKS = {"document": "the source document (原文)", "resolution": "a resolution of an ambiguity (释疑)",
          "house": "a house value (自定)", "": "not marked (未注)"}
_ORDER = ("document", "resolution", "house")


def _mark_of(rs, kind: str, key: str = "") -> str:
    p = rs.provenance or {}
    if kind in ("fans", "options") and key in p.get(kind, {}):
        return p[kind][key]
    section = {"fans": "scoring", "options": "options"}.get(kind, kind)
    return p.get("sections", {}).get(section, p.get("values", ""))


def _mark(rs, kind: str, key: str = "") -> str:
    """A fan's or option's mark, short, for a table."""
    return {"document": "原文 document", "resolution": "释疑 resolution", "house": "自定 house"}.get(_mark_of(rs, kind, key), "—")


def _from(rs, add, *sections) -> None:
    """The line under a section heading saying where its rules come from (the least certain of its parts)."""
    marks = [_mark_of(rs, s) for s in sections]
    known = [m for m in marks if m in _ORDER]
    worst = max(known, key=_ORDER.index) if known else ""
    add(f"*From: {_MARKS[worst]}" + (" for some of it; see the rules IDs" if worst != "document" and len(set(marks)) > 1 else "") + ".*")
    add("")


def _words(src: str) -> str:
    """A condition read aloud from its expression tree: English · 中文."""
    from .sentences import sentence

    en, zh = sentence(src, _OPTIONS), sentence(src, _OPTIONS, zh=True)
    return f"{en} · {zh}"


def _flag(value) -> str:
    """A condition: yes, no, or when its expression holds."""
    if callable(value):
        return f"when {_words(_source(value))}"
    return "yes" if value is True else "no" if value is False else str(value)


def _cond(value) -> str:
    """A condition as a trailing clause: nothing when it always holds."""
    return "" if value is True else f" ({_flag(value)})"


def _amount(value) -> str:
    """A number, or the formula a compiled function was made from."""
    if callable(value):
        return f"`{_source(value)}`"
    return str(value)


def _how(value, verb: str = "says") -> str:
    """A number or choice, or how an expression gives it: `as `x` says`, `by the formula `...``."""
    if not callable(value):
        return str(value)
    src = _source(value)
    if verb == "says" and not _NAME.fullmatch(src):
        return f"by the formula `{src}`"
    return f"as `{src}` {verb}"


def _count(value, noun: str) -> str:
    """How many of something: a number, or the expression that gives it."""
    if not callable(value):
        return f"{value} {noun}"
    src = _source(value)
    return f"as many {noun} as `{src}` " + ("says" if _NAME.fullmatch(src) else "gives")


def _reason(rs, reason: str) -> str:
    """A payment's label with its Chinese name where one is known."""
    zh = _REASONS.get(reason)
    if zh is None:
        named = [(r.id, r.name.zh) for r in rs.wall_rules] + [(m.reason, m.name.zh) for m in rs.payment_moves]
        zh = next((name for rid, name in named if rid == reason and name and name != reason), "")
    if not zh:
        zh = next((o.name.zh for o in rs.options if o.id == reason), "")
    return f"`{reason}` ({zh})" if zh else f"`{reason}`"


def _tile_names(tiles) -> str:
    return ", ".join(f"{format_tiles([t])} {ZH_NAMES[t]}" for t in tiles)


def _sources(rs) -> list[str]:
    """Every settlement formula the ruleset states, to find the facts they read."""
    s = rs.settlement
    out = [s.amount_source] + [src for _, _, src in s.extras]
    out.extend(r.amount_source for r in rs.wall_rules if r.amount_source)
    return out


def rulebook(rs) -> str:
    global _OPTIONS, _RS
    _OPTIONS, _RS = rs.options, rs
    lines: list[str] = []
    add = lines.append
    add(f"# {rs.title.zh} ({rs.title.en})")
    add("")
    if rs.summary:
        add(rs.summary)
        add("")
    add(f"Compiled from `{rs.source}` (SHA-256 `{rs.source_sha256[:16]}…`)." + (f" Rules: `docs/rules/{rs.rules_file}`." if rs.rules_file else ""))
    if rs.parents:
        add(f"It extends {', then '.join(f'`{p}`' for p in rs.parents)}; this rulebook shows the merged ruleset.")
    if rs.provenance:
        add("Every fan, option and section says where it comes from: the source document (原文), a resolution of an ambiguity"
            " or a gap in it (释疑: the rules file's proposed resolutions), or a house value the studio chose (自定).")
    add("")
    _tiles_section(rs, add)
    _options_section(rs, add)
    if rs.wilds is not None:
        _wilds_section(rs, add)
    _opening_section(rs, add)
    _turns_section(rs, add)
    _winning_section(rs, add)
    _fan_section(rs, add)
    _settlement_section(rs, add)
    if rs.horses is not None:
        _horses_section(rs, add)
    if rs.follow_dealer is not None:
        _follow_section(rs, add)
    _dealer_section(rs, add)
    add("## Verbs")
    add("")
    for verb in rs.verbs:
        zh, text = verb_help(rs, verb)
        if verb == "take" and callable(rs.face_up_tail):
            text += f" Only where the face-up tail is turned ({_how(rs.face_up_tail)})."
        add(f"- **{verb}** ({zh}): {text}")
    add("")
    return "\n".join(lines)


# ------------------------------------------------------------ tiles and options


def _tiles_section(rs, add) -> None:
    add("## Tiles and players (牌与人数)")
    add("")
    if rs.provenance:
        _from(rs, add, "tiles", "deal", "wall", "players")
    numbered = [t for t in rs.tile_kinds if t < 34]
    flowers = [t for t in rs.tile_kinds if t >= 34]
    total = len(numbered) * rs.copies + len(flowers)
    add(f"- Players: {', '.join(map(str, rs.players))} (default {rs.default_players}).")
    add(f"- Tiles: {format_tiles(numbered)}, {rs.copies} of each" + (f"; flowers (花牌) {format_tiles(flowers)}, one each" if flowers else "") + f": {total} tiles.")
    if flowers:
        add("- Flowers (补花): after the deal the dealer, then each other player in turn, sets his flowers aside and replaces them from the end of the wall; a flower drawn later is set aside and replaced at once. A replacement that is a flower is replaced again.")
    add(f"- Deal: the dealer (庄家) {rs.dealer_tiles} tiles, the others {rs.other_tiles}.")
    if rs.reserved_tail:
        add(f"- Tiles set aside at the end of the wall, never drawn (kong replacements come from just before them): {_how(rs.reserved_tail)}.")
    if rs.left_undrawn:
        add(f"- Tiles left undrawn: {_how(rs.left_undrawn)}; the hand ends drawn (流局) when that many tiles are left; kong replacements still come from the wall's end.")
    if rs.face_up_tail:
        only = " Only at tables where that gives more than 0 (otherwise replacements come from the tail and there is no `take`)." if callable(rs.face_up_tail) else ""
        add(f"- Tail tiles turned face up: {_how(rs.face_up_tail)}. A kong's replacement is the player's choice among them (`take`); another is turned after each take; no kong once no face-down tile is left to turn.{only}")
    for tiles, when in rs.removals:
        add(f"- {format_tiles(tiles)} removed: {_flag(when)}.")
    if rs.stakes is not None:
        add(f"- Stakes (买点) bought by every seat before the deal ({_flag(rs.stakes.when)}): {', '.join(map(str, rs.stakes.values))}.")
    add("")


def _options_section(rs, add) -> None:
    add("## Options (选项)")
    add("")
    add("| id | 中文 | English | values | default | rule | from |")
    add("| --- | --- | --- | --- | --- | --- | --- |")
    for o in rs.options:
        if not o.advanced:
            add(_option_row(o) + f" {o.rule} | {_mark(_RS, 'options', o.id)} |")
    advanced = [o for o in rs.options if o.advanced]
    if advanced:
        add("")
        add("House rules (proposed resolutions a studio may switch):")
        add("")
        add("| id | 中文 | English | values | default | rule | from |")
        add("| --- | --- | --- | --- | --- | --- | --- |")
        for o in advanced:
            add(_option_row(o) + f" {o.rule} | {_mark(_RS, 'options', o.id)} |")
    noted = [o for o in rs.options if o.doc]
    if noted:
        add("")
        for o in noted:
            add(f"- `{o.id}` ({o.name.zh}): {o.doc}")
    for c in rs.constraints:
        add("")
        add(f"- Constraint: {c.message.both()} (it holds when {_words(c.source)}).")
    add("")


def _wilds_section(rs, add) -> None:
    w = rs.wilds
    add("## Wild tiles (鬼牌)")
    add("")
    if rs.provenance:
        _from(rs, add, "wilds")
    for tiles, when in w.fixed:
        verb = "is" if len(tiles) == 1 else "are"
        add(f"- {_tile_names(tiles)} {verb} wild (鬼牌){'' if when is True else ' ' + _flag(when)}.")
    if w.indicator is not False:
        order = " → ".join(f"{format_tiles([t])} {ZH_NAMES[t]}" for t in w.honour_order)
        add(
            f"- Turned indicator (翻鬼){'' if w.indicator is True else ', ' + _flag(w.indicator)}: after the deal the last tile of the wall"
            " is turned face up and taken out of play; the kind after it (its successor) is wild for the hand."
            " In a suit the successor is the next number, 9 going round to 1, kinds out of play skipped;"
            f" among honours it follows the order {order}, then round to the first again (kinds out of play left out)."
        )
    add("- A wild in the concealed hand stands for any tile when the hand is checked and valued for a win, each wild counted as the tile that scores best; `hand.wilds` counts the wilds a winning hand holds, melds included. Claims (pung, kong, chow) need the real tiles.")
    if w.win_with_count and w.win_with_when is not False:
        count = w.win_with_count
        zh = _ZH_NUMBERS[count] if count < len(_ZH_NUMBERS) else str(count)
        add(f"- {zh}鬼胡牌 ({count} wilds win){'' if w.win_with_when is True else ', ' + _flag(w.win_with_when)}: a player holding {count} wild tiles may win by self-draw whatever the shape of his hand, valued as it stands (the win conditions still apply).")
    add("")


# ------------------------------------------------------------ play


def _turns_section(rs, add) -> None:
    add("## Turns and claims (出牌与吃碰杠)")
    add("")
    if rs.provenance:
        _from(rs, add, "claims", "kongs", "ready")
    c, k, r = rs.claims, rs.kongs, rs.ready
    add(f"- Chow (吃): {_flag(c.chow)}. Pung (碰): {_flag(c.pong)}. Exposed kong on a discard (明杠): {_flag(c.kong)}. Win on a discard (点炮胡): {_flag(c.hu)}.")
    # only the claims this variant has (a claim tied to an option is listed with it)
    exists = {"chow": c.chow, "pong": c.pong, "kong": c.kong, "hu": c.hu}
    levels = [[v for v in level if exists.get(v, True) is not False] for level in c.priority]
    add("- Priority: " + " > ".join(" = ".join(level) for level in levels if level) + "; ties go to the first seat after the discarder.")
    add(f"- Several winners on one discard (一炮多响): {_flag(c.multiple_winners)}.")
    add(f"- Claims on the last discard of an exhausted wall: {', '.join(c.last_discard) or 'none'}.")
    add(f"- Robbing a kong (抢杠胡, {', '.join(c.rob_kinds)}): {_flag(c.rob_when)}; settled as {_rob_settled(c.rob_counts_as)}.")
    add(f"- A possible win must be taken (必胡): {_flag(c.must_win)}.")
    if c.join_wins is not False:
        add(f"- One seat's win on a discard carries every seat that could win on it: {_flag(c.join_wins)}.")
    for p in c.pass_rules:
        scope = "the same tile" if p.same_tile else "any tile"
        more = ", unless the new win is worth more" if p.unless_worth_more else ""
        until = "draw" if p.until_draw else "draw or claim"
        zh = {"hu": " (过胡)", "pong": " (过碰)"}.get(p.claim, "")
        add(f"- After passing a {p.claim}{zh}, no {p.claim} on {scope} until the player's own next {until}{more} ({_flag(p.when)}).")
    add(f"- Kongs (杠): concealed (暗杠) {_flag(k.concealed)}, added (补杠) {_flag(k.added)}, in the turn of a pung {_flag(k.in_pung_turn)}, again after a replacement {_flag(k.chain)}. " + ("Replacements are the face-up tail tiles." if rs.face_up_tail else "Replacements come from the tail."))
    if k.show_concealed:
        add("- A concealed kong (暗杠) shows one of its tiles to the other players.")
    if r.declare != "none":
        when = "only with the starting hand" if r.declare == "opening" else "with the starting hand (before the dealer's first discard) or with any discard"
        offered = f" ({_flag(r.when)})" if r.when is not True else ""
        kong = _READY_KONG.get(r.kong, r.kong.replace("_", " "))
        if r.kong_ignores and r.kong in ("same_waits_and_values",):
            kong += f" (values compared without {', '.join(r.kong_ignores)})"
        add(f"- Declaring ready (报叫/报听){offered}: {when}. Afterwards the hand is locked ({_flag(r.locks_hand)}), no {', '.join(r.forbids)}, kongs: {kong}.")
    if rs.observation is not None:
        add(f"- A player who declared ready sees the other players' concealed tiles: {_flag(rs.observation.ready_player_sees_opponent)}.")
    for sp in rs.special_sets:
        groups = " or ".join(format_tiles(g) for g in sp.groups)
        when = "before his first discard" if sp.declare == "opening" else "at any turn"
        how = "like a kong, with a replacement from the tail" if all(len(g) == 4 for g in sp.groups) else "with no replacement" if all(len(g) == 3 for g in sp.groups) else "a four-tile group with a replacement, a three-tile one without"
        counts = "a kong among the hand's sets" if sp.counts_as == "kong" else "a set of its own (neither chow nor pung)"
        paid = f"; each other player pays {_amount(sp.payment)}" if sp.payment else ""
        cond = f" ({_flag(sp.when)})" if sp.when is not True else ""
        add(f"- {sp.name.both()} (`{sp.id}`{', ' + sp.rule if sp.rule else ''}){cond}: {groups}, laid down {when} {how}; it counts as {counts}{paid}.")
    add(f"- Automatic play (托管), for a player whose time runs out, takes every win the rules allow: {_flag(rs.autoplay_wins)}; otherwise it passes claims and discards the tile just drawn.")
    add("")


def _opening_section(rs, add) -> None:
    add("## The opening (开局)")
    add("")
    add("Before the dealer's first discard, in this order:")
    add("")
    for i, step in enumerate(rs.opening, 1):
        add(f"{i}. {_opening_step(rs, step)}")
    add("")
    if rs.restrictions:
        for r in rs.restrictions:
            what = []
            if r.discard_first:
                what.append("while he holds one, his discard must be one of them")
            if r.forbids:
                what.append(f"he may not {' or '.join(r.forbids)} with one")
            if r.no_win:
                what.append("a hand holding one cannot win and is not ready")
            why = f" ({r.why.both()})" if r.why.zh else ""
            add(f"- The tiles for which `{r.tiles_source}` holds{why}: " + "; ".join(what) + (f" ({r.rule})." if r.rule else "."))
        add("")


def _opening_step(rs, step) -> str:
    cond = _cond(step.when)
    rule = f" ({step.rule})" if step.rule else ""
    if step.kind == "deal":
        return f"The deal: the dealer takes {rs.dealer_tiles} tiles, every other player {rs.other_tiles}; each sees only his own."
    if step.kind == "stakes":
        values = ", ".join(map(str, rs.stakes.values)) if rs.stakes else ""
        return f"Stakes (买点): every player buys one of {values} (verb `buy`), before he sees his tiles where this comes before the deal."
    if step.kind == "flowers":
        return "Flowers (补花): every flower dealt is set aside face up and replaced from the end of the wall, the dealer first, then the others in turn order; a flower drawn later is replaced at once."
    if step.kind == "ready":
        return "Ready declarations: a player other than the dealer whose hand waits may declare ready (`ready`) or pass."
    if step.kind == "exchange":
        suit = "all of one suit" if step.same_suit else "any tiles"
        ways = {"next": "to the next player", "previous": "to the previous player", "across": "across the table"}
        if len(step.directions) == 1:
            way = ways[step.directions[0]]
        else:
            way = "in one direction drawn from the hand's seed with equal chance: " + ", ".join(ways[d] for d in step.directions)
        return (f"{step.name.both() or 'Exchange'}{cond}{rule}: every player chooses {step.tiles} tiles, {suit} "
                f"(`exchange T1T2T3`), face down; when all have chosen they all move at once, {way}. A player sees "
                "the tiles he gives and receives, no other player's. Automatic play passes the lowest tiles of the "
                "suit it holds fewest of that holds enough (ties to the later of 万, 筒, 条).")
    values = "a suit: " + ", ".join({"m": "m (万)", "p": "p (筒)", "s": "s (条)"}[s] for s in "mps" if s in _suits(rs)) \
        if step.choices_are_suits else ", ".join(f"`{v}`" for v in step.choices)
    auto = "the suit it holds fewest of (ties to the later of m, p, s)" if step.auto == "fewest_suit" else "the first value"
    return (f"{step.name.both() or step.id}{cond}{rule}: every player chooses {values} (`{step.id} VALUE`); the choices "
            f"are shown together once all have chosen and stay public (`seat.choice.{step.id}`). Automatic play chooses {auto}.")


def _suits(rs) -> str:
    return "".join(s for i, s in enumerate("mps") if any(9 * i <= t < 9 * i + 9 for t in rs.tile_kinds))


def _rob_settled(value) -> str:
    names = {"discard": "a discard win (`discard`)", "self_draw": "a self-draw (`self_draw`)"}
    if callable(value):
        return f"{names['discard']} or {names['self_draw']}, {_how(value, 'chooses')}"
    return names.get(value, f"`{value}`")


def _winning_section(rs, add) -> None:
    add("## Winning (胡牌)")
    add("")
    if rs.provenance:
        _from(rs, add, "winning")
    w = rs.winning
    sets = (rs.other_tiles - 1) // 3
    shapes = [f"{['no', 'one', 'two', 'three', 'four', 'five', 'six'][sets] if sets < 7 else sets} sets and a pair"] if w.standard else []
    if w.seven_pairs:
        shapes.append("seven pairs (七对)" + (" (four of a kind counts as two pairs)" if w.quads_as_two_pairs else ""))
    if w.thirteen_orphans:
        shapes.append("thirteen orphans (十三幺)")
    if w.honours_and_knitted:
        shapes.append("honours and knitted tiles (全不靠: fourteen different tiles, honours and tiles of a knitted straight)")
    if w.knitted_straight:
        shapes.append("a knitted straight (组合龙) with one more set and a pair")
    add(f"- Shapes: {'; '.join(shapes)}.")
    if w.allowed_source:
        add(f"- A complete hand may win only when {_words(w.allowed_source)}" + (f": {w.why_not.both()}" if w.why_not.zh else "") + ".")
    if w.double is not False:
        add(f"- 加倍: a player who could win may `double` instead, forgoing this win; each doubling doubles his multiplier (`winner.doublings`), applied only if he wins ({_flag(w.double)}).")
    for h in rs.history_wins:
        add(f"- {h.name.both()}: the discarder wins when {_words(h.when_source)} after nobody claims his discard; the hand is not examined, it counts {', '.join(h.fans)}, settled as a self-draw.")
    add("")


# ------------------------------------------------------------ fans


def _fan_section(rs, add) -> None:
    sc = rs.scoring
    unit = sc.unit_name.both()
    if callable(sc.combine):
        add(f"## Fan table (番表; {unit}, added or multiplied)")
        add("")
        add(f"Fans are combined by addition (`add`) or multiplication (`multiply`), {_how(sc.combine, 'chooses')}.")
    else:
        combine = {"add": "addition", "multiply": "multiplication"}.get(sc.combine, f"`{sc.combine}`")
        add(f"## Fan table (番表; {unit}, combined by {combine})")
        add("")
    add("The hand is valued under every way of reading it and the best total is kept.")
    if sc.prefer:
        add(f"On equal totals, a reading that counts {' or '.join(sc.prefer)} is kept.")
    cap = ""
    if sc.cap:
        cap = f"at {sc.cap}" if not callable(sc.cap) else f"{_how(sc.cap)} (0: no cap)"
    if sc.final_source:
        add(f"The total is then `{sc.final_source}`" + (f", capped {cap}" if cap else "") + ".")
    elif cap:
        add(f"The total is capped {cap}.")
    if sc.exclusion == "listed":
        add("A counted fan excludes exactly the fans it lists (不计); a fan that is itself excluded excludes nothing.")
    else:
        add("A fan excludes the fans it lists and, through them, those they exclude.")
    if any(f.sets is not None for f in sc.fans):
        if sc.set_principle == "account_once":
            add("Fans over groups of sets (组合番) follow 套算一次: the largest matching group counts first, each set left over combines once more with its best fan over a pair, identical fans dropped first when there are too many.")
        else:
            add(f"Fans over groups of sets (组合番) follow `{sc.set_principle}`" + (": every matching group counts, whatever sets it shares." if sc.set_principle == "each_group" else "."))
    add("")
    add("| id | 中文 | English | value | when | counted | excludes | rule | from |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for f in sc.fans:
        add(f"| {f.id} | {f.name.zh} | {f.name.en} | {_amount(f.value)} | {_fan_when(f)} | {_fan_counted(f)} | {_fan_excludes(f)} | {f.rule} | {_mark(_RS, 'fans', f.id)} |")
    noted = [f for f in sc.fans if f.doc]
    if noted:
        add("")
        for f in noted:
            add(f"- {f.id} ({f.name.zh}): {f.doc}")
    add("")


def _fan_when(f) -> str:
    parts = [] if f.when_source == "true" and (f.sets is not None or f.each is not None) else [_words(f.when_source)]
    if f.sets is not None:
        parts.append(_pattern(f.sets))
    if f.each is not None:
        parts.append(f"a {f.each[0]} of `{_source(f.each[1])}`")
    return "; ".join(parts)


def _fan_counted(f) -> str:
    if f.each is not None:
        counted = f"once per such {f.each[0]}"
    else:
        counted = f"as many times as {_words(f.count_source)}" if f.count_source else "once"
    if f.alone:
        counted += ", only when no other fan counts"
    if f.bonus:
        counted += ", a bonus (it does not stop a fan counted alone)"
    return counted


def _fan_excludes(f) -> str:
    parts = list(f.excludes)
    parts += [f"{fid} ({'once' if n == 1 else f'{n} times'})" for fid, n in f.excludes_times]
    parts += [f"{fid} on its sets" for fid in f.excludes_sets]
    return ", ".join(parts)


def _pattern(p) -> str:
    """A set pattern in words: how many chows or pungs and how they relate."""
    kind = "pungs or kongs" if p.kind == "pung" else "chows"
    text = f"{p.size} {kind}"
    if p.tiles is not None:
        return f"{text} of different tiles among {format_tiles(p.tiles)}"
    if p.suits == "same":
        text += " in one suit"
    elif p.suits == "different":
        text += " in different suits"
    if p.ranks:
        text += f", ranks {', '.join(map(str, p.ranks))}" + (" (lowest numbers)" if p.kind == "chow" else "")
    if p.steps:
        steps = " or ".join(map(str, p.steps))
        text += ", of the same rank" if p.steps == (0,) else f", ranks going up evenly by {steps}"
    return text


# ------------------------------------------------------------ settlement


def _settlement_section(rs, add) -> None:
    add("## Settlement (结算)")
    add("")
    if rs.provenance:
        _from(rs, add, "settlement")
    s = rs.settlement
    if callable(s.discard_payers):
        discard = f"{_PAYERS['discarder']} (`discarder`) or {_PAYERS['others']} (`others`), {_how(s.discard_payers, 'chooses')}"
    else:
        discard = _PAYERS.get(s.discard_payers, f"`{s.discard_payers}`")
    add(f"- Discard win (点炮): paid by {discard}. Self-draw (自摸): paid by {_PAYERS.get(s.self_draw_payers, s.self_draw_payers)}.")
    add(f"- Each payer pays each winner `{s.amount_source}` (payments labelled {_reason(rs, 'win')}).")
    for reason, _, src in s.extras:
        add(f"- Extra line {_reason(rs, reason)}: each payer also pays each winner `{src}` (nothing when it is 0).")
    if s.self_draw_when_source:
        add(f"- A discard win is settled as a self-draw when {_words(s.self_draw_when_source)}.")
    for rule in s.liable:
        who = "the discarder (or robbed player)" if rule.who == "discarder" else "the player who fed the kong"
        add(f"- When `{rule.source}`, {who} pays every payer's share (包).")
    kp = rs.kong_payments
    if kp is not None:
        timing = {"immediate": "as soon as the kong stands", "at_end": "with the hand's win", "owner_wins": "only if the kong's owner wins"}.get(kp.timing, kp.timing)
        parts = "; ".join(f"{kind}: {_amount(amount)} from {'the discarder' if who == 'discarder' else 'each other player'}" for kind, who, amount in kp.rules)
        add(f"- Kongs (杠钱) are paid {timing} ({parts}; labelled {_reason(rs, kp.reason)})" + (f"; also at an exhausted wall: {_flag(kp.at_draw)}" if kp.timing == "at_end" else "") + ".")
    if s.table_fee:
        add(f"- Table fee (台费): every player pays the house {_amount(s.table_fee)} each hand, win or draw.")
    for m in rs.payment_moves:
        add(f"- {m.name.both() or m.reason}: when a win holds ({_words(m.when_source)}), what the discarder's latest kong collected (and he still holds) passes from him to the first winner in turn order after him (labelled {_reason(rs, m.reason)}).")
    who = "the players who have not won" if rs.hand_end.winners != "end" else "every player"
    if rs.wall_rules:
        add(f"- Exhausted wall (流局), in this order, among {who}:")
        for r in rs.wall_rules:
            add("  - " + _wall_rule_text(rs, r))
    else:
        add("- Exhausted wall (流局): nothing is paid for the hands themselves.")
    add("")


def _wall_rule_text(rs, r) -> str:
    name = r.name.both() if r.name.zh != r.id else r.id
    if r.kind == "refund":
        return (f"{name}{_cond(r.when)}: every player taking part of whom this holds — {_words(r.by_source)} — returns "
                f"the payments labelled {_reason(rs, r.refund)} he received this hand, and still holds, to those who paid "
                f"them, if they take part (labelled {_reason(rs, r.id)}).")
    pays = (f"every other player taking part of whom this holds — {_words(r.pays_source)} —" if r.pays_source
            else "every other player taking part")
    ignore = f" without {', '.join(r.ignore_fans)}" if r.ignore_fans else ""
    uses_total = "total" in r.amount_source
    value = (f", `total` being his best wait valued as a discard win{ignore}, capped as a hand's total is" if uses_total else "")
    return (f"{name}{_cond(r.when)}: a player collects when {_words(r.collects_source)}; {pays} pays "
            f"him `{r.amount_source}`{value} (labelled {_reason(rs, r.id)}).")


def _seat_label(offset: int, n: int) -> str:
    if offset == 0:
        return "dealer (庄家)"
    if n == 2:
        return "the other player (对家)"
    if offset == 1:
        return "dealer's next (下家)"
    if offset == n - 1:
        return "dealer's previous (上家)"
    if n == 4 and offset == 2:
        return "dealer's opposite (对家)"
    return f"dealer + {offset}"


def _horses_section(rs, add) -> None:
    hs = rs.horses
    kinds = [zh for zh, value in (("买马", hs.bought_each), ("罚马", hs.bought_dealer), ("奖马", hs.reward)) if value]
    add("## Horses (马" + (": " + ", ".join(kinds) if kinds else "") + ")")
    add("")
    add("A horse (马) is a tile that points at a seat, counted from the dealer, by the table for the number of players:")
    add("")
    for n in sorted(hs.seats, reverse=True):
        per_seat = "; ".join(f"{_seat_label(off, n)} {format_tiles(tiles)}" for off, tiles in enumerate(hs.seats[n]))
        add(f"- {n} players: {per_seat}.")
    add("")
    if hs.bought_each:
        add(f"- Bought horses (买马): before the deal every player buys {_count(hs.bought_each, 'horses')}.")
    if hs.bought_dealer:
        add(f"- Penalty horses (罚马): before the deal the dealer alone buys {_count(hs.bought_dealer, 'horses')}" + (", on top of his bought ones" if hs.bought_each else "") + ".")
    if hs.bought_each or hs.bought_dealer:
        add("- Bought horses are dealt from a second set of all the tiles, shuffled apart from the wall, the dealer first and then round the table.")
        pay = "the share itself" if hs.amount is None else _amount(hs.amount) + " (`horse.share` being the share it repeats)"
        add(
            f"- How a bought horse pays: it repeats the `{hs.mirror}` shares of the seat it points at. Pointing at a winner, its owner"
            " collects from each of that winner's payers (but himself); pointing at a player who pays a winner, its owner pays that"
            f" winner too (unless the owner is the winner). Each time it pays or collects {pay}; payments labelled {_reason(rs, hs.reason)}."
        )
        add("- At an exhausted wall bought horses pay nothing.")
    if hs.reward:
        hits = [(reason, src) for reason, _, src in rs.settlement.extras if "horse_hits" in src]
        paid = "; ".join(f"extra line {_reason(rs, reason)}: `{src}`" for reason, src in hits)
        add(
            f"- Reward horses (奖马): the last tiles of the wall, {_count(hs.reward, 'tiles')}, are set aside, never drawn (kong replacements come"
            " from just before them). After a win they are turned; each that points at a winner is a hit for him (`winner.horse_hits`)"
            + (f", paid by the settlement's {paid}" if paid else "")
            + ". They are not turned at an exhausted wall."
        )
    add("- Marks: the hand's result lists every horse turned over (`horses`: tile, bought or reward, owner, seat). A bought horse is marked `won` when it points at a winner, `lost` when it points at a player who paid the win (on a discard win, the discarder alone), `none` otherwise; a reward horse is `won` or `none`. At an exhausted wall every bought horse is `lost`.")
    add("")


def _follow_section(rs, add) -> None:
    fd = rs.follow_dealer
    add("## Follow the dealer (跟庄)")
    add("")
    if rs.provenance:
        _from(rs, add, "follow_dealer")
    add(f"- Played: {_flag(fd.when)}.")
    add(
        "- When the dealer discards a tile and every other player, in turn, discards the same tile, with no claim, kong or special"
        f" set in between, that is a round of following: the dealer at once pays each other player `{fd.amount_source}`"
        f" (`follow.round` is the round just completed: 1 for the first, 2 for the second, …); payments labelled {_reason(rs, fd.reason)}."
    )
    add("- Following goes on with the dealer's next discard; another tile, or any claim or kong, ends it for the hand. Its payments stand however the hand ends.")
    add("")


def _end_section(rs, add) -> None:
    he = rs.hand_end
    if he.winners == "end":
        return
    add("## The end of a hand (结束)")
    add("")
    resume = ("the first player still in after the winner (after several winners on one discard, after the last of "
              "them in turn order from the discarder)") if he.resume == "after_last_winner" else "the first player still in after the discarder"
    if he.winners == "leave":
        until = he.until_in if not callable(he.until_in) else _how(he.until_in)
        add(f"- A winner lays his hand face up and leaves the hand: he draws, discards and claims no more, and pays and collects nothing more this hand. Play goes on from {resume}.")
        add(f"- The hand ends when only {until} player{'s are' if until != 1 else ' is'} still in, or when the wall is exhausted.")
    else:
        kong = _READY_KONG.get(he.locked_kong, he.locked_kong)
        add(f"- A winner stays in: his winning tile is set aside face up, so his hand keeps its waits, and he may win again. From his first win he keeps his hand: at each turn he wins, makes a kong ({kong}), or discards the tile he drew; he may no longer {' or '.join(he.locked_forbids)}. Play goes on from {resume}.")
        add("- The hand ends only when the wall is exhausted.")
    add("- Each win is paid when it happens, by the players still in the hand; at an exhausted wall only the players who have not won take part. The result lists every win in order (`wins`).")
    add("")


def _dealer_section(rs, add) -> None:
    _end_section(rs, add)
    add("## Dealer and match (庄家与局数)")
    add("")
    if rs.provenance:
        _from(rs, add, "dealer", "match")
    d = rs.dealer
    add(f"- First dealer: {'drawn at random' if d.first == 'random' else 'seat ' + d.first}.")
    if d.creator_deals is not False:
        add(f"- The room's creator (seat 0) deals the first hand (开房者坐庄): {_flag(d.creator_deals)}.")
    whens = {"dealer_wins": "after the dealer's own win", "several_winners": "after several winners on one discard",
             "win": "after a win", "draw": "after an exhausted wall", "any": "after every hand"}
    deals = {"dealer": "the dealer deals again (连庄)", "next": "the dealer's next seat deals", "winner": "the winner deals (of several, the first in turn order from the discarder)",
             "discarder": "the discarder deals", "discarder_next": "the discarder's next seat deals"}
    rules = "; otherwise ".join(f"{whens[a]}, {deals[b]}" for a, b in d.next)
    add(f"- Next dealer, the first rule that fits: {rules}." + (" Where wins do not end the hand, its first win decides." if rs.hand_end.winners != "end" else ""))
    if d.may_repeat is not True:
        add(f"- The dealer may deal twice in a row: {_flag(d.may_repeat)}.")
    if rs.prevailing_wind == "by_round":
        add("- Prevailing wind (圈风): East for the first round of hands (as many hands as players), then South, West, North, and East again.")
    else:
        add("- Prevailing wind (圈风): East for the whole match.")
    add(f"- Hands in a match: {_how(rs.hands)}.")
    streak = [src for src in _sources(rs) if "winner.streak" in src]
    if streak:
        add("")
        add("### Dealer streak (连庄)")
        add("")
        add("- The dealer's streak counts the hands in a row after which he kept the deal; it is 0 for a new dealer. `winner.streak` is that count when the receiving player is the dealer, 0 otherwise.")
        lines = [f"extra line {_reason(rs, reason)}: `{src}`" for reason, _, src in rs.settlement.extras if "winner.streak" in src]
        if "winner.streak" in rs.settlement.amount_source:
            lines.insert(0, f"the win's amount `{rs.settlement.amount_source}`")
        if lines:
            add(f"- The streak is paid through {'; '.join(lines)} (see Settlement).")
    add("")


# ------------------------------------------------------------ verbs


def verb_help(rs, verb: str) -> tuple[str, str]:
    """The Chinese name of a verb and what `SEAT verb ...` does in this variant."""
    if verb == "kong":
        text = "`SEAT kong [T]`: kong the discard (three in hand), or at your turn a concealed kong of T or an added kong on your pung of T"
        if rs.special_sets:
            names = ", ".join(sp.name.zh for sp in rs.special_sets)
            text += f"; `SEAT kong T1T2T3[T4]` lays down a special set ({names})"
        return "杠", text + "."
    if verb == "ready":
        if rs.ready.declare == "opening":
            return "报叫", "`SEAT ready [T]`: declare ready from the starting hand: the dealer with his first discard, of T; another player before the dealer's first discard, without a tile."
        return "报叫", "`SEAT ready [T]`: declare ready; at your turn, with the discard of T; before the dealer's first discard, without a tile."
    if verb == "exchange":
        step = next(s for s in rs.opening if s.kind == "exchange")
        return "换牌", f"`SEAT exchange T1T2T3`: at the opening, pass these {step.tiles} tiles face down."
    declared = next((s for s in rs.opening if s.kind == "declare" and s.id == verb), None)
    if declared is not None:
        values = "m, p or s" if declared.choices_are_suits else ", ".join(declared.choices)
        return declared.name.zh or verb, f"`SEAT {verb} VALUE`: at the opening, declare {declared.name.en or verb}: {values}."
    return VERB_HELP[verb]


VERB_HELP = {
    "discard": ("打牌", "`SEAT discard T`: discard tile T at your turn."),
    "hu": ("胡", "`SEAT hu`: win, by self-draw at your turn or on the tile on offer."),
    "pass": ("过", "`SEAT pass`: decline the claims (or the declaration) on offer."),
    "pong": ("碰", "`SEAT pong`: pung the discard with a pair from your hand."),
    "chow": ("吃", "`SEAT chow T1T2`: chow the previous player's discard with T1 and T2 from your hand."),
    "take": ("拿牌", "`SEAT take T`: after your kong, take the face-up tail tile T as your replacement."),
    "buy": ("买点", "`SEAT buy N`: before the deal, buy N points of stakes (`pass` buys none)."),
    "double": ("加倍", "`SEAT double`: instead of the win on offer (by self-draw or on the tile on offer), double your multiplier and play on."),
}


def _value(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _option_row(o) -> str:
    if o.values:
        values = ", ".join(f"`{_value(v)}` {lab.zh}" if lab.zh != str(v) else f"`{v}`" for v, lab in zip(o.values, o.labels))
    else:
        lo = "" if o.minimum is None else f"≥ {o.minimum}"
        hi = "" if o.maximum is None else f"≤ {o.maximum}"
        values = "integer " + " ".join(x for x in (lo, hi) if x)
    return f"| `{o.id}` | {o.name.zh} | {o.name.en} | {values} | `{_value(o.default)}` |"
