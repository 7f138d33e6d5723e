"""Typed state documents: what a rule system (or the core) keeps between commands.

Every document is stored as versioned JSON in one generic table — ``channel_state``
for a table's documents (an AP pool, a battle), ``character_state`` for a
character's (an inventory, a hand of cards) — so a new system needs no migration.
A document class declares its ``key`` (starting with its owner's id: ``<system>.ap``),
its ``schema`` number and how to ``upgrade`` data stored by an older schema; reading
a document upgrades it once and stores it back. Character documents hang off the
character row, so `.campaign bind` moves them with the sheets.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Document:
    key: ClassVar[str]
    """``<owner>.<name>``: the owner is ``core`` or the system's id."""
    schema: ClassVar[int] = 1
    """The shape of ``data`` this code writes; older stored data is upgraded."""
    per_character: ClassVar[bool] = False

    @classmethod
    def upgrade(cls, data: dict[str, Any], schema: int) -> dict[str, Any]:
        """Data stored by ``schema`` brought one step up (to ``schema + 1``)."""
        raise ValueError(f"{cls.key}: no upgrade from schema {schema}")

    @classmethod
    def current(cls, data: dict[str, Any], schema: int) -> dict[str, Any]:
        """Stored data in this code's shape, upgraded step by step."""
        if schema > cls.schema:
            raise ValueError(f"{cls.key}: stored by a newer schema ({schema} > {cls.schema})")
        while schema < cls.schema:
            data, schema = cls.upgrade(data, schema), schema + 1
        return data

    @classmethod
    def owner(cls) -> str:
        return cls.key.partition(".")[0]
