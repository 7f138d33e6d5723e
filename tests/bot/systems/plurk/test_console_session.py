"""A whole scripted `plurk` table session through the console adapter in `--json` mode.

Issue 3, "Done when": the GM sets up, three investigators make checks, one secret
roll, AP spent to 0, a battle of two rounds with BP spending, a knock-out, an impale
and an intervention — the key numbers are asserted, no secret result reaches the
channel, and restarting between any two lines changes nothing.

Issue 12, "Done when", adds to the same session: a **surprise round** (PL-14: the party
sneaks up with ``.battle start sneak=party``; the group's secret 潛行 vs 觀察 rolls go
to the GM privately, the channel reads only the outcome), an **intervention on the right
event** (PL-12: 艾莉絲's fatal event #1 and 卡蘿's newer #2 pending — a bare
``.intervene`` by alice settles #1, her own, not the channel's newest), a **parry**
(PL-16: 卡蘿 declares ``.parry 狂信者`` with 武器耐久 4 read from her sheet and it
absorbs the human-like cultist's attack; a parry against the monster and an attack after
the parry are refused) and a **missed attack** (``.atk … 普通攻擊+1 >=13``: the bot
rolls the hit check first, it fails, no damage is rolled and the target's HP stays).

The session is one list of steps ``(line, dice of that line)``. It runs twice:

1. ``trpgbot console --json --dice <all dice> --db <a.db>`` — the installed console,
   one process, every line on stdin, the dice concatenated;
2. a restart between every line — a fresh ``Core`` on ``b.db`` per line, with only
   that line's dice and a fallback that fails on any unscripted die, each line fed to
   ``serve_console(..., as_json=True)``.

Every line names its speaker, because console heads are sticky within one process
only. The two JSON transcripts must be identical; the key numbers are read from the
per-line replies' data. Every reply's exact text is a step of the session table
tests/bot/sessions/plurk.toml (tests/bot/test_sessions.py), the same script.

The table (channel ``console``, system ``plurk`` — the default of a new channel):
GM ``keeper``; ``alice`` plays 艾莉絲 (靈巧 5, 體質 3, 觀察 4, 潛行 3, 體力 12, 理智 50,
因果點數 9), ``bob`` plays 鮑伯 (靈巧 2, 體質 1, 觀察 2, 潛行 1, 普通攻擊 1, 體力 10, 理智 40,
因果點數 3), ``carol`` plays 卡蘿 (靈巧 3, 體質 2, 觀察 1, 潛行 2, 體力 8, 理智 30,
因果點數 0, 武器耐久 4); enemies 食屍鬼 (a monster, 靈巧 3, hp 15, armor 2, 觀察 2) and
暴徒 (human-like, 靈巧 1, 體質 1, hp 9); in round 2 狂信者 joins (human-like, 靈巧 2, hp 10).

The secret roll's die is 19 and its value 24 (19 + 觀察 2 + 3 ≥ 20 → 成功). No other
number in the channel contains 19 or 24, and every public check fails (the miss too),
so no channel message about a check says 成功. The one 成功 in the channel is the
surprise's outcome, a line of its own that the rules make public ("🤫 我方突襲成功！");
the surprise's dice, like the secret roll's, reach only the GM. The only private
messages of the session are those two GM messages.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import pytest

from tests.console_session import CHANNEL, Step, one_process, restart_every_line

"""The console script that `pip install -e .` put beside the interpreter."""
SECRET_RAW, SECRET_VALUE, SECRET_OUTCOME = 19, 24, "成功"

Message = dict[str, Any]


SCRIPT: list[Step] = [
    # --- set-up: the GM, three investigators and their sheets
    Step("keeper: .gm", [], "gm"),
    Step("alice: .pc new 艾莉絲", []),
    Step("alice: .st 靈巧 5 體質 3 觀察 4 潛行 3 體力 12 理智 50 因果點數 9", [], "st_alice"),
    Step("bob: .pc new 鮑伯", []),
    Step("bob: .st 靈巧 2 體質 1 觀察 2 潛行 1 普通攻擊 1 體力 10 理智 40 因果點數 3", [],
         "st_bob"),
    Step("carol: .pc new 卡蘿", []),
    Step("carol: .st 靈巧 3 體質 2 觀察 1 潛行 2 體力 8 理智 30 因果點數 0 武器耐久 4", [],
         "st_carol"),
    Step("keeper: .cp award 艾莉絲 3", [], "cp_award"),  # PL-12: 9 → 12, may intervene
    Step("keeper: .ap set 4", [], "ap_set"),  # PL-11: the team's pool
    # --- checks (PL-2, PL-3): every public check fails; carol's is a fumble
    Step("alice: .ra 觀察", [5], "ra_alice"),  # 5 + 4 = 9 < 11
    Step("bob: .ra 觀察+1 >=15", [11], "ra_bob"),  # 11 + 2 + 1 = 14 < 15
    Step("carol: .ra 靈巧", [1], "ra_carol"),  # 1 + 3 = 4 < 11, fumble (raw 1)
    # --- PL-7: the secret roll — only the GM may learn 19 / 24 / 成功
    Step("keeper: .secret 鮑伯 觀察 +3 >=20", [SECRET_RAW], "secret"),
    # PL-10 / PL-7: bob's push rerolls his own last check (11), not the secret one;
    # 8 + 2 + 1 = 11 < 15 fails, and a failed push is a fumble
    # PL-10: a push needs the GM's consent (「若局方允許」): asked, allowed, then rolled
    Step("bob: .push", [], "push_request"),
    Step("keeper: .ra allow 鮑伯", [], "push_allowed"),
    Step("bob: .push", [8], "push"),
    # --- PL-11: AP spent down to 0
    Step("alice: .ap 觀察", [], "ap_1"),  # 4 → 3
    Step("bob: .ap 詢問", [], "ap_2"),  # 3 → 2
    Step("carol: .ap 移動", [], "ap_3"),  # 2 → 0: the scene is forced to advance
    # --- battle set-up (PL-13, PL-14)
    Step("alice: .battle join", []),
    Step("bob: .battle join", []),
    Step("carol: .battle join", []),
    Step("keeper: .enemy add 食屍鬼 靈巧=3 hp=15 armor=2 觀察=2", []),
    Step("keeper: .enemy add 暴徒 靈巧=1 體質=1 hp=9 human", []),
    # PL-14 surprise: the party sneaks, judged by its loudest member 鮑伯 (潛行 1), against
    # each enemy's 觀察: 16+1 = 17 > 食屍鬼 9+2 = 11, 14+1 = 15 > 暴徒 7+0 = 7 → surprised;
    # then one d20 each in join order, then the enemies: 艾莉絲 10+5=15, 鮑伯 13+2=15,
    # 卡蘿 14+3=17, 食屍鬼 5+3=8, 暴徒 17+1=18 (would be first — the surprise puts the
    # party first); the tied 15s reroll 6 and 11
    Step("keeper: .battle start sneak=party", [16, 9, 14, 7, 10, 13, 14, 5, 17, 6, 11],
         "start"),
    Step("keeper: .place 卡蘿 A1", []),
    # --- round 0
    Step("bob: .act 攻擊", [], "not_bobs_turn"),  # PL-13: only the actor (or a GM)
    Step("carol: .move C2", [], "move"),  # PL-15: Chebyshev 2 cells, BP 4 → 2
    Step("carol: .act 道具", [], "item"),  # BP 2 → 1
    Step("carol: .pass", [], "carol_pass_0"),  # BP refilled, 鮑伯's turn
    # PL-17: raw 5 ≥ 9/2 → 體質 d20 3+1 = 4 < 10 fails → out for 3D6 2+3+4 = 9 turns, 1 damage
    Step("bob: .atk 暴徒 1d6 ko", [5, 3, 2, 3, 4], "ko"),
    Step("bob: .pass", []),
    # PL-18: 1d8 rolled twice, 5 + 3 + 1 = 9; armor 2 − pen 1 = 1; 8 taken, 15 → 7
    Step("alice: .atk 食屍鬼 1d8+1 impale pen=1", [5, 3], "impale"),
    Step("alice: .pass", [], "alice_pass_0"),  # 暴徒 is out: skipped, 食屍鬼's turn
    # PL-12: the ghoul's 2d6+4 = 15 would take 艾莉絲 from 12 to 0: a fatal event
    Step("keeper: .atk 艾莉絲 2d6+4", [6, 5], "fatal"),
    # PL-12: the ghoul's howl costs 卡蘿 all her 理智 (30 → 0): a second, newer event #2
    Step("keeper: .san -30 卡蘿", [], "fatal_san"),
    # a bare .intervene settles 艾莉絲's own newest event #1, not the channel's newest #2
    Step("alice: .intervene", [], "intervene"),  # CP 12 → 7, HP stays 12
    Step("carol: .accept", [], "accept"),  # 卡蘿 has no CP: she takes it, 理智 30 → 0
    Step("alice: .cp", [], "cp_after"),
    Step("alice: .hp", [], "hp_after"),
    Step("keeper: .pass", [], "round_1"),
    # --- round 1
    Step("carol: .act 攻擊", [], "carol_atk_1"),  # BP 4 → 2
    Step("carol: .act 攻擊", [], "carol_atk_2"),  # BP 2 → 0: the turn passes by itself
    Step("bob: .act 技能", [], "bob_skill"),  # BP 4 → 2
    Step("bob: .pass", []),
    Step("alice: .atk 食屍鬼 1d6", [6], "plain_hit"),  # 6 − armor 2 = 4: 7 → 3
    Step("alice: .pass", [], "alice_pass_1"),  # 暴徒 skipped again
    Step("keeper: .act 攻擊", [], "ghoul_act"),  # BP 4 → 2
    Step("keeper: .pass", [], "round_2"),
    Step("keeper: .battle", [], "show"),
    # --- round 2: a human-like enemy joins (one d20: 3+2 = 5, it acts last)
    Step("keeper: .enemy add 狂信者 靈巧=2 hp=10 human", [3], "cultist"),
    Step("carol: .parry 食屍鬼", [], "parry_monster"),  # PL-16: a monster's attacks: refused
    Step("carol: .parry 狂信者", [], "parry"),  # 武器耐久 4 from the sheet, BP 4 → 3
    Step("carol: .atk 狂信者 1d6", [], "atk_after_parry"),  # attack or parry: refused
    Step("carol: .pass", []),
    # issue 12 item 3: the hit check first — 9 + 普通攻擊 1 + 1 = 11 < 13 misses: no damage
    Step("bob: .atk 狂信者 1d6 普通攻擊+1 >=13", [9], "miss"),
    Step("bob: .pass", []),
    Step("alice: .pass", []),  # 暴徒 skipped, 食屍鬼's turn
    Step("keeper: .pass", [], "cultist_turn"),
    # the cultist's 2d6 = 1 + 2 = 3 is absorbed by 卡蘿's parry: 耐久 4 → 1, 體力 stays 8
    Step("keeper: .atk 卡蘿 2d6", [1, 2], "parried"),
    Step("keeper: .battle end", [], "end"),
    Step("alice: .st show", [], "sheet_end"),
    Step("carol: .st show", [], "sheet_carol"),
    Step("keeper: .ap", [], "ap_end"),
]
NAMES = {step.name: i for i, step in enumerate(SCRIPT) if step.name}
assert len(NAMES) == sum(1 for step in SCRIPT if step.name), "duplicate step names"


class Session(NamedTuple):
    whole: list[Message]  # run 1, the one console process
    by_line: list[list[Message]]  # run 2, restarted before every line


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    tmp = tmp_path_factory.mktemp("plurk_session")
    return Session(one_process(tmp, SCRIPT), await restart_every_line(tmp, SCRIPT))


def replies(session: Session, name: str) -> list[Message]:
    return session.by_line[NAMES[name]]


def said(session: Session, name: str) -> Message:
    """The one channel message of a step (and there is no private one)."""
    [out] = replies(session, name)
    assert (out["to"], out["channel"], out["user"]) == ("channel", CHANNEL, None), out
    return out


def split(session: Session, name: str) -> tuple[Message, list[Message]]:
    """The one channel message of a step and its private messages."""
    channel = [m for m in replies(session, name) if m["to"] == "channel"]
    private = [m for m in replies(session, name) if m["to"] != "channel"]
    [out] = channel
    assert (out["channel"], out["user"]) == (CHANNEL, None), out
    return out, private


def data(session: Session, name: str) -> dict[str, Any]:
    """A step's structured result: its channel message's — or, when the channel saw an
    enemy's name and band only (issue 24), the GM's private copy's, which has it all."""
    out, private = split(session, name)
    copies = [m for m in private if m["data"] and m["data"].get("kind") == "plurk.battle"]
    found = copies[0]["data"] if copies else out["data"]
    assert found is not None, name
    return found


