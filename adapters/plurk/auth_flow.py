"""``trpgbot plurk-auth``: get a permanent access token for the bot's account.

OAuth 1.0a three-legged flow: request token -> the operator opens the
authorize URL logged in as the bot account and copies the verifier -> access
token. The result is printed as the ``TRPGBOT_PLURK__...`` settings to store
(the operator's own terminal is the one place secrets are shown; nothing is
logged). The alternative is Plurk's OAuth test console, which makes a
permanent token directly (docs/plurk.md).
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

from adapters.plurk.client import DEFAULT_USER_AGENT, PlurkClient
from adapters.plurk.credentials import PlurkCredentials, load_credentials
from adapters.plurk.errors import PlurkConfigError, PlurkError
from adapters.plurk.settings import PlurkSettings

REQUEST_TOKEN_PATH = "/OAuth/request_token"
AUTHORIZE_PATH = "/OAuth/authorize"
ACCESS_TOKEN_PATH = "/OAuth/access_token"

LineReader = Callable[[str], str | Awaitable[str]]
LineWriter = Callable[[str], None]


@dataclass(frozen=True)
class TokenPair:
    """An OAuth token and its secret (the secret stays out of reprs)."""

    token: str
    secret: str = field(repr=False)


def parse_token_answer(body: str) -> TokenPair:
    """Read ``oauth_token=...&oauth_token_secret=...`` from a token endpoint."""
    values = dict(parse_qsl(body.strip(), keep_blank_values=True))
    token = values.get("oauth_token")
    secret = values.get("oauth_token_secret")
    if not token or not secret:
        raise PlurkError(200, "token answer without oauth_token/oauth_token_secret", "OAuth")
    return TokenPair(token, secret)


def authorize_url(base_url: str, request_token: str) -> str:
    """The page where the bot account grants access and Plurk shows the verifier."""
    return f"{base_url.rstrip('/')}{AUTHORIZE_PATH}?{urlencode({'oauth_token': request_token})}"


async def get_request_token(client: PlurkClient) -> TokenPair:
    """Step 1: a temporary token (``oob``: the verifier is shown, not redirected)."""
    body = await client.post_signed(REQUEST_TOKEN_PATH, callback_uri="oob")
    return parse_token_answer(body)


async def get_access_token(client: PlurkClient, request: TokenPair, verifier: str) -> TokenPair:
    """Step 3: trade the authorised request token and verifier for an access token."""
    body = await client.post_signed(
        ACCESS_TOKEN_PATH, token=request.token, token_secret=request.secret, verifier=verifier
    )
    return parse_token_answer(body)


def settings_lines(app_key: str, app_secret: str, access: TokenPair) -> list[str]:
    """The environment settings (.env lines) that make the bot use this token."""
    return [
        "TRPGBOT_PLURK__ENABLED=true",
        f"TRPGBOT_PLURK__APP_KEY={app_key}",
        f"TRPGBOT_PLURK__APP_SECRET={app_secret}",
        f"TRPGBOT_PLURK__TOKEN={access.token}",
        f"TRPGBOT_PLURK__TOKEN_SECRET={access.secret}",
    ]


async def _read(read_line: LineReader, prompt: str) -> str:
    if inspect.iscoroutinefunction(read_line):
        return str(await read_line(prompt))
    result = await asyncio.to_thread(read_line, prompt)
    if inspect.isawaitable(result):
        result = await result
    return str(result)


async def run_auth_flow(
    app_key: str,
    app_secret: str,
    *,
    base_url: str = "https://www.plurk.com",
    user_agent: str = DEFAULT_USER_AGENT,
    read_line: LineReader = input,
    write: LineWriter = print,
) -> TokenPair:
    """Walk the operator through the flow; print the settings; return the token."""
    credentials = PlurkCredentials(app_key=app_key, app_secret=app_secret)
    async with PlurkClient(credentials, base_url=base_url, user_agent=user_agent) as client:
        request = await get_request_token(client)
        write("1. Log in to Plurk as the bot account, then open:")
        write("   " + authorize_url(base_url, request.token))
        write("2. Allow access; Plurk shows a verification code.")
        verifier = (await _read(read_line, "3. Verification code: ")).strip()
        if not verifier:
            raise PlurkError(0, "no verification code entered", "OAuth")
        access = await get_access_token(client, request, verifier)
    write("")
    write("Store these settings (environment or .env; keep them secret):")
    for line in settings_lines(app_key, app_secret, access):
        write("  " + line)
    return access


def main(settings: Any) -> int:
    """Entry point of ``trpgbot plurk-auth`` (the CLI passes its Settings).

    Needs the app key and secret (settings or ``keys_file``); returns an exit
    code: 0 done, 1 Plurk refused, 2 configuration missing, 130 interrupted.
    """
    plurk: PlurkSettings = getattr(settings, "plurk", settings)
    try:
        credentials = load_credentials(plurk, need_token=False)
    except PlurkConfigError as exc:
        print(f"plurk-auth: {exc}", file=sys.stderr)
        print(
            "Register an app at https://www.plurk.com/PlurkApp/ and set "
            "TRPGBOT_PLURK__APP_KEY and TRPGBOT_PLURK__APP_SECRET first.",
            file=sys.stderr,
        )
        return 2
    try:
        asyncio.run(
            run_auth_flow(
                credentials.app_key,
                credentials.app_secret,
                base_url=plurk.base_url,
                user_agent=plurk.user_agent,
            )
        )
    except PlurkError as exc:
        print(f"plurk-auth failed: {exc}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, EOFError):
        print("plurk-auth: interrupted", file=sys.stderr)
        return 130
    return 0
