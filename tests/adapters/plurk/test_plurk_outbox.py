"""adapters/plurk/outbox.py between a small double of the core and one of Plurk's
sender, each recording what it was asked: refused replies and their notices, a start
with replies left from the last run, stopping with and without grace (first written
from the surviving mutants of the `adapters` area; see docs/testing.md, "Mutation
testing")."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from adapters.plurk.errors import PlurkError
from adapters.plurk.outbox import REFUSED_KEY, PlurkOutbox
from adapters.plurk.sender import Interrupted, Refused
from bot.i18n import Catalog
from bot.messages import Outgoing


class _Core:
    """The part of the core the outbox uses, answering as the core does."""

    def __init__(self, notices: list[Outgoing] | None = None, locale: str = "en") -> None:
        self.catalog = Catalog(None)
        self.locale = locale
        self.notices = notices or []
        self.delivered_ids: list[int | None] = []
        self.failed: list[Outgoing] = []
        self.locales_asked: list[tuple[str, str]] = []

    def cached_locale(self, platform: str, channel: str) -> str:
        self.locales_asked.append((platform, channel))
        return self.locale

    async def delivered(self, out: Outgoing) -> None:
        self.delivered_ids.append(out.outbox_id)

    async def holds(self, out: Outgoing) -> bool:
        return True  # this process's claim stands (bot/store/outbox.py)

    async def private_delivery_failed(self, platform: str, out: Outgoing) -> list[Outgoing]:
        self.failed.append(out)
        return self.notices


class _Sender:
    """Plurk's side: records each post; refuses (or fails) as told."""

    def __init__(self, refuse: int = 0, private_error: Exception | None = None) -> None:
        self.refuse = refuse  # how many replies in a row are refused
        self.private_error = private_error
        self.replies: list[tuple[int, str]] = []

    async def reply(self, thread: int, text: str, *rest: Any) -> None:
        if self.refuse:
            self.refuse -= 1
            raise Refused("responseAdd: HTTP 400: anti-flood-spam-domain")
        self.replies.append((thread, text))

    async def private(self, user: int, text: str, *rest: Any) -> None:
        if self.private_error is not None:
            raise self.private_error


async def test_a_refused_reply_leaves_a_notice_in_the_threads_language() -> None:
    core, sender = _Core(locale="en"), _Sender(refuse=1)
    await PlurkOutbox(core, sender).deliver(
        Outgoing("channel", "42", "a reply", outbox_id=7), 42)  # type: ignore[arg-type]
    assert sender.replies == [(42, core.catalog.text("en", REFUSED_KEY))]
    assert sender.replies[0][1] == "(Plurk refused one of the bot's replies; it was not posted.)"
    assert ("plurk", "42") in core.locales_asked
    assert core.delivered_ids == [7]


async def test_a_refused_notice_is_only_logged(caplog: pytest.LogCaptureFixture) -> None:
    core, sender = _Core(), _Sender(refuse=2)
    with caplog.at_level(logging.ERROR, logger="adapters.plurk.outbox"):
        await PlurkOutbox(core, sender).deliver(
            Outgoing("channel", "42", "a reply", outbox_id=7), 42)  # type: ignore[arg-type]
    assert sender.replies == []
    assert [r.getMessage() for r in caplog.records] == [
        "plurk: a reply to thread 42 was dropped: responseAdd: HTTP 400: "
        "anti-flood-spam-domain",
        "plurk: a notice to thread 42 was dropped too: responseAdd: HTTP 400: "
        "anti-flood-spam-domain"]


async def test_only_a_public_notice_of_an_undeliverable_secret_reaches_the_thread() -> None:
    notices = [
        Outgoing("channel", "42", "kept for .gm pending"),
        Outgoing("channel", "42", "the secret itself", secret=True),
        Outgoing("private", "42", "a private copy", user="9"),
    ]
    core = _Core(notices)
    sender = _Sender(private_error=PlurkError(400, "Must be friends"))
    secret = Outgoing("private", "42", "the secret itself", user="9", secret=True)
    await PlurkOutbox(core, sender).deliver(secret, 42)  # type: ignore[arg-type]
    assert core.failed == [secret]
    assert sender.replies == [(42, "kept for .gm pending")]


async def test_a_fatal_plurk_error_stops_the_outbox_and_is_reported() -> None:
    fatal = PlurkError(400, "40104:incorrect signature")
    assert fatal.is_fatal
    reported: list[PlurkError] = []
    core = _Core()
    outbox = PlurkOutbox(core, _Sender(private_error=fatal),  # type: ignore[arg-type]
                         on_fatal=reported.append)
    await outbox.put(Outgoing("private", "42", "secret", user="9", outbox_id=1))
    await outbox.put(Outgoing("private", "42", "another", user="9", outbox_id=2))
    await outbox.close(5, asyncio.Event())
    assert reported == [fatal] and outbox.fatal is fatal
    assert core.delivered_ids == []  # both stay in the store for the next start


class _SlowSender(_Sender):
    """Each post takes ``delay`` seconds unless the outbox is cut short (``abort``):
    then it is interrupted — except the first, already on its way."""

    def __init__(self, abort: asyncio.Event, delay: float, first_completes: bool) -> None:
        super().__init__()
        self.abort, self.delay, self.first_completes = abort, delay, first_completes
        self.attempts: list[str] = []

    async def reply(self, thread: int, text: str, *rest: Any) -> None:
        self.attempts.append(text)
        if self.first_completes and len(self.attempts) == 1:
            await asyncio.sleep(self.delay)
        else:
            try:
                await asyncio.wait_for(self.abort.wait(), self.delay)
            except TimeoutError:
                pass
            else:
                raise Interrupted("stopping")
        self.replies.append((thread, text))


