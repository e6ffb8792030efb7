"""`mjc`: the command line (shared/spec/cli.md).

Exit codes: 0 done, 1 a check failed, 2 bad input (a message, never a
traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EXIT_OK, EXIT_CHECK, EXIT_INPUT = 0, 1, 2


class InputError(Exception):
    """Bad input from the user: printed, exit 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mjc", description="Mahjong rules compiler: variants in YAML, compiled to Python, played by a generic runtime.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser("validate", help="check variant files against the schema and the semantic rules")
    s.add_argument("files", nargs="*", help="variant files (default: every variants/*.yaml)")
    s.add_argument("--variants", default="variants", help="the variants folder (default ./variants)")

    s = sub.add_parser("build", help="compile variants/ into generated/")
    s.add_argument("--check", action="store_true", help="write nothing; exit 1 if generated/ is not up to date")
    s.add_argument("--variants", default="variants", help="the variants folder (default ./variants)")
    s.add_argument("--out", default="generated", help="the output folder (default ./generated)")

    sub.add_parser("list", help="the compiled variants")

    s = sub.add_parser("play", help="play a whole match with bots and print it")
    s.add_argument("variant")
    _table_args(s)
    s.add_argument("--seed", default="1", help="match seed (default 1)")
    s.add_argument("--hands", type=int, help="hands in the match (default: the rounds option)")
    s.add_argument("--bot", choices=["greedy", "random", "strong"], default="greedy", help="bot for every seat (default greedy)")
    s.add_argument("--json", action="store_true", help="print the event log as JSON Lines")

    s = sub.add_parser("score", help="score winning hands given as hand JSON lines")
    s.add_argument("variant")
    s.add_argument("file", nargs="?", help="JSON Lines file (default: standard input)")

    s = sub.add_parser("scenario", help="run scenario files")
    s.add_argument("files", nargs="+")
    s.add_argument("--verbose", action="store_true", help="print each hand's events on standard error")

    s = sub.add_parser("simulate", help="play many single hands with bots and report rates")
    s.add_argument("variant")
    s.add_argument("--games", type=int, required=True)
    _table_args(s)
    s.add_argument("--seed", default="1")
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--bot", choices=["greedy", "random", "strong"], default="greedy")
    s.add_argument("--json", action="store_true", help="print one JSON object")

    s = sub.add_parser("docs", help="print a variant's rulebook in Markdown")
    s.add_argument("variant")

    from .balance import add_arguments as add_balance  # mjc balance lives in mjc/balance.py

    add_balance(sub)

    from server.cli import add_arguments  # serve and verify-deal live in server/

    add_arguments(sub)
    return p


def _table_args(s) -> None:
    s.add_argument("--players", type=int, help="player count (default: the variant's)")
    s.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a table option; repeatable")


def _options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise InputError(f"--option takes KEY=VALUE, not {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def _ruleset(variant: str):
    from runtime.registry import UnknownVariant, load

    try:
        return load(variant)
    except UnknownVariant as exc:
        raise InputError(str(exc)) from None


def _table(variant: str, players, options: list[str]):
    from runtime.ruleset import OptionError

    try:
        return _ruleset(variant).configure(_options(options), players)
    except OptionError as exc:
        raise InputError(str(exc)) from None


# ------------------------------------------------------------ commands


def cmd_validate(args) -> int:
    from compiler.build import compile_file, display_path, variant_files
    from compiler.errors import CompileError

    files = [Path(f) for f in args.files] or variant_files(args.variants)
    if not files:
        raise InputError(f"no variant files in {args.variants}/")
    failed = 0
    for path in files:
        try:
            compile_file(path, display_path(path))
        except CompileError as exc:
            failed += 1
            for d in exc.diagnostics:
                print(d, file=sys.stderr)
        else:
            print(f"{display_path(path)}: ok")
    return EXIT_INPUT if failed else EXIT_OK


def cmd_build(args) -> int:
    from compiler.build import build, variant_files

    if not variant_files(args.variants):
        raise InputError(f"no variant files in {args.variants}/")
    report = build(args.variants, args.out, check_only=args.check)
    for exc in report.errors:
        for d in exc.diagnostics:
            print(d, file=sys.stderr)
    if report.errors:
        return EXIT_INPUT
    if args.check:
        problems = [("changed", report.changed), ("missing", report.missing), ("stale", report.stale)]
        bad = False
        for word, paths in problems:
            for path in paths:
                bad = True
                print(f"{word}: {path.as_posix()}", file=sys.stderr)
        if bad:
            print("generated/ is not up to date: run `mjc build`", file=sys.stderr)
            return EXIT_CHECK
        print(f"generated/ is up to date ({len(report.unchanged)} variants)")
        return EXIT_OK
    for path in report.written:
        print(f"wrote {path.as_posix()}")
    for path in report.stale:
        print(f"removed {path.as_posix()} (no variant)")
    print(f"{len(report.written)} written, {len(report.unchanged)} unchanged")
    return EXIT_OK


def cmd_list(args) -> int:
    from runtime.registry import load, names

    rows = []
    for name in names():
        rs = load(name)
        tiles = len([t for t in rs.tile_kinds if t < 34]) * rs.copies + len([t for t in rs.tile_kinds if t >= 34])
        rows.append((name, rs.title.zh, rs.title.en, "/".join(map(str, rs.players)), str(tiles)))
    header = ("variant", "中文", "English", "players", "tiles")
    print_table([header] + rows)
    return EXIT_OK


def print_table(rows) -> None:
    from compiler.pyformat import width

    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell + " " * (w - width(cell)) for cell, w in zip(r, widths)).rstrip())


