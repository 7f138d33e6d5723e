"""Issue 12, item 14: no 繁體 in a 简体 reply and no Chinese in an English one — every
catalog entry of every locale, rendered as players read it, in the right script."""

from __future__ import annotations

import re
import string

import opencc
import pytest

from bot import systems
from bot.i18n import Catalog
from tests.support import Table

T2S = opencc.OpenCC("t2s")
CJK = re.compile(r"[\u3400-\u9fff\u3001\u300c-\u300f\uff01-\uff5e]")
PREFIXES = "(prefix . 。 or /"  # the full stop players type as a prefix is no Chinese


def rendered(catalog: Catalog, locale: str) -> dict[str, str]:
    """Every entry of ``locale``, its placeholders filled with 繁體 sheet words, as
    ``Catalog.text`` renders it."""
    out = {}
    for key, template in catalog._messages[locale].items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        out[key] = catalog.text(locale, key, **dict.fromkeys(fields, " 觀察 "))
    return out


def test_simplified_replies_hold_no_traditional_characters() -> None:
    texts = rendered(systems.catalog(), "zh-Hans")
    assert {key: text for key, text in texts.items() if T2S.convert(text) != text} == {}


def test_english_replies_hold_no_chinese() -> None:
    texts = rendered(systems.catalog(), "en")
    bad = {key: text for key, text in texts.items()
           if CJK.search(text.replace(PREFIXES, ""))}
    assert bad == {}


@pytest.mark.parametrize(("locale", "expected"), [
    ("zh-Hans", "艾莉絲：属性 灵巧:3｜技能 观察:5 医疗:2"),
    ("en", "艾莉絲: attributes DEX:3 | skills Observe:5 Medicine:2"),
])
async def test_system_vocabulary_reads_in_the_channels_script(
        table: Table, locale: str, expected: str) -> None:
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ".st 觀察 5 靈巧 3 醫療 2")
    await table.text("alice", f".lang {locale}")
    assert await table.text("alice", ".st show") == expected


def test_english_replies_hold_no_chinese_with_latin_names() -> None:
    """Issue 24 (plurk finding): the same with the placeholders filled with Latin text,
    as an English table's names are — the list separator 、 was once swapped for ", "
    only in a reply that held a Han character, so a check filled with 觀察 could not
    see an English list joined with 、."""
    texts = {}
    catalog = systems.catalog()
    for key, template in catalog._messages["en"].items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        texts[key] = catalog.text("en", key, **dict.fromkeys(fields, "Alice"))
    assert {key: text for key, text in texts.items()
            if CJK.search(text.replace(PREFIXES, ""))} == {}


async def test_english_lists_of_latin_names_are_joined_in_english(table: Table) -> None:
    """The lists the finding named — `.ap` costs, `.gm list`, `.st del` — and the
    battle's, at an English table whose every name is Latin; `.ap spend` names the
    character, not the account."""
    await table.text("gm", ".gm")
    await table.text("gm", ".lang en")
    await table.text("gm", ".gm add bob")
    await table.text("alice", ".pc new Alice")
    await table.text("alice", ".st HP 10 DEX 4 Observe 3")
    await table.text("carol", ".pc new Carol")
    await table.text("alice", ".battle join")
    await table.text("carol", ".battle join")
    await table.say("gm", ".ap grant 5")
    replies = [
        await table.text("alice", ".ap spend observe"),
        await table.text("gm", ".ap"),
        await table.text("gm", ".gm list"),
        await table.text("alice", ".st del Observe DEX"),
        await table.text("gm", ".battle"),
    ]
    assert replies == [
        "Alice spends 1 AP (observe/search): 5 → 4",
        "📋 Action points (AP): 4\nCosts: observe/search 1, interview 1, move 2, use an item 1",
        "GMs of this channel: gm, bob",
        "Removed from Alice: Observe, DEX",
        "No battle is running. Joined: Alice, Carol; enemies: (none).",
    ]


async def test_a_stat_reads_by_its_english_name_in_the_tables_own_system(
        table: Table) -> None:
    """精神力 is ace's SPI but ap20's MP: an English reader at an ap20 table reads MP in
    every line and refusal, not the first system's name (the issue-24 play-test)."""
    await table.text("gm", ".system ap20")
    await table.text("gm", ".lang en")
    await table.text("amy", ".pc new Amy")
    assert await table.text("amy", ".st 精神力 6") == "Amy updated: MP:6"
    assert (await table.text("amy", ".ra 精神力")).startswith("⚠ What is “MP”?")
    await table.text("gm", ".system ace")
    assert await table.text("amy", ".st 精神力 5") == "Amy updated: SPI:6→5"


async def test_system_names_read_in_simplified_at_a_simplified_table(table: Table) -> None:
    """Play-test finding (issue 26): at a 简体 table `.system coc7` answered
    “coc7（克蘇魯的呼喚第七版）” and `.system` listed every system in 繁體 — the catalog
    simplifies its templates, not the names filled into them."""
    await table.text("gm", ".gm")
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("gm", ".system coc7") == \
        "本频道的规则系统改为 coc7（克苏鲁的呼唤第七版）。"
    shown = await table.text("gm", ".system")
    assert "coc7（克苏鲁的呼唤第七版）" in shown
    assert "jianshou（剑手）" in shown
    assert T2S.convert(shown) == shown
