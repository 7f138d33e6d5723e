"""`trpgbot plurk-auth` against the fake's three OAuth endpoints."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from adapters.plurk import auth_flow
from adapters.plurk.auth_flow import TokenPair, authorize_url, parse_token_answer, run_auth_flow
from adapters.plurk.client import PlurkClient
from adapters.plurk.credentials import PlurkCredentials
from adapters.plurk.errors import PlurkError
from adapters.plurk.settings import PlurkSettings
from tests.adapters.plurk.fake_plurk import APP_KEY, APP_SECRET, BOT_ID, FakePlurk


async def test_full_flow_prints_settings_and_the_token_works(fake: FakePlurk) -> None:
    shown: list[str] = []

    def read_line(prompt: str) -> str:
        url = next(line for line in shown if "/OAuth/authorize?" in line).strip()
        token = url.split("oauth_token=")[1]
        return fake.verifiers[token]  # what Plurk shows the operator after "Allow"

    access = await run_auth_flow(
        APP_KEY, APP_SECRET, base_url=fake.base_url, read_line=read_line, write=shown.append
    )
    assert access.token in fake.access_tokens
    printed = "\n".join(shown)
    assert f"TRPGBOT_PLURK__TOKEN={access.token}" in printed
    assert f"TRPGBOT_PLURK__TOKEN_SECRET={access.secret}" in printed
    assert f"TRPGBOT_PLURK__APP_KEY={APP_KEY}" in printed
    assert fake.rejected == []
    # the new token signs API calls
    creds = PlurkCredentials(APP_KEY, APP_SECRET, access.token, access.secret)
    async with PlurkClient(creds, base_url=fake.base_url) as client:
        assert (await client.me())["id"] == BOT_ID


async def test_async_reader_and_wrong_verifier(fake: FakePlurk) -> None:
    async def wrong(prompt: str) -> str:
        return "000000x"

    with pytest.raises(PlurkError) as info:
        await run_auth_flow(
            APP_KEY, APP_SECRET, base_url=fake.base_url, read_line=wrong, write=lambda _: None
        )
    assert info.value.status == 401


async def test_wrong_app_secret_fails_at_the_request_token(fake: FakePlurk) -> None:
    with pytest.raises(PlurkError) as info:
        await run_auth_flow(
            APP_KEY,
            "not-the-secret",
            base_url=fake.base_url,
            read_line=lambda _: "1",
            write=lambda _: None,
        )
    assert (info.value.status, info.value.error_text) == (400, "40104:incorrect signature")
    assert fake.rejected == ["/OAuth/request_token"]


def test_token_answer_and_authorize_url() -> None:
    pair = parse_token_answer("oauth_token=abc&oauth_token_secret=def&x=1")
    assert pair == TokenPair("abc", "def") and "def" not in repr(pair)
    with pytest.raises(PlurkError):
        parse_token_answer("oauth_problem=nope")
    assert authorize_url("https://www.plurk.com/", "a b") == (
        "https://www.plurk.com/OAuth/authorize?oauth_token=a+b"
    )


def test_main_without_app_key_explains_and_returns_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert auth_flow.main(PlurkSettings()) == 2
    assert "TRPGBOT_PLURK__APP_KEY" in capsys.readouterr().err


def test_main_reports_a_refusal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def refused(*args: object, **kwargs: object) -> TokenPair:
        raise PlurkError(401, "invalid signature", "/OAuth/request_token")

    monkeypatch.setattr(auth_flow, "run_auth_flow", refused)
    settings = PlurkSettings(app_key=SecretStr("k"), app_secret=SecretStr("s-secret"))
    assert auth_flow.main(settings) == 1
    err = capsys.readouterr().err
    assert "invalid signature" in err and "s-secret" not in err
