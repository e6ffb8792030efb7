"""`mjc balance`: a designer's report on a variant played by bots, one or
several option settings side by side (docs/balance.md).

    mjc balance VARIANT --hands N [--compare 'K=V ...' 'K=V ...'] --out DIR
                [--bot strong|greedy|random] [--engine local|ray] [--address auto]
                [--workers W] [--seed S] [--players P] [--option K=V]...

Every setting plays the same N hands (the same seeds as `mjc simulate`),
counted by `mjc.simulate.Tally`. DIR receives report.html (self-contained:
the plots are embedded), the plots as PNG files, counts.json and
counts.csv with the raw counts. Hands are played in local processes
(multiprocessing, the default) or on a Ray cluster (`--engine ray`, the
`ray` extra); the same seeds give the same counts on either.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import math
import os
import sys
import time
from pathlib import Path

from .simulate import Tally, chunk_size, jobs, play_range, run_local, summary


class BalanceError(Exception):
    """Bad input to `mjc balance`: printed, exit 2."""


def add_arguments(sub) -> None:
    s = sub.add_parser("balance", help="a report comparing option settings played by bots (plots, intervals, counts)")
    s.add_argument("variant")
    s.add_argument("--hands", type=int, required=True, help="hands per setting")
    s.add_argument("--compare", nargs="+", metavar="'K=V ...'",
                   help="option settings to compare, each a quoted list of KEY=VALUE (default: the table's options)")
    s.add_argument("--out", required=True, help="the folder for report.html, the plots and the counts")
    s.add_argument("--bot", choices=["strong", "greedy", "random"], default="strong", help="bot for every seat (default strong)")
    s.add_argument("--engine", choices=["local", "ray"], default="local", help="local processes (default) or a Ray cluster")
    s.add_argument("--address", help="Ray: the cluster to join (auto: the one this machine belongs to); default a local instance")
    s.add_argument("--workers", type=int, help="local processes, or CPUs of a local Ray instance (default: this machine's)")
    s.add_argument("--seed", default="1")
    s.add_argument("--players", type=int, help="player count (default: the variant's)")
    s.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="an option every setting shares; repeatable")


def _pairs(text: str, where: str) -> dict:
    out = {}
    for pair in text.split():
        if "=" not in pair:
            raise BalanceError(f"{where} takes KEY=VALUE pairs, not {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def settings(args) -> list:
    """[(label, options)] of the run."""
    shared = _pairs(" ".join(args.option), "--option")
    if not args.compare:
        return [(" ".join(args.option) or "default", shared)]
    out = []
    for text in args.compare:
        own = _pairs(text, "--compare")
        out.append((text.strip() or "default", {**shared, **own}))
    labels = [label for label, _ in out]
    if len(set(labels)) != len(labels):
        raise BalanceError("--compare names the same setting twice")
    return out


# ------------------------------------------------------------ progress


class Progress:
    """A bar on a terminal (tqdm when installed), a quiet line per 10 % otherwise."""

    def __init__(self, total: int, stream=None):
        self.total = total
        self.stream = stream or sys.stderr
        self.done = 0
        self.tenth = 0
        self.bar = None
        if self.stream.isatty():
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, unit="hand", file=self.stream)
            except ImportError:
                self.bar = None

    def advance(self, done: int) -> None:
        step, self.done = done - self.done, done
        if self.bar is not None:
            self.bar.update(step)
            return
        tenth = self.done * 10 // self.total if self.total else 10
        if tenth > self.tenth:
            self.tenth = tenth
            if self.stream.isatty():
                self.stream.write(f"\rbalance: {10 * self.tenth}%")
            else:
                self.stream.write(f"balance: {10 * self.tenth}% ({self.done}/{self.total} hands)\n")
            self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.stream.isatty():
            self.stream.write("\n")


# ------------------------------------------------------------ engines


def run_ray(table, games: int, seed, bot: str, address=None, workers=None, on_part=None) -> Tally:
    """The same jobs as a local run, spread over a Ray cluster; at most two
    jobs per CPU in flight, merged as they finish."""
    try:
        import ray
    except ImportError:
        raise BalanceError("--engine ray needs Ray: pip install '.[ray]'") from None
    if not ray.is_initialized():
        kwargs = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if address:
            ray.init(address=address, **kwargs)
        else:
            ray.init(num_cpus=workers or os.cpu_count(), **kwargs)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(play_range)
    total = Tally(table.players)
    pending = []
    for job in jobs(table, games, seed, bot, chunk_size(games, cpus)):
        pending.append(remote.remote(job))
        if len(pending) >= 2 * cpus:
            done, pending = ray.wait(pending, num_returns=1)
            for part in ray.get(done):
                total.merge(part)
            if on_part:
                on_part(total)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for part in ray.get(done):
            total.merge(part)
        if on_part:
            on_part(total)
    return total


# ------------------------------------------------------------ statistics


def wilson(k: int, n: int) -> tuple:
    """A proportion with its 95 % Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(counter: dict) -> tuple:
    """Mean of a value -> count distribution, with a 95 % normal interval."""
    n = sum(counter.values())
    if n == 0:
        return 0.0, 0.0, 0.0
    s = sum(float(v) * c for v, c in counter.items())
    q = sum(float(v) ** 2 * c for v, c in counter.items())
    mean = s / n
    var = max(0.0, q / n - mean * mean) * (n / (n - 1) if n > 1 else 1.0)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def seat_means(t: Tally) -> list:
    out = []
    g = max(1, t.games)
    for s, q in t.deltas:
        mean = s / g
        var = max(0.0, q / g - mean * mean) * (g / (g - 1) if g > 1 else 1.0)
        half = 1.96 * math.sqrt(var / g)
        out.append((mean, mean - half, mean + half))
    return out


