"""A fake Plurk for tests: aiohttp.web on 127.0.0.1, a random port.

It plays the parts of Plurk the adapter uses and is strict where Plurk is
strict, so tests prove more than "the client sends something". Where each
behaviour comes from (PLURK.md = ../shared/PLURK.md; "assumed" = not
documented anywhere, chosen to be at least as strict as Plurk could be):

- OAuth 1.0a HMAC-SHA1 in the Authorization header, verified by oauthlib's own
  ``SignatureOnlyEndpoint``; a wrong key, secret or token is HTTP **400**
  ``{"error_text": "40104:incorrect signature"}`` (PLURK.md, from the
  plurk-oauth issues #8 and #12). The other ``401NN`` codes are unconfirmed, so
  every OAuth refusal (replayed nonce, unknown token) uses that one text
  (assumed). A wrong verifier at ``/OAuth/access_token`` is 401 (assumed).
- no explicit User-Agent (aiohttp's default) → HTTP 403 "error code: 1010"
  (PLURK.md).
- ``Timeline/plurkAdd`` ``limited_to``: a JSON list of user ids; ``[0]`` means
  all the poster's friends and is accepted as such, an empty list as a public
  plurk (PLURK.md: the danger the adapter must avoid); any other listed id
  that is not a friend → "Must be friends" (PLURK.md).
- posts over 360 characters → "Content too long" (PLURK.md).
- a post whose text equals the bot's previous post → ``anti-flood-same-content``
  (PLURK.md: "the same text was just posted"; "just" = the previous post is
  assumed); a link to a domain in ``blocked_domains`` →
  ``anti-flood-spam-domain`` (PLURK.md); ``anti-flood-too-many-new`` is only
  scripted (``fail_next``; its threshold is not documented).
- posted text is rendered the way Plurk renders markup (PLURK.md / the brief:
  bare ``http(s)://`` and ``www.`` links, ``url (text)`` links, ``**bold**``,
  ``*italic*``, ``__underline__``, ``@nick`` mentions; the exact patterns are
  assumed) into ``content``, so a test can check what readers would see.
- each ``getUserChannel`` opens a new comet channel whose ``comet_server`` URL
  already carries ``&offset=N`` (PLURK.md), with N not 0 (assumed, so that a
  client resetting it to 0 is caught); a poll with an offset the channel never
  gave is answered ``new_offset: -3`` (PLURK.md: -3 = the offset is lost). A
  new channel only carries events from then on, so mentions posted while the
  bot was away are only found by the catch-up over ``Alerts/getHistory``
  (assumed; PLURK.md recommends that catch-up).
- ``Alerts/getHistory`` returns the last 30 alerts, newest first (PLURK.md).
- ``comet_outage()``: the feed is down (every poll HTTP 503) and events of that time
  are on no channel, even one subscribed during the outage (assumed: the strictest
  case); ``Responses/get`` pages with ``from_response`` as an offset, ``responses_page``
  responses a page (PLURK.md: an offset; the page size is assumed).
- ``Timeline/uploadPicture`` is ``multipart/form-data`` with the picture in the
  ``image`` part, signed over the ``oauth_*`` parameters only (PLURK.md: "only
  ``oauth_*`` params are signed"), and answers ``{"full": URL, "thumbnail": URL}``
  (public clients: plurk-oauth's README uploads ``files={'image': …}``, plurdart's
  ``UploadPicture`` reads ``full`` and ``thumbnail``). The fake serves the
  picture back at ``full`` (GET) so a test can compare the bytes. A request without
  an ``image`` file, or one that is not a PNG/JPEG/GIF picture, is HTTP 400
  ``{"error_text": "Invalid file"}``, and one over ``picture_limit`` bytes (10 MiB,
  assumed) ``"File too big"`` (both texts assumed). Plurk shows a picture whose
  ``full`` URL a post holds; the fake renders it as a link (assumed: the exact HTML
  of an embedded picture is not documented).

The comet poll is unsigned (the channel URL is the credential), as on Plurk.
All keys are obviously fake.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import json
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from oauthlib.oauth1 import RequestValidator, SignatureOnlyEndpoint

from adapters.plurk.credentials import PlurkCredentials

APP_KEY = "fake-app-key"
APP_SECRET = "fake-app-secret"
ACCESS_TOKEN = "fake-access-token"
ACCESS_SECRET = "fake-access-secret"

CREDENTIALS = PlurkCredentials(
    app_key=APP_KEY, app_secret=APP_SECRET, token=ACCESS_TOKEN, token_secret=ACCESS_SECRET
)

BOT_ID = 5000
BOT_NICK = "dicebot"

PICTURE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")
PICTURE_LIMIT = 10 * 1024 * 1024

_RANDOM_TOKEN = re.compile(r"\((?:dice\d*|lots|bobei|coin|rock-paper-scissors)\)")

BAD_SIGNATURE = "40104:incorrect signature"
COMET_OFFSET_BASE = 100  # a new channel's first offset (not 0; see the note above)

# Plurk's markup, as the fake renders it (applied to HTML-escaped text)
_URL = r"(?:https?://|www\.)[^\s<>()]+"
_LINK_WITH_TEXT = re.compile(rf"({_URL}) \(([^()]+)\)")
_BARE_LINK = re.compile(rf"(?<![\w\"=>/]){_URL}")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"\*([^*\s](?:[^*]*?[^*\s])?)\*")
_UNDERLINE = re.compile(r"__(.+?)__")
_MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9_]{1,60})")
MARKUP_TAGS = ("<a ", "<b>", "<i>", "<u>")


def links_in(text: str) -> list[str]:
    """The URLs Plurk would turn into links in ``text``."""
    return re.findall(_URL, text)


def render_markup(escaped: str, users: dict[int, dict[str, Any]] | None = None) -> str:
    """Plurk's own markup on already HTML-escaped text (patterns assumed, see above)."""
    nicks = {u["nick_name"].lower() for u in (users or {}).values()}

    def link(match: re.Match[str]) -> str:
        url = match.group(1) if match.lastindex else match.group(0)
        label = match.group(2) if match.lastindex == 2 else url
        return f'<a href="{url}" class="ex_link" rel="nofollow">{label}</a>'

    text = _LINK_WITH_TEXT.sub(link, escaped)
    text = _BARE_LINK.sub(link, text)
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\1</i>", text)
    text = _UNDERLINE.sub(r"<u>\1</u>", text)
    return _MENTION.sub(
        lambda m: (
            f'<a href="https://www.plurk.com/{m.group(1)}" class="ex_link meta">'
            f"@{m.group(1)}</a>"
            if m.group(1).lower() in nicks
            else m.group(0)
        ),
        text,
    )


