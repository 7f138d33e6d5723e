"""The transactional outbox (issue 8, item 9): a reply is stored with its command's
change and leaves the store only once an adapter says it was delivered."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import time
from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import event, func, select, text

from adapters.config import Settings
from bot.core import ACK_DELAY, Core
from bot.messages import Attachment, Incoming, Outgoing
from bot.store import db, outbox
from tests.conftest import make_settings
from tests.orm import OutboxMessage, PendingPrivate, sessions
from tests.support import Table, engines, stored_replies


def said(user: str, line: str, message_id: str | None = None) -> Incoming:
    return Incoming("console", "table", user, line, display_name=user, message_id=message_id)


async def test_replies_stay_in_the_outbox_until_delivered(settings: Settings) -> None:
    core = await Core.open(settings)
    try:
        outs = await core.handle(said("alice", ".st 觀察 5", "m1"))
        refused = await core.handle(said("alice", ".pc switch 無名", "m2"))
        assert [o.outbox_id for o in outs + refused] == [1, 2]
        waiting = await stored_replies(core)
        assert [(o.text, o.outbox_id) for o in waiting] == [
            ("alice 的數值已更新：觀察:5", 1), ("⚠ 找不到名為「無名」的角色。", 2)]
        assert await core.undelivered("console") == []  # this core's own: it sends them
        assert await stored_replies(core, "qq") == []
        await core.delivered(outs[0])
        await asyncio.sleep(ACK_DELAY * 2)  # the grouped deletion has committed
        assert [o.outbox_id for o in await stored_replies(core)] == [2]
    finally:
        await core.close()
    again = await Core.open(settings)  # a restart finds only what was not delivered
    try:
        assert [o.text for o in await again.undelivered("console")] == [
            "⚠ 找不到名為「無名」的角色。"]
        # a replayed message is not answered (nor stored) again
        assert await again.handle(said("alice", ".pc switch 無名", "m2")) == []
        assert len(await stored_replies(again)) == 1
    finally:
        await again.close()


async def test_the_outbox_depth_counts_waiting_replies_and_ages_the_oldest(
        core: Core) -> None:
    """What the operator's health check reads: nothing waiting is (0, None); a waiting
    reply is counted with the age of the oldest, in seconds since it was stored."""
    assert await core.outbox_depth() == (0, None)
    before = time.monotonic()
    await core.handle(said("alice", ".st 觀察 5", "m1"))
    await core.handle(said("alice", ".st 觀察 6", "m2"))
    count, age = await core.outbox_depth()
    assert count == 2
    assert age is not None and 0 <= age <= time.monotonic() - before + 1


async def test_a_kept_private_message_leaves_the_outbox(settings: Settings) -> None:
    core = await Core.open(settings)
    try:
        await core.handle(said("gm", ".gm"))
        outs = await core.handle(said("bob", ".rh 1d20"))
        gm_copy = next(o for o in outs if o.user == "gm")
        notice = await core.private_delivery_failed("console", gm_copy)
        assert [o.to for o in notice] == ["channel"]
        assert gm_copy.outbox_id not in {o.outbox_id for o in await stored_replies(core)}
    finally:
        await core.close()


async def test_parked_replies_of_an_older_schema_become_outbox_rows(
    tmp_path: Path,
) -> None:
    """Migration 0005: replies parked by the last version are still sent."""
    settings = make_settings(tmp_path, migrated=False)
    engine = db.make_engine(settings.resolved_database_url())

    def to_0003(connection) -> None:  # type: ignore[no-untyped-def]
        cfg = db.alembic_config()
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "0003")

    async with engine.begin() as conn:
        await conn.run_sync(to_0003)
        record = Outgoing("channel", "4242", "🎲 parked", data={"kind": "roll"})
        await conn.execute(text(
            "INSERT INTO parked_outgoing (platform, origin, message, created_at) "
            "VALUES ('plurk', '4242', :message, '2026-11-29 10:00:00')"),
            {"message": json.dumps(record.to_record())})
    await engine.dispose()
    core = await Core.open(settings)
    try:
        [kept] = await core.undelivered("plurk")
        assert (kept.to, kept.channel, kept.text, kept.data) == (
            "channel", "4242", "🎲 parked", {"kind": "roll"})
    finally:
        await core.close()


# ------------------------------------------------------------------ services for adapters
async def test_an_undeliverable_private_message_is_kept_at_the_campaigns_table(
        core: Core) -> None:
    home, thread = Table(core, "t1"), Table(core, "t2")
    await home.say("k", ".gm", display_name="Keeper")
    await home.say("k", ".campaign bind c", display_name="Keeper")
    await thread.say("k", ".campaign bind c", display_name="Keeper")
    await home.say("k", ".lang en", display_name="Keeper")
    notice = await core.private_delivery_failed(
        "console", Outgoing("private", "t2", "the secret", user="k", secret=True))
    assert notice == [Outgoing("channel", "t2", (
        "Could not send a private message to Keeper (not a friend of the bot, or DMs "
        "closed). It is kept: add the bot as a friend, then type .gm pending."))]
    notice = await core.private_delivery_failed(
        "console", Outgoing("private", "t2", "bob's secret", user="bob", secret=True))
    assert [o.text for o in notice] == [(
        "Could not send a private message to bob (not a friend of the bot, or DMs "
        "closed). It is kept: add the bot as a friend, then type .gm pending.")]
    outs = await home.say("k", ".gm pending")
    assert [(o.to, o.user, o.text) for o in outs] == [
        ("channel", None, "Re-sent 1 private message(s)."), ("private", "k", "the secret")]
    with pytest.raises(AssertionError):
        await core.private_delivery_failed("console", Outgoing("channel", "t2", "x", user="k"))


async def test_a_delivered_reply_leaves_the_outbox_without_waiting_for_close(
        core: Core) -> None:
    outs = await core.handle(Incoming("console", "t", "u", ".r 1d6", "u"))
    await core.delivered(outs[0])
    await asyncio.sleep(ACK_DELAY * 3)
    assert await _outbox_rows(core) == 0


async def test_closing_flushes_the_grouped_acks_without_waiting_out_the_delay(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """A console run ends right after its reply: closing must not sit out the grouping
    delay (it cost every console start 0.2 s). With the delay set to an hour, close
    still returns at once and the delivered reply is gone."""
    monkeypatch.setattr("bot.core.ACK_DELAY", 3600)
    core = await Core.open(settings)
    outs = await core.handle(said("alice", ".r 1d6", "m1"))
    await core.delivered(outs[0])
    await asyncio.wait_for(core.close(), 10)
    reopened = await Core.open(settings)
    try:
        assert await _outbox_rows(reopened) == 0
    finally:
        await reopened.close()


async def _outbox_rows(core: Core) -> int:
    async with sessions(core) as session:
        return await session.scalar(select(func.count()).select_from(OutboxMessage))


async def test_acknowledgements_survive_a_failed_deletion(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    outs = [(await core.handle(Incoming("console", "t", "u", f".r 1d{faces}", "u")))[0]
            for faces in (6, 8, 4)]
    await core.delivered(outs[0])
    await core.delivered(outs[1])
    loop = asyncio.get_running_loop()
    failed: list[str] = []
    late: list[asyncio.Task[None]] = []

    def fail_once(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("DELETE FROM outbox") and not failed:
            failed.append(statement)
            late.append(loop.create_task(core.delivered(outs[2])))  # acked meanwhile
            raise OSError("disk gone")

    for engine in engines(core):
        event.listen(engine, "before_cursor_execute", fail_once)
    with caplog.at_level(logging.ERROR, logger="bot.core"):
        await core.flush_acks()
    assert len(failed) == 1
    assert [r.getMessage() for r in caplog.records if r.name == "bot.core"] == [
        "could not remove 2 delivered replies from the outbox"]
    assert await _outbox_rows(core) == 3
    await asyncio.sleep(ACK_DELAY * 3)  # the grouped deletion after the last ack
    await core.flush_acks()
    assert await _outbox_rows(core) == 0


async def test_a_message_id_is_claimed_once_per_platform(core: Core) -> None:
    assert await core.claim_message("plurk", "m1") is True
    assert await core.claim_message("plurk", "m1") is False
    assert await core.claim_message("qq", "m1") is True
    # a claimed message is not run as a command, and a handled one cannot be claimed
    assert await core.handle(Incoming("plurk", "p", "1", ".r 1d6", "a", message_id="m1")) == []
    assert len(await core.handle(Incoming("plurk", "p", "1", ".r 1d6", "a",
                                          message_id="m2"))) == 1
    assert await core.claim_message("plurk", "m2") is False


# ------------------------------------------------------------------ kept private messages
async def test_kept_private_messages_belong_to_the_table(core: Core) -> None:
    await Table(core, "t1").say("k", ".gm")
    await core.private_delivery_failed("console", Outgoing("private", "t1", "s", user="k"))
    async with sessions(core) as session:
        rows = list(await session.scalars(select(PendingPrivate)))
    assert [(r.user, r.text) for r in rows] == [("k", "s")]


# ------------------------------------------------------------------ claims (bot/store/outbox.py)
def test_a_claimant_is_dead_only_when_every_part_of_its_name_says_so() -> None:
    """Dead: this machine and PID namespace, a PID with another start time (here: a
    finished process's). A name that differs in any other part, or cannot be read, is
    alive — never a crash."""
    me = outbox.process_name().split("|")
    if not me[1]:
        pytest.skip("no boot id or PID namespace on this system")
    own_stat = Path("/proc/self/stat").read_text("ascii").rpartition(")")[2].split()
    assert me[3:5] == [str(os.getpid()), own_stat[19]] and len(me) == 6
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()

    def name(*parts: str) -> str:
        return "|".join(parts)
    assert outbox.is_dead(name(*me[:3], done, "12345", "nonce"))
    assert not outbox.is_dead(name(me[0], "another-boot", me[2], done, "12345", "nonce"))
    assert not outbox.is_dead(name(me[0], me[1], "another-namespace", done, "12345", "n"))
    assert not outbox.is_dead(name(*me[:3], done, "12345", "nonce", "more"))
    assert not outbox.is_dead(name(*me[:3], done, "12345"))
    assert not outbox.is_dead(name(*me[:3], "pid?", "12345", "nonce"))
    assert not outbox.is_dead(name(*me[:3], done, "", "nonce"))  # start time unknown
    assert not outbox.is_dead("|".join(me))  # this very process: alive
    assert outbox.is_dead(name(*me[:4], "1", "nonce"))  # its PID, another start: reused


def test_a_start_time_is_read_past_a_process_name_holding_parentheses(
        tmp_path: Path) -> None:
    """`/proc/<pid>/stat` puts the process's name in parentheses, and a name may hold
    ``)``, spaces and bytes of any encoding itself: the fields are counted after the
    last ``)``, and a name's bytes never make the reading fail."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("no /proc on this system")
    odd = tmp_path / "é) 1 2 3 4"  # the name the kernel shows: the file's, cut to 15
    odd.symlink_to(sys.executable)
    child = subprocess.Popen([str(odd), "-c", "import time; time.sleep(30)"])
    try:
        stat = Path(f"/proc/{child.pid}/stat").read_text("ascii", errors="replace")
        assert ") 1 2 3 4)" in stat
        start = stat[stat.rindex(")") + 2:].split()[19]
        assert outbox._started(child.pid) == start
        assert outbox._started(os.getpid()) == Path("/proc/self/stat").read_text(
            "ascii").rpartition(")")[2].split()[19]
    finally:
        child.kill()
        child.wait()


