"""A game's whole state as JSON, and back: a restored game continues
exactly as the original would."""

from __future__ import annotations

from . import claims
from .actions import action_from_json, parse_action
from .game import Game, SeatState, Window
from .melds import Meld
from .scoring import Valuation
from .tiles import INDEX, NAMES, NUM_KINDS

FORMAT = 1


def _tiles(counts) -> list[str]:
    return [NAMES[t] for t in range(len(counts)) for _ in range(counts[t])]


def _counts(names) -> list[int]:
    counts = [0] * NUM_KINDS
    for n in names:
        counts[INDEX[n]] += 1
    return counts


def _meld(m: Meld) -> list:
    out = [m.type, m.tile, m.kind, m.source, m.claimed]
    if m.group:
        out.append(list(m.group))
    return out


def _meld_back(data: list) -> Meld:
    return Meld(*data[:5], tuple(data[5]) if len(data) > 5 else ())  # type: ignore[call-arg]


def _seat(st: SeatState) -> dict:
    return {
        "hand": _tiles(st.counts),
        "melds": [_meld(m) for m in st.melds],
        "discards": [NAMES[t] for t in st.discards],
        "claimed": list(st.claimed),
        "flowers": [NAMES[t] for t in st.flowers],
        "declared": st.declared,
        "declared_waits": [NAMES[t] for t in st.declared_waits],
        "declared_values": list(st.declared_values),
        "drawn": NAMES[st.drawn] if st.drawn >= 0 else None,
        "refusals": [list(r) for r in st.refusals],
        "has_discarded": st.has_discarded,
        "bought": st.bought,
        "opening_ready": st.opening_ready,
        "doublings": st.doublings,
        "deferred": st.deferred,
        "choices": dict(st.choices),
        "gave": [NAMES[t] for t in st.gave],
        "received": [NAMES[t] for t in st.received],
        "out": st.out,
        "wins": st.wins,
        "won_tiles": [NAMES[t] for t in st.won_tiles],
        "locked": st.locked,
        "forbids": sorted(st.forbids),
        "kong_rule": st.kong_rule,
    }


def _payment_out(p) -> dict:
    out = p.to_json()
    if p.kong >= 0:
        out["kong"] = p.kong
    return out


def game_to_json(game: Game) -> dict:
    rs = game.table.ruleset
    window = None
    if game.window is not None:
        w = game.window
        window = {
            "tile": NAMES[w.tile],
            "source": w.source,
            "kind": w.kind,
            "choices": {str(s): [a.to_json() for a in acts] for s, acts in w.choices.items()},
            "responses": {str(s): a.to_json() for s, a in w.responses.items()},
        }
    return {
        "format": FORMAT,
        "variant": rs.name,
        "variant_sha256": rs.source_sha256,
        "table": game.table.to_json(),
        "dealer": game.dealer,
        "round_wind": game.round_wind,
        "hand_number": game.hand_number,
        "seed": {"bytes": game.seed.hex()} if isinstance(game.seed, bytes) else game.seed,
        "exchange_direction": game.exchange_direction,
        "opening_index": game.opening_index,
        "dealt": game.dealt,
        "wins": [_win_out(w) for w in game.wins],
        "moved": sorted(game.moved),
        "wall": [NAMES[t] for t in game.wall],
        "indicator": NAMES[game.indicator] if game.indicator >= 0 else None,
        "streak": game.streak,
        "horses": {str(s): [NAMES[t] for t in tiles] for s, tiles in game.horses.items()},
        "follow": dict(game.follow) if game.follow is not None else None,
        "front": game.front,
        "back": game.back,
        "seats": [_seat(st) for st in game.seats],
        "phase": game.phase,
        "current": game.current,
        "turn_kind": game.turn_kind,
        "kong_chain": game.kong_chain,
        "kong_fed_by": game.kong_fed_by,
        "flower_replaced": game.flower_replaced,
        "flower_kind": game.flower_kind,
        "flower_win": game.flower_win,
        "after_kong_discard": game.after_kong_discard,
        "melds_made": game.melds_made,
        "discards_made": game.discards_made,
        "window": window,
        "start_stage": game.start_stage,
        "dealt_hands": game._hands,
        "payments": [_payment_out(p) for p in game.payments],
        "kongs": [list(k) for k in game.kongs],
        "start_choices": {str(s): [a.to_json() for a in acts] for s, acts in game.start_choices.items()},
        "start_responses": {str(s): a.to_json() for s, a in game.start_responses.items()},
        "events": list(game.events),
        "log": [[seat, str(action)] for seat, action in game.log],
        "result": game.result.to_json() if game.result is not None else None,
    }


