"""The transactional outbox (issue 8, item 9): a reply is stored with its command's
change and leaves the store only once an adapter says it was delivered."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import event, func, select, text

from adapters.config import Settings
from bot.core import ACK_DELAY, Core
from bot.messages import Attachment, Incoming, Outgoing
from bot.store import db
from bot.store.models import OutboxMessage, PendingPrivate
from tests.conftest import make_settings
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


async def _outbox_rows(core: Core) -> int:
    async with core.sessions() as session:
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
    async with core.sessions() as session:
        rows = list(await session.scalars(select(PendingPrivate)))
    assert [(r.user, r.text) for r in rows] == [("k", "s")]


def test_a_stored_reply_keeps_every_field_and_gets_its_id() -> None:
    """`Outgoing.stored_as` names each field (faster than `dataclasses.replace`, for
    every reply the writer stores): it must agree with `replace` on every field."""
    out = Outgoing("private", "c", "text", user="u", data={"k": 1}, secret=True,
                   notify=("v",), block=True, attachment=Attachment("a.txt", b"x"),
                   player_private=True, log_summary="summary")
    assert out.stored_as(7) == replace(out, outbox_id=7)
    assert {f.name for f in fields(Outgoing)} == {
        "to", "channel", "text", "user", "data", "secret", "notify", "block", "attachment",
        "player_private", "log_summary", "outbox_id"}
