"""The client against the fake Plurk: signatures, errors, credentials, secrecy."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr

from adapters.plurk.client import PlurkClient
from adapters.plurk.credentials import PlurkCredentials, load_credentials
from adapters.plurk.errors import ErrorKind, PlurkConfigError, PlurkError, classify_error
from adapters.plurk.oauth import encode_form
from adapters.plurk.settings import PlurkSettings
from tests.adapters.plurk.fake_plurk import (
    ACCESS_SECRET,
    ACCESS_TOKEN,
    APP_KEY,
    APP_SECRET,
    BOT_ID,
    CREDENTIALS,
    FakePlurk,
)


async def test_every_endpoint_is_signed_validly(fake: FakePlurk, client: PlurkClient) -> None:
    fake.add_user(7, "alice", "Alice")
    fake.friends.add(7)
    pid = fake.add_plurk(7, "hello @dicebot")
    me = await client.me()
    assert me["id"] == BOT_ID and me["nick_name"] == "dicebot"
    channel = await client.get_user_channel()
    assert channel["comet_server"].startswith(fake.base_url)
    assert (await client.alerts_history())[0]["plurk_id"] == pid
    await client.add_all_as_friends()
    assert (await client.get_plurk(pid))["plurk"]["plurk_id"] == pid
    # unicode, spaces, reserved characters and a long body all survive signing
    text = "擲骰 1d20+3 & 100% = ok? ＠x (dice20)\nline two"
    await client.response_add(pid, text, qualifier="says")
    private = await client.plurk_add("secret 機密", limited_to=[7])
    assert private["limited_to"] == [7]
    got = await client.get_responses(pid)
    assert got["responses"][-1]["content_raw"] == text
    assert fake.rejected == []
    assert fake.posts[0].content == text and fake.posts[0].qualifier == "says"


@pytest.mark.parametrize(
    "credentials",
    [
        PlurkCredentials(APP_KEY, "wrong-app-secret", ACCESS_TOKEN, ACCESS_SECRET),
        PlurkCredentials(APP_KEY, APP_SECRET, ACCESS_TOKEN, "wrong-token-secret"),
        PlurkCredentials("other-app-key", APP_SECRET, ACCESS_TOKEN, ACCESS_SECRET),
    ],
    ids=["app-secret", "token-secret", "app-key"],
)
async def test_wrong_secret_is_rejected(fake: FakePlurk, credentials: PlurkCredentials) -> None:
    async with PlurkClient(credentials, base_url=fake.base_url) as bad:
        with pytest.raises(PlurkError) as info:
            await bad.me()
    assert (info.value.status, info.value.error_text) == (400, "40104:incorrect signature")
    assert info.value.kind is ErrorKind.AUTH
    assert fake.rejected == ["/APP/Users/me"]


async def test_default_user_agent_is_refused_explicit_one_is_sent(fake: FakePlurk) -> None:
    # aiohttp's own "Python/3.x aiohttp" agent
    async with (
        aiohttp.ClientSession() as session,
        session.post(fake.base_url + "/APP/Users/me") as resp,
    ):
        assert resp.status == 403
    async with PlurkClient(
        CREDENTIALS, base_url=fake.base_url, user_agent="custom-agent/1.0"
    ) as custom:
        assert (await custom.me())["id"] == BOT_ID


async def test_scripted_errors_carry_status_and_text(fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(BOT_ID, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new")
    with pytest.raises(PlurkError) as info:
        await client.response_add(pid, "hi")
    assert (info.value.status, info.value.error_text) == (400, "anti-flood-too-many-new")
    assert info.value.is_anti_flood
    with pytest.raises(PlurkError) as info:
        await client.plurk_add("secret", limited_to=[12345])
    assert info.value.is_must_be_friends


async def test_network_failure_is_a_plurk_error_with_status_zero() -> None:
    async with PlurkClient(CREDENTIALS, base_url="http://127.0.0.1:9") as nowhere:
        with pytest.raises(PlurkError) as info:
            await nowhere.me()
    assert info.value.status == 0 and info.value.kind is ErrorKind.TRANSIENT


@pytest.mark.parametrize(
    ("status", "text", "kind"),
    [
        (400, "anti-flood-same-content", ErrorKind.SAME_CONTENT),
        (400, "anti-flood-too-many-new", ErrorKind.FLOOD_WAIT),
        (400, "Anti-Flood-Spam-Domain", ErrorKind.SPAM_DOMAIN),
        (400, "anti-flood-something-new", ErrorKind.FLOOD_WAIT),
        (400, "Must be friends", ErrorKind.MUST_BE_FRIENDS),
        (400, "Content too long", ErrorKind.TOO_LONG),
        (400, "40104:incorrect signature", ErrorKind.AUTH),
        (400, "40106:something else of the family", ErrorKind.AUTH),
        (400, "Plurk not found", ErrorKind.REFUSED),
        (401, "invalid signature", ErrorKind.AUTH),
        (403, "error code: 1010", ErrorKind.AUTH),
        (502, "bad gateway", ErrorKind.TRANSIENT),
        (0, "network: ClientConnectorError", ErrorKind.TRANSIENT),
    ],
)
def test_classify_error(status: int, text: str, kind: ErrorKind) -> None:
    assert classify_error(status, text) is kind


def test_encode_form_uses_rfc3986_quoting() -> None:
    assert encode_form({"a": "x y+z", "b": 1, "c": True}) == "a=x%20y%2Bz&b=1&c=true"
    assert encode_form(None) == ""


def _keys_file(tmp_path: Path, **values: str) -> Path:
    path = tmp_path / "API.keys"
    path.write_text(json.dumps(values), encoding="utf-8")
    return path


def test_credentials_from_keys_file_settings_win(tmp_path: Path) -> None:
    path = _keys_file(
        tmp_path,
        CONSUMER_KEY="file-key",
        CONSUMER_SECRET="file-secret",
        ACCESS_TOKEN="file-token",
        ACCESS_TOKEN_SECRET="file-token-secret",
    )
    from_file = load_credentials(PlurkSettings(keys_file=path))
    assert from_file == PlurkCredentials(
        "file-key", "file-secret", "file-token", "file-token-secret"
    )
    mixed = load_credentials(PlurkSettings(keys_file=path, token_secret=SecretStr("env-secret")))
    assert mixed.token_secret == "env-secret" and mixed.app_key == "file-key"


def test_missing_credentials_are_named_never_shown(tmp_path: Path) -> None:
    path = _keys_file(tmp_path, CONSUMER_KEY="file-key", CONSUMER_SECRET="file-secret-value")
    with pytest.raises(PlurkConfigError) as info:
        load_credentials(PlurkSettings(keys_file=path))
    message = str(info.value)
    assert "TRPGBOT_PLURK__TOKEN" in message and "TRPGBOT_PLURK__TOKEN_SECRET" in message
    assert "file-secret-value" not in message
    assert load_credentials(PlurkSettings(keys_file=path), need_token=False).token is None
    with pytest.raises(PlurkConfigError):
        load_credentials(PlurkSettings(keys_file=tmp_path / "absent.keys"))
    (tmp_path / "bad.keys").write_text("{not json", encoding="utf-8")
    with pytest.raises(PlurkConfigError):
        load_credentials(PlurkSettings(keys_file=tmp_path / "bad.keys"))


def test_credentials_repr_hides_secrets() -> None:
    text = repr(CREDENTIALS)
    assert APP_SECRET not in text and ACCESS_SECRET not in text and ACCESS_TOKEN not in text


async def test_no_secret_or_content_in_logs(
    fake: FakePlurk, client: PlurkClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    pid = fake.add_plurk(BOT_ID, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-same-content")
    with pytest.raises(PlurkError):
        await client.response_add(pid, "GM secret: the butler did it")
    await client.response_add(pid, "GM secret: the butler did it")
    logged = caplog.text
    for secret in (APP_SECRET, ACCESS_SECRET, ACCESS_TOKEN, "butler", "oauth_signature"):
        assert secret not in logged
