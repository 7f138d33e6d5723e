"""Scale out (issue 25, item 6; docs/scaling.md): two `trpgbot run` processes — real
subprocesses — on one PostgreSQL, each with its own Discord shards and its own QQ
account, play one table. Process A runs Discord shard 0 of 2 and QQ account 111,
process B shard 1 of 2 and account 222 (``TRPGBOT_ONEBOT__SELF_IDS``). Two QQ groups,
each with its own bot account, are bound to one campaign: a sheet changed through A is
read through B, and each reply leaves through the account of its own process. Only A
(shard 0) syncs the slash commands; a slash command on shard 1 is answered by B.

Skipped without ``TRPGBOT_TEST_POSTGRES_URL`` (SQLite is one process per file);
required in CI (``TRPGBOT_REQUIRE_POSTGRES``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.adapters.discord.doubles import APP_ID, command_payload
from tests.adapters.discord.fake_discord import TOKEN as DISCORD_TOKEN
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.onebot.harness import TOKEN as ONEBOT_TOKEN
from tests.adapters.onebot.harness import free_port
from tests.adapters.onebot.peer import OneBotPeer, group_event, message_text
from tests.conftest import empty_postgres

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parent.parent
FIRST, SECOND = 111, 222  # QQ accounts
GROUP_A, GROUP_B, ALICE, BOB = 20001, 20002, 30001, 30002


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    async with empty_postgres() as url:
        yield url


class Process:
    """One `trpgbot run` with its shard and account set, its log in a file."""

    def __init__(self, name: str, tmp_path: Path, url: str, fake: FakeDiscord,
                 shard: int, account: int) -> None:
        self.name = name
        self.log = tmp_path / f"{name}.log"
        self.onebot_port, self.ops_port = free_port(), free_port()
        data = tmp_path / name
        data.mkdir()
        clean = {k: v for k, v in os.environ.items() if not k.startswith("TRPGBOT_")}
        self.env = {
            **clean,
            "PYTHONPATH": str(ROOT),
            "TEST_DISCORD_API": fake.base,
            "TEST_DISCORD_GATEWAY": fake.gateway,
            "TRPGBOT_DATA_DIR": str(data),
            "TRPGBOT_DATABASE_URL": url,
            "TRPGBOT_LOG_LEVEL": "INFO",
            "TRPGBOT_OPS__PORT": str(self.ops_port),
            "TRPGBOT_DISCORD__ENABLED": "true",
            "TRPGBOT_DISCORD__TOKEN": DISCORD_TOKEN,
            "TRPGBOT_DISCORD__SHARD_COUNT": "2",
            "TRPGBOT_DISCORD__SHARD_IDS": str(shard),
            "TRPGBOT_ONEBOT__ENABLED": "true",
            "TRPGBOT_ONEBOT__PORT": str(self.onebot_port),
            "TRPGBOT_ONEBOT__ACCESS_TOKEN": ONEBOT_TOKEN,
            "TRPGBOT_ONEBOT__SELF_IDS": f'["{account}"]',
        }
        self.peer = OneBotPeer(f"ws://127.0.0.1:{self.onebot_port}/onebot/v11/ws",
                               token=ONEBOT_TOKEN, self_id=account)
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, cwd: Path) -> None:
        with self.log.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.loopback_trpgbot", cwd=cwd, env=self.env,
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)

    async def health(self) -> dict[str, Any]:
        async with aiohttp.ClientSession() as http, \
                http.get(f"http://127.0.0.1:{self.ops_port}/healthz") as answer:
            return dict(await answer.json())

    async def until_healthy(self, wanted: dict[str, str], timeout: float = 60) -> None:
        """Until /healthz shows the adapters in the states ``wanted``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            assert self.process is not None and self.process.returncode is None, self.text()
            with contextlib.suppress(aiohttp.ClientError):
                if (await self.health())["adapters"] == wanted:
                    return
            assert loop.time() < deadline, self.text()
            await asyncio.sleep(0.1)

    async def say(self, group: int, user: int, line: str, name: str) -> list[tuple[int, str]]:
        """A group message to this process's QQ account; the group posts it caused."""
        event = {**group_event(group, user, line, nickname=name), "self_id": self.peer.self_id}
        return [(a["params"]["group_id"], message_text(a["params"]))
                for a in await self.peer.say(event, timeout=15)
                if a["action"] == "send_group_msg"]

    async def stop(self) -> int:
        await self.peer.close()
        if self.process is None:
            return 0
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), 30)

    def text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")


