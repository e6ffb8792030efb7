"""Fair deals you can check: commit to each hand's seed, reveal it after.

A match has a secret seed of 256 random bits that never leaves the server.
Hand i is shuffled with `derive(match_seed, "hand", i)` (runtime/shuffle.py),
so a revealed hand seed says nothing about the match seed or any later
hand's seed (SHA-256 is one-way). At a hand's start the server publishes
SHA-256 of the hand seed's text; at its end it reveals the seed. Anyone can
then recompute the wall with the documented shuffle and check that the
tiles they were dealt are the ones the seed gives (`mjc verify-deal`).

This module imports only the runtime: verifying needs no server.
"""

from __future__ import annotations

import hashlib
import secrets

from runtime.game import deal
from runtime.registry import UnknownVariant, load
from runtime.ruleset import OptionError
from runtime.tiles import NAMES


def new_match_seed() -> str:
    return secrets.token_hex(32)


def commitment(hand_seed: str) -> str:
    """What is published before the hand: SHA-256 of the seed's UTF-8 text."""
    return hashlib.sha256(hand_seed.encode("utf-8")).hexdigest()


class ProofError(ValueError):
    """A deal record that cannot be checked (missing field, unknown variant)."""


def _field(record: dict, key: str, kind):
    value = record.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ProofError(f"the deal record needs {key!r} ({kind.__name__})")
    return value


def verify(record: dict) -> dict:
    """Recompute a hand's deal from its revealed seed.

    The record is what the server publishes per hand (variant, players,
    options, hand, dealer, seed_sha256, seed), optionally with what a player
    saw: `seat` and `dealt` (the tiles dealt to that seat), or `hands` (every
    seat's dealt tiles). Returns {ok, problems, warnings, hands, wall, ...}.
    """
    if not isinstance(record, dict):
        raise ProofError("a deal record is a JSON object")
    variant = _field(record, "variant", str)
    seed = _field(record, "seed", str)
    published = _field(record, "seed_sha256", str)
    dealer = _field(record, "dealer", int)
    hand = record.get("hand", 0)
    try:
        rs = load(variant)
        table = rs.configure(record.get("options") or {}, record.get("players"))
    except (UnknownVariant, OptionError) as exc:
        raise ProofError(str(exc)) from None
    if not 0 <= dealer < table.players:
        raise ProofError(f"dealer {dealer} is not a seat of a {table.players}-player table")
    problems, warnings = [], []
    if commitment(seed) != published.lower():
        problems.append(f"SHA-256 of the seed is {commitment(seed)}, but {published} was published")
    wanted = record.get("variant_sha256")
    if wanted and wanted != rs.source_sha256:
        warnings.append(f"{variant} has changed since this hand (sha256 {wanted[:12]}… then, {rs.source_sha256[:12]}… now)")
    game = deal(table, seed, dealer, hand_number=hand if isinstance(hand, int) else 0)
    hands = [list(h) for h in game._hands]
    if "dealt" in record:
        seat = _field(record, "seat", int)
        if not 0 <= seat < table.players:
            raise ProofError(f"seat {seat} is not a seat of this table")
        if sorted(record["dealt"]) != sorted(hands[seat]):
            problems.append(f"seat {seat} was dealt {' '.join(record['dealt'])}, the seed deals {' '.join(hands[seat])}")
    if "hands" in record:
        for seat, tiles in enumerate(record["hands"]):
            if seat < len(hands) and sorted(tiles) != sorted(hands[seat]):
                problems.append(f"seat {seat} was dealt {' '.join(tiles)}, the seed deals {' '.join(hands[seat])}")
    out = {
        "ok": not problems,
        "problems": problems,
        "warnings": warnings,
        "variant": variant,
        "hand": hand,
        "dealer": dealer,
        "hands": hands,
        "wall": [NAMES[t] for t in game.wall],
    }
    if game.indicator >= 0:
        out["indicator"] = NAMES[game.indicator]
    if game.horses:
        out["horses"] = {str(s): [NAMES[t] for t in tiles] for s, tiles in sorted(game.horses.items())}
    return out