async def _claims_of(core: Core) -> dict[int, str | None]:
    async with sessions(core) as session:
        rows = await session.execute(select(OutboxMessage.id, OutboxMessage.claimed_by))
        return {row.id: row.claimed_by for row in rows}


async def test_a_claim_is_confirmed_on_the_one_row_if_it_is_ours_or_free(core: Core) -> None:
    now = datetime.now(UTC).replace(tzinfo=None)
    leases = {"mine": now + timedelta(minutes=5), "other": now + timedelta(minutes=5),
              "lapsed": now - timedelta(minutes=5)}
    async with sessions(core) as session, session.begin():
        session.add_all(OutboxMessage(
            id=row_id, platform="console", claimed_by=who, lease_until=leases[who],
            message=Outgoing("channel", "table", who).to_record())
            for row_id, who in ((1, "mine"), (2, "mine"), (3, "other"), (4, "lapsed")))

    async def confirm(row_id: int) -> bool:
        return await core.store_sync(lambda c: outbox.confirm(c, "mine", row_id))
    assert [await confirm(row_id) for row_id in (1, 3, 4, 5)] == [True, False, True, False]
    assert await _claims_of(core) == {1: "mine", 2: "mine", 3: "other", 4: "mine"}


async def test_a_claim_that_cannot_be_confirmed_is_not_held(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A store that fails is logged — the confirmation, each renewal, the release —
    and never raised to the adapter."""
    monkeypatch.setattr(outbox, "RENEW_EVERY", 0.01)
    tries: list[int] = []

    async def broken(work: Any) -> Any:
        tries.append(1)
        raise OSError("database gone")
    claims = outbox.Claims("me", broken)
    with caplog.at_level(logging.ERROR, logger="bot.store.outbox"):
        assert await claims.holds(1) is False
        claims.claimed(since=0.0)  # its lease lapsed long ago: renewals only
        for _ in range(100):
            await asyncio.sleep(0.02)
            if len(tries) >= 3:
                break
        await claims.close()
    assert {r.getMessage() for r in caplog.records} == {
        "could not confirm the claim of a stored reply: not sent now",
        "could not renew the claims of stored replies",
        "could not release the claims of stored replies: they are sent again once their "
        "lease is past"}


async def _add_rows(core: Core, *rows: tuple[int, str]) -> None:
    """Rows of the console's outbox: (id, claimant), each lease five minutes ahead."""
    later = datetime.now(UTC).replace(tzinfo=None) + timedelta(minutes=5)
    async with sessions(core) as session, session.begin():
        session.add_all(OutboxMessage(
            id=row_id, platform="console", claimed_by=who, lease_until=later,
            message=Outgoing("channel", "table", who).to_record()) for row_id, who in rows)


async def test_past_its_trust_window_a_core_holds_a_row_only_if_it_claims_it_again(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    """No renewal recent (a new ``Claims``): each hold is a claim in the store — true
    for this core's own row, false (and said in the log) for another process's."""
    await _add_rows(core, (1, "mine"), (2, "other"))
    claims = outbox.Claims("mine", core.store_sync)
    with caplog.at_level(logging.WARNING, logger="bot.store.outbox"):
        assert await claims.holds(1) is True
        assert caplog.records == []
        assert await claims.holds(2) is False
    assert [r.getMessage() for r in caplog.records] == [
        "a stored reply is sent by another process (this one's claim lapsed): not sent here"]
    assert await _claims_of(core) == {1: "mine", 2: "other"}


async def test_closed_claims_free_their_rows_and_trust_no_memory(core: Core) -> None:
    """The release frees this core's rows (the next start sends them at once), and a
    hold after it asks the store again."""
    await _add_rows(core, (1, "mine"), (2, "other"))
    claims = outbox.Claims("mine", core.store_sync)
    claims.claimed()
    await claims.close()
    assert await _claims_of(core) == {1: None, 2: "other"}
    assert await _lease(core, 1) is None
    assert await claims.holds(2) is False
    assert await claims.holds(1) is True
    assert await _claims_of(core) == {1: "mine", 2: "other"}


async def test_claims_keep_being_renewed_while_rows_come_during_a_renewal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A renewal that found no row stops renewing only if no row was claimed
    meanwhile."""
    monkeypatch.setattr(outbox, "RENEW_EVERY", 0.01)
    renewals: list[int] = []

    async def transaction(work: Any) -> int:
        renewals.append(1)
        if len(renewals) == 1:
            claims.claimed()  # a reply stored while the first renewal ran
        return 0  # …but no row held when it looked
    claims = outbox.Claims("me", transaction)
    claims.claimed()
    for _ in range(100):
        await asyncio.sleep(0.02)
        if len(renewals) >= 2:
            break
    await asyncio.sleep(0.05)  # no third: the second found nothing, and nothing came
    assert len(renewals) == 2
    await claims.close()  # its release
    assert len(renewals) == 3


def _statements(core: Core, renewals_only: bool = False) -> list[str]:
    """The statements ``core`` runs from now on (only the renewals of its claims)."""
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not renewals_only or (statement.startswith("UPDATE outbox SET claimed_by")
                                 and statement.endswith("WHERE outbox.claimed_by = ?")):
            seen.append(statement)
    for engine in engines(core):
        event.listen(engine, "before_cursor_execute", count)
    return seen


async def _lease(core: Core, row_id: int | None) -> datetime:
    async with sessions(core) as session:
        return await session.scalar(select(OutboxMessage.lease_until).where(
            OutboxMessage.id == row_id))


async def test_a_reply_this_core_stored_is_held_from_memory_and_its_claim_renewed(
        core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """The core that stored a reply sends it: it answers :meth:`Core.holds` without a
    database round trip while its lease surely runs, renews the lease every
    RENEW_EVERY seconds (a failed renewal is tried again), and stops once it holds
    no row."""
    monkeypatch.setattr(outbox, "RENEW_EVERY", 0.05)
    before = time.monotonic()
    [out] = await core.handle(Incoming("console", "t", "u", ".r 1d6", "u"))
    after = time.monotonic()
    first = core.claims.valid_until
    assert before + outbox.LEASE - outbox.MARGIN <= first <= after + outbox.LEASE - outbox.MARGIN
    seen = _statements(core)
    assert await core.holds(out) is True
    assert seen == []  # from memory

    failed: list[str] = []

    def fail_once(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("UPDATE outbox SET claimed_by") and not failed:
            failed.append(statement)
            raise OSError("disk gone")
    event.listen(core.writer.sync_engine, "before_cursor_execute", fail_once)
    leases = [await _lease(core, out.outbox_id)]
    for _ in range(200):  # a busy machine: up to 10 s
        await asyncio.sleep(0.05)
        lease = await _lease(core, out.outbox_id)
        if lease > leases[-1]:
            leases.append(lease)
        if len(leases) == 3:
            break
    assert len(failed) == 1 and len(leases) == 3  # renewed twice after a failed try
    renewed = core.claims.valid_until
    assert first < renewed <= time.monotonic() + outbox.LEASE - outbox.MARGIN
    assert await core.holds(out) is True

    await core.delivered(out)
    await core.flush_acks()  # the row is gone: the next renewal holds none, and stops
    await asyncio.sleep(0.3)
    renewals = _statements(core, renewals_only=True)
    await asyncio.sleep(0.3)
    assert renewals == []


async def test_claims_are_trusted_until_lease_minus_margin_after_they_began() -> None:
    async def transaction(work: Any) -> int:
        return 0
    claims = outbox.Claims("me", transaction)
    claims.claimed(since=100.0)
    assert claims.valid_until == 100.0 + outbox.LEASE - outbox.MARGIN
    await claims.close()
    before = time.monotonic()
    claims.claimed()
    assert before + outbox.LEASE - outbox.MARGIN <= claims.valid_until \
        <= time.monotonic() + outbox.LEASE - outbox.MARGIN
    await claims.close()


async def test_a_take_claims_every_free_row_of_its_platform_with_a_dead_ones(
        core: Core) -> None:
    """Free: never claimed, a lease past, or a claimant known dead — all three taken in
    one go; a live claimant's row and another platform's free row stay as they are."""
    me = outbox.process_name().split("|")
    if not me[1]:
        pytest.skip("no boot id or PID namespace on this system")
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    dead = "|".join([*me[:3], done, "12345", "nonce"])
    now = datetime.now(UTC).replace(tzinfo=None)
    later, past = now + timedelta(minutes=5), now - timedelta(minutes=5)
    rows = [(1, "console", None, None), (2, "console", "gone", past),
            (3, "console", dead, later), (4, "console", "alive", later),
            (5, "qq", None, None)]
    async with sessions(core) as session, session.begin():
        session.add_all(OutboxMessage(
            id=row_id, platform=platform, claimed_by=who, lease_until=lease,
            message=Outgoing("channel", "table", str(row_id)).to_record())
            for row_id, platform, who, lease in rows)
    assert [o.text for o in await core.undelivered("console")] == ["1", "2", "3"]
    mine = core.claims.claimant
    assert await _claims_of(core) == {1: mine, 2: mine, 3: mine, 4: "alive", 5: None}


async def test_taken_rows_are_trusted_from_when_the_take_began() -> None:
    async def slow_take(work: Any) -> list[tuple[int, dict[str, Any]]]:
        await asyncio.sleep(0.2)
        return [(1, {})]
    claims = outbox.Claims("me", slow_take)
    before = time.monotonic()
    assert await claims.take("console") == [(1, {})]
    began = claims.valid_until - (outbox.LEASE - outbox.MARGIN)
    assert before <= began < before + 0.1
    await claims.close()


def test_a_stored_reply_keeps_every_field_and_gets_its_id() -> None:
    """`Outgoing.stored_as` names each field (faster than `dataclasses.replace`, for
    every reply the writer stores): it must agree with `replace` on every field."""
    out = Outgoing("private", "c", "text", user="u", data={"k": 1}, secret=True,
                   notify=("v",), block=True, attachment=Attachment("a.txt", b"x"),
                   player_private=True, log_summary="summary", leave=True)
    assert out.stored_as(7) == replace(out, outbox_id=7)
    assert {f.name for f in fields(Outgoing)} == {
        "to", "channel", "text", "user", "data", "secret", "notify", "block", "attachment",
        "player_private", "log_summary", "leave", "outbox_id"}


def test_stored_times_are_utc_whatever_the_machines_zone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Leases are compared across processes and machines: a process in another time
    zone (TZ set, as a host may have it) still stores UTC."""
    from bot.store.models import utc_now
    monkeypatch.setenv("TZ", "Asia/Taipei")
    time.tzset()
    try:
        now = datetime.now(UTC).replace(tzinfo=None)
        assert abs((utc_now() - now).total_seconds()) < 60
    finally:
        monkeypatch.undo()
        time.tzset()
