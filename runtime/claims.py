"""What a seat may do: turn actions, claim windows, priority, refusals
that last after a pass, and the limits of a declared ready hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import analysis, restrictions
from .actions import DISCARDS, DOUBLE, HU, PASS, Action
from .melds import PUNG
from .tiles import NAMES, is_number
from .scoring import WinContext, evaluate
from .facts import SeatFacts

if TYPE_CHECKING:  # typed for the compiled build: native attribute access on the hot paths
    from .game import Game, Window


# ------------------------------------------------------------ turn


def can_self_draw(game: Game, seat: int):
    """The valuation of a self-drawn win now, or None."""
    st = game.seats[seat]
    if game.turn_kind == "claim" or st.drawn < 0 or st.deferred:
        return None
    if st.limits is not None and restrictions.blocks_win(st, st.counts, st.melds):
        return None
    st.counts[st.drawn] -= 1
    completes = st.drawn in analysis.seat_waits(game.table, st)
    st.counts[st.drawn] += 1
    shapeless = False
    if not completes:
        # holding enough wild tiles wins whatever the shape
        need = game.table.wild_win
        if not need or sum(st.counts[t] for t in game.table.wilds) < need:
            return None
        shapeless = True
    v = game.valuation(seat, st.drawn, True, shapeless=shapeless)
    if v is None or not v.win_allowed:
        return None
    return v


def turn_actions(game: Game, seat: int) -> list[Action]:
    if game.flower_win:
        return [HU]  # a win on flowers is taken at once
    st = game.seats[seat]
    table = game.table
    if can_self_draw(game, seat) is not None:
        if game.must_win(self_drawn=True):
            return [HU]
        out = [HU, DOUBLE] if table.double else [HU]
    else:
        out = []
    out.extend(Action("kong", t) for t in kong_options(game, seat))
    out.extend(Action("kong", -1, g) for g in special_options(game, seat))
    if st.locked and st.drawn >= 0:
        out.append(DISCARDS[st.drawn])
    else:
        counts = st.counts
        held = [t for t in table.tile_kinds if counts[t]]
        if st.limits is not None:
            held = restrictions.discards(st, held)
        discards = DISCARDS
        for t in held:
            out.append(discards[t])
        if may_declare(game, seat) and analysis.may_be_ready(table, counts, st.melds) and analysis.shanten(table, counts, st.melds) <= 0:
            for t in held:
                st.counts[t] -= 1
                if analysis.waits(table, st.counts, st.melds):
                    out.append(Action("ready", t))
                st.counts[t] += 1
    return out


def may_declare(game: Game, seat: int) -> bool:
    st = game.seats[seat]
    declare = game.table.declare
    if st.declared or st.locked or declare == "none":
        return False
    if declare == "opening":
        return seat == game.dealer and game.turn_kind == "deal" and not st.has_discarded
    return True  # any_turn


def special_options(game: Game, seat: int) -> list[tuple]:
    """The special sets the seat may lay down now: each
    group of tiles it holds, before its first discard where the set is
    declared only from the starting hand; never once declared ready; a
    set of four needs a replacement tile."""
    table = game.table
    if not table.special_sets:
        return []
    st = game.seats[seat]
    if st.declared or st.locked:
        return []
    out = []
    for spec in table.special_sets:
        if spec.declare == "opening" and st.has_discarded:
            continue
        for group in spec.groups:
            if len(group) == 4 and (not game.kong_possible() or (game.turn_kind == "replacement" and not table.kong_chain)):
                continue
            if all(st.counts[t] for t in group):
                out.append(group)
    return out


def kong_options(game: Game, seat: int) -> list[int]:
    table = game.table
    st = game.seats[seat]
    if not game.kong_possible():
        return []
    if game.turn_kind == "claim" and not table.kong_in_pung_turn:
        return []
    if game.turn_kind == "replacement" and not table.kong_chain:
        return []
    out: list[int] = []
    counts = st.counts
    if table.concealed_kong:
        for t in range(len(counts)):
            if counts[t] == 4:
                out.append(t)
    if table.added_kong:
        for m in st.melds:
            if m.type == PUNG and counts[m.tile] >= 1:
                out.append(m.tile)
    if not out:
        return out
    if st.limits is not None:
        out = [t for t in out if not restrictions.forbidden(st, "kong", t)]
    if st.kong_rule:
        out = [t for t in out if kong_keeps_ready(game, seat, t, from_hand=4 if counts[t] == 4 else 1)]
    out.sort()
    return out


def kong_keeps_ready(game: Game, seat: int, tile: int, from_hand: int) -> bool:
    """A bound seat (declared ready, or a winner who stays in) may kong
    only as its rule allows."""
    from .melds import ADDED, CONCEALED, DIRECT, KONG, Meld

    st = game.seats[seat]
    rule = st.kong_rule
    if rule == "any":
        return True
    if rule == "never":
        return False
    counts = list(st.counts)
    counts[tile] -= from_hand
    melds = [m for m in st.melds if not (m.type == PUNG and m.tile == tile)]
    kind = CONCEALED if from_hand == 4 else ADDED if from_hand == 1 else DIRECT
    melds.append(Meld(KONG, tile, kind))
    if sum(counts[:34]) + 3 * len(melds) != game.table.ruleset.other_tiles:
        return False
    if tuple(analysis.waits(game.table, counts, melds)) != st.declared_waits:
        return False
    if rule == "same_waits_and_values":
        return tuple(wait_values(game, seat, counts, melds)) == st.declared_values
    return True


def wait_values(game, seat: int, counts, melds) -> list[int]:
    """The value of a discard win on each wait of a 13-tile hand, without
    the fans a declared player's kong may change (`ready.kong_ignores`)."""
    out = []
    ignore = game.table.ready_kong_ignores
    for w in analysis.waits(game.table, counts, melds):
        ctx = hypothetical(game, seat, counts, melds, w)
        v = evaluate(game.table, ctx, ignore=ignore)
        out.append(v.total if v else 0)
    return out


