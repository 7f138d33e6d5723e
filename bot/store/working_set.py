"""The working set: what the writer knows of the tables it served lately.

Every change this process makes passes the writer (:mod:`bot.store.writer`), which
applies a command's changes here only once the commit that holds them returned — so
what is kept is always what is stored, and a command that fails leaves nothing to
undo. Other processes are noticed at the start of each batch (SQLite's ``PRAGMA
data_version``, PostgreSQL's ``store_epoch`` row): the whole set is dropped.

Per table it keeps the table record (GMs included), its sheets, the documents read
so far (including "never stored"), and its game logs; per platform channel, the
campaign it is bound to. Values are kept as stored (JSON as read back from the
database) and copied when a command reads them. The least recently used tables
leave first beyond :data:`TABLES`.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.records import Gm, Log, Sheet, Table

TABLES = 2_000
"""Tables kept (each: its record, GMs, sheets, documents and logs — a few kB)."""
BINDINGS_PER_TABLE = 4
"""Platform-channel bindings remembered per table kept (most name no campaign)."""


@dataclass(frozen=True)
class Stored:
    """A stored document: its JSON and the schema it was written by."""

    data: dict[str, Any]
    schema: int


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""JSON values that are immutable: shared by a copy, not copied (and no call each)."""


def copy_json(value: Any) -> Any:
    """A copy of a JSON value that shares nothing mutable with it."""
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    return value


def copy_table(table: Table) -> Table:
    # every field named (not `dataclasses.replace`, three times slower on every command);
    # tests/bot/test_working_set.py checks that a copy equals its original
    return Table(table.id, table.platform, table.channel_key, table.system, table.locale,
                 table.default_die, [Gm(gm.user, gm.display_name) for gm in table.gms])


def copy_sheet(sheet: Sheet) -> Sheet:
    return Sheet(sheet.id, sheet.channel_id, sheet.owner, sheet.name, sheet.active,
                 copy_json(sheet.stats))


def copy_log(log: Log) -> Log:
    return copy.copy(log)


@dataclass(eq=False)
class TableState:
    """One table as stored: what the working set knows of it."""

    table: Table
    sheets: dict[int, Sheet] | None = None
    """Every sheet at the table by id, once read (None: not read yet)."""
    docs: dict[tuple[str, int | None], Stored | None] = field(default_factory=dict)
    """(key, sheet id or None) → the stored document, or None: never stored."""
    logs: list[Log] | None = None
    """The table's game logs, oldest first, once read."""


class WorkingSet:
    def __init__(self, tables: int = TABLES) -> None:
        self.limit = max(2, tables)
        self.tables: OrderedDict[tuple[str, str], TableState] = OrderedDict()
        self.bindings: OrderedDict[tuple[str, str], str | None] = OrderedDict()
        self.hits = 0
        self.misses = 0
        self.cleared = 0

    def table(self, platform: str, key: str) -> TableState | None:
        found = self.tables.get((platform, key))
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self.tables.move_to_end((platform, key))
        return found

    def keep(self, state: TableState) -> None:
        key = (state.table.platform, state.table.channel_key)
        self.tables[key] = state
        self.tables.move_to_end(key)
        while len(self.tables) > self.limit:
            self.tables.popitem(last=False)

    def binding(self, platform: str, channel: str) -> tuple[bool, str | None]:
        """(known, campaign) of a platform channel; campaign None: not bound."""
        key = (platform, channel)
        if key in self.bindings:
            self.bindings.move_to_end(key)
            return True, self.bindings[key]
        return False, None

    def keep_binding(self, platform: str, channel: str, campaign: str | None) -> None:
        self.bindings[(platform, channel)] = campaign
        if len(self.bindings) > self.limit * BINDINGS_PER_TABLE:
            self.bindings.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (another process wrote, a batch failed, a table moved)."""
        self.cleared += 1
        self.tables.clear()
        self.bindings.clear()
