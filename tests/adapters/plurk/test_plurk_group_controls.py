"""Plurk's side of `.dismiss`: the goodbye is posted in the thread, then the thread is
muted (``Timeline/mutePlurks``) — a real Core's reply, the outbox, the sender and the
signed client against the fake Plurk of the other Plurk tests."""

from __future__ import annotations

import asyncio
import json

from aiohttp import web

from adapters.plurk.client import PlurkClient
from adapters.plurk.outbox import PlurkOutbox
from adapters.plurk.sender import PlurkSender, RetryPolicy
from bot.core import Core
from tests.adapters.plurk.fake_plurk import BOT_ID, CREDENTIALS, FakePlurk
from tests.support import Table

FAREWELL = "再見！我退出了。（再次邀請時，我會保持關閉，直到有人輸入 .bot on。）"


class MutingPlurk(FakePlurk):
    """The fake, with Plurk API 2.0's ``/APP/Timeline/mutePlurks``: ``ids`` a JSON list
    of plurk ids, answered ``{"success_text": "ok"}``."""

    muted: list[int]

    async def _api_Timeline_mutePlurks(self, params: dict[str, str]) -> web.Response:
        self.muted = [*getattr(self, "muted", []), *json.loads(params["ids"])]
        return web.json_response({"success_text": "ok"})


async def test_dismiss_posts_the_goodbye_then_mutes_the_thread(core: Core) -> None:
    async with MutingPlurk() as fake, \
            PlurkClient(CREDENTIALS, base_url=fake.base_url) as client:
        thread = fake.add_plurk(7, "a game")
        table = Table(core, str(thread), platform="plurk")
        await table.say("7", ".gm")
        goodbye = await table.say("7", ".dismiss confirm")
        outbox = PlurkOutbox(core, PlurkSender(client, RetryPolicy(min_post_interval=0),
                                               own_id=BOT_ID))
        for out in goodbye:
            await outbox.put(out)
        await outbox.close(5, asyncio.Event())
        assert fake.posts_in(thread) == [FAREWELL]
        assert fake.calls[-2:] == ["Responses/responseAdd", "Timeline/mutePlurks"]
        assert fake.muted == [thread]
        assert await core.undelivered("plurk") == []  # the goodbye is settled
