"""adapters/onebot/delivery.py with a recording ``call_api`` in place of the bot: a
private message to no QQ number is refused, each refused attempt logged (first written
from the surviving mutants of the `adapters` area; see docs/testing.md, "Mutation
testing")."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest
from nonebot.adapters.onebot.v11.exception import NetworkError

from adapters.onebot.delivery import OneBotDelivery
from adapters.onebot.settings import OneBotSettings
from bot.messages import Outgoing


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
