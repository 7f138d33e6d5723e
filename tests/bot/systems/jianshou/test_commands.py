"""jianshou commands through a real Core on SQLite: the table, privacy of hands, private
refusals of hand commands, deck loading, the three languages, a restart mid-duel and
the stored documents (issue 15)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from sqlalchemy import select

from adapters.config import Settings
from bot import systems
from bot.core import Core
from bot.i18n import LOCALES, rule_key
from bot.messages import Outgoing
from tests.orm import ChannelState, sessions
from tests.support import Table

ROOT = Path(__file__).resolve().parents[4]
SEEDS = [11, 22, 33]


async def ready(table: Table, locale: str | None = None) -> list[Outgoing]:
    """GM gm; alice, bob and carol seated and dealt from the sample deck; everyone keeps,
    alice is first (d3 = 1). Returns the replies of the last keep."""
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    if locale:
        await table.text("gm", f".lang {locale}")
    for user in ("alice", "bob", "carol"):
        await table.text(user, ".js join")
    await table.say("gm", ".js start", dice=SEEDS)
    await table.say("alice", ".keep")
    await table.say("bob", ".keep")
    return await table.say("carol", ".keep", dice=[1])


async def game(core: Core) -> dict:
    """The stored game (``jianshou.game``'s ``game``), as JSON."""
    async with sessions(core) as session:
        rows = {row.key: row.data for row in await session.scalars(select(ChannelState))}
    return rows["jianshou.game"]["game"]


def hand_of(state: dict, user: str) -> list[str]:
    return next(p["hand"] for p in state["players"] if p["user"] == user)


# --------------------------------------------------------------------------- the table


async def test_a_channel_of_another_system_refuses_with_a_hint(table: Table) -> None:
    text = await table.text("alice", ".js join")
    assert text.startswith("⚠") and "jianshou" in text


async def test_the_deal_is_private_and_the_channel_reads_counts(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    for user in ("alice", "bob"):
        await table.text(user, ".js join")
    outs = await table.say("gm", ".js start", dice=[1, 2])
    channel = [o for o in outs if o.to == "channel"]
    private = [o for o in outs if o.to == "private"]
    assert len(channel) == 1 and [o.user for o in private] == ["alice", "bob"]
    assert all(o.secret and len(o.data["hand"]) == 6 for o in private)
    assert "體力 10、內力 2" in channel[0].text  # JS-1: 12 − 2, capped at 10
    players = channel[0].data["table"]["players"]
    assert [(p["hand"], p["deck"]) for p in players] == [(6, 55), (6, 55)]
    # the hand's lines are in the private message, never in the channel
    for card_line in private[0].text.splitlines()[2:]:
        assert card_line not in channel[0].text


async def test_hand_is_resent_privately(table: Table) -> None:
    await ready(table)
    outs = await table.say("bob", ".hand")
    assert [(o.to, o.user) for o in outs] == [("channel", None), ("private", "bob")]
    assert outs[0].text == "📨 已私訊 bob 手牌。"
    assert outs[0].data == {"kind": "jianshou.hand_sent", "user": "bob", "count": 6}
    state = await game(table.core)
    assert outs[1].data["hand"] == hand_of(state, "bob")
    # asked in private, only the private answer comes
    private = await table.say("bob", ".hand", is_private=True)
    assert [o.to for o in private] == ["private"]


async def test_a_refused_hand_command_answers_privately(table: Table) -> None:
    """`.practise 4` refused would tell the channel what card 4 is: the refusal goes to
    the player alone."""
    await ready(table)
    state = await game(table.core)
    hand = hand_of(state, "alice")
    catalog = {c["name"]: c for c in state["cards"]}
    position = next(i for i, name in enumerate(hand, start=1)
                    if catalog[name]["kind"] in ("item", "event"))
    outs = await table.say("alice", f".practise {position}")
    assert [(o.to, o.user) for o in outs] == [("private", "alice")]
    assert outs[0].text.startswith("⚠") and hand[position - 1] in outs[0].text
    # a bad position names no card
    outs = await table.say("alice", ".practise 99")
    assert [(o.to, o.text) for o in outs] == [
        ("private", "⚠ 編號要在 1 到 8 之間（.hand 看手牌）。")]


async def test_playing_a_card_makes_it_public_and_resends_the_hand(table: Table) -> None:
    await ready(table)
    state = await game(table.core)
    catalog = {c["name"]: c for c in state["cards"]}
    art = next(n for n in hand_of(state, "alice") if catalog[n]["kind"] != "item"
               and catalog[n]["kind"] != "event")
    outs = await table.say("alice", f".practise {art}")
    [channel] = [o for o in outs if o.to == "channel"]
    [private] = [o for o in outs if o.to == "private"]
    assert art in channel.text and channel.data["card"] == art
    row = next(p for p in channel.data["table"]["players"] if p["user"] == "alice")
    assert {"card": art, "level": 1} in row["arts"] and row["hand"] == 7
    assert private.user == "alice" and len(private.data["hand"]) == 7


async def test_not_your_turn_and_not_seated(table: Table) -> None:
    await ready(table)
    assert await table.text("bob", ".meditate") == "⚠ 現在是 alice 的回合。"
    assert await table.text("dave", ".meditate") == (
        "⚠ 你不在這一局裡：牌局已在進行，不能中途加入；"
        "這局結束（或 .js reset）後再 .js join 下一局。")
    assert await table.text("dave", ".js join") == \
        "⚠ 牌局進行中；結束後（或 GM .js reset）才能這樣做。"


async def test_a_player_kicked_in_the_mulligan_is_not_told_to_join(table: Table) -> None:
    """Kicked while hands are being kept, alice's `.keep` is told she is out of this
    game (joining a running one is refused), not "join first"."""
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    for user in ("alice", "bob", "carol"):
        await table.text(user, ".js join")
    await table.say("gm", ".js start", dice=SEEDS)
    await table.say("gm", ".js kick alice")
    before = await game(table.core)
    assert await table.text("alice", ".keep") == (
        "⚠ 你不在這一局裡：牌局已在進行，不能中途加入；"
        "這局結束（或 .js reset）後再 .js join 下一局。")
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("alice", ".keep") == (
        "⚠ 你不在这一局里：牌局已在进行，不能中途加入；"
        "这局结束（或 .js reset）后再 .js join 下一局。")
    await table.text("gm", ".lang en")
    assert await table.text("alice", ".keep") == (
        "⚠ You are not in this game: it is running and cannot be joined midway; "
        ".js join the next one once it ends (or after .js reset).")
    assert await game(table.core) == before
    await table.text("gm", ".js reset")
    assert await table.text("dave", ".keep") == "⚠ You are not at this table; .js join first."


async def test_a_duel_survives_a_restart(settings: Settings) -> None:
    core = await Core.open(settings)
    table = Table(core)
    await ready(table)
    # alice and bob end their turns (discarding down to 7); carol practises 寒江刀
    # (atk 3, prec 1, cost 2) and attacks alice with it
    await table.say("alice", ".end 1")
    await table.say("bob", ".end 1")
    await table.say("carol", ".practise 寒江刀")
    attack = await table.say("carol", ".attack alice 寒江刀")
    assert attack[0].notify == ("alice",)
    assert attack[0].text.splitlines()[0] == \
        "⚔ carol 以 寒江刀 1 級攻擊 alice：攻 3、準 1，耗內力 2 → 0。"
    await core.close()
    core = await Core.open(settings)  # a restart between the attack and the answer
    table = Table(core)
    shown = await table.text("bob", ".duel")
    assert shown == "⚔ 對決：carol → alice，等 alice 防禦。"
    outs = await table.say("alice", ".defend no")
    assert "alice 不防禦。" in outs[0].text
    assert outs[0].notify == ()  # still alice's to answer: no ping of the speaker
    outs = await table.say("alice", ".evade no", dice=[6])
    assert outs[0].text.splitlines()[-2:] == [
        "🎲 命中 1d6=6 + 準 1（寒江刀 1）= 7 > 避 0 → 命中！alice 受 3 點傷害，體力 9 → 6。",
        "→ carol：對決結束，仍是你的回合；做完就 .end。"]  # issue 24: the attacker ends it
    assert outs[0].notify == ("carol",)
    await core.close()


async def test_the_gm_may_pass_for_the_awaited_player(table: Table) -> None:
    await ready(table)
    assert (await table.text("bob", ".duel pass")).startswith("⚠")  # GMs only
    assert await table.text("gm", ".duel pass") == "⚠ 目前沒有對決。"


async def test_the_second_mulligan_says_the_hand_is_kept(table: Table) -> None:
    """JS-1: after two redraws the hand is kept by itself — the reply says so, and a
    third `.mull` (or a `.keep`) is told why, not "you have kept your hand"."""
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    for user in ("alice", "bob", "carol"):
        await table.text(user, ".js join")
    await table.say("gm", ".js start", dice=SEEDS)
    assert await table.text("bob", ".mull", dice=[44]) == "🔀 bob 換牌（第 1 次），首回合抽 1 張。"
    assert await table.text("bob", ".mull", dice=[55]) == \
        "🔀 bob 換牌（第 2 次，換牌已用完，自動留牌），首回合抽 0 張。"
    before = await game(table.core)
    assert await table.text("bob", ".mull") == "⚠ 換牌已用完（最多 2 次），手牌已自動留下。"
    assert await table.text("bob", ".keep") == "⚠ 換牌已用完（最多 2 次），手牌已自動留下。"
    assert await table.text("alice", ".keep") == "alice 留牌（首回合抽 2 張）。\n等待留牌：carol。"
    assert await table.text("alice", ".keep") == "⚠ 你已留牌。"
    assert [p["mulligans"] for p in before["players"]] == [0, 2, 0]


def test_drawing_a_card_is_one_verb_in_chinese() -> None:
    """抽 is the card-drawing verb: replies said 抓 where the log said 抽."""
    for locale in ("zh-Hant", "zh-Hans"):
        text = (ROOT / f"bot/systems/jianshou/locales/{locale}/jianshou.toml").read_text("utf-8")
        assert "抓" not in text and "抽" in text, locale


# --------------------------------------------------------------------------- decks


async def test_deck_paste_refusals_are_clear(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    assert (await table.text("alice", ".js deck begin")).startswith("⚠")  # GM only
    await table.text("gm", ".js deck begin 小")
    assert await table.text("gm", ".js deck add {oops") == "⚠ 牌組不是有效的 JSON。"
    bad = '.js deck add {"name":"符","kind":"spell","use":{"heal":1}}'
    assert await table.text("gm", bad) == \
        "⚠ 「符」的種類「spell」不認得（可用：martial, internal, lightfoot, item, event）。"
    ok = '.js deck add {"name":"藥","kind":"item","copies":4,"use":{"heal":1}}'
    assert await table.text("gm", ok) == "📝 收到 1 筆（草稿 1 種，共 4 張）。"
    empty = ("⚠ 這段沒有牌（空的清單）：.js deck add 後面貼一張卡的 JSON、"
             "一串卡 [{…}, …] 或整副牌組。")
    assert await table.text("gm", ".js deck add []") == empty
    assert await table.text("gm", '.js deck add {"name":"改名","cards":[]}') == empty
    assert await table.text("gm", ".js deck done") == "⚠ 牌組只有 4 張，至少要 60 張。"
    assert await table.text("gm", ".js deck begin 空") == \
        "📝 開始貼牌組：.js deck add <JSON>（一張卡、一串卡或整副），可分多次；貼完 .js deck done。"
    assert await table.text("gm", ".js deck done") == \
        "⚠ 草稿裡還沒有牌：先 .js deck add <JSON> 貼上（或 .js deck cancel 放棄）。"
    assert await table.text("gm", ".js deck cancel") == "草稿已清除。"
    assert await table.text("gm", ".js deck done") == "⚠ 沒有貼上中的牌組；先 .js deck begin。"
    assert await table.text("gm", ".js deck") == \
        "🃏 牌組「山河初試」（範例牌組）：61 張，武功 22、內功 8、輕功 7、物品 14、事件 10。" \
        ".js card 名稱 看牌面。"
    assert await table.text("alice", ".js card 松风剑法") == \
        "松風劍法〔武功〕1:耗1 攻2 防1 / 2:耗2 攻3 防2 準1 / 3:耗4 攻5 防2 準2"
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("gm", ".js deck add []") == (
        "⚠ 这段没有牌（空的列表）：.js deck add 后面粘贴一张卡的 JSON、"
        "一串卡 [{…}, …] 或整副牌组。")
    await table.text("gm", ".lang en")
    assert await table.text("gm", ".js deck add []") == (
        "⚠ That part has no cards (an empty list): after .js deck add paste one card's JSON, "
        "a list of cards [{…}, …] or a whole deck.")


# --------------------------------------------------------------------------- languages


async def test_simplified_and_english_tables_read_in_their_language(table: Table) -> None:
    outs = await ready(table, "zh-Hans")
    [channel] = [o for o in outs if o.to == "channel"]
    assert "▶ 第 1 轮 alice：内力 +0 → 2，抽 2 张" in channel.text
    [private] = [o for o in outs if o.to == "private"]
    assert "你的手牌 8 张" in private.text
    await table.text("gm", ".lang en")
    card = await table.text("alice", ".js card Pine-Wind-Sword")
    assert card == ("Pine-Wind-Sword [martial art] 1:cost1 atk2 def1 / "
                    "2:cost2 atk3 def2 prec1 / 3:cost4 atk5 def2 prec2")
    assert await table.text("bob", ".meditate") == "⚠ It is alice's turn."
    shown = await table.text("alice", ".js")
    assert shown.startswith("▶ Round 1, alice's turn (done: nothing)")
    assert re.search(r"[\u3400-\u9fff]", shown) is None


# --------------------------------------------------------------------------- catalogs and docs


def rule_codes() -> set[str]:
    """Every ``RuleError("jianshou.…")`` code the rules can raise (f-strings expanded)."""
    codes: set[str] = set()
    for path in (ROOT / "rules/systems/jianshou").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleError":
                arg = node.args[0]
                if isinstance(arg, ast.Constant):
                    codes.add(arg.value)
    codes |= {f"jianshou.{p}_used" for p in ("practise", "item", "action")}
    codes |= {"jianshou.not_an_item", "jianshou.not_an_event", "jianshou.not_martial",
              "jianshou.not_lightfoot"}
    return codes


def test_every_rule_code_has_a_message_and_a_line_in_the_docs() -> None:
    catalog = systems.catalog()
    codes = rule_codes()
    assert len(codes) > 50
    for locale in LOCALES:
        assert sorted(c for c in codes if not catalog.has(rule_key(c), locale)) == []
    docs = (ROOT / "docs/systems/jianshou.md").read_text("utf-8")
    assert sorted(c for c in codes if f"`{c}`" not in docs) == []


def test_the_sample_deck_is_documented_as_shipped() -> None:
    deck = json.loads((ROOT / "rules/systems/jianshou/decks/sample.json").read_text("utf-8"))
    docs = (ROOT / "docs/systems/jianshou-deck.md").read_text("utf-8")
    assert all(card["name"] in docs for card in deck["cards"])
