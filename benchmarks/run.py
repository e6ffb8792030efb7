"""Benchmarks as the contract: every figure of issue 14's table in one run,
ours beside a public peer, interleaved (a tool, not part of CI's pass/fail).

    pip install '.[bench,oracle]'
    python -m benchmarks.run                     # every row, ~10 s per figure and side
    python -m benchmarks.run --seconds 3         # shorter
    python -m benchmarks.run --only score        # score | games | server | wilds (mcr = score)
    python -m benchmarks.run --json              # the figures as JSON
    python -m benchmarks.run --only games --baseline REV   # also 云南卡二条 as git revision REV plays it

Rows (each: ours, the peer, the ratio and the issue's goal):

- MCR scoring, hand JSON in → result out: our `mjc score` path
  (`mjc.handjson.score_hand`: read the hand, score it, the result object)
  against PyMahjongGB 1.4 (C++), fed the same hands through the conversion
  to its arguments and the call;
- MCR calculators alone: our `runtime.scoring.evaluate` on the parsed hand
  against `MahjongFanCalculator` on its prepared arguments;
- random play, 云南卡二条, 4 players, decisions per second, against
  rlcard's `mahjong` environment with its random agents (one `env.step` a
  decision);
- random play, MCR, 4 players, hands per second, against riichienv (Rust,
  Japanese riichi: its `RandomAgent` on its own one-hand game,
  `game_mode="4p-red-single"`);
- beside them, without a peer: 云南卡二条 hand JSON lines scored (JSON in,
  JSON out) and 四川 血战到底 random play;
- the game server's CPU per move (`benchmarks.server_load` in short: 10
  tables of 云南卡二条 played over sockets, SQLite).

How it measures. Each build of ours runs in a process of its own: the
pure-Python sources (`MJC_PURE=1`) and, where it is installed, the
compiled build (without `MJC_PURE`), as `runtime.build_info()` reports;
the peers run in a third process. The parent asks them for slices in turn
(five slices per figure, the order of the sides rotating), so that every
side sees the same load on a shared machine; a figure is the sum of its
slices' counts over the sum of their timed seconds, and the ratios are the
figures to trust on a busy machine. Hands are fresh in every slice: each
slice draws new random hands (or deals new walls) from a seed of its own,
the same for ours and the peer, and nothing is scored twice in a slice, so
no cache keyed on a whole hand can raise a figure; hand generation and the
peers' argument preparation for "calculators alone" are outside the timed
part, and one untimed warm-up batch precedes the first slice. `--only
wilds` adds the 潮州 wild-tile study (our per-suit joker tables against
brute-force substitution).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLICES = 5
BATCH = 250  # hands drawn, then scored, at a time within a slice


class Ours:
    """Complete 4-player hands of a variant (云南卡二条 by default) with one kind of bot."""

    def __init__(self, bot: str, variant: str = "yunnan_ka_er_tiao"):
        from runtime.bots import make_bot
        from runtime.registry import load

        self.table = load(variant).configure({}, 4)
        self.bots = [make_bot(bot, s) for s in range(4)]
        self.games = self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float, prefix: str = "bench") -> None:
        from runtime.game import deal

        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            game = deal(self.table, f"{prefix}-{self.games}", dealer=self.games % 4)
            bots = self.bots
            while not game.over:
                for seat in game.to_act():
                    game.apply(seat, bots[seat].choose(game, seat))
                    self.decisions += 1
                    if game.over:
                        break
            self.games += 1
        self.seconds += time.perf_counter() - start


class Rlcard:
    """rlcard's `mahjong` environment with its random agents."""

    def __init__(self):
        import rlcard
        from rlcard.agents import RandomAgent

        self.version = getattr(rlcard, "__version__", "?")
        self.env = rlcard.make("mahjong", config={"seed": 0})
        self.agent = RandomAgent(num_actions=self.env.num_actions)
        self.games = self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float, prefix: str = "") -> None:
        env, agent = self.env, self.agent
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(agent.step(state))
                self.decisions += 1
            self.games += 1
        self.seconds += time.perf_counter() - start


