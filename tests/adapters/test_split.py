"""One text splitter (adapters/split.py) with each platform's length, limit and cuts:
the exact boundaries of Discord (2,000 UTF-16 units), QQ (3,000 characters) and Plurk
(360 UTF-16 units per response, less the sender's reserve)."""

from __future__ import annotations

import pytest

from adapters.discord.convert import message_pieces
from adapters.onebot.convert import split_text
from adapters.onebot.settings import OneBotSettings
from adapters.plurk.sender import SAME_CONTENT_MARKER, PlurkSender
from adapters.plurk.text import split_reply
from adapters.split import at_line_break, fit, split, utf16_length

EMOJI = "😀"  # outside the BMP: two UTF-16 units, one character


def test_the_splitter_takes_any_length_function() -> None:
    def in_bytes(text: str) -> int:
        return len(text.encode("utf-8"))

    assert split("ab字cd", 4, length=in_bytes) == ["ab", "字c", "d"]
    assert fit("ab字cd", 4, in_bytes) == 2 and fit("ab字cd", 5, in_bytes) == 3
    assert split("abc\ndef", 3) == ["abc", "def"]  # a line break just past the window
    assert at_line_break("abc\ndef", 3) == (3, 4) and at_line_break("abcdef", 3) == (3, 3)
    assert split(" \n \n", 1) == []  # nothing blank is sent
    assert utf16_length(EMOJI) == 2 and utf16_length("字") == 1


@pytest.mark.parametrize(("text", "sizes"), [
    ("a" * 2000, [2000]),
    ("a" * 2001, [2000, 1]),
    ("a" * 1998 + EMOJI, [2000]),
    ("a" * 1999 + EMOJI, [1999, 2]),  # the emoji counts two: it does not fit
])
def test_discord_counts_utf16_units_up_to_2000(text: str, sizes: list[int]) -> None:
    assert [utf16_length(piece) for piece in message_pieces(text)] == sizes


def test_a_discord_code_block_keeps_room_for_its_fences() -> None:
    [first, second] = message_pieces("a" * 1993, block=True)
    assert (len(first), len(second)) == (2000, 9)


@pytest.mark.parametrize(("text", "sizes"), [
    ("a" * 3000, [3000]),
    ("a" * 3001, [3000, 1]),
    (EMOJI * 3000, [3000]),  # QQ counts characters: an emoji is one
    (EMOJI * 3001, [3000, 1]),
])
def test_qq_counts_characters_up_to_its_setting(text: str, sizes: list[int]) -> None:
    limit = OneBotSettings().max_message_length
    assert limit == 3000
    assert [len(piece) for piece in split_text(text, limit)] == sizes


@pytest.mark.parametrize(("text", "sizes"), [
    ("字" * 360, [360]),
    ("字" * 361, [360, 1]),
    (EMOJI * 180, [360]),
    (EMOJI * 181, [360, 2]),
])
def test_plurk_counts_utf16_units_up_to_360(text: str, sizes: list[int]) -> None:
    assert [utf16_length(piece) for piece in split_reply(text)] == sizes


def test_plurk_posts_keep_room_for_the_same_content_marker() -> None:
    sender = PlurkSender(client=None)  # type: ignore[arg-type]
    room = 360 - utf16_length(SAME_CONTENT_MARKER)
    assert [len(part) for part in sender.parts("字" * room)] == [room]
    assert [len(part) for part in sender.parts("字" * (room + 1))] == [room, 1]
