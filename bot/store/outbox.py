"""Who sends a stored reply: the outbox's claims and their leases (issue 22, item 11).

Every reply is stored in the outbox with its command's change and stays there until
its platform took it (bot/core.py). Several processes may run on one store, and each
sends what the last run left at its start: without more, a process starting while
another is still sending its replies sends them again, and players get them twice.

So a row names the one process that sends it (``claimed_by``) and until when
(``lease_until``, UTC):

- **Stored** by a command: claimed by the process that ran it, from the insert on.
- **Taken** (:func:`take`, what ``Core.undelivered`` gives an adapter): one
  ``UPDATE … WHERE`` the row is its account's (``account``: the bot account that
  received the command, or none — docs/scaling.md) and free — never claimed, its lease past, or its
  claimant known dead — ``… RETURNING``. The condition is the compare of a
  compare-and-set: on SQLite one writer at a time runs it; on PostgreSQL a second
  process's UPDATE waits for the first one's row lock and then checks the condition
  again on the row as the first one left it, so it finds the row taken. Two
  processes never both win a row.
- **Renewed** while the process runs (:class:`Claims`: every :data:`RENEW_EVERY`
  seconds while it holds a row, one UPDATE for all its rows), **released** when it
  stops (the next start sends them at once), **deleted** once delivered.
- A claimant **known dead** — the same machine and PID namespace (Linux: the boot id
  and ``/proc/self/ns/pid``), and its PID gone or now another process (its start
  time differs) — is taken over at once: a restart after ``kill -9`` sends what the
  killed process left without waiting for its leases. Elsewhere a claim is taken
  over only once its lease is past (clocks of the processes' machines within
  :data:`MARGIN` seconds of each other).
- Before sending, an adapter asks :meth:`Claims.holds`: true at once while the
  process's last renewal is recent (no I/O); past that (the renewals failed, or the
  process stalled), the row is claimed again first — and not sent if another process
  took it meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import cache, partial
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, CursorResult, Result, or_, select, update

from bot.store.models import OUTBOX, utc_now

log = logging.getLogger(__name__)

T = TypeVar("T")

LEASE = 60.0
"""Seconds a claim lasts unless renewed."""
RENEW_EVERY = 15.0
"""Seconds between two renewals of a process's claims."""
MARGIN = 15.0
"""Seconds a process stops trusting its lease before it lapses (clock skew between
machines, a renewal's own time)."""



