"""Exact tests written from the surviving mutants of the `adapters` area (the
convert, delivery, emoticon and outbox modules; see docs/testing.md, "Mutation
testing"). Small doubles stand where a platform would be called: each records
what the adapter asked for, so a test states exactly what reached the platform."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from nonebot.adapters.onebot.v11.exception import NetworkError

from adapters.discord import convert as discord_convert
from adapters.discord.delivery import (
    InteractionOrigin,
    MessageOrigin,
    send_dm,
    send_ping,
    send_to_channel,
)
from adapters.onebot.delivery import OneBotDelivery
from adapters.plurk.emoticons import EmoticonResult, EmoticonRolls, parse_content, raw_value
from adapters.plurk.errors import PlurkError
from adapters.plurk.outbox import REFUSED_KEY, PlurkOutbox
from adapters.plurk.sender import Interrupted, Refused
from bot.config.onebot import OneBotSettings
from bot.i18n import Catalog
from bot.messages import Incoming, Outgoing, PlatformDie


def _http_error(status: int = 403, code: int = 50013,
                message: str = "Missing Permissions") -> discord.HTTPException:
    """discord.py's exception for Discord's JSON error answer (docs, "JSON Error Codes")."""
    return discord.HTTPException(SimpleNamespace(status=status, reason="Forbidden"),
                                 {"code": code, "message": message})


# ------------------------------------------------------------------ discord: convert
def test_discord_counts_astral_characters_as_two_units() -> None:
    astral, last_bmp = "\U00010000", "\uffff"  # the first astral code point, the last BMP one
    assert discord_convert.split_message(astral * 3, 4) == [astral * 2, astral]
    assert discord_convert.split_message(last_bmp * 3, 2) == [last_bmp * 2, last_bmp]


def test_discord_never_cuts_an_escape_from_the_character_it_escapes() -> None:
    # "\*" is one escaped asterisk: a cut after its backslash would unescape it
    assert discord_convert.split_message("aa\\*bb", 3) == ["aa", "\\*b", "b"]
    # "\\" is one escaped backslash: cutting after it keeps both halves whole
    assert discord_convert.split_message("a\\\\bb", 3) == ["a\\\\", "bb"]
    assert discord_convert.split_message("a\\\\\\*b", 4) == ["a\\\\", "\\*b"]


def _message(guild: object | None) -> Any:
    author = SimpleNamespace(id=5, display_name="Alice")
    return SimpleNamespace(author=author, channel=SimpleNamespace(id=9), guild=guild, id=77)


def test_discord_messages_become_the_cores_incoming() -> None:
    assert discord_convert.incoming_from_message(_message(None), ".r 1d6") == Incoming(
        "discord", "dm:5", "5", ".r 1d6", "Alice", is_private=True, message_id="77")
    assert discord_convert.incoming_from_message(_message(object()), ".r 1d6") == Incoming(
        "discord", "9", "5", ".r 1d6", "Alice", is_private=False, message_id="77")


def test_discord_slash_commands_become_the_cores_incoming() -> None:
    user = SimpleNamespace(id=5, display_name="Alice")
    dm = SimpleNamespace(user=user, channel_id=9, guild_id=None, id=77)
    assert discord_convert.incoming_from_interaction(dm, ".r 1d6") == Incoming(  # type: ignore[arg-type]
        "discord", "dm:5", "5", ".r 1d6", "Alice", is_private=True,
        message_id="interaction:77")
    server = SimpleNamespace(user=user, channel_id=9, guild_id=1, id=78)
    assert discord_convert.incoming_from_interaction(server, ".r") == Incoming(  # type: ignore[arg-type]
        "discord", "9", "5", ".r", "Alice", is_private=False, message_id="interaction:78")


# ------------------------------------------------------------------ discord: delivery
class _Channel(discord.abc.Messageable):
    """A text channel that records what is sent to it (optionally refusing)."""

    def __init__(self, error: Exception | None = None) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.error = error

    async def _get_channel(self) -> Any:  # pragma: no cover - never reached
        return self

    async def send(self, content: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        if self.error is not None:
            raise self.error
        self.sent.append((content, kwargs))


class _Client:
    """Discord's REST side for one text channel (id 444) and DMs."""

    def __init__(self, channel: Any, cached: bool = True,
                 dm_error: Exception | None = None) -> None:
        self.channel, self.cached, self.dm_error = channel, cached, dm_error
        self.fetched: list[int] = []
        self.dms: dict[int, _Channel] = {}

    def get_channel(self, channel_id: int) -> Any:
        assert isinstance(channel_id, int)
        return self.channel if self.cached and channel_id == 444 else None

    async def fetch_channel(self, channel_id: int) -> Any:
        self.fetched.append(channel_id)
        if channel_id != 444:
            raise _http_error(404, 10003, "Unknown Channel")
        return self.channel

    async def create_dm(self, user: discord.abc.Snowflake) -> _Channel:
        return self.dms.setdefault(user.id, _Channel(self.dm_error))