def hypothetical(game, seat, counts, melds, tile, ignore_declared=False) -> WinContext:
    st = game.seats[seat]
    return WinContext(
        concealed=list(counts),
        melds=list(melds),
        win_tile=tile,
        self_drawn=False,
        is_dealer=seat == game.dealer,
        declared_ready=st.declared and not ignore_declared,
        seat_wind=27 + (seat - game.dealer) % game.n,
        round_wind=game.round_wind,
        flowers=len(st.flowers),
        flowers_aside=tuple(st.flowers),
        players=game.n,
        declared_at_opening=st.opening_ready and not ignore_declared,
        doublings=st.doublings,
        choices=st.choices,
    )


# ------------------------------------------------------------ windows


def _refused(game: Game, seat: int, claim: str, tile: int, value=None) -> bool:
    for kind, t, passed_value, _ in game.seats[seat].refusals:
        if kind != claim or (t >= 0 and t != tile):
            continue
        if value is not None and passed_value is not None and value > passed_value:
            continue
        return True
    return False


def _discard_win(game: Game, seat: int, w: Window) -> object | None:
    table = game.table
    st = game.seats[seat]
    robbing = w.kind == "rob"
    if not robbing and not table.hu_on_discard:
        return None
    if w.tile not in analysis.seat_waits(table, st):
        return None
    if st.limits is not None and restrictions.blocks_win(st, st.counts, st.melds, w.tile):
        return None
    v = game.valuation(seat, w.tile, False, w.source, robbing)
    if v is None or not v.win_allowed:
        return None
    # a win the rules force is never refused
    if not game.must_win() and _refused(game, seat, "hu", w.tile, v.total if _lifted_by_value(game, "hu") else None):
        return None
    return v


