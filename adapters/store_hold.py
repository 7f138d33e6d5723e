"""Who has a SQLite store open: a lock file beside it (``trpgbot.db.lock``).

`trpgbot db restore` replaces the database file; a bot that has it open at that moment
would go on writing into the replaced file (or its WAL) and lose every change from
then on, or worse. Nothing else in the store tells reliably that a process runs: the
outbox's claims (bot/store/outbox.py) exist only while a reply waits, and SQLite's own
locks only while a statement runs.

So every process that opens the store (`trpgbot run`, the console and `trpgbot log
export` through :func:`opened`; `trpgbot db backup`) holds a **shared** ``flock`` on the
lock file for as long as it has the store open; a restore takes it **exclusive**,
without waiting, and refuses when it cannot. The kernel drops a lock when its process
ends, ``kill -9`` included, so a lock is never left behind by a dead bot; a lock file
with no process holding it means nothing. It works between containers that mount the
same volume on one host, not across machines (a network file system's locks are its
own): one host is what a SQLite store is for.

PostgreSQL and in-memory stores have no lock file (a restore is only of SQLite files).
On Windows there is no ``flock``: a shared hold is always granted there, and a restore
always refused.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import make_url

from bot.config import Settings
from bot.core import Core


class StoreInUse(Exception):
    """A restore found the store held by a running process (or a restore under way)."""


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL; None for another database or in memory."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def lock_file(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


if sys.platform == "win32":  # pragma: no cover - no flock
    def _lock(fd: int, exclusive: bool) -> bool:
        return not exclusive
else:
    import fcntl

    def _lock(fd: int, exclusive: bool) -> bool:
        """Take the lock without waiting: False when another holder forbids it."""
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


class Hold:
    """One process's hold on a store: :func:`hold` gives it, :meth:`release` ends it."""

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops its lock
            self._fd = None


def _open(database: Path) -> int:
    database.parent.mkdir(parents=True, exist_ok=True)
    return os.open(lock_file(database), os.O_RDWR | os.O_CREAT, 0o600)


def hold(url: str) -> Hold:
    """Hold the store of ``url`` shared while it is open (nothing to hold but a SQLite
    file). Raises :class:`StoreInUse` while a restore replaces it."""
    database = sqlite_file(url)
    if database is None:
        return Hold(None)
    fd = _open(database)
    if not _lock(fd, exclusive=False):
        os.close(fd)
        raise StoreInUse(f"{database} is being restored (trpgbot db restore): start "
                         "again once it is done")
    return Hold(fd)


@contextlib.asynccontextmanager
async def opened(settings: Settings, **options: Any) -> AsyncIterator[Core]:
    """The core of this process (:meth:`Core.open` with ``options``), the store held
    from before its schema upgrade (a restore may be replacing it) to after its close.
    The hold is the process's, not the core's: a process is what a restore must wait
    for."""
    held = hold(settings.resolved_database_url())
    try:
        core = await Core.open(settings, **options)
        try:
            yield core
        finally:
            await core.close()
    finally:
        held.release()


@contextlib.contextmanager
def alone(database: Path) -> Iterator[None]:
    """No other process holds ``database`` while the block runs (nor can start to).
    Raises :class:`StoreInUse` when one does."""
    fd = _open(database)
    try:
        if not _lock(fd, exclusive=True):
            raise StoreInUse(
                f"a trpgbot process has {database} open (trpgbot run, the console, a "
                "log export or a backup): stop it first (docker compose stop bot)")
        yield
    finally:
        os.close(fd)