def _win_out(w) -> dict:
    out = w.to_json()
    out["payments"] = [_payment_out(p) for p in w.payments]
    return out


def game_from_json(data: dict, table=None) -> Game:
    if table is None:
        from .registry import load

        t = data["table"]
        table = load(data["variant"]).configure(t["options"], t["players"])
    game = Game()  # blank: every field is read back below
    game._legal = {}
    game.indicator = INDEX[data["indicator"]] if data.get("indicator") else -1
    if game.indicator >= 0:
        from .game import wild_after

        table = table.with_wilds(frozenset({wild_after(table, game.indicator)}))
    game.table = table
    game.n = table.players
    game.dealer = data["dealer"]
    game.streak = data["streak"]
    game.horses = {int(s): [INDEX[t] for t in tiles] for s, tiles in data["horses"].items()}
    game.follow = dict(data["follow"]) if data["follow"] is not None else None
    game.round_wind = data["round_wind"]
    game.hand_number = data["hand_number"]
    game.wall = [INDEX[t] for t in data["wall"]]
    game.front = data["front"]
    game.back = data["back"]
    game.seats = []
    for sd in data["seats"]:
        st = SeatState()
        st.counts = _counts(sd["hand"])
        st.melds = [_meld_back(m) for m in sd["melds"]]
        st.discards = [INDEX[t] for t in sd["discards"]]
        st.claimed = list(sd["claimed"])
        st.flowers = [INDEX[t] for t in sd["flowers"]]
        st.declared = sd["declared"]
        st.declared_waits = tuple(INDEX[t] for t in sd["declared_waits"])
        st.declared_values = tuple(sd["declared_values"])
        st.drawn = INDEX[sd["drawn"]] if sd["drawn"] else -1
        st.refusals = [tuple(r) for r in sd["refusals"]]
        st.has_discarded = sd["has_discarded"]
        st.bought = sd["bought"]
        st.opening_ready = sd.get("opening_ready", False)
        st.doublings = sd.get("doublings", 0)
        st.deferred = sd.get("deferred", False)
        st.choices = dict(sd.get("choices", {}))
        st.gave = tuple(INDEX[t] for t in sd.get("gave", []))
        st.received = tuple(INDEX[t] for t in sd.get("received", []))
        st.out = sd.get("out", False)
        st.wins = sd.get("wins", 0)
        st.won_tiles = [INDEX[t] for t in sd.get("won_tiles", [])]
        # older states: a declared seat was bound by the ready rules
        st.locked = sd.get("locked", st.declared and table.ready_locks)
        st.forbids = frozenset(sd.get("forbids", sorted(table.ready_forbids) if st.declared else []))
        st.kong_rule = sd.get("kong_rule", table.ready_kong if st.declared else "")
        game.seats.append(st)
    seed = data.get("seed", 0)
    game.seed = bytes.fromhex(seed["bytes"]) if isinstance(seed, dict) else seed
    game.exchange_direction = data.get("exchange_direction", "")
    game.opening_index = data.get("opening_index", len(table.opening))
    game.dealt = data.get("dealt", True)
    game.any_out = any(st.out for st in game.seats)
    game.moved = set(data.get("moved", []))
    game.wins = [_win_back(w, table) for w in data.get("wins", [])]
    game.restrict()
    game.phase = data["phase"]
    game.current = data["current"]
    game.turn_kind = data["turn_kind"]
    game.kong_chain = data["kong_chain"]
    game.kong_fed_by = data["kong_fed_by"]
    game.flower_replaced = data.get("flower_replaced", False)
    game.flower_kind = data.get("flower_kind", "")
    game.flower_win = data.get("flower_win", "")
    game.after_kong_discard = data["after_kong_discard"]
    game.melds_made = data["melds_made"]
    game.discards_made = data["discards_made"]
    game.window = None
    if data["window"] is not None:
        wd = data["window"]
        w = Window(INDEX[wd["tile"]], wd["source"], wd["kind"])
        w.choices = {int(s): tuple(action_from_json(a) for a in acts) for s, acts in wd["choices"].items()}
        w.responses = {int(s): action_from_json(a) for s, a in wd["responses"].items()}
        for s in w.choices:
            if any(a.verb == "hu" for a in w.choices[s]):
                if w.kind == "history":
                    claims.open_history_window(game, w)
                elif w.kind == "flower":
                    claims.open_flower_window(game, w)
                else:
                    w.valuations[s] = game.valuation(s, w.tile, False, w.source, w.kind == "rob")
        game.window = w
    game.start_stage = data["start_stage"]
    game._hands = data["dealt_hands"]
    game.payments = [_payment(p) for p in data["payments"]]
    game.kongs = [tuple(k) + (-1,) * (4 - len(k)) for k in data["kongs"]]
    game.start_choices = {int(s): tuple(action_from_json(a) for a in acts) for s, acts in data["start_choices"].items()}
    game.start_responses = {int(s): action_from_json(a) for s, a in data["start_responses"].items()}
    game.events = list(data["events"])
    game.log = [(seat, parse_action(text)) for seat, text in data["log"]]
    game.result = None
    if data["result"] is not None:
        game.result = _result_from_json(data["result"], table)
    return game


