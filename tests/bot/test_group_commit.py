"""Group commit (bot/store/group.py): many commands share one commit, each rolls back
alone, and no reply is returned before the commit that holds its change."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from bot import router
from bot.config import Settings
from bot.core import Core
from bot.errors import CommandError
from bot.messages import Incoming, Outgoing
from tests.conftest import make_settings
from tests.support import Table

ROOT = Path(__file__).resolve().parents[2]
UPDATED = "的數值已更新"


def db_file(settings: Settings) -> str:
    return settings.resolved_database_url().split("///", 1)[-1]


@contextmanager
def handler_of(body: str, wrap: Callable[[Callable[..., Awaitable[list[Outgoing]]]],
                                          Callable[..., Awaitable[list[Outgoing]]]],
               ) -> Iterator[None]:
    """Replace the handler of the common command ``body`` for the test's duration."""
    found = router.resolve(body, "plurk")
    assert found is not None
    cmd = found[0]
    original = cmd.handler
    object.__setattr__(cmd, "handler", wrap(original))  # Command is frozen
    try:
        yield
    finally:
        object.__setattr__(cmd, "handler", original)


STRENGTH = re.compile(r"力量:(?:\d+→)?(\d+)")


def strength(text: str) -> int:
    """力量 in a `.st` reply or `.st show` (whatever the sheet's layout around it)."""
    found = STRENGTH.search(text)
    assert found is not None, text
    return int(found.group(1))


async def stored_strength(core: Core, channel: str, user: str = "alice") -> int:
    return strength(await Table(core, channel).text(user, ".st show"))


@pytest.mark.parametrize("path", ["fast", "savepoint"])
@pytest.mark.parametrize("failure", ["exception", "refusal"])
async def test_a_command_failing_inside_a_batch_rolls_back_alone(
    settings: Settings, failure: str, path: str,
) -> None:
    """``fast``: the failing command's change is in memory only (the fast path: undone
    in memory); ``savepoint``: it flushed it into the batch's transaction first (which
    runs it again in a savepoint of its own: rolled back to it)."""
    core = await Core.open(settings)
    try:
        assert core.writer is not None
        for channel in ("a", "b", "c"):
            await Table(core, channel).text("alice", ".st 力量 0")

        def wrap(original):  # type: ignore[no-untyped-def]
            async def handler(ctx):  # type: ignore[no-untyped-def]
                outs = await original(ctx)
                if ctx.incoming.channel == "b":
                    if path == "savepoint":
                        await ctx.session.flush()  # in the batch's transaction
                    if failure == "refusal":
                        raise CommandError("core.error.conflict")
                    raise RuntimeError("a bug after the write")
                return outs
            return handler

        core.writer.window = 0.5  # hold the batch open: all three commands join it
        commits = core.writer.commits
        with handler_of("st 力量+1", wrap):
            replies = await asyncio.gather(*(core.handle(Incoming(
                "console", channel, "alice", ".st 力量+1", display_name="alice",
                message_id=f"id-{channel}")) for channel in ("a", "b", "c")))
        assert core.writer.commits == commits + 1  # one batch held the three
        core.writer.window = 0.0
        texts = [outs[0].text for outs in replies]
        assert UPDATED in texts[0] and strength(texts[0]) == 1
        assert UPDATED in texts[2] and strength(texts[2]) == 1
        assert texts[1].startswith("⚠") and UPDATED not in texts[1]
        assert await stored_strength(core, "a") == 1
        assert await stored_strength(core, "b") == 0
        assert await stored_strength(core, "c") == 1
        # the batch-mates' ids were recorded: a replay is answered by no one
        for channel in ("a", "c"):
            assert await core.handle(Incoming("console", channel, "alice", ".st 力量+1",
                                              display_name="alice",
                                              message_id=f"id-{channel}")) == []
    finally:
        await core.close()
    with sqlite3.connect(db_file(settings)) as conn:
        kept = conn.execute("SELECT count(*) FROM outbox").fetchone()[0]
        ids = {r[0] for r in conn.execute("SELECT message_id FROM processed_messages")}
    # a refusal is kept with its id, as without group commit; an internal error is
    # answered but records nothing (the player may send it again)
    refused = failure == "refusal"
    assert ids == ({"id-a", "id-b", "id-c"} if refused else {"id-a", "id-c"})
    assert kept == 3 + 2 + 3 + refused  # `.st 力量 0` ×3, a and c, `.st show` ×3