class _Validator(RequestValidator):
    """Looks keys up in the fake's tables; accepts the fake keys' format."""

    def __init__(self, fake: FakePlurk) -> None:
        super().__init__()
        self.fake = fake
        self._nonces: set[tuple[str, str, str, str | None]] = set()

    @property
    def enforce_ssl(self) -> bool:  # the fake speaks plain HTTP on 127.0.0.1
        return False

    @property
    def dummy_client(self) -> str:
        return "dummy-client"

    @property
    def dummy_access_token(self) -> str:
        return "dummy-token"

    def check_client_key(self, client_key: str) -> bool:
        return bool(re.fullmatch(r"[A-Za-z0-9_-]{4,64}", client_key))

    def check_nonce(self, nonce: str) -> bool:
        return bool(re.fullmatch(r"[A-Za-z0-9]{8,64}", nonce))

    def validate_client_key(self, client_key: str, request: Any) -> bool:
        return client_key == self.fake.app_key

    def get_client_secret(self, client_key: str, request: Any) -> str:
        return self.fake.app_secret if client_key == self.fake.app_key else "dummy-secret"

    def get_access_token_secret(self, client_key: str, token: str, request: Any) -> str:
        return self.fake.token_secrets.get(token, "dummy-secret")

    def validate_timestamp_and_nonce(
        self,
        client_key: str,
        timestamp: str,
        nonce: str,
        request: Any,
        request_token: str | None = None,
        access_token: str | None = None,
    ) -> bool:
        key = (client_key, timestamp, nonce, request_token or access_token)
        if key in self._nonces:
            return False
        self._nonces.add(key)
        return True


@dataclass
class Post:
    """A post the bot made through the fake."""

    endpoint: str  # "responseAdd" or "plurkAdd"
    plurk_id: int
    content: str
    qualifier: str
    limited_to: list[int] | None = None
    response_id: int | None = None
    rendered: str = ""  # the content HTML Plurk would show