async def test_a_turn_ping_mentions_exactly_the_players_it_names() -> None:
    channel = _Channel()
    await send_ping(_Client(channel, cached=False), "444", ("11", "not-an-id", "22"))
    [(content, kwargs)] = channel.sent
    assert content == "<@11> <@22>"
    # what Discord receives: no @everyone/@here, no role, no reply ping; these users only
    assert kwargs["allowed_mentions"].to_dict() == {"parse": [], "users": [11, 22]}


async def test_a_turn_ping_needs_players_and_a_channel_id() -> None:
    channel = _Channel()
    client = _Client(channel, cached=False)
    await send_ping(client, "444", ("not-an-id",))
    await send_ping(client, "dm:11", ("11",))
    assert channel.sent == [] and client.fetched == []
    await send_ping(client, "444", ("11",))
    assert client.fetched == [444]


async def test_a_refused_turn_ping_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="adapters.discord.delivery"):
        await send_ping(_Client(_Channel(_http_error())), "444", ("11",))
    assert [r.getMessage() for r in caplog.records] == [
        "turn ping in channel 444 failed: 403 Forbidden (error code: 50013): "
        "Missing Permissions"]


async def test_a_dm_to_something_that_is_no_user_id_is_refused(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="adapters.discord.delivery"):
        assert await send_dm(_Client(_Channel()), "dm:5", "hello") is False  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == ["not a Discord user id: 'dm:5'"]


async def test_a_dm_is_sent_without_mentions_and_a_refusal_is_reported(
        caplog: pytest.LogCaptureFixture) -> None:
    client = _Client(_Channel())
    assert await send_dm(client, "5", "@everyone *hi*") is True  # type: ignore[arg-type]
    assert [(c, k["allowed_mentions"]) for c, k in client.dms[5].sent] == [
        ("@\u200beveryone \\*hi\\*", discord_convert.NO_MENTIONS)]
    closed = _Client(_Channel(), dm_error=_http_error(403, 50007,
                                                     "Cannot send messages to this user"))
    with caplog.at_level(logging.INFO, logger="adapters.discord.delivery"):
        assert await send_dm(closed, "5", "hi") is False  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == ["DM to 5 refused: 403 50007"]


async def test_a_message_for_another_channel_goes_there_or_by_dm(
        caplog: pytest.LogCaptureFixture) -> None:
    channel = _Channel()
    client = _Client(channel)
    await send_to_channel(client, "444", "*a*")  # type: ignore[arg-type]
    await send_to_channel(client, "444", "*a*", True)  # type: ignore[arg-type]
    await send_to_channel(client, "dm:5", "*b*")  # type: ignore[arg-type]
    assert [c for c, _k in channel.sent] == ["\\*a\\*", "```\n*a*\n```"]
    assert all(k["allowed_mentions"] is discord_convert.NO_MENTIONS for _c, k in channel.sent)
    assert [c for c, _k in client.dms[5].sent] == ["\\*b\\*"]
    with caplog.at_level(logging.INFO, logger="adapters.discord.delivery"):
        await send_to_channel(client, "general", "x")  # type: ignore[arg-type]
        await send_to_channel(_Client(object()), "444", "x")  # type: ignore[arg-type]
        await send_to_channel(_Client(_Channel(_http_error())), "444", "x")  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == [
        "not a Discord channel id: 'general'",
        "channel 444 cannot receive messages",
        "post to channel 444 failed: 403 Forbidden (error code: 50013): Missing Permissions"]
    assert len(channel.sent) == 2