def roster(battle: dict[str, Any], field: str) -> dict[str, Any]:
    return {c["name"]: c.get(field) for c in battle["combatants"]}


def actor(battle: dict[str, Any]) -> str:
    return battle["combatants"][battle["current"]]["name"]


# --------------------------------------------------------------------------- the session


def test_restarting_between_every_line_changes_nothing(session: Session) -> None:
    restarted = [message for line in session.by_line for message in line]
    assert len(session.whole) == len(restarted)
    for i, (one, other) in enumerate(zip(session.whole, restarted, strict=True)):
        assert one == other, f"message {i} differs"
    assert all(session.by_line), "every line of the script answers"
    # the refusals are the intended ones (PL-13, PL-16 twice); nothing else went wrong
    refusals = [m["text"] for m in session.whole if m["text"].startswith("⚠")]
    assert refusals == [said(session, name)["text"] for name in (
        "not_bobs_turn", "parry_monster", "atk_after_parry")]


def test_setup_checks_and_ap(session: Session) -> None:
    assert data(session, "st_alice")["stats"] == {
        "靈巧": 5, "體質": 3, "觀察": 4, "潛行": 3, "體力": 12, "理智": 50, "因果點數": 9}
    assert data(session, "st_bob")["stats"] == {
        "靈巧": 2, "體質": 1, "觀察": 2, "潛行": 1, "普通攻擊": 1, "體力": 10, "理智": 40,
        "因果點數": 3}
    assert data(session, "st_carol")["stats"] == {
        "靈巧": 3, "體質": 2, "觀察": 1, "潛行": 2, "體力": 8, "理智": 30, "因果點數": 0,
        "武器耐久": 4}
    # PL-2 / PL-3: raw, modifiers, value, threshold, outcome and fumble apart
    checks = {name: data(session, name) for name in ("ra_alice", "ra_bob", "ra_carol")}
    assert {name: (c["kind"], c["raw"], c["modifier"], c["bonus"], c["value"], c["threshold"],
                   c["success"], c["crit"], c["fumble"]) for name, c in checks.items()} == {
        "ra_alice": ("plurk_check", 5, 4, 0, 9, 11, False, False, False),
        "ra_bob": ("plurk_check", 11, 2, 1, 14, 15, False, False, False),
        "ra_carol": ("plurk_check", 1, 3, 0, 4, 11, False, False, True),
    }
    # PL-11: the pool 4 is spent by the defaults 1, 1, 2 down to 0
    assert data(session, "ap_set")["points"] == 4
    spends = [data(session, f"ap_{i}") for i in (1, 2, 3)]
    assert [(s["action"], s["cost"], s["before"], s["after"], s["exhausted"])
            for s in spends] == [("observe", 1, 4, 3, False), ("interview", 1, 3, 2, False),
                                 ("move", 2, 2, 0, True)]
    assert "強制推進" not in said(session, "ap_2")["text"]
    assert data(session, "ap_end")["points"] == 0


