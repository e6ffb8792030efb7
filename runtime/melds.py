"""Melds: the sets a player lays down during play."""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import NAMES

CHOW, PUNG, KONG = "chow", "pung", "kong"
DIRECT, ADDED, CONCEALED = "direct", "added", "concealed"
# A special set of distinct tiles that a variant declares (`special_sets`):
# its kind is the set's id and `group` holds its tiles. In JSON it is a
# kong whose kind is that id.
SPECIAL = "special"


@dataclass(frozen=True)
class Meld:
    type: str  # chow, pung or kong
    tile: int  # the pung/kong tile, or the lowest tile of a chow
    kind: str = ""  # for kongs: direct, added or concealed
    source: int = -1  # seat whose discard was claimed; -1 if none
    claimed: int = -1  # the claimed tile (chows: which of the three)
    group: tuple = ()  # a special set's tiles

    # immutable: a copy is the meld itself (copy.deepcopy cannot rebuild a
    # frozen dataclass of the compiled build field by field)
    def __copy__(self) -> "Meld":
        return self

    def __deepcopy__(self, memo: dict) -> "Meld":
        return self

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.type == SPECIAL:
            return self.group
        if self.type == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.type == KONG else 3)

    @property
    def exposed(self) -> bool:
        return not (self.type == KONG and self.kind == CONCEALED)

    @property
    def claimed_from_other(self) -> bool:
        """Made with another player's tile: every meld but a concealed kong
        and a special set."""
        return self.exposed and self.type != SPECIAL

    def to_json(self, hide_concealed: bool = False, show_one: bool = False) -> dict:
        out = {"type": KONG if self.type == SPECIAL else self.type, "tiles": [NAMES[t] for t in self.tiles],
               "exposed": self.exposed}
        if self.type in (KONG, SPECIAL):
            out["kind"] = self.kind
        if self.source >= 0:
            out["from"] = self.source
        if hide_concealed and not self.exposed:
            out["tiles"] = [NAMES[self.tile] if show_one else None] + [None] * 3
        return out

    @staticmethod
    def from_json(data: dict) -> "Meld":
        from .tiles import INDEX

        tiles = [INDEX[t] for t in data["tiles"]]
        kind = data.get("kind", "")
        if data["type"] == KONG and not kind:
            kind = DIRECT if data.get("exposed", True) else CONCEALED
        claimed = INDEX[data["claimed"]] if data.get("claimed") else -1
        if data["type"] == KONG and kind not in (DIRECT, ADDED, CONCEALED):
            return Meld(SPECIAL, min(tiles), kind, -1, -1, tuple(sorted(tiles)))
        return Meld(data["type"], min(tiles), kind, data.get("from", -1), claimed)