def _lifted_by_value(game: Game, claim: str) -> bool:
    return any(p.claim == claim and p.unless_worth_more for p in game.table.pass_rules)


def open_discard_window(game: Game, w: Window) -> None:
    table = game.table
    last = game.drawable() <= 0
    tile = w.tile
    chow_seat = game.next_in(w.source) if table.chow else -1
    for seat in game.order_in(w.source)[1:]:
        st = game.seats[seat]
        held = st.counts[tile]
        options = []
        v = _discard_win(game, seat, w)
        if v is not None:
            w.valuations[seat] = v
            if game.must_win():
                w.choices[seat] = (HU,)
                continue
            options.append(HU)
            if table.double:
                options.append(DOUBLE)
        elif held < 2 and seat != chow_seat:
            continue  # nothing to claim: the common case, decided early
        may_meld = not last
        forbid = st.forbids
        if st.limits is not None:
            forbid = forbid | {verb for verb in ("kong", "pong", "chow") if restrictions.forbidden(st, verb, tile)}
        if may_meld or "kong" in table.last_discard:
            if (
                table.kong_claim
                and held == 3
                and "kong" not in forbid
                and game.kong_possible()
                and (not st.kong_rule or kong_keeps_ready(game, seat, tile, from_hand=3))
            ):
                options.append(Action("kong", tile))
        if (may_meld or "pong" in table.last_discard) and table.pong and "pong" not in forbid:
            if held >= 2 and not _refused(game, seat, "pong", tile):
                options.append(Action("pong", tile))
        if (may_meld or "chow" in table.last_discard) and seat == chow_seat and "chow" not in forbid:
            options.extend(Action("chow", tile, pair) for pair in chow_pairs(st.counts, tile))
        if options:
            options.append(PASS)
            w.choices[seat] = tuple(options)


def chow_pairs(counts, tile: int) -> list[tuple]:
    if not is_number(tile):
        return []
    rank = tile % 9
    out = []
    for lo in (rank - 2, rank - 1, rank):
        if lo < 0 or lo + 2 > 8:
            continue
        others = tuple(tile - rank + r for r in (lo, lo + 1, lo + 2) if r != rank)
        if all(counts[t] for t in others):
            out.append(others)
    return out


def open_rob_window(game: Game, w: Window) -> None:
    forced = game.must_win()
    for seat in game.order_in(w.source)[1:]:
        v = _discard_win(game, seat, w)
        if v is not None:
            w.valuations[seat] = v
            w.choices[seat] = (HU,) if forced else (HU, DOUBLE, PASS) if game.table.double else (HU, PASS)


def open_history_window(game, w) -> None:
    """The discarder may win on his run of discards."""
    seat = w.source
    facts = SeatFacts(game, seat)
    for win in game.table.history_wins:
        if win.when(facts, game.table.o):
            w.valuations[seat] = history_valuation(game.table, win)
            w.choices[seat] = (HU, PASS)
            return


def history_valuation(table, win):
    """A win on discards: the hand is not examined, its listed fans count."""
    from .scoring import Valuation, combine

    index = {f.id: i for i, f in enumerate(table.fans)}
    counted = [(table.fans[index[f]], table.fan_values[index[f]], 1) for f in win.fans]
    v = Valuation(counted, combine(table, counted))
    v.uncapped = v.total
    v.history = win.id
    return v


def flower_win(game, seat: int) -> str:
    """The id of the first win on flowers (`winning.by_flowers`) whose
    condition holds for the seat to play, or ""."""
    facts = SeatFacts(game, seat)
    for win in game.table.flower_wins:
        if win.when(facts, game.table.o):
            return win.id
    return ""


def flower_win_valuation(table, win_id: str):
    return history_valuation(table, next(w for w in table.flower_wins if w.id == win_id))


