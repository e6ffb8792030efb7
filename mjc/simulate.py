"""`mjc simulate`: many single hands with bots, and their statistics.

Hand i is dealt from `derive(seed, "simulate", i)` with seat `i % n`
dealing, and its bots are seeded by seed, hand and seat, so a hand plays
the same whichever worker or engine plays it, and any split of the hands
into jobs gives the same counts. `Tally` holds every count a run keeps
(all integers, merged by addition); `mjc balance` reads the same tallies.
"""

from __future__ import annotations

import math
import sys
import time
from collections import Counter

# winners: hands with several winners; win_events, self_drawn_wins,
# exhausted: where wins do not end the hand, each win and how it ended
_SUMS = ("games", "decisions", "wins", "self_draws", "draws", "winners", "win_events", "self_drawn_wins", "exhausted")
_COUNTERS = ("fans", "win_totals", "lengths", "flows")


class Tally:
    """The counts of a run of hands: per hand outcome, fans by id, each
    winner's total, hand lengths (discards made), money moved per hand,
    wins by seat and by seat relative to the dealer, score sums by seat."""

    def __init__(self, players: int):
        self.n = players
        for key in _SUMS:
            setattr(self, key, 0)
        for key in _COUNTERS:
            setattr(self, key, Counter())
        self.deltas = [[0, 0] for _ in range(players)]  # per seat: sum, sum of squares
        self.seat_wins = [0] * players
        self.dealer_wins = [0] * players  # by the winner's seat counted from the dealer (0: the dealer)

    def add_hand(self, game, decisions: int) -> None:
        r = game.result
        n = self.n
        self.games += 1
        self.decisions += decisions
        if r.end == "win":
            self.wins += 1
            self.winners += int(len(r.winners) > 1)
            self.self_draws += int(r.self_drawn)
            for w in r.winners:
                self.seat_wins[w] += 1
                self.dealer_wins[(w - game.dealer) % n] += 1
        else:
            self.draws += 1
        if r.wins is not None:  # wins over time: each win, and how the hand ended
            self.win_events += len(r.wins)
            self.self_drawn_wins += sum(1 for w in r.wins if w.self_drawn)
            self.exhausted += int(r.exhausted)
        for v in r.valuations.values():
            for f, _, c in v.fans:
                self.fans[f.id] += c
        # each win's value (a hand may hold several wins, even by one seat)
        for w in getattr(r, "wins", None) or [r]:
            for v in w.valuations.values():
                self.win_totals[v.total] += 1
        for seat, d in enumerate(r.deltas):
            self.deltas[seat][0] += d
            self.deltas[seat][1] += d * d
        self.lengths[sum(len(st.discards) for st in game.seats)] += 1
        self.flows[sum(d for d in r.deltas if d > 0)] += 1

    def merge(self, other: "Tally") -> None:
        for key in _SUMS:
            setattr(self, key, getattr(self, key) + getattr(other, key))
        for key in _COUNTERS:
            getattr(self, key).update(getattr(other, key))
        for seat in range(self.n):
            self.deltas[seat][0] += other.deltas[seat][0]
            self.deltas[seat][1] += other.deltas[seat][1]
            self.seat_wins[seat] += other.seat_wins[seat]
            self.dealer_wins[seat] += other.dealer_wins[seat]

    def to_json(self) -> dict:
        out = {key: getattr(self, key) for key in _SUMS}
        for key in _COUNTERS:
            out[key] = {str(k): v for k, v in sorted(getattr(self, key).items())}
        out.update(players=self.n, deltas=[list(d) for d in self.deltas], seat_wins=list(self.seat_wins),
                   dealer_wins=list(self.dealer_wins))
        return out


def play_range(args) -> Tally:
    """Hands `start` to `stop` of a run: (variant, players, options, seed, bot, start, stop)."""
    variant, players, options, seed, bot, start, stop = args
    from runtime.bots import make_bot
    from runtime.game import deal
    from runtime.registry import load
    from runtime.shuffle import derive

    table = load(variant).configure(options, players)
    n = table.players
    tally = Tally(n)
    for i in range(start, stop):
        game = deal(table, derive(seed, "simulate", i), dealer=i % n)
        bots = [make_bot(bot, f"{seed}/{i}/{seat}") for seat in range(n)]
        decisions = 0
        while not game.over:
            for seat in game.to_act():
                game.apply(seat, bots[seat].choose(game, seat))
                decisions += 1
                if game.over:
                    break
        tally.add_hand(game, decisions)
    return tally


def jobs(table, games: int, seed, bot: str, chunk: int):
    """The run's jobs, made as they are asked for."""
    name, n, options = table.ruleset.name, table.players, dict(table.option_values)
    for s in range(0, games, chunk):
        yield (name, n, options, str(seed), bot, s, min(s + chunk, games))


