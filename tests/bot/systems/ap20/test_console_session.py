"""A whole scripted `ap20` fight through the console adapter in `--json` mode (issue 14).

The GM ``keeper`` runs 食人魔 (a tier-2 monster: its initiative gets +1, AP-8; 火焰
resistance 2) and 哥布林; ``alice`` plays 艾莉絲, ``bob`` 鮑伯, ``carol`` 卡蘿. Two rounds:
initiative rolls, hits and a miss, a crit by a raw 20 (dice ×2), the defender's 1-AP
reaction and armor only at 0 AP, a spend refused below 0, a cast's 精神力, a save, typed
damage with a resistance, the refill at each turn's start, and the end.

The script runs twice — one `trpgbot console --json` process with every die on
``--dice``, and a fresh ``Core`` for every line with only that line's dice — and the two
transcripts must be identical; the numbers are asserted on the per-line replies.
The helpers are shared (``tests/console_session.py``).
"""

from __future__ import annotations

import pytest

from tests.console_session import Message, Session, Step, assert_same_transcript, play

# --------------------------------------------------------------------------- the script

SCRIPT: list[Step] = [
    Step("keeper: .gm", []),
    Step("keeper: .system ap20", [], "system"),
    Step("alice: .pc new 艾莉絲", []),
    Step("alice: .st 敏捷 14 命中 5 破甲 1 護甲 1 閃避 2 生命 18 精神力 6", []),
    Step("bob: .pc new 鮑伯", []),
    Step("bob: .st 敏捷 12 命中 4 破甲 2 護甲 3 招架 2 生命 22 耐力 8", []),
    Step("carol: .pc new 卡蘿", []),
    Step("carol: .st 敏捷 10 命中 3 破甲 3 護甲 4 格擋 2 生命 24 感知 14", []),
    # decision 2: d20 + 敏捷 modifier
    Step("alice: .init join", [11], "join_alice"),  # 11 + 2 = 13
    Step("bob: .init join", [15], "join_bob"),  # 15 + 1 = 16
    Step("carol: .init join", [9], "join_carol"),  # 9 + 0 = 9
    # AP-8: tier 2 adds 1 to the initiative check: 10 + 0 + 1 = 11
    Step("keeper: .init add 食人魔 hp=20 tier=2 敏捷=10 護甲=3 閃避=1 命中=4 破甲=3 韌性=2 火焰=2",
         [10], "add_ogre"),
    Step("keeper: .init add 哥布林 hp=8 護甲=1 閃避=2 命中=2 破甲=1 init=5", [], "add_goblin"),
    Step("keeper: .init", [], "order"),
    Step("keeper: .init next", [], "round_1"),  # 鮑伯
    # AP-3: 14 + 4 + 2 = 20 ≥ 3 + 1 = 4; 1d8+2 = 7 → 20 → 13; 食人魔 reacts 6 → 5
    Step("bob: .atk 食人魔 1d8+2 揮砍", [14, 5], "bob_hit"),
    Step("bob: .ap 戰技 耐力=2", [], "bob_maneuver_refused"),  # AP-1: 3 < 5
    Step("bob: .ap 迅捷", [], "bob_swift"),  # 3 → 1
    Step("bob: .pass", [], "to_alice"),
    # AP-3: a raw 20 always hits and crits: 4 × 2 + 1 = 9 → 13 → 4
    Step("alice: .atk 食人魔 1d6+1", [20, 4], "alice_crit"),
    Step("alice: .ap 瞬發施法", [], "alice_cast"),  # AP 3 → 2, 精神力 6 → 3
    Step("alice: .pass", [], "to_ogre"),
    # 食人魔 hits 艾莉絲 (defence 1 + 2, she reacts 2 → 1): 9 + 7 = 16; 2d6+3 = 10 → 18 → 8
    Step("keeper: .atk 艾莉絲 2d6+3", [9, 3, 4], "ogre_hit"),
    Step("keeper: .atk 鮑伯 1d6", [1], "ogre_fumble"),  # raw 1: a miss; 鮑伯 reacts 1 → 0
    Step("keeper: .pass", [], "to_carol"),
    Step("carol: .save 感知 13", [12], "carol_save"),  # AP-5: 12 + 2 = 14 ≥ 13
    # AP-2: 食人魔 has 0 AP — armor only (3): 10 + 6 = 16; 1d10 = 7 → 4 → 0
    Step("carol: .atk 食人魔 1d10", [10, 7], "carol_armor_only"),
    Step("carol: .pass", [], "to_goblin"),
    Step("keeper: .atk 卡蘿 1d4", [8, 2], "goblin_hit"),  # 8 + 3 = 11 ≥ 6; 24 → 22
    Step("keeper: .pass", [], "round_2"),  # 鮑伯 refilled 0 → 6
    Step("bob: .atk 哥布林 1d8+2", [6, 3], "bob_goblin"),  # 12 ≥ 3; 5 → 8 → 3
    # AP-9: typed damage and a resistance — the ogre resists fire, the goblin does not
    Step("keeper: .dmg 哥布林 5 火焰", [], "fire_goblin"),  # 3 → 0
    Step("keeper: .dmg 食人魔 4 火焰", [], "fire_ogre"),  # resisted: 4 − 2 = 2, HP 0 stays
    Step("bob: .ap", [], "ap_round_2"),
    Step("keeper: .init end", [], "end"),
]


