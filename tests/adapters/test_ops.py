"""The operator's endpoint and log of `trpgbot run` (docs/operations.md): a real process
on SQLite in a temporary folder, QQ through the OneBot peer, read with a real HTTP
client (aiohttp) and Prometheus' own parser."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from adapters.config import OpsSettings, Settings
from adapters.ops import Ops, serving
from bot.core import Core
from tests.adapters.debug_logs import forms
from tests.adapters.onebot.harness import TOKEN, free_port
from tests.adapters.onebot.peer import SELF_ID, OneBotPeer, group_event, message_text

TRPGBOT = str(Path(sys.executable).with_name("trpgbot"))
ROOT = Path(__file__).resolve().parents[2]
GROUP, GM, BOB = 20000, 30001, 30002

pytestmark = pytest.mark.timeout(90)


class Bot:
    """A `trpgbot run` process: its ops endpoint, its QQ listener, its log file."""

    def __init__(self, process: asyncio.subprocess.Process, ops_port: int, qq: str,
                 log: Path) -> None:
        self.process, self.ops_port, self.qq, self.log = process, ops_port, qq, log
        self.ops = f"http://127.0.0.1:{ops_port}"
        self.code: int | None = None

    async def get(self, path: str) -> tuple[int, str]:
        async with aiohttp.ClientSession() as session, session.get(self.ops + path) as answer:
            return answer.status, await answer.text()

    async def health(self, timeout: float = 30) -> tuple[int, dict[str, Any]]:
        """``/healthz``, once the endpoint listens."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            try:
                status, text = await self.get("/healthz")
                return status, json.loads(text)
            except aiohttp.ClientConnectorError:
                if loop.time() > deadline or self.process.returncode is not None:
                    raise
                await asyncio.sleep(0.1)

    async def health_until(self, wanted: dict[str, str],
                           timeout: float = 30) -> tuple[int, dict[str, Any]]:
        """``/healthz`` once its adapters read ``wanted``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        status, body = await self.health(timeout)
        while body["adapters"] != wanted:
            assert loop.time() < deadline, body
            await asyncio.sleep(0.1)
            status, body = await self.health(timeout)
        return status, body

    async def metrics(self) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
        """Every sample of ``/metrics``, by name and labels (Prometheus' parser)."""
        status, text = await self.get("/metrics")
        assert status == 200
        return {(sample.name, frozenset(sample.labels.items())): sample.value
                for family in text_string_to_metric_families(text)
                for sample in family.samples}


@asynccontextmanager
async def trpgbot_run(tmp_path: Path, **env: str) -> AsyncIterator[Bot]:
    """`trpgbot run` with QQ on free loopback ports (and ``env``); SIGTERM at the end."""
    qq_port, ops_port = free_port(), free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TRPGBOT_")}
    log = tmp_path / "trpgbot.log"
    with log.open("wb") as stderr:  # a file: a DEBUG log would fill a pipe nobody reads
        process = await asyncio.create_subprocess_exec(
            TRPGBOT, "run", cwd=tmp_path, stdin=asyncio.subprocess.DEVNULL, stderr=stderr,
            stdout=asyncio.subprocess.DEVNULL, env={
                **clean, "PYTHONPATH": str(ROOT),  # this tree's code, wherever it is installed
                "TRPGBOT_DATA_DIR": str(tmp_path),
                "TRPGBOT_ONEBOT__ENABLED": "true", "TRPGBOT_ONEBOT__PORT": str(qq_port),
                "TRPGBOT_ONEBOT__ACCESS_TOKEN": TOKEN, "TRPGBOT_OPS__PORT": str(ops_port),
                **env})
    bot = Bot(process, ops_port, f"ws://127.0.0.1:{qq_port}/onebot/v11/ws", log)
    try:
        yield bot
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        bot.code = await asyncio.wait_for(process.wait(), 20)


async def compose_healthcheck(bot: Bot) -> int:
    """The exit code of docker-compose.yml's healthcheck of the ``bot`` service, run here
    (its ``python`` is this one; the port is the container's setting)."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))
    command = compose["services"]["bot"]["healthcheck"]["test"]
    assert command[:2] == ["CMD", "python"]
    check = await asyncio.create_subprocess_exec(
        sys.executable, *command[2:], stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "TRPGBOT_OPS__PORT": str(bot.ops_port)})
    return await asyncio.wait_for(check.wait(), 10)


def sample(metrics: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str,
           **labels: str) -> float:
    return metrics[name, frozenset(labels.items())]


async def test_health_and_metrics_of_a_running_bot(tmp_path: Path) -> None:
    async with trpgbot_run(tmp_path) as bot:
        # NapCat has not connected yet: QQ waits, which is no failure
        assert await bot.health() == (200, {
            "status": "ok", "store": "ok", "adapters": {"qq": "waiting"}, "outbox_pending": 0})
        assert await compose_healthcheck(bot) == 0
        before = await bot.metrics()
        assert sample(before, "trpgbot_adapter_connected", platform="qq") == 0
        assert sample(before, "trpgbot_replies_sent_total", platform="qq") == 0
        async with OneBotPeer(bot.qq, token=TOKEN, friends=set()) as peer:
            status, body = await bot.health_until({"qq": "connected"})
            assert (status, body["status"]) == (200, "ok")
            [reply] = await peer.say(group_event(GROUP, BOB, ".r 1d1", nickname="Bob"))
            assert "1d1 = [1] = 1" in message_text(reply["params"])
            # Bob is no friend of the bot: his hidden result is refused (friend, then a
            # temporary session), the table is told instead
            hidden = await peer.say(group_event(GROUP, BOB, ".rh 1d1", nickname="Bob"),
                                    expect=4)
            assert [a["action"] for a in hidden] == [
                "send_group_msg", "send_private_msg", "send_private_msg", "send_group_msg"]
            for _ in range(50):  # the reply leaves the outbox once acknowledged (0.2 s)
                metrics = await bot.metrics()
                if sample(metrics, "trpgbot_outbox_pending") == 0:
                    break
                await asyncio.sleep(0.1)
        assert sample(metrics, "trpgbot_commands_total", system="plurk", platform="qq") == 2
        assert sample(metrics, "trpgbot_command_seconds_count",
                      system="plurk", platform="qq") == 2
        assert 0 < sample(metrics, "trpgbot_command_seconds_sum",
                          system="plurk", platform="qq") < 10
        # the roll, the hidden roll's announcement and the notice; the private copy not
        assert sample(metrics, "trpgbot_replies_sent_total", platform="qq") == 3
        assert sample(metrics, "trpgbot_replies_failed_total", platform="qq") == 1
        assert sample(metrics, "trpgbot_adapter_connected", platform="qq") == 1
        assert sample(metrics, "trpgbot_outbox_pending") == 0
        assert sample(metrics, "trpgbot_outbox_oldest_seconds") == 0
        assert sample(metrics, "trpgbot_store_batches_total") >= 1
        assert sample(metrics, "trpgbot_store_batched_commands_total") >= 1
        # NapCat went away: QQ waits for it again, still healthy
        status, body = await bot.health_until({"qq": "waiting"})
        assert (status, body["status"]) == (200, "ok")
        assert sample(await bot.metrics(), "trpgbot_adapter_connected", platform="qq") == 0
    assert bot.code == 0
    log = bot.log.read_text("utf-8")
    # the default level is INFO: the link to NapCat shows, as INFO
    assert f"INFO adapters.onebot.server: QQ: bot {SELF_ID} connected" in log
    assert TOKEN not in log


async def test_a_failed_adapter_makes_the_bot_unhealthy(tmp_path: Path) -> None:
    async with trpgbot_run(tmp_path, TRPGBOT_PLURK__ENABLED="true") as bot:  # no credentials
        status, body = await bot.health_until({"qq": "waiting", "plurk": "failed"})
        assert (status, body) == (503, {
            "status": "degraded", "store": "ok",
            "adapters": {"qq": "waiting", "plurk": "failed"}, "outbox_pending": 0})
        assert await compose_healthcheck(bot) != 0
    assert bot.code == 1


async def test_the_endpoint_can_be_turned_off(tmp_path: Path) -> None:
    async with trpgbot_run(tmp_path, TRPGBOT_OPS__ENABLED="false") as bot:
        peer = OneBotPeer(bot.qq, token=TOKEN)
        await peer.connect(timeout=30)  # dials until the bot listens
        try:
            await peer.say(group_event(GROUP, BOB, ".r 1d1"))  # the bot is up
        finally:
            await peer.close()
        with pytest.raises(aiohttp.ClientConnectorError):
            await bot.get("/healthz")


async def test_json_log_lines_hold_no_secret_at_debug(tmp_path: Path) -> None:
    async with trpgbot_run(tmp_path, TRPGBOT_LOG_FORMAT="json",
                           TRPGBOT_LOG_LEVEL="DEBUG") as bot:
        await bot.health()  # it is up
        async with OneBotPeer(bot.qq, token=TOKEN, friends={GM, BOB}) as peer:
            await peer.say(group_event(GROUP, GM, ".gm", nickname="Keeper"))
            await peer.say(group_event(GROUP, BOB, ".pc new 鮑伯", nickname="Bob"))
            await peer.say(group_event(GROUP, BOB, ".st 觀察 5", nickname="Bob"))
            # the announcement, Bob's copy and the GM's
            hidden = await peer.say(group_event(GROUP, BOB, ".rah 觀察", nickname="Bob"),
                                    expect=3)
    assert bot.code == 0
    secrets = [message_text(a["params"]) for a in hidden if a["action"] == "send_private_msg"]
    assert len(secrets) == 2
    results = {m for text in secrets for m in re.findall(r"1d20=\d+", text)}
    assert results
    lines = [json.loads(line) for line in bot.log.read_text("utf-8").splitlines()]
    assert all(isinstance(line, dict) and {"time", "level", "logger", "message"} <= line.keys()
               and line.keys() <= {"time", "level", "logger", "message", "exc_info"}
               for line in lines)
    assert any(line["level"] == "DEBUG" for line in lines), "DEBUG was not on"
    assert {"level": "INFO", "logger": "adapters.onebot.server",
            "message": f"QQ: bot {SELF_ID} connected"}.items() <= next(
        line for line in lines if line["message"].startswith("QQ: bot")).items()
    logged = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines)
    raw = bot.log.read_text("utf-8")
    leaked = [form for secret in [*secrets, *results, TOKEN] for form in forms(secret)
              if form in logged or form in raw]
    assert not leaked


async def test_a_store_that_does_not_answer_makes_the_bot_unhealthy(
        core: Core, settings: Settings) -> None:
    """In process, on the real core: the database file is gone (a directory stands in
    its place), so no new connection opens."""
    ops = Ops(core, ["qq"])
    where = OpsSettings(port=free_port())
    async with serving(ops, where), aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{where.port}/healthz"
        async with session.get(url) as answer:
            assert answer.status == 200
        path = settings.data_dir / "trpgbot.db"
        path.unlink()
        path.mkdir()
        await core.engine.dispose()  # the pooled connections held the old file open
        async with session.get(url) as answer:
            assert (answer.status, await answer.json()) == (503, {
                "status": "degraded", "store": "unreachable", "adapters": {"qq": "waiting"},
                "outbox_pending": None})
        path.rmdir()


async def test_a_port_in_use_leaves_the_bot_running_without_the_endpoint(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="adapters.ops")
    where = OpsSettings(port=free_port())
    # the second is what a second bot on the port gets
    async with serving(Ops(core, []), where), serving(Ops(core, []), where):
        pass
    listening, refused = [(r.levelname, r.getMessage()) for r in caplog.records
                          if r.name == "adapters.ops"]
    assert listening == (
        "INFO", f"health and metrics on http://127.0.0.1:{where.port}/healthz and /metrics")
    assert refused[0] == "ERROR" and refused[1].startswith(
        f"health and metrics endpoint: cannot listen on 127.0.0.1:{where.port}: ")
