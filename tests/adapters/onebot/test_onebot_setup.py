"""nonebot set-up details of ``serve``: configuration and logging."""

from __future__ import annotations

import logging

import pytest
from nonebot import logger

from adapters.config import Settings
from adapters.onebot.server import nonebot_init_kwargs, onebot_config, route_nonebot_logs
from adapters.onebot.settings import OneBotSettings


def test_the_token_reaches_the_adapter_but_not_nonebots_config() -> None:
    settings = Settings(_env_file=None, onebot=OneBotSettings(
        access_token="s3cret-token", ws_urls=["ws://127.0.0.1:3001"]))
    assert "s3cret-token" not in repr(nonebot_init_kwargs(settings))
    assert "s3cret-token" not in repr(settings)
    config = onebot_config(settings.onebot)
    assert config.onebot_access_token == "s3cret-token"
    assert {str(url) for url in config.onebot_ws_urls} == {"ws://127.0.0.1:3001/"}


def test_nonebot_does_not_read_our_env_file() -> None:
    assert nonebot_init_kwargs(Settings(_env_file=None))["_env_file"] == ("/dev/null",)


def test_nonebot_logs_go_to_standard_logging(caplog: pytest.LogCaptureFixture) -> None:
    route_nonebot_logs()
    with caplog.at_level(logging.INFO, logger="nonebot"):
        logger.opt(colors=True).warning("<y>Bot 10000</y> connected")
        try:
            raise ValueError("boom")
        except ValueError as exc:
            logger.opt(exception=exc).error("failed")
    records = [r for r in caplog.records if r.name == "nonebot"]
    assert [r.getMessage() for r in records] == ["Bot 10000 connected", "failed"]
    assert records[1].exc_info is not None and records[1].exc_info[0] is ValueError
