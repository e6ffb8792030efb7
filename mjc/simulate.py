"""`mjc simulate`: many single hands with bots, and their statistics."""

from __future__ import annotations

import math
import sys
import time


def _play_range(args) -> dict:
    variant, players, options, seed, bot, start, stop = args
    from runtime.bots import make_bot
    from runtime.game import deal
    from runtime.registry import load
    from runtime.shuffle import derive

    table = load(variant).configure(options, players)
    n = table.players
    bots = [make_bot(bot, f"{seed}/{seat}") for seat in range(n)]
    stats = _empty(n)
    for i in range(start, stop):
        game = deal(table, derive(seed, "simulate", i), dealer=i % n)
        while not game.over:
            for seat in game.to_act():
                game.apply(seat, bots[seat].choose(game, seat))
                stats["decisions"] += 1
                if game.over:
                    break
        r = game.result
        stats["games"] += 1
        if r.end == "win":
            stats["wins"] += 1
            stats["winners"] += int(len(r.winners) > 1)
            stats["self_draws"] += int(r.self_drawn)
        else:
            stats["draws"] += 1
        if r.wins is not None:  # wins over time: each win, and how the hand ended
            stats["win_events"] += len(r.wins)
            stats["self_drawn_wins"] += sum(1 for w in r.wins if w.self_drawn)
            stats["exhausted"] += int(r.exhausted)
        for v in r.valuations.values():
            for f, _, c in v.fans:
                stats["fans"][f.id] = stats["fans"].get(f.id, 0) + c
        for seat, d in enumerate(r.deltas):
            stats["deltas"][seat][0] += d
            stats["deltas"][seat][1] += d * d
    return stats


_COUNTS = ("games", "decisions", "wins", "self_draws", "draws", "winners", "win_events", "self_drawn_wins", "exhausted")


def _empty(n: int) -> dict:
    return {**{key: 0 for key in _COUNTS}, "fans": {}, "deltas": [[0, 0] for _ in range(n)]}


def _merge(into: dict, part: dict) -> None:
    for key in _COUNTS:
        into[key] += part[key]
    for f, c in part["fans"].items():
        into["fans"][f] = into["fans"].get(f, 0) + c
    for seat, (s, q) in enumerate(part["deltas"]):
        into["deltas"][seat][0] += s
        into["deltas"][seat][1] += q


def simulate(table, games: int, seed, bot: str = "greedy", workers: int = 1, progress: bool = False) -> dict:
    n = table.players
    chunk = max(1, min(200, games // (workers * 4) or 1))
    # the jobs are made as they are played, never all at once (--games may be huge)
    jobs = ((table.ruleset.name, n, dict(table.option_values), str(seed), bot, s, min(s + chunk, games))
            for s in range(0, games, chunk))
    total = _empty(n)
    t0 = time.perf_counter()
    if workers > 1:
        from multiprocessing import Pool

        from itertools import islice

        with Pool(workers) as pool:
            # a few batches in flight: the pool would otherwise read every job first
            while True:
                batch = list(islice(jobs, workers * 4))
                if not batch:
                    break
                for part in pool.imap_unordered(_play_range, batch):
                    _merge(total, part)
                    _progress(progress, total["games"], games)
    else:
        for job in jobs:
            _merge(total, _play_range(job))
            _progress(progress, total["games"], games)
    seconds = time.perf_counter() - t0
    if progress:
        sys.stderr.write("\n")
    g = total["games"]
    by_seat = []
    for s, q in total["deltas"]:
        mean = s / g
        by_seat.append({"mean": round(mean, 4), "stdev": round(math.sqrt(max(q / g - mean * mean, 0.0)), 4)})
    return {
        "variant": table.ruleset.name,
        "players": n,
        "bot": bot,
        "games": g,
        "decisions": total["decisions"],
        "seconds": round(seconds, 4),
        "wins": total["wins"],
        "self_draws": total["self_draws"],
        "draws": total["draws"],
        "win_rate": round(total["wins"] / g, 4),
        "self_draw_rate": round(total["self_draws"] / g, 4),
        "draw_rate": round(total["draws"] / g, 4),
        "multiple_winner_hands": total["winners"],
        # name -> count as cli.md says (the 中文 name, as in results), and by id
        "fans": _by_name(table, total["fans"]),
        "fan_ids": dict(sorted(total["fans"].items(), key=lambda kv: (-kv[1], kv[0]))),
        "scores_by_seat": by_seat,
        "games_per_second": round(g / seconds, 2) if seconds else None,
        "decisions_per_second": round(total["decisions"] / seconds, 1) if seconds else None,
        **({"wins_over_time": {
            "wins": total["win_events"],
            "wins_per_hand": round(total["win_events"] / g, 4),
            "self_drawn_wins": total["self_drawn_wins"],
            "exhausted_walls": total["exhausted"],
            "exhausted_wall_rate": round(total["exhausted"] / g, 4),
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
