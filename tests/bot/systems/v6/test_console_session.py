"""A whole scripted `ap20+v6` fight through the console adapter in `--json` mode (issue 14):
a crouching archer, a crawling target and a flank.

``alice``'s 艾莉絲 crouches (V6-2: an instant action, 1 AP) and shoots the GM's 斥候 with
one advantage; ``carol``'s 卡蘿 walks round to the scout's back (V6-3: 5 steps at stride 3
= 2 fatigue) while ``bob``'s 鮑伯 stands in front of it: a flank from a blind spot — the
scout cannot defend (V6-1: armor only, no reaction) and it is a sneak attack (AP-7).
The scout drops to crawl (V6-2: a tactical action, 3 AP), crawls a step (stride ⅓ → 1),
cannot stab while crawling, and 艾莉絲's next crouching shot at the crawling target has
+1 −2 = one disadvantage (AP-6: the lower d20) against a defence without parry.

Same two runs as the ap20 session (``tests/bot/systems/ap20/test_console_session.py``):
one console process, and a restart before every line; identical transcripts.
"""

from __future__ import annotations

import pytest

from tests.console_session import Message, Session, Step, assert_same_transcript, play

SCRIPT: list[Step] = [
    Step("keeper: .gm", []),
    Step("keeper: .system ap20+v6", [], "system"),
    Step("alice: .pc new 艾莉絲", []),
    Step("alice: .st 敏捷 14 命中 5 破甲 1 護甲 1 閃避 2 生命 18 步幅 4 靈巧 4 強壯 4", []),
    Step("bob: .pc new 鮑伯", []),
    Step("bob: .st 敏捷 12 命中 4 破甲 2 護甲 3 招架 2 生命 22 步幅 3", []),
    Step("carol: .pc new 卡蘿", []),
    Step("carol: .st 敏捷 16 命中 3 破甲 3 護甲 2 閃避 3 生命 16 步幅 3", []),
    Step("alice: .init join", [12], "join_alice"),  # 12 + 2 = 14
    Step("bob: .init join", [10], "join_bob"),  # 10 + 1 = 11
    Step("carol: .init join", [8], "join_carol"),  # 8 + 3 = 11: the higher modifier first
    Step("keeper: .init add 斥候 hp=24 護甲=1 閃避=4 招架=3 命中=3 破甲=1", [6], "add_scout"),
    Step("keeper: .place 艾莉絲 A1 SE", []),
    Step("keeper: .place 鮑伯 F4 S", []),
    Step("keeper: .place 卡蘿 A7 E", []),
    Step("keeper: .place 斥候 F6 N 步幅=3", [], "place_scout"),
    Step("keeper: .map", [], "map_start"),
    Step("keeper: .init next", [], "round_1"),  # 艾莉絲
    # the crouching archer: V6-2 1 instant action = 1 AP; a shot +1 → two d20, the higher
    Step("alice: .pose 蹲伏", [], "alice_crouch"),
    Step("alice: .atk 斥候 1d8+1 射擊 穿刺", [6, 13, 5], "alice_shot"),  # 13+6=19 ≥ 8; 24→18
    Step("alice: .pass", [], "to_carol"),
    # the flank: round to the scout's back (A7 → F7, 5 steps, stride 3 = 2 fatigue)
    Step("carol: .move F7", [], "carol_move"),
    Step("carol: .atk 斥候 1d6+3", [5, 11, 4], "carol_flank"),  # sneak: 11+16=27; crit ≥ 10
    Step("carol: .pass", [], "to_bob"),
    Step("bob: .atk 斥候 1d8+2", [9, 3], "bob_front"),  # from the front: defended, 15 ≥ 8
    Step("bob: .pass", [], "to_scout"),
    # the crawling target: V6-2 stand → crawl is a tactical action (3 AP); stride 3 → 1;
    # a move after the turn's tactical action is a standalone one (decision 12): 3 AP more
    Step("keeper: .pose 匍匐", [], "scout_crawl"),
    Step("keeper: .move G5", [], "scout_move"),
    Step("keeper: .atk 鮑伯 1d6", [], "scout_cannot_stab"),
    Step("keeper: .pass", [], "round_2"),
    # crouching shot +1, crawling target −2: one disadvantage, the lower d20; the scout
    # has 0 AP left: armor only
    Step("alice: .atk 斥候 1d8+1 射擊", [15, 8, 3], "alice_vs_crawl"),
    Step("keeper: .map", [], "map_end"),
    Step("keeper: .init end", [], "end"),
]


