"""`trpgbot db backup` / `db restore` and the daily backup of `trpgbot run` (issue 25,
item 3): real processes of the command line, a real Core writing to the same SQLite
file, real files; the daily schedule on a moved clock."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sqlite3
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from adapters import backup
from adapters.backup import DailyBackups
from adapters.config import Settings
from adapters.store_hold import opened
from bot.core import Core
from tests.conftest import make_settings
from tests.support import Table

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)


async def trpgbot(data_dir: Path, *args: str, **env: str) -> tuple[int, str, str]:
    """The command line of this checkout, as an operator runs it, in ``data_dir``."""
    process = await start(data_dir, *args, **env)
    out, err = await asyncio.wait_for(process.communicate(), 90)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def start(data_dir: Path, *args: str, **env: str) -> asyncio.subprocess.Process:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TRPGBOT_")}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "adapters.cli", *args, cwd=data_dir,
        env={**clean, "PYTHONPATH": str(ROOT), "TRPGBOT_DATA_DIR": str(data_dir), **env},
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)


async def sheet(core: Core, user: str) -> dict[str, int]:
    [shown] = await Table(core).say(user, ".st show")
    assert shown.data is not None, shown
    return dict(shown.data["stats"])


async def play(settings: Settings, *commands: tuple[str, str]) -> None:
    """Open a core on the store, run ``(user, text)`` commands, close it."""
    core = await Core.open(settings)
    try:
        for user, text in commands:
            await Table(core).text(user, text)
    finally:
        await core.close()


def integrity(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        return [row[0] for row in connection.execute("PRAGMA integrity_check")]


async def test_backup_while_a_running_core_writes(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    core = await Core.open(settings)
    try:
        for n in range(20):
            await Table(core).text(f"player{n}", f".st 力量 {n} 敏捷 {n + 50}")
        handled = 0
        stopping = asyncio.Event()

        async def keep_writing() -> None:
            nonlocal handled
            while not stopping.is_set():
                await Table(core).text("writer", f".st 力量 {handled % 90}")
                handled += 1

        writer = asyncio.create_task(keep_writing())
        await asyncio.sleep(0.2)
        before = handled
        code, out, err = await trpgbot(tmp_path, "db", "backup", "copy.db")
        during = handled - before
        stopping.set()
        await writer
    finally:
        await core.close()
    assert code == 0, err
    assert during > 0  # the bot went on writing while the copy was made
    copy = tmp_path / "copy.db"
    assert out.strip() == str(copy)
    assert integrity(copy) == ["ok"]
    assert not list(tmp_path.glob(".copy.db*"))  # no partial file left
    # The copy is a store the bot opens, with every sheet written before the backup.
    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copyfile(copy, restored / "trpgbot.db")
    reopened = await Core.open(make_settings(restored))
    try:
        for n in range(20):
            assert await sheet(reopened, f"player{n}") == {"力量": n, "敏捷": n + 50}
    finally:
        await reopened.close()
    # A second backup never overwrites the first.
    code, _, err = await trpgbot(tmp_path, "db", "backup", "copy.db")
    assert code == 1 and "exists" in err
    # A folder gets a dated file.
    (tmp_path / "dated").mkdir()
    code, out, err = await trpgbot(tmp_path, "db", "backup", "dated")
    assert code == 0, err
    assert backup.NAME.match(Path(out.strip()).name)


async def test_restore_round_trip(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    await play(settings, ("alice", ".st 力量 50"))
    code, _, err = await trpgbot(tmp_path, "db", "backup", "before.db")
    assert code == 0, err
    await play(settings, ("alice", ".st 力量 60"), ("bob", ".st 力量 10"))
    code, out, err = await trpgbot(tmp_path, "db", "restore", "before.db")
    assert code == 0, err
    [kept] = tmp_path.glob("trpgbot.db.replaced-*[0-9]Z")
    assert str(kept) in out
    core = await Core.open(settings)
    try:
        assert await sheet(core, "alice") == {"力量": 50}
        assert (await Table(core).say("bob", ".st show"))[0].data is None  # bob came later
    finally:
        await core.close()
    # The replaced store is kept whole, its last changes included.
    replaced = await Core.open(make_settings(tmp_path, database_url=(
        f"sqlite+aiosqlite:///{kept.as_posix()}")))
    try:
        assert await sheet(replaced, "alice") == {"力量": 60}
    finally:
        await replaced.close()


async def test_restore_refuses_while_a_bot_runs_and_not_after_it_is_killed(
        tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    await play(settings, ("alice", ".st 力量 50"))
    assert (await trpgbot(tmp_path, "db", "backup", "before.db"))[0] == 0
    bot = await start(tmp_path, "run")  # no platform enabled: the console
    try:
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write(".st 力量 70\n".encode())
        await bot.stdin.drain()
        # (it first sends the replies the core above stored and nobody delivered)
        while "70" not in (await asyncio.wait_for(bot.stdout.readline(), 60)).decode():
            pass
        stored = (tmp_path / "trpgbot.db").stat().st_ino
        code, _, err = await trpgbot(tmp_path, "db", "restore", "before.db")
        assert code == 1
        assert "stop it first" in err
        assert (tmp_path / "trpgbot.db").stat().st_ino == stored
        assert not list(tmp_path.glob("trpgbot.db.replaced-*"))
    finally:
        bot.send_signal(signal.SIGKILL)  # the kernel drops its lock: nothing is left behind
        await bot.wait()
    code, _, err = await trpgbot(tmp_path, "db", "restore", "before.db")
    assert code == 0, err
    async with opened(settings) as core:
        assert await sheet(core, "alice") == {"力量": 50}
        # and a restore refuses a process's core opened in-process the same way
        code, _, err = await trpgbot(tmp_path, "db", "restore", "before.db")
        assert code == 1 and "stop it first" in err
    # closed: nothing holds the store any more
    code, _, err = await trpgbot(tmp_path, "db", "restore", "before.db")
    assert code == 0, err


async def test_restore_refuses_what_is_no_trpgbot_store(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    store = tmp_path / "trpgbot.db"
    original = store.read_bytes()
    (tmp_path / "notes.txt").write_text("not a database", "utf-8")
    with sqlite3.connect(tmp_path / "other.db") as other:
        other.execute("CREATE TABLE t (x)")
    newer = tmp_path / "newer.db"
    shutil.copyfile(store, newer)
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'f00dfeed1234'")
    for name, reason in (("notes.txt", "not a trpgbot database"),
                         ("other.db", "not a trpgbot database"),
                         ("newer.db", "newer trpgbot"),
                         ("missing.db", "no such file")):
        code, _, err = await trpgbot(tmp_path, "db", "restore", name)
        assert code == 1, name
        assert reason in err, (name, err)
    assert store.read_bytes() == original
    assert backup.stored_revisions(store)  # the store itself passes the same check
    assert settings.resolved_database_url().endswith("trpgbot.db")


async def test_postgresql_is_backed_up_with_pg_dump(tmp_path: Path) -> None:
    url = "postgresql+asyncpg://trpgbot:x@127.0.0.1:1/trpgbot"  # never connected to
    code, _, err = await trpgbot(tmp_path, "db", "backup", "x.sql", "--db", url)
    assert code == 2
    assert "docker compose exec -T postgres pg_dump -U trpgbot trpgbot > trpgbot.sql" in err
    code, _, err = await trpgbot(tmp_path, "db", "--db", url, "restore", "x.sql")
    assert code == 2
    assert ("docker compose exec -T postgres psql -U trpgbot -v ON_ERROR_STOP=1 trpgbot "
            "< trpgbot.sql") in err


class Clock:
    """A UTC clock the test moves; its sleep moves it and stops the schedule at ``end``."""

    def __init__(self, now: datetime, end: datetime) -> None:
        self.now, self.end = now, end
        self.sleeps: list[float] = []

    def __call__(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float, stop: asyncio.Event) -> None:
        self.sleeps.append(seconds)
        self.now += timedelta(seconds=seconds)
        if self.now >= self.end:
            stop.set()


async def test_daily_backups_keep_the_newest_and_survive_restarts(tmp_path: Path) -> None:
    database = make_settings(tmp_path / "data").data_dir / "trpgbot.db"
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "mine.db").write_text("an operator's file", "utf-8")
    start = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    clock = Clock(start, start + timedelta(days=9, hours=1))
    await DailyBackups(database, folder, keep=3, clock=clock, sleep=clock.sleep).run(
        asyncio.Event())
    days = [start + timedelta(days=n) for n in (7, 8, 9)]
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        ["mine.db", *(backup.name_at(day) for day in days)])
    assert clock.sleeps[:2] == [86400.0, 86400.0]  # one a day, not one a sleep
    for day in days:
        assert backup.stored_revisions(folder / backup.name_at(day))
    # A restart five hours after the last backup waits for the rest of the day.
    restart = start + timedelta(days=9, hours=5)
    later = Clock(restart, restart + timedelta(hours=1))
    await DailyBackups(database, folder, keep=3, clock=later, sleep=later.sleep).run(
        asyncio.Event())
    assert later.sleeps == [19 * 3600.0]
    assert len(backup.backups_in(folder)) == 3
    # A failed backup (the store is gone) is tried again an hour later, not in a loop.
    broken = Clock(start + timedelta(days=20), start + timedelta(days=20, hours=2))
    await DailyBackups(tmp_path / "gone.db", folder, keep=3, clock=broken,
                       sleep=broken.sleep).run(asyncio.Event())
    assert broken.sleeps == [3600.0, 3600.0]


async def test_trpgbot_run_makes_the_daily_backup(tmp_path: Path) -> None:
    make_settings(tmp_path)
    folder = tmp_path / "kept"
    bot = await start(tmp_path, "run", TRPGBOT_BACKUP__ENABLED="true",
                      TRPGBOT_BACKUP__DIR=str(folder), TRPGBOT_BACKUP__KEEP="2")
    try:
        for _ in range(300):
            if backup.backups_in(folder):
                break
            await asyncio.sleep(0.1)
        [(_, made)] = backup.backups_in(folder)
        assert integrity(made) == ["ok"]
    finally:
        bot.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(bot.wait(), 30) == 0


def test_backup_settings_default_to_off(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, data_dir=tmp_path)
    assert not settings.backup.enabled
    assert settings.backup.keep == 7 and settings.backup.dir is None
