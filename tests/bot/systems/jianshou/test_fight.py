"""jianshou on the encounter kit (issue 24): `.init` words, the fallen, the heal cap,
the duel's wording (a target addressed as "you", no assist offered with nobody to
give it, the attacker reminded to `.end`), the winner named once, the third
mulligan, items that name no target, and deck files sent as attachments."""

from __future__ import annotations

import json
from pathlib import Path

from adapters.console import split_upload
from bot.messages import Attachment, Outgoing
from tests.bot.systems.jianshou.test_commands import ready
from tests.support import Table


def channel(outs: list[Outgoing]) -> list[str]:
    return [o.text for o in outs if o.to == "channel"]


def private(outs: list[Outgoing], user: str) -> list[str]:
    return [o.text for o in outs if o.to == "private" and o.user == user]


async def dealt(table: Table) -> None:
    """alice and bob dealt from the sample deck (seeds 11, 22); alice has kept."""
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    for user in ("alice", "bob"):
        await table.text(user, ".js join")
    await table.say("gm", ".js start", dice=[11, 22])
    await table.say("alice", ".keep")


async def two_players(table: Table) -> None:
    """:func:`dealt`, then bob keeps too: alice first."""
    await dealt(table)
    await table.say("bob", ".keep", dice=[1])


# --------------------------------------------------------------------------- .init