def both(session: Session, name: str) -> tuple[Message, Message]:
    """A step's channel reply and the GM's private copy: the scout's numbers are the
    GM's (issue 24); the channel's copy names its health band instead, or leaves out
    its fatigue, stride and action points."""
    index = next(i for i, step in enumerate(session.script) if step.name == name)
    [channel, secret] = session.by_line[index]
    assert (channel["to"], secret["to"]) == ("channel", "private"), (channel, secret)
    return channel, secret


def to_gm(session: Session, name: str) -> Message:
    """The GM's private copy of a step's reply."""
    return both(session, name)[1]


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    return await play(tmp_path_factory.mktemp("v6_session"), SCRIPT)


def test_restarting_between_every_line_changes_nothing(session: Session) -> None:
    assert_same_transcript(session)
    refusals = [m["text"] for m in session.whole if m["text"].startswith("⚠")]
    assert refusals == ["⚠ 匍匐時只能用直射武器遠程攻擊，不能近戰。"]


def test_setup_and_the_field(session: Session) -> None:
    assert session.text("system") == "本頻道的規則系統改為 ap20+v6（規則書·戰鬥篇 + 站位與姿勢）。"
    order = [f["name"] for f in to_gm(session, "add_scout")["data"]["fight"]["fighters"]]
    assert order == ["艾莉絲", "卡蘿", "鮑伯", "斥候"]
    assert session.text("place_scout") == "📍 斥候 F6↑ 站立（中型）"  # its fatigue: the GM's
    assert session.data("place_scout")["field"]["units"][-1] == {
        "name": "斥候", "cell": [5, 5], "facing": 0, "posture": "stand", "size": "medium",
        "sense": "normal"}
    lines = session.text("map_start").splitlines()
    assert lines[5:9] == [" 4 . . . . . c . . . . . .", " 5 . . . . . . . . . . . .",
                          " 6 . . . . . d . . . . . .", " 7 b . . . . . . . . . . ."]


def test_the_crouching_archer(session: Session) -> None:
    assert session.text("alice_crouch") == "艾莉絲：站立→蹲伏，即時行動×1 行動力 −1 6→5"
    shot = to_gm(session, "alice_shot")["data"]
    assert (shot["check"]["rolls"], shot["check"]["raw"], shot["check"]["advantage"],
            shot["check"]["disadvantage"], shot["check"]["total"], shot["defense"]["total"]) == (
        [6, 13], 13, 1, 0, 19, 8)
    assert shot["check"]["layers"] == [[1, "crouch_shot"]]
    assert shot["tactics"] == {"sector": "front", "distance": 6}
    assert (shot["spend"], shot["hp"]) == ({"ap_before": 5, "ap_after": 2},
                                           {"before": 24, "after": 18})
    assert to_gm(session, "alice_shot")["text"].splitlines()[0] == (
        "⚔ 艾莉絲→斥候（射擊｜優勢1｜蹲伏射擊+1）：d20[6,13]取高13 +命中5+破甲1 = 19 "
        "≥ 防禦 8 → 命中")