@dataclass
class _Channel:
    name: str
    events: list[dict[str, Any]] = field(default_factory=list)
    base: int = COMET_OFFSET_BASE  # offset of events[0]


def render(
    raw: str,
    rolls: list[str | int] | None = None,
    *,
    attr: str = "rndnum",
    users: dict[int, dict[str, Any]] | None = None,
    images: list[str] | None = None,
) -> str:
    """Render raw text the way Plurk's ``content`` looks, for fixtures.

    HTML is escaped, Plurk's markup is applied (:func:`render_markup`; mentions
    only of ``users``), newlines become ``<br />`` and each random emoticon
    token becomes an ``<img class="emoticon">`` carrying the next value of
    ``rolls`` (a token with no value left is rendered without the attribute) and, if
    ``images`` are given, the next image file as its ``src`` on Plurk's static host
    (each face of a die is its own file there: PLURK.md, "Second evidence").
    """
    values = list(rolls or [])
    files = list(images or [])
    out: list[str] = []
    pos = 0
    for match in _RANDOM_TOKEN.finditer(raw):
        out.append(render_markup(html.escape(raw[pos : match.start()]), users))
        token = match.group(0)
        extra = f' {attr}="{values.pop(0)}"' if values else ""
        src = f"https://s.plurk.com/{files.pop(0)}" if files \
            else f"https://s.plurk.com/emoticons/{token[1:-1]}.gif"
        out.append(
            f'<img src="{src}" class="emoticon" '
            f'alt="{token}"{extra} height="24" />'
        )
        pos = match.end()
    out.append(render_markup(html.escape(raw[pos:]), users))
    return "".join(out).replace("\n", "<br />")