def fan_rates(t: Tally) -> dict:
    """Fan id -> (per 100 hands, 95 % interval), counts taken as Poisson."""
    g = max(1, t.games)
    return {f: (100 * c / g, 100 * max(0.0, c - 1.96 * math.sqrt(c)) / g, 100 * (c + 1.96 * math.sqrt(c)) / g)
            for f, c in t.fans.items()}


# ------------------------------------------------------------ outputs


def csv_rows(label: str, t: Tally) -> list:
    rows = [(label, key, "", getattr(t, key)) for key in ("games", "decisions", "wins", "self_draws", "draws", "winners")]
    for name in ("fans", "win_totals", "lengths", "flows"):
        rows += [(label, name, str(k), v) for k, v in sorted(getattr(t, name).items(), key=lambda kv: str(kv[0]))]
    for s in range(t.n):
        rows += [(label, "seat_wins", str(s), t.seat_wins[s]), (label, "dealer_wins", str(s), t.dealer_wins[s]),
                 (label, "score_sum", str(s), t.deltas[s][0]), (label, "score_squares", str(s), t.deltas[s][1])]
    return rows


def _plots(table, runs: list, out: Path) -> dict:
    """name -> PNG bytes, each plot with every setting side by side."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    k = len(runs)
    width = 0.8 / k
    names = {f.id: f.name.en or f.name.zh for f in table.ruleset.scoring.fans}
    pngs = {}

    def save(fig, name):
        buf = io.BytesIO()
        fig.tight_layout()
        fig.savefig(buf, format="png", dpi=90)
        plt.close(fig)
        pngs[name] = buf.getvalue()
        (out / f"{name}.png").write_bytes(pngs[name])

    def bars(ax, keys, values_of, xlabels=None):
        for i, (label, t, _) in enumerate(runs):
            vals = [values_of(t, key) for key in keys]
            mid = [v[0] for v in vals]
            err = [[max(0.0, v[0] - v[1]) for v in vals], [max(0.0, v[2] - v[0]) for v in vals]]
            ax.bar([x + (i - (k - 1) / 2) * width for x in range(len(keys))], mid, width, yerr=err, capsize=2,
                   label=label)
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(xlabels or [str(x) for x in keys], rotation=60 if len(keys) > 6 else 0,
                           ha="right" if len(keys) > 6 else "center", fontsize=8)
        if k > 1:
            ax.legend(fontsize=8)

    fans = sorted({f for _, t, _ in runs for f in t.fans}, key=lambda f: -max(t.fans.get(f, 0) for _, t, _ in runs))[:30]
    fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(fans) * k + 2), 4.5))
    rates = [fan_rates(t) for _, t, _ in runs]
    bars(ax, fans, lambda t, f: rates[[r[1] for r in runs].index(t)].get(f, (0, 0, 0)), [names.get(f, f) for f in fans])
    ax.set_ylabel("per 100 hands (95% interval)")
    ax.set_title("Fan frequencies")
    save(fig, "fans")

    totals = sorted({v for _, t, _ in runs for v in t.win_totals}, key=float)
    fig, ax = plt.subplots(figsize=(max(6, 0.3 * len(totals) * k + 2), 4))
    for i, (label, t, _) in enumerate(runs):
        n = max(1, sum(t.win_totals.values()))
        m = mean_ci(t.win_totals)
        ax.bar([x + (i - (k - 1) / 2) * width for x in range(len(totals))], [t.win_totals.get(v, 0) / n for v in totals],
               width, label=f"{label}: mean {m[0]:.2f} [{m[1]:.2f}, {m[2]:.2f}]")
    ax.set_xticks(range(len(totals)))
    ax.set_xticklabels([str(v) for v in totals], fontsize=8)
    ax.set_xlabel(f"value of a win ({table.ruleset.scoring.unit_name.en or table.ruleset.scoring.unit})")
    ax.set_ylabel("share of wins")
    ax.set_title("Value per win (mean with 95% interval)")
    ax.legend(fontsize=8)
    save(fig, "win_values")

    n = table.players
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    bars(axes[0], list(range(n)), lambda t, s: wilson(t.seat_wins[s], t.games), [f"seat {s}" for s in range(n)])
    axes[0].set_title("Win rate by seat (95% interval)")
    bars(axes[1], list(range(n)), lambda t, s: wilson(t.dealer_wins[s], t.games),
         ["dealer"] + [f"dealer+{s}" for s in range(1, n)])
    axes[1].set_title("Win rate by seat from the dealer")
    save(fig, "win_rates")

    fig, ax = plt.subplots(figsize=(max(4, 1.5 * k + 2), 4))
    bars(ax, ["draw"], lambda t, _: wilson(t.draws, t.games), ["exhausted wall"])
    ax.set_ylabel("share of hands (95% interval)")
    ax.set_title("Draw rate")
    save(fig, "draw_rate")

    for name, title, xlabel in (("lengths", "Hand length", "discards in the hand"),
                                ("flows", "Money flow per hand", "points won by the winners of the hand")):
        values = sorted({v for _, t, _ in runs for v in getattr(t, name)}, key=float)
        fig, ax = plt.subplots(figsize=(7, 4))
        for label, t, _ in runs:
            counter = getattr(t, name)
            total = max(1, sum(counter.values()))
            m = mean_ci(counter)
            ax.step([float(v) for v in values], [counter.get(v, 0) / total for v in values], where="mid",
                    label=f"{label}: mean {m[0]:.1f} [{m[1]:.1f}, {m[2]:.1f}]")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share of hands")
        ax.set_title(f"{title} (mean with 95% interval)")
        ax.legend(fontsize=8)
        save(fig, name)

    fig, ax = plt.subplots(figsize=(7, 4))
    means = [seat_means(t) for _, t, _ in runs]
    bars(ax, list(range(n)), lambda t, s: means[[r[1] for r in runs].index(t)][s], [f"seat {s}" for s in range(n)])
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_ylabel("points per hand (95% interval)")
    ax.set_title("Score by seat")
    save(fig, "scores")
    return pngs


def _html(table, args, runs: list, pngs: dict) -> str:
    rs = table.ruleset
    e = html.escape
    rows = []
    for label, t, info in runs:
        win = wilson(t.wins, t.games)
        draw = wilson(t.draws, t.games)
        value = mean_ci(t.win_totals)
        length = mean_ci(t.lengths)
        flow = mean_ci(t.flows)
        rows.append(
            f"<tr><td>{e(label)}</td><td>{t.games}</td><td>{win[0]:.1%} [{win[1]:.1%}, {win[2]:.1%}]</td>"
            f"<td>{draw[0]:.1%} [{draw[1]:.1%}, {draw[2]:.1%}]</td><td>{value[0]:.2f} [{value[1]:.2f}, {value[2]:.2f}]</td>"
            f"<td>{length[0]:.1f}</td><td>{flow[0]:.1f} [{flow[1]:.1f}, {flow[2]:.1f}]</td>"
            f"<td>{info['hands_per_second']:.1f}</td></tr>"
        )
    images = "\n".join(
        f'<figure><img alt="{e(name)}" src="data:image/png;base64,{base64.b64encode(data).decode()}">'
        f"<figcaption>{e(name)}.png</figcaption></figure>" for name, data in pngs.items()
    )
    settings_list = "".join(f"<li><code>{e(label)}</code>: {e(json.dumps(info['options'], ensure_ascii=False))}</li>"
                            for label, _, info in runs)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(rs.title.zh)} balance report</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}td:first-child{{text-align:left}}
figure{{display:inline-block;margin:1em 0}}img{{max-width:100%}}</style></head><body>
<h1>{e(rs.title.zh)} ({e(rs.title.en)}): balance report</h1>
<p>{e(rs.name)}, {table.players} players, {args.hands} hands per setting, {e(args.bot)} bots at every seat,
seed <code>{e(str(args.seed))}</code>, engine {e(args.engine)}. Intervals are 95 %: Wilson for rates, normal for means.</p>
<ul>{settings_list}</ul>
<table><tr><th>setting</th><th>hands</th><th>hands won</th><th>exhausted walls</th><th>value per win</th>
<th>discards per hand</th><th>points per hand won</th><th>hands/s</th></tr>
{''.join(rows)}</table>
{images}
<p>Raw counts: <code>counts.json</code>, <code>counts.csv</code>.</p>
</body></html>
"""


