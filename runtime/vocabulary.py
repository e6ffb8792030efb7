"""The facts that variant expressions may name.

This table is the contract between the compiler and the runtime: the
compiler checks every name in a variant's conditions and formulas against
it and emits the `code` given here; the runtime objects named in `code`
(`h` hand facts, `d` arrangement facts, `s` settlement facts, `o` table
options, `n` player count) provide them. `tests/test_vocabulary.py`
checks that every fact listed here exists on the runtime side.

Scopes say where a fact is known:

- `table`: fixed when a table is created (options, players).
- `hand`: a winning hand being valued (fan conditions and counts).
- `result`: a valued hand (win conditions that look at the total).
- `settle`: one payer paying one winner (payment formulas).
- `seat`: one seat at an exhausted wall (ready checks), or a discarder
  (wins on discards).
- `play`: the game as it stands at a decision (forced wins).
- `kong`: one kong (or special set) being paid for (kong payments).
- `tile`: one tile kind and the seat considering it (restrictions).

A declaration made at the opening (`opening: - declare: {id: ID}`) is read
as `seat.choice.ID` (and `winner.choice.ID`, `payer.choice.ID`), a string,
"" before it is made.
"""

from __future__ import annotations


BOOL, INT, TILE, TILES, STR = "bool", "int", "tile", "tiles", "str"

TABLE, HAND, RESULT, SETTLE, SEAT, PLAY, KONG = "table", "hand", "result", "settle", "seat", "play", "kong"
TILE_SCOPE = "tile"

# The parameters of the function generated for an expression of each scope.
SCOPE_PARAMS = {
    TABLE: ("o", "n"),
    HAND: ("h", "d", "o"),
    RESULT: ("h", "r", "o"),
    SETTLE: ("s", "o"),
    SEAT: ("s", "o"),
    PLAY: ("p", "o"),
    KONG: ("k", "o"),
    TILE_SCOPE: ("t", "s", "o"),
}


class Fact:
    def __init__(self, name: str, type: str, code: str, scopes: frozenset, doc: str, args: tuple = (),
                 capped: str = "", bits: str = "") -> None:
        self.name = name
        self.type = type
        self.code = code
        self.scopes = scopes
        self.doc = doc
        self.args = args
        # a count that is costly in full: its code with a cap ({} = n), which
        # gives min(count, n) and may stop looking there; a comparison with a
        # number k reads it capped at k + 1, which decides it the same way
        self.capped = capped
        # a test against a set of tiles: its code when the set is a constant,
        # taking the set's kinds as one bit each (a constant of the module)
        self.bits = bits

    def __copy__(self) -> "Fact":  # immutable: a copy is itself (copy.deepcopy of a compiled game)
        return self

    def __deepcopy__(self, memo: dict) -> "Fact":
        return self


_FACTS: list[Fact] = []


def _fact(name, type_, code, scopes, doc, args=(), capped="", bits=""):
    _FACTS.append(Fact(name, type_, code, frozenset(scopes.split()), doc, tuple(args), capped, bits))


_HANDLIKE = "hand result"

# -- the win itself
_fact("win.self_drawn", BOOL, "h.self_drawn", _HANDLIKE, "The winning tile was drawn by the winner, kong replacements included.")
_fact("win.tile", TILE, "h.win_tile", _HANDLIKE, "The winning tile.")
_fact("win.robbing_kong", BOOL, "h.robbing_kong", _HANDLIKE, "Won on a tile another player added to his pung (robbing the kong).")
_fact("win.kong_replacement", BOOL, "h.kong_replacement", _HANDLIKE, "Won on one's own kong replacement tile.")
_fact("win.flower_replacement", BOOL, "h.flower_replacement", _HANDLIKE, "Self-drawn on the replacement of a flower set aside in play.")
_fact("win.kong_chain", INT, "h.kong_chain", _HANDLIKE, "Kongs made in a row before the replacement that won; 0 unless win.kong_replacement.")
_fact("win.after_kong_discard", BOOL, "h.after_kong_discard", _HANDLIKE, "Won on a discard made right after the discarder's kong.")
_fact("win.last_tile", BOOL, "h.last_tile", _HANDLIKE, "Won on the last drawable tile of the wall, or on the discard after it.")
_fact("win.last_copy", BOOL, "h.last_copy", _HANDLIKE, "Won on the fourth copy of a tile whose other three were visible.")
_fact("win.first_turn", BOOL, "h.first_turn", _HANDLIKE, "No meld was made yet and the win is on the winner's first draw or on the hand's first discard.")
_fact("win.first_discard", BOOL, "h.first_discard", _HANDLIKE, "Won on the hand's first discard (the dealer's), whatever kongs he made before it.")
_fact("win.first_own_draw", BOOL, "h.first_draw", _HANDLIKE, "Self-drawn with the winner's first tile of the hand, before his first discard: the dealer on his dealt tiles, another player on his first draw; flower replacements are part of that draw, a kong replacement is not. Other players' melds do not matter (see game.melds).")
_fact("win.completes_quad", BOOL, "h.completes_quad", _HANDLIKE, "The winning tile is the fourth copy of its kind among the concealed tiles.")
_fact("win.waits", INT, "h.wait_count", _HANDLIKE, "How many tile kinds the hand was waiting on before the winning tile.")
_fact("win.shape_waits", INT, "h.shape_wait_count", _HANDLIKE, "How many tile kinds would have completed the hand's shape before the winning tile, kinds the hand already held four of included (a fan for one waiting tile may be judged by shape).",
      capped="h.shape_waits_upto({})")
