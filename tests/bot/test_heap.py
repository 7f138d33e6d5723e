"""Start-up's objects are kept out of the collector's way (bot/heap.py), by the two
ways a bot process starts."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from adapters import runner
from adapters.config import Settings
from bot.heap import freeze_start_up


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()  # the rest of the suite collects as before


def test_start_ups_objects_leave_the_collectors_generations(unfrozen: None) -> None:
    kept = [object(), [1, 2]]
    assert gc.get_freeze_count() == 0
    freeze_start_up()
    assert gc.get_freeze_count() > 0
    assert not any(obj is kept[1] for obj in gc.get_objects())  # out of every generation


async def test_trpgbot_run_freezes_once_the_core_is_open(
        unfrozen: None, monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []

    class FakeCore:
        async def close(self) -> None:
            order.append("close")

    async def open_core(_settings: Any) -> FakeCore:
        order.append("open")
        return FakeCore()

    monkeypatch.setattr(runner.Core, "open", open_core)
    monkeypatch.setattr(runner, "freeze_start_up", lambda: order.append("freeze"))
    monkeypatch.setattr(runner, "enabled_adapters", lambda _settings: {})
    monkeypatch.setattr(runner, "fallback", lambda: None)
    monkeypatch.setenv("TRPGBOT_OPS__ENABLED", "false")  # the endpoint reads a real core
    assert await runner.run(Settings(_env_file=None)) == 0
    assert order == ["open", "freeze", "close"]
