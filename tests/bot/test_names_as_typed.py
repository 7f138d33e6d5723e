"""Issue 24 item 8: a name a player or GM typed — a character, an enemy, a card, a deck —
reads as typed in a 简体 channel (艾莉絲 stays 艾莉絲, never 艾莉丝); only the bot's own
words are simplified (``bot.i18n.Catalog.text`` converts the template, never what is
substituted into it). English channels always kept the names."""

from __future__ import annotations

import json

import opencc

from bot import systems
from tests.support import Table

T2S = opencc.OpenCC("t2s")
NAMES = ("艾莉絲", "卡蘿")


def as_typed(text: str, *names: str) -> None:
    """Each of ``names`` is in ``text`` as typed, and everything else in it is 简体."""
    for name in names:
        assert name in text and T2S.convert(name) not in text, text
    rest = text
    for name in NAMES:
        rest = rest.replace(name, "")
    assert T2S.convert(rest) == rest, text


def channel(outs: list) -> list[str]:
    return [o.text for o in outs if o.to == "channel"]


async def simplified_table(table: Table, system: str) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", f".system {system}")
    await table.text("gm", ".lang zh-Hans")


async def test_a_character_keeps_its_name(table: Table) -> None:
    await simplified_table(table, "plurk")
    as_typed(await table.text("alice", ".pc new 艾莉絲"), "艾莉絲")
    rolled = await table.text("alice", ".r d20 觀察", dice=[7])
    as_typed(rolled, "艾莉絲")
    assert "观察" in rolled  # the reason typed is the player's, the stat the system's


async def test_an_enemy_keeps_its_name(table: Table) -> None:
    await simplified_table(table, "ap20")
    outs = await table.say("gm", ".init add 卡蘿 hp=8 init=5")
    assert outs, "no reply"
    for text in (o.text for o in outs):
        as_typed(text, "卡蘿")
    listed = await table.text("gm", ".init")
    as_typed(listed, "卡蘿")


def deck(name: str, card: str) -> str:
    """A valid 60-card deck named ``name`` whose first card is ``card``."""
    cards = [{"name": n, "kind": "item", "copies": 4, "use": {"heal": 1}}
             for n in (card, *(f"藥{n}" for n in range(14)))]
    return json.dumps({"name": name, "cards": cards}, ensure_ascii=False,
                      separators=(",", ":"))


async def test_a_card_and_a_deck_keep_their_names(table: Table) -> None:
    await simplified_table(table, "jianshou")
    await table.text("gm", ".js deck begin")
    added = await table.text("gm", f".js deck add {deck('卡蘿', '艾莉絲')}")
    assert added.startswith("📝"), added
    as_typed(added)
    as_typed(await table.text("gm", ".js deck done"), "卡蘿")
    as_typed(await table.text("gm", ".js deck"), "卡蘿")
    as_typed(await table.text("alice", ".js card 艾莉絲"), "艾莉絲")
    # a refusal raised by the rules names the card as typed too
    refused = await table.text("gm", '.js deck add {"name":"艾莉絲","kind":"spell"}')
    assert refused.startswith("⚠")
    as_typed(refused, "艾莉絲")


async def test_the_shipped_deck_still_reads_simplified(table: Table) -> None:
    """The sample deck's cards are the bot's own words: it names them in 简体."""
    await simplified_table(table, "jianshou")
    assert (await table.text("alice", ".js card 松風劍法")).startswith("松风剑法〔武功〕")


def test_a_parameter_keeps_all_but_the_systems_stat_names() -> None:
    catalog = systems.catalog()
    assert catalog.simplified_stats("艾莉絲 觀察") == "艾莉絲 观察"
    assert catalog.simplified_stats("武器耐久") == "武器耐久"  # no whole stat name
    assert catalog.text("zh-Hans", "core.list.sep") == "、"
    listed = catalog.text("zh-Hans", "core.gm.list", names=["艾莉絲", "卡蘿"])
    as_typed(listed, "艾莉絲", "卡蘿")
