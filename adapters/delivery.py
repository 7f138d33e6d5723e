"""What every adapter does with the core's answer, whatever the platform.

The rules that keep secrets secret live here once: a message marked secret
is never posted to a channel, and a private message the platform refuses is
reported to the core (`private_delivery_failed`), whose notice — naming the
recipient, never the content — goes to the channel instead.

Every reply the core returns is already in its outbox (stored with the command's
change); once the platform took it — or refused it for good — it is reported
`delivered`. What a stop or a crash cut off stays there and is sent at the next
start (:meth:`Delivery.deliver` of ``core.undelivered(platform)``). A stored reply is
sent only while ``core.holds`` it — its process's claim on the outbox row still
stands (bot/store/outbox.py) — so that two processes never both send it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from adapters.watch import report_reply
from bot.i18n import Catalog
from bot.messages import Incoming, Outgoing

log = logging.getLogger(__name__)

TAKE_OVER_EVERY = 30.0
"""Seconds between two looks for stored replies no live process sends any more."""


class CoreAPI(Protocol):
    """The part of ``bot.core.Core`` adapters use (see docs/architecture.md)."""

    catalog: Catalog
    """The texts, for what an adapter says itself (a file it did not read)."""

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]: ...

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Outgoing]:
        ...

    async def stat_names(self, platform: str, channel: str, user: str) -> list[str]: ...

    async def verb_command(self, platform: str, channel: str, verb: str) -> str: ...

    async def delivered(self, outgoing: Outgoing) -> None: ...

    async def undelivered(self, platform: str, account: str = "") -> list[Outgoing]: ...

    async def holds(self, outgoing: Outgoing) -> bool: ...

    def set_bot_id(self, platform: str, user: str) -> None: ...

    def cached_locale(self, platform: str, channel: str) -> str: ...


class Delivery:
    """Sends one command's replies in order; platforms implement the two sends."""

    platform: str

    def __init__(self, core: CoreAPI) -> None:
        self.core = core

    async def send_channel(self, out: Outgoing) -> None:
        raise NotImplementedError

    async def send_private(self, out: Outgoing) -> bool:
        """Deliver privately; False when the platform refused (not a friend, DMs closed)."""
        raise NotImplementedError

    async def leave(self, out: Outgoing) -> None:
        """Leave the channel ``out`` was posted to (`.dismiss`: ``Outgoing.leave``); a
        platform that cannot leave keeps this default, which only says so."""
        log.warning("%s: cannot leave channel %s", self.platform, out.channel)

    async def deliver(self, outs: list[Outgoing]) -> None:
        """Every message is attempted: a channel post the platform refuses (missing
        permission, deleted channel) must not cost the GM their private copy."""
        for out in outs:
            if out.outbox_id is not None and not await self.core.holds(out):
                continue  # another process took it over: it sends it
            try:
                await self._deliver(out, report_failure=True)
                if out.leave and out.to == "channel":
                    await self.leave(out)  # the goodbye first, then out of the channel
            except Exception:
                # the platform refused it (no permission, channel gone): retrying at every
                # start would not help; only a stop or a crash leaves it in the outbox
                report_reply(self.platform, sent=False)
                log.exception("%s: could not deliver a %s message", self.platform, out.to)
            await self.core.delivered(out)

    async def _deliver(self, out: Outgoing, *, report_failure: bool) -> None:
        if out.to == "channel":
            if out.secret:
                log.error("refused to post a secret message to channel %s", out.channel)
                report_reply(self.platform, sent=False)
                return
            await self.send_channel(out)
            report_reply(self.platform, sent=True)
            return
        try:
            delivered = await self.send_private(out)
        except Exception:
            log.exception("%s: private message to %s failed", self.platform, out.user)
            delivered = False
        report_reply(self.platform, sent=delivered)
        if delivered:
            return
        if not report_failure:
            log.error("could not deliver a private notice to %s either", out.user)
            return
        for notice in await self.core.private_delivery_failed(self.platform, out):
            await self._deliver(notice, report_failure=False)


async def take_over_forever(core: CoreAPI, platform: str,
                            deliver: Callable[[list[Outgoing]], Awaitable[None]],
                            ready: Callable[[], bool] = lambda: True,
                            every: float = TAKE_OVER_EVERY, account: str = "") -> None:
    """Every ``every`` seconds until cancelled: send the replies of ``platform`` (those
    of the bot ``account``: ``Core.undelivered``) whose process stopped renewing its
    claim (it died while this one runs, or this one started before the dead one's
    lease was past; bot/store/outbox.py). What a stop left is sent at start, by each
    adapter. Nothing is taken while the platform is not ``ready`` (no connection): a
    reply taken is this process's to send."""
    while True:
        await asyncio.sleep(every)
        if not ready():
            continue
        try:
            outs = await core.undelivered(platform, account)
            if outs:
                log.warning("%s: sending %d replies a stopped process left unsent",
                            platform, len(outs))
                await deliver(outs)
        except Exception:
            log.exception("%s: could not send the replies a stopped process left", platform)
