"""Discord for tests: real discord.py objects, with a double only where discord.py
would make an HTTP request.

discord.py has two HTTP paths, and both are replaced at their ``request`` method:

- ``HTTPClient.request`` (REST with the bot token: DMs, channel messages,
  command sync) — patched on the client's own instance, which the connection
  state and the command tree share;
- ``AsyncWebhookAdapter.request`` (interaction responses and follow-ups, which
  use the interaction token) — a subclass installed in discord.py's
  ``async_context`` while a command runs.

``DiscordApi`` records every request and answers like Discord. Where each answer
comes from (docs = Discord's developer documentation; "assumed" = chosen, not
documented):

- payloads: Message, Channel (DM = type 1), Interaction Callback Response
  (``interaction`` + ``resource``) and the application command objects, as the
  API reference describes them (docs; only the fields discord.py reads);
- errors are raised as discord.py raises them for Discord's error JSON
  ``{"message": …, "code": …}`` (docs, "JSON Error Codes"): ``403 / 50007
  Cannot send messages to this user`` for a DM to a user whose DMs are closed,
  ``403 / 50013 Missing Permissions`` for a channel the bot may not post in,
  ``404 / 10008 Unknown Message`` for editing or deleting an interaction's
  original response that does not exist (never sent, or already deleted), and
  ``400 / 40060 Interaction has already been acknowledged.`` for a second
  callback to one interaction (docs);
- a deferred callback (type 5) makes the "thinking…" placeholder the original
  response, which the first edit replaces (docs, "Receiving and Responding");
- a message with files is a multipart request: its JSON in the ``payload_json``
  part, each file in a ``files[n]`` part whose ``n`` is the ``id`` of an entry of
  the JSON's ``attachments`` (docs, "Uploading Files"); a file over the upload
  limit (10 MiB without boosts, docs "Uploading Files") is ``413 / 40005 Request
  entity too large``; a channel where the bot lacks Attach Files refuses a file with
  ``403 / 50013 Missing Permissions`` (docs, "Permissions": ATTACH_FILES); the
  message returned lists the files in ``attachments`` (id, filename, size, url);
- any request this double does not know fails the test (assumed: stricter
  than Discord, which would answer 404 / 0).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from adapters.discord.client import TrpgDiscordClient
from adapters.discord.settings import DiscordSettings

APP_ID = 111111111111111111
BOT_ID = 222222222222222222
GUILD_ID = 333333333333333333
CHANNEL_ID = 444444444444444444
EPHEMERAL = 64
TIMESTAMP = "2024-01-01T00:00:00+00:00"


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name,
            "avatar": None, "bot": bot}


def channel_payload(channel_id: int = CHANNEL_ID) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": "table",
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None}


def message_payload(message_id: int, channel_id: int, content: str, author: dict[str, Any],
                    flags: int = 0) -> dict[str, Any]:
    return {"id": str(message_id), "channel_id": str(channel_id), "author": author,
            "content": content, "timestamp": TIMESTAMP, "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [], "embeds": [], "pinned": False, "type": 0, "flags": flags}


@dataclass
class FakeResponse:
    """What ``discord.HTTPException`` reads from an aiohttp response."""

    status: int
    reason: str


@dataclass
class Request:
    """One HTTP request discord.py made."""

    method: str
    path: str
    body: Any
    via: str  # "rest" (bot token) or "webhook" (interaction token)
    refused: bool = False  # Discord answered with an error
    files: list[tuple[str, bytes]] = field(default_factory=list)  # (filename, bytes) uploaded

    @property
    def data(self) -> dict[str, Any]:
        """The message part: an interaction callback nests it under ``data``."""
        if isinstance(self.body, dict) and "type" in self.body and "data" in self.body:
            return self.body["data"] or {}
        return self.body or {}

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & EPHEMERAL)

    @property
    def sends_message(self) -> bool:
        return bool(self.content) or bool(self.files)


@dataclass
class DiscordApi:
    """Records requests; answers them the way Discord's API does."""

    closed_dms: set[int] = field(default_factory=set)
    locked_channels: set[int] = field(default_factory=set)  # the bot may not post there
    no_files_channels: set[int] = field(default_factory=set)  # no Attach Files permission
    requests: list[Request] = field(default_factory=list)
    dm_channels: dict[int, int] = field(default_factory=dict)  # channel id → user id
    acknowledged: set[int] = field(default_factory=set)  # interaction ids answered
    originals: set[str] = field(default_factory=set)  # tokens with an original response
    _ids: Any = field(default_factory=lambda: itertools.count(900000000000000000))

    # --- the two HTTP entry points of discord.py ----------------------------------
    async def rest(self, route: Route, *, files: Any = None, form: Any = None,
                   **kwargs: Any) -> Any:
        if form:
            body, uploads = read_multipart(form)
            return self.answer("rest", route, body, uploads)
        return self.answer("rest", route, kwargs.get("json"))

    def webhook_adapter(self) -> AsyncWebhookAdapter:
        api = self

        class RecordingWebhookAdapter(AsyncWebhookAdapter):
            async def request(self, route: Route, session: Any, *, payload: Any = None,
                              multipart: Any = None, **kwargs: Any) -> Any:
                if multipart:
                    body, uploads = read_multipart(multipart)
                    return api.answer("webhook", route, body, uploads)
                return api.answer("webhook", route, payload)

        return RecordingWebhookAdapter()

    # --- Discord's side ------------------------------------------------------------
    def answer(self, via: str, route: Route, body: Any,
               uploads: list[tuple[str, bytes]] | None = None) -> Any:
        path = route.url.removeprefix(Route.BASE).split("?")[0]
        self.requests.append(Request(route.method, path, body, via, files=list(uploads or [])))
        parts = path.strip("/").split("/")
        bot = user_payload(BOT_ID, "trpgbot", bot=True)
        if uploads:
            self._check_uploads(int(parts[1]) if parts[0] == "channels" else None, uploads)
        match route.method, parts:
            case "POST", ["users", "@me", "channels"]:
                user_id = int(body["recipient_id"])
                channel_id = next(self._ids)
                self.dm_channels[channel_id] = user_id
                return {"id": str(channel_id), "type": 1, "last_message_id": None,
                        "recipients": [user_payload(user_id, f"user{user_id}")]}
            case "POST", ["channels", channel, "messages"]:
                if int(channel) in self.locked_channels:
                    self.requests[-1].refused = True
                    raise discord.Forbidden(FakeResponse(403, "Forbidden"),
                                            {"code": 50013, "message": "Missing Permissions"})
                if self.dm_channels.get(int(channel)) in self.closed_dms:
                    self.requests[-1].refused = True
                    raise discord.Forbidden(FakeResponse(403, "Forbidden"),
                                            {"code": 50007,
                                             "message": "Cannot send messages to this user"})
                return self._with_files(message_payload(next(self._ids), int(channel),
                                                        body.get("content") or "", bot), body)
            case "POST", ["interactions", interaction_id, token, "callback"]:
                if int(interaction_id) in self.acknowledged:
                    self.requests[-1].refused = True
                    raise discord.HTTPException(
                        FakeResponse(400, "Bad Request"),
                        {"code": 40060,
                         "message": "Interaction has already been acknowledged."})
                self.acknowledged.add(int(interaction_id))
                if body["type"] in (4, 5):
                    self.originals.add(token)
                return self._callback(int(interaction_id), body, bot)
            case "POST", ["webhooks", _app, _token]:
                return self._with_files(message_payload(
                    next(self._ids), CHANNEL_ID, body.get("content") or "", bot,
                    body.get("flags", 0)), body)
            case "PATCH", ["webhooks", _app, token, "messages", "@original"]:
                self._original(token)
                return self._with_files(message_payload(
                    next(self._ids), CHANNEL_ID, body.get("content") or "", bot), body)
            case "DELETE", ["webhooks", _app, token, "messages", "@original"]:
                self._original(token)
                self.originals.discard(token)
                return None
            case "PUT", ["applications", _app, "commands"] | \
                    ["applications", _app, "guilds", _, "commands"]:
                guild = parts[3] if len(parts) == 5 else None
                return [{**command, "id": str(next(self._ids)), "application_id": str(APP_ID),
                         "version": "1", "guild_id": guild, "default_member_permissions": None}
                        for command in body]
        raise AssertionError(f"unexpected Discord request {route.method} {path}")

    def _check_uploads(self, channel: int | None, uploads: list[tuple[str, bytes]]) -> None:
        """Discord's refusals of a file: no Attach Files permission, over the limit."""
        if channel is not None and channel in self.no_files_channels:
            self.requests[-1].refused = True
            raise discord.Forbidden(FakeResponse(403, "Forbidden"),
                                    {"code": 50013, "message": "Missing Permissions"})
        if any(len(data) > UPLOAD_LIMIT for _name, data in uploads):
            self.requests[-1].refused = True
            raise discord.HTTPException(FakeResponse(413, "Payload Too Large"),
                                        {"code": 40005, "message": "Request entity too large"})

    def _with_files(self, message: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        """The message Discord returns lists the uploaded files as attachments."""
        request = self.requests[-1]
        message["attachments"] = [
            {"id": str(next(self._ids)), "filename": name, "size": len(data),
             "url": f"https://cdn.discordapp.com/attachments/0/0/{name}",
             "proxy_url": f"https://media.discordapp.net/attachments/0/0/{name}"}
            for name, data in request.files]
        return message

    def _original(self, token: str) -> None:
        """Editing or deleting ``@original`` needs one (Discord: 404 Unknown Message)."""
        if token not in self.originals:
            self.requests[-1].refused = True
            raise discord.NotFound(FakeResponse(404, "Not Found"),
                                   {"code": 10008, "message": "Unknown Message"})

    def _callback(self, interaction_id: int, body: dict[str, Any],
                  bot: dict[str, Any]) -> dict[str, Any]:
        kind = body["type"]
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": kind}
        interaction: dict[str, Any] = {"id": str(interaction_id), "type": 2}
        if kind == 4:  # channel message
            message = self._with_files(message_payload(
                next(self._ids), CHANNEL_ID, data.get("content") or "", bot,
                data.get("flags", 0)), data)
            resource["message"] = message
            interaction.update(response_message_id=message["id"],
                               response_message_ephemeral=bool(message["flags"] & EPHEMERAL))
        elif kind == 5:  # deferred ("thinking…")
            interaction["response_message_loading"] = True
        return {"interaction": interaction, "resource": resource}

    # --- views for assertions --------------------------------------------------------
    def files(self) -> list[tuple[str, bytes]]:
        """Every file Discord accepted, in order."""
        return [upload for r in self.messages() for upload in r.files]

    def messages(self) -> list[Request]:
        """Every message Discord accepted (posted or edited), in order."""
        return [r for r in self.requests
                if r.method in ("POST", "PATCH") and r.sends_message and not r.refused]

    def refused(self) -> list[Request]:
        return [r for r in self.requests if r.refused]

    def public(self) -> list[str]:
        """Texts everyone in the channel can see."""
        return [r.content for r in self.messages()
                if not r.ephemeral and not self.is_dm(r)]

    def ephemeral(self) -> list[str]:
        return [r.content for r in self.messages() if r.ephemeral]

    def is_dm(self, request: Request) -> bool:
        parts = request.path.strip("/").split("/")
        return parts[0] == "channels" and int(parts[1]) in self.dm_channels

    def dms(self) -> list[tuple[int, str]]:
        """(recipient, text) of every DM sent."""
        return [(self.dm_channels[int(r.path.split("/")[2])], r.content)
                for r in self.messages() if self.is_dm(r)]


#: Discord's upload limit for a server without boosts (docs, "Uploading Files")
UPLOAD_LIMIT = 10 * 1024 * 1024


def read_multipart(form: list[dict[str, Any]]) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
    """A multipart message as Discord reads it: the JSON of ``payload_json`` and the
    ``files[n]`` parts, each matched to the ``attachments`` entry with id ``n``."""
    parts = {part["name"]: part for part in form}
    body = json.loads(parts["payload_json"]["value"])
    message = body.get("data", body) if isinstance(body.get("data"), dict) else body
    uploads: list[tuple[str, bytes]] = []
    for entry in message.get("attachments", []):
        part = parts.get(f"files[{entry['id']}]")
        assert part is not None, f"attachment {entry} has no files[{entry['id']}] part"
        value = part["value"]
        data = value.read() if hasattr(value, "read") else bytes(value)
        assert part["filename"] == entry["filename"], (part["filename"], entry)
        uploads.append((part["filename"], data))
    assert len(uploads) == sum(name.startswith("files[") for name in parts), "stray files"
    return body, uploads


# --- how a Discord client shows a message's content ------------------------------------
_ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])")  # Discord: backslash + symbol shows the symbol
_LINE_MARKUP = re.compile(r"^[ \t]*(?:[#>*+-]|\d+\.)", re.MULTILINE)
_LINKS = re.compile(r"(?i)://|discord(?:app)?\.(?:gg|com|io|me|li|new)\b")
_MENTIONS = re.compile(r"@(?:everyone|here)")