_fact("win.can_be_closed", BOOL, "h.can_be_closed", _HANDLIKE, "Some split of the hand reads the winning tile as the middle of a chow, whichever split is valued.")
_fact("win.can_be_edge", BOOL, "h.can_be_edge", _HANDLIKE, "Some split of the hand reads the winning tile as an edge wait, whichever split is valued.")
_fact("win.can_be_single", BOOL, "h.can_be_single", _HANDLIKE, "Some split of the hand reads the winning tile as completing the pair, whichever split is valued.")
_fact("win.closed", BOOL, "d.closed", HAND, "This arrangement reads the winning tile as the middle of a chow (closed wait).")
_fact("win.edge", BOOL, "d.edge", HAND, "This arrangement reads the winning tile as the 3 of 123 or the 7 of 789 (edge wait).")
_fact("win.single", BOOL, "d.single", HAND, "This arrangement reads the winning tile as completing the pair (single wait).")
_fact("win.two_sided", BOOL, "d.two_sided", HAND, "This arrangement reads the winning tile as an open end of a chow.")
_fact("win.dual_pung", BOOL, "d.dual_pung", HAND, "This arrangement reads the winning tile as completing a pung.")

# -- who won, who dealt in
_fact("winner.is_dealer", BOOL, "h.is_dealer", _HANDLIKE, "The winner is the dealer.")
_fact("winner.declared_ready", BOOL, "h.declared_ready", _HANDLIKE, "The winner declared ready this hand.")
_fact("winner.seat_wind", TILE, "h.seat_wind", _HANDLIKE, "The winner's seat wind (1z for the dealer).")
_fact("game.round_wind", TILE, "h.round_wind", _HANDLIKE, "The prevailing wind.")
_fact("game.claims", INT, "h.game_claims", _HANDLIKE, "Chows, pungs and exposed kongs claimed by every player before the win (a pung later turned into a kong counts once).")
_fact("game.melds", INT, "h.game_melds", _HANDLIKE, "Sets laid down by every player before the win: claims, kongs of every kind (concealed included) and special sets.")
_fact("winner.declared_at_opening", BOOL, "h.declared_at_opening", _HANDLIKE, "The winner declared ready at the opening: before the dealer's first discard, or, being the dealer, with that discard and before any kong.")
_fact("winner.doublings", INT, "h.doublings", _HANDLIKE, "Wins the winner deferred this hand to double (加倍, verb `double`); 2 ** winner.doublings is his multiplier.")
_fact("discarder.is_dealer", BOOL, "h.discarder_is_dealer", _HANDLIKE, "The discarder (or the robbed player) is the dealer; false on a self-draw.")