_BASELINE_SLICE = """
import json, sys, time
sys.path.insert(0, {root!r})
from runtime.bots import make_bot
from runtime.game import deal
from runtime.registry import load
table = load("yunnan_ka_er_tiao").configure({{}}, 4)
bots = [make_bot("random", s) for s in range(4)]
games = decisions = 0
first = {first}
start = time.perf_counter()
while time.perf_counter() - start < {seconds}:
    game = deal(table, f"bench-{{first + games}}", dealer=(first + games) % 4)
    while not game.over:
        for seat in game.to_act():
            game.apply(seat, bots[seat].choose(game, seat))
            decisions += 1
            if game.over:
                break
    games += 1
print(json.dumps({{"games": games, "decisions": decisions, "seconds": time.perf_counter() - start}}))
"""


class Baseline:
    """Our 云南卡二条 random games as a revision of this repository plays
    them (a git worktree at that revision), each slice in a fresh
    subprocess; `rev` None is this tree, run the same way, so that the two
    compare like for like in one run."""

    def __init__(self, rev: str | None):
        import subprocess
        import tempfile
        from pathlib import Path

        self.root = Path(__file__).resolve().parent.parent
        self.games = self.decisions = 0
        self.seconds = 0.0
        if rev is None:
            self.rev, self.dir = "this tree", self.root
            return
        self.rev = subprocess.run(["git", "-C", str(self.root), "rev-parse", "--short", rev], check=True,
                                  capture_output=True, text=True).stdout.strip()
        self.dir = Path(tempfile.mkdtemp(prefix="mjc-baseline-")) / self.rev
        subprocess.run(["git", "-C", str(self.root), "worktree", "add", "--detach", str(self.dir), rev], check=True,
                       capture_output=True)

    def run(self, seconds: float) -> None:
        import subprocess

        import os

        code = _BASELINE_SLICE.format(root=str(self.dir), first=self.games, seconds=seconds)
        env = dict(os.environ, MJC_PURE="1")  # like for like: the revision's sources and this tree's, both pure Python
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=str(self.dir),
                             env=env)
        r = json.loads(out.stdout)
        self.games += r["games"]
        self.decisions += r["decisions"]
        self.seconds += r["seconds"]

    def close(self) -> None:
        import subprocess

        if self.dir != self.root:
            subprocess.run(["git", "-C", str(self.root), "worktree", "remove", "--force", str(self.dir)],
                           capture_output=True)


def random_winning_hands(count: int, seed: int | str = 1) -> list[str]:
    """Hand JSON lines: four sets and a pair drawn from the 72 tiles."""
    from runtime.tiles import NAMES

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        left = {t: 4 for t in range(9, 27)}
        tiles = []
        ok = True
        for _ in range(4):
            if rng.random() < 0.6:
                t = rng.choice([t for t in left if t % 9 <= 6 and left[t] and left[t + 1] and left[t + 2]] or [None])
                if t is None:
                    ok = False
                    break
                group = [t, t + 1, t + 2]
            else:
                t = rng.choice([t for t in left if left[t] >= 3] or [None])
                if t is None:
                    ok = False
                    break
                group = [t, t, t]
            for x in group:
                left[x] -= 1
            tiles += group
        pairs = [t for t in left if left[t] >= 2]
        if not ok or not pairs:
            continue
        p = rng.choice(pairs)
        tiles += [p, p]
        win = tiles.pop(rng.randrange(len(tiles)))
        out.append(json.dumps({"concealed": [NAMES[t] for t in tiles], "win_tile": NAMES[win],
                               "self_drawn": rng.random() < 0.5}))
    return out


def _wild_hands(count: int, size: int, wilds: int, seed: int) -> list[list[int]]:
    from runtime.tiles import counts_of

    rng = random.Random(seed)
    pool = [t for t in range(34) if t != 31 for _ in range(4)]
    return [counts_of(rng.sample(pool, size - wilds) + [31] * wilds) for _ in range(count)]