def both(session: Session, name: str) -> tuple[Message, Message]:
    """A step's channel reply and the GM's private copy: the GM-run fighters' numbers
    are the GM's (issue 24), the channel reads their health band."""
    index = next(i for i, step in enumerate(session.script) if step.name == name)
    [channel, secret] = session.by_line[index]
    assert (channel["to"], secret["to"], secret["user"]) == ("channel", "private", "keeper")
    return channel, secret


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    return await play(tmp_path_factory.mktemp("ap20_session"), SCRIPT)


def test_restarting_between_every_line_changes_nothing(session: Session) -> None:
    assert_same_transcript(session)
    refusals = [m["text"] for m in session.whole if m["text"].startswith("⚠")]
    assert refusals == [session.text("bob_maneuver_refused")]
    assert session.text("bob_maneuver_refused") == "⚠ 行動力不足：戰技要 5 點，只剩 3。"


def test_initiative_and_the_order(session: Session) -> None:
    assert session.text("join_alice") == (
        "艾莉絲 加入戰鬥（我方）：先攻 13（d20 11 + 敏捷 2），排第 1，行動力 6")
    public, secret = both(session, "add_ogre")
    assert public["text"] == "食人魔 加入戰鬥（敵方）：先攻 11，排第 3"
    assert secret["text"].splitlines() == [
        "食人魔 加入戰鬥（敵方）：先攻 11（d20 10 + 敏捷 0 + 等階 1），排第 3，行動力 6",
        "📋 食人魔：生命 20/20、敏捷 10、護甲 3、閃避 1、命中 4、破甲 3、韌性 2、"
        "火焰抗性 2、等階 2"]
    public, secret = both(session, "order")
    assert public["text"].splitlines()[1:] == [
        "  1. 鮑伯（我方）先攻 16｜行動力 6/6｜生命 22",
        "  2. 艾莉絲（我方）先攻 13｜行動力 6/6｜生命 18",
        "  3. 食人魔（敵方）先攻 11｜毫髮無傷",
        "  4. 卡蘿（我方）先攻 9｜行動力 6/6｜生命 24",
        "  5. 哥布林（敵方）先攻 5｜毫髮無傷"]
    assert secret["text"].splitlines()[3] == "  3. 食人魔（敵方）先攻 11｜行動力 6/6｜生命 20"
    assert session.text("round_1") == "▶ 第 1 輪開始，輪到 鮑伯（行動力 6/6）"
    assert session.said("round_1")["data"]["turn"]["round"] == 1