def test_the_flank(session: Session) -> None:
    move = session.data("carol_move")
    assert (move["start"], move["end"], move["walked"], move["stride"], move["fatigue"]) == (
        "A7", "F7", 5, 3, 2)
    flank = to_gm(session, "carol_flank")["data"]
    assert flank["tactics"] == {"sector": "back", "distance": 0, "flank": "鮑伯"}
    assert (flank["defended"], flank["reaction"], flank["defense"]["armor_only"],
            flank["defense"]["total"]) == (False, {"before": 5, "after": 5}, "undefendable", 1)
    check = flank["check"]
    assert (check["sneak"], check["rolls"], check["raw"], check["hit_level"], check["total"],
            check["crit_threshold"], check["crit_by"]) == (
        True, [5, 11], 11, 13, 27, 10, "threshold")
    assert (flank["damage"]["rolled"], flank["hp"]) == (11, {"before": 18, "after": 7})
    assert to_gm(session, "carol_flank")["text"].splitlines() == [
        "⚔ 卡蘿→斥候（優勢1｜偷襲：優勢1、重擊強度+10｜背後：無法防禦、與 鮑伯 夾擊）："
        "d20[5,11]取高11 +命中3+破甲3+偷襲10 = 27 ≥ 防禦 1（僅護甲：無法防禦） → 命中，重擊"
        "（骰點 ≥ 10）",
        "💥 重擊 1d6+3=[4]×2+3=11 → 斥候 生命 18→7",
        "行動力 卡蘿 6→3"]
    assert session.by_line[[s.name for s in session.script].index("carol_flank")][0][
        "text"].splitlines()[1] == "💥 重擊 1d6+3=[4]×2+3=11 → 斥候 重傷"
    front = to_gm(session, "bob_front")["data"]
    assert (front["tactics"]["sector"], front["defended"], front["reaction"],
            front["hp"]) == ("front", True, {"before": 5, "after": 4},
                             {"before": 7, "after": 2})


def test_the_crawling_target(session: Session) -> None:
    # the channel reads what the GM's scout did, the GM what it cost
    assert [m["text"] for m in both(session, "scout_crawl")] == [
        "斥候：站立→匍匐，戰術行動×1", "斥候：站立→匍匐，戰術行動×1 行動力 −3 6→3"]
    assert [m["text"] for m in both(session, "scout_move")] == [
        "👣 斥候 F6→G5：1 步；單獨移動，戰術行動×1",
        "👣 斥候 F6→G5：1 步，步幅 1；疲勞 +1 0→1；單獨移動，戰術行動×1 行動力 −3 3→0"]
    channel, secret = both(session, "scout_move")
    assert set(channel["data"]) == {"kind", "event", "field", "name", "start", "end",
                                    "walked", "roll"}
    assert (secret["data"]["stride"], secret["data"]["fatigue_after"]) == (1, 1)
    assert session.data("round_2")["turn"]["ap_after"] == 6
    shot = to_gm(session, "alice_vs_crawl")["data"]
    check = shot["check"]
    assert (check["rolls"], check["raw"], check["advantage"], check["disadvantage"],
            check["layers"]) == ([15, 8], 8, 1, 2, [[1, "crouch_shot"], [-2, "crawl_target"]])
    assert shot["defense"] == {"total": 1, "counted": {"armor": 1},
                               "armor_only": "no_ap", "lost": ["parry"]}
    assert (check["total"], shot["reaction"], shot["hp"]) == (
        14, {"before": 0, "after": 0}, {"before": 2, "after": 0})
    assert to_gm(session, "alice_vs_crawl")["text"].splitlines()[1] == (
        "💥 1d8+1=[3]+1=4 → 斥候 生命 2→0（倒下）")
    # issue 24: the map marks the fallen
    assert session.text("map_end").splitlines()[-4:] == [
        "a 艾莉絲 A1↘ 蹲伏 疲勞0", "b 卡蘿 F7→ 站立 疲勞2", "c 鮑伯 F4↓ 站立 疲勞0",
        "d 斥候 G5↑ 匍匐（倒下）"]
    assert session.text("end") == (
        "⚔ 戰鬥結束（共 2 輪）。艾莉絲 生命 18、卡蘿 生命 16、鮑伯 生命 22、斥候 倒下")
