"""Several bot accounts of one platform on one store (issue 25, item 6): a stored
reply remembers the account that received its command, and only that account takes it
from the outbox — on SQLite and on PostgreSQL."""

from __future__ import annotations

from sqlalchemy import select

from adapters.config import Settings
from bot.core import Core
from bot.messages import Incoming
from tests.orm import OutboxMessage, sessions


def said(account: str, group: str, line: str) -> Incoming:
    return Incoming("qq", group, "30001", line, display_name="Alice", account=account)


async def test_a_kept_reply_goes_out_through_the_account_that_received_its_command(
        any_settings: Settings) -> None:
    last_run = await Core.open(any_settings)
    try:
        await last_run.handle(said("111", "20001", ".st 觀察 5"))
        await last_run.handle(said("222", "20002", ".st 觀察 6"))
        await last_run.handle(said("", "20003", ".st 觀察 7"))  # no account: any sends it
        async with sessions(last_run) as session:
            stored = (await session.execute(
                select(OutboxMessage.account).order_by(OutboxMessage.id))).scalars().all()
        assert stored == ["111", "222", None]
    finally:
        await last_run.close()  # stopped before it sent them
    core = await Core.open(any_settings)
    try:
        first = await core.undelivered("qq", "222")  # 222 connected first
        assert [(o.channel, o.text) for o in first] == [
            ("20002", "Alice 的数值已更新：观察:6"), ("20003", "Alice 的数值已更新：观察:7")]
        # 111 is not connected: its reply waits, and the health check counts it
        assert (await core.outbox_depth())[0] == 3
        assert await core.undelivered("qq", "333") == []
        later = await core.undelivered("qq", "111")
        assert [(o.channel, o.text) for o in later] == [("20001", "Alice 的数值已更新：观察:5")]
    finally:
        await core.close()


async def test_every_connected_account_is_the_bot_never_a_player(core: Core) -> None:
    core.set_bot_id("qq", "111")
    core.set_bot_id("qq", "222")
    assert not core.is_user_id("qq", "111")
    assert not core.is_user_id("qq", "222")
    assert core.is_user_id("qq", "30001")


async def test_a_refusal_kept_with_its_message_id_keeps_its_account(core: Core) -> None:
    """A command its handler refused is still recorded (its id) and its refusal kept in
    the outbox: for the account that received it, as any reply."""
    for account, line in (("111", ".pc switch 無名"), ("222", ".pc switch 無名")):
        message = Incoming("qq", "20001", "30001", line, display_name="Alice",
                           account=account, message_id=f"m-{account}")
        assert len(await core.handle(message)) == 1
    async with sessions(core) as session:
        stored = (await session.execute(
            select(OutboxMessage.account).order_by(OutboxMessage.id))).scalars().all()
    assert stored == ["111", "222"]