def cmd_play(args) -> int:
    from runtime.bots import make_bot
    from runtime.match import Match, play_match

    from .playlog import PlayLog

    table = _table(args.variant, args.players, args.option)
    if args.hands is not None and args.hands < 1:
        raise InputError("--hands must be at least 1")
    match = Match(table, args.seed, hands=args.hands)
    bots = [make_bot(args.bot, f"{args.seed}/{seat}") for seat in range(table.players)]
    log = PlayLog(table, match, sys.stdout, as_json=args.json)
    log.start()
    play_match(match, bots, on_event=log.event, on_hand=log.hand_done)
    log.finish()
    return EXIT_OK


def cmd_score(args) -> int:

    rs = _ruleset(args.variant)
    if args.file and args.file != "-":
        try:
            stream = open(args.file, "rb")
        except OSError as exc:
            raise InputError(f"{args.file}: {exc.strerror}") from None
    else:
        stream = sys.stdin.buffer
    cache: dict = {}
    out = sys.stdout
    with stream:
        for number, raw in enumerate(stream, 1):
            if not raw.strip():
                continue
            out.write(json.dumps(_score_line(raw, number, rs, cache), ensure_ascii=False) + "\n")
    return EXIT_OK


def _score_line(raw: bytes, number: int, rs, cache: dict) -> dict:
    """One hand JSON line scored, or why it could not be."""
    from .handjson import score_hand

    try:
        line = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return {"ok": False, "error": f"line {number}: not UTF-8 text (byte {exc.start + 1})"}
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"ok": False, "error": f"line {number}: not JSON: {exc.msg} at column {exc.colno}"}
    except (ValueError, RecursionError) as exc:
        return {"ok": False, "error": f"line {number}: not JSON this tool reads: {_plain(exc)}"}
    try:
        return score_hand(data, rs, cache)
    except RecursionError:
        return {"ok": False, "error": f"line {number}: nested too deeply"}
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        # a shape the hand reader did not foresee: still one answer per line
        return {"ok": False, "error": f"line {number}: not a hand this tool reads: {_plain(exc)}"}


def _plain(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if _too_many_digits(exc):
        return "a number with too many digits"
    return str(exc) or type(exc).__name__


def _too_many_digits(exc: BaseException) -> bool:
    """Python's refusal to read an integer of more than 4,300 digits."""
    return isinstance(exc, ValueError) and "Exceeds the limit" in str(exc)


def cmd_scenario(args) -> int:
    from .scenario import ScenarioError, run_file

    status = EXIT_OK
    for path in args.files:
        try:
            outcome = run_file(path, args.verbose)
        except ScenarioError as exc:
            print(str(exc), file=sys.stderr)
            status = EXIT_INPUT
            continue
        print(json.dumps(outcome.result, ensure_ascii=False))
        if outcome.differences:
            for d in outcome.differences:
                print(f"{path}: {d}", file=sys.stderr)
            status = max(status, EXIT_CHECK) if status != EXIT_INPUT else status
    return status


def cmd_simulate(args) -> int:
    from .simulate import report_text, simulate

    table = _table(args.variant, args.players, args.option)
    if args.games < 1:
        raise InputError("--games must be at least 1")
    if args.workers < 1:
        raise InputError("--workers must be at least 1")
    stats = simulate(table, args.games, args.seed, args.bot, args.workers, progress=sys.stderr.isatty() and not args.json)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
    else:
        print(report_text(table, stats))
    return EXIT_OK


def cmd_docs(args) -> int:
    from .docs import rulebook

    print(rulebook(_ruleset(args.variant)))
    return EXIT_OK


def cmd_balance(args) -> int:
    from .balance import BalanceError, run

    try:
        return run(args)
    except BalanceError as exc:
        raise InputError(str(exc)) from None


def cmd_server(args) -> int:
    from server import cli

    try:
        return cli.serve(args) if args.command == "serve" else cli.verify_deal(args)
    except cli.ServeError as exc:
        raise InputError(str(exc)) from None


COMMANDS = {
    "serve": cmd_server,
    "verify-deal": cmd_server,
    "validate": cmd_validate,
    "build": cmd_build,
    "list": cmd_list,
    "play": cmd_play,
    "score": cmd_score,
    "scenario": cmd_scenario,
    "simulate": cmd_simulate,
    "docs": cmd_docs,
    "balance": cmd_balance,
}


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_INPUT if exc.code not in (0, None) else EXIT_OK
    try:
        return COMMANDS[args.command](args)
    except InputError as exc:
        print(f"mjc {args.command}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except (RecursionError, UnicodeDecodeError) as exc:
        print(f"mjc {args.command}: the input cannot be read: {_plain(exc)}", file=sys.stderr)
        return EXIT_INPUT
    except ValueError as exc:
        if not _too_many_digits(exc):
            raise
        print(f"mjc {args.command}: the input holds {_plain(exc)}", file=sys.stderr)
        return EXIT_INPUT