async def test_two_processes_with_their_own_shards_and_accounts_play_one_table(
        postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDiscord(DISCORD_TOKEN)
    await fake.start()
    a = Process("a", tmp_path, postgres_url, fake, shard=0, account=FIRST)
    b = Process("b", tmp_path, postgres_url, fake, shard=1, account=SECOND)
    try:
        await asyncio.gather(a.start(tmp_path), b.start(tmp_path))  # at once: one upgrades
        waiting = {"discord": "connected", "qq": "waiting"}
        await asyncio.gather(a.until_healthy(waiting), b.until_healthy(waiting))
        assert sorted(fake.identifies) == [[0, 2], [1, 2]]  # type: ignore[type-var]
        syncs = [r for r in fake.requests
                 if r[:2] == ("PUT", f"/applications/{APP_ID}/commands")]
        assert len(syncs) == 1  # by A, the process of shard 0

        await a.peer.connect()
        await b.peer.connect()
        connected = {"discord": "connected", "qq": "connected"}
        await asyncio.gather(a.until_healthy(connected), b.until_healthy(connected))

        # one table: group A (account 111, process A) and group B (account 222,
        # process B) bound to one campaign by its GM
        assert await a.say(GROUP_A, ALICE, ".gm", "Alice") == [
            (GROUP_A, "Alice 成为本频道的 GM。")]
        [(group, bound)] = await a.say(GROUP_A, ALICE, ".campaign bind saga", "Alice")
        assert group == GROUP_A and "saga" in bound
        [(group, bound)] = await b.say(GROUP_B, ALICE, ".campaign bind saga", "Alice")
        assert group == GROUP_B and "saga" in bound
        # a change through A, read through B
        assert await a.say(GROUP_A, BOB, ".st 力量 50", "Bob") == [
            (GROUP_A, "Bob 的数值已更新：力量:50")]
        assert await b.say(GROUP_B, BOB, ".st show", "Bob") == [(GROUP_B, "Bob：力量:50")]
        # and back: B's change, A's read
        assert await b.say(GROUP_B, BOB, ".st 力量-8", "Bob") == [
            (GROUP_B, "Bob 的数值已更新：力量:50→42")]
        assert await a.say(GROUP_A, BOB, ".st show", "Bob") == [(GROUP_A, "Bob：力量:42")]
        # every reply left through its own process's account, to its own group
        for process, group in ((a, GROUP_A), (b, GROUP_B)):
            assert {act["params"]["group_id"] for act in process.peer.actions
                    if act["action"] == "send_group_msg"} == {group}

        # a slash command on shard 1 is answered, by B (A runs no shard 1)
        await fake.dispatch_to_shard(1, "INTERACTION_CREATE",
                                     command_payload("gm", 601, "Carol"))
        _, _, answer = await fake.wait_for_request("POST", "/interactions/", timeout=15)
        assert "Carol" in answer["data"]["content"]
        # every reply was sent and left the shared outbox (both processes see it empty)
        for _ in range(100):
            pending = [(await p.health())["outbox_pending"] for p in (a, b)]
            if pending == [0, 0]:
                break
            await asyncio.sleep(0.1)
        assert pending == [0, 0]
    finally:
        codes = await asyncio.gather(a.stop(), b.stop(), return_exceptions=True)
        await fake.close()
    assert codes == [0, 0], (a.text(), b.text())
    assert "slash commands synced globally" in a.text()
    assert "slash commands synced" not in b.text()
