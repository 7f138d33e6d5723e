"""A tiny Discord on loopback (REST + gateway) so ``serve`` can run for real: log in,
sync the commands, connect to the gateway, receive an INTERACTION_CREATE, answer
it over REST, and stop. Tests point discord.py at it by patching ``Route.BASE``
and ``DiscordWebSocket.DEFAULT_GATEWAY``.

Where its behaviour comes from (docs = Discord's developer documentation;
"assumed" = chosen, not documented):

- gateway: ``GET /gateway/bot`` gives the URL, the recommended shard count
  (``shards``, :attr:`FakeDiscord.recommended_shards`) and the session start limit;
  Hello (op 10) with ``heartbeat_interval``, Identify (op 2, with ``shard: [id,
  count]`` when sharded) answered by a READY dispatch carrying that ``shard``,
  Heartbeat (op 1) by Heartbeat ACK (op 11), dispatches as op 0 with ``t`` and a
  rising ``s`` (docs, "Gateway");
- REST: a request without ``Authorization: Bot <token>`` is HTTP 401
  ``{"message": "401: Unauthorized", "code": 0}`` and an unknown route HTTP 404
  ``{"message": "404: Not Found", "code": 0}`` (docs, "HTTP Response Codes" and
  the JSON error shape); interaction callbacks and webhooks carry their token in
  the URL and need no bot token (docs, "Receiving and Responding");
- payloads (User, Application, Channel, Message, the Interaction Callback
  Response) carry the fields discord.py reads (docs); ids are made up (assumed).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from aiohttp import WSMsgType, web

from tests.adapters.discord.doubles import (
    APP_ID,
    BOT_ID,
    GUILD_ID,
    message_payload,
    user_payload,
)

TOKEN = "fake-discord-token"
"""The bot token the fake accepts."""


def _json(data: Any, status: int = 200) -> web.Response:
    """Discord's JSON answer (discord.py wants exactly ``application/json``)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


class FakeDiscord:
    def __init__(self, token: str) -> None:
        self.token = token
        self.requests: list[tuple[str, str, Any]] = []
        self.identified = asyncio.Event()
        self.changed = asyncio.Event()
        self._gateway: web.WebSocketResponse | None = None
        self._shards: dict[int, web.WebSocketResponse] = {}
        self.recommended_shards = 1
        self.identifies: list[list[int] | None] = []
        """The ``shard`` of each Identify, in order (None: not sharded)."""
        self._seq = itertools.count(1)
        self._ids = itertools.count(800000000000000000)
        self._runner: web.AppRunner | None = None
        self.port = 0
        app = web.Application()
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._app = app

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        self._runner = web.AppRunner(self._app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # --- REST ------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body = await request.json() if request.can_read_body else None
        self.requests.append((request.method, path, body))
        self.changed.set()
        if request.headers.get("Authorization") != f"Bot {self.token}" \
                and not path.startswith(("/interactions/", "/webhooks/")):
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        bot = user_payload(BOT_ID, "trpgbot", bot=True)
        parts = path.strip("/").split("/")
        if path == "/gateway/bot":
            return _json({"url": self.gateway, "shards": self.recommended_shards,
                          "session_start_limit": {"total": 1000, "remaining": 1000,
                                                  "reset_after": 0, "max_concurrency": 1}})
        if path == "/users/@me":
            return _json(bot)
        if path == "/oauth2/applications/@me":
            return _json({
                "id": str(APP_ID), "name": "trpgbot", "description": "", "icon": None,
                "bot_public": True, "bot_require_code_grant": False, "owner": bot,
                "verify_key": "0" * 64, "flags": 0, "summary": ""})
        if request.method == "PUT" and parts[-1] == "commands":
            return _json([{**c, "id": str(next(self._ids)),
                                       "application_id": str(APP_ID), "version": "1"}
                                      for c in body])
        if parts[0] == "interactions":
            data = body.get("data") or {}
            message = message_payload(next(self._ids), 1, data.get("content", ""), bot,
                                      data.get("flags", 0))
            return _json({
                "interaction": {"id": parts[1], "type": 2,
                                "response_message_id": message["id"]},
                "resource": {"type": body["type"], "message": message}})
        if request.method == "GET" and parts[0] == "channels" and len(parts) == 2:
            # Get Channel: a guild text channel (type 0) of one guild
            return _json({"id": parts[1], "type": 0, "guild_id": str(GUILD_ID),
                          "name": "table", "position": 0, "permission_overwrites": [],
                          "nsfw": False, "parent_id": None, "topic": None,
                          "last_message_id": None, "rate_limit_per_user": 0})
        if parts[0] in ("webhooks", "channels"):
            return _json(message_payload(next(self._ids), 1,
                                                     body.get("content", ""), bot))
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    # --- gateway ---------------------------------------------------------------------
    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._gateway = ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                break
            payload = json.loads(message.data)
            if payload["op"] == 2:  # IDENTIFY
                shard = payload["d"].get("shard")
                self.identifies.append(shard)
                if shard is not None:
                    self._shards[shard[0]] = ws
                ready = {"v": 10, "user": user_payload(BOT_ID, "trpgbot", bot=True),
                         "guilds": [], "session_id": "fake-session",
                         "resume_gateway_url": self.gateway,
                         "application": {"id": str(APP_ID), "flags": 0}}
                if shard is not None:
                    ready["shard"] = shard
                await self.dispatch("READY", ready, ws)
                self.identified.set()
            elif payload["op"] == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11}))
        return ws

    async def dispatch(self, event: str, data: dict[str, Any],
                       ws: web.WebSocketResponse | None = None) -> None:
        """Send ``event`` on ``ws`` (default: the last gateway connection)."""
        ws = ws or self._gateway
        assert ws is not None
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))

    async def dispatch_to_shard(self, shard: int, event: str, data: dict[str, Any]) -> None:
        """Send ``event`` on the connection of shard ``shard``."""
        await self.dispatch(event, data, self._shards[shard])

    async def wait_for_request(self, method: str, prefix: str,
                               timeout: float = 5.0) -> tuple[str, str, Any]:
        async def found() -> tuple[str, str, Any]:
            while True:
                for request in self.requests:
                    if request[0] == method and request[1].startswith(prefix):
                        return request
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(found(), timeout)