# --- who is claiming ----------------------------------------------------------------
@cache
def _machine() -> tuple[str, str] | None:
    """(boot id, PID namespace) of this process on Linux: two processes with the same
    pair see the same PIDs. None elsewhere."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text("ascii").strip()
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        return None
    return boot, namespace


def _started(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot), None when there is
    none: with its PID it names one process, even once the PID is reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("ascii", errors="replace")
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else None


def process_name() -> str:
    """A new claimant name: ``host|boot id|PID namespace|pid|start time|nonce`` (the
    nonce tells apart two cores of one process, as in the tests)."""
    machine = _machine() or ("", "")
    pid = os.getpid()
    return "|".join((socket.gethostname()[:40], *machine, str(pid), _started(pid) or "",
                     uuid.uuid4().hex[:8]))


def is_dead(claimant: str) -> bool:
    """Whether ``claimant`` is known to be gone: a process of this machine and PID
    namespace whose PID is free or belongs to a later process. Unknown is alive."""
    parts = claimant.split("|")
    machine = _machine()
    if len(parts) != 6 or machine is None or tuple(parts[1:3]) != machine \
            or not parts[3].isdigit() or not parts[4]:
        return False
    return _started(int(parts[3])) != parts[4]


def new_claim(claimant: str) -> dict[str, Any]:
    """The claim columns of a row stored now by ``claimant``."""
    return {"claimed_by": claimant, "lease_until": utc_now() + timedelta(seconds=LEASE)}


# --- statements (run in the caller's transaction) ------------------------------------
def _free(now: Any) -> Any:
    return or_(OUTBOX.c.lease_until.is_(None), OUTBOX.c.lease_until < now)


def _sent_by(platform: str, account: str) -> Any:
    """The rows ``account`` of ``platform`` sends: its own, and those of no account
    (stored by a one-account adapter, or before accounts were recorded)."""
    none = OUTBOX.c.account.is_(None)
    mine = or_(none, OUTBOX.c.account == account) if account else none
    return (OUTBOX.c.platform == platform) & mine


def take(session: Connection, platform: str, claimant: str,
         account: str = "") -> list[tuple[int, dict[str, Any]]]:
    """Claim every free row of ``platform`` that ``account`` sends (see the module and
    :func:`_sent_by`; another account's rows wait for it): (id, message), oldest
    first."""
    now = utc_now()
    rows_of = _sent_by(platform, account)
    dead = [other for other in session.execute(
        select(OUTBOX.c.claimed_by).distinct().where(
            rows_of, OUTBOX.c.claimed_by.is_not(None),
            OUTBOX.c.claimed_by != claimant, ~_free(now))).scalars() if is_dead(other)]
    free = or_(_free(now), OUTBOX.c.claimed_by.in_(dead)) if dead else _free(now)
    rows = session.execute(
        update(OUTBOX).where(rows_of, free)
        .values(new_claim(claimant)).returning(OUTBOX.c.id, OUTBOX.c.message)).all()
    return sorted((row_id, message) for row_id, message in rows)


def _matched(result: Result[Any]) -> int:
    """How many rows an UPDATE matched (``Connection.execute`` types its result as a plain
    Result; an UPDATE's is a CursorResult)."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def renew(session: Connection, claimant: str) -> int:
    """Extend every claim of ``claimant``: how many rows it holds."""
    return _matched(session.execute(update(OUTBOX).where(OUTBOX.c.claimed_by == claimant)
                                    .values(new_claim(claimant))))


def confirm(session: Connection, claimant: str, row_id: int) -> bool:
    """Claim row ``row_id`` again if it is still ``claimant``'s or free; False when it
    is gone (delivered) or another process's."""
    return _matched(session.execute(update(OUTBOX).where(
        OUTBOX.c.id == row_id,
        or_(OUTBOX.c.claimed_by == claimant, _free(utc_now()))).values(
        new_claim(claimant)))) == 1


def release(session: Connection, claimant: str) -> int:
    """Free every claim of ``claimant`` (it stops): the next start sends those rows."""
    return _matched(session.execute(update(OUTBOX).where(OUTBOX.c.claimed_by == claimant)
                                    .values(claimed_by=None, lease_until=None)))


# --- one process's claims ------------------------------------------------------------
Transaction = Callable[[Callable[[Connection], Any]], Awaitable[Any]]
"""Runs statements of the store in a committed transaction and returns their result."""


class Claims:
    """The claims of one core: renewed while it holds a row, released at its close.

    ``transaction`` runs its statements in a committed transaction (on the writer, in
    its next batch: :meth:`bot.core.Core.store_sync`)."""

    def __init__(self, claimant: str, transaction: Transaction) -> None:
        self.claimant = claimant
        self._transaction = transaction
        self.valid_until = 0.0
        """Until when (``time.monotonic``) every row this core holds is surely its own."""
        self._claimed = 0
        """Counts rows stored or taken: a renewal that found none stops only if none
        came meanwhile."""
        self._task: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None

    def claimed(self, since: float | None = None) -> None:
        """Rows were (or are about to be) claimed by this core, their lease starting
        no earlier than ``since`` (monotonic; default now): keep them renewed."""
        self._claimed += 1
        if self._task is None or self._task.done():
            self.valid_until = (time.monotonic() if since is None else since) + LEASE - MARGIN
            self._stop = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(
                self._keep(self._stop), name="outbox-leases")

    async def take(self, platform: str, account: str = "") -> list[tuple[int, dict[str, Any]]]:
        """Claim every free row of ``platform`` that ``account`` sends (:func:`take`)
        in a committed transaction."""
        started = time.monotonic()
        rows: list[tuple[int, dict[str, Any]]] = await self._transaction(
            partial(take, platform=platform, claimant=self.claimant, account=account))
        if rows:
            self.claimed(started)
        return rows

    async def holds(self, row_id: int) -> bool:
        """Whether this core may send row ``row_id`` now (see the module)."""
        if time.monotonic() < self.valid_until:
            return True
        try:
            mine: bool = await self._transaction(
                partial(confirm, claimant=self.claimant, row_id=row_id))
        except Exception:
            log.exception("could not confirm the claim of a stored reply: not sent now")
            return False
        if not mine:
            log.warning("a stored reply is sent by another process (this one's claim "
                        "lapsed): not sent here")
        return mine

    async def _keep(self, stop: asyncio.Event) -> None:
        while True:
            try:
                await asyncio.wait_for(stop.wait(), RENEW_EVERY)
                return
            except TimeoutError:
                pass
            claimed, started = self._claimed, time.monotonic()
            try:
                held: int = await self._transaction(partial(renew, claimant=self.claimant))
            except Exception:
                log.exception("could not renew the claims of stored replies")
                continue
            self.valid_until = started + LEASE - MARGIN
            if held == 0 and claimed == self._claimed:
                return

    async def close(self) -> None:
        """Stop renewing and free what this core still holds."""
        if self._stop is not None:
            self._stop.set()
        if self._task is not None:
            await self._task  # never cancelled: it may be inside its transaction
        self.valid_until = 0.0
        try:
            await self._transaction(partial(release, claimant=self.claimant))
        except Exception:
            log.exception("could not release the claims of stored replies: they are "
                          "sent again once their lease is past")
