"""`user_ref`: how `.gm add` / `.gm del` and plurk's `.battle add @user` read a user."""

from __future__ import annotations

import pytest

from bot.errors import CommandError
from bot.kits.references import user_ref


@pytest.mark.parametrize(("text", "user"), [
    ("12345", "12345"),
    (" bob ", "bob"),
    ("@bob", "bob"),
    ("@@bob", "@bob"),
    ("@", "@"),
    ("<@42>", "42"),
    ("<@!42>", "42"),
    ("<@abc>", "<@abc>"),
    ("[CQ:at,qq=10001]", "10001"),
    ("[CQ:at,qq=x]", "[CQ:at,qq=x]"),
])
def test_a_mention_gives_its_id_and_anything_else_one_word_is_the_id(text: str, user: str) -> None:
    assert user_ref(text) == user


@pytest.mark.parametrize("text", ["", "   ", "bob smith", "@bob x"])
def test_empty_or_spaced_text_is_refused_with_the_gm_usage(text: str) -> None:
    with pytest.raises(CommandError) as refused:
        user_ref(text)
    assert refused.value.key == "core.error.gm_usage"