def test_secret_roll_reaches_only_the_gm(session: Session) -> None:
    """PL-7: the channel learns that a secret roll was made, never its die, value or
    outcome — in no channel message of the whole session, text or data."""
    channel, private = [], []
    for message in replies(session, "secret"):
        (channel if message["to"] == "channel" else private).append(message)
    assert [(m["text"], m["data"]) for m in channel] == [(
        "🤫 GM 為 鮑伯 進行了一次秘密「觀察」檢定。",
        {"kind": "plurk_secret", "character": "鮑伯", "stat": "觀察"})]
    [gm] = private
    assert (gm["to"], gm["user"], gm["channel"]) == ("private", "keeper", CHANNEL)
    assert gm["text"] == ("（秘密檢定）🎲 鮑伯「觀察」檢定："
                          "1d20=19 觀察+2 情境+3 = 24 ≥ 閾值 20 → 成功")
    assert (gm["data"]["raw"], gm["data"]["value"], gm["data"]["success"]) == (
        SECRET_RAW, SECRET_VALUE, True)
    for secret in (str(SECRET_RAW), str(SECRET_VALUE), SECRET_OUTCOME):
        assert secret in gm["text"]
    # every private message of the session goes to the GM: that one, the surprise's
    # (PL-14) and the enemies' numbers (issue 24)
    start, private = split(session, "start")
    [surprise] = [m for m in private if m["text"].startswith("🤫 先制檢定")]
    for transcript in (session.whole, [m for line in session.by_line for m in line]):
        private = [m for m in transcript if m["to"] != "channel"]
        assert gm in private and surprise in private
        assert {(m["to"], m["user"]) for m in private} == {("private", "keeper")}
        public = [m for m in transcript if m["to"] == "channel"]
        assert len(public) == len(transcript) - len(private)
        for message in public:
            seen = message["text"] + json.dumps(message["data"], ensure_ascii=False)
            for secret in (str(SECRET_RAW), str(SECRET_VALUE)):
                assert secret not in seen, (secret, message)
            assert SECRET_OUTCOME not in json.dumps(message["data"], ensure_ascii=False)
        # 成功 is said in the channel once: the surprise's public outcome, a line of its
        # own — never in a message about the secret roll or any other check
        assert [(m["text"], line) for m in public for line in m["text"].splitlines()
                if SECRET_OUTCOME in line] == [(start["text"], "🤫 我方突襲成功！")]
    # the secret roll was not kept as bob's last check (a push would reveal it)
    push = data(session, "push")
    assert (push["mode"], push["original"]["raw"], push["raw"], push["value"],
            push["success"], push["fumble"]) == ("push", 11, 8, 11, False, True)


