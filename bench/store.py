"""Durable command throughput of the core against raw ``sqlite3`` in the same run.

Run from the repository root: ``python bench/store.py [--seconds S] [--dir D]
[--group-commit | --no-group-commit]`` — by default both, off then on, in one run.

Drives ``Core.handle`` directly (no adapter) on an on-disk SQLite file (WAL,
``synchronous=FULL``, as in production) with state-changing commands — ``.st 體力-1``
and ``.ap spend 移動`` (after a GM's ``.ap set``) — each with a platform message id
(idempotency is recorded, as adapters do):

(a) one channel, one command at a time: latency p50/p99 and commands/s;
(b) 50 channels at once, each sending its next command when the last is answered:
    commands/s, p50/p99, and the slowest channel's p99 against the median channel's;
(c) reads (``.st show``, ``.r 1d20``), one at a time;
(d) the SQL statements of one command, one at a time (cursor statements, SAVEPOINTs and
    COMMITs, on every engine of the core);

each with the process's CPU time per command (``time.process_time``: on a shared
machine the wall-clock figures swing with the other processes, the CPU cost much less);

then the reference: the statements one such command writes (processed id, sheet
update with its version check, outbox row), through stdlib ``sqlite3`` on another
file with the same pragmas — one command per commit, and 10 and 50 commands per
commit. Every phase stops after its time box, so the whole run takes < 60 s.
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event

from adapters.config import Settings
from bot.core import Core
from bot.messages import Incoming

try:
    from bot.heap import freeze_start_up
except ImportError:  # a checkout from before it (the bench runs against older commits too)
    freeze_start_up = None  # type: ignore[assignment]

CHANNELS = 50


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class Driver:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.n = 0

    async def say(self, channel: str, user: str, text: str) -> float:
        self.n += 1
        start = time.perf_counter()
        outs = await self.core.handle(Incoming("console", channel, user, text,
                                               display_name=user, message_id=f"m{self.n}"))
        elapsed = time.perf_counter() - start
        assert outs and "⚠" not in outs[0].text, (text, outs)
        return elapsed

    async def setup(self, channel: str) -> None:
        await self.say(channel, "gm", ".gm")
        await self.say(channel, "gm", ".ap set 1000000")
        await self.say(channel, "p", ".st 體力 1000000")

    async def writes(self, channel: str, seconds: float, limit: int) -> list[float]:
        lat: list[float] = []
        deadline = time.perf_counter() + seconds
        while len(lat) < limit and time.perf_counter() < deadline:
            text = ".st 體力-1" if len(lat) % 2 == 0 else ".ap spend 移動"
            lat.append(await self.say(channel, "p", text))
        return lat


async def bench_core(path: Path, seconds: float, group_commit: bool | None) -> dict[str, float]:
    settings = Settings(_env_file=None, data_dir=path)
    kwargs = {} if group_commit is None else {"group_commit": group_commit}
    engine_core = await Core.open(settings, **kwargs)
    if freeze_start_up is not None:  # as `trpgbot run` and the console do after opening
        freeze_start_up()
    drv = Driver(engine_core)
    res: dict[str, float] = {}
    try:
        for c in range(CHANNELS):
            await drv.setup(f"c{c}")
        await drv.setup("solo")
        # warm-up
        await drv.writes("solo", 1.0, 50)

        # (a) one channel, one at a time
        start, cpu = time.perf_counter(), time.process_time()
        lat = await drv.writes("solo", seconds, 2000)
        wall = time.perf_counter() - start
        res["a_cpu_ms"] = (time.process_time() - cpu) / len(lat) * 1e3
        res["a_rate"] = len(lat) / wall
        res["a_p50_ms"] = pct(lat, 50) * 1e3
        res["a_p99_ms"] = pct(lat, 99) * 1e3

        # (b) 50 channels at once
        start, cpu = time.perf_counter(), time.process_time()
        per = await asyncio.gather(*(drv.writes(f"c{c}", seconds * 1.5, 200)
                                     for c in range(CHANNELS)))
        wall = time.perf_counter() - start
        flat = [x for lats in per for x in lats]
        res["b_cpu_ms"] = (time.process_time() - cpu) / len(flat) * 1e3
        p99s = sorted(pct(lats, 99) for lats in per)
        res["b_rate"] = len(flat) / wall
        res["b_p50_ms"] = pct(flat, 50) * 1e3
        res["b_p99_ms"] = pct(flat, 99) * 1e3
        res["b_slowest_ch_p99_ms"] = p99s[-1] * 1e3
        res["b_median_ch_p99_ms"] = statistics.median(p99s) * 1e3

        # (c) reads
        lat = []
        deadline = time.perf_counter() + seconds / 2
        cpu = time.process_time()
        while time.perf_counter() < deadline and len(lat) < 2000:
            lat.append(await drv.say("solo", "p", ".st show" if len(lat) % 2 else ".r 1d20"))
        res["c_cpu_ms"] = (time.process_time() - cpu) / len(lat) * 1e3
        res["c_rate"] = len(lat) / sum(lat)
        res["c_p50_ms"] = pct(lat, 50) * 1e3
        res["c_p99_ms"] = pct(lat, 99) * 1e3
        writer = getattr(engine_core, "writer", None)
        if writer is not None and writer.commits:
            res["per_commit"] = writer.committed / writer.commits

        # (d) statements per command
        for key, text in STATEMENT_PROBES:
            res[key] = await statements_of(engine_core, drv, text)
    finally:
        await engine_core.close()
    return res


STATEMENT_PROBES = (("d_st", ".st 體力-1"), ("d_ap", ".ap spend 移動"),
                    ("d_show", ".st show"), ("d_roll", ".r 1d20"))


async def statements_of(core: Core, drv: Driver, text: str) -> float:
    """SQL statements of one ``text`` (alone in its transaction or batch), averaged over
    a few: every cursor statement, SAVEPOINT/RELEASE/ROLLBACK TO and COMMIT of every
    engine of the core (the writer's savepoints may bypass the cursor events)."""
    seen: list[str] = []

    def statement(_conn, _cursor, sql, *_args) -> None:  # type: ignore[no-untyped-def]
        seen.append(sql)

    def marker(name: str):  # type: ignore[no-untyped-def]
        return lambda *_args: seen.append(name)
    listeners = [("before_cursor_execute", statement), ("savepoint", marker("SAVEPOINT")),
                 ("release_savepoint", marker("RELEASE")),
                 ("rollback_savepoint", marker("ROLLBACK TO")), ("commit", marker("COMMIT"))]
    engines = [core.engine.sync_engine, core.writer.sync_engine]
    for engine in engines:
        for name, fn in listeners:
            event.listen(engine, name, fn)
    try:
        for _ in range(5):
            await drv.say("solo", "p", text)
            await asyncio.sleep(0.01)  # its batch committed before the next
    finally:
        for engine in engines:
            for name, fn in listeners:
                event.remove(engine, name, fn)
    return len(seen) / 5


def bench_raw(path: Path, seconds: float) -> dict[str, float]:
    """What the storage of one `.st 體力-1` costs through stdlib sqlite3."""
    conn = sqlite3.connect(path / "raw.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.executescript("""
        CREATE TABLE processed (platform TEXT, message_id TEXT, at TEXT,
                                PRIMARY KEY (platform, message_id));
        CREATE TABLE sheet (id INTEGER PRIMARY KEY, stats TEXT, version INTEGER);
        CREATE TABLE outbox (id INTEGER PRIMARY KEY, platform TEXT, message TEXT, at TEXT);
        INSERT INTO sheet VALUES (1, '{"體力": 1000000}', 0);
    """)
    n = 0
    hp = 1_000_000

    def one() -> None:
        nonlocal n, hp
        n += 1
        hp -= 1
        conn.execute("SELECT stats, version FROM sheet WHERE id = 1").fetchone()
        conn.execute("UPDATE sheet SET stats = ?, version = version + 1 WHERE id = 1",
                     (json.dumps({"體力": hp}),))
        conn.execute("INSERT INTO outbox (platform, message, at) VALUES ('c', ?, 'now')",
                     (json.dumps({"to": "channel", "text": f"體力 {hp}"}),))
        conn.execute("INSERT INTO processed VALUES ('console', ?, 'now')", (f"m{n}",))

    res: dict[str, float] = {}
    for per_commit in (1, 10, 50):
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            conn.execute("BEGIN")
            for _ in range(per_commit):
                one()
            conn.execute("COMMIT")
            done += per_commit
        res[f"raw{per_commit}_rate"] = done / (time.perf_counter() - start)
    conn.close()
    return res


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=4.0, help="time box per phase")
    parser.add_argument("--dir", default=None, help="where the database files go "
                        "(default: the system's temporary directory)")
    parser.add_argument("--group-commit", dest="group_commit", action="store_true",
                        default=None)
    parser.add_argument("--no-group-commit", dest="group_commit", action="store_false")
    args = parser.parse_args()
    started = time.perf_counter()
    switch = "group_commit" in inspect.signature(Core.open).parameters
    modes = [args.group_commit] if args.group_commit is not None or not switch else [
        False, True]
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        raw = bench_raw(Path(tmp), args.seconds)
        results = []
        for mode in modes:
            (Path(tmp) / str(mode)).mkdir()
            results.append((mode, await bench_core(Path(tmp) / str(mode), args.seconds,
                                                   mode if switch else None)))
    ref1, ref10, ref50 = raw["raw1_rate"], raw["raw10_rate"], raw["raw50_rate"]
    print(f"reference sqlite3: {ref1:8.0f}/s one command per commit, "
          f"{ref10:8.0f}/s 10 per commit, {ref50:8.0f}/s 50 per commit")
    for mode, core in results:
        label = {None: "core", False: "group commit OFF", True: "group commit ON"}[mode]
        print(f"--- {label}")
        report(core, ref1, ref50)
    print(f"total {time.perf_counter() - started:.1f} s")


def report(core: dict[str, float], ref1: float, ref50: float) -> None:
    print(f"(a) one channel, writes:  {core['a_rate']:7.0f}/s  p50 {core['a_p50_ms']:6.1f} ms"
          f"  p99 {core['a_p99_ms']:6.1f} ms   ratio to raw 1/commit {core['a_rate'] / ref1:.3f}"
          f"   CPU {core['a_cpu_ms']:.2f} ms/command")
    print(f"(b) {CHANNELS} channels, writes: {core['b_rate']:7.0f}/s  p50 "
          f"{core['b_p50_ms']:6.1f} ms  p99 {core['b_p99_ms']:6.1f} ms   "
          f"ratio to raw 50/commit {core['b_rate'] / ref50:.3f}   "
          f"CPU {core['b_cpu_ms']:.2f} ms/command (≈ {1e3 / core['b_cpu_ms']:.0f}/s on "
          "one free core)")
    print(f"    slowest channel p99 {core['b_slowest_ch_p99_ms']:.1f} ms, median channel "
          f"p99 {core['b_median_ch_p99_ms']:.1f} ms "
          f"(×{core['b_slowest_ch_p99_ms'] / core['b_median_ch_p99_ms']:.2f})")
    print(f"(c) one channel, reads:   {core['c_rate']:7.0f}/s  p50 {core['c_p50_ms']:6.1f} ms"
          f"  p99 {core['c_p99_ms']:6.1f} ms   CPU {core['c_cpu_ms']:.2f} ms/command")
    if "per_commit" in core:
        print(f"    commands per commit over the whole run: {core['per_commit']:.1f}")
    print("(d) statements per command, alone in its batch: " + ", ".join(
        f"{text} {core[key]:.0f}" for key, text in STATEMENT_PROBES))


if __name__ == "__main__":
    asyncio.run(main())