async def test_init_speaks_the_shared_words(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    assert await table.text("alice", ".init join") == "🗡 alice 入席（1 人）。"
    assert await table.text("bob", ".init 加入 紅") == "🗡 bob［紅］ 入席（2 人）。"
    assert await table.text("carol", ".init join") == "🗡 carol 入席（3 人）。"
    assert await table.text("gm", ".init list") == await table.text("gm", ".js")
    no_gm = "⚠ 劍手沒有 GM 加入的敵人，也沒有 GM 設定的體力：每位戰鬥者都是 .init join " \
        "入席的玩家，體力只隨牌局改變。"  # one line, not a bare usage
    assert await table.text("gm", ".init add 狼") == no_gm
    assert await table.text("gm", ".init set alice hp=5") == no_gm
    assert await table.text("gm", ".init 設 alice 5") == no_gm
    outs = await table.say("gm", ".init start", dice=[11, 22, 33])
    assert channel(outs)[0].startswith("⚔ 開局！") and len(private(outs, "alice")) == 1
    for user in ("alice", "bob"):
        await table.say(user, ".keep")
    await table.say("carol", ".keep", dice=[1])
    assert await table.text("alice", ".init next 3") == \
        "⚠ 用法：.init next（要棄牌就用 .end 牌…）"  # discards are .end's (private refusals)
    assert await table.text("gm", ".init remove carol") == "🚪 carol 被 GM gm 踢出這局。"
    await table.say("alice", ".end 1")
    outs = await table.say("bob", ".init next")  # refused where .end is: privately
    assert [(o.to, o.user, o.text) for o in outs] == [
        ("private", "bob", "⚠ 手牌超過 7 張：先棄 1 張（.end 牌… 或 .discard）。")]
    await table.say("bob", ".discard 1")
    outs = await table.say("bob", ".init 下一位")
    assert channel(outs)[0].startswith("bob 結束回合。\n▶ 第 2 輪 alice：")
    assert channel(outs)[0].endswith("（跳過：carol（離場））")
    assert outs[0].notify == ("alice",)
    listed = await table.text("gm", ".init")
    assert "3. carol 🚪 已離場" in listed and "💀" not in listed  # gone, not dead
    assert await table.text("gm", ".init end") == "🔄 牌桌重置，3 人仍在席；.js start 再開一局。"


async def test_the_next_actor_is_pinged(table: Table) -> None:
    await ready(table)
    outs = await table.say("alice", ".init next 1")
    assert outs[0].text.startswith("⚠")
    outs = await table.say("alice", ".end 1")
    assert outs[-2].notify == ("bob",) and outs[-1].to == "private"


# --------------------------------------------------------------------------- the fallen


async def test_a_player_out_of_the_game_cannot_act_and_is_told_why(table: Table) -> None:
    await ready(table)
    await table.say("gm", ".js kick alice")  # her turn: bob's starts
    outs = await table.say("alice", ".meditate")
    assert channel(outs) == ["⚠ alice 已離開戰鬥。"]
    outs = await table.say("bob", ".transfer alice 1")
    assert channel(outs) == ["⚠ alice 已經敗北。"]  # nothing goes to the fallen either


# --------------------------------------------------------------------------- items


async def test_a_heal_names_no_target_and_stops_at_the_hp_of_the_deal(table: Table) -> None:
    await ready(table)
    outs = await table.say("alice", ".item 回春散 carol")
    assert [(o.to, o.user, o.text) for o in outs] == [
        ("private", "alice", "⚠ 回春散 只對自己生效，不能指定目標。")]
    outs = await table.say("alice", ".item 回春散")
    # 9 is full with three: the card goes, the line says so
    assert channel(outs) == ["🧪 alice 使用 回春散：體力已滿（9），沒有回復。"]


# --------------------------------------------------------------------------- the duel


async def duel_to_alice(table: Table) -> None:
    """Three players: carol attacks alice with 寒江刀 (atk 3, prec 1)."""
    await ready(table)
    await table.say("alice", ".end 1")
    await table.say("bob", ".end 1")
    await table.say("carol", ".practise 寒江刀")


async def test_the_duel_speaks_to_the_awaited_player_as_you(table: Table) -> None:
    await duel_to_alice(table)
    attack = await table.text("carol", ".attack alice 寒江刀")
    assert attack.splitlines()[-1] == "→ alice：.defend 武功 [級] 防禦，或 .defend no [求援對象]。"
    assert await table.text("alice", ".evade no") == "⚠ 現在等你防禦。"
    assert await table.text("bob", ".evade no") == "⚠ 現在等的是 alice 的防禦。"
    await table.say("alice", ".defend no")
    outs = await table.say("alice", ".evade no", dice=[6])
    assert outs[0].text.splitlines()[-1] == "→ carol：對決結束，仍是你的回合；做完就 .end。"
    assert outs[0].notify == ("carol",)


async def test_no_assist_is_offered_when_nobody_could_give_it(table: Table) -> None:
    await two_players(table)
    await table.say("alice", ".practise 流雲掌")
    await table.say("alice", ".end")
    await table.say("bob", ".end 1")
    attack = await table.text("alice", ".attack bob 流雲掌")
    assert attack.splitlines()[-1] == "→ bob：.defend 武功 [級] 防禦，或 .defend no。"


# --------------------------------------------------------------------------- winner, mulligan


async def test_the_winner_is_named_once_after_a_leave_or_a_kick(table: Table) -> None:
    await two_players(table)
    outs = await table.say("bob", ".js leave")
    assert channel(outs) == ["🏳 bob 認輸退出。\n🏆 勝者：alice！（.js reset 再來一局）"]
    await table.say("gm", ".js reset")
    await table.say("gm", ".js start", dice=[11, 22])
    await table.say("alice", ".keep")
    await table.say("bob", ".keep", dice=[2])
    outs = await table.say("gm", ".js kick bob")
    assert channel(outs) == ["🚪 bob 被 GM gm 踢出這局。\n🏆 勝者：alice！（.js reset 再來一局）"]


async def test_a_third_mulligan_names_the_limit_after_the_game_began(table: Table) -> None:
    await dealt(table)
    await table.say("bob", ".mull", dice=[5])
    await table.say("bob", ".mull", dice=[6, 1])  # kept by itself: the game begins
    assert await table.text("bob", ".mull") == "⚠ 換牌已用完（最多 2 次），手牌已自動留下。"
    assert await table.text("alice", ".mull") == "⚠ 現在不是換牌階段。"


# --------------------------------------------------------------------------- deck files


def deck_json(name: str = "") -> bytes:
    cards = [{"name": f"劍{n}", "kind": "martial", "copies": 4,
              "levels": [{"cost": 1, "attack": 2, "defense": 1}]} for n in range(15)]
    return json.dumps({"name": name, "cards": cards} if name else cards,
                      ensure_ascii=False).encode()


async def test_a_deck_file_sent_with_the_command_is_loaded(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    assert await table.text("gm", ".js deck file") == \
        "⚠ 把牌組檔附在訊息上，再輸入 .js deck file。"
    outs = await table.say("gm", ".js deck file",
                           attachment=Attachment("試劍.json", deck_json()))
    # a deck without a name is named after its file
    assert channel(outs) == ["✅ 牌組「試劍」已載入（60 張），下一局起使用。"]
    outs = await table.say("gm", ".js deck load",
                           attachment=Attachment("x.json", deck_json("松風")))
    assert channel(outs) == ["✅ 牌組「松風」已載入（60 張），下一局起使用。"]
    outs = await table.say("gm", ".js deck file", attachment=Attachment("d.yaml", b"- a"))
    assert channel(outs) == ["⚠ 看不懂「d.yaml」：牌組檔要是 .json 檔。"]
    outs = await table.say("gm", ".js deck file", attachment=Attachment("d.json", b"[1]"))
    assert channel(outs) == ["⚠ 第 1 筆不是一張卡（要是 JSON 物件）。"]
    assert (await table.text("alice", ".js deck file")).startswith("⚠")  # a GM's


async def test_without_a_file_the_platforms_way_of_sending_one_is_named(table: Table) -> None:
    """QQ sends a file as a message of its own, a Plurk post carries none: "attach it"
    would be impossible advice there (issue 24, deck files)."""
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    assert channel(await table.say("gm", ".js deck file", uploads="before")) == [
        "⚠ 先把檔案上傳到群裡，再在 5 分鐘內輸入指令（QQ 的檔案是單獨一則訊息）。"]
    assert channel(await table.say("gm", ".js deck file", uploads="none")) == [
        "⚠ 這裡的貼文帶不了檔案，機器人也不抓取連結：請改貼上檔案的內容"
        "（劍手牌組：.js deck begin、.js deck add <JSON>、.js deck done）。"]


def test_the_console_sends_a_file_after_two_angle_brackets(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_bytes(deck_json())
    text, upload = split_upload(f".js deck file <<{deck}")
    assert text == ".js deck file" and upload is not None
    assert (upload.filename, upload.data) == ("deck.json", deck_json())
    assert split_upload(".r 1d20<<5") == (".r 1d20<<5", None)  # no space: no file
    assert split_upload(f".js deck file <<{tmp_path}/missing.json") == (".js deck file", None)


async def test_worn_items_that_change_a_duel_are_named(table: Table) -> None:
    await ready(table)
    await table.say("alice", ".item 護心鏡")  # worn: defense +1 whenever she is attacked
    await table.say("alice", ".end")  # seven cards left
    await table.say("bob", ".end 1")
    await table.say("carol", ".practise 寒江刀")
    await table.say("carol", ".attack alice 寒江刀")
    await table.say("alice", ".defend no")
    text = (await table.say("alice", ".evade no", dice=[6]))[0].text
    assert text.splitlines()[1:3] == [
        "🎲 命中 1d6=6 + 準 1（寒江刀 1）= 7 > 避 0 → 命中！alice 受 2 點傷害（攻 3−防 1），"
        "體力 9 → 7。",
        "（alice 的佩帶加成：護心鏡 防+1）"]


async def test_discords_init_runs_the_shared_words(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    assert await table.core.verb_command("console", "table", "initiative") == "init"