def run(args) -> int:
    from runtime.bots import BOTS
    from runtime.registry import UnknownVariant, load
    from runtime.ruleset import OptionError

    if args.hands < 1:
        raise BalanceError("--hands must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise BalanceError("--workers must be at least 1")
    if args.bot not in BOTS:
        raise BalanceError(f"unknown bot {args.bot!r}")
    try:
        rs = load(args.variant)
    except UnknownVariant as exc:
        raise BalanceError(str(exc)) from None
    tables = []
    for label, options in settings(args):
        try:
            tables.append((label, options, rs.configure(options, args.players)))
        except OptionError as exc:
            raise BalanceError(f"{label}: {exc}") from None
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise BalanceError("the report's plots need matplotlib: pip install '.[balance]'") from None
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BalanceError(f"{args.out}: {exc.strerror}") from None
    progress = Progress(args.hands * len(tables))
    workers = args.workers or os.cpu_count() or 1
    runs = []
    done_before = 0
    for label, options, table in tables:
        t0 = time.perf_counter()

        def on_part(total, base=done_before):
            progress.advance(base + total.games)

        if args.engine == "ray":
            tally = run_ray(table, args.hands, args.seed, args.bot, args.address, args.workers, on_part)
        else:
            tally = run_local(table, args.hands, args.seed, args.bot, workers, on_part)
        seconds = time.perf_counter() - t0
        done_before += args.hands
        runs.append((label, tally, {"options": dict(table.option_values), "seconds": round(seconds, 3),
                                    "hands_per_second": tally.games / seconds if seconds else 0.0,
                                    "summary": summary(table, tally, args.bot, seconds)}))
    progress.close()
    data = {
        "variant": rs.name, "players": tables[0][2].players, "hands": args.hands, "bot": args.bot, "seed": str(args.seed),
        "engine": args.engine,
        "settings": [{"label": label, **info, "counts": t.to_json()} for label, t, info in runs],
    }
    (out / "counts.json").write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    with open(out / "counts.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["setting", "metric", "key", "count"])
        for label, t, _ in runs:
            w.writerows(csv_rows(label, t))
    pngs = _plots(tables[0][2], runs, out)
    (out / "report.html").write_text(_html(tables[0][2], args, runs, pngs), encoding="utf-8")
    for label, t, info in runs:
        print(f"{label}: {t.games} hands in {info['seconds']:.1f} s ({info['hands_per_second']:.1f} hands/s), "
              f"won {t.wins / t.games:.1%}, exhausted walls {t.draws / t.games:.1%}")
    print(f"wrote {out / 'report.html'}")
    return 0