def test_battle_initiative_rounds_and_bp(session: Session) -> None:
    # PL-14: initiative by 靈巧 checks, the tie rerolled; round 0; BP max floor(靈巧/2)+3
    # (the surprise won: the party acts first, so 暴徒's 18 comes after the party's 15s)
    start, private = split(session, "start")
    assert start["text"].splitlines()[5:7] == ["4. 暴徒 18", "5. 食屍鬼 8"]  # no enemy rolls
    [start] = [m for m in private if m["text"].startswith("🤫 我方突襲成功")]  # the GM's copy
    assert start["text"] == "\n".join([
        "🤫 我方突襲成功！",
        "⚔ 戰鬥開始！先攻（靈巧檢定，高者先）：",
        "1. 卡蘿 17（d20=14 靈巧+3）",
        "2. 鮑伯 15（d20=13 靈巧+2；同值重擲 11）",
        "3. 艾莉絲 15（d20=10 靈巧+5；同值重擲 6）",
        "4. 暴徒 18（d20=17 靈巧+1）",
        "5. 食屍鬼 8（d20=5 靈巧+3）",
        "（我方先制：我方全員先行動）",
        "▶ 第 0 輪，輪到 卡蘿（BP 4/4）",
    ])
    battle = start["data"]["battle"]
    assert roster(battle, "initiative") == {"卡蘿": 17, "鮑伯": 15, "艾莉絲": 15, "暴徒": 18,
                                            "食屍鬼": 8}
    assert list(roster(battle, "initiative")) == ["卡蘿", "鮑伯", "艾莉絲", "暴徒", "食屍鬼"]
    assert roster(battle, "initiative_rolls") == {
        "卡蘿": [14], "鮑伯": [13, 11], "艾莉絲": [10, 6], "暴徒": [17], "食屍鬼": [5]}
    assert roster(battle, "bp_max") == {"卡蘿": 4, "鮑伯": 4, "艾莉絲": 5, "暴徒": 3, "食屍鬼": 4}
    assert (battle["round"], actor(battle)) == (0, "卡蘿")
    # PL-15 / PL-13: moving 2 cells costs 2 BP, an item 1, passing refills
    move = data(session, "move")["move"]
    assert (move["from_cell"], move["to_cell"], move["distance"], move["bp_before"],
            move["bp_after"]) == ("A1", "C2", 2, 4, 2)
    item = data(session, "item")["bp"]
    assert (item["action"], item["cost"], item["bp_before"], item["bp_after"]) == (
        "item", 1, 2, 1)
    passed = data(session, "carol_pass_0")
    assert (passed["turn"]["current"], passed["turn"]["round"]) == ("鮑伯", 0)
    assert roster(passed["battle"], "bp")["卡蘿"] == 4
    assert roster(passed["battle"], "bp")["食屍鬼"] is None  # an enemy's numbers: the GM's
    # round 0 ends after the ghoul: round 1 starts with 卡蘿
    turn = data(session, "round_1")["turn"]
    assert (turn["previous"], turn["current"], turn["round"], turn["new_round"]) == (
        "食屍鬼", "卡蘿", 1, True)
    # round 1: 卡蘿 spends all 4 BP on two attacks and the turn passes by itself
    assert [(b["bp_before"], b["bp_after"]) for b in (
        data(session, "carol_atk_1")["bp"], data(session, "carol_atk_2")["bp"])] == [
        (4, 2), (2, 0)]
    auto = data(session, "carol_atk_2")["bp"]["turn"]
    assert (auto["reason"], auto["current"], auto["round"]) == ("bp_exhausted", "鮑伯", 1)
    assert said(session, "carol_atk_2")["text"].splitlines()[1:] == [
        "卡蘿 的 BP 用完了。", "▶ 第 1 輪，輪到 鮑伯（BP 4/4）"]
    skill = data(session, "bob_skill")["bp"]
    assert (skill["action"], skill["bp_before"], skill["bp_after"]) == ("skill", 4, 2)
    ghoul = data(session, "ghoul_act")["bp"]
    assert (ghoul["actor"], ghoul["bp_before"], ghoul["bp_after"]) == ("食屍鬼", 4, 2)
    # two full rounds: round 2 begins
    turn = data(session, "round_2")["turn"]
    assert (turn["current"], turn["round"], turn["new_round"]) == ("卡蘿", 2, True)
    shown = data(session, "show")["battle"]
    assert (shown["round"], actor(shown)) == (2, "卡蘿")
    assert roster(shown, "bp") == roster(shown, "bp_max")


