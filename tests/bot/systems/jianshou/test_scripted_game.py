"""A whole scripted `jianshou` game through the console adapter in `--json` mode (issue 15).

Three players (alice, bob, carol; GM ``gm``) play a deck the GM pastes in five parts
(``.js deck begin`` / ``add`` / ``done``: 60 cards, 20 names) to a win: bob takes a
mulligan, carol's attack on bob is assisted by alice and bob's evade fails, bob's
attack on carol is defended, alice meditates and carol transfers 內力, bob's evade
succeeds against alice, carol falls to 0 HP, and the GM's `.duel pass` answers for bob
before alice's last blow wins the game.

Shuffles are seeded: each one takes one scripted value (the seed, ``--dice``), the first
player one d3 and every hit check one d6. The session runs twice, as
``test_plurk_session`` does: the installed console in one process, and a restarted
bot (a fresh ``Core`` on another database) before every line — the two transcripts must
be identical, so the table survives a restart anywhere, mid-duel included.

Privacy: no channel message carries a hand — no ``hand`` list in its data, none of the
numbered hand lines the players receive privately in its text, and no card that is in
some hand and was not played in public.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

import pytest

from tests.console_session import Step, one_process, restart_every_line

Message = dict[str, Any]


def _parts() -> list[str]:
    """The test deck, 60 cards in 15 names, pasted in five parts (compact JSON)."""
    strong = [{"cost": 1, "attack": 5, "defense": 3, "precision": 1},
              {"cost": 2, "attack": 7, "defense": 5, "precision": 2}]
    martial = [{"name": n, "kind": "martial", "copies": 4, "levels": strong}
               for n in ("破軍劍", "斷水刀", "開山掌", "追風腿", "穿雲指")]
    internal = [{"name": n, "kind": "internal", "copies": 4, "levels": [
        {"breath": 1, "meditate": 3}, {"breath": 2, "meditate": 4}]}
        for n in ("玄心訣", "太虛功", "歸息法")]
    light = [{"name": n, "kind": "lightfoot", "copies": 4, "levels": [
        {"cost": 0, "evade": 2}, {"cost": 1, "evade": 4}]} for n in ("踏浪步", "飛燕身", "流光影")]
    other = [{"name": "金瘡丹", "kind": "item", "copies": 4, "use": {"heal": 3}},
             {"name": "玄鐵甲", "kind": "item", "copies": 4, "equip": {"defense": 1}},
             {"name": "飛刀", "kind": "event", "copies": 4, "effect": {"damage": 2}},
             {"name": "奇遇", "kind": "event", "copies": 4, "effect": {"draw": 2}}]
    return ["gm: .js deck add " + json.dumps(part, ensure_ascii=False, separators=(",", ":"))
            for part in (martial[:3], martial[3:], internal, light, other)]


DECK = _parts()

SCRIPT: list[Step] = [
    Step("gm: .gm", []),
    Step("gm: .system jianshou", [], "system"),
    Step("gm: .js deck begin 試煉", []),
    *(Step(line, []) for line in DECK),
    Step("gm: .js deck done", [], "deck"),
    Step("alice: .js join", []),
    Step("bob: .js join", []),
    Step("carol: .js join", []),
    Step("gm: .js start", [11, 22, 33], "start"),  # one shuffle seed per player
    Step("bob: .mull", [44], "mull"),  # JS-1: his first turn draws one card less
    Step("alice: .keep", []),
    Step("bob: .keep", []),
    Step("carol: .keep", [1], "begin"),  # everyone kept: d3 = 1 → alice first
    # --- round 1
    Step("alice: .attack bob 開山掌", [], "first_turn_attack"),  # JS-2: refused
    Step("alice: .practise 5", [], "alice_practise"),  # 開山掌, by its hand position
    Step("alice: .meditate", [], "meditate"),  # JS-3: no internal art → +1: 2 → 3
    Step("alice: .end", []),
    Step("bob: .practise 踏浪步", [], "bob_practise"),  # a light-foot art, level 1
    Step("bob: .attack alice 踏浪步", [], "bob_no_martial"),  # refused: not a martial art
    Step("bob: .end", []),  # no action this turn (JS-3: skip)
    Step("carol: .practise 穿雲指", []),
    # JS-4 duel 1: carol → bob, atk 5 prec 1, carol 內力 2 → 1
    Step("carol: .attack bob 穿雲指", [], "d1_attack"),
    Step("bob: .defend no alice", [], "d1_ask"),  # bob does not defend, asks alice
    Step("alice: .assist 開山掌", [], "d1_assist"),  # def 3, 1 + 2 內力: alice 3 → 0
    # remaining 5 − 3 = 2; bob evades with 踏浪步 (evade 2, cost 0): 1d6 4 + 1 = 5 > 2 hits
    Step("bob: .evade 踏浪步", [4], "d1_evade"),  # bob 9 → 7
    Step("carol: .end", []),
    # --- round 2
    Step("alice: .practise 玄心訣", []),  # an internal art: 吐納 1, 打坐 3
    Step("alice: .item 玄鐵甲", [], "equip"),  # worn: defense +1 when attacked
    Step("alice: .meditate", [], "meditate_2"),  # 打坐 3: 0 → 3
    Step("alice: .end", []),
    Step("bob: .practise 穿雲指", []),
    # duel 2: bob → carol, atk 5 prec 1, bob 內力 2 → 1
    Step("bob: .attack carol 穿雲指", [], "d2_attack"),
    Step("carol: .defend 穿雲指", [], "d2_defend"),  # def 3, carol 內力 2 → 1
    Step("carol: .evade no", [1], "d2_evade"),  # 1 + 1 = 2 > 0 hits for 2: carol 9 → 7
    Step("bob: .end", []),
    Step("carol: .practise 玄心訣", []),
    Step("carol: .meditate", [], "meditate_3"),
    Step("carol: .end", [], "must_discard"),  # 8 cards: refused privately
    Step("carol: .end 奇遇", [], "carol_end_2"),
    # --- round 3: alice gains 吐納 1 (4)
    Step("alice: .practise 玄心訣", [], "level_up"),  # a second copy: level 2
    Step("alice: .attack bob 開山掌", [], "d3_attack"),  # alice 4 → 3
    Step("bob: .defend no", [], "d3_defend"),
    # bob evades with 踏浪步 (2): 1d6 1 + 1 = 2, not above 2 → the attack misses
    Step("bob: .evade 踏浪步", [1], "d3_evade"),
    Step("alice: .end 玄鐵甲", []),  # discard the spare one
    Step("bob: .attack carol 穿雲指", [], "d4_attack"),  # bob 1 → 0
    Step("carol: .defend no", []),
    Step("carol: .evade no", [5], "d4_evade"),  # 5 + 1 > 0: 5 damage, carol 7 → 2
    Step("bob: .js", [], "status"),
    Step("bob: .end 斷水刀 斷水刀", []),
    Step("carol: .transfer alice 1", [], "transfer"),  # 吐納 1: carol 4 → 3, alice 3 → 4
    Step("carol: .practise 踏浪步", []),
    Step("carol: .end 金瘡丹", []),
    # --- round 4: alice 吐納 2 (6)
    Step("alice: .attack carol 開山掌", [], "d5_attack"),  # alice 6 → 5
    Step("carol: .defend 穿雲指", [], "d5_defend"),  # carol 3 → 2, remaining 2
    Step("carol: .evade 踏浪步", [3], "d5_evade"),  # 3 + 1 > 2: carol 2 → 0, defeated
    Step("alice: .end 金瘡丹 金瘡丹", []),
    Step("bob: .attack alice 穿雲指", [], "short_neili"),  # bob has 0 內力: refused
    Step("bob: .meditate", []),  # no internal art: 0 → 1
    Step("bob: .end 太虛功 太虛功", []),
    # --- round 5 (carol is out): alice 吐納 2 (7)
    Step("alice: .attack bob 開山掌", [], "d6_attack"),  # alice 7 → 6
    Step("gm: .duel pass", [], "d6_pass_defend"),  # bob is away: the GM answers "no"
    Step("gm: .duel pass", [2], "d6_pass_evade"),  # 2 + 1 > 0: 5 damage, bob 7 → 2
    Step("alice: .end 太虛功 歸息法", []),
    Step("bob: .attack alice 穿雲指", [], "d7_attack"),  # bob 1 → 0
    Step("alice: .defend 開山掌", [], "d7_defend"),  # def 3 + 玄鐵甲 1, alice 6 → 5
    Step("alice: .evade no", [6], "d7_evade"),  # remaining 1: alice 9 → 8
    Step("bob: .end 開山掌 破軍劍", []),
    # --- round 6: alice 吐納 2 (7)
    Step("alice: .attack bob 開山掌", [], "d8_attack"),
    Step("bob: .defend no", []),
    Step("bob: .evade 踏浪步", [6], "d8_evade"),  # 6 + 1 > 2: bob 2 → -3, alice wins
    Step("carol: .js", [], "final"),
    Step("gm: .js reset", [], "reset"),
]
NAMES = {step.name: i for i, step in enumerate(SCRIPT) if step.name}
assert len(NAMES) == sum(1 for step in SCRIPT if step.name), "duplicate step names"
CARDS = sorted({c["name"] for line in DECK for c in json.loads(line.split("add ", 1)[1])})


class Session(NamedTuple):
    whole: list[Message]
    by_line: list[list[Message]]


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    tmp = tmp_path_factory.mktemp("jianshou_session")
    return Session(one_process(tmp, SCRIPT), await restart_every_line(tmp, SCRIPT))


def replies(session: Session, name: str) -> list[Message]:
    return session.by_line[NAMES[name]]


def said(session: Session, name: str) -> Message:
    [out] = [m for m in replies(session, name) if m["to"] == "channel"]
    return out


def table(session: Session, name: str) -> dict[str, dict[str, Any]]:
    """The players as the channel saw them after a step: name → public row."""
    return {p["name"]: p for p in said(session, name)["data"]["table"]["players"]}


def numbers(session: Session, name: str, field: str) -> dict[str, int]:
    return {who: row[field] for who, row in table(session, name).items()}


# --------------------------------------------------------------------------- the session


def test_restarting_between_every_line_changes_nothing(session: Session) -> None:
    restarted = [message for line in session.by_line for message in line]
    assert len(session.whole) == len(restarted)
    for i, (one, other) in enumerate(zip(session.whole, restarted, strict=True)):
        assert one == other, f"message {i} differs"
    assert all(session.by_line), "every line of the script answers"
    refusals = [(m["to"], m["text"]) for m in session.whole if m["text"].startswith("⚠")]
    assert refusals == [
        ("channel", "⚠ 先手的第一回合不能攻擊。"),
        ("channel", "⚠ 踏浪步 不是武功，不能用來攻擊或防禦。"),
        ("private", "⚠ 手牌超過 7 張：先棄 1 張（.end 牌… 或 .discard）。"),
        ("channel", "⚠ 內力不足：需要 1，只有 0。"),
    ]


def test_setup_deck_seats_and_mulligan(session: Session) -> None:
    assert said(session, "deck")["text"] == "✅ 牌組「試煉」已載入（60 張），下一局起使用。"
    start = said(session, "start")
    assert start["text"].splitlines()[:2] == [
        "⚔ 開局！牌組「試煉」，座次（依此輪轉）：1.alice、2.bob、3.carol。",
        "各人體力 9、內力 2，各洗一副 60 張的牌，六張手牌已私訊。"]
    players = start["data"]["table"]["players"]
    assert [(p["name"], p["hp"], p["neili"], p["hand"], p["deck"]) for p in players] == [
        ("alice", 9, 2, 6, 54), ("bob", 9, 2, 6, 54), ("carol", 9, 2, 6, 54)]
    hands = [m for m in replies(session, "start") if m["to"] == "private"]
    assert [(m["user"], len(m["data"]["hand"])) for m in hands] == [
        ("alice", 6), ("bob", 6), ("carol", 6)]
    # JS-1: a mulligan costs one card of the first turn's draw
    assert said(session, "mull")["text"] == "🔀 bob 換牌（第 1 次），首回合抽 1 張。"
    assert said(session, "begin")["text"].splitlines()[1:] == [
        "🎲 先手 d3=1 → alice。",
        "▶ 第 1 輪 alice：內力 +0 → 2，抽 2 張（手牌 8，牌庫 52）。",
        "（先手的第一回合不能攻擊）"]
    assert numbers(session, "meditate", "neili")["alice"] == 3
    assert numbers(session, "d1_attack", "hand")["bob"] == 6  # 6 + 1 drawn − 踏浪步


def test_each_duel_hp_and_neili(session: Session) -> None:
    """JS-4: 內力 paid at each declaration; HP after each resolution."""
    def after(name: str) -> tuple[dict[str, int], dict[str, int]]:
        return numbers(session, name, "hp"), numbers(session, name, "neili")

    d1 = said(session, "d1_evade")["data"]["step"]["resolution"]
    assert (d1["attack"], d1["defense"], d1["remaining"], d1["roll"], d1["precision"],
            d1["evade"], d1["hit"], d1["damage"]) == (5, 3, 2, 4, 1, 2, True, 2)
    assert after("d1_evade") == ({"alice": 9, "bob": 7, "carol": 9},
                                 {"alice": 0, "bob": 2, "carol": 1})
    assert said(session, "d1_assist")["data"]["step"]["declared"]["cost"] == 3  # 1 + 2
    assert after("d2_evade") == ({"alice": 9, "bob": 7, "carol": 7},
                                 {"alice": 3, "bob": 1, "carol": 0})
    d3 = said(session, "d3_evade")
    assert d3["text"].splitlines()[-2:] == [
        "🎲 命中 1d6=1 + 準 1（開山掌 1）= 2 ≤ 避 2（踏浪步 2）→ 落空，bob 閃過（體力 7）。",
        "→ alice：對決結束，仍是你的回合；做完就 .end。"]  # issue 24: back to the attacker
    assert after("d3_evade") == ({"alice": 9, "bob": 7, "carol": 7},
                                 {"alice": 3, "bob": 1, "carol": 3})
    assert after("d4_evade") == ({"alice": 9, "bob": 7, "carol": 2},
                                 {"alice": 3, "bob": 0, "carol": 3})
    assert numbers(session, "transfer", "neili") == {"alice": 4, "bob": 0, "carol": 3}
    assert after("d5_evade") == ({"alice": 9, "bob": 7, "carol": 0},
                                 {"alice": 5, "bob": 0, "carol": 2})
    assert table(session, "d5_evade")["carol"]["defeated"] == "hp"
    assert after("d6_pass_evade") == ({"alice": 9, "bob": 2, "carol": 0},
                                      {"alice": 6, "bob": 1, "carol": 2})
    d7 = said(session, "d7_evade")["data"]["step"]["resolution"]
    assert (d7["defense"], d7["remaining"], d7["damage"]) == (4, 1, 1)  # 3 + 玄鐵甲 1
    assert after("d7_evade") == ({"alice": 8, "bob": 2, "carol": 0},
                                 {"alice": 5, "bob": 0, "carol": 2})
    final = said(session, "d8_evade")
    assert after("d8_evade") == ({"alice": 8, "bob": -3, "carol": 0},
                                 {"alice": 6, "bob": 0, "carol": 2})
    assert final["text"].splitlines()[-2:] == ["💀 bob 體力降至 -3，敗北！",  # not "to 0"
                                               "🏆 勝者：alice！（.js reset 再來一局）"]
    assert final["data"]["table"]["status"] == "over"
    assert final["data"]["table"]["winners"] == ["alice"]
    assert said(session, "reset")["data"]["table"]["status"] == "lobby"


def test_no_hand_ever_reaches_the_channel(session: Session) -> None:
    """A hand lives in private messages only; a card reaches the channel as it is
    played (its name in a public zone: arts, equipment, discard pile, the duel)."""
    private_lines = {line for m in session.whole if m["to"] == "private"
                     for line in m["text"].splitlines() if re.match(r"\d+\. ", line)}
    assert private_lines
    public: set[str] = set()  # every card in a public zone so far
    for message in session.whole:
        if message["to"] != "channel":
            continue
        data = message["data"] or {}
        text = message["text"]
        assert not private_lines & set(text.splitlines()), text
        assert "🀄" not in text
        for row in (data.get("table") or {}).get("players", []):
            assert isinstance(row["hand"], int) and isinstance(row["deck"], int)
        assert "hand" not in data
        if data.get("kind") in ("jianshou.deck", "jianshou.deck_draft"):
            continue  # the deck list is public
        public |= {c for row in (data.get("table") or {}).get("players", [])
                   for c in (*(a["card"] for a in row["arts"]), *row["equipment"],
                             *row["discard"])}
        named = {card for card in CARDS if card in text}
        assert named <= public, (named - public, text)
