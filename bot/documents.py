"""Typed state documents: what a rule system (or the core) keeps between commands.

A document is one declaration, :class:`Doc`: its ``key`` (``<owner>.<name>``, the
owner being ``core`` or a system's id), the type of its value (a dataclass of the
rules, read and written by a pydantic ``TypeAdapter`` — the rules themselves import
no pydantic), its ``schema`` number, and a migration per schema step for data an
older version stored. A command reads one with ``await ctx.uow.load(FIGHT)`` and
writes it back with ``ctx.uow.save(FIGHT, fight)``.

Every document is stored as versioned JSON in one generic table — ``channel_state``
for a table's documents (an AP pool, a battle), ``character_state`` for a
character's (an inventory, a hand of cards) — so a new system needs no migration of
the database. Character documents hang off the sheet, so `.campaign bind` moves
them with it. A stored value that does not validate is refused with
:class:`DamagedDocument` (naming the table and the document), never a crash and
never silently replaced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

T = TypeVar("T")

Migration = Callable[[dict[str, Any]], dict[str, Any]]
"""Stored data of schema ``n`` → the same data in the shape of schema ``n + 1``."""


class DamagedDocument(Exception):
    """A stored document that this code cannot read: newer than the code, or not of
    its declared type. ``where`` names the table (and sheet), ``key`` the document."""

    def __init__(self, where: str, key: str, detail: str) -> None:
        super().__init__(f"{where}: document {key}: {detail}")
        self.where, self.key, self.detail = where, key, detail


@dataclass(frozen=True, eq=False)
class Doc(Generic[T]):
    key: str
    """``<owner>.<name>``: the owner is ``core`` or the system's id."""
    type: Any
    """The value's type (usually a dataclass of ``rules/``)."""
    default: Callable[[], T]
    """The value of a document never stored (a table's first fight)."""
    schema: int = 1
    """The shape this code writes; older stored data is migrated step by step."""
    migrations: Mapping[int, Migration] = field(default_factory=dict)
    """``{n: step}``: data of schema ``n`` brought to ``n + 1``."""
    per_character: bool = False
    """A sheet's document (``uow.load(doc, sheet)``) rather than the table's."""

    @cached_property
    def adapter(self) -> TypeAdapter[T]:
        """Built once, on first use (building one costs milliseconds)."""
        return TypeAdapter(self.type)

    @property
    def owner(self) -> str:
        return self.key.partition(".")[0]

    def read(self, data: dict[str, Any] | None, schema: int, where: str) -> T:
        """The value stored as ``data`` by ``schema``: migrated, then validated."""
        if not data:
            return self.default()
        if schema > self.schema:
            raise DamagedDocument(where, self.key,
                                  f"stored by a newer schema ({schema} > {self.schema})")
        while schema < self.schema:
            step = self.migrations.get(schema)
            if step is None:
                raise DamagedDocument(where, self.key, f"no migration from schema {schema}")
            try:
                data = step(dict(data))
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
                # a value the step cannot read is damaged, as one that fails validation
                raise DamagedDocument(where, self.key, f"migration from schema {schema} "
                                      f"failed ({type(exc).__name__})") from None
            schema += 1
        try:
            return self.adapter.validate_python(data)
        except ValidationError as exc:
            raise DamagedDocument(where, self.key,
                                  f"{exc.error_count()} invalid field(s): "
                                  f"{_first_error(exc)}") from None

    def dump(self, value: T) -> dict[str, Any]:
        """``value`` as the JSON object stored (what :meth:`read` reads back)."""
        data = self.adapter.dump_python(value, mode="json")
        if not isinstance(data, dict):
            raise TypeError(f"{self.key}: a document stores a JSON object, not {type(data)}")
        return data


def _first_error(exc: ValidationError) -> str:
    """Where the first error is and what it is — never the stored value itself (a
    hidden check's result must not reach a log line)."""
    first = exc.errors(include_input=False, include_url=False)[0]
    path = ".".join(str(part) for part in first.get("loc", ())) or "(root)"
    return f"{path}: {first.get('msg', 'invalid')}"

