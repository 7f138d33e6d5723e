"""Mentions in, neutralising and splitting out."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.plurk.text import (
    command_text,
    mentioned_nicks,
    neutralise,
    plurk_length,
    replace_mentions,
    split_reply,
    strip_mention,
)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("@dicebot .r 1d20", ".r 1d20"),
        ("@DiceBot: .r 1d20", ".r 1d20"),
        ("@dicebot：.gm", ".gm"),
        ("  @dicebot\n.st 觀察 5", ".st 觀察 5"),
        ("@dicebot", ""),
        ("@dicebot:", ""),
    ],
)
def test_leading_mention_is_a_command(text: str, command: str) -> None:
    assert strip_mention(text, "dicebot") == command


@pytest.mark.parametrize(
    "text",
    [
        "hello @dicebot .r 1d20",  # a mention later in the sentence is conversation
        "@dicebot2 .r 1d20",  # another user whose nick starts the same
        "@dicebot_fan .r",
        "＠dicebot .r 1d20",  # full-width at is not a Plurk mention
        ".r 1d20",
        "",
    ],
)
def test_not_a_command(text: str) -> None:
    assert strip_mention(text, "dicebot") is None


def test_nick_with_regex_characters_is_literal() -> None:
    assert strip_mention("@a.b .r", "a.b") == ".r"
    assert strip_mention("@axb .r", "a.b") is None


def test_command_text_prefers_content_raw() -> None:
    content = "@dicebot .r 2d6<i>2</i>3"  # Plurk turned *2* into italics
    assert command_text(content, "@dicebot .r 2d6*2*3") == "@dicebot .r 2d6*2*3"


def test_command_text_falls_back_to_rendered_content() -> None:
    content = '@dicebot .r <img class="emoticon" alt="(dice20)" rndnum="3">+1 &amp; x<br>y'
    assert command_text(content, None) == "@dicebot .r (dice20)+1 & x\ny"
    assert command_text(content, "   ") == "@dicebot .r (dice20)+1 & x\ny"


def test_neutralise_mentions_and_dice_tokens() -> None:
    text = "Alice @bob rolled (dice20) and (dice) for @everyone; mail a@b.c (LOL)"
    assert neutralise(text) == (
        "Alice ＠bob rolled （dice20） and （dice） for ＠everyone; mail a＠b.c (LOL)"
    )
    assert neutralise("(dice20)", allow_emoticon_dice=True) == "(dice20)"
    assert neutralise("<b>x</b> & y") == "<b>x</b> & y"  # Plurk escapes HTML itself
    assert len(neutralise("@x (dice20)")) == len("@x (dice20)")


def test_600_characters_split_into_ordered_parts_on_line_breaks() -> None:
    lines = [f"第{i:02d}行：" + "擲" * 20 for i in range(25)]  # 25 lines of 25 characters
    text = "\n".join(lines)
    assert len(text) > 600
    parts = split_reply(text)
    assert len(parts) == 2
    assert all(0 < len(p) <= 360 for p in parts)
    assert "\n".join(parts) == text  # cut exactly at a line break, nothing lost
    assert parts[0].endswith(lines[12]) or parts[0].endswith(lines[13])


def test_split_prefers_sentence_end_then_space_then_hard_cut() -> None:
    sentence = "一二三四五六七八九十" * 5 + "。"
    parts = split_reply(sentence * 12)  # 612 characters, no line breaks
    assert all(p.endswith("。") for p in parts[:-1])
    words = " ".join(["word"] * 150)
    assert all(not p.startswith(" ") and not p.endswith(" ") for p in split_reply(words))
    solid = "x" * 1000
    assert [len(p) for p in split_reply(solid)] == [360, 360, 280]


def test_split_never_cuts_an_astral_character_or_a_combining_mark() -> None:
    text = "😀" * 300  # 600 UTF-16 units
    parts = split_reply(text)
    assert "".join(parts) == text
    assert all(plurk_length(p) <= 360 for p in parts)
    accented = "e\u0301" * 200
    parts = split_reply(accented)
    assert all(not p.startswith("\u0301") for p in parts)


def test_split_short_empty_and_trimmed() -> None:
    assert split_reply("hi") == ["hi"]
    assert split_reply("  \n ") == []
    parts = split_reply("x" * 2000, max_parts=2)
    assert len(parts) == 2 and parts[-1].endswith("…") and len(parts[-1]) <= 360


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=1500), st.integers(min_value=10, max_value=400))
def test_split_property(text: str, limit: int) -> None:
    parts = split_reply(text, limit)
    assert all(p and p == p.strip() for p in parts)
    assert all(plurk_length(p) <= limit for p in parts)
    squeeze = "".join("".join(p.split()) for p in parts)
    assert squeeze == "".join(text.split())  # only whitespace is ever dropped, order kept


def test_mentions_inside_a_command_become_ids() -> None:
    command = ".gm add @Bob and @carol, not ＠x or a@b.c; again @bob"
    assert mentioned_nicks(command) == ["Bob", "carol"]
    assert replace_mentions(command, {"bob": 12}) == (
        ".gm add @12 and @carol, not ＠x or a@b.c; again @12"
    )
