"""Does a command cost more when the store is big, and does memory come back after load?

Run from the repository root: ``python bench/store_scale.py [--commands N]
[--dir D]`` (defaults: 100,000 commands for the memory phase; about 5 minutes).

Drives ``Core.handle`` directly, group commit on, on an on-disk SQLite file (WAL,
``synchronous=FULL``), with ``.st 體力-1`` / ``.st 體力+1`` from each channel's player
(a platform message id each, as adapters send):

(1) **Size.** Two stores, measured in the same run: *small* — 10 channels with 10
    characters each — and *large* — 10,000 channels and 100,000 characters (rows
    written straight into the tables after the migrations ran, so filling takes
    seconds). In each, 10 channels are played at once, the same commands, and the
    CPU time per command and the commands per second are printed for both, with the
    ratio large / small (issue 11's goal: within 20 %). Reference: the small store.
(2) **Memory.** 1,000 channels played in turn (each answers before the next
    round), ``--commands`` commands in all; the process's resident memory (``VmRSS``)
    once every channel has been used twice (warm), and after the run, after a
    ``gc.collect()``. Goal: within 10 MB of the warm level.

Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters.config import Settings
from bot.core import Core
from bot.messages import Incoming

ACTIVE = 10
"""Channels played at once in the size phase."""
PLAYER = "p"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def fill(db: Path, channels: int, per_channel: int) -> None:
    """``channels`` plurk-system channels, each with ``per_channel`` characters of
    which the player's first is active — straight into the tables."""
    now = "2026-12-01 00:00:00.000000"
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "INSERT INTO channels (id, platform, channel_key, system, created_at) "
            "VALUES (?, 'console', ?, 'plurk', ?)",
            ((n + 1, f"c{n}", now) for n in range(channels)))
        conn.executemany(
            "INSERT INTO characters (channel_id, owner, name, active, stats, created_at, "
            "updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
            ((n + 1, PLAYER if k == 0 else f"u{k}", f"角色{k}", k == 0,
              '{"體力": 1000000}', now, now)
             for n in range(channels) for k in range(per_channel)))


class Driver:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.n = 0

    async def say(self, channel: str, text: str) -> None:
        self.n += 1
        outs = await self.core.handle(Incoming("console", channel, PLAYER, text,
                                               display_name=PLAYER,
                                               message_id=f"m{self.n}"))
        assert outs and "⚠" not in outs[0].text, (text, outs)

    async def play(self, channel: str, count: int) -> None:
        for i in range(count):
            await self.say(channel, ".st 體力-1" if i % 2 == 0 else ".st 體力+1")


async def open_filled(path: Path, channels: int, per_channel: int) -> Core:
    path.mkdir(parents=True)
    settings = Settings(_env_file=None, data_dir=path)
    core = await Core.open(settings)  # runs the migrations
    await core.close()
    fill(path / "trpgbot.db", channels, per_channel)
    return await Core.open(settings)


async def size_phase(tmp: Path, per_channel_commands: int) -> dict[str, tuple[float, float]]:
    results = {}
    for label, channels, per_channel in (("small", ACTIVE, 10), ("large", 10_000, 10)):
        core = await open_filled(tmp / label, channels, per_channel)
        try:
            drv = Driver(core)
            # the played channels are spread over the whole store
            played = [f"c{n * (channels // ACTIVE)}" for n in range(ACTIVE)]
            await asyncio.gather(*(drv.play(c, 20) for c in played))  # warm-up
            cpu, start = time.process_time(), time.perf_counter()
            await asyncio.gather(*(drv.play(c, per_channel_commands) for c in played))
            done = ACTIVE * per_channel_commands
            results[label] = ((time.process_time() - cpu) / done * 1e3,
                              done / (time.perf_counter() - start))
        finally:
            await core.close()
    return results


async def memory_phase(tmp: Path, commands: int) -> tuple[float, float, float, float]:
    channels = 1_000
    core = await open_filled(tmp / "memory", channels, 2)
    try:
        drv = Driver(core)
        names = [f"c{n}" for n in range(channels)]
        for _ in range(2):
            await asyncio.gather(*(drv.play(c, 1) for c in names))
        gc.collect()
        warm = rss_mb()
        rounds = max(1, commands // channels)
        start = time.perf_counter()
        for _ in range(rounds):
            await asyncio.gather(*(drv.play(c, 1) for c in names))
        elapsed = time.perf_counter() - start
        after = rss_mb()
        gc.collect()
        collected = rss_mb()
        return warm, after, collected, rounds * channels / elapsed
    finally:
        await core.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=100_000,
                        help="commands of the memory phase (over 1,000 channels)")
    parser.add_argument("--size-commands", type=int, default=300,
                        help="commands per played channel in the size phase")
    parser.add_argument("--dir", default=None, help="where the database files go")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        tmp = Path(name)
        size = await size_phase(tmp, args.size_commands)
        (small_cpu, small_rate), (large_cpu, large_rate) = size["small"], size["large"]
        print(f"(1) {ACTIVE} channels played at once, .st 體力±1, group commit on")
        print(f"    small store (10 channels, 100 characters):         "
              f"CPU {small_cpu:.3f} ms/command, {small_rate:6.0f}/s")
        print(f"    large store (10,000 channels, 100,000 characters): "
              f"CPU {large_cpu:.3f} ms/command, {large_rate:6.0f}/s")
        print(f"    ratio large / small: CPU ×{large_cpu / small_cpu:.2f}, "
              f"rate ×{large_rate / small_rate:.2f}")
        warm, after, collected, rate = await memory_phase(tmp, args.commands)
        print(f"(2) {args.commands:,} commands over 1,000 channels ({rate:.0f}/s): "
              f"RSS warm {warm:.1f} MB, after {after:.1f} MB, after gc {collected:.1f} MB "
              f"(+{collected - warm:.1f} MB)")
    print(f"total {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    asyncio.run(main())
