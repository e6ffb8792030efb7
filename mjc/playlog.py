"""The log of a bot match: readable text, or JSON Lines of events."""

from __future__ import annotations

import json

from runtime.tiles import format_tiles, parse_tiles


class PlayLog:
    def __init__(self, table, match, out, as_json: bool = False):
        self.table = table
        self.match = match
        self.out = out
        self.as_json = as_json

    def _emit(self, obj: dict) -> None:
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")

    def _say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def start(self) -> None:
        rs, t = self.table.ruleset, self.table
        if self.as_json:
            length = {"wind_rounds": self.match.wind_rounds} if self.match.wind_rounds else {"hands": self.match.hands}
            self._emit({"type": "match", "variant": rs.name, "players": t.players, "options": t.option_values,
                        **length, "seed": str(self.match.seed)})
            return
        rounds = self.match.wind_rounds
        length = (f"{rounds} round{'s' if rounds != 1 else ''} of wind" if rounds
                  else f"{self.match.hands} hand{'s' if self.match.hands != 1 else ''}")
        self._say(f"{rs.title.zh} ({rs.title.en}): {t.players} players, {length}, seed {self.match.seed}")
        opts = " ".join(f"{k}={_text(v)}" for k, v in t.option_values.items())
        self._say(f"options: {opts}")

    def event(self, e: dict) -> None:
        if self.as_json:
            self._emit({"hand": len(self.match.results), **e})
            return
        kind = e["type"]
        if kind == "deal":
            self._say("")
            wind = ""
            if self.table.ruleset.prevailing_wind != "east":
                wind = f", {'East South West North'.split()[(self.match.round_wind() - 27) % 4]} round"
                wind += f", dealer's streak {self.match.streak}" if self.match.streak else ""
            self._say(f"Hand {len(self.match.results) + 1}: dealer seat {e['dealer']}{wind}, {e['wall']} tiles in the wall")
            for seat, tiles in enumerate(e["hands"]):
                self._say(f"  seat {seat} holds {format_tiles(parse_tiles(tiles))}")
        elif kind == "draw":
            pass
        elif kind == "discard":
            self._say(f"  seat {e['seat']} discards {e['tile']}" + (" and declares ready (报叫)" if e.get("ready") else ""))
        elif kind == "ready":
            self._say(f"  seat {e['seat']} declares ready (报叫)")
        elif kind in ("pong", "chow"):
            self._say(f"  seat {e['seat']} {kind}s {e['tile']} from seat {e['source']}")
        elif kind == "kong" and "tiles" in e:
            self._say(f"  seat {e['seat']} lays down {e['kind']} ({''.join(e['tiles'])})")
        elif kind == "kong":
            src = f" from seat {e['source']}" if "source" in e else ""
            self._say(f"  seat {e['seat']} makes a {e['kind']} kong of {e['tile']}{src}")
        elif kind == "replacement" and e.get("taken"):
            self._say(f"  seat {e['seat']} takes the face-up {e['tile']} as his replacement")
        elif kind == "replacement":
            self._say(f"  seat {e['seat']} draws a replacement" + (" for a flower" if e.get("flower") else ""))
        elif kind == "bought":
            self._say("  stakes bought (买点): " + ", ".join(f"seat {s} {b}" for s, b in enumerate(e["stakes"])))
        elif kind == "payment":
            self._say(f"  seat {e['from']} pays seat {e['to']} {e['amount']} ({e['reason']})")
        elif kind == "flower":
            self._say(f"  seat {e['seat']} sets aside the flower {e['tile']} (补花)")
        elif kind == "double":
            self._say(f"  seat {e['seat']} doubles instead of winning (加倍 ×{2 ** e['doublings']})")
        elif kind == "hu":
            how = "by self-draw" if e["self_drawn"] else f"on seat {e.get('source')}'s tile"
            self._say(f"  seat {e['seat']} wins {how} with {e['tile']}")
        elif kind == "exchange":
            moves = "; ".join(f"seat {m['from']} → seat {m['to']}: {''.join(m['tiles'])}" for m in e["moves"])
            self._say(f"  {e['id']}: tiles pass {e['direction']} ({moves})")
        elif kind == "declared":
            self._say(f"  {e['id']}: " + ", ".join(f"seat {s} {v}" for s, v in e["choices"].items()))
        elif kind == "leave":
            self._say(f"  seat {e['seat']} leaves the hand, showing {format_tiles(parse_tiles(e['hand']))} + {e['tile']}")

    def hand_done(self, match, index: int) -> None:
        r = match.results[index]
        if self.as_json:
            self._emit({"type": "hand_result", "hand": index, **r.to_json(), "scores": list(match.scores)})
            return
        unit = self.table.ruleset.scoring.unit_name.zh
        if r.exhausted:
            self._say("  the wall is exhausted (荒庄)")
        if r.wins is not None:
            for i, w in enumerate(r.wins, 1):
                how = "self-drawn" if w.self_drawn else f"on seat {w.discarder}'s {'kong' if w.robbing_kong else 'discard'}"
                for seat, v in sorted(w.valuations.items()):
                    self._say(f"  win {i}: seat {seat} {how}: {_fans(v)} = {v.total}{unit}")
        else:
            for seat, v in sorted(r.valuations.items()):
                self._say(f"  seat {seat}: {_fans(v)} = {v.total}{unit}")
        horses = getattr(r, "horses", None) or []
        if horses:
            self._say("  horses (马): " + "; ".join(_horse(h) for h in horses))
        for p in r.payments:
            to = f"seat {p.payee}" if p.payee >= 0 else "the house"
            self._say(f"  seat {p.payer} pays {to} {p.amount} ({p.reason})")
        self._say("  deltas: " + " ".join(f"{d:+d}" for d in r.deltas) + f"; next dealer seat {r.next_dealer}")

    def finish(self) -> None:
        scores = self.match.scores
        if self.as_json:
            self._emit({"type": "match_result", "scores": list(scores)})
            return
        self._say("")
        self._say("Final scores: " + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(scores)))


def _fans(v) -> str:
    return ", ".join(f"{f.name.zh}{'×' + str(c) if c > 1 else ''} {val * c}" for f, val, c in v.fans)


def _horse(h: dict) -> str:
    owner = f"seat {h['owner']}'s" if h.get("owner") is not None else "reward"
    return f"{h['tile']} ({owner}) points at seat {h['seat']}: {h['mark']}"


def _text(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)
