"""Fixtures: a running fake Plurk and a client signed with the fake's keys."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from adapters.plurk.client import PlurkClient
from tests.adapters.plurk.fake_plurk import CREDENTIALS, FakePlurk


@pytest.fixture
async def fake() -> AsyncIterator[FakePlurk]:
    async with FakePlurk() as server:
        yield server


@pytest.fixture
async def client(fake: FakePlurk) -> AsyncIterator[PlurkClient]:
    async with PlurkClient(CREDENTIALS, base_url=fake.base_url, comet_timeout=5) as plurk:
        yield plurk
