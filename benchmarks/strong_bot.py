"""The strong bot against greedy bots: its average score per hand with a
95 % interval, and how long it takes to decide.

    python3 -m benchmarks.strong_bot [--hands 2000] [--variants a,b,...] [--seed S] [--workers W]

Each hand seats one strong bot and greedy bots at the other seats. Hands
are played in duplicate: every deal (wall and dealer) is played once with
the strong bot at each seat in turn, so the luck of the tiles is shared out
evenly and cancels in the comparison; the mean is over hands, its 95 %
interval over deals (each deal's mean across the seats, the deals being
independent). Every seat and every dealer position is played equally. Four-seat variants are
measured at four players, two-player variants 1 strong against 1 greedy.
Decision times are those of the strong bot alone, after the table's
profile is built, measured twice: as the CPU time of the deciding thread
(what a decision costs a server's core, steady when other processes share
the machine) and as wall-clock time (what a player waits on an idle core;
inflated by any other load) (a one-time cost per table
configuration and process, reported as `profile_build_s`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time



def _play(args) -> dict:
    variant, start, stop, seed, opponent = args
    from runtime.bots import make_bot
    from runtime.game import deal
    from runtime.registry import load
    from runtime.shuffle import derive

    table = load(variant).configure(None, _players(variant))
    n = table.players
    t0 = time.perf_counter()
    warm(table)
    warmup = time.perf_counter() - t0
    scores, times, walls = [], [], []
    decisions = 0
    for i in range(start, stop):
        strong_seat, dealt = i % n, i // n  # duplicate: deal `dealt` once with the strong bot at each seat
        bots = [make_bot("strong" if s == strong_seat else opponent, f"{seed}/{i}/{s}") for s in range(n)]
        game = deal(table, derive(seed, "strong-bench", dealt), dealer=dealt % n)
        while not game.over:
            for seat in game.to_act():
                if seat == strong_seat:
                    t0, c0 = time.perf_counter(), time.thread_time()
                    action = bots[seat].choose(game, seat)
                    times.append(time.thread_time() - c0)
                    walls.append(time.perf_counter() - t0)
                    decisions += 1
                else:
                    action = bots[seat].choose(game, seat)
                game.apply(seat, action)
                if game.over:
                    break
        scores.append(game.result.deltas[strong_seat])
    return {"scores": scores, "times": times, "walls": walls, "warmup": warmup}


def warm(table) -> None:
    """Build the table's profile (its plans' samples and rates) before any
    decision is timed: a one-time cost per table configuration and process."""
    from bots.value import profile

    prof = profile(table)
    for plan in prof.plans:
        prof.rates(plan)
        prof.value(plan, False)
        prof.value(plan, True)


def _players(variant: str) -> int:
    from runtime.registry import load

    rs = load(variant)
    return 4 if 4 in rs.players else max(rs.players)


def measure(variant: str, hands: int, seed: str = "bench", workers: int = 1, opponent: str = "greedy") -> dict:
    n = _players(variant)
    hands = -(-hands // n) * n  # whole deals: each played at every seat
    chunk = max(1, min(100, hands // max(1, workers * 4)))
    jobs = [(variant, s, min(s + chunk, hands), seed, opponent) for s in range(0, hands, chunk)]
    scores, times, walls, warmups = [], [], [], []
    t0 = time.perf_counter()
    if workers > 1:
        from multiprocessing import Pool

        with Pool(workers) as pool:
            for part in pool.imap(_play, jobs):
                scores += part["scores"]
                times += part["times"]
                walls += part["walls"]
                warmups.append(part["warmup"])
    else:
        for job in jobs:
            part = _play(job)
            scores += part["scores"]
            times += part["times"]
            walls += part["walls"]
            warmups.append(part["warmup"])
    wall = time.perf_counter() - t0
    mean = sum(scores) / len(scores)
    deals = [sum(scores[d:d + n]) / n for d in range(0, len(scores), n)]  # jobs come back in order
    var = sum((x - mean) ** 2 for x in deals) / max(1, len(deals) - 1)
    half = 1.96 * math.sqrt(var / len(deals))
    times.sort()
    walls.sort()
    return {
        "variant": variant,
        "hands": len(scores),
        "deals": len(deals),
        "mean": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "decisions": len(times),
        "decisions_per_second": round(len(times) / sum(times), 1) if times else None,
        "p50_ms": round(1000 * times[len(times) // 2], 2) if times else None,
        "p99_ms": round(1000 * times[int(len(times) * 0.99)], 2) if times else None,
        "max_ms": round(1000 * times[-1], 2) if times else None,
        "wall_p50_ms": round(1000 * walls[len(walls) // 2], 2) if walls else None,
        "wall_p99_ms": round(1000 * walls[int(len(walls) * 0.99)], 2) if walls else None,
        "profile_build_s": round(max(warmups), 2) if warmups else None,
        "seconds": round(wall, 1),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.strong_bot", description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--variants", help="comma-separated (default: every compiled variant)")
    p.add_argument("--seed", default="bench")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--against", default="greedy", help="the other seats' bot (default greedy)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    from runtime.registry import names

    rows = []
    for v in (args.variants.split(",") if args.variants else names()):
        row = measure(v.strip(), args.hands, args.seed, args.workers, args.against)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"{row['variant']:<18} {row['hands']:>6} hands  mean {row['mean']:+8.3f}  95% [{row['ci95'][0]:+.3f}, "
                f"{row['ci95'][1]:+.3f}]  {row['decisions_per_second']} decisions/s  CPU p50 {row['p50_ms']} ms  "
                f"p99 {row['p99_ms']} ms  max {row['max_ms']} ms  wall p99 {row['wall_p99_ms']} ms  profile {row['profile_build_s']} s  ({row['seconds']} s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