def open_flower_window(game, w) -> None:
    """Every other seat still in for which a win on another's flower
    (`winning.on_flower`) holds wins on it: the claim is its only answer."""
    o = game.table.o
    for seat in game.order_in(w.source)[1:]:
        facts = SeatFacts(game, seat)
        for rob in game.table.flower_robs:
            if rob.when(facts, o):
                w.valuations[seat] = history_valuation(game.table, rob)
                w.choices[seat] = (HU,)
                break


def record_pass(game: Game, seat: int, w: Window) -> None:
    """A pass may refuse the same claim until the passer's own next draw or claim."""
    if w.kind in ("history", "flower"):
        return
    offered = {a.verb for a in w.choices[seat]}
    for rule in game.table.pass_rules:
        if rule.claim not in offered:
            continue
        tile = w.tile if rule.same_tile else -1
        value = None
        if rule.claim == "hu" and rule.unless_worth_more:
            value = w.valuations[seat].total
        game.seats[seat].refusals.append((rule.claim, tile, value, rule.until_draw))


def resolve(game: Game, w: Window) -> None:
    if w.kind == "flower":
        winners = [s for s in game.order_in(w.source)[1:] if w.responses.get(s, PASS).verb == "hu"]
        if winners and not game.table.multiple_winners:
            winners = winners[:1]
        if winners:
            game.flower_robbed(winners, w)
        else:
            game.flower_passed(w.source)
        return
    if w.kind == "history":
        if w.responses.get(w.source) == HU:
            game._finish_win([w.source], w.tile, self_drawn=True, source=-1, valuations=w.valuations)
        else:
            game._next_draw(w.source)
        return
    order = game.order_in(w.source)[1:]
    winners = [s for s in order if w.responses.get(s, PASS).verb == "hu"]
    if winners:
        if not game.table.multiple_winners:
            winners = winners[:1]
        elif game.table.join_wins:
            # one seat's win carries every seat that could win (CX-14b)
            winners = [s for s in order if HU in w.choices.get(s, ())]
        game._finish_win(
            winners, w.tile, self_drawn=False, source=w.source, robbing=w.kind == "rob", valuations=w.valuations
        )
        return
    if w.kind == "rob":
        game.complete_added_kong(w)
        return
    best = None
    for seat in order:
        act = w.responses.get(seat)
        if act is None or act.verb in ("pass", "double"):
            continue
        level = game.table.priority.get(act.verb, 99)
        if best is None or level < best[0]:
            best = (level, seat, act)
    if best is None:
        game._next_draw(w.source)
        return
    _, seat, act = best
    if act.verb == "pong":
        game.claim_pong(seat, w)
    elif act.verb == "kong":
        game.claim_kong(seat, w)
    elif act.verb == "chow":
        game.claim_chow(seat, w, act.extra)


# ------------------------------------------------------------ explaining


