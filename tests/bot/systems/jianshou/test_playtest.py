"""The issue 24 play-test of jianshou: a refused `.end` changes nothing, a referee's
`.init next`, players named by character or nickname, the gone not shown dead, every
number of the hit check named, `.init add` / `set`, `.init end` agreed as typed, the
shipped deck's name in 简体, a heal at full HP, a fallen helper."""

from __future__ import annotations

import json

from bot.messages import Attachment, Outgoing
from tests.bot.systems.jianshou.test_commands import game, hand_of, ready
from tests.support import Table

SEEDS = [1, 101]
"""Shuffles that deal alice a light-foot art and boots, bob a martial art and a tassel."""


def channel(outs: list[Outgoing]) -> list[str]:
    return [o.text for o in outs if o.to == "channel"]


def where(outs: list[Outgoing]) -> list[tuple[str, str | None, str]]:
    return [(o.to, o.user, o.text) for o in outs]


async def alice_holds_nine(table: Table) -> None:
    """alice's second turn begins with nine cards (seven kept, two drawn)."""
    await ready(table)
    for user in ("alice", "bob", "carol"):
        await table.say(user, ".end 1")


async def test_an_end_that_discards_too_few_discards_nothing(table: Table) -> None:
    await alice_holds_nine(table)
    assert len(hand_of(await game(table.core), "alice")) == 9
    outs = await table.say("alice", ".end 1")
    assert where(outs) == [("private", "alice", "⚠ 手牌 9 張，要棄到 7 張：.end 要一次指名 "
                            "2 張（你指名了 1 張），什麼都還沒棄。")]
    assert len(hand_of(await game(table.core), "alice")) == 9  # bad input changes nothing
    outs = await table.say("alice", ".end 1 2")
    assert channel(outs)[0].startswith("🗑 alice 棄牌：")


async def test_a_referee_is_told_whose_turn_it_is(table: Table) -> None:
    await ready(table)
    refusal = "⚠ 現在是 alice 的回合，只有 alice 能結束；GM 可以 .duel pass 代為略過對決，" \
        "或 .init remove 移出玩家。"
    for typed in (".init next", ".end"):  # privately, as every refusal of .end
        assert where(await table.say("gm", typed)) == [("private", "gm", refusal)]
    outs = await table.say("dave", ".init next")  # not a GM: not in this game
    assert outs[0].text.startswith("⚠ 你不在這一局裡")


async def test_players_are_named_by_nickname_and_keyed_by_account(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    await table.text("alice", ".nn 艾莉絲")
    await table.text("gm", ".nn 說書人")
    assert await table.text("alice", ".js join") == "🗡 艾莉絲 入席（1 人）。"
    await table.text("bob", ".js join")
    await table.text("carol", ".js join")
    started = await table.say("gm", ".js start", dice=[11, 22, 33])
    assert "1.艾莉絲、2.bob、3.carol" in channel(started)[0]
    state = await game(table.core)
    assert (state["players"][0]["user"], state["players"][0]["name"]) == ("alice", "艾莉絲")
    assert await table.text("gm", ".js kick 艾莉絲") == "🚪 艾莉絲 被 GM 說書人 踢出這局。"


async def test_player_end_names_the_words_typed(table: Table) -> None:
    await ready(table)
    assert await table.text("carol", ".init end") == \
        "🗳 carol 同意重置這局：還需 2 人同意（alice、bob，各自輸入 .init end）。"
    assert await table.text("bob", ".js reset") == \
        "🗳 bob 同意重置這局：還需 1 人同意（alice，各自輸入 .js reset）。"


async def test_the_shipped_deck_is_named_in_simplified_chinese(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    await table.text("gm", ".lang zh-Hans")
    assert "「山河初试」" in await table.text("gm", ".js deck")
    await table.text("gm", ".lang en")
    assert "Rivers and Hills Primer" in await table.text("gm", ".js deck")  # the bot's own


async def test_a_heal_at_full_hp_says_so(table: Table) -> None:
    await ready(table, "en")
    outs = await table.say("alice", ".item 回春散")
    assert channel(outs) == ["🧪 alice uses Spring-Powder: HP already full (9)."]


async def test_a_heal_at_full_hp_says_so_in_simplified(table: Table) -> None:
    await ready(table, "zh-Hans")
    outs = await table.say("alice", ".item 回春散")
    assert channel(outs) == ["🧪 alice 使用 回春散：体力已满（9），没有回复。"]


async def test_a_fallen_helper_is_refused_about_the_helper(table: Table) -> None:
    await ready(table)
    await table.say("alice", ".end 1")
    await table.say("bob", ".js leave")  # bob resigns: carol's turn
    await table.say("carol", ".practise 寒江刀")
    await table.say("carol", ".attack alice 寒江刀")
    assert await table.text("alice", ".defend no bob") == "⚠ bob 已離場，不能援助。"


# --------------------------------------------------------------------------- the hit check


def items_deck() -> bytes:
    """60 cards where every card of a kind does the same: martial arts (prec 2),
    light-foot arts (eva 1), worn tassels (prec +1) and boots (eva +1)."""
    cards = [
        *({"name": f"劍{n}", "kind": "martial", "copies": 4,
           "levels": [{"cost": 0, "attack": 3, "defense": 0, "precision": 2}]} for n in range(5)),
        *({"name": f"步{n}", "kind": "lightfoot", "copies": 4,
           "levels": [{"cost": 0, "evade": 1}]} for n in range(5)),
        *({"name": f"穗{n}", "kind": "item", "copies": 4, "equip": {"precision": 1}}
          for n in range(3)),
        *({"name": f"靴{n}", "kind": "item", "copies": 4, "equip": {"evade": 1}}
          for n in range(2)),
    ]
    return json.dumps({"name": "試", "cards": cards}, ensure_ascii=False).encode()


def first(hand: list[str], prefix: str) -> str:
    return next(card for card in hand if card.startswith(prefix))


async def test_the_hit_check_names_every_number(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    await table.say("gm", ".js deck file", attachment=Attachment("d.json", items_deck()))
    for user in ("alice", "bob"):
        await table.text(user, ".js join")
    await table.say("gm", ".js start", dice=SEEDS)
    await table.say("alice", ".keep")
    await table.say("bob", ".keep", dice=[1])  # alice first
    hand = hand_of(await game(table.core), "alice")
    step, boots = first(hand, "步"), first(hand, "靴")
    await table.say("alice", f".practise {step}")
    await table.say("alice", f".item {boots}")
    await table.say("alice", ".end")
    hand = hand_of(await game(table.core), "bob")
    sword, tassel = first(hand, "劍"), first(hand, "穗")
    await table.say("bob", f".practise {sword}")
    await table.say("bob", f".item {tassel}")
    await table.say("bob", f".attack alice {sword}")
    await table.say("alice", ".defend no")
    text = (await table.say("alice", f".evade {step}", dice=[3]))[0].text
    assert text.splitlines()[1] == (
        f"🎲 命中 1d6=3 + 準 3（{sword} 2 + {tassel} 1）= 6 > 避 2（{step} 1 + {boots} 1）"
        "→ 命中！alice 受 3 點傷害，體力 10 → 7。")

