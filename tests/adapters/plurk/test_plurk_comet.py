"""The comet watcher against the fake: -1, -3, errors and reconnects."""

from __future__ import annotations

import asyncio

import pytest

from adapters.plurk.client import PlurkClient
from adapters.plurk.comet import CometBatch, CometWatcher, parse_comet_body
from tests.adapters.plurk.fake_plurk import FakePlurk


def test_parse_comet_body() -> None:
    body = 'CometChannel.scriptCallback({"new_offset": 3, "data": [{"type": "new_plurk"}]});'
    assert parse_comet_body(body) == {"new_offset": 3, "data": [{"type": "new_plurk"}]}
    assert parse_comet_body('  CometChannel.scriptCallback({"new_offset":-1});\n') == {
        "new_offset": -1
    }
    assert parse_comet_body('{"new_offset": -3}') == {"new_offset": -3}
    with pytest.raises(ValueError):
        parse_comet_body("CometChannel.scriptCallback(not json);")
    with pytest.raises(ValueError):
        parse_comet_body("[1, 2]")


def test_backoff_grows_and_caps() -> None:
    backoff = CometWatcher(None, base_delay=2, max_delay=30).backoff  # type: ignore[arg-type]
    assert [backoff.delay(n) for n in range(1, 7)] == [2, 4, 8, 16, 30, 30]


class Recorder:
    """Runs a watcher in the background and keeps every batch."""

    def __init__(self, client: PlurkClient) -> None:
        self.watcher = CometWatcher(client, base_delay=0.01, max_delay=0.05)
        self.batches: list[CometBatch] = []
        self.stop = asyncio.Event()
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        async for batch in self.watcher.batches(self.stop):
            self.batches.append(batch)
            self.changed.set()

    async def wait(self, predicate, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
        async with asyncio.timeout(timeout):
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

    @property
    def gaps(self) -> int:
        return sum(1 for b in self.batches if b.gap)

    def events(self) -> list[dict]:  # type: ignore[type-arg]
        return [e for b in self.batches for e in b.events]

    async def close(self) -> None:
        self.stop.set()
        await asyncio.wait_for(self.task, 2)


async def test_subscribe_yields_a_gap_then_live_events(
    fake: FakePlurk, client: PlurkClient
) -> None:
    fake.add_user(7, "alice")
    rec = Recorder(client)
    await rec.wait(lambda: rec.gaps == 1)
    pid = fake.add_plurk(7, "first")
    fake.add_response(pid, 7, "second")
    await rec.wait(lambda: len(rec.events()) == 2)
    types = [e["type"] for e in rec.events()]
    assert types == ["new_plurk", "new_response"]
    assert rec.events()[1]["response"]["content_raw"] == "second"
    await rec.close()
    assert fake.channel_requests == 1


async def test_minus_one_polls_again_with_same_offset(fake: FakePlurk, client: PlurkClient) -> None:
    fake.add_user(7, "alice")
    rec = Recorder(client)
    await rec.wait(lambda: rec.gaps == 1)
    fake.add_plurk(7, "one")
    await rec.wait(lambda: len(rec.events()) == 1)
    fake.script_comet({"new_offset": -1}, {"new_offset": -1})
    fake.add_plurk(7, "two")
    await rec.wait(lambda: len(rec.events()) == 2)
    assert [e["content_raw"] for e in rec.events()] == ["one", "two"]  # nothing repeated
    assert fake.channel_requests == 1 and rec.gaps == 1
    await rec.close()


async def test_minus_three_resyncs_and_reports_a_gap(fake: FakePlurk, client: PlurkClient) -> None:
    rec = Recorder(client)
    await rec.wait(lambda: rec.gaps == 1)
    fake.script_comet({"new_offset": -3})
    await rec.wait(lambda: rec.gaps == 2)
    assert fake.channel_requests == 2
    await rec.close()


async def test_errors_reconnect_with_backoff_and_report_a_gap(
    fake: FakePlurk, client: PlurkClient
) -> None:
    rec = Recorder(client)
    await rec.wait(lambda: rec.gaps == 1)
    fake.script_comet(500)
    fake.fail_next("Realtime/getUserChannel", 502, "bad gateway", times=2)
    await rec.wait(lambda: rec.gaps == 2)
    assert fake.calls.count("Realtime/getUserChannel") == 4  # 1 + 2 failed + 1 ok
    fake.comet_script.append({"not": "a comet answer"})  # treated as -1
    fake.add_user(7, "alice")
    fake.add_plurk(7, "after trouble")
    await rec.wait(lambda: len(rec.events()) == 1)
    await rec.close()


async def test_garbage_body_reconnects(fake: FakePlurk, client: PlurkClient) -> None:
    rec = Recorder(client)
    await rec.wait(lambda: rec.gaps == 1)
    fake.comet_script.append({"new_offset": "x"})  # unknown offset: poll again
    await asyncio.sleep(0.05)
    assert rec.gaps == 1
    await rec.close()


async def test_stop_interrupts_a_long_poll(client: PlurkClient, fake: FakePlurk) -> None:
    fake.comet_hold = 30
    rec = Recorder(client)
    await rec.wait(lambda: rec.gaps == 1)
    await asyncio.sleep(0.05)  # now inside the held poll
    await rec.close()  # returns within 2 s, not 30


async def test_the_first_poll_that_works_after_an_outage_is_a_gap_with_its_events(
    fake: FakePlurk, client: PlurkClient
) -> None:
    """Subscribing during an outage is not enough: what was said while the feed was down
    is read when a poll works again (backfill.py), before that poll's events."""
    rec = Recorder(client)
    await rec.wait(lambda: rec.gaps == 1)
    fake.add_user(7, "alice")
    fake.add_plurk(7, "steady")
    await rec.wait(lambda: len(rec.events()) == 1)
    assert rec.gaps == 1  # a poll that works after one that worked: no gap
    fake.comet_outage()
    await rec.wait(lambda: fake.channel_requests >= 3)  # resubscribing, each a gap
    fake.comet_outage(False)
    fake.add_plurk(7, "back")
    await rec.wait(lambda: len(rec.events()) == 2)
    [back] = [b for b in rec.batches if b.events and b.events[0]["content_raw"] == "back"]
    assert back.gap
    await rec.close()
