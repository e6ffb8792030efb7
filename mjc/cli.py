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


# Subcommands that play or read variants: they take --variants DIR and use
# the working folder's variants/ when there is one (mjc/project.py).
USES_VARIANTS = ("list", "play", "score", "scenario", "simulate", "docs", "show", "serve", "verify-deal")

EXAMPLES = {
    "validate": "mjc validate\n  mjc validate variants/kunming.yaml variants/my_rules.yaml",
    "build": "mjc build\n  mjc build --check\n  mjc build --variants rules/ --out rules_generated/",
    "list": "mjc list\n  mjc list --variants ~/my_project/variants",
    "play": "mjc play yunnan_ka_er_tiao\n  mjc play 昆明麻将 --seed 7 --hands 2\n  mjc play chaozhou --players 3 --option gui_pai=bai_ban --json",
    "score": (
        "echo '{\"concealed\": \"123456789p1122s\", \"win_tile\": \"2s\"}' | mjc score yunnan_ka_er_tiao\n"
        "  mjc score mcr hands.jsonl"
    ),
    "scenario": "mjc scenario tests/scenarios/kunming/*.yaml\n  mjc scenario --explain my_bug.yaml",
    "simulate": "mjc simulate kunming --games 1000\n  mjc simulate chaozhou --games 10000 --workers 2 --option mai_ma=2 --json",
    "docs": "mjc docs chuxiong_yuxi > chuxiong.md\n  mjc docs 'Yunnan Ka Er Tiao'",
    "balance": ("mjc balance sichuan_xuezhan --hands 2000 --out report/\n"
                "  mjc balance chaozhou --hands 5000 --compare 'gui_pai=none' 'gui_pai=bai_ban' --out gui/"),
    "show": "mkdir -p variants && mjc show sichuan_xuezhan > variants/my_sichuan.yaml\n  mjc show 台湾十六张",
    "serve": "mjc serve\n  mjc serve --port 8080 --db games.sqlite3",
    "verify-deal": "mjc verify-deal deal.json\n  curl -s HOST/api/tables/ID/hands | jq '.hands[0]' | mjc verify-deal",
}


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("mahjong-rules-compiler")
    except Exception:  # run from a checkout that was never installed
        return "0.1.0"