def test_attacks_defence_and_damage(session: Session) -> None:
    public, secret = both(session, "bob_hit")
    assert secret["text"].splitlines() == [
        "⚔ 鮑伯→食人魔：d20=14 +命中4+破甲2 = 20 ≥ 防禦 4 → 命中",
        "💥 1d8+2=[5]+2=7 揮砍 → 食人魔 生命 20→13",
        "行動力 鮑伯 6→3；食人魔 防禦反應 6→5"]
    assert public["text"].splitlines()[1] == "💥 1d8+2=[5]+2=7 揮砍 → 食人魔 受傷"
    assert "hp" not in public["data"]
    assert session.text("bob_swift") == "鮑伯：迅捷動作 −2 行動力 3→1"
    public, secret = both(session, "alice_crit")
    crit = secret["data"]
    assert (crit["check"]["crit_by"], crit["damage"]["rolled"], crit["hp"]) == (
        "raw20", 9, {"before": 13, "after": 4})
    assert secret["text"].splitlines()[1] == "💥 重擊 1d6+1=[4]×2+1=9 → 食人魔 生命 13→4"
    assert public["text"].splitlines()[1] == "💥 重擊 1d6+1=[4]×2+1=9 → 食人魔 重傷"
    assert session.text("alice_cast") == "艾莉絲：瞬發施法 −1 行動力 3→2，精神力 −3 6→3"
    public, secret = both(session, "ogre_hit")
    assert public["text"].splitlines() == [  # 食人魔's numbers are the GM's, 艾莉絲's hers
        "⚔ 食人魔→艾莉絲：d20=9 → 命中", "💥 2d6+3=[3+4]+3=10 → 艾莉絲 生命 18→8",
        "艾莉絲 防禦反應 2→1"]
    ogre = secret["data"]
    assert (ogre["check"]["total"], ogre["defense"]["total"], ogre["reaction"],
            ogre["damage"]["rolled"], ogre["hp"]) == (
        16, 3, {"before": 2, "after": 1}, 10, {"before": 18, "after": 8})
    # a raw 1 misses whatever the total: no ≥ beside the miss
    public, secret = both(session, "ogre_fumble")
    assert secret["text"].splitlines()[0] == (
        "⚔ 食人魔→鮑伯：d20=1 +命中4+破甲3 = 8 vs 防禦 5 → 大失敗，未命中")
    assert public["text"].splitlines()[0] == "⚔ 食人魔→鮑伯：d20=1 → 大失敗，未命中"
    fumble = secret["data"]
    assert (fumble["check"]["fumble"], fumble["check"]["hit"], fumble["damage"]) == (
        True, False, None)
    assert fumble["spend"] == {"ap_before": 3, "ap_after": 0}
    public, secret = both(session, "carol_armor_only")
    armor = secret["data"]
    assert armor["defense"] == {"total": 3, "counted": {"armor": 3},
                                "armor_only": "no_ap", "lost": []}
    assert armor["defended"] is False
    assert secret["text"].splitlines()[1] == "💥 1d10=[7]=7 → 食人魔 生命 4→0（倒下）"
    assert public["text"].splitlines()[1] == "💥 1d10=[7]=7 → 食人魔 倒下"
    assert both(session, "goblin_hit")[1]["data"]["hp"] == {"before": 24, "after": 22}


def test_saves_refill_resistance_and_end(session: Session) -> None:
    assert session.text("carol_save") == "🛡 卡蘿「感知」豁免：d20=12 感知+2 = 14 ≥ DC 13 → 成功"
    turn = session.data("round_2")["turn"]
    assert (turn["current"], turn["round"], turn["new_round"], turn["ap_before"],
            turn["ap_after"]) == ("鮑伯", 2, True, 0, 6)
    assert both(session, "bob_goblin")[1]["data"]["hp"] == {"before": 8, "after": 3}
    goblin, ogre = both(session, "fire_goblin")[1]["data"], both(session, "fire_ogre")[1]["data"]
    assert (goblin["resistance"], goblin["taken"], goblin["hp"]["after"]) == (0, 5, 0)
    assert (ogre["resistance"], ogre["taken"], ogre["hp"]) == (2, 2, {"before": 0, "after": 0})
    assert both(session, "fire_ogre")[1]["text"] == "💥 4 火焰，抗性 −2 = 2 → 食人魔 生命 0→0"
    assert both(session, "fire_ogre")[0]["text"] == "💥 4 火焰 → 食人魔 倒下"
    assert session.text("ap_round_2") == (
        "行動力：鮑伯 3/6、艾莉絲 1/6、卡蘿 2/6")  # the GM-run fighters' are the GM's
    assert session.text("end") == (
        "⚔ 戰鬥結束（共 2 輪）。鮑伯 生命 22、艾莉絲 生命 8、食人魔 倒下、卡蘿 生命 22、"
        "哥布林 倒下")
