"""DEBUG logs hold no secret on Plurk: the adapter (``serve``) with a real
Core against the fake Plurk HTTP server (tests/adapters/plurk/fake_plurk.py), which
refuses a private plurk to a user who is not the bot's friend ("Must be friends")."""

from __future__ import annotations

import pytest

from adapters.config import Settings
from tests.adapters.debug_logs import (
    HIDDEN_DIE,
    SECRET_DIE,
    assert_no_secret_logged,
    open_every_log,
    stored_checks,
)
from tests.adapters.plurk.fake_plurk import (
    ACCESS_SECRET,
    ACCESS_TOKEN,
    APP_SECRET,
    FakePlurk,
)
from tests.adapters.plurk.test_plurk_listener import (
    ALICE,
    GM,
    Bot,
    wait_until,
)
from tests.adapters.plurk.test_plurk_listener import (
    settings as settings,  # the fixture: the fake's users and keys
)
from tests.support import strict_dice

pytestmark = pytest.mark.timeout(60)


async def test_debug_logs_hold_no_secret_on_plurk(
    fake: FakePlurk, settings: Settings, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    open_every_log(caplog, monkeypatch)
    fake.friends |= {ALICE}  # the GM has not befriended the bot yet
    dice = strict_dice([HIDDEN_DIE, SECRET_DIE])
    bot = await Bot(fake, settings, dice=dice).start()
    try:
        assert bot.core is not None
        pid = fake.add_plurk(GM, "thread")

        async def say(user: int, text: str, thread_posts: int) -> None:
            fake.add_response(pid, user, f"@dicebot {text}")
            await wait_until(lambda: len(fake.posts_in(pid)) >= thread_posts)
            await bot.settle()

        await say(GM, ".gm", 1)
        await say(ALICE, ".pc new 艾莉絲", 2)
        await say(ALICE, ".st 觀察 5", 3)
        await say(ALICE, ".rah 觀察", 5)  # the announcement, the GM's copy kept: a notice
        await say(GM, ".secret 艾莉絲 觀察", 7)  # the announcement, a notice
        assert [p.limited_to for p in fake.private_posts()] == [[ALICE]]
        fake.friend_requests.add(GM)
        await wait_until(lambda: GM in fake.friends)
        await say(GM, ".gm pending", 8)
        await wait_until(lambda: len(fake.private_posts()) == 3)
        stored = await stored_checks(bot.core)
    finally:
        await bot.close()
    kept = [p.content for p in fake.private_posts() if p.limited_to == [GM]]
    assert any(f"1d20={HIDDEN_DIE}" in text for text in kept)
    assert any(f"1d20={SECRET_DIE}" in text for text in kept)
    assert not any(f"1d20={die}" in text for text in fake.posts_in(pid)
                   for die in (HIDDEN_DIE, SECRET_DIE))
    assert_no_secret_logged(caplog, secrets=[p.content for p in fake.private_posts()],
                            stored=stored,
                            tokens=[APP_SECRET, ACCESS_TOKEN, ACCESS_SECRET, "oauth_signature"])