def _rate(fn, hands, seconds: float) -> float:
    """Hands per second after one warm-up pass (the caches a long-running
    server would have)."""
    for h in hands:
        fn(h)
    done = 0
    start = time.perf_counter()
    while True:
        for h in hands:
            fn(h)
        done += len(hands)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def bench_wilds(seconds: float) -> dict:
    from itertools import combinations_with_replacement

    from runtime import analysis
    from runtime import hand as hm
    from runtime.registry import load

    table = load("chaozhou").configure({"gui_pai": "bai_ban"}, 4)
    plain = load("chaozhou").configure({}, 4)
    kinds = [t for t in range(34)]

    def brute_complete(counts):
        base = list(counts)
        n = base[31]
        base[31] = 0
        for subst in combinations_with_replacement(kinds, n):
            full = list(base)
            for t in subst:
                full[t] += 1
            if max(full[:34]) <= 4 and analysis.is_complete(plain, full, []):
                return True
        return False

    def brute_waits(counts):
        out = []
        for t in kinds:
            counts[t] += 1
            if counts[t] <= 4 and brute_complete(counts):
                out.append(t)
            counts[t] -= 1
        return out

    report = {}
    share = seconds / 22
    no_wild_table = [_rate(lambda c: analysis.is_complete(plain, c, []), _wild_hands(500, 14, 0, 0), share),
                     _rate(lambda c: analysis.waits(plain, c, []), _wild_hands(300, 13, 0, 10), share)]
    for w in range(5):
        wins = _wild_hands(500, 14, w, w)
        waits = _wild_hands(300, 13, w, 10 + w)
        ours_win = _rate(lambda c: analysis.is_complete(table, c, []), wins, share)
        ours_waits = _rate(lambda c: analysis.waits(table, c, []), waits, share)
        few = max(2, 40 // (1 + 8 * w * w))
        brute_win = _rate(brute_complete, wins[:few * 5], share)
        brute_w = _rate(brute_waits, waits[:few], share)
        report[w] = {"win_checks_per_s": ours_win, "waits_per_s": ours_waits,
                     "brute_win_checks_per_s": brute_win, "brute_waits_per_s": brute_w}
    base = report[0]
    for w in range(5):
        report[w]["win_check_time_vs_no_wilds"] = base["win_checks_per_s"] / report[w]["win_checks_per_s"]
        report[w]["waits_time_vs_no_wilds"] = base["waits_per_s"] / report[w]["waits_per_s"]
        report[w]["win_check_time_vs_table_without_wilds"] = no_wild_table[0] / report[w]["win_checks_per_s"]
        report[w]["waits_time_vs_table_without_wilds"] = no_wild_table[1] / report[w]["waits_per_s"]
    report["table_without_wilds"] = {"win_checks_per_s": no_wild_table[0], "waits_per_s": no_wild_table[1]}
    return report


# ------------------------------------------------------------------ the figures

# row id: (label, unit, the peer or None, the goal as a ratio to the peer or None)
ROWS = {
    "mcr_json": ("MCR scoring, hand JSON in → result out", "hands/s", "PyMahjongGB", 0.5),
    "mcr_calc": ("MCR calculators alone", "hands/s", "PyMahjongGB", 0.3),
    "ket_play": ("random play, 云南卡二条 4 players", "decisions/s", "rlcard", 20.0),
    "mcr_play": ("random play, MCR 4 players", "hands/s", "riichienv", 1.5),
    "ket_score": ("云南卡二条 scoring, hand JSON line in → JSON line out", "hands/s", None, None),
    "xuezhan_play": ("random play, 四川 血战到底 4 players", "decisions/s", None, None),
}
GROUPS = {"score": ["mcr_json", "mcr_calc", "ket_score"], "games": ["ket_play", "mcr_play", "xuezhan_play"]}
GROUPS["mcr"] = GROUPS["score"]
ISSUE = {"mcr_json": "~11,500/s vs ~101,000/s (0.11×)", "mcr_calc": "~15,400/s vs ~230,000/s (0.07×)",
         "ket_play": "~50,000/s vs ~5,300/s (9.5×)", "mcr_play": "~430/s vs ~650/s (0.66×)"}


def _mcr_hands(seed: str, batch: int) -> list[dict]:
    from benchmarks import pymahjonggb as oracle

    rng = random.Random(f"{seed}/{batch}")
    return [oracle.random_hand(rng) for _ in range(BATCH)]


class Worker:
    """The measures one process runs: ours (in whichever build this process
    imported) or the peers. Each call is one slice."""

    def __init__(self):
        self.state: dict = {}

    def _once(self, key, make):
        if key not in self.state:
            self.state[key] = make()
        return self.state[key]

    # --- batches of fresh hands: time only `timed(prepared item)` over each batch
    def _batched(self, seconds: float, seed: str, draw, prepare, timed) -> dict:
        done, spent, batch = 0, 0.0, 0
        while spent < seconds:
            items = [prepare(x) for x in draw(seed, batch)]
            start = time.perf_counter()
            for item in items:
                timed(item)
            spent += time.perf_counter() - start
            done += len(items)
            batch += 1
        return {"count": done, "seconds": spent}

    def _warm(self, key, draw, prepare, timed) -> None:
        if ("warm", key) not in self.state:
            self.state[("warm", key)] = True
            for item in draw("warm-up", 0):
                timed(prepare(item))

    def run(self, measure: str, seconds: float, seed: str) -> dict:
        row, side = measure.split(":")
        fn = getattr(self, f"{row}_{side}")
        return fn(seconds, seed)

    # MCR from hand JSON
    def mcr_json_ours(self, seconds, seed):
        from mjc.handjson import score_hand
        from runtime.registry import load

        rs = self._once("mcr", lambda: load("mcr"))
        cache = self._once("mcr_cache", dict)  # keyed by the table options only

        def timed(hand):
            score_hand(hand, rs, cache)

        self._warm("mcr_json", _mcr_hands, lambda h: h, timed)
        return self._batched(seconds, seed, _mcr_hands, lambda h: h, timed)

    def mcr_json_peer(self, seconds, seed):
        from benchmarks import pymahjonggb as oracle

        if not oracle.available():
            return {"absent": "PyMahjongGB is not installed (pip install '.[oracle]')"}
        from MahjongGB import MahjongFanCalculator

        def timed(hand):
            try:
                MahjongFanCalculator(**oracle.their_call(hand))
            except TypeError:
                pass

        self._warm("mcr_json_peer", _mcr_hands, lambda h: h, timed)
        out = self._batched(seconds, seed, _mcr_hands, lambda h: h, timed)
        return dict(out, peer=f"PyMahjongGB {_version('pymahjonggb')} (C++)")

    def mcr_calc_ours(self, seconds, seed):
        from mjc.handjson import parse_hand
        from runtime.registry import load
        from runtime.scoring import evaluate

        table = self._once("mcr_table", lambda: load("mcr").configure({}))

        def timed(ctx):
            evaluate(table, ctx)

        self._warm("mcr_calc", _mcr_hands, lambda h: parse_hand(h, table), timed)
        return self._batched(seconds, seed, _mcr_hands, lambda h: parse_hand(h, table), timed)

    def mcr_calc_peer(self, seconds, seed):
        from benchmarks import pymahjonggb as oracle

        if not oracle.available():
            return {"absent": "PyMahjongGB is not installed (pip install '.[oracle]')"}
        from MahjongGB import MahjongFanCalculator

        def timed(call):
            try:
                MahjongFanCalculator(**call)
            except TypeError:
                pass

        self._warm("mcr_calc_peer", _mcr_hands, oracle.their_call, timed)
        out = self._batched(seconds, seed, _mcr_hands, oracle.their_call, timed)
        return dict(out, peer=f"PyMahjongGB {_version('pymahjonggb')} (C++)")

    def ket_score_ours(self, seconds, seed):
        from mjc.handjson import score_hand
        from runtime.registry import load

        rs = self._once("ket", lambda: load("yunnan_ka_er_tiao"))
        cache = self._once("ket_cache", dict)

        def draw(s, batch):
            return random_winning_hands(BATCH, seed=f"{s}/{batch}")

        def timed(line):
            json.dumps(score_hand(json.loads(line), rs, cache), ensure_ascii=False)

        self._warm("ket_score", draw, lambda x: x, timed)
        return self._batched(seconds, seed, draw, lambda x: x, timed)

    # random play
    def _play(self, key, make, seconds, seed):
        runner = self._once(key, make)
        if ("warm", key) not in self.state:
            self.state[("warm", key)] = True
            runner.run(min(0.2, seconds), "warm-up")
        games, decisions, spent = runner.games, runner.decisions, runner.seconds
        runner.run(seconds, seed)
        return {"count": runner.games - games, "decisions": runner.decisions - decisions,
                "seconds": runner.seconds - spent}

    def ket_play_ours(self, seconds, seed):
        return self._play("ket_play", lambda: Ours("random"), seconds, seed)

    def xuezhan_play_ours(self, seconds, seed):
        return self._play("xuezhan_play", lambda: Ours("random", "sichuan_xuezhan"), seconds, seed)

    def mcr_play_ours(self, seconds, seed):
        return self._play("mcr_play", lambda: Ours("random", "mcr"), seconds, seed)

    def ket_play_peer(self, seconds, seed):
        try:
            import rlcard  # noqa: F401
        except ImportError:
            return {"absent": "rlcard is not installed (pip install '.[bench]')"}
        out = self._play("ket_play_peer", Rlcard, seconds, seed)
        return dict(out, peer=f"rlcard {self.state['ket_play_peer'].version} mahjong")

    def mcr_play_peer(self, seconds, seed):
        try:
            import riichienv  # noqa: F401
        except ImportError as exc:
            return {"absent": f"riichienv is not installed (pip install '.[bench]'): {exc}"}
        out = self._play("mcr_play_peer", Riichienv, seconds, seed)
        return dict(out, peer=f"riichienv {_version('riichienv')} (Rust)")


class Riichienv:
    """riichienv's own game (Japanese riichi, one hand: `4p-red-single`)
    with its random agent at every seat; a decision is one agent's action."""

    def __init__(self):
        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent

        self.make = lambda seed: RiichiEnv(game_mode="4p-red-single", seed=seed)
        self.agent = RandomAgent(seed=0)
        self.games = self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float, prefix: str = "") -> None:
        agent = self.agent
        base = random.Random(prefix).randrange(1 << 30)
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            env = self.make(base + self.games)
            obs = env.reset()
            while not env.done():
                actions = {seat: agent.act(o) for seat, o in obs.items()}
                self.decisions += len(actions)
                obs = env.step(actions)
            self.games += 1
        self.seconds += time.perf_counter() - start


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # noqa: BLE001 - a version is only a label here
        return "?"


