"""A variant's rulebook in Markdown, written from its compiled module."""

from __future__ import annotations

from runtime.tiles import format_tiles

VERB_HELP = {
    "discard": ("打牌", "`SEAT discard T`: discard tile T at your turn."),
    "hu": ("胡", "`SEAT hu`: win, by self-draw at your turn or on the tile on offer."),
    "pass": ("过", "`SEAT pass`: decline the claims (or the declaration) on offer."),
    "pong": ("碰", "`SEAT pong`: pung the discard with a pair from your hand."),
    "chow": ("吃", "`SEAT chow T1T2`: chow the previous player's discard with T1 and T2 from your hand."),
    "kong": ("杠", "`SEAT kong [T]`: kong the discard (three in hand), or at your turn a concealed kong of T or an added kong on your pung of T; `SEAT kong T1T2T3[T4]` lays down a special set."),
    "ready": ("报叫", "`SEAT ready [T]`: declare ready; at your turn, with the discard of T; before the dealer's first discard, without a tile."),
    "take": ("拿牌", "`SEAT take T`: after your kong, take the face-up tail tile T as your replacement."),
    "buy": ("买点", "`SEAT buy N`: before the deal, buy N points of stakes (`pass` buys none)."),
    "double": ("加倍", "`SEAT double`: instead of the win on offer (by self-draw or on the tile on offer), double your multiplier and play on."),
}

_PAYERS = {"discarder": "the discarder alone", "others": "every player who did not win"}
_DEALER = {
    "winner": "the winner deals",
    "next": "the dealer's next seat deals",
    "discarder": "the discarder deals",
    "discarder_next": "the discarder's next seat deals",
    "first_winner": "the first winner in turn order deals",
    "stay": "the dealer deals again",
}


def _flag(value, source_hint: str = "") -> str:
    if callable(value):
        doc = " ".join((value.__doc__ or "").split()).split(": ")[-1]
        return f"when `{doc}`"
    return "yes" if value is True else "no" if value is False else str(value)


def _amount(value) -> str:
    """A number, or the formula a compiled function was made from."""
    if callable(value):
        return "`" + " ".join((value.__doc__ or "").split()).split(": ")[-1] + "`"
    return str(value)