# -- the whole hand: concealed tiles, melds and the winning tile
_fact("hand.concealed", BOOL, "h.concealed", _HANDLIKE, "No chow, pung or exposed kong was claimed (concealed kongs allowed).")
_fact("hand.number_suits", INT, "h.number_suits", _HANDLIKE, "How many of the suits m, p, s the hand uses (0-3).")
_fact("hand.honours", INT, "h.honours", _HANDLIKE, "How many honour tiles (1z-7z) the hand holds.")
_fact("hand.terminals", INT, "h.terminals", _HANDLIKE, "How many terminal tiles (1 and 9 of a suit) the hand holds.")
_fact("hand.flowers", INT, "h.flowers", _HANDLIKE, "How many flowers the player has set aside.")
_fact("hand.flowers_held", INT, "h.flowers_held", _HANDLIKE, "How many of the given flowers the player has set aside (flowers are never in the hand: tile facts such as hand.count do not see them).", args=(TILES,))
_fact("hand.own_flowers", INT, "h.own_flowers", _HANDLIKE, "The player's own flowers set aside: those carrying his seat wind's number (East 1f 5f, South 2f 6f, West 3f 7f, North 4f 8f).")
_fact("hand.flower_sets", INT, "h.flower_sets", _HANDLIKE, "Complete sets of flowers held, among the sets the variant names (`tiles.flower_sets`).")
_fact("hand.own_flowers_outside_sets", INT, "h.own_flowers_outside_sets", _HANDLIKE, "The player's own flowers that are not part of a complete set he holds.")
_fact("hand.wilds", INT, "h.wilds", _HANDLIKE, "How many wild tiles the hand holds, melds included.")
_fact("hand.concealed_quads", INT, "h.concealed_quads", _HANDLIKE, "Kinds of which all four copies are among the concealed tiles and not konged.")
_fact("hand.hogs", INT, "h.hogs", _HANDLIKE, "Kinds of which all four copies are in the hand, in concealed tiles, pungs or chows, and not konged (concealed quads included: do not add hand.concealed_quads to it).")
_fact("hand.kinds", INT, "h.kinds", _HANDLIKE, "How many different tile kinds the hand holds, melds included.")
_fact("hand.kinds_in", INT, "h.kinds_in", _HANDLIKE, "How many of the given tile kinds the hand holds, melds included.", args=(TILES,),
      bits="h.kinds_in_bits")
_fact("hand.rank_span", INT, "h.rank_span", _HANDLIKE, "The highest number minus the lowest among the hand's number tiles (0 without any).")
_fact("hand.concealed_copies", INT, "h.concealed_copies", _HANDLIKE, "How many copies of a tile are among the concealed tiles, the winning tile included.", args=(TILE,))
_fact("melds.copies", INT, "h.meld_copies", _HANDLIKE, "How many copies of a tile are in the melds (a kong holds four).", args=(TILE,))
_fact("hand.count", INT, "h.count", _HANDLIKE, "How many copies of a tile the hand holds, melds included.", args=(TILE,))
_fact("hand.only", BOOL, "h.only", _HANDLIKE, "Every tile of the hand, melds included, is one of the given tiles.", args=(TILES,),
      bits="h.only_bits")
_fact("hand.any", BOOL, "h.any", _HANDLIKE, "Some tile of the hand, melds included, is one of the given tiles.", args=(TILES,),
      bits="h.any_bits")
_fact("hand.suit_count", INT, "h.suit_count", _HANDLIKE, "How many tiles of a suit ('m', 'p', 's' or 'z') the hand holds, melds included; 0 for '' (a declaration not made).", args=(STR,))

# -- melds made during play
_fact("melds.count", INT, "h.melds", _HANDLIKE, "Melds laid down, concealed kongs included.")
_fact("melds.claimed", INT, "h.claimed_melds", _HANDLIKE, "Melds made with another player's tile: chows, pungs, exposed and added kongs.")
_fact("melds.chows", INT, "h.meld_chows", _HANDLIKE, "Chows claimed.")
_fact("melds.pungs", INT, "h.meld_pungs", _HANDLIKE, "Pungs claimed and not turned into kongs.")
_fact("melds.kongs", INT, "h.meld_kongs", _HANDLIKE, "Kongs of every kind.")
_fact("melds.concealed_kongs", INT, "h.concealed_kongs", _HANDLIKE, "Concealed kongs.")
_fact("melds.exposed_kongs", INT, "h.exposed_kongs", _HANDLIKE, "Direct and added kongs.")
_fact("melds.added_kongs", INT, "h.added_kongs", _HANDLIKE, "Added kongs only.")
_fact("melds.special", INT, "h.special_sets", _HANDLIKE, "Special sets (`special_sets`) laid down; they also count in melds.count, and in sets.pungs and sets.kongs when they count as kongs.")

