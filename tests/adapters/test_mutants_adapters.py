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

from adapters.discord import convert as discord_convert
from adapters.discord.delivery import (
    InteractionOrigin,
    MessageOrigin,
    send_dm,
    send_ping,
    send_to_channel,
)
from adapters.plurk.emoticons import parse_content, raw_value
from adapters.plurk.errors import PlurkError
from adapters.plurk.outbox import REFUSED_KEY, PlurkOutbox
from adapters.plurk.sender import Refused
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
    return SimpleNamespace(response=_Response(error), followup=_Followup())


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


# ------------------------------------------------------------------ plurk: emoticons
def test_an_empty_rndnum_falls_back_to_the_older_rnd_attribute() -> None:
    assert raw_value({"rndnum": " ", "rnd": " 5 "}) == "5"
    assert raw_value({"rndnum": "", "rnd": None}) is None
    html = '<img class="emoticon" alt="(dice6)" rndnum=" " rnd="5">'
    assert parse_content(html).dice == (PlatformDie(6, 5, "(dice6)"),)


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