class _Response:
    def __init__(self, error: Exception | None = None) -> None:
        self.error = error
        self.deferred: list[dict[str, Any]] = []
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return bool(self.deferred or self.sent)

    async def defer(self, **kwargs: Any) -> None:
        self.deferred.append(kwargs)

    async def send_message(self, content: Any = None, **kwargs: Any) -> None:
        if self.error is not None:
            raise self.error
        self.sent.append((content, kwargs))


class _Followup:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def send(self, content: Any = None, **kwargs: Any) -> None:
        self.sent.append((content, kwargs))


def _interaction(error: Exception | None = None) -> Any:
    calls: list[tuple[str, dict[str, Any]]] = []

    async def edit_original_response(**kwargs: Any) -> None:
        calls.append(("edit", kwargs))

    async def delete_original_response() -> None:
        calls.append(("delete", {}))

    return SimpleNamespace(response=_Response(error), followup=_Followup(), calls=calls,
                           edit_original_response=edit_original_response,
                           delete_original_response=delete_original_response)


async def test_a_deferred_slash_command_shows_discords_thinking_placeholder() -> None:
    interaction = _interaction()
    await InteractionOrigin(interaction).defer()
    assert interaction.response.deferred == [{"thinking": True}]


async def test_a_slash_commands_channel_reply_is_public_and_laid_out_as_asked() -> None:
    interaction = _interaction()
    origin = InteractionOrigin(interaction)
    await origin.to_channel("*a*")
    await origin.to_channel("*a*", True)
    assert interaction.response.sent == [
        ("\\*a\\*", {"ephemeral": False, "allowed_mentions": discord_convert.NO_MENTIONS})]
    assert interaction.followup.sent == [
        ("```\n*a*\n```", {"ephemeral": False,
                            "allowed_mentions": discord_convert.NO_MENTIONS})]


async def test_no_answer_to_a_slash_command_can_ping_anyone() -> None:
    none = discord_convert.NO_MENTIONS
    answered = _interaction()
    origin = InteractionOrigin(answered)
    await origin.to_channel("@everyone")
    await origin.to_invoker("@here")
    assert answered.response.sent == [
        ("@\u200beveryone", {"ephemeral": False, "allowed_mentions": none})]
    assert answered.followup.sent == [
        ("@\u200bhere", {"ephemeral": True, "allowed_mentions": none})]
    # deferred: the placeholder is edited (public), or deleted for a private answer
    public, private = _interaction(), _interaction()
    for interaction, send in ((public, "to_channel"), (private, "to_invoker")):
        origin = InteractionOrigin(interaction)
        await origin.defer()
        await getattr(origin, send)("@everyone")
        await getattr(origin, send)("again")
    assert public.calls == [("edit", {"content": "@\u200beveryone", "allowed_mentions": none})]
    assert public.followup.sent == [("again", {"ephemeral": False, "allowed_mentions": none})]
    assert private.calls == [("delete", {})]
    assert private.followup.sent == [
        ("@\u200beveryone", {"ephemeral": True, "allowed_mentions": none}),
        ("again", {"ephemeral": True, "allowed_mentions": none})]


async def test_a_refused_ephemeral_reply_is_reported_and_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    error = _http_error(400, 40060, "Interaction has already been acknowledged.")
    origin = InteractionOrigin(_interaction(error))
    with caplog.at_level(logging.WARNING, logger="adapters.discord.delivery"):
        assert await origin.to_invoker("secret") is False
    assert [r.getMessage() for r in caplog.records] == [
        "ephemeral reply failed: 400 Forbidden (error code: 40060): "
        "Interaction has already been acknowledged."]


