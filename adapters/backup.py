"""Backing up and restoring a SQLite store, and the optional daily backup of `trpgbot run`.

- **Backup** (:func:`backup_sqlite`) goes through SQLite's online backup API
  (``sqlite3.Connection.backup``) in one step: the copy is made inside one read
  transaction, so it is the store as one commit left it, while the bot goes on writing
  (the store is in WAL mode: a reader never blocks the writer, and the writer never
  restarts the copy). The copy is checked (``PRAGMA integrity_check``) and written in
  the rollback-journal mode, one self-contained file, before it takes its name.
- **Restore** (:func:`restore_sqlite`) first checks that the file is a trpgbot store
  this version knows (its alembic revision), then, with no process holding the store
  (adapters/store_hold.py), copies it in beside the store and swaps it in; the replaced
  store (with its WAL) is kept under ``<name>.replaced-<UTC time>``.
- **Daily** (:class:`DailyBackups`): ``TRPGBOT_BACKUP__ENABLED``; one backup when the
  newest in the folder is a day old (so at the first start, and never twice a day
  across restarts), the ``TRPGBOT_BACKUP__KEEP`` newest kept.

PostgreSQL is backed up with its own tools (``pg_dump``, ``psql``): see :data:`PG_DUMP`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from adapters import store_hold
from bot.config import Settings

log = logging.getLogger(__name__)

PG_DUMP = "docker compose exec -T postgres pg_dump -U trpgbot trpgbot > trpgbot.sql"
"""The backup of the compose file's PostgreSQL (``-T``: no terminal, so the dump is not
mangled on its way to the file)."""
PG_RESTORE = ("docker compose exec -T postgres psql -U trpgbot -v ON_ERROR_STOP=1 trpgbot "
              "< trpgbot.sql")
"""Its restore, into an empty database (docs/operations.md, "Restore")."""

DAY = timedelta(days=1)
RETRY = timedelta(hours=1)
"""How long the daily backup waits after a failed one."""
NAME = re.compile(r"^trpgbot-(\d{8}T\d{6}Z)\.db$")
STAMP = "%Y%m%dT%H%M%SZ"


class BackupError(Exception):
    """A backup or restore that cannot be made; the message says why, for the operator."""


def _connect(path: Path) -> sqlite3.Connection:
    """An existing database file, never created by opening it."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=30)


def backup_sqlite(database: Path, target: Path) -> None:
    """Copy the store ``database`` into ``target`` (which must not exist), safe while a
    bot writes to it (see the module)."""
    if target.exists():
        raise BackupError(f"{target} exists: name a new file")
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        source = _connect(database)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # all pages in one step: one read snapshot
                copy.execute("PRAGMA journal_mode=DELETE")
                problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            finally:
                copy.close()
        finally:
            source.close()
        if problems != ["ok"]:
            raise BackupError(f"the copy of {database} fails its integrity check: "
                              f"{'; '.join(problems[:5])}")
        with partial.open("rb") as written:
            os.fsync(written.fileno())
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"could not back up {database}: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)


def known_revisions() -> frozenset[str]:
    """Every schema revision of this version's migrations."""
    from alembic.script import ScriptDirectory

    from bot.store.db import alembic_config

    return frozenset(script.revision
                     for script in ScriptDirectory.from_config(alembic_config()).walk_revisions())


def stored_revisions(path: Path) -> frozenset[str]:
    """The schema revisions of the store in ``path``; :class:`BackupError` when it is
    no trpgbot database this version can run."""
    try:
        connection = _connect(path)
        try:
            revisions = frozenset(row[0] for row in connection.execute(
                "SELECT version_num FROM alembic_version"))
        finally:
            connection.close()
    except sqlite3.Error as exc:
        raise BackupError(f"{path} is not a trpgbot database ({exc})") from exc
    if not revisions:
        raise BackupError(f"{path} is not a trpgbot database (no schema revision)")
    unknown = revisions - known_revisions()
    if unknown:
        raise BackupError(f"{path} was written by a newer trpgbot (schema revision "
                          f"{', '.join(sorted(unknown))}): upgrade trpgbot first")
    return revisions