def chunk_size(games: int, workers: int) -> int:
    return max(1, min(200, games // (workers * 4) or 1))


def run_local(table, games: int, seed, bot: str, workers: int = 1, on_part=None) -> Tally:
    """Play the hands here, in `workers` processes; `on_part(tally_so_far)`
    after each job."""
    total = Tally(table.players)
    work = jobs(table, games, seed, bot, chunk_size(games, workers))
    if workers > 1:
        from itertools import islice
        from multiprocessing import Pool

        with Pool(workers) as pool:
            # a few batches in flight: the pool would otherwise read every job first
            while True:
                batch = list(islice(work, workers * 4))
                if not batch:
                    break
                for part in pool.imap_unordered(play_range, batch):
                    total.merge(part)
                    if on_part:
                        on_part(total)
    else:
        for job in work:
            total.merge(play_range(job))
            if on_part:
                on_part(total)
    return total


def simulate(table, games: int, seed, bot: str = "greedy", workers: int = 1, progress: bool = False) -> dict:
    t0 = time.perf_counter()
    total = run_local(table, games, seed, bot, workers, on_part=lambda t: _progress(progress, t.games, games))
    seconds = time.perf_counter() - t0
    if progress:
        sys.stderr.write("\n")
    return summary(table, total, bot, seconds)


def summary(table, total: Tally, bot: str, seconds: float) -> dict:
    """The JSON `mjc simulate --json` prints."""
    g = total.games
    by_seat = []
    for s, q in total.deltas:
        mean = s / g
        by_seat.append({"mean": round(mean, 4), "stdev": round(math.sqrt(max(q / g - mean * mean, 0.0)), 4)})
    return {
        "variant": table.ruleset.name,
        "players": table.players,
        "bot": bot,
        "games": g,
        "decisions": total.decisions,
        "seconds": round(seconds, 4),
        "wins": total.wins,
        "self_draws": total.self_draws,
        "draws": total.draws,
        "win_rate": round(total.wins / g, 4),
        "self_draw_rate": round(total.self_draws / g, 4),
        "draw_rate": round(total.draws / g, 4),
        "multiple_winner_hands": total.winners,
        # name -> count as cli.md says (the 中文 name, as in results), and by id
        "fans": _by_name(table, total.fans),
        "fan_ids": dict(sorted(total.fans.items(), key=lambda kv: (-kv[1], kv[0]))),
        "scores_by_seat": by_seat,
        "games_per_second": round(g / seconds, 2) if seconds else None,
        "decisions_per_second": round(total.decisions / seconds, 1) if seconds else None,
        **({"wins_over_time": {
            "wins": total.win_events,
            "wins_per_hand": round(total.win_events / g, 4),
            "self_drawn_wins": total.self_drawn_wins,
            "exhausted_walls": total.exhausted,
            "exhausted_wall_rate": round(total.exhausted / g, 4),
        }} if table.after_win != "end" else {}),
    }


def _by_name(table, counts: dict) -> dict:
    names = {f.id: f.name.zh for f in table.ruleset.scoring.fans}
    out: dict = {}
    for fid, count in counts.items():
        name = names.get(fid, fid)
        out[name] = out.get(name, 0) + count
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def _progress(enabled: bool, done: int, total: int) -> None:
    if not enabled:
        return
    width = 40
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


def report_text(table, stats: dict) -> str:
    rs = table.ruleset
    g = stats["games"]
    lines = [
        f"{rs.title.zh} ({rs.title.en}), {stats['players']} players, {g} hands, {stats['bot']} bots",
        f"  wins {stats['wins']} ({stats['win_rate']:.1%}), self-draws {stats['self_draws']} ({stats['self_draw_rate']:.1%}), "
        f"exhausted walls {stats['draws']} ({stats['draw_rate']:.1%}), hands with several winners {stats['multiple_winner_hands']}",
        f"  {stats['decisions']} decisions in {stats['seconds']:.2f} s: {stats['games_per_second']} hands/s, "
        f"{stats['decisions_per_second']} decisions/s",
        "  fans (per 100 hands):",
    ]
    flow = stats.get("wins_over_time")
    if flow:
        # wins do not end the hand: count hands by what happened in them, and wins one by one
        lines[1] = (f"  hands with a win {stats['wins']} ({stats['win_rate']:.1%}), with none {stats['draws']} "
                    f"({stats['draw_rate']:.1%}), with several winners {stats['multiple_winner_hands']}")
        lines.insert(2, f"  wins over time: {flow['wins']} wins ({flow['wins_per_hand']:.2f} a hand, "
                        f"{flow['self_drawn_wins']} self-drawn); {flow['exhausted_walls']} hands played to an exhausted "
                        f"wall ({flow['exhausted_wall_rate']:.1%})"
                        + (", the others ended when too few were left in" if table.after_win == "leave" else ""))
    names = {f.id: f.name.both() for f in rs.scoring.fans}
    for fid, count in stats["fan_ids"].items():
        lines.append(f"    {names.get(fid, fid)}: {count} ({100 * count / g:.1f})")
    lines.append("  score by seat (mean ± spread per hand):")
    for seat, s in enumerate(stats["scores_by_seat"]):
        lines.append(f"    seat {seat}: {s['mean']:+.2f} ± {s['stdev']:.2f}")
    return "\n".join(lines)