def explain(game, seat: int, action: Action, legal: list[Action]) -> str:
    """Why `action` is not among `legal`, in words a player understands."""
    if game.phase == "end":
        return "the hand is over"
    if not legal:
        if game.phase == "turn":
            return f"it is seat {game.current}'s turn"
        if game.phase == "claim":
            w = game.window
            if action.verb == "chow" and seat != w.source:
                return _chow_refusal(game, seat, w)
            if action.verb == "hu" and seat != w.source and w.kind != "history":
                return _win_refusal(game, seat, w.tile, self_drawn=False, source=w.source, robbing=w.kind == "rob")
            return f"no claim on {NAMES[w.tile]} is open to this seat"
        return "this seat has no decision to make now"
    verb, tile = action.verb, action.tile
    st = game.seats[seat]
    same_verb = [a for a in legal if a.verb == verb]
    if game.phase == "claim":
        w = game.window
        if verb == "discard":
            return f"a claim on {NAMES[w.tile]} is open; answer it first"
        if verb in ("pong", "kong", "chow") and not same_verb:
            held = st.counts[w.tile]
            if verb == "pong" and held < 2:
                return f"holds {_copies(held)} {NAMES[w.tile]}"
            if verb == "kong" and held != 3:
                return f"holds {_copies(held)} {NAMES[w.tile]}"
            if restrictions.forbidden(st, verb, w.tile):
                return f"may not {verb} {NAMES[w.tile]}: {restrictions.why(st, w.tile)}"
            if verb in st.forbids:
                return f"{_bound(st)} and may not {verb}"
            if st.kong_rule and verb == "kong":
                return _ready_kong_refusal(st)
            if verb == "chow":
                return _chow_refusal(game, seat, w)
            return f"may not {verb} {NAMES[w.tile]} now"
        if verb in ("hu", "double") and not same_verb:
            if restrictions.blocks_win(st, st.counts, st.melds, w.tile) and _complete_with(game, st, w.tile):
                return f"may not win holding {_banned_held(st, w.tile)}: {restrictions.why(st, _banned_held_tile(st, w.tile))}"
            return _win_refusal(game, seat, w.tile, self_drawn=False, source=w.source, robbing=w.kind == "rob")
        if verb == "pass" and not same_verb:
            return "the rules force this win"
        if same_verb and tile >= 0 and tile != w.tile:
            return f"the tile on offer is {NAMES[w.tile]}"
        return "that claim is not offered"
    if game.phase == "start":
        offered = ", ".join(sorted({a.verb for a in legal}))
        if verb in offered.split(", ") and verb == "exchange":
            return _exchange_refusal(game, st, action, legal)
        if verb in offered.split(", ") and action.extra:
            values = ", ".join(str(a.extra[0]) for a in legal if a.verb == verb)
            return f"{action.extra[0]!r} is not offered; {verb} one of: {values}"
        return f"before the first discard this seat may only answer: {offered}"
    if game.phase == "replace":
        tiles = ", ".join(NAMES[a.tile] for a in legal)
        return f"after the kong, take one of the face-up tiles: {tiles}"
    if verb in ("pong", "chow", "pass"):
        return "there is no discard to claim; it is this seat's turn"
    if verb in ("discard", "ready") and tile >= 0 and st.counts[tile] == 0:
        return f"holds no {NAMES[tile]}"
    if verb == "discard" and st.locked:
        return f"{_bound(st)}: must discard the drawn tile"
    if verb in ("discard", "ready") and st.limits is not None and tile >= 0:
        first = [t for t in game.table.tile_kinds if st.counts[t] and t in st.limits.first]
        if first and tile not in first:
            return f"must first discard {' '.join(NAMES[t] for t in first)} ({restrictions.why(st, first[0])})"
    if verb == "discard" and any(a.verb == "hu" for a in legal) and game.must_win(self_drawn=True):
        return "the rules force this win"
    if verb == "ready":
        return "cannot declare ready now" if not may_declare(game, seat) else f"discarding {NAMES[tile]} does not leave a ready hand"
    if verb == "double":
        return "there is no win to defer now"
    if verb == "kong" and action.extra:
        if st.has_discarded:
            return "a special set is declared only from the starting hand, before the first discard"
        if any(not st.counts[t] for t in action.extra):
            return f"does not hold {''.join(NAMES[t] for t in action.extra)}"
        return f"{''.join(NAMES[t] for t in action.extra)} is not a special set that may be laid down now"
    if verb == "kong":
        if not game.kong_possible():
            return "no tile is left to replace a kong"
        if tile < 0:
            return "a kong names its tile"
        held = st.counts[tile] + (3 if any(m.type == PUNG and m.tile == tile for m in st.melds) else 0)
        if held == 4 and restrictions.forbidden(st, "kong", tile):
            return f"may not kong {NAMES[tile]}: {restrictions.why(st, tile)}"
        if st.kong_rule and held == 4:
            return _ready_kong_refusal(st)
        return f"has no kong of {NAMES[tile]} to make now"
    if verb == "hu":
        if st.limits is not None and restrictions.blocks_win(st, st.counts, st.melds) and _complete_with(game, st, -1):
            held = _banned_held_tile(st, -1)
            return f"may not win holding {NAMES[held]}: {restrictions.why(st, held)}"
        if game.turn_kind == "claim" or st.drawn < 0:
            return "a self-drawn win needs a drawn tile; after a claim, discard"
        if st.deferred:
            return "doubled (加倍) on this tile: no win until the next one"
        return _win_refusal(game, seat, st.drawn, self_drawn=True)
    return "not allowed now"