# -- one arrangement of the hand into a shape
_fact("shape.standard", BOOL, "d.standard", HAND, "Four sets and a pair.")
_fact("shape.seven_pairs", BOOL, "d.seven_pairs", HAND, "Seven pairs.")
_fact("shape.thirteen_orphans", BOOL, "d.thirteen_orphans", HAND, "Thirteen orphans: one of each terminal and honour, and a pair of one of them.")
_fact("shape.honours_and_knitted", BOOL, "d.honours_knitted", HAND, "Honours and knitted tiles: fourteen different tiles around a knitted straight.")
_fact("shape.knitted_straight", BOOL, "d.knitted", HAND, "The hand holds a whole knitted straight (147, 258 and 369 in three suits): a knitted-straight hand, or honours and knitted tiles with all nine numbers.")
_fact("shape.quads", INT, "d.quads", HAND, "Seven pairs: how many kinds are held four times (counted as two pairs).")
_fact("sets.chows", INT, "d.chows", HAND, "Chows, claimed or concealed.")
_fact("sets.pungs", INT, "d.pungs", HAND, "Pungs and kongs, claimed or concealed.")
_fact("sets.kongs", INT, "d.kongs", HAND, "Kongs.")
_fact("sets.concealed_pungs", INT, "d.concealed_pungs", HAND, "Concealed pungs and concealed kongs; a pung completed by a discard is not concealed.")
_fact("sets.pair", TILE, "d.pair", HAND, "The pair's tile (the first pair for seven pairs).")
_fact("sets.has_pung", BOOL, "d.has_pung", HAND, "A pung or kong of the given tile is among the sets.", args=(TILE,))
_fact("sets.has_chow", BOOL, "d.has_chow", HAND, "A chow starting at the given tile is among the sets.", args=(TILE,))
_fact("sets.pungs_of", INT, "d.pungs_of", HAND, "How many pungs and kongs are of the given tiles.", args=(TILES,))
_fact("sets.chows_of", INT, "d.chows_of", HAND, "How many chows start at one of the given tiles.", args=(TILES,))
_fact("sets.all_contain", BOOL, "d.all_contain", HAND, "Every set and the pair hold one of the given tiles (standard shape).", args=(TILES,))
_fact("sets.all_outside", BOOL, "d.all_outside", HAND, "Every set and the pair hold a terminal or an honour.")

# -- a valued hand
_fact("total", INT, "r.total", RESULT, "The hand's value from the fan table.")
_fact("total", INT, "s.total", SETTLE, "The winning hand's value (for a ready check: the best wait's value).")

# -- one payment
_fact("payer.is_discarder", BOOL, "s.payer_is_discarder", SETTLE, "The payer discarded the winning tile (or was robbed).")
_fact("payer.is_dealer", BOOL, "s.payer_is_dealer", SETTLE, "The payer is the dealer.")
_fact("payer.declared_ready", BOOL, "s.payer_declared", SETTLE, "The payer declared ready this hand.")
_fact("payer.bought", INT, "s.payer_bought", SETTLE, "The stakes the payer bought before the deal.")
_fact("winner.bought", INT, "s.winner_bought", SETTLE, "The stakes the receiving player bought before the deal.")
_fact("winner.is_dealer", BOOL, "s.winner_is_dealer", SETTLE, "The receiving player is the dealer.")
_fact("winner.declared_ready", BOOL, "s.winner_declared", SETTLE, "The receiving player declared ready this hand.")
_fact("win.self_drawn", BOOL, "s.self_drawn", SETTLE, "The win was self-drawn (or counts as self-drawn).")
_fact("win.robbing_kong", BOOL, "s.robbing_kong", SETTLE, "The win robbed a kong.")
_fact("win.kong_replacement", BOOL, "s.kong_replacement", SETTLE, "The win was on a kong replacement.")
_fact("winners", INT, "s.winners", SETTLE, "How many players won this hand.")
_fact("dealer.streak", INT, "s.dealer_streak", SETTLE, "Hands in a row the dealer has kept the deal (连庄 n): 0 for a new dealer.")
_fact("winner.streak", INT, "s.winner_streak", SETTLE, "The dealer's count of hands kept in a row (连庄) when the receiving player is the dealer; 0 otherwise.")
_fact("horse.share", INT, "s.share", SETTLE, "For a bought horse: the share it repeats, the pointed seat's payment to or from the winner (0 elsewhere).")
_fact("winner.horse_hits", INT, "s.winner_horse_hits", SETTLE, "Reward horses turned after the win that point at the receiving player.")
_fact("winner.doublings", INT, "s.winner_doublings", SETTLE, "Wins the receiving player deferred this hand to double (加倍).")