def test_knock_out_impale_and_armor(session: Session) -> None:
    # PL-17: raw 5 ≥ half of 9 → 體質 check 3+1 = 4 against 5×2 = 10 fails →
    # unconscious 3D6 = 9 of its turns and 1 damage
    ko = data(session, "ko")
    knock = ko["knock_out"]
    assert (knock["raw_damage"], knock["hp"], knock["condition_met"]) == (5, 9, True)
    assert (knock["check"]["raw"], knock["check"]["value"], knock["check"]["threshold"],
            knock["check"]["success"]) == (3, 4, 10, False)
    assert (knock["knocked_out"], knock["rounds_rolls"], knock["rounds"], knock["damage"]) == (
        True, [2, 3, 4], 9, 1)
    assert (ko["hit"]["taken"], ko["hit"]["hp_before"], ko["hit"]["hp_after"]) == (1, 9, 8)
    assert (ko["bp"]["bp_before"], ko["bp"]["bp_after"]) == (4, 2)
    ko_said, [ko_copy] = split(session, "ko")
    assert ko_said["text"].splitlines()[1] == \
        "擊昏：體質檢定，失敗！昏迷 3D6=[2, 3, 4] = 9 輪，造成 1 點傷害"  # 暴徒's 體質: the GM's
    assert ko_copy["text"].splitlines()[1] == \
        "擊昏：體質檢定 d20=3 體質+1 = 4，閾值 10，失敗！昏迷 3D6=[2, 3, 4] = 9 輪，造成 1 點傷害"
    assert roster(ko["battle"], "unconscious")["暴徒"] == 9
    # the knocked-out 暴徒 loses its turns: skipped in round 0 and round 1
    for name in ("alice_pass_0", "alice_pass_1"):
        assert data(session, name)["turn"]["skipped"] == ["暴徒"]
        assert data(session, name)["turn"]["current"] == "食屍鬼"
    assert roster(data(session, "show")["battle"], "unconscious")["暴徒"] == 7
    # PL-18: impale rolls the dice twice, the flat +1 once: 5 + 3 + 1 = 9;
    # armor 2 − penetration 1 = 1 → 8 taken
    impale = data(session, "impale")
    assert (impale["roll"]["rolls"], impale["roll"]["modifier"], impale["roll"]["total"],
            impale["roll"]["impale"]) == ([5, 3], 1, 9, True)
    hit = impale["hit"]
    assert (hit["raw"], hit["armor"], hit["penetration"], hit["effective_armor"], hit["taken"],
            hit["hp_before"], hit["hp_after"]) == (9, 2, 1, 1, 8, 15, 7)
    assert (impale["bp"]["bp_before"], impale["bp"]["bp_after"]) == (5, 3)
    # a plain hit: 6 − armor 2 = 4
    plain = data(session, "plain_hit")["hit"]
    assert (plain["raw"], plain["effective_armor"], plain["taken"], plain["hp_after"]) == (
        6, 2, 4, 3)