def _win_refusal(game, seat: int, tile: int, self_drawn: bool, source: int = -1, robbing: bool = False) -> str:
    """Why a win on `tile` is refused, with the variant's own reason where
    its winning condition refuses it."""
    st = game.seats[seat]
    if not self_drawn and not robbing and not game.table.hu_on_discard:
        return "this variant wins by self-draw only"
    counts = st.counts
    if self_drawn:
        counts[tile] -= 1
    try:
        completes = tile in analysis.seat_waits(game.table, st)
    finally:
        if self_drawn:
            counts[tile] += 1
    if not completes:
        return f"{NAMES[tile]} does not complete a winning hand"
    v = game.valuation(seat, tile, self_drawn, source, robbing)
    if v is not None and not v.win_allowed:
        return f"{NAMES[tile]} completes the hand, but this win is not allowed: {v.why}"
    if not self_drawn and any(r[0] == "hu" for r in st.refusals):
        return f"passed a win earlier (过胡): no win on {NAMES[tile]} until this seat's own next draw"
    return f"{NAMES[tile]} does not complete a winning hand that may win here"


def _chow_refusal(game, seat: int, w) -> str:
    if not game.table.chow:
        return "chow (吃) is not played at this table"
    after = (w.source + 1) % game.n
    if seat != after:
        return f"only the next player, seat {after}, may chow seat {w.source}'s discard"
    if not chow_pairs(game.seats[seat].counts, w.tile):
        return f"holds no two tiles that make a chow with {NAMES[w.tile]}"
    return f"may not chow {NAMES[w.tile]} now"


def _complete_with(game, st, tile: int) -> bool:
    """The seat's tiles (with `tile`) form a winning shape."""
    counts = list(st.counts)
    if tile >= 0:
        counts[tile] += 1
    return analysis.is_complete(game.table, counts, st.melds)


def _bound(st) -> str:
    return "declared ready" if st.declared else "has won and keeps his hand"


def _banned_held_tile(st, tile: int) -> int:
    """A tile of the hand (or `tile`) that its seat may not win holding."""
    banned = st.limits.no_win
    held = [t for t in sorted(banned) if st.counts[t]] + [t for m in st.melds for t in m.tiles if t in banned]
    return held[0] if held else tile


def _banned_held(st, tile: int) -> str:
    return NAMES[_banned_held_tile(st, tile)]


def _exchange_refusal(game, st, action, legal) -> str:
    step = game.table.opening[game.opening_index]
    tiles = action.extra
    if len(tiles) != step.tiles:
        return f"an exchange passes {step.tiles} tiles, not {len(tiles)}"
    for t in set(tiles):
        if tiles.count(t) > st.counts[t]:
            return f"holds {_copies(st.counts[t])} {NAMES[t]}"
    return f"the {step.tiles} tiles passed must all be of one suit"


def _ready_kong_refusal(st) -> str:
    """Why a bound player may not make a kong he holds the tiles for."""
    rule = st.kong_rule
    who = _bound(st)
    if rule == "never":
        return f"{who}: may not kong"
    return f"{who}: this kong would change the waiting tiles" + (" or their values" if rule == "same_waits_and_values" else "")


def _copies(n: int) -> str:
    return ["no", "one", "two", "three", "four"][n] if n < 5 else str(n)
