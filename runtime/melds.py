"""Melds: the sets a player lays down during play."""

from __future__ import annotations


from .tiles import NAMES

TYPE_CHECKING = False  # `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Final

# Final: compiled code reads these as constants, not by a look-up in the module
CHOW: "Final" = "chow"
PUNG: "Final" = "pung"
KONG: "Final" = "kong"
DIRECT: "Final" = "direct"
ADDED: "Final" = "added"
CONCEALED: "Final" = "concealed"
# A special set of distinct tiles that a variant declares (`special_sets`):
# its kind is the set's id and `group` holds its tiles. In JSON it is a
# kong whose kind is that id.
SPECIAL: "Final" = "special"


class Meld:
    def __init__(
        self,
        type: str,
        tile: int,
        kind: str = "",
        source: int = -1,
        claimed: int = -1,
        group: tuple = (),
    ) -> None:
        self.type = type  # chow, pung or kong
        self.tile = tile  # the pung/kong tile, or the lowest tile of a chow
        self.kind = kind  # for kongs: direct, added or concealed
        self.source = source  # seat whose discard was claimed; -1 if none
        self.claimed = claimed  # the claimed tile (chows: which of the three)
        self.group = group  # a special set's tiles

    # immutable: a copy is the meld itself
    def __copy__(self) -> "Meld":
        return self

    def __deepcopy__(self, memo: dict) -> "Meld":
        return self

    # compared and hashed by value, as the dataclass it was (not one for
    # import time, runtime/ruleset.py): the bots' caches key on tuples of melds
    def _key(self) -> tuple:
        return (self.type, self.tile, self.kind, self.source, self.claimed, self.group)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meld):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Meld(type={self.type!r}, tile={self.tile!r}, kind={self.kind!r}, source={self.source!r}, "
                f"claimed={self.claimed!r}, group={self.group!r})")

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.type == SPECIAL:
            return self.group
        if self.type == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.type == KONG else 3)

    def add_to(self, counts: list[int]) -> None:
        """Count the meld's tiles into `counts` (no tuple of them is made)."""
        t = self.tile
        if self.type == CHOW:
            counts[t] = counts[t] + 1
            counts[t + 1] = counts[t + 1] + 1
            counts[t + 2] = counts[t + 2] + 1
        elif self.type == SPECIAL:
            for g in self.group:
                counts[g] = counts[g] + 1
        else:
            counts[t] = counts[t] + (4 if self.type == KONG else 3)

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