def test_fatal_hit_resolved_by_intervention(session: Session) -> None:
    # PL-12: 2d6+4 = 15 would bring 艾莉絲 from 12 to 0 — a fatal event, not applied
    fatal = data(session, "fatal")
    assert (fatal["roll"]["rolls"], fatal["roll"]["total"]) == ([6, 5], 15)
    assert (fatal["hit"]["taken"], fatal["hit"]["hp_before"], fatal["hit"]["hp_after"],
            fatal["hit"]["fatal"]) == (15, 12, 0, True)
    assert (fatal["bp"]["bp_before"], fatal["bp"]["bp_after"]) == (4, 2)  # the GM's copy
    fatal_said, [fatal_copy] = split(session, "fatal")
    assert "bp_before" not in fatal_said["data"]["bp"]  # the ghoul's BP is the GM's
    assert fatal_said["text"].splitlines()[-1] == "食屍鬼：攻擊 花費 2 BP"
    assert fatal_copy["text"].splitlines()[-1] == "食屍鬼：攻擊 花費 2 BP（4 → 2）"
    lines = fatal_said["text"].splitlines()
    assert "☠ 致命事件 #1：艾莉絲 的體力將從 12 降到 0（損失 15），尚未套用。" in lines
    assert any(line.startswith("艾莉絲 持有 12 點因果點數：可用 .intervene 花費 5 點")
               for line in lines)
    # a second character's event, newer than 艾莉絲's: 卡蘿's 理智 30 → 0 is #2
    san = data(session, "fatal_san")
    assert (san["character"], san["resource"], san["before"], san["loss"], san["fatal"],
            san["after"]) == ("卡蘿", "理智", 30, 30, True, 30)
    # issue 12 item 2: the bare .intervene settles the newest event of the speaker's
    # active character — #1 (艾莉絲) — not the channel's newest (#2, 卡蘿's), and says so;
    # it spends 5 CP, cancels the loss and gives the battle its HP back
    assert data(session, "intervene") == {
        "kind": "plurk_fatal", "outcome": "intervened", "id": 1, "character": "艾莉絲",
        "resource": "體力", "loss": 15, "source": "battle"}
    # 卡蘿, without CP, takes hers: the one left, #2
    assert data(session, "accept") == {
        "kind": "plurk_fatal", "outcome": "accepted", "id": 2, "character": "卡蘿",
        "resource": "理智", "loss": 30, "source": "san"}
    assert data(session, "sheet_carol")["stats"]["理智"] == 0
    assert data(session, "cp_after")["cp"] == 7
    assert data(session, "hp_after")["after"] == 12
    assert roster(data(session, "round_1")["battle"], "hp")["艾莉絲"] == 12
    stats = data(session, "sheet_end")["stats"]
    assert (stats["體力"], stats["因果點數"]) == (12, 7)


