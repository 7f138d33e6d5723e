"""Two bot processes on one database (two Cores here): the per-channel lock of one
process does not cover the other, so the version columns of the state documents and
of the character sheets must keep a concurrent change from overwriting another —
on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from adapters.config import Settings
from adapters.delivery import Delivery, take_over_forever
from bot.core import Core
from bot.messages import Incoming, Outgoing
from bot.store import outbox
from tests.orm import OutboxMessage, sessions
from tests.support import Table


async def test_concurrent_spends_from_two_processes_cannot_both_pass(
    any_settings: Settings,
) -> None:
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        table = Table(first)
        await table.text("gm", ".gm")
        await table.text("gm", ".ap set 3")
        spends = [core.handle(Incoming("console", "table", user, ".ap spend 移動",
                                       display_name=user))
                  for core, user in ((first, "alice"), (second, "bob"))]
        texts = [outs[0].text for outs in await asyncio.gather(*spends)]
        spent = [text for text in texts if "3 → 1" in text]
        assert len(spent) == 1, texts
        # the other one is refused: not enough AP (it ran after), or the conflict reply
        # (it ran at the same time) — never the internal-error reply
        [other] = [text for text in texts if text not in spent]
        assert other in (CONFLICT, "⚠ 行動點數不足：移動 需要 2，只剩 1。"), texts
        [shown] = await Table(second).say("carol", ".ap")
        assert shown.data is not None and shown.data["points"] == 1
    finally:
        await first.close()
        await second.close()


CONFLICT = "⚠ 同時有其他指令修改了相同資料，這次的指令沒有生效，請再試一次。"


async def test_concurrent_sheet_writes_are_never_lost(any_settings: Settings) -> None:
    """600 acknowledged `.st 力量+1` once left 496 stored: every acknowledged change
    must be stored, and every other one refused with the conflict reply."""
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        await Table(first).text("alice", ".st 力量 0")
        rounds = 40
        writes = [core.handle(Incoming("console", "table", "alice", ".st 力量+1",
                                       display_name="alice"))
                  for _ in range(rounds) for core in (first, second)]
        texts = [outs[0].text for outs in await asyncio.gather(*writes)]
        acknowledged = [t for t in texts if t.startswith("alice 的數值已更新：力量:")]
        assert all(t in acknowledged or t == CONFLICT for t in texts), set(texts)
        assert len(acknowledged) >= rounds  # each process's own lock orders its share
        stored = await Table(second).text("alice", ".st show")
        assert stored == f"alice：力量:{len(acknowledged)}"
    finally:
        await first.close()
        await second.close()


async def test_different_stats_on_one_sheet_do_not_overwrite_each_other(
    any_settings: Settings,
) -> None:
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        await Table(first).text("alice", ".st 力量 0 敏捷 0")
        rounds = 30
        writes = [core.handle(Incoming("console", "table", "alice", f".st {stat}+1",
                                       display_name="alice"))
                  for _ in range(rounds) for core, stat in ((first, "力量"), (second, "敏捷"))]
        texts = [outs[0].text for outs in await asyncio.gather(*writes)]
        strength = sum(t.startswith("alice 的數值已更新：力量:") for t in texts)
        dexterity = sum(t.startswith("alice 的數值已更新：敏捷:") for t in texts)
        assert strength + dexterity + texts.count(CONFLICT) == len(texts), set(texts)
        assert await Table(second).text("alice", ".st show") == (
            f"alice：屬性 力量:{strength}｜其他 敏捷:{dexterity}")
    finally:
        await first.close()
        await second.close()


class Recorder(Delivery):
    """An adapter that writes down what it sends, tagged with its process."""

    platform = "console"

    def __init__(self, core: Core, name: str, sent: list[tuple[str, str]]) -> None:
        super().__init__(core)
        self.name, self.sent = name, sent

    async def send_channel(self, out: Outgoing) -> None:
        self.sent.append((self.name, out.text))

    async def send_private(self, out: Outgoing) -> bool:
        self.sent.append((self.name, out.text))
        return True


async def outbox_rows(core: Core) -> list[tuple[int, str | None]]:
    async with sessions(core) as session:
        return [tuple(row) for row in await session.execute(  # type: ignore[misc]
            select(OutboxMessage.id, OutboxMessage.claimed_by).order_by(OutboxMessage.id))]


async def test_a_starting_process_does_not_send_what_a_live_one_sends(
        any_settings: Settings) -> None:
    """A reply stored by one process and still on its way (a slow platform, a Plurk
    flood-control wait) was sent again by every process that started meanwhile: it is
    the first process's, and only it sends it."""
    first = await Core.open(any_settings)
    second: Core | None = None
    sent: list[tuple[str, str]] = []
    try:
        outs = await Table(first).say("alice", ".st 觀察 5")
        second = await Core.open(any_settings)  # starts while the reply is unsent
        await Recorder(second, "second", sent).deliver(await second.undelivered("console"))
        await Recorder(first, "first", sent).deliver(outs)
        assert sent == [("first", "alice 的數值已更新：觀察:5")]
        await first.flush_acks()
        assert await outbox_rows(first) == []
    finally:
        await first.close()
        if second is not None:
            await second.close()


