"""The whole adapter: fake Plurk + a real Core on a temporary SQLite database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from pydantic import SecretStr

from adapters.config import Settings
from adapters.plurk import serve
from adapters.plurk.errors import PlurkError
from adapters.plurk.settings import PlurkSettings
from adapters.plurk.text import neutralise
from bot.core import Core
from bot.messages import Incoming
from rules.dice.source import DiceSource, ScriptedSource
from tests.adapters.plurk.fake_plurk import (
    ACCESS_SECRET,
    ACCESS_TOKEN,
    APP_KEY,
    APP_SECRET,
    BOT_ID,
    MARKUP_TAGS,
    FakePlurk,
    render,
)
from tests.support import NoMoreDice, strict_dice

GM, ALICE, BOB = 10, 11, 12


def plurk_settings(fake: FakePlurk, **overrides: object) -> PlurkSettings:
    values: dict[str, object] = {
        "enabled": True,
        "app_key": SecretStr(APP_KEY),
        "app_secret": SecretStr(APP_SECRET),
        "token": SecretStr(ACCESS_TOKEN),
        "token_secret": SecretStr(ACCESS_SECRET),
        "base_url": fake.base_url,
        "comet_timeout": 5,
        "request_timeout": 5,
        "reconnect_base_delay": 0.01,
        "reconnect_max_delay": 0.05,
        "anti_flood_base_delay": 0.02,
        "anti_flood_max_delay": 0.05,
        "retry_base_delay": 0.01,
        "min_post_interval": 0,
        "friends_interval": 0.05,
        "catch_up_interval": 0,
        "shutdown_grace": 2,
    }
    values.update(overrides)
    return PlurkSettings(**values)  # type: ignore[arg-type]


async def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


class Bot:
    """A Core on the test database plus the Plurk adapter, as `trpgbot run` starts them."""

    def __init__(self, fake: FakePlurk, settings: Settings, dice: DiceSource | None = None):
        self.fake = fake
        self.settings = settings
        self.dice = dice
        self.core: Core | None = None
        self.stop = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> Bot:
        histories = self.fake.calls.count("Alerts/getHistory")
        self.core = await Core.open(self.settings, dice=self.dice)
        self.task = asyncio.create_task(serve(self.core, self.settings, self.stop))
        await wait_until(lambda: self.fake.calls.count("Alerts/getHistory") > histories)
        await self.settle()
        return self

    async def settle(self) -> None:
        """Let the listener finish what it is doing and poll the feed again."""
        polls = self.fake.comet_polls
        await wait_until(lambda: self.fake.comet_polls >= polls + 2)
        await asyncio.sleep(0.05)  # and the outbox send what it queued

    async def resync(self) -> None:
        histories = self.fake.calls.count("Alerts/getHistory")
        self.fake.script_comet({"new_offset": -3})
        await wait_until(lambda: self.fake.calls.count("Alerts/getHistory") > histories)
        await self.settle()

    async def close(self) -> None:
        self.stop.set()
        if self.task is not None:
            await asyncio.wait_for(self.task, 5)
        if self.core is not None:
            await self.core.close()


@pytest.fixture
def settings(tmp_path: Path, fake: FakePlurk) -> Settings:
    fake.add_user(GM, "keeper", "Keeper")
    fake.add_user(ALICE, "alice", "Alice")
    fake.add_user(BOB, "bob", "Bob")
    return Settings(_env_file=None, data_dir=tmp_path, plurk=plurk_settings(fake))


@pytest.fixture
async def bot(fake: FakePlurk, settings: Settings) -> AsyncIterator[Bot]:
    running = await Bot(fake, settings).start()
    yield running
    await running.close()


async def test_a_mention_is_answered_once(fake: FakePlurk, bot: Bot) -> None:
    pid = fake.add_plurk(ALICE, "tonight's game")
    fake.add_response(pid, ALICE, "@dicebot .gm")
    await fake.wait_for_posts(1)
    assert "成為本頻道的 GM" in fake.posts_in(pid)[0]
    fake.add_response(pid, BOB, "hey @dicebot .gm")  # mention inside a sentence
    fake.add_response(pid, BOB, "@dicebot2 .gm")  # someone else
    fake.add_response(pid, BOT_ID, "@dicebot .gm")  # the bot itself
    await bot.settle()
    await bot.resync()  # catch-up sees the same mentions in Alerts/getHistory
    assert len(fake.posts) == 1
    assert fake.channel_requests == 2


async def test_a_plurk_that_starts_with_the_mention_is_a_command(fake: FakePlurk, bot: Bot) -> None:
    pid = fake.add_plurk(ALICE, "@DiceBot: .gm")
    await fake.wait_for_posts(1)
    assert fake.posts[0].plurk_id == pid
    assert "Alice" in fake.posts[0].content


async def test_restart_neither_answers_twice_nor_misses_what_came_while_down(
    fake: FakePlurk, settings: Settings
) -> None:
    first = await Bot(fake, settings).start()
    pid = fake.add_plurk(ALICE, "thread")
    fake.add_response(pid, ALICE, "@dicebot .gm")
    await fake.wait_for_posts(1)
    await first.close()

    fake.add_response(pid, BOB, "@dicebot .gm list")  # posted while the bot is down

    second = await Bot(fake, settings).start()
    try:
        await fake.wait_for_posts(2)
        await second.settle()
        texts = fake.posts_in(pid)
        assert len(texts) == 2
        assert "Alice" in texts[1]  # the GM list, from the same database
    finally:
        await second.close()


async def test_resync_catches_a_mention_the_feed_missed(fake: FakePlurk, bot: Bot) -> None:
    pid = fake.add_plurk(ALICE, "thread")
    fake.add_response(pid, ALICE, "@dicebot .gm", live=False)  # never reaches the feed
    await bot.settle()
    assert fake.posts == []
    await bot.resync()
    assert len(fake.posts_in(pid)) == 1


async def test_reconnect_after_feed_errors_catches_up(fake: FakePlurk, bot: Bot) -> None:
    pid = fake.add_plurk(ALICE, "thread")
    histories = fake.calls.count("Alerts/getHistory")
    fake.add_response(pid, ALICE, "@dicebot .gm", live=False)
    fake.script_comet(500, 502)
    await wait_until(lambda: fake.calls.count("Alerts/getHistory") > histories)
    await fake.wait_for_posts(1)
    assert fake.channel_requests >= 2


async def test_anti_flood_then_success(fake: FakePlurk, bot: Bot) -> None:
    pid = fake.add_plurk(ALICE, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new", times=2)
    fake.add_response(pid, ALICE, "@dicebot .gm")
    await fake.wait_for_posts(1)
    assert fake.calls.count("Responses/responseAdd") == 3
    assert len(fake.posts_in(pid)) == 1


async def test_listening_goes_on_during_a_flood_wait(fake: FakePlurk, settings: Settings) -> None:
    settings.plurk.anti_flood_base_delay = settings.plurk.anti_flood_max_delay = 0.3
    bot = await Bot(fake, settings).start()
    try:
        pid = fake.add_plurk(ALICE, "thread")
        fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new", times=1)
        fake.add_response(pid, ALICE, "@dicebot .gm")
        await fake.wait_for_calls("Responses/responseAdd")
        polls = fake.comet_polls
        await wait_until(lambda: fake.comet_polls > polls + 1, timeout=0.25)
        await fake.wait_for_posts(1)
    finally:
        await bot.close()


async def test_periodic_catch_up_finds_what_the_feed_never_sent(
    fake: FakePlurk, settings: Settings
) -> None:
    settings.plurk.catch_up_interval = 0.05
    bot = await Bot(fake, settings).start()
    try:
        pid = fake.add_plurk(ALICE, "thread")
        fake.add_response(pid, ALICE, "@dicebot .gm", live=False)
        await fake.wait_for_posts(1)
        assert fake.channel_requests == 1  # no resync was needed
    finally:
        await bot.close()


async def test_a_reply_cut_off_by_a_stop_is_sent_after_the_restart(
    fake: FakePlurk, settings: Settings
) -> None:
    """Flood control makes the reply wait minutes; the bot is stopped meanwhile. The
    command is already recorded as answered, so the reply must survive the restart."""
    settings.plurk.anti_flood_base_delay = settings.plurk.anti_flood_max_delay = 60
    settings.plurk.shutdown_grace = 0.1
    bot = await Bot(fake, settings).start()
    pid = fake.add_plurk(ALICE, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new")
    fake.add_response(pid, ALICE, "@dicebot .gm")
    await fake.wait_for_calls("Responses/responseAdd")
    started = time.monotonic()
    await bot.close()
    assert time.monotonic() - started < 2  # the stop is prompt
    assert fake.posts == []
    settings.plurk.anti_flood_base_delay = settings.plurk.anti_flood_max_delay = 0.01
    again = await Bot(fake, settings).start()
    try:
        await fake.wait_for_posts(1)
        await again.settle()
        assert len(fake.posts_in(pid)) == 1 and "GM" in fake.posts_in(pid)[0]
    finally:
        await again.close()


async def test_long_reply_is_split_in_order(fake: FakePlurk, bot: Bot) -> None:
    assert bot.core is not None
    pid = fake.add_plurk(ALICE, "thread")
    fake.add_response(pid, ALICE, "@dicebot .help all")
    outs = await bot.core.handle(Incoming("plurk", "elsewhere", "x", ".help all"))
    expected = "".join(out.text for out in outs)
    assert len(expected) > 360
    await fake.wait_for_posts(2)
    await bot.settle()
    parts = fake.posts_in(pid)
    assert len(parts) >= 2 and all(0 < len(p) <= 360 for p in parts)
    squeeze = "".join("".join(p.split()) for p in parts)
    assert squeeze == "".join(neutralise(expected).split())


async def test_private_to_a_non_friend_tells_the_thread_and_is_kept(
    fake: FakePlurk, bot: Bot
) -> None:
    pid = fake.add_plurk(ALICE, "thread")
    fake.add_response(pid, ALICE, "@dicebot .gm pending")  # answers privately
    await fake.wait_for_posts(1)
    notice = fake.posts_in(pid)[0]
    assert "Alice" in notice or str(ALICE) in notice
    assert fake.private_posts() == []
    kept = "沒有待補送給你的私訊"
    assert kept not in notice
    # Alice befriends the bot; the periodic addAllAsFriends accepts her
    fake.friend_requests.add(ALICE)
    await wait_until(lambda: ALICE in fake.friends)
    fake.add_response(pid, ALICE, "@dicebot .gm pending")
    await wait_until(lambda: len(fake.private_posts()) >= 1)
    private = fake.private_posts()[0]
    assert private.limited_to == [ALICE] and kept in private.content
    assert all(kept not in text for text in fake.posts_in(pid))


async def test_unreadable_emoticon_die_is_reported_not_rolled(
    fake: FakePlurk, settings: Settings
) -> None:
    bot = await Bot(fake, settings, dice=NoMoreDice()).start()
    try:
        pid = fake.add_plurk(ALICE, "thread")
        raw = "@dicebot .r (dice20)+3"
        fake.add_response(pid, ALICE, raw, render(raw, []))  # no rndnum attribute
        await fake.wait_for_posts(1)
        assert "（dice20）" in fake.posts_in(pid)[0]
        await bot.resync()
        assert len(fake.posts) == 1
    finally:
        await bot.close()
    again = await Bot(fake, settings, dice=NoMoreDice()).start()  # catch-up sees it again
    try:
        await again.settle()
        assert len(fake.posts) == 1
    finally:
        await again.close()


async def test_thread_bound_to_a_campaign_shares_the_table(
    fake: FakePlurk, settings: Settings
) -> None:
    first = fake.add_plurk(GM, "session 1")
    second = fake.add_plurk(GM, "session 2")
    bot = await Bot(fake, settings).start()
    try:
        fake.add_response(first, GM, "@dicebot .gm")
        fake.add_response(first, GM, "@dicebot .campaign bind dragon")
        await fake.wait_for_posts(2)
        fake.add_response(second, GM, "@dicebot .campaign bind dragon")
        await fake.wait_for_posts(3)
        fake.add_response(second, ALICE, "@dicebot .gm list")
        await fake.wait_for_posts(4)
        assert "Keeper" in fake.posts_in(second)[1]  # same table: the GM claimed in thread 1
        assert len(fake.posts_in(first)) == 2
    finally:
        await bot.close()


async def test_gm_adds_another_gm_by_plurk_mention(fake: FakePlurk, bot: Bot) -> None:
    pid = fake.add_plurk(GM, "thread")
    fake.add_response(pid, GM, "@dicebot .gm")
    await fake.wait_for_posts(1)
    fake.add_response(pid, GM, "@dicebot .gm add @Bob")  # Bob is not in any cache yet
    await fake.wait_for_posts(2)
    assert "Profile/getPublicProfile" in fake.calls
    fake.add_response(pid, BOB, "@dicebot .gm add @alice")  # only a GM may do this
    await fake.wait_for_posts(3)
    assert "只有本頻道的 GM" not in fake.posts_in(pid)[2]
    assert str(ALICE) in fake.posts_in(pid)[2]


async def test_anonymous_poster_is_a_per_thread_handle(fake: FakePlurk, bot: Bot) -> None:
    pid = fake.add_plurk(ALICE, "anonymous thread")
    fake.add_response(pid, 99999, "@dicebot .gm", handle="happy_cat")
    await fake.wait_for_posts(1)
    assert "happy_cat" in fake.posts_in(pid)[0]


async def test_bad_keys_stop_the_adapter(fake: FakePlurk, tmp_path: Path) -> None:
    settings = Settings(
        _env_file=None,
        data_dir=tmp_path,
        plurk=plurk_settings(fake, token_secret=SecretStr("wrong-secret")),
    )
    core = await Core.open(settings)
    try:
        with pytest.raises(PlurkError) as info:
            await asyncio.wait_for(serve(core, settings, asyncio.Event()), 5)
        assert info.value.status == 400 and info.value.is_fatal
    finally:
        await core.close()


async def test_gm_secret_roll_goes_privately_to_the_gm(fake: FakePlurk, settings: Settings) -> None:
    fake.friends |= {GM, ALICE}
    bot = await Bot(fake, settings, dice=strict_dice([17])).start()
    try:
        assert bot.core is not None
        pid = fake.add_plurk(GM, "thread")
        fake.add_response(pid, GM, "@dicebot .gm")
        await fake.wait_for_posts(1)
        fake.add_response(pid, ALICE, "@dicebot .rh 1d20")
        await wait_until(lambda: len(fake.private_posts()) == 2)
        await bot.settle()
        privates = {tuple(p.limited_to or []): p.content for p in fake.private_posts()}
        assert set(privates) == {(GM,), (ALICE,)}
        assert "17" in privates[(GM,)]
        thread = fake.posts_in(pid)
        assert len(thread) == 2  # the claim and the announcement
        assert all("17" not in text for text in thread)
    finally:
        await bot.close()


async def test_secret_for_a_gm_who_is_no_friend_waits_for_gm_pending(
    fake: FakePlurk, settings: Settings
) -> None:
    fake.friends |= {ALICE}  # the GM has not befriended the bot yet
    bot = await Bot(fake, settings, dice=strict_dice([17])).start()
    try:
        pid = fake.add_plurk(GM, "thread")
        fake.add_response(pid, GM, "@dicebot .gm")
        await fake.wait_for_posts(1)
        fake.add_response(pid, ALICE, "@dicebot .rh 1d20")
        await wait_until(lambda: len(fake.posts_in(pid)) == 3)  # claim, announcement, notice
        await bot.settle()
        assert all("17" not in text for text in fake.posts_in(pid))
        assert [p.limited_to for p in fake.private_posts()] == [[ALICE]]
        fake.friend_requests.add(GM)
        await wait_until(lambda: GM in fake.friends)
        fake.add_response(pid, GM, "@dicebot .gm pending")
        await wait_until(lambda: len(fake.private_posts()) == 2)
        assert fake.private_posts()[1].limited_to == [GM]
        assert "17" in fake.private_posts()[1].content
        await bot.settle()
        assert all("17" not in text for text in fake.posts_in(pid))
    finally:
        await bot.close()


async def test_emoticon_die_value_is_the_roll(fake: FakePlurk, settings: Settings) -> None:
    bot = await Bot(fake, settings, dice=NoMoreDice()).start()
    try:
        assert bot.core is not None
        pid = fake.add_plurk(ALICE, "thread")
        raw = "@dicebot .r (dice20)+3"
        fake.add_response(pid, ALICE, raw, render(raw, [13]))
        await fake.wait_for_posts(1)
        reply = fake.posts_in(pid)[0]
        assert "16" in reply and "13" in reply
    finally:
        await bot.close()


async def test_bad_key_is_fatal_with_an_operator_readable_line(
    fake: FakePlurk, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(
        _env_file=None,
        data_dir=tmp_path,
        plurk=plurk_settings(fake, app_secret=SecretStr("not-the-app-secret")),
    )
    core = await Core.open(settings)
    try:
        with pytest.raises(PlurkError) as info:
            await asyncio.wait_for(serve(core, settings, asyncio.Event()), 5)
    finally:
        await core.close()
    assert (info.value.status, info.value.error_text) == (400, "40104:incorrect signature")
    line = "Plurk refused the app key or access token (40104:incorrect signature)"
    assert line in str(info.value) and line in caplog.text
    assert "TRPGBOT_PLURK__" in caplog.text and "clock" in caplog.text
    assert "not-the-app-secret" not in caplog.text and APP_SECRET not in caplog.text
    assert fake.calls == []  # the first call failed; nothing was retried


async def test_a_post_refused_for_bad_keys_stops_the_adapter(
    fake: FakePlurk, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await Bot(fake, settings).start()
    try:
        pid = fake.add_plurk(ALICE, "thread")
        fake.fail_next("Responses/responseAdd", 400, "40104:incorrect signature")
        fake.add_response(pid, ALICE, "@dicebot .gm")
        assert bot.task is not None
        with pytest.raises(PlurkError) as info:
            await asyncio.wait_for(bot.task, 5)
        assert info.value.is_fatal
        assert "check TRPGBOT_PLURK__" in caplog.text
        assert fake.calls.count("Responses/responseAdd") == 1  # never retried
    finally:
        bot.task = None
        await bot.close()


async def test_flood_in_one_thread_never_blocks_another(
    fake: FakePlurk, settings: Settings
) -> None:
    settings.plurk.anti_flood_base_delay = settings.plurk.anti_flood_max_delay = 0.6
    bot = await Bot(fake, settings).start()
    try:
        flooded, other = fake.add_plurk(ALICE, "one"), fake.add_plurk(BOB, "two")
        fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new")
        fake.add_response(flooded, ALICE, "@dicebot .gm")
        await fake.wait_for_calls("Responses/responseAdd")
        fake.add_response(other, BOB, "@dicebot .gm")
        await fake.wait_for_posts(1, timeout=0.5)  # before the 0.6 s wait is over
        assert fake.posts[0].plurk_id == other
        await fake.wait_for_posts(2)
        assert len(fake.posts_in(flooded)) == 1
    finally:
        await bot.close()


async def test_refused_reply_is_reported_dropped_and_not_resent(
    fake: FakePlurk, settings: Settings
) -> None:
    bot = await Bot(fake, settings).start()
    pid = fake.add_plurk(ALICE, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-spam-domain")
    fake.add_response(pid, ALICE, "@dicebot .gm")
    await fake.wait_for_posts(1)
    notice = fake.posts_in(pid)[0]
    assert "噗浪拒絕" in notice and "GM" not in notice
    fake.add_response(pid, BOB, "@dicebot .gm list")  # the thread is not blocked
    await fake.wait_for_posts(2)
    await bot.close()
    again = await Bot(fake, settings).start()  # nothing left to resend
    try:
        await again.settle()
        assert len(fake.posts) == 2
        assert again.core is not None and await again.core.undelivered("plurk") == []
    finally:
        await again.close()


async def test_echoed_player_text_posts_no_link_mention_or_markup(
    fake: FakePlurk, bot: Bot
) -> None:
    fake.blocked_domains.add("evil.example")  # a link there would be anti-flood-spam-domain
    pid = fake.add_plurk(ALICE, "thread")
    fake.add_response(
        pid, ALICE, "@dicebot .r 1d20 **win** *now* __u__ http://evil.example (gift) @bob"
    )
    await fake.wait_for_posts(1)
    await bot.settle()
    (reply,) = fake.posts_in(pid)
    (shown,) = fake.rendered_in(pid)
    assert "win" in reply and "evil" in reply
    assert not any(tag in shown for tag in MARKUP_TAGS), shown
    assert "@" not in reply and "://" not in reply and "**" not in reply


async def test_the_player_whose_turn_it_is_gets_a_real_at_nick(
    fake: FakePlurk, settings: Settings
) -> None:
    """Issue 12, item 7: the turn announcement starts with the one unescaped ``@nick``
    of the next investigator's player (Plurk notifies them); echoed text stays escaped."""
    bot = await Bot(fake, settings, dice=ScriptedSource([15])).start()
    try:
        pid = fake.add_plurk(GM, "battle")
        for user, line in ((GM, ".gm"), (ALICE, ".st 靈巧 2 體力 8"), (ALICE, ".battle join"),
                           (GM, ".battle start")):
            before = len(fake.posts_in(pid))
            fake.add_response(pid, user, f"@dicebot {line}")
            await fake.wait_for_posts(before + 1)
            await bot.settle()
        start = fake.posts_in(pid)[-1]
        assert start.startswith("@alice ")  # the announcement is for alice
        assert start.count("@") == 1
        assert "@" not in "".join(fake.posts_in(pid)[:-1])  # only the turn notice
    finally:
        await bot.close()