# -- one seat at an exhausted wall
_fact("seat.ready", BOOL, "s.ready", SEAT, "The seat's hand waits on at least one tile it could still win with: a kind it does not already hold all copies of, and no restriction of its declarations stops the win (tiles seen on the table do not matter).")
_fact("seat.declared_ready", BOOL, "s.declared", SEAT, "The seat declared ready this hand.")
_fact("seat.is_dealer", BOOL, "s.is_dealer", SEAT, "The seat is the dealer.")
_fact("seat.bought", INT, "s.bought", SEAT, "The stakes the seat bought before the deal.")
_fact("seat.honour_run", INT, "s.honour_run", SEAT, "The seat's latest discards that are honours, none claimed, counted back to one that is not.")
_fact("seat.distinct_honour_run", INT, "s.distinct_honour_run", SEAT, "The seat's latest discards that are all different honours, none claimed.")
_fact("seat.suit_count", INT, "s.suit_count", SEAT, "How many of the seat's concealed tiles are of a suit ('m', 'p', 's' or 'z'); 0 for ''.", args=(STR,))
_fact("seat.flowers", INT, "s.flowers", SEAT, "How many flowers the seat has set aside.")
_fact("seat.flowers_held", INT, "s.flowers_held", SEAT, "How many of the given flowers the seat has set aside.", args=(TILES,))
_fact("seat.won", BOOL, "s.won", SEAT, "The seat has won this hand (where wins do not end it).")

# -- the game at a decision
_fact("wall.remaining", INT, "p.wall_remaining", PLAY, "Tiles left to draw.")
_fact("win.self_drawn", BOOL, "p.self_drawn", PLAY, "The win on offer is the player's own draw (so `wall.remaining` no longer counts that tile), not another player's discard or kong.")
_fact("follow.round", INT, "p.follow_round", PLAY, "The follow-the-dealer round just completed (1 for the first).")

# -- one kong being paid for
_fact("kong.tile", TILE, "k.tile", KONG, "The kong's tile (for a special set, its lowest tile).")
_fact("kong.kind", STR, "k.kind", KONG, "direct, added or concealed, or the special set's id.")

# -- one tile kind, for restrictions
_fact("tile.suit", STR, "t.suit", TILE_SCOPE, "The tile's suit: 'm', 'p', 's', 'z' (honours) or 'f' (flowers).")
_fact("tile.rank", INT, "t.rank", TILE_SCOPE, "The tile's number, 1-9; 0 for honours and flowers.")
_fact("tile.is_honour", BOOL, "t.is_honour", TILE_SCOPE, "The tile is an honour (1z-7z).")
_fact("tile.is_flower", BOOL, "t.is_flower", TILE_SCOPE, "The tile is a flower (1f-8f).")
_fact("tile", TILE, "t.kind", TILE_SCOPE, "The tile itself (for `tile in [...]`).")
_fact("seat.is_dealer", BOOL, "s.is_dealer", TILE_SCOPE, "The seat is the dealer.")

# -- everywhere
_fact("players", INT, "n", TABLE, "Players at the table.")
_fact("players", INT, "h.players", _HANDLIKE, "Players at the table.")
_fact("players", INT, "s.players", "settle seat tile", "Players at the table.")
_fact("players", INT, "p.players", PLAY, "Players at the table.")
_fact("players", INT, "k.players", KONG, "Players at the table.")

FACTS: tuple[Fact, ...] = tuple(_FACTS)

# Named groups of tiles usable wherever a list of tiles is expected.
TILE_GROUPS = {
    "terminals": "1m 9m 1p 9p 1s 9s",
    "honours": "1z 2z 3z 4z 5z 6z 7z",
    "winds": "1z 2z 3z 4z",
    "dragons": "5z 6z 7z",
    "simples": "2m 3m 4m 5m 6m 7m 8m 2p 3p 4p 5p 6p 7p 8p 2s 3s 4s 5s 6s 7s 8s",
    "characters": "1m 2m 3m 4m 5m 6m 7m 8m 9m",
    "dots": "1p 2p 3p 4p 5p 6p 7p 8p 9p",
    "bamboo": "1s 2s 3s 4s 5s 6s 7s 8s 9s",
}

# Options live in the `o` namespace in every scope; in result expressions
# `fans.ID` is how many times the fan ID counted.
OPTION_CODE = "o.{}"
FAN_CODE = "r.counts.get({!r}, 0)"
# in payment formulas `fans.ID` is how many times the winner's fan ID counted
FAN_CODE_SETTLE = "s.fans.get({!r}, 0)"
# `WHO.choice.ID`: whose declarations each scope can read, and where
CHOICE_CODE = {
    (SEAT, "seat"): "s.choices",
    (TILE_SCOPE, "seat"): "s.choices",
    (HAND, "winner"): "h.choices",
    (RESULT, "winner"): "h.choices",
    (SETTLE, "payer"): "s.payer_choices",
    (SETTLE, "winner"): "s.winner_choices",
}


def lookup(name: str, scope: str) -> Fact | None:
    for fact in FACTS:
        if fact.name == name and scope in fact.scopes:
            return fact
    return None


def names_in_scope(scope: str) -> list[str]:
    return sorted({f.name for f in FACTS if scope in f.scopes})