def _with_suffix(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def restore_sqlite(database: Path, backup: Path, now: datetime | None = None) -> Path | None:
    """Replace the store ``database`` with the backup ``backup``; the replaced store's
    new name (None: there was none). Raises :class:`store_hold.StoreInUse` while a process
    holds the store, :class:`BackupError` when ``backup`` is no trpgbot store."""
    stored_revisions(backup)
    staged = _with_suffix(database, ".restoring")
    with store_hold.alone(database):
        staged.unlink(missing_ok=True)
        backup_sqlite(backup, staged)
        kept = None
        if database.exists():
            stamp = (now or datetime.now(UTC)).strftime(STAMP)
            kept = _with_suffix(database, f".replaced-{stamp}")
            for part in ("", "-wal", "-shm"):  # SQLite finds a WAL by the file's name
                if _with_suffix(database, part).exists():
                    _with_suffix(database, part).rename(_with_suffix(kept, part))
        os.replace(staged, database)
    return kept


# --- the daily backup -----------------------------------------------------------------
def name_at(at: datetime) -> str:
    """The file name of a backup made at ``at`` (aware UTC)."""
    return f"trpgbot-{at.strftime(STAMP)}.db"


def backups_in(folder: Path) -> list[tuple[datetime, Path]]:
    """The daily backups in ``folder``, oldest first (other files are not ours)."""
    found = []
    if folder.is_dir():
        for path in folder.iterdir():
            match = NAME.match(path.name)
            if match:
                found.append((datetime.strptime(match[1], STAMP).replace(tzinfo=UTC), path))
    return sorted(found)


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest daily backups of ``folder``; what was deleted."""
    old = [path for _, path in backups_in(folder)[:-keep]]
    for path in old:
        path.unlink(missing_ok=True)
    return old


Clock = Callable[[], datetime]
Sleep = Callable[[float, asyncio.Event], Awaitable[None]]


async def _sleep(seconds: float, stop: asyncio.Event) -> None:
    """Wait ``seconds``, or less if ``stop`` is set."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def _utc_now() -> datetime:
    return datetime.now(UTC)


class DailyBackups:
    """Back up ``database`` into ``folder`` once a day, keeping the ``keep`` newest.

    ``clock`` (aware UTC) and ``sleep`` are the test's to replace: the schedule is
    tested by moving a clock, not by waiting a day."""

    def __init__(self, database: Path, folder: Path, keep: int, clock: Clock = _utc_now,
                 sleep: Sleep = _sleep) -> None:
        self.database, self.folder, self.keep = database, folder, keep
        self._clock, self._sleep = clock, sleep

    def due(self) -> datetime:
        """When the next backup is due: a day after the newest, or now."""
        found = backups_in(self.folder)
        return found[-1][0] + DAY if found else self._clock()

    async def back_up(self) -> Path:
        """One backup now, then the old ones pruned."""
        target = self.folder / name_at(self._clock())
        await asyncio.to_thread(backup_sqlite, self.database, target)
        for path in prune(self.folder, self.keep):
            log.info("daily backup: removed %s (keeping %d)", path.name, self.keep)
        log.info("daily backup: wrote %s", target)
        return target

    async def run(self, stop: asyncio.Event) -> None:
        """Until ``stop`` is set; a failed backup is logged and tried again later."""
        while not stop.is_set():
            wait = (self.due() - self._clock()).total_seconds()
            if wait <= 0:
                try:
                    await self.back_up()
                    continue
                except Exception:
                    log.exception("daily backup failed; trying again in %s", RETRY)
                    wait = RETRY.total_seconds()
            await self._sleep(wait, stop)


def start_daily(settings: Settings, stop: asyncio.Event) -> asyncio.Task[None] | None:
    """The daily backup of `trpgbot run` as a task, when ``TRPGBOT_BACKUP__ENABLED``
    (it ends once ``stop`` is set); None when off or not SQLite (logged)."""
    section = settings.backup
    if not section.enabled:
        return None
    database = store_hold.sqlite_file(settings.resolved_database_url())
    if database is None:
        log.warning("TRPGBOT_BACKUP__ENABLED is for a SQLite store; back up PostgreSQL "
                    "with pg_dump (docs/operations.md, \"Backups\")")
        return None
    folder = section.dir if section.dir is not None else settings.data_dir / "backups"
    daily = DailyBackups(database, folder, section.keep)
    return asyncio.get_running_loop().create_task(daily.run(stop), name="daily-backup")