async def test_a_command_run_again_in_a_savepoint_rolls_the_same_dice(
        settings: Settings) -> None:
    """A fast-path command that asks for a flush of its own change is undone and run
    again in a savepoint: the second run reads the dice of the first (one scripted
    die is enough), and the change and reply are the second run's."""
    core = await Core.open(settings)
    rolled: list[int] = []
    try:
        table = Table(core)
        await table.text("alice", ".st 力量 0")

        def wrap(original):  # type: ignore[no-untyped-def]
            async def handler(ctx):  # type: ignore[no-untyped-def]
                rolled.append(ctx.dice.roll(100))
                outs = await original(ctx)
                await ctx.session.flush()  # NeedsSavepoint on the fast path
                return outs
            return handler

        with handler_of("st 力量+1", wrap):
            text = await table.text("alice", ".st 力量+1", dice=[42])
        assert rolled == [42, 42]
        assert text.endswith("力量:0→1")
        assert await stored_strength(core, "table") == 1
    finally:
        await core.close()


SCRIPT: list[tuple[str, str, str, list[int]]] = [
    # channel, user, text, dice
    ("t1", "gm", ".gm", []),
    ("t1", "gm", ".ap set 5", []),
    ("t1", "alice", ".pc new 艾莉絲", []),
    ("t1", "alice", ".st 力量 50 體力 10 觀察 40", []),
    ("t1", "alice", ".st 體力-3", []),
    ("t1", "alice", ".ap spend 移動", []),
    ("t1", "bob", ".ap spend 移動", []),
    ("t1", "carol", ".ap spend 移動", []),  # refused: 1 left
    ("t1", "alice", ".r 2d6+1 開鎖", [3, 4]),
    ("t1", "alice", ".rh 1d20", [17]),
    ("t1", "alice", ".st show", []),
    ("t1", "bob", ".gm add @carol", []),  # refused: bob is no GM
    ("t1", "gm", ".gm list", []),
    ("t1", "gm", ".ap", []),
    ("t2", "dave", ".lang en", []),
    ("t2", "dave", ".st 力量 1", []),
    ("t2", "dave", ".st 力量+999999999", []),  # refused: too large
    ("t2", "dave", ".r 1d20", [20]),
    ("t2", "dave", ".st show", []),
    ("t2", "dave", ".pc switch 無名", []),  # refused: no such character
    ("t3", "erin", ".gm", []),
    ("t3", "erin", ".system", []),
    ("t3", "erin", ".st 體力 3", []),
    ("t3", "erin", ".st 體力-1", []),
    ("t3", "erin", ".help st", []),
]


async def play(settings: Settings, group_commit: bool) -> dict[str, list[tuple]]:
    core = await Core.open(settings, group_commit=group_commit)
    assert (core.writer is not None) == group_commit
    try:
        async def channel(name: str) -> list[tuple]:
            table, seen = Table(core, name), []
            for n, (where, user, text, dice) in enumerate(SCRIPT):
                if where == name:
                    outs = await table.say(user, text, dice, message_id=f"{name}-{n}")
                    seen.extend((o.to, o.channel, o.user, o.text, o.data, o.secret)
                                for o in outs)
            return seen
        names = sorted({where for where, *_ in SCRIPT})
        return dict(zip(names, await asyncio.gather(*map(channel, names)), strict=True))
    finally:
        await core.close()