class _VersionAction(argparse.Action):
    """`mjc --version`: the version and the build that runs, e.g.
    `mjc 0.1.0, compiled (mypyc 1.15.0)` or `mjc 0.1.0, pure Python (MJC_PURE=1)`."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        import runtime

        print(f"mjc {_version()}, {runtime.build_info()}")
        parser.exit()


# The subcommands defined in this file; the others (balance, serve,
# verify-deal) are defined by their own modules.
OWN_COMMANDS = ("validate", "build", "list", "play", "score", "scenario", "simulate", "docs", "show")


def _parser(first: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. `first`: the first argument, when it is
    known: a command of this file's needs no other module's subcommands to
    be parsed (importing those modules cost a twentieth of `mjc build`)."""
    p = argparse.ArgumentParser(prog="mjc", description="Mahjong rules compiler: variants in YAML, compiled to Python, played by a generic runtime.")
    p.add_argument("--version", action=_VersionAction, help="show the version and which build runs (compiled or pure Python), and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    sub.add_parser = _with_examples(sub.add_parser)

    s = sub.add_parser("validate", help="check variant files against the schema and the semantic rules")
    s.add_argument("files", nargs="*", help="variant files (default: every variants/*.yaml)")
    s.add_argument("--variants", default="variants", help="the variants folder (default ./variants)")

    s = sub.add_parser("build", help="compile variants/ into generated/")
    s.add_argument("--check", action="store_true", help="write nothing; exit 1 if generated/ is not up to date")
    s.add_argument("--variants", default="variants", help="the variants folder (default ./variants)")
    s.add_argument("--out", default="generated", help="the output folder (default ./generated)")

    s = sub.add_parser("list", help="the variants: the working folder's and the packaged ones")

    s = sub.add_parser("play", help="play a whole match with bots and print it")
    s.add_argument("variant", help="a name from mjc list, its Chinese title or its English name")
    _table_args(s)
    s.add_argument("--seed", default="1", help="match seed (default 1)")
    s.add_argument("--hands", type=int, help="hands in the match (default: the rounds option)")
    s.add_argument("--bot", choices=["greedy", "random", "strong"], default="greedy", help="bot for every seat (default greedy)")
    s.add_argument("--json", action="store_true", help="print the event log as JSON Lines")

    s = sub.add_parser("score", help="score winning hands given as hand JSON lines")
    s.add_argument("variant", help="a name from mjc list, its Chinese title or its English name")
    s.add_argument("file", nargs="?", help="JSON Lines file (default: standard input)")

    s = sub.add_parser("scenario", help="run scenario files")
    s.add_argument("files", nargs="+")
    s.add_argument("--verbose", action="store_true", help="print each hand's events on standard error")
    s.add_argument("--explain", action="store_true", help="print each step of the script on standard error: where each action was taken, what was offered, what played by itself")

    s = sub.add_parser("simulate", help="play many single hands with bots and report rates")
    s.add_argument("variant", help="a name from mjc list, its Chinese title or its English name")
    s.add_argument("--games", type=int, required=True)
    _table_args(s)
    s.add_argument("--seed", default="1")
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--bot", choices=["greedy", "random", "strong"], default="greedy")
    s.add_argument("--json", action="store_true", help="print one JSON object")

    s = sub.add_parser("docs", help="print a variant's rulebook in Markdown")
    s.add_argument("variant", help="a name from mjc list, its Chinese title or its English name")
    s = sub.add_parser("show", help="print a variant's YAML source, to start a variant of your own from it")
    s.add_argument("variant", help="a name from mjc list, its Chinese title or its English name")

    if first not in OWN_COMMANDS:
        from .balance import add_arguments as add_balance  # mjc balance lives in mjc/balance.py

        add_balance(sub)

        from server.cli import add_arguments  # serve and verify-deal live in server/

        add_arguments(sub)
    for name, command in sub.choices.items():
        if name in USES_VARIANTS:
            command.add_argument(
                "--variants", metavar="DIR", dest="variants_dir",
                help="the variants folder to use (default ./variants when there is one, else the packaged variants)",
            )
    return p


def _with_examples(add_parser):
    """Every subcommand's help ends with examples."""

    def add(name, **kwargs):
        examples = EXAMPLES.get(name)
        if examples:
            kwargs.setdefault("epilog", "examples:\n  " + examples)
            kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        kwargs.setdefault("description", kwargs.get("help"))
        return add_parser(name, **kwargs)

    return add


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

    from .project import ProjectError, announce, resolve

    try:
        name = resolve(variant)
        rs = load(name)
        announce(name)
        return rs
    except UnknownVariant as exc:
        raise InputError(str(exc)) from None
    except ProjectError as exc:
        raise InputError(f"variant {exc.name} does not compile:\n{exc}") from None


def _table(variant: str, players, options: list[str]):
    from runtime.ruleset import OptionError

    rs = _ruleset(variant)
    chosen = _options(options)
    check_option_names(rs, chosen)
    try:
        return rs.configure(chosen, players)
    except OptionError as exc:
        raise InputError(str(exc)) from None


def check_option_names(rs, chosen: dict) -> None:
    """Every option named is one of the variant's, or a did-you-mean."""
    import difflib

    ids = [o.id for o in rs.options]
    for key in chosen:
        if key in ids:
            continue
        close = difflib.get_close_matches(key, ids, n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputError(f"{rs.name} has no option {key!r}{hint}; its options are: {', '.join(ids)}")


def _use_variants(args) -> None:
    """The working folder's variants (or --variants DIR) in front of the packaged ones."""
    from . import project

    folder = getattr(args, "variants_dir", None)
    if folder is not None and not Path(folder).is_dir():
        raise InputError(f"--variants {folder}: no such folder")
    quiet = args.command == "list"
    if project.install(folder, quiet=quiet) is None and not quiet:
        print(project.packaged_line(), file=sys.stderr)


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
    from runtime.registry import front, load, names

    from .project import ProjectError

    project = front()
    rows, broken = [], []
    for name in names():
        try:
            rs = load(name)
        except ProjectError as exc:
            broken.append((name, exc))
            continue
        tiles = len([t for t in rs.tile_kinds if t < 34]) * rs.copies + len([t for t in rs.tile_kinds if t >= 34])
        where = "packaged"
        if project is not None and name in project.names():
            where = f"{project.folder.as_posix()}/" + (" (in memory)" if "in memory" in project.how.get(name, "") else "")
        rows.append((name, rs.title.zh, rs.title.en, "/".join(map(str, rs.players)), str(tiles), where))
    header = ("variant", "中文", "English", "players", "tiles", "from")
    print_table([header] + rows)
    for name, exc in broken:
        print(f"mjc list: {name} does not compile ({len(exc.error.diagnostics)} error(s); see mjc validate)", file=sys.stderr)
    return EXIT_INPUT if broken else EXIT_OK


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
            outcome = run_file(path, args.verbose, args.explain)
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


def cmd_show(args) -> int:
    """The YAML a variant was compiled from: the working folder's, else the packaged copy."""
    from importlib import resources
    from pathlib import Path

    rs = _ruleset(args.variant)
    local = Path(getattr(args, "variants_dir", None) or "variants") / f"{rs.name}.yaml"
    if local.is_file():
        text = local.read_text(encoding="utf-8")
    else:
        try:
            text = resources.files("variants").joinpath(f"{rs.name}.yaml").read_text(encoding="utf-8")
        except (ModuleNotFoundError, FileNotFoundError, OSError):
            raise InputError(f"the YAML source of {rs.name} is not installed with the package") from None
    if rs.parents:
        print(f"mjc show: {rs.name} extends {', '.join(rs.parents)}; `mjc show {rs.parents[0]}` prints that one", file=sys.stderr)
    sys.stdout.write(text)
    return EXIT_OK


def cmd_server(args) -> int:
    from runtime.registry import front, load

    from server import cli

    from .project import ProjectError

    project = front()
    if project is not None and args.command == "serve":
        for name in project.names():  # a server never starts with a variant that does not compile
            try:
                load(name)
            except ProjectError as exc:
                raise InputError(f"variant {name} does not compile:\n{exc}") from None
        print(project.summary(), file=sys.stderr)
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
    "show": cmd_show,
    "balance": cmd_balance,
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(argv[0] if argv else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_INPUT if exc.code not in (0, None) else EXIT_OK
    if args.command == "build":  # the compiler alone: the runtime's registry (a tenth of the command's time) is not needed
        registry = before = None
    else:
        from runtime import registry

        before = registry.front()
    try:
        if args.command in USES_VARIANTS:
            _use_variants(args)
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
    finally:
        if registry is not None and registry.front() is not before:  # main() called in-process (tests): leave the registry as it was
            registry.use(before)