def test_surprise_round_decided_in_secret(session: Session) -> None:
    """PL-14 (issue 12 item 4): ``.battle start sneak=party`` — the party, judged by its
    loudest member 鮑伯 (潛行 1 < 卡蘿 2 < 艾莉絲 3), rolls 潛行 against each enemy's
    觀察; the rolls are a secret roll (PL-7) that only the GM reads."""
    start, private = split(session, "start")
    [gm] = [m for m in private if m["text"].startswith("🤫 先制檢定")]
    assert (gm["to"], gm["user"], gm["channel"]) == ("private", "keeper", CHANNEL)
    assert gm["text"] == "\n".join([
        "🤫 先制檢定（暗骰，我方潛行）：",
        "鮑伯 潛行 d20=16+1 = 17 對 食屍鬼 觀察 d20=9+2 = 11：沒察覺",
        "鮑伯 潛行 d20=14+1 = 15 對 暴徒 觀察 d20=7+0 = 7：沒察覺",
    ])
    result = gm["data"]["result"]
    assert (gm["data"]["event"], result["stealth"]["label"], result["stealth"]["modifier"],
            result["surprised"]) == ("surprise", "鮑伯", 1, True)
    assert [(c["opposed"]["a"]["raw"], c["opposed"]["a"]["value"], c["opposed"]["b"]["label"],
             c["opposed"]["b"]["raw"], c["opposed"]["b"]["modifier"], c["opposed"]["b"]["value"],
             c["opposed"]["winner"], c["surprised"]) for c in result["checks"]] == [
        (16, 17, "食屍鬼", 9, 2, 11, "a", True), (14, 15, "暴徒", 7, 0, 7, "a", True)]
    # the channel reads the outcome and its effect, never the rolls: no surprise data, no
    # 潛行 / 觀察 pair, no 察覺 verdict (the exact text is asserted with the initiative)
    assert start["data"] == {"kind": "plurk.battle", "event": "start"}
    [copy] = [m for m in private if m is not gm]  # the GM's copy: enemies' numbers
    assert copy["data"]["surprise"] is None
    assert copy["data"]["battle"]["first_side"] == "party"
    assert start["text"].splitlines()[0] == "🤫 我方突襲成功！"
    for hidden in ("潛行", "觀察", "察覺", "先制檢定"):
        assert hidden not in start["text"], hidden
    # won: the party acts first although 暴徒 rolled the highest initiative (18)
    order = [c["name"] for c in copy["data"]["battle"]["combatants"]]
    assert order == ["卡蘿", "鮑伯", "艾莉絲", "暴徒", "食屍鬼"]
    assert max(roster(copy["data"]["battle"], "initiative").values()) == 18
    assert (copy["data"]["battle"]["round"], actor(copy["data"]["battle"])) == (0, "卡蘿")


