"""Issue 24 on Plurk: a post carries no file, and a link in it is not fetched — a command
reaches the core saying so (``Incoming.uploads == "none"``), so that a command that
reads a file (`.js deck file`) can point at pasting its text instead of asking for an
attachment Plurk cannot carry (``platform.uploads.how.none``)."""

from __future__ import annotations

from pathlib import Path

from adapters.config import Settings
from bot.i18n import Catalog
from tests.adapters.plurk.fake_plurk import FakePlurk
from tests.adapters.plurk.test_plurk_chatter import RecordingCore, listener, response
from tests.adapters.plurk.test_plurk_listener import ALICE, GM, Bot, plurk_settings

LINK = "https://files.example/deck.json"


async def test_a_command_reaches_the_core_with_no_file_and_no_link_fetched(
        fake: FakePlurk) -> None:
    core = RecordingCore()
    plurk = listener(fake, core)
    await plurk.handle_response(1, response(2, ALICE, f"@dicebot .js deck file {LINK}"))
    [incoming] = core.seen
    assert (incoming.text, incoming.attachment, incoming.uploads) == (
        f".js deck file {LINK}", None, "none")
    assert fake.calls == []  # nothing asked of Plurk, nor of the link's host


def test_the_pointer_says_paste_in_every_language() -> None:
    catalog = Catalog()
    for locale, words in (("en", "paste the file's text"), ("zh-Hant", "貼上檔案的內容"),
                          ("zh-Hans", "粘贴文件的内容")):
        text = catalog.text(locale, "platform.uploads.how.none")
        assert words in text and ".js deck add <JSON>" in text


async def test_js_deck_file_on_plurk_points_at_pasting(fake: FakePlurk, tmp_path: Path) -> None:
    fake.add_user(GM, "keeper", "Keeper")
    bot = await Bot(fake, Settings(_env_file=None, data_dir=tmp_path,
                                   plurk=plurk_settings(fake))).start()
    try:
        pid = fake.add_plurk(GM, "劍手")
        for line in (".gm", ".system jianshou", ".js deck file"):
            fake.add_response(pid, GM, f"@dicebot {line}")
        await fake.wait_for_posts(3)
        assert "請改貼上檔案的內容" in fake.posts_in(pid)[2]
    finally:
        await bot.close()
