"""Issue 22, items 2 and 7: every count of a log the channel reads is the players'
copy's — the stored total holds the private lines, and players could count the
secrets by it — and at a table without GMs `.log export` does not speak of a GM's
copy that nobody gets."""

from __future__ import annotations

import re

import pytest

from bot.messages import Outgoing
from tests.support import Table


def public(outs: list[Outgoing]) -> list[str]:
    return [o.text for o in outs if o.to == "channel"]


def files(outs: list[Outgoing]) -> dict[str, str]:
    return {o.attachment.filename: o.attachment.data.decode("utf-8")
            for o in outs if o.attachment is not None}


def file_lines(text: str) -> int:
    """The line count a Markdown copy states in its summary (any language)."""
    found = re.search(r"(\d+)", text.split("\n")[2])
    assert found is not None, text
    return int(found.group(1))


async def test_the_channel_is_told_the_players_copy_s_count(table: Table) -> None:
    """`.log list`, `.log off`, `.log on` and `.log export` count the lines of the
    players' copy: a hidden roll adds its announcement to it, its two private lines
    (bob's, the GM's) to no count the channel reads."""
    await table.text("gm", ".gm")
    await table.text("gm", ".log on night")  # its line and reply: 2
    await table.say("alice", "hello")  # 3
    await table.say("bob", ".rh 1d100", dice=[42])  # 5, with bob's and gm's private lines
    assert await table.text("gm", ".log list") == "這張桌子的日誌：\n• night：5 行 （記錄中）"
    assert await table.text("gm", ".log off") == (  # 7: `.log list` and its reply
        "📜 日誌「night」已暫停，共 7 行。.log export 取得檔案。")
    assert await table.text("gm", ".log on night") == (  # not recorded while paused
        "📜 開始記錄日誌「night」（目前 7 行）。.log off 暫停。")
    outs = await table.say("gm", ".log export night md")  # 9: `.log on` and its reply
    assert public(outs) == ["📜 日誌「night」（9 行）。暗骰結果只在 GM 版裡。"]
    copies = files(outs)
    assert (file_lines(copies["night.md"]), file_lines(copies["night-gm.md"])) == (9, 10)
    [channel] = [o for o in outs if o.to == "channel"]
    assert channel.data == {"kind": "log_export", "name": "night", "lines": 9,
                            "gm_copies": 1}




NO_GM_EXPORT = {
    "zh-Hant": "📜 日誌「night」（4 行）。暗骰結果不在其中；這張桌子沒有 GM，也就沒有 GM 版。",
    "zh-Hans": "📜 日志「night」（4 行）。暗骰结果不在其中；这张桌子没有 GM，也就没有 GM 版。",
    "en": "📜 Log “night” (4 lines). Secret results are not in it; this table has no GM, "
          "so there is no GM's copy.",
}


@pytest.mark.parametrize("locale", sorted(NO_GM_EXPORT))
async def test_at_a_table_without_gms_an_export_promises_no_gm_copy(
        table: Table, locale: str) -> None:
    """Not "secret results are only in the GMs' copy": there is none."""
    await table.text("bob", f".lang {locale}")
    await table.text("bob", ".log on night")  # its line and reply: 2
    await table.say("bob", ".rh 1d100", dice=[42])  # 4, and bob's private line
    outs = await table.say("bob", ".log export night md")
    assert public(outs) == [NO_GM_EXPORT[locale]]
    assert list(files(outs)) == ["night.md"]
    assert file_lines(files(outs)["night.md"]) == 4
    [channel] = [o for o in outs if o.to == "channel"]
    assert channel.data == {"kind": "log_export", "name": "night", "lines": 4,
                            "gm_copies": 0}