async def test_a_scripted_session_answers_the_same_with_group_commit_on_and_off(
    tmp_path: Path,
) -> None:
    off = await play(make_settings(tmp_path / "off"), group_commit=False)
    on = await play(make_settings(tmp_path / "on"), group_commit=True)
    assert on == off
    assert sum(map(len, on.values())) >= len(SCRIPT)
    assert any("⚠" in text for *_, text, _, _ in on["t1"])  # the refusals are in it


async def test_no_reply_is_returned_before_its_commit(
    settings: Settings, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every reply ``handle`` returns is already visible to another connection of the
    database file (committed), even while commits are slow."""
    core = await Core.open(settings)
    original = AsyncSession.commit
    commits: list[int] = []

    async def slow_commit(self: AsyncSession) -> None:
        await asyncio.sleep(0.03)  # commands keep arriving while a batch commits
        await original(self)
        commits.append(1)

    monkeypatch.setattr(AsyncSession, "commit", slow_commit)
    reader = sqlite3.connect(db_file(settings))
    checked = 0
    try:
        async def player(channel: str) -> None:
            nonlocal checked
            table = Table(core, channel)
            for n in range(15):
                text = ".st 力量+1" if n else ".st 力量 0"
                [out] = await table.say("alice", text)
                # no await between the reply and this read: what the reply announces
                # must already be committed
                row = reader.execute("SELECT message FROM outbox WHERE id = ?",
                                     (out.outbox_id,)).fetchone()
                assert row is not None, (channel, n, out.text)
                if n:
                    assert UPDATED in out.text and strength(out.text) == n
                checked += 1
        await asyncio.gather(*(player(f"c{i}") for i in range(10)))
    finally:
        reader.close()
        monkeypatch.setattr(AsyncSession, "commit", original)
        await core.close()
    assert checked == 150
    assert core.writer is not None and core.writer.commits < 150  # commands shared commits


BURST = textwrap.dedent("""
    import asyncio, sys
    from bot.config import Settings
    from bot.core import Core
    from bot.messages import Incoming

    async def main() -> None:
        core = await Core.open(Settings(_env_file=None, data_dir=sys.argv[1]))
        async def channel(c: int) -> None:
            for n in range(int(sys.argv[2])):
                text = ".st 力量 0" if n == 0 else ".st 力量+1"
                outs = await core.handle(Incoming("console", f"c{c}", "alice", text,
                                                  display_name="alice",
                                                  message_id=f"c{c}-{n}"))
                print(f"c{c}\\t{outs[0].text}", flush=True)
        print("ready", flush=True)
        await asyncio.gather(*(channel(c) for c in range(20)))
    asyncio.run(main())
""")


def test_kill_9_during_a_burst_loses_no_acknowledged_change(tmp_path: Path) -> None:
    """A real process answering 20 channels × 60 `.st 力量+1` is killed with SIGKILL
    mid-burst: every change it acknowledged is stored after a restart."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", BURST, str(tmp_path), "60"],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    acked: dict[str, int] = {}
    lines = 0
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    try:
        for line in proc.stdout:
            channel, text = line.rstrip("\n").split("\t", 1)
            assert UPDATED in text, text
            acked[channel] = strength(text)
            lines += 1
            if lines == 500:  # well inside the 1,200 commands
                proc.send_signal(signal.SIGKILL)
                break
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert lines == 500

    async def stored() -> dict[str, int]:
        core = await Core.open(Settings(_env_file=None, data_dir=tmp_path))
        try:
            values = {}
            for c in range(20):
                values[f"c{c}"] = await stored_strength(core, f"c{c}")
            return values
        finally:
            await core.close()

    loop = asyncio.new_event_loop()
    try:
        values = loop.run_until_complete(stored())
    finally:
        loop.close()
    for channel, value in acked.items():
        # every acknowledged +1 is there; at most the one in flight was also committed
        assert acked[channel] <= value <= acked[channel] + 1, (channel, acked, values)