async def test_the_replies_left_from_the_last_run_are_sent_at_start(
        caplog: pytest.LogCaptureFixture) -> None:
    left = [Outgoing("channel", "42", "one", outbox_id=1),
            Outgoing("channel", "43", "two", outbox_id=2)]
    core, sender = _Core(), _Sender()

    async def undelivered(platform: str, account: str = "") -> list[Outgoing]:
        return left if platform == "plurk" else []

    core.undelivered = undelivered  # type: ignore[attr-defined]
    outbox = PlurkOutbox(core, sender)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="adapters.plurk.outbox"):
        await outbox.start()
        await outbox.close(5, asyncio.Event())
    assert sorted(sender.replies) == [(42, "one"), (43, "two")]
    assert sorted(core.delivered_ids) == [1, 2]  # type: ignore[type-var]
    assert outbox.busy_threads == 0
    assert [r.getMessage() for r in caplog.records] == [
        "plurk: sending 2 replies left from the last run"]


async def test_a_stop_without_grace_posts_nothing_more_and_keeps_the_rest(
        caplog: pytest.LogCaptureFixture) -> None:
    abort = asyncio.Event()
    core, sender = _Core(), _SlowSender(abort, 0.2, first_completes=False)
    outbox = PlurkOutbox(core, sender)  # type: ignore[arg-type]
    for n in range(3):
        await outbox.put(Outgoing("channel", "42", f"reply {n}", outbox_id=n))
    with caplog.at_level(logging.WARNING, logger="adapters.plurk.outbox"):
        await outbox.close(0, abort)
    assert abort.is_set()
    assert sender.replies == [] and core.delivered_ids == []
    assert outbox.busy_threads == 1  # its queue is kept (the store sends it next time)
    assert [r.getMessage() for r in caplog.records] == [
        "plurk: 3 replies not sent yet; they are sent at the next start"]


async def test_a_reply_that_lands_while_stopping_is_the_last_one_posted() -> None:
    abort = asyncio.Event()
    core, sender = _Core(), _SlowSender(abort, 0.05, first_completes=True)
    outbox = PlurkOutbox(core, sender)  # type: ignore[arg-type]
    for n in range(3):
        await outbox.put(Outgoing("channel", "42", f"reply {n}", outbox_id=n))
    await outbox.close(0, abort)
    assert sender.attempts == ["reply 0"]  # the worker stops after the one in flight
    assert sender.replies == [(42, "reply 0")] and core.delivered_ids == [0]


async def test_a_reply_without_a_thread_or_one_plurk_refuses_is_dropped_and_settled(
        caplog: pytest.LogCaptureFixture) -> None:
    core = _Core()

    class _Unfriendly(_Sender):
        async def reply(self, thread: int, text: str, *rest: Any) -> None:
            raise PlurkError(400, "Must be friends", "Responses/responseAdd")

    outbox = PlurkOutbox(core, _Unfriendly())  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR, logger="adapters.plurk.outbox"):
        await outbox.put(Outgoing("channel", "not-a-thread", "x", outbox_id=5))
        await outbox.put(Outgoing("channel", "42", "y", outbox_id=6))
        await outbox.close(5, asyncio.Event())
    assert core.delivered_ids == [5, 6]
    assert [r.getMessage() for r in caplog.records] == [
        "plurk: a channel message names no plurk thread; dropped",
        "plurk: a channel message to thread 42 was dropped: "
        "Responses/responseAdd: HTTP 400: Must be friends"]


async def test_a_failure_to_settle_a_reply_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    class _Forgetful(_Core):
        async def delivered(self, out: Outgoing) -> None:
            raise OSError("database is locked")

    sender = _Sender()
    with caplog.at_level(logging.ERROR, logger="adapters.plurk.outbox"):
        await PlurkOutbox(_Forgetful(), sender).deliver(  # type: ignore[arg-type]
            Outgoing("channel", "42", "posted", outbox_id=1), 42)
    assert sender.replies == [(42, "posted")]
    assert [r.getMessage() for r in caplog.records] == [
        "plurk: could not mark a reply as delivered"]


async def test_a_secret_for_the_thread_is_never_posted(caplog: pytest.LogCaptureFixture) -> None:
    core, sender = _Core(), _Sender()
    with caplog.at_level(logging.ERROR, logger="adapters.plurk.outbox"):
        await PlurkOutbox(core, sender).deliver(  # type: ignore[arg-type]
            Outgoing("channel", "42", "the GM's secret", secret=True, outbox_id=3), 42)
    assert sender.replies == [] and core.delivered_ids == [3]
    assert [r.getMessage() for r in caplog.records] == [
        "plurk: refused to post a secret message to thread 42"]


async def test_an_unexpected_failure_costs_one_reply_not_the_thread(
        caplog: pytest.LogCaptureFixture) -> None:
    class _Buggy(_Sender):
        async def reply(self, thread: int, text: str, *rest: Any) -> None:
            if text == "boom":
                raise RuntimeError("a bug")
            await super().reply(thread, text)

    core, sender = _Core(), _Buggy()
    outbox = PlurkOutbox(core, sender)  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR, logger="adapters.plurk.outbox"):
        await outbox.put(Outgoing("channel", "42", "boom", outbox_id=1))
        await outbox.put(Outgoing("channel", "42", "next", outbox_id=2))
        await outbox.close(5, asyncio.Event())
    assert sender.replies == [(42, "next")]
    assert core.delivered_ids == [2]  # the failed one stays in the store
    assert [r.getMessage() for r in caplog.records] == [
        "plurk: delivery failed unexpectedly in thread 42"]