def rulebook(rs) -> str:
    lines: list[str] = []
    add = lines.append
    add(f"# {rs.title.zh} ({rs.title.en})")
    add("")
    if rs.summary:
        add(rs.summary)
        add("")
    add(f"Compiled from `{rs.source}` (SHA-256 `{rs.source_sha256[:16]}…`)." + (f" Rules: `{rs.rules_file}`." if rs.rules_file else ""))
    if rs.parents:
        add(f"It extends {', then '.join(f'`{p}`' for p in rs.parents)}; this rulebook shows the merged ruleset.")
    add("")
    add("## Tiles and players")
    add("")
    numbered = [t for t in rs.tile_kinds if t < 34]
    flowers = [t for t in rs.tile_kinds if t >= 34]
    total = len(numbered) * rs.copies + len(flowers)
    add(f"- Players: {', '.join(map(str, rs.players))} (default {rs.default_players}).")
    add(f"- Tiles: {format_tiles(numbered)}, {rs.copies} of each" + (f"; flowers {format_tiles(flowers)}, one each" if flowers else "") + f": {total} tiles.")
    if flowers:
        add("- Flowers (补花): after the deal the dealer, then each other player in turn, sets his flowers aside and replaces them from the end of the wall; a flower drawn later is set aside and replaced at once. A replacement that is a flower is replaced again.")
    add(f"- Deal: the dealer (庄家) {rs.dealer_tiles} tiles, the others {rs.other_tiles}.")
    if rs.reserved_tail:
        add(f"- Tiles set aside at the end of the wall, never drawn (kong replacements come from just before them): {_flag(rs.reserved_tail)}.")
    if rs.left_undrawn:
        add(f"- Tiles left undrawn: the hand ends drawn when {_flag(rs.left_undrawn)} tiles are left; kong replacements still come from the wall's end.")
    if rs.face_up_tail:
        add(f"- Tail tiles turned face up: {_flag(rs.face_up_tail)}. A kong's replacement is the player's choice among them (`take`); another is turned after each take; no kong once no face-down tile is left to turn.")
    for tiles, when in rs.removals:
        add(f"- {format_tiles(tiles)} removed: {_flag(when)}.")
    if rs.stakes is not None:
        add(f"- Stakes bought by every seat before the deal ({_flag(rs.stakes.when)}): {', '.join(map(str, rs.stakes.values))}.")
    add("")
    add("## Options")
    add("")
    add("| id | 中文 | English | values | default |")
    add("| --- | --- | --- | --- | --- |")
    for o in rs.options:
        if o.advanced:
            continue
        add(_option_row(o))
    advanced = [o for o in rs.options if o.advanced]
    if advanced:
        add("")
        add("House rules (proposed resolutions a studio may switch):")
        add("")
        add("| id | 中文 | English | values | default | rule |")
        add("| --- | --- | --- | --- | --- | --- |")
        for o in advanced:
            add(_option_row(o) + f" {o.rule} |")
    for c in rs.constraints:
        add("")
        add(f"- Constraint: {c.message.both()} (`{c.source}`).")
    add("")
    add("## Turns and claims")
    add("")
    c, k, r = rs.claims, rs.kongs, rs.ready
    add(f"- Chow: {_flag(c.chow)}. Pung: {_flag(c.pong)}. Exposed kong on a discard: {_flag(c.kong)}. Win on a discard: {_flag(c.hu)}.")
    add("- Priority: " + " > ".join(" = ".join(level) for level in c.priority) + "; ties go to the first seat after the discarder.")
    add(f"- Several winners on one discard: {_flag(c.multiple_winners)}.")
    add(f"- Claims on the last discard of an exhausted wall: {', '.join(c.last_discard) or 'none'}.")
    add(f"- Robbing a kong ({', '.join(c.rob_kinds)}): {_flag(c.rob_when)}; settled as: {_flag(c.rob_counts_as)}.")
    add(f"- A possible win must be taken: {_flag(c.must_win)}.")
    if c.join_wins is not False:
        add(f"- One seat's win on a discard carries every seat that could win on it: {_flag(c.join_wins)}.")
    for p in c.pass_rules:
        scope = "the same tile" if p.same_tile else "any tile"
        more = ", unless the new win is worth more" if p.unless_worth_more else ""
        until = "draw" if p.until_draw else "draw or claim"
        add(f"- After passing a {p.claim}, no {p.claim} on {scope} until the player's own next {until}{more} ({_flag(p.when)}).")
    add(f"- Kongs: concealed {_flag(k.concealed)}, added {_flag(k.added)}, in the turn of a pung {_flag(k.in_pung_turn)}, again after a replacement {_flag(k.chain)}. " + ("Replacements are the face-up tail tiles." if rs.face_up_tail else "Replacements come from the tail."))
    if r.declare != "none":
        when = "only with the starting hand" if r.declare == "opening" else "with the starting hand (before the dealer's first discard) or with any discard"
        offered = f" ({_flag(r.when)})" if r.when is not True else ""
        add(f"- Declaring ready (报叫/报听){offered}: {when}. Afterwards the hand is locked ({_flag(r.locks_hand)}), no {', '.join(r.forbids)}, kongs: {r.kong.replace('_', ' ')}.")
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
    add("")
    add("## Winning")
    add("")
    w = rs.winning
    shapes = ["four sets and a pair"] if w.standard else []
    if w.seven_pairs:
        shapes.append("seven pairs" + (" (four of a kind counts as two pairs)" if w.quads_as_two_pairs else ""))
    if w.thirteen_orphans:
        shapes.append("thirteen orphans")
    add(f"- Shapes: {'; '.join(shapes)}.")
    if w.allowed_source:
        add(f"- A complete hand may win only when `{w.allowed_source}`" + (f": {w.why_not.both()}" if w.why_not.zh else "") + ".")
    if w.double is not False:
        add(f"- 加倍: a player who could win may `double` instead, forgoing this win; each doubling doubles his multiplier (`winner.doublings`), applied only if he wins ({_flag(w.double)}).")
    for h in rs.history_wins:
        add(f"- {h.name.both()}: the discarder wins when `{h.when_source}` after nobody claims his discard; the hand is not examined, it counts {', '.join(h.fans)}, settled as a self-draw.")
    add("")
    unit = rs.scoring.unit_name.both()
    combine = {"add": "addition", "multiply": "multiplication"}.get(rs.scoring.combine) or _flag(rs.scoring.combine)
    add(f"## Fan table ({unit}, combined by {combine})")
    add("")
    add("The hand is valued under every way of reading it and the best total is kept.")
    if rs.scoring.final_source:
        add(f"The total is then `{rs.scoring.final_source}`" + (f", capped at {_flag(rs.scoring.cap)}" if rs.scoring.cap else "") + ".")
    elif rs.scoring.cap:
        add(f"The total is capped at {_flag(rs.scoring.cap)}.")
    add("")
    add("| id | 中文 | English | value | when | counted | excludes | rule |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for f in rs.scoring.fans:
        value = f.value if not callable(f.value) else _flag(f.value)
        counted = f"`{f.count_source}` times" if f.count_source else "once"
        if f.alone:
            counted += ", only when no other fan counts"
        add(f"| {f.id} | {f.name.zh} | {f.name.en} | {value} | `{f.when_source}` | {counted} | {', '.join(f.excludes)} | {f.rule} |")
    add("")
    add("## Settlement")
    add("")
    s = rs.settlement
    discard = _PAYERS[s.discard_payers] if s.discard_payers in _PAYERS else _flag(s.discard_payers)
    add(f"- Discard win: paid by {discard}. Self-draw: paid by {_PAYERS[s.self_draw_payers]}.")
    add(f"- Each payer pays each winner `{s.amount_source}`.")
    if s.self_draw_when_source:
        add(f"- A discard win is settled as a self-draw when `{s.self_draw_when_source}`.")
    for rule in s.liable:
        who = "the discarder (or robbed player)" if rule.who == "discarder" else "the player who fed the kong"
        add(f"- When `{rule.source}`, {who} pays every payer's share.")
    kp = rs.kong_payments
    if kp is not None:
        timing = {"immediate": "as soon as the kong stands", "at_end": "with the hand's win", "owner_wins": "only if the kong's owner wins"}[kp.timing]
        parts = "; ".join(f"{kind}: {_amount(amount)} from {'the discarder' if who == 'discarder' else 'each other player'}" for kind, who, amount in kp.rules)
        add(f"- Kongs are paid {timing} ({parts})" + (f"; at an exhausted wall: {_flag(kp.at_draw)}" if kp.timing == "at_end" else "") + ".")
    if s.table_fee:
        add(f"- Table fee (台费): every player pays the house {_amount(s.table_fee)} each hand, win or draw.")
    if rs.ready_check is not None:
        rc = rs.ready_check
        add(f"- Exhausted wall ({rc.reason}, {_flag(rc.when)}): a seat collects when `{rc.collects_source}`; every other seat pays it `{rc.amount_source}`, `total` being its best wait valued as a discard win" + (f" without {', '.join(rc.ignore_fans)}" if rc.ignore_fans else "") + ".")
    else:
        add("- Exhausted wall: nothing is paid.")
    add("")
    add("## Dealer and match")
    add("")
    d = rs.dealer
    add(f"- First dealer: {'drawn at random' if d.first == 'random' else 'seat ' + d.first}.")
    add(f"- After a win: {_DEALER[d.after_win]}; after several winners: {_DEALER[d.after_multiple_winners]}; after an exhausted wall: {_DEALER[d.after_draw]}.")
    if d.may_repeat is not True:
        add(f"- The dealer may deal twice in a row: {_flag(d.may_repeat)}.")
    add(f"- Hands in a match: {_flag(rs.hands)}.")
    add("")
    add("## Verbs")
    add("")
    for verb in rs.verbs:
        zh, text = VERB_HELP[verb]
        add(f"- **{verb}** ({zh}): {text}")
    add("")
    return "\n".join(lines)


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
