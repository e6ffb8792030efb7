"""Hand JSON (shared/spec/notation.md) for `mjc score`: the names the
command and its users import. The reading and valuing live in
`runtime.hand_json`, compiled with the engine.

Optional fields this project adds, all defaulting to false/0:
`flags.declared_ready` (the winner declared ready: 报叫/报听),
`flags.discarder_is_dealer` (default: a `first_turn` discard win by a
non-dealer is taken as the dealer's first discard), `flags.kong_chain`
(kongs in a row before a `kong_replacement` win, default 1),
`flags.first_draw` (a self-drawn win with the winner's first tile, before
his first discard; default: `first_turn` and `self_drawn`),
`flags.declared_at_opening` (the winner declared ready at the opening:
天听) and `flags.doublings` (wins the winner deferred to double: 加倍,
default 0). A meld `{"type": "kong", "kind": ID, "tiles": ...}` whose kind
is one of the variant's special sets (`special_sets`: 旋风杠, 喜杠) is that
set: its tiles are one of the set's groups.

`wilds`, when given, are the wild kinds of this hand (a turned 翻鬼
indicator's wild, or a fixed one) in place of those the options make wild;
without it the options decide. Only a variant with wild tiles takes it.
"""

from runtime.hand_json import (  # noqa: F401
    COUNT_FLAGS,
    FLAGS,
    KEYS,
    MELD_KEYS,
    WINDS,
    HandError,
    has_wilds,
    hand_table,
    parse_hand,
    score_hand,
)
