"""The contracts live in the repository (issue 15, item 6): docs/ holds the
tile notation and hand JSON, the scenario format, the `mjc` command and the
server protocol, and every verb and key the code accepts is documented
there; the README links only to files of the repository."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _named(text: str, word: str) -> bool:
    """`word` appears as code in the text (`word`, `word ...`, `--word`)."""
    return re.search(r"`[^`]*(?<![\w-])" + re.escape(word) + r"(?![\w-])[^`]*`", text) is not None


def test_every_action_verb_is_documented():
    from runtime.actions import ALL_VERBS

    for name in ("scenario.md", "protocol.md"):
        text = doc(name)
        missing = [v for v in ALL_VERBS if not _named(text, v)]
        assert missing == [], f"{name} does not document {missing}"
    assert _named(doc("scenario.md"), "void S")  # a declaration of the variant's own


def test_every_scenario_key_is_documented():
    from mjc.scenario import EXPECT_EXTRA, KEYS

    text = doc("scenario.md")
    assert [k for k in sorted(KEYS | EXPECT_EXTRA) if not _named(text, k)] == []
    # and every key a result can carry
    for key in ("end", "winners", "discarder", "self_drawn", "fans", "totals", "deltas", "payments", "next_dealer",
                "win_tile", "robbing_kong", "horses", "wilds", "indicator", "wins", "file"):
        assert _named(text, key) or f'"{key}"' in text, key


def test_every_hand_json_key_and_flag_is_documented():
    from mjc.handjson import FLAGS, KEYS, MELD_KEYS

    text = doc("notation.md")
    assert [k for k in sorted(KEYS | FLAGS | MELD_KEYS) if not _named(text, k)] == []
    for key in ("ok", "error", "fans", "total", "unit", "win_allowed", "why"):
        assert f'"{key}"' in text or _named(text, key), key


def test_every_subcommand_and_option_is_documented():
    from mjc.cli import _parser

    text = doc("cli.md")
    for name, command in _parser()._subparsers._group_actions[0].choices.items():
        assert _named(text, f"mjc {name}"), name
        for action in command._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert _named(text, option), f"mjc {name} {option}"
    assert _named(text, "--version")


def test_every_protocol_message_and_error_code_is_documented():
    from server import protocol

    text = doc("protocol.md")
    schema = json.loads((ROOT / "server" / "schema" / "protocol.schema.json").read_text(encoding="utf-8"))
    for union in ("client_message", "server_message"):
        for branch in schema["$defs"][union].get("oneOf", schema["$defs"][union].get("anyOf", [])):
            name = branch["$ref"].rsplit("/", 1)[1]
            assert _named(text, name), name
    codes = [v for k, v in vars(protocol).items() if k.isupper() and isinstance(v, str) and re.fullmatch(r"[a-z_]+", v)]
    assert codes and [c for c in codes if not _named(text, c)] == []
    from server.app import create_app  # noqa: F401  (the routes below are the app's)

    app_text = (ROOT / "server" / "app.py").read_text(encoding="utf-8")
    for route in re.findall(r'Route\("(/api/[^"]*)"', app_text):
        assert route.replace("{table_id}", "{id}") in text, route


@pytest.mark.parametrize("path", ["README.md", *[f"docs/{p.name}" for p in sorted(DOCS.glob("*.md"))]])
def test_links_point_into_the_repository(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    base = (ROOT / path).parent
    for target in re.findall(r"\]\(([^)#\s]+)[^)]*\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        assert (base / target).exists(), f"{path} links to {target}, which is not in the repository"
    assert "shared/spec" not in text and "shared/rules" not in text, f"{path} points outside the repository"