def shown(content: str) -> str:
    """The text a Discord client displays for ``content`` without markup: an escaped
    symbol shows as the symbol, a zero-width space as nothing."""
    return _ESCAPED.sub(r"\1", content).replace("\u200b", "")


def markup(content: str) -> list[str]:
    """What in ``content`` Discord would still render as markup (formatting, a
    masked or bare link, an invite, a ``<…>`` mention/timestamp/emoji, an
    @everyone/@here, a heading, quote, list or subtext line); empty when the
    content is shown literally."""
    bare = _ESCAPED.sub("\x00", content)  # an escaped symbol is plain text
    found = [char for char in "\\*_~|`[]<" if char in bare]
    found += _LINE_MARKUP.findall(bare) + _LINKS.findall(bare) + _MENTIONS.findall(bare)
    return found


def make_client(core: Any, api: DiscordApi, *, known: Callable[[str], bool] | None = None,
                sync_record: Path | None = None, **settings: Any) -> TrpgDiscordClient:
    """The real client, logged in as far as tests need: its user, its application id,
    and its HTTP layer answered by ``api`` (every command offered unless ``known`` says;
    no sync record unless given, so every start syncs)."""
    client = TrpgDiscordClient(core, DiscordSettings(**{"enabled": True, **settings}),
                               known=known, sync_record=sync_record)
    state = client._connection
    state.application_id = APP_ID
    state.user = discord.ClientUser(state=state, data=user_payload(BOT_ID, "trpgbot", bot=True))
    client.http.request = api.rest  # type: ignore[method-assign]
    return client