class FakePlurk:
    """The fake server and its scriptable state. Use ``async with FakePlurk() as fake``."""

    def __init__(
        self,
        *,
        app_key: str = APP_KEY,
        app_secret: str = APP_SECRET,
        bot_id: int = BOT_ID,
        bot_nick: str = BOT_NICK,
        comet_hold: float = 0.05,
        responses_page: int = 50,
    ) -> None:
        self.app_key = app_key
        self.app_secret = app_secret
        self.token_secrets: dict[str, str] = {ACCESS_TOKEN: ACCESS_SECRET}
        self.access_tokens: set[str] = {ACCESS_TOKEN}
        self.verifiers: dict[str, str] = {}  # request token -> verifier shown to the user
        self.bot_id = bot_id
        self.bot_nick = bot_nick
        self.comet_hold = comet_hold
        self.responses_page = responses_page

        self.users: dict[int, dict[str, Any]] = {}
        self.plurks: dict[int, dict[str, Any]] = {}
        self.responses: dict[int, list[dict[str, Any]]] = {}
        self.alerts: list[dict[str, Any]] = []  # oldest first; getHistory returns last 30
        self.friends: set[int] = set()
        self.friend_requests: set[int] = set()
        self.posts: list[Post] = []
        self.calls: list[str] = []  # every endpoint called, in order
        self.rejected: list[str] = []  # paths whose signature failed
        self.channel_requests = 0
        self.comet_polls = 0
        self.comet_offsets: list[int] = []  # the offset of every comet poll, in order
        self.comet_script: deque[dict[str, Any] | int] = deque()
        self.comet_default: dict[str, Any] | None = None  # answer every poll with this
        self.comet_down = False  # an outage: polls fail and no event is kept (comet_outage)
        self.blocked_domains: set[str] = set()
        self.refuse_same_content = True
        self.errors: dict[str, deque[tuple[int, str]]] = {}
        self.pictures: dict[str, bytes] = {}  # picture name -> bytes uploaded
        self.picture_limit = PICTURE_LIMIT

        self._ids = itertools.count(1000)
        self._channel = _Channel("generic-0")
        self._changed = asyncio.Condition()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.endpoint = SignatureOnlyEndpoint(_Validator(self))
        self.add_user(bot_id, bot_nick, "Dice Bot")

    # -- lifecycle ---------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def __aenter__(self) -> FakePlurk:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(middlewares=[self._user_agent_middleware],
                              client_max_size=2 * PICTURE_LIMIT)
        app.router.add_post("/APP/Timeline/uploadPicture", self._upload_picture)
        app.router.add_get("/pictures/{name}", self._picture)
        app.router.add_post("/APP/{endpoint:.+}", self._app)
        app.router.add_post("/OAuth/request_token", self._request_token)
        app.router.add_post("/OAuth/access_token", self._access_token)
        app.router.add_get("/comet", self._comet)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        self._closing = True
        async with self._changed:  # release held comet polls at once
            self._changed.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- scripting -----------------------------------------------------------------

    def add_user(self, user_id: int, nick: str, display_name: str = "") -> dict[str, Any]:
        user = {"id": user_id, "nick_name": nick, "display_name": display_name or nick}
        self.users[user_id] = user
        return user

    def fail_next(self, endpoint: str, status: int, error_text: str, times: int = 1) -> None:
        """Answer the next ``times`` calls of ``endpoint`` (e.g. "Responses/responseAdd")."""
        queue = self.errors.setdefault(endpoint, deque())
        queue.extend([(status, error_text)] * times)

    def script_comet(self, *answers: dict[str, Any] | int) -> None:
        """Queue comet answers: a payload dict (e.g. ``{"new_offset": -3}``) or an HTTP status."""
        self.comet_script.extend(answers)

    def comet_outage(self, down: bool = True) -> None:
        """Take the realtime feed down (every poll HTTP 503; what happens meanwhile is on
        no channel, as for a client that was not connected) or bring it back."""
        self.comet_down = down
        self._notify()  # release a held poll

    def add_plurk(
        self,
        owner_id: int,
        raw: str,
        content: str | None = None,
        *,
        live: bool = True,
        limited_to: list[int] | None = None,
    ) -> int:
        """A plurk by ``owner_id``; ``live`` puts a ``new_plurk`` on the comet channel."""
        plurk_id = next(self._ids)
        plurk = {
            "plurk_id": plurk_id,
            "owner_id": owner_id,
            "user_id": owner_id,
            "qualifier": ":",
            "content_raw": raw,
            "content": content if content is not None else render(raw),
            "posted": "Sat, 01 Jan 2033 00:00:00 GMT",
            "limited_to": limited_to,
            "response_count": 0,
        }
        self.plurks[plurk_id] = plurk
        self.responses[plurk_id] = []
        if self._mentions_bot(raw):
            self._alert(plurk_id, None, owner_id)
        if live:
            self._emit({"type": "new_plurk", **plurk})
        return plurk_id

    def add_response(
        self,
        plurk_id: int,
        user_id: int,
        raw: str,
        content: str | None = None,
        *,
        live: bool = True,
        handle: str | None = None,
    ) -> int:
        """A response in a thread; ``live`` puts a ``new_response`` on the comet channel."""
        response = self._store_response(plurk_id, user_id, raw, content, handle=handle)
        if self._mentions_bot(raw):
            self._alert(plurk_id, response["id"], user_id)
        if live:
            user = self.users.get(user_id, {"id": user_id, "nick_name": f"user{user_id}"})
            self._emit(
                {
                    "type": "new_response",
                    "plurk_id": plurk_id,
                    "response_count": len(self.responses[plurk_id]),
                    "response": response,
                    "plurk": self.plurks[plurk_id],
                    "user": {str(user_id): user},
                }
            )
        return response["id"]

    def posts_in(self, plurk_id: int) -> list[str]:
        """Contents of the responses the bot posted in a thread, in order."""
        return [p.content for p in self.posts if p.plurk_id == plurk_id]

    def rendered_in(self, plurk_id: int) -> list[str]:
        """What readers see of the bot's posts in a thread (markup rendered)."""
        return [p.rendered for p in self.posts if p.plurk_id == plurk_id]

    def private_posts(self) -> list[Post]:
        return [p for p in self.posts if p.endpoint == "plurkAdd"]

    async def wait_for_posts(self, count: int, timeout: float = 5.0) -> list[Post]:
        """Wait until the bot has made at least ``count`` posts."""
        async with asyncio.timeout(timeout):
            async with self._changed:
                await self._changed.wait_for(lambda: len(self.posts) >= count)
        return list(self.posts)

    async def wait_for_calls(self, endpoint: str, count: int = 1, timeout: float = 5.0) -> None:
        async with asyncio.timeout(timeout):
            async with self._changed:
                await self._changed.wait_for(lambda: self.calls.count(endpoint) >= count)

    # -- internals -------------------------------------------------------------------

    def _mentions_bot(self, raw: str) -> bool:
        return re.search(rf"@{re.escape(self.bot_nick)}\b", raw, re.IGNORECASE) is not None

    def _alert(self, plurk_id: int, response_id: int | None, user_id: int) -> None:
        self.alerts.append(
            {
                "type": "mentioned",
                "plurk_id": plurk_id,
                "response_id": response_id,
                "num_others": 0,
                "from_user": self.users.get(user_id, {"id": user_id}),
                "posted": "Sat, 01 Jan 2033 00:00:00 GMT",
            }
        )

    def _store_response(
        self,
        plurk_id: int,
        user_id: int,
        raw: str,
        content: str | None,
        *,
        handle: str | None = None,
        qualifier: str = ":",
    ) -> dict[str, Any]:
        response: dict[str, Any] = {
            "id": next(self._ids),
            "plurk_id": plurk_id,
            "user_id": user_id,
            "qualifier": qualifier,
            "content_raw": raw,
            "content": content if content is not None else render(raw),
            "posted": "Sat, 01 Jan 2033 00:00:00 GMT",
            "lang": "tr_ch",
        }
        if handle is not None:
            response["handle"] = handle
        self.responses[plurk_id].append(response)
        self.plurks[plurk_id]["response_count"] = len(self.responses[plurk_id])
        return response

    def _emit(self, event: dict[str, Any]) -> None:
        if not self.comet_down:
            self._channel.events.append(event)
        self._notify()

    def _notify(self) -> None:
        async def wake() -> None:
            async with self._changed:
                self._changed.notify_all()

        try:
            task = asyncio.get_running_loop().create_task(wake())
        except RuntimeError:  # scripted before the loop runs: pollers time out anyway
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _verify(self, request: web.Request, body: str | None, *,
                need_access_token: bool) -> Any:
        """The oauthlib request when the signature is valid, else None (and recorded)."""
        valid, oauth_request = self.endpoint.validate_request(
            str(request.url), http_method=request.method, body=body, headers=dict(request.headers)
        )
        if valid and need_access_token:
            valid = oauth_request.resource_owner_key in self.access_tokens
        if not valid:
            self.rejected.append(request.path)
            return None
        return oauth_request

    @web.middleware
    async def _user_agent_middleware(
        self, request: web.Request, handler: Any
    ) -> web.StreamResponse:
        agent = request.headers.get("User-Agent", "")
        if not agent or agent.startswith("Python/"):
            return web.Response(status=403, text="error code: 1010")
        return await handler(request)

    @staticmethod
    def _error(status: int, text: str) -> web.Response:
        return web.json_response({"error_text": text}, status=status)

    # -- OAuth endpoints ---------------------------------------------------------------

    async def _request_token(self, request: web.Request) -> web.Response:
        body = await request.text()
        if self._verify(request, body, need_access_token=False) is None:
            return self._error(400, BAD_SIGNATURE)
        number = next(self._ids)
        token, secret = f"fake-request-{number}", f"fake-request-secret-{number}"
        self.token_secrets[token] = secret
        self.verifiers[token] = f"{number % 1000000:06d}"
        return web.Response(
            text=f"oauth_token={token}&oauth_token_secret={secret}&oauth_callback_confirmed=true"
        )

    async def _access_token(self, request: web.Request) -> web.Response:
        body = await request.text()
        oauth_request = self._verify(request, body, need_access_token=False)
        if oauth_request is None:
            return self._error(400, BAD_SIGNATURE)
        token = oauth_request.resource_owner_key or ""
        if token not in self.verifiers or self.verifiers[token] != oauth_request.verifier:
            return self._error(401, "invalid verifier")
        del self.verifiers[token]
        number = next(self._ids)
        access, secret = f"fake-access-{number}", f"fake-access-secret-{number}"
        self.token_secrets[access] = secret
        self.access_tokens.add(access)
        return web.Response(text=f"oauth_token={access}&oauth_token_secret={secret}")

    # -- API endpoints ----------------------------------------------------------------

    async def _app(self, request: web.Request) -> web.Response:
        endpoint = request.match_info["endpoint"]
        body = await request.text()
        if self._verify(request, body, need_access_token=True) is None:
            return self._error(400, BAD_SIGNATURE)
        params = {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
        self.calls.append(endpoint)
        self._notify()
        scripted = self.errors.get(endpoint)
        if scripted:
            status, text = scripted.popleft()
            return self._error(status, text)
        refusal = self._content_refusal(endpoint, params)
        if refusal is not None:
            return self._error(400, refusal)
        handler = getattr(self, "_api_" + endpoint.replace("/", "_"), None)
        if handler is None:
            return self._error(404, f"no such endpoint in the fake: {endpoint}")
        return await handler(params)

    def _content_refusal(self, endpoint: str, params: dict[str, str]) -> str | None:
        """Plurk's content checks on a new post, before it is stored."""
        if endpoint not in ("Responses/responseAdd", "Timeline/plurkAdd"):
            return None
        content = params.get("content", "")
        for url in links_in(content):
            host = re.sub(r"^(?:https?://)?(?:www\.)?", "", url).split("/")[0].lower()
            if any(host == d or host.endswith("." + d) for d in self.blocked_domains):
                return "anti-flood-spam-domain"
        if self.refuse_same_content and self.posts and self.posts[-1].content == content:
            return "anti-flood-same-content"
        return None

    async def _upload_picture(self, request: web.Request) -> web.Response:
        """Multipart: only the ``oauth_*`` parameters are signed, so the body is not
        part of the signature (verified with ``body=None``)."""
        if self._verify(request, None, need_access_token=True) is None:
            return self._error(400, BAD_SIGNATURE)
        endpoint = "Timeline/uploadPicture"
        self.calls.append(endpoint)
        self._notify()
        scripted = self.errors.get(endpoint)
        if scripted:
            status, text = scripted.popleft()
            return self._error(status, text)
        if not request.content_type.startswith("multipart/form-data"):
            return self._error(400, "Invalid file")
        form = await request.post()
        image = form.get("image")
        if not isinstance(image, web.FileField):
            return self._error(400, "Invalid file")
        data = image.file.read()
        if len(data) > self.picture_limit:
            return self._error(400, "File too big")
        if not data.startswith(PICTURE_SIGNATURES):
            return self._error(400, "Invalid file")
        name = f"{next(self._ids)}.png"
        self.pictures[name] = data
        return web.json_response({"full": f"{self.base_url}/pictures/{name}",
                                  "thumbnail": f"{self.base_url}/pictures/mx_{name}"})

    async def _picture(self, request: web.Request) -> web.Response:
        data = self.pictures.get(request.match_info["name"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, content_type="image/png")

    def picture_urls(self) -> list[str]:
        """The ``full`` URLs of every picture uploaded, in order."""
        return [f"{self.base_url}/pictures/{name}" for name in self.pictures]

    async def _api_Users_me(self, params: dict[str, str]) -> web.Response:
        return web.json_response(self.users[self.bot_id])

    async def _api_Realtime_getUserChannel(self, params: dict[str, str]) -> web.Response:
        self.channel_requests += 1
        self._channel = _Channel(f"generic-{self.channel_requests}-fakechannel")
        return web.json_response(
            {
                "channel_name": self._channel.name,
                "comet_server": (
                    f"{self.base_url}/comet?channel={self._channel.name}"
                    f"&offset={self._channel.base}"
                ),
            }
        )

    async def _api_Alerts_getHistory(self, params: dict[str, str]) -> web.Response:
        return web.json_response(list(reversed(self.alerts[-30:])))

    async def _api_Alerts_addAllAsFriends(self, params: dict[str, str]) -> web.Response:
        self.friends |= self.friend_requests
        self.friend_requests.clear()
        return web.json_response({"success_text": "ok"})

    async def _api_Profile_getPublicProfile(self, params: dict[str, str]) -> web.Response:
        wanted = params.get("user_id", "")
        for user in self.users.values():
            if str(user["id"]) == wanted or user["nick_name"].lower() == wanted.lower():
                return web.json_response({"user_info": user, "privacy": "world"})
        return self._error(400, "User not found")

    async def _api_Timeline_getPlurk(self, params: dict[str, str]) -> web.Response:
        plurk = self.plurks.get(int(params.get("plurk_id", 0)))
        if plurk is None:
            return self._error(400, "Plurk not found")
        owner = self.users.get(plurk["owner_id"], {"id": plurk["owner_id"]})
        return web.json_response({"plurk": plurk, "user": owner})

    async def _api_Responses_get(self, params: dict[str, str]) -> web.Response:
        plurk_id = int(params.get("plurk_id", 0))
        if plurk_id not in self.plurks:
            return self._error(400, "Plurk not found")
        start = int(params.get("from_response", 0))
        page = self.responses[plurk_id][start : start + self.responses_page]
        user_ids = {r["user_id"] for r in page} | {self.plurks[plurk_id]["owner_id"]}
        friends = {str(uid): self.users[uid] for uid in user_ids if uid in self.users}
        return web.json_response(
            {"responses": page, "friends": friends, "responses_seen": len(page)}
        )

    async def _api_Responses_responseAdd(self, params: dict[str, str]) -> web.Response:
        plurk_id = int(params.get("plurk_id", 0))
        content = params.get("content", "")
        if plurk_id not in self.plurks:
            return self._error(400, "Plurk not found")
        if not content.strip():
            return self._error(400, "Content is empty")
        if len(content) > 360:
            return self._error(400, "Content too long")
        response = self._store_response(
            plurk_id,
            self.bot_id,
            content,
            render(content, users=self.users),
            qualifier=params.get("qualifier", ":"),
        )
        self.posts.append(
            Post(
                "responseAdd",
                plurk_id,
                content,
                params.get("qualifier", ""),
                None,
                response["id"],
                response["content"],
            )
        )
        self._notify()
        return web.json_response(response)

    async def _api_Timeline_plurkAdd(self, params: dict[str, str]) -> web.Response:
        content = params.get("content", "")
        if len(content) > 360:
            return self._error(400, "Content too long")
        limited = json.loads(params["limited_to"]) if "limited_to" in params else None
        # [0] = all the bot's friends, [] = public: accepted, as Plurk does
        if limited and any(uid not in self.friends for uid in limited if uid != 0):
            return self._error(400, "Must be friends")
        rendered = render(content, users=self.users)
        plurk_id = self.add_plurk(
            self.bot_id, content, rendered, live=False, limited_to=limited or None
        )
        self.posts.append(
            Post("plurkAdd", plurk_id, content, params.get("qualifier", ""), limited,
                 None, rendered)
        )
        self._notify()
        return web.json_response(self.plurks[plurk_id])

    # -- comet ------------------------------------------------------------------------

    async def _comet(self, request: web.Request) -> web.Response:
        self.comet_polls += 1
        channel = request.query.get("channel", "")
        offsets = request.query.getall("offset", ["0"])
        offset = int(offsets[-1])
        self.comet_offsets.append(offset)
        if len(offsets) != 1:  # the URL's offset must be replaced, not repeated
            return web.Response(status=400, text="offset given twice")
        if self.comet_down:
            return web.Response(status=503, text="comet down")
        if self.comet_script:
            answer = self.comet_script.popleft()
            if isinstance(answer, int):
                return web.Response(status=answer, text="comet trouble")
            return self._callback(answer)
        if self.comet_default is not None:
            return self._callback(self.comet_default)
        if channel != self._channel.name:
            return self._callback({"new_offset": -3})
        base = self._channel.base
        events = self._channel.events
        if not base <= offset <= base + len(events):  # an offset this channel never gave
            return self._callback({"new_offset": -3})
        offset -= base
        if offset >= len(events):
            try:
                async with asyncio.timeout(self.comet_hold):
                    async with self._changed:
                        await self._changed.wait_for(
                            lambda: (
                                len(self._channel.events) > offset
                                or bool(self.comet_script)
                                or self.comet_down
                                or self._closing
                            )
                        )
            except TimeoutError:
                return self._callback({"new_offset": -1})
            if self.comet_down:
                return web.Response(status=503, text="comet down")
            if self.comet_script or self._closing or channel != self._channel.name:
                return self._callback({"new_offset": -1})
        return self._callback({"new_offset": base + len(events), "data": events[offset:]})

    @staticmethod
    def _callback(payload: dict[str, Any]) -> web.Response:
        return web.Response(
            text=f"CometChannel.scriptCallback({json.dumps(payload)});",
            content_type="text/javascript",
        )