def test_parry_absorbs_a_human_attack_and_a_miss_deals_nothing(session: Session) -> None:
    """PL-16 (issue 12 item 1) and the hit check (issue 12 item 3), in round 2."""
    # 狂信者 joins the running battle with its own initiative: 3 + 2 = 5, last in order
    joined = data(session, "cultist")["battle"]
    assert (roster(joined, "hp")["狂信者"], roster(joined, "human_like")["狂信者"],
            roster(joined, "weapon_durability")["卡蘿"]) == (10, True, 4)
    # against the human-like cultist: durability 4 from the sheet's 武器耐久, parry BP 4 → 3
    parry = data(session, "parry")
    assert (parry["bp"]["action"], parry["bp"]["cost"], parry["bp"]["bp_before"],
            parry["bp"]["bp_after"]) == ("parry", 1, 4, 3)
    assert (roster(parry["battle"], "parry_against")["卡蘿"],
            roster(parry["battle"], "weapon_durability")["卡蘿"]) == ("狂信者", 4)
    # the miss: d20 9 + 普通攻擊 1 + 1 = 11 < 13 — attack BP spent, no damage rolled,
    # 狂信者's HP unchanged (11 would have hit against the default threshold 11)
    miss = data(session, "miss")
    check = miss["check"]
    assert (check["stat"], check["raw"], check["modifier"], check["bonus"], check["value"],
            check["threshold"], check["success"], check["mode"]) == (
        "普通攻擊", 9, 1, 1, 11, 13, False, "roll")
    assert (miss["roll"], miss["hit"], miss["knock_out"]) == (None, None, None)
    assert (miss["bp"]["bp_before"], miss["bp"]["bp_after"]) == (4, 2)
    assert roster(miss["battle"], "hp")["狂信者"] is None  # the channel's data: the GM's
    # the cultist's turn (the knocked-out 暴徒 skipped on the way)
    turn = data(session, "cultist_turn")["turn"]
    assert (turn["previous"], turn["current"], turn["round"]) == ("食屍鬼", "狂信者", 2)
    # its 2d6 = 1 + 2 = 3 is absorbed by 卡蘿's parry: 耐久 4 → 1, 體力 8 → 8
    parried = data(session, "parried")
    assert (parried["roll"]["rolls"], parried["roll"]["total"]) == ([1, 2], 3)
    hit = parried["hit"]
    assert (hit["attacker"], hit["target"], hit["raw"], hit["parried"], hit["absorbed"],
            hit["durability_before"], hit["durability_after"], hit["weapon_broken"],
            hit["taken"], hit["hp_before"], hit["hp_after"], hit["fatal"]) == (
        "狂信者", "卡蘿", 3, True, 3, 4, 1, False, 0, 8, 8, False)
    assert (roster(parried["battle"], "hp")["卡蘿"],
            roster(parried["battle"], "weapon_durability")["卡蘿"]) == (8, 1)
    # the durability the parry used is written back to the sheet entry it came from
    stats = data(session, "sheet_carol")["stats"]
    assert (stats["武器耐久"], stats["體力"]) == (1, 8)