def member_payload(user_id: int, name: str) -> dict[str, Any]:
    return {"user": user_payload(user_id, name), "roles": [], "joined_at": TIMESTAMP,
            "deaf": False, "mute": False, "nick": None, "flags": 0,
            "permissions": "2147483647"}


_interaction_ids = itertools.count(700000000000000000)


def command_payload(name: str, user_id: int, user_name: str, *, kind: int = 2,
                    client_locale: str = "zh-TW", guild: bool = True,
                    **options: Any) -> dict[str, Any]:
    """An INTERACTION_CREATE payload for ``/name option:value …`` (``kind`` 4 =
    autocomplete; an option given as ``("value", "focused")`` is the focused one)."""
    opts = []
    for option, value in options.items():
        focused = isinstance(value, tuple)
        value = value[0] if focused else value
        opt_type = 4 if isinstance(value, int) else 3
        opts.append({"name": option, "type": opt_type, "value": value,
                     **({"focused": True} if focused else {})})
    interaction_id = next(_interaction_ids)
    payload: dict[str, Any] = {
        "id": str(interaction_id), "application_id": str(APP_ID), "type": kind,
        "token": f"fake-interaction-token-{interaction_id}", "version": 1,
        "locale": client_locale,
        "data": {"id": "1", "name": name, "type": 1, "options": opts},
        "app_permissions": "0", "attachment_size_limit": 8388608, "entitlements": [],
        "authorizing_integration_owners": {},
    }
    if guild:
        payload.update(guild_id=str(GUILD_ID), channel_id=str(CHANNEL_ID),
                       channel=channel_payload(), guild_locale="zh-TW",
                       member=member_payload(user_id, user_name), context=0)
    else:
        payload.update(channel_id=str(CHANNEL_ID + 1),
                       channel={"id": str(CHANNEL_ID + 1), "type": 1,
                                "recipients": [user_payload(user_id, user_name)]},
                       user=user_payload(user_id, user_name), context=1)
    return payload


