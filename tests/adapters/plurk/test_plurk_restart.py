"""Item 9: a reply survives a crash. `trpgbot run` as a real process against the fake
Plurk over loopback, with its SQLite file in tmp_path: flood control makes a reply
wait, the process is SIGKILLed during the wait, and the next start posts the reply —
exactly once — from the core's outbox."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.adapters.plurk.fake_plurk import (
    ACCESS_SECRET,
    ACCESS_TOKEN,
    APP_KEY,
    APP_SECRET,
    FakePlurk,
)

TRPGBOT = str(Path(sys.executable).with_name("trpgbot"))
ALICE = 11

pytestmark = pytest.mark.timeout(90)


def bot_env(fake: FakePlurk, tmp_path: Path, anti_flood_delay: float) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TRPGBOT_")}
    return {
        **clean,
        "TRPGBOT_DATA_DIR": str(tmp_path),
        "TRPGBOT_LOG_LEVEL": "INFO",
        "TRPGBOT_PLURK__ENABLED": "true",
        "TRPGBOT_PLURK__APP_KEY": APP_KEY,
        "TRPGBOT_PLURK__APP_SECRET": APP_SECRET,
        "TRPGBOT_PLURK__TOKEN": ACCESS_TOKEN,
        "TRPGBOT_PLURK__TOKEN_SECRET": ACCESS_SECRET,
        "TRPGBOT_PLURK__BASE_URL": fake.base_url,
        "TRPGBOT_PLURK__COMET_TIMEOUT": "5",
        "TRPGBOT_PLURK__REQUEST_TIMEOUT": "5",
        "TRPGBOT_PLURK__RECONNECT_BASE_DELAY": "0.05",
        "TRPGBOT_PLURK__RECONNECT_MAX_DELAY": "0.2",
        "TRPGBOT_PLURK__ANTI_FLOOD_BASE_DELAY": str(anti_flood_delay),
        "TRPGBOT_PLURK__ANTI_FLOOD_MAX_DELAY": str(anti_flood_delay),
        "TRPGBOT_PLURK__MIN_POST_INTERVAL": "0",
        "TRPGBOT_PLURK__FRIENDS_INTERVAL": "0",
        "TRPGBOT_PLURK__CATCH_UP_INTERVAL": "0",
    }


async def start_bot(
    env: dict[str, str], tmp_path: Path, log_name: str
) -> asyncio.subprocess.Process:
    log = (tmp_path / log_name).open("wb")
    try:
        return await asyncio.create_subprocess_exec(
            TRPGBOT, "run", cwd=tmp_path, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
        )
    finally:
        log.close()


async def wait_until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


async def test_reply_waiting_out_flood_control_survives_sigkill_once(
    fake: FakePlurk, tmp_path: Path
) -> None:
    fake.add_user(ALICE, "alice", "Alice")
    pid = fake.add_plurk(ALICE, "tonight's game")

    first = await start_bot(bot_env(fake, tmp_path, 60), tmp_path, "first.log")
    try:
        await wait_until(lambda: fake.comet_polls >= 1)  # listening
        fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new")
        fake.add_response(pid, ALICE, "@dicebot .gm")
        await wait_until(lambda: "Responses/responseAdd" in fake.calls)  # now waiting 60 s
        await asyncio.sleep(0.2)
    finally:
        first.send_signal(signal.SIGKILL)  # no grace, no cleanup
        assert await asyncio.wait_for(first.wait(), 10) == -signal.SIGKILL
    assert fake.posts == []

    calls = len(fake.calls)
    second = await start_bot(bot_env(fake, tmp_path, 0.05), tmp_path, "second.log")
    try:
        await wait_until(lambda: len(fake.posts) >= 1)
        # let it catch up (the mention is still in Alerts/getHistory) and poll a while
        await wait_until(lambda: "Alerts/getHistory" in fake.calls[calls:])
        polls = fake.comet_polls
        await wait_until(lambda: fake.comet_polls >= polls + 3)
        await asyncio.sleep(0.3)
    finally:
        second.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(second.wait(), 20)
    log = (tmp_path / "second.log").read_text(encoding="utf-8", errors="replace")
    assert code == 0, log
    texts = fake.posts_in(pid)
    assert len(texts) == 1 and "Alice" in texts[0] and "GM" in texts[0], texts
    assert len(fake.posts) == 1
    assert "sending 1 replies left from the last run" in log