def _payment(p: dict):
    from .settlement import HOUSE, Payment

    return Payment(p["from"], p["to"] if p["to"] is not None else HOUSE, p["amount"], p["reason"], p.get("kong", -1))


def _valuations(fans: dict, totals: dict, table) -> dict:
    by_id = {f.id: f for f in table.fans}
    return {
        int(s): Valuation([(by_id[f["id"]], f["value"], f["count"]) for f in flist], totals[s])
        for s, flist in fans.items()
    }


def _win_back(d: dict, table):
    from .settlement import WinRecord

    return WinRecord(
        winners=list(d["winners"]),
        discarder=d["discarder"] if d["discarder"] is not None else -1,
        self_drawn=d["self_drawn"],
        tile=INDEX[d["win_tile"]],
        robbing_kong=bool(d.get("robbing_kong")),
        valuations=_valuations(d["fans"], d["totals"], table),
        payments=[_payment(p) for p in d["payments"]],
    )


def _result_from_json(d: dict, table):
    from .settlement import HandResult

    valuations = _valuations(d["fans"], d["totals"], table)
    payments = [_payment(p) for p in d["payments"]]
    return HandResult(
        end=d["end"],
        winners=d["winners"],
        discarder=d["discarder"] if d["discarder"] is not None else -1,
        self_drawn=d["self_drawn"],
        payments=payments,
        deltas=d["deltas"],
        next_dealer=d["next_dealer"],
        win_tile=INDEX[d["win_tile"]] if d.get("win_tile") else -1,
        robbing_kong=bool(d.get("robbing_kong")),
        valuations=valuations,
        horses=[dict(h) for h in d.get("horses", [])],
        wilds=tuple(INDEX[t] for t in d.get("wilds", [])),
        indicator=INDEX[d["indicator"]] if d.get("indicator") else -1,
        wins=[_win_back(w, table) for w in d["wins"]] if "wins" in d else None,
        exhausted=d.get("exhausted", d["end"] == "draw"),
    )