async def with_webhooks(api: DiscordApi, run: Callable[[], Awaitable[Any]]) -> Any:
    """Run ``run`` with interaction webhooks answered by ``api`` (a ContextVar, so it
    is set in the task that runs the command)."""
    token = async_context.set(api.webhook_adapter())
    try:
        return await run()
    finally:
        async_context.reset(token)


async def invoke(client: TrpgDiscordClient, api: DiscordApi,
                 payload: dict[str, Any]) -> discord.Interaction:
    """What discord.py does with an INTERACTION_CREATE: build the Interaction and let
    the command tree parse the options and call the command (or its autocomplete)."""
    interaction = discord.Interaction(data=payload, state=client._connection)
    await with_webhooks(api, lambda: client.tree._call(interaction))
    assert not interaction.command_failed, "the command raised (see the log)"
    return interaction


def guild_message(client: TrpgDiscordClient, user_id: int, user_name: str, content: str,
                  *, bot: bool = False) -> discord.Message:
    """A MESSAGE_CREATE in the table channel as discord.py builds it."""
    state = client._connection
    guild = state._get_guild(GUILD_ID)
    if guild is None:
        guild = discord.Guild(data={"id": str(GUILD_ID), "name": "Table",
                                    "channels": [channel_payload()], "roles": [],
                                    "members": [], "emojis": [], "stickers": [],
                                    "features": [], "member_count": 3}, state=state)
        state._add_guild(guild)
    channel = guild.get_channel(CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    data = message_payload(next(_interaction_ids), CHANNEL_ID, content,
                           user_payload(user_id, user_name, bot=bot))
    data["guild_id"] = str(GUILD_ID)
    data["member"] = {k: v for k, v in member_payload(user_id, user_name).items() if k != "user"}
    return discord.Message(state=state, channel=channel, data=data)


def dm_message(client: TrpgDiscordClient, api: DiscordApi, user_id: int, user_name: str,
               content: str) -> discord.Message:
    """A MESSAGE_CREATE in the user's DM channel with the bot."""
    state = client._connection
    channel_id = CHANNEL_ID + 1 + user_id % 1000
    api.dm_channels[channel_id] = user_id
    channel = state.add_dm_channel({"id": str(channel_id), "type": 1,
                                    "recipients": [user_payload(user_id, user_name)]})
    data = message_payload(next(_interaction_ids), channel.id, content,
                           user_payload(user_id, user_name))
    return discord.Message(state=state, channel=channel, data=data)
