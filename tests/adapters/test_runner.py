"""`trpgbot run` as an operator starts it: a real process, real signals."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.adapters.onebot.harness import TOKEN, free_port
from tests.adapters.onebot.peer import OneBotPeer, group_event, message_text

TRPGBOT = str(Path(sys.executable).with_name("trpgbot"))

pytestmark = pytest.mark.timeout(60)


async def start(tmp_path: Path, **env: str) -> asyncio.subprocess.Process:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TRPGBOT_")}
    return await asyncio.create_subprocess_exec(
        TRPGBOT, "run", cwd=tmp_path, env={**clean, "TRPGBOT_DATA_DIR": str(tmp_path), **env},
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)


async def test_console_fallback_stops_on_sigterm(tmp_path: Path) -> None:
    bot = await start(tmp_path)
    assert bot.stdin is not None and bot.stdout is not None
    bot.stdin.write(b".r 1d1\n")
    await bot.stdin.drain()
    line = await asyncio.wait_for(bot.stdout.readline(), 30)
    assert "1d1 = [1] = 1" in line.decode()
    bot.send_signal(signal.SIGTERM)  # stdin is still open: the reader must not hold on
    assert await asyncio.wait_for(bot.wait(), 15) == 0


async def test_a_failing_adapter_leaves_the_others_running_and_fails_the_exit(
    tmp_path: Path,
) -> None:
    port = free_port()
    bot = await start(
        tmp_path,
        TRPGBOT_ONEBOT__ENABLED="true", TRPGBOT_ONEBOT__PORT=str(port),
        TRPGBOT_ONEBOT__ACCESS_TOKEN=TOKEN,
        TRPGBOT_PLURK__ENABLED="true",  # but no credentials: this adapter fails at once
    )
    try:
        peer = OneBotPeer(f"ws://127.0.0.1:{port}/onebot/v11/ws", token=TOKEN)
        await peer.connect(timeout=30)  # dials until the new process listens
        try:
            actions = await peer.say(group_event(1, 2, ".gm", nickname="Keeper"))
        finally:
            await peer.close()
        assert "Keeper" in message_text(actions[0]["params"])
    finally:
        bot.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(bot.wait(), 20)
    assert bot.stderr is not None
    log = (await bot.stderr.read()).decode()
    assert "adapter plurk failed" in log
    assert TOKEN not in log
    assert code == 1