def build_label() -> dict:
    """This process's build, as `runtime.build_info()` says (absent: pure)."""
    import runtime

    info = getattr(runtime, "build_info", None)
    if info is None:
        return {"build": "pure", "known": False, "info": "runtime.build_info() does not exist in this tree"}
    value = info()
    return {"build": "compiled" if _says_compiled(value) else "pure", "known": True, "info": value}


def _says_compiled(value) -> bool:
    if isinstance(value, dict):
        for key in ("build", "kind", "core"):
            if isinstance(value.get(key), str):
                return value[key].lower().startswith(("compiled", "mypyc", "cython", "native"))
        return bool(value.get("compiled"))
    text = str(value).lower()
    return ("compiled" in text or "mypyc" in text) and "pure" not in text


def worker_main() -> int:
    """`--worker`: answer one JSON request a line on stdin, one JSON reply a line on stdout."""
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write on the reply channel
    worker = Worker()
    print(json.dumps({"ready": build_label()}, default=str), file=out, flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            reply = worker.run(req["measure"], req["seconds"], req["seed"])
        except Exception as exc:  # noqa: BLE001 - reported in the table, not a crash of the run
            reply = {"absent": f"failed: {type(exc).__name__}: {exc}"}
        print(json.dumps(reply, default=str), file=out, flush=True)
    return 0


def installed_first(module: str | None, *args: str, code: str | None = None) -> list[str]:
    """A command running `module` (or `code`) with the installed packages
    ahead of this checkout (`-P`, the checkout appended to sys.path): a
    compiled install is measured as installed, not shadowed by the
    checkout's sources; without an install the checkout is used."""
    head = f"import runpy, sys; sys.path.append({str(ROOT)!r}); "
    if code is None:
        code = head + f"sys.argv = [{module!r}, *{list(args)!r}]; runpy.run_module({module!r}, run_name='__main__')"
    else:
        code = head + code
    return [sys.executable, "-P", "-c", code]


class Side:
    """A worker process: one build of ours, or the peers."""

    def __init__(self, name: str, pure: bool):
        env = dict(os.environ)
        env.pop("MJC_PURE", None)
        if pure:
            env["MJC_PURE"] = "1"
        self.name = name
        self.env = env
        self.proc = subprocess.Popen(installed_first("benchmarks.run", "--worker"), cwd=str(ROOT), env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = self.proc.stdout.readline()
        if not hello:
            raise RuntimeError(f"the {name} worker did not start")
        self.label = json.loads(hello)["ready"]

    def ask(self, measure: str, seconds: float, seed: str) -> dict:
        self.proc.stdin.write(json.dumps({"measure": measure, "seconds": seconds, "seed": seed}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            return {"absent": f"the {self.name} worker exited (code {self.proc.poll()})"}
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _add(total: dict | None, part: dict) -> dict:
    if "absent" in part:
        return part
    if total is None or "absent" in total:
        return dict(part)
    for key in ("count", "decisions", "seconds"):
        if key in part:
            total[key] = total.get(key, 0) + part[key]
    return total


def _per_s(figure: dict | None, unit: str) -> float | None:
    if not figure or "absent" in figure or not figure.get("seconds"):
        return None
    n = figure["decisions"] if unit == "decisions/s" else figure["count"]
    return n / figure["seconds"]


def server_cpu(side: Side, seconds: float) -> dict:
    """The server's CPU per move, `benchmarks.server_load` in short, with this side's build."""
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401
    except ImportError:
        return {"absent": "httpx is not installed (pip install '.[test]')"}
    cmd = installed_first("benchmarks.server_load", "--tables", "10", "--hands", "2", "--seconds", f"{seconds:g}",
                          "--json")
    out = subprocess.run(cmd, cwd=str(ROOT), env=side.env, capture_output=True, text=True, timeout=seconds + 120)
    if out.returncode != 0 or not out.stdout.strip():
        return {"absent": f"server_load failed: {out.stderr.strip().splitlines()[-1:] or out.returncode}"}
    row = json.loads(out.stdout.strip().splitlines()[-1])
    return {"ms_per_move": row["server_cpu_ms_per_action"], "moves": row.get("actions"), "tables": 10, "store": row.get("store")}


def machine() -> dict:
    model = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    return {"cpu": model, "cores": os.cpu_count(), "usable_cores": usable, "arch": platform.machine(),
            "system": platform.system(), "python": platform.python_version(),
            "implementation": platform.python_implementation(), "load_average": load,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def compiled_status() -> tuple[bool, str]:
    """Whether a compiled build is installed, and why not."""
    probe = ("import json, runtime; f = getattr(runtime, 'build_info', None); "
             "print(json.dumps([f() if f else None, runtime.__file__], default=str))")
    env = dict(os.environ)
    env.pop("MJC_PURE", None)
    out = subprocess.run(installed_first(None, code=probe), cwd=str(ROOT), env=env, capture_output=True,
                         text=True)
    if out.returncode != 0:
        return False, f"importing runtime failed: {out.stderr.strip().splitlines()[-1:]}"
    value, where = json.loads(out.stdout)
    if value is None:
        return False, f"this tree has no runtime.build_info() ({where}), so no compiled build (issue 14 part 1) to run"
    if not _says_compiled(value):
        return False, (f"not installed: without MJC_PURE, runtime.build_info() says {value!r} ({where}; run from a "
                       "checkout, its sources come first unless the compiled modules were built in place)")
    return True, f"runtime.build_info() says {value!r} ({where})"


def measure(rows: list[str], seconds: float, with_server: bool, baseline: str | None) -> dict:
    where = machine()  # the load average before this run adds its own
    pure = Side("pure", pure=True)
    has_compiled, why = compiled_status()
    sides = {"pure": pure}
    if has_compiled:
        sides["compiled"] = Side("compiled", pure=False)
    peers = Side("peer", pure=True) if any(ROWS[r][2] for r in rows) else None
    before = Baseline(baseline) if baseline else None
    now = Baseline(None) if baseline else None
    figures: dict = {row: {} for row in rows}
    share = seconds / SLICES
    try:
        for i in range(SLICES):
            for row in rows:
                seed = f"{row}/slice-{i}"  # the same fresh hands or walls for every side of this slice
                order = [(name, side, f"{row}:ours") for name, side in sides.items()]
                if ROWS[row][2]:
                    order.append(("peer", peers, f"{row}:peer"))
                k = i % len(order)
                for name, side, what in order[k:] + order[:k]:
                    figures[row][name] = _add(figures[row].get(name), side.ask(what, share, seed))
                if row == "ket_play" and before:
                    before.run(share)
                    now.run(share)
        server = {}
        if with_server:
            for name, side in sides.items():
                server[name] = server_cpu(side, max(3.0, seconds / 2))
    finally:
        for side in list(sides.values()) + ([peers] if peers else []):
            side.close()
        if before:
            before.close()
    report = {"machine": where, "seconds_per_figure": seconds, "slices": SLICES,
              "builds": {name: side.label for name, side in sides.items()},
              "compiled": {"present": has_compiled, "why": why}, "rows": {}}
    for row in rows:
        label, unit, peer, goal = ROWS[row]
        entry = {"label": label, "unit": unit, "goal": goal, "issue_figures": ISSUE.get(row)}
        peer_rate = _per_s(figures[row].get("peer"), unit) if peer else None
        if peer:
            p = figures[row].get("peer") or {}
            entry["peer"] = {"name": p.get("peer", peer), "per_s": peer_rate, **({"absent": p["absent"]} if "absent" in p else {})}
        for name in ("pure", "compiled"):
            f = figures[row].get(name)
            if f is None:
                continue
            rate = _per_s(f, unit)
            entry[name] = {"per_s": rate, **f}
            if peer_rate and rate:
                entry[name]["ratio"] = rate / peer_rate
                entry[name]["meets_goal"] = rate / peer_rate >= goal
        report["rows"][row] = entry
    if "ket_play" in rows and before:
        b, n = before, now
        report["baseline"] = {"rev": b.rev, "decisions_per_s": b.decisions / b.seconds,
                              "this_tree_decisions_per_s": n.decisions / n.seconds,
                              "ratio": (n.decisions / n.seconds) / (b.decisions / b.seconds)}
    if with_server:
        report["server"] = server
    return report


def _n(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def print_table(report: dict) -> None:
    m = report["machine"]
    load = f", load average {m['load_average']:.1f} at the start" if m["load_average"] is not None else ""
    print(f"{m['date']}: {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable), {m['system']} {m['arch']}, "
          f"{m['implementation']} {m['python']}{load}")
    print(f"{report['slices']} interleaved slices per figure and side, {report['seconds_per_figure']:g} s per figure "
          "and side; fresh hands every slice")
    builds = report["builds"]
    cols = [name for name in ("pure", "compiled") if name in builds]
    print()
    head = "| figure | " + " | ".join(f"ours, {c}" for c in cols) + " | peer | " + \
        " | ".join(f"ratio, {c}" for c in cols) + " | goal |"
    print(head)
    print("|" + " --- |" * (head.count("|") - 1))
    for row, e in report["rows"].items():
        unit = e["unit"]
        ours = []
        for c in cols:
            f = e.get(c) or {}
            ours.append(f"{_n(f.get('per_s'))} {unit}" if "absent" not in f else f"failed ({f['absent']})")
        if "peer" in e:
            p = e["peer"]
            peer = f"{p['name']} {_n(p['per_s'])} {unit}" if p.get("per_s") else f"{p['name']}: {p.get('absent', '—')}"
        else:
            peer = "—"
        ratios = []
        for c in cols:
            r = (e.get(c) or {}).get("ratio")
            ratios.append("—" if r is None else f"{r:.2f}×" + ("" if e["goal"] is None else (" ✓" if r >= e["goal"] else " ✗")))
        goal = "—" if e["goal"] is None else f"≥ {e['goal']:g}×"
        print(f"| {e['label']} | " + " | ".join(ours) + f" | {peer} | " + " | ".join(ratios) + f" | {goal} |")
    if "server" in report:
        cells = []
        for c in cols:
            s = report["server"].get(c) or {}
            cells.append(f"{s['ms_per_move']} ms" if "ms_per_move" in s else s.get("absent", "—"))
        print("| server CPU per move (云南卡二条, 10 tables, SQLite) | " + " | ".join(cells) + " | — | "
              + " | ".join("—" for _ in cols) + " | — |")
    print()
    if not report["compiled"]["present"]:
        print(f"compiled column absent: {report['compiled']['why']}")
    for name, label in builds.items():
        print(f"{name} build: {label['info'] if label['known'] else label['info']}")
    if "baseline" in report:
        b = report["baseline"]
        print(f"云南卡二条 random play, fresh process per slice: this tree {b['this_tree_decisions_per_s']:,.0f} decisions/s, "
              f"{b['rev']} {b['decisions_per_s']:,.0f} decisions/s: {b['ratio']:.3f}×")
    issue = [f"{e['label']}: {e['issue_figures']}" for e in report["rows"].values() if e.get("issue_figures")]
    if issue:
        print("issue 14's figures (ours vs peer, another day): " + "; ".join(issue))


def print_wilds(report: dict) -> None:
    plain = report["table_without_wilds"]
    print(f"潮州 without wilds: win checks {plain['win_checks_per_s']:.0f}/s, waits {plain['waits_per_s']:.0f}/s")
    print("潮州 with White wild, by wild tiles held: per second (time against 0 held; against no wilds at all)")
    for w in range(5):
        r = report[w]
        print(f"  {w}: win checks {r['win_checks_per_s']:.0f} ({r['win_check_time_vs_no_wilds']:.1f}x; "
              f"{r['win_check_time_vs_table_without_wilds']:.1f}x), waits {r['waits_per_s']:.0f} "
              f"({r['waits_time_vs_no_wilds']:.1f}x; {r['waits_time_vs_table_without_wilds']:.1f}x); "
              f"brute force: win checks {r['brute_win_checks_per_s']:.1f}, waits {r['brute_waits_per_s']:.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="timed seconds per figure and side, over 5 slices (default 10)")
    ap.add_argument("--only", choices=["score", "mcr", "games", "server", "wilds"], help="run one group of rows")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--baseline", metavar="REV", help="games: also play 云南卡二条 as git revision REV does, interleaved")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker_main()
    if args.only == "wilds":
        report = {"machine": machine(), "wilds": bench_wilds(args.seconds)}
        if args.json:
            print(json.dumps(report, indent=2, ensure_ascii=False, default=str))
        else:
            print_wilds(report["wilds"])
        return 0
    rows = GROUPS.get(args.only, [] if args.only == "server" else GROUPS["score"] + GROUPS["games"])
    if args.baseline and "ket_play" not in rows:
        ap.error("--baseline plays 云南卡二条: use it with --only games or without --only")
    report = measure(rows, args.seconds, with_server=args.only in (None, "server"), baseline=args.baseline)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    else:
        print_table(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