async def test_an_expired_claim_is_taken_over_and_its_holder_stands_down(
        any_settings: Settings) -> None:
    """A process that stopped renewing (stalled, or dead on another machine) loses its
    replies once their lease is past: another process takes them and sends them, and
    the first one, should it wake up, does not send them too."""
    first = await Core.open(any_settings)
    second: Core | None = None
    sent: list[tuple[str, str]] = []
    try:
        outs = await Table(first).say("alice", ".st 觀察 5")
        [(row_id, holder)] = await outbox_rows(first)
        assert holder == first.claims.claimant
        second = await Core.open(any_settings)
        assert await second.undelivered("console") == []  # the lease still runs
        async with sessions(first) as session, session.begin():
            await session.execute(update(OutboxMessage).values(
                lease_until=datetime(2000, 1, 1)))  # its lease is past…
        first.claims.valid_until = 0.0  # …and the first process knows its own lapsed
        taken = await second.undelivered("console")
        assert [(o.outbox_id, o.text) for o in taken] == [(row_id, "alice 的數值已更新：觀察:5")]
        assert await outbox_rows(first) == [(row_id, second.claims.claimant)]
        await Recorder(first, "first", sent).deliver(outs)  # it wakes up: not its own now
        await Recorder(second, "second", sent).deliver(taken)
        assert sent == [("second", "alice 的數值已更新：觀察:5")]
        await second.flush_acks()
        assert await outbox_rows(first) == []
    finally:
        await first.close()
        if second is not None:
            await second.close()


async def test_two_processes_taking_at_once_never_both_win(
        any_settings: Settings) -> None:
    """Every row goes to exactly one of two processes taking the same free rows at
    the same time."""
    cores = [await Core.open(any_settings) for _ in range(3)]
    try:
        for n in range(20):
            await Table(cores[0]).say("alice", f".st 觀察 {n}")
        await cores[0].close()  # its claims are released: all 20 are free
        for _ in range(5):
            taken = await asyncio.gather(*(core.undelivered("console") for core in cores[1:]))
            ids = [o.outbox_id for outs in taken for o in outs]
            assert len(ids) == len(set(ids))
            if ids:
                assert sorted(ids) == list(range(1, 21))
                break
    finally:
        for core in cores[1:]:
            await core.close()


async def test_a_dead_process_of_this_machine_is_taken_over_at_once(
        any_settings: Settings) -> None:
    """A restart after kill -9 need not wait for the killed process's leases: a claimant
    of this machine whose PID is gone is known dead. One of another machine, or alive,
    keeps its claim until its lease is past."""
    core = await Core.open(any_settings)
    try:
        done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
        me = outbox.process_name().split("|")
        dead = "|".join([*me[:3], done.stdout.strip(), "12345", "deadbeef"])
        elsewhere = "|".join([me[0], "another-boot", *me[2:5], "feedface"])
        alive = outbox.process_name()  # another core of this process
        assert outbox.is_dead(dead) and not outbox.is_dead(elsewhere) \
            and not outbox.is_dead(alive)
        lease = datetime.now(UTC).replace(tzinfo=None) + timedelta(minutes=5)
        async with sessions(core) as session, session.begin():
            session.add_all(OutboxMessage(
                platform="console", claimed_by=who, lease_until=lease,
                message=Outgoing("channel", "table", text).to_record())
                for who, text in ((dead, "killed"), (elsewhere, "far"), (alive, "busy")))
        assert [o.text for o in await core.undelivered("console")] == ["killed"]
    finally:
        await core.close()


async def test_a_running_process_takes_over_what_a_dead_one_left(
        any_settings: Settings) -> None:
    """A process that dies while another runs leaves its replies claimed: the live one's
    adapter looks again every so often (``take_over_forever``) and sends them once their
    lease is past — not while its platform is not connected, and never twice."""
    dying, live = await Core.open(any_settings), await Core.open(any_settings)
    sent: list[tuple[str, str]] = []
    try:
        await Table(dying).say("alice", ".st 觀察 5")
        ready = False
        loop = asyncio.create_task(take_over_forever(
            live, "console", Recorder(live, "live", sent).deliver, lambda: ready, every=0.05))
        await asyncio.sleep(0.2)
        assert sent == []  # its lease runs
        async with sessions(dying) as session, session.begin():
            await session.execute(update(OutboxMessage).values(
                lease_until=datetime(2000, 1, 1)))  # it died long ago
        await asyncio.sleep(0.2)
        assert sent == []  # not connected: nothing taken
        assert [holder for _, holder in await outbox_rows(live)] == [dying.claims.claimant]
        ready = True
        for _ in range(200):  # a busy machine: up to 10 s
            if sent:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # a few more looks: not sent again
        loop.cancel()
        assert sent == [("live", "alice 的數值已更新：觀察:5")]
    finally:
        await live.close()
        dying.claims.valid_until = 0.0
        await dying.close()
