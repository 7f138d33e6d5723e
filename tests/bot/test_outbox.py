"""The transactional outbox (issue 8, item 9): a reply is stored with its command's
change and leaves the store only once an adapter says it was delivered."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from alembic import command
from sqlalchemy import text

from bot.config import Settings
from bot.core import ACK_DELAY, Core
from bot.messages import Incoming, Outgoing
from bot.store import db
from tests.conftest import make_settings
from tests.support import stored_replies


def said(user: str, line: str, message_id: str | None = None) -> Incoming:
    return Incoming("console", "table", user, line, display_name=user, message_id=message_id)


async def test_item9_replies_stay_in_the_outbox_until_delivered(settings: Settings) -> None:
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


async def test_item9_a_kept_private_message_leaves_the_outbox(settings: Settings) -> None:
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


async def test_item9_parked_replies_of_an_older_schema_become_outbox_rows(
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
