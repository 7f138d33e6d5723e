"""DEBUG logs hold no secret: the console's path (the core alone, no adapter
sets logging up), on SQLite (aiosqlite) and PostgreSQL (asyncpg)."""

from __future__ import annotations

import pytest

from adapters.config import Settings
from bot.core import Core
from tests.adapters.debug_logs import (
    HIDDEN_DIE,
    SECRET_DIE,
    assert_no_secret_logged,
    first_start,
    open_every_log,
    stored_checks,
)
from tests.support import Table, strict_dice


async def test_debug_logs_hold_no_secret_on_console(
    any_settings: Settings, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_every_log(caplog, monkeypatch)
    first_start(any_settings)
    core = await Core.open(any_settings, dice=strict_dice([]))
    try:
        table = Table(core)
        await table.text("gm", ".gm")
        await table.text("alice", ".pc new 艾莉絲")
        await table.text("alice", ".st 觀察 5")
        hidden = await table.say("alice", ".rah 觀察", dice=[HIDDEN_DIE])
        secret = await table.say("gm", ".secret 艾莉絲 觀察", dice=[SECRET_DIE])
        private = [o for o in hidden + secret if o.to == "private"]
        assert [o.user for o in private] == ["alice", "gm", "gm"]
        assert all(o.secret for o in private)
        # the console cannot fail a delivery: tell the core that the GM's copy failed
        failed = await core.private_delivery_failed("console", private[-1])
        assert failed and all(f"1d20={SECRET_DIE}" not in o.text for o in failed)
        pending = await table.say("gm", ".gm pending")
        kept = [o.text for o in pending if o.to == "private"]
        assert kept == [private[-1].text]
        stored = await stored_checks(core)
    finally:
        await core.close()
    tokens = []
    url = core.engine.url
    if url.password:
        tokens.append(str(url.password))
    assert_no_secret_logged(caplog, secrets=[o.text for o in private] + kept, stored=stored,
                            tokens=tokens)