async def test_a_prefix_command_is_answered_by_one_reply_then_plain_messages() -> None:
    channel = _Channel()
    message = SimpleNamespace(channel=channel, to_reference=lambda **kw: ("reference", kw))
    origin = MessageOrigin(None, message)  # type: ignore[arg-type]
    await origin.to_channel("a" * 1999 + "\n" + "b" * 10)  # two pieces
    await origin.to_channel("later")
    assert [(content, kwargs["reference"]) for content, kwargs in channel.sent] == [
        ("a" * 1999, ("reference", {"fail_if_not_exists": False})),
        ("b" * 10, None), ("later", None)]
    assert all(kwargs["allowed_mentions"] is discord_convert.NO_MENTIONS
               for _content, kwargs in channel.sent)


# ------------------------------------------------------------------ onebot: delivery
async def test_a_private_message_to_no_qq_number_is_refused(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []

    async def call_api(api: str, **data: Any) -> None:
        calls.append((api, data))

    delivery = OneBotDelivery(SimpleNamespace(call_api=call_api),  # type: ignore[arg-type]
                              None, OneBotSettings(), None)  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR, logger="adapters.onebot.delivery"):
        assert await delivery.send_private(Outgoing("private", "123", "x", user="abc")) is False
        assert await delivery.send_private(Outgoing("private", "123", "x")) is False
    assert calls == []
    assert [r.getMessage() for r in caplog.records] == [
        "not a QQ number: 'abc'", "not a QQ number: None"]


async def test_each_refused_private_attempt_is_logged_then_reported(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[dict[str, Any]] = []

    async def call_api(api: str, **data: Any) -> None:
        calls.append(data)
        raise NetworkError("timed out")

    delivery = OneBotDelivery(SimpleNamespace(call_api=call_api),  # type: ignore[arg-type]
                              None, OneBotSettings(temp_session=True), None)  # type: ignore[arg-type]
    with caplog.at_level(logging.INFO, logger="adapters.onebot.delivery"):
        assert await delivery.send_private(
            Outgoing("private", "123", "x", user="10001")) is False
    assert [call.get("group_id") for call in calls] == [None, 123]
    assert [r.getMessage() for r in caplog.records] == [
        "send_private_msg to 10001 (friend) failed: NetWorkError(message='timed out')",
        "send_private_msg to 10001 ({'group_id': 123}) failed: "
        "NetWorkError(message='timed out')"]


# ------------------------------------------------------------------ plurk: emoticons
def test_an_empty_rndnum_falls_back_to_the_older_rnd_attribute() -> None:
    assert raw_value({"rndnum": " ", "rnd": " 5 "}) == "5"
    assert raw_value({"rndnum": "", "rnd": None}) is None
    html = '<img class="emoticon" alt="(dice6)" rndnum=" " rnd="5">'
    assert parse_content(html).dice == (PlatformDie(6, 5, "(dice6)"),)


def test_runs_and_other_random_emoticons_keep_their_token() -> None:
    assert parse_content("") == EmoticonRolls()
    assert parse_content(None) == EmoticonRolls()  # type: ignore[arg-type]
    # a run's first image may only name it; each following image is one digit
    digits = ('<img class="emoticon" alt="(digit)">'
              '<img class="emoticon" alt="" rndnum="4"><img class="emoticon" alt="" rndnum="2">')
    assert parse_content(digits).others == (EmoticonResult("digits", "(digit)", "42"),)
    coin = '<img class="emoticon" alt="(coin)" rndnum="1">'
    assert parse_content(coin) == EmoticonRolls(
        others=(EmoticonResult("coin", "(coin)", "1"),), text="(coin)")


# ------------------------------------------------------------------ plurk: outbox
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

    async def undelivered(platform: str) -> list[Outgoing]:
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
