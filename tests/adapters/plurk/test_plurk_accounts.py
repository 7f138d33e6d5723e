"""One Plurk account per process (issue 25, item 6): two processes with different
Plurk accounts on one store never send each other's replies — a reply kept from
before a restart is posted only by the account that received its command."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import select

from adapters.config import Settings
from bot.core import Core
from bot.messages import Incoming
from tests.adapters.plurk.fake_plurk import BOT_ID, FakePlurk
from tests.adapters.plurk.test_plurk_listener import ALICE, Bot, plurk_settings
from tests.orm import OutboxMessage, sessions


async def test_a_kept_reply_of_another_plurk_account_is_not_posted(
        fake: FakePlurk, tmp_path: Path) -> None:
    fake.add_user(ALICE, "alice", "Alice")
    mine, theirs = fake.add_plurk(ALICE, "mine"), fake.add_plurk(ALICE, "theirs")
    settings = Settings(_env_file=None, data_dir=tmp_path, plurk=plurk_settings(fake))
    last_run = await Core.open(settings)
    try:  # the other account's process stored a reply and stopped before sending it
        for account, thread in ((str(BOT_ID), mine), ("777", theirs)):
            await last_run.handle(Incoming("plurk", str(thread), str(ALICE), ".gm",
                                           display_name="Alice", account=account))
    finally:
        await last_run.close()
    bot = await Bot(fake, settings).start()
    try:
        await fake.wait_for_posts(1)
        await bot.settle()
        assert len(fake.posts_in(mine)) == 1 and "Alice" in fake.posts_in(mine)[0]
        assert fake.posts_in(theirs) == []
        assert bot.core is not None
        for _ in range(100):  # the posted one's deletion is grouped (ACK_DELAY)
            if (await bot.core.outbox_depth())[0] == 1:
                break
            await asyncio.sleep(0.05)
        assert (await bot.core.outbox_depth())[0] == 1  # the other account's waits
    finally:
        await bot.close()


async def test_a_reply_is_stored_under_the_account_that_received_the_command(
        fake: FakePlurk, tmp_path: Path) -> None:
    fake.add_user(ALICE, "alice", "Alice")
    settings = Settings(_env_file=None, data_dir=tmp_path,
                        plurk=plurk_settings(fake, anti_flood_base_delay=60,
                                             anti_flood_max_delay=60, shutdown_grace=0.1))
    bot = await Bot(fake, settings).start()
    try:
        pid = fake.add_plurk(ALICE, "thread")
        fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new")
        fake.add_response(pid, ALICE, "@dicebot .gm")
        await fake.wait_for_calls("Responses/responseAdd")  # waiting: still stored
        assert bot.core is not None
        async with sessions(bot.core) as session:
            accounts = (await session.execute(select(OutboxMessage.account))).scalars().all()
        assert accounts == [str(BOT_ID)]
    finally:
        await bot.close()
