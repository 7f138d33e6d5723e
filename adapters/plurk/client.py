"""Async Plurk API 2.0 client: signed form POSTs over aiohttp.

One method per endpoint the bot uses (docs/plurk.md). Each returns the decoded
JSON and raises :class:`PlurkError` on a refusal or a network failure, so the
caller decides whether to retry (the sender and the comet watcher do).

Nothing here logs parameters or bodies: a private plurk's content is a GM
secret, and the Authorization header is a credential.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

import aiohttp
from yarl import URL

from adapters.plurk.credentials import PlurkCredentials
from adapters.plurk.errors import PlurkError
from adapters.plurk.oauth import ParamValue, encode_form, sign

log = logging.getLogger(__name__)

DEFAULT_USER_AGENT = "trpgbot/0.1 (+plurk adapter)"


def error_text_of(body: str) -> str:
    """Plurk's ``error_text`` from an error body, else a short excerpt of it."""
    try:
        data = json.loads(body)
    except ValueError:
        return body.strip()[:200]
    if isinstance(data, dict) and isinstance(data.get("error_text"), str):
        return data["error_text"]
    return body.strip()[:200]


class PlurkClient:
    """Signed calls to ``<base_url>/APP/...`` plus the unsigned comet poll.

    Use as ``async with PlurkClient(...) as client:`` or call :meth:`close`.
    A session may be injected (tests share one); otherwise one is created with
    the explicit User-Agent Plurk requires (default agents get HTTP 403).
    """

    def __init__(
        self,
        credentials: PlurkCredentials,
        *,
        base_url: str = "https://www.plurk.com",
        user_agent: str = DEFAULT_USER_AGENT,
        timeout: float = 30.0,
        comet_timeout: float = 80.0,
        session: aiohttp.ClientSession | None = None,
    ) -> None:
        self.credentials = credentials
        self.base_url = base_url.rstrip("/")
        self.user_agent = user_agent
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._comet_timeout = aiohttp.ClientTimeout(total=comet_timeout)
        self._session = session
        self._own_session = session is None

    async def __aenter__(self) -> PlurkClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(headers={"User-Agent": self.user_agent})
            self._own_session = True
        return self._session

    async def close(self) -> None:
        if self._own_session and self._session is not None and not self._session.closed:
            await self._session.close()

    # -- transport ---------------------------------------------------------

    async def post_signed(
        self,
        path: str,
        params: Mapping[str, ParamValue] | None = None,
        *,
        token: str | None = None,
        token_secret: str | None = None,
        verifier: str | None = None,
        callback_uri: str | None = None,
    ) -> str:
        """POST a signed form to ``base_url + path``; return the body text.

        The token arguments override the stored access token (the OAuth
        request-token and access-token steps sign with other tokens).
        """
        url = self.base_url + path
        body = encode_form(params)
        headers = sign(
            url,
            body,
            client_key=self.credentials.app_key,
            client_secret=self.credentials.app_secret,
            token=token,
            token_secret=token_secret,
            verifier=verifier,
            callback_uri=callback_uri,
        )
        headers["User-Agent"] = self.user_agent
        try:
            async with self.session.post(
                url, data=body.encode("ascii"), headers=headers, timeout=self._timeout
            ) as resp:
                text = await resp.text()
                status = resp.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("plurk %s: no answer (%s)", path, type(exc).__name__)
            raise PlurkError(0, f"network: {type(exc).__name__}", path) from exc
        if status >= 400:
            error = PlurkError(status, error_text_of(text), path)
            log.info("plurk %s refused: HTTP %s %s", path, status, error.error_text)
            raise error
        return text

    async def upload(self, path: str, field: str, filename: str, data: bytes,
                     content_type: str) -> str:
        """POST one file as ``multipart/form-data`` (signed over the ``oauth_*``
        parameters only, see oauth.py); return the body text."""
        url = self.base_url + path
        headers = sign(url, None, client_key=self.credentials.app_key,
                       client_secret=self.credentials.app_secret,
                       token=self.credentials.token,
                       token_secret=self.credentials.token_secret)
        headers["User-Agent"] = self.user_agent
        form = aiohttp.FormData()
        form.add_field(field, data, filename=filename, content_type=content_type)
        try:
            async with self.session.post(url, data=form, headers=headers,
                                         timeout=self._timeout) as resp:
                text = await resp.text()
                status = resp.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("plurk %s: no answer (%s)", path, type(exc).__name__)
            raise PlurkError(0, f"network: {type(exc).__name__}", path) from exc
        if status >= 400:
            error = PlurkError(status, error_text_of(text), path)
            log.info("plurk %s refused: HTTP %s %s", path, status, error.error_text)
            raise error
        return text

    async def call(self, endpoint: str, params: Mapping[str, ParamValue] | None = None) -> Any:
        """Call ``/APP/<endpoint>`` with the access token; return the JSON."""
        path = "/APP/" + endpoint.lstrip("/")
        text = await self.post_signed(
            path,
            params,
            token=self.credentials.token,
            token_secret=self.credentials.token_secret,
        )
        try:
            return json.loads(text)
        except ValueError as exc:
            raise PlurkError(200, "answer is not JSON", path) from exc

    async def poll_comet(self, comet_url: str, offset: int) -> str:
        """One comet long poll; the channel URL itself is the credential, unsigned."""
        url = URL(comet_url).update_query(offset=str(offset))
        try:
            async with self.session.get(url, timeout=self._comet_timeout) as resp:
                text = await resp.text()
                status = resp.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise PlurkError(0, f"network: {type(exc).__name__}", "comet") from exc
        if status >= 400:
            raise PlurkError(status, error_text_of(text), "comet")
        return text

    # -- endpoints -----------------------------------------------------------

    async def me(self) -> dict[str, Any]:
        """The bot's own user: ``id`` and ``nick_name`` (mentions use ``@nick_name``)."""
        return await self.call("Users/me")

    async def get_user_channel(self) -> dict[str, Any]:
        """``comet_server`` URL and ``channel_name`` of the realtime feed."""
        return await self.call("Realtime/getUserChannel")

    async def alerts_history(self) -> list[dict[str, Any]]:
        """The last 30 alerts (never ``getActive``: reading that one clears them)."""
        data = await self.call("Alerts/getHistory")
        if isinstance(data, dict):  # tolerate a wrapped answer
            data = data.get("alerts", [])
        return [alert for alert in data if isinstance(alert, dict)]

    async def add_all_as_friends(self) -> Any:
        """Accept every pending friend request, so players' plurks reach the feed."""
        return await self.call("Alerts/addAllAsFriends")

    async def get_public_profile(self, user: int | str) -> dict[str, Any]:
        """``{"user_info": {...}}`` of a user given by id or nick name."""
        return await self.call("Profile/getPublicProfile", {"user_id": user})

    async def get_plurk(self, plurk_id: int) -> dict[str, Any]:
        """``{"plurk": {...}, "user": {...}}`` of one plurk (catch-up of plurk mentions)."""
        return await self.call("Timeline/getPlurk", {"plurk_id": plurk_id})

    async def get_responses(self, plurk_id: int, from_response: int = 0) -> dict[str, Any]:
        """``responses`` (oldest first) and ``friends`` of a thread from an offset."""
        return await self.call(
            "Responses/get", {"plurk_id": plurk_id, "from_response": from_response}
        )

    async def response_add(self, plurk_id: int, content: str, qualifier: str = ":") -> Any:
        """Post a response (<= 360 characters) in a thread."""
        return await self.call(
            "Responses/responseAdd",
            {"plurk_id": plurk_id, "content": content, "qualifier": qualifier},
        )

    async def plurk_add(
        self,
        content: str,
        qualifier: str = ":",
        limited_to: Sequence[int] | None = None,
    ) -> dict[str, Any]:
        """Post a plurk; with ``limited_to`` a private plurk to those friends.

        Plurk reads ``limited_to=[0]`` as *all the poster's friends* (and an
        empty list is no restriction at all), so only positive integer ids are
        sent; anything else raises ``ValueError`` before any request.
        """
        params: dict[str, ParamValue] = {"content": content, "qualifier": qualifier}
        if limited_to is not None:
            ids = list(limited_to)
            if not ids or any(
                isinstance(uid, bool) or not isinstance(uid, int) or uid <= 0 for uid in ids
            ):
                raise ValueError("limited_to must list positive user ids")
            params["limited_to"] = json.dumps(ids)
        return await self.call("Timeline/plurkAdd", params)

    async def upload_picture(self, filename: str, data: bytes,
                             content_type: str = "image/png") -> dict[str, Any]:
        """Upload a picture to Plurk (``Timeline/uploadPicture``, the file in the
        ``image`` part); ``{"full": url, "thumbnail": url}``: a post that holds the
        ``full`` URL shows the picture."""
        path = "/APP/Timeline/uploadPicture"
        text = await self.upload(path, "image", filename, data, content_type)
        try:
            answer = json.loads(text)
        except ValueError as exc:
            raise PlurkError(200, "answer is not JSON", path) from exc
        if not isinstance(answer, dict) or not isinstance(answer.get("full"), str):
            raise PlurkError(200, "answer has no picture URL", path)
        return answer
