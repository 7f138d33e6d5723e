"""A scripted `ace` table session through the console adapter in `--json` mode.

Issue 13, "Done when": a short fight — an **ambush** (艾莉絲 sneaks past both enemies,
acts first at `.init start` and assassinates: no hit die), a **called shot** (the
abdomen, a d10 that crits only on a 10), a **grapple** (鮑伯 holds the werewolf in
round 1 and pins it in round 2), an **extended action across rounds** (卡蘿 defuses a
bomb, one period per round, with the mishap rule counting her 1s) and an **item
stored and taken** (bandages in 卡蘿's nightmare mark) — with the numbers asserted, and
the same transcript when the bot restarts before every line.

The session is one list of steps ``(line, dice of that line)`` and runs twice:

1. ``trpgbot console --json --dice <all dice> --db <a.db>`` — the installed console,
   one process, every line on stdin;
2. a fresh ``Core`` per line on ``b.db`` with only that line's dice (and a fallback
   that fails on any unscripted die), each line fed to ``serve_console``.

The numbers are asserted on the replies' data; every reply's exact text is a step of the
session table tests/bot/sessions/ace.toml (tests/bot/test_sessions.py), the same script.

The table (channel ``console``): GM ``keeper``; ``alice`` plays 艾莉絲 (力量 4, 敏捷 5,
體質 5, 精神力 5, 基本步法 1, 基本近戰 1, 武器 3, 隱藏 3: hit +6, melee attack 8, evasion
6, defense ⌊5 × 60 %⌋ = 3, HP 50), ``bob`` plays 鮑伯 (力量 7, 敏捷 4, 體質 6, 精神力 4,
基本擒拿 2, 基本腰力 1: grapple hit +8, contest +9, evasion 4, defense 3, HP 60), ``carol``
plays 卡蘿 (力量 4, 敏捷 6, 體質 4, 精神力 6, 機械 3). Enemies: 狼人 (力量 5, 敏捷 10, 體質 7,
精神力 5, 基本步法 2, 防具 2, 生存 2: evasion 12, defense 4 + 2 = 6, escape 10 + 2 = 12, HP 70,
natural weapon: attack 5 + 1 = 6) and 蝙蝠 (力量 1, 敏捷 8, 體質 2, 精神力 2, 生存 3).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from tests.console_session import CHANNEL, Step, one_process, restart_every_line

Message = dict[str, Any]


SCRIPT: list[Step] = [
    Step("keeper: .gm", []),
    Step("keeper: .system ace", [], "system"),
    Step("alice: .pc new 艾莉絲", []),
    Step("alice: .st 力量4 敏捷5 體質5 精神力5 基本步法1 基本近戰1 武器3 隱藏3", []),
    Step("bob: .pc new 鮑伯", []),
    Step("bob: .st 力量7 敏捷4 體質6 精神力4 基本擒拿2 基本腰力1", []),
    Step("carol: .pc new 卡蘿", []),
    Step("carol: .st 力量4 敏捷6 體質4 精神力6 機械3", []),
    Step("keeper: .enemy add 狼人 力量5 敏捷10 體質7 精神力5 基本步法2 防具2 生存2", [], "wolf"),
    Step("keeper: .enemy add 蝙蝠 力量1 敏捷8 體質2 精神力2 生存3", []),
    # AE-14: two bandages, one slot each (a level-1 mark has 6)
    Step("carol: .store 繃帶 2", [], "store"),
    # AE-4: DC 3, three periods, the mishap rule on
    Step("carol: .ext new 拆炸彈 dc3 期限3 過失", [], "ext_new"),
    # AE-13: 隱藏 DP3 [8,8,1] = 2 against 狼人's 生存 DP2 [8,1] = 1 and 蝙蝠's DP3 [9,2,3] = 1
    Step("alice: .sneak 狼人 蝙蝠", [8, 8, 1, 8, 1, 9, 2, 3], "sneak"),
    # initiative 1d20 + 敏捷: 艾莉絲 2+5 = 7, 鮑伯 15+4 = 19, 卡蘿 10+6 = 16, 狼人 12+10 = 22,
    # 蝙蝠 5+8 = 13
    Step("alice: .ri", [2], "ri_alice"),
    Step("bob: .ri", [15]),
    Step("carol: .ri", [10]),
    Step("keeper: .ri 狼人 蝙蝠", [12, 5], "ri_enemies"),
    # ambush: 艾莉絲 was not discovered, she acts first despite her 7
    Step("keeper: .init start", [], "start"),
    # --- round 1
    # assassination: no hit die; attack 8 − defense 6 = DP2 [8,10] → 2 × 5 = 10: 70 → 60
    Step("alice: .atk 狼人 暗殺", [8, 10], "assassinate"),
    Step("alice: .next", [], "next_1"),
    # the GM plays the werewolf on its turn: 3 + 12 = 15 > 6; attack 6 − 3 = DP3 [8,2,9]
    # → 2 × 5 = 10: 艾莉絲 50 → 40
    Step("keeper: .atk 艾莉絲", [3, 8, 2, 9], "wolf_hits"),
    Step("keeper: .next", []),
    # AE-9: grab hit 9 + 8 = 17 > 12; contest 10 + 9 = 19 vs 狼人's escape 6 + 12 = 18: held (1)
    Step("bob: .grab 狼人", [9, 10, 6], "grab"),
    Step("bob: .next", []),
    # AE-4 period 1: 機械 DP3 [8,1,4] → 1 success, one 1
    Step("carol: .ext 拆炸彈 機械", [8, 1, 4], "ext_1"),
    Step("carol: .next", []),
    Step("keeper: .next", [], "round_2"),
    # --- round 2
    # AE-7: the abdomen, d10 raw 10 crits (10 + 6 − 6 = 10 ≤ 12, a crit still hits);
    # DP 8 + 3 − 6 = 5 [8,9,3,2,1] → 2 × 10 + 5 = 25: 60 → 35
    Step("alice: .atk 狼人 腹", [10, 8, 9, 3, 2, 1], "called_shot"),
    Step("alice: .next", []),
    # held: the werewolf's hit takes −1: 2 + 12 − 1 = 13 > 4; DP3 [8,4,4] → 5: 鮑伯 60 → 55
    Step("keeper: .atk 鮑伯", [2, 8, 4, 4], "held_hits"),
    Step("keeper: .next", []),
    # the pin, a round later: 14 + 9 = 23 vs escape 8 + 12 = 20: pinned (3)
    Step("bob: .grab 狼人", [14, 8], "pin"),
    # issue 24: out of turn (鮑伯's), refused naming whose turn it is
    Step("keeper: .atk 鮑伯 by=狼人", [], "out_of_turn"),
    Step("bob: .next", []),
    # AE-14: taking out costs a swift action to select and a standard one
    Step("carol: .take 繃帶", [], "take"),
    # AE-4 period 2: DP3 [9,10,5] → 2: 3/3, done
    Step("carol: .ext 拆炸彈 機械", [9, 10, 5], "ext_2"),
    Step("keeper: .init", [], "init_show"),
    Step("keeper: .init end", [], "end"),
    Step("carol: .mark", [], "mark"),
    Step("keeper: .ext", [], "ext_list"),
    Step("keeper: .enemy", [], "enemies"),
]
NAMES = {step.name: i for i, step in enumerate(SCRIPT) if step.name}
assert len(NAMES) == sum(1 for step in SCRIPT if step.name), "duplicate step names"


class Session(NamedTuple):
    whole: list[Message]
    by_line: list[list[Message]]


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    tmp = tmp_path_factory.mktemp("ace_session")
    return Session(one_process(tmp, SCRIPT), await restart_every_line(tmp, SCRIPT))


def said(session: Session, name: str) -> Message:
    [out] = session.by_line[NAMES[name]]
    assert (out["to"], out["channel"], out["user"]) == ("channel", CHANNEL, None), out
    return out


def gm_data(session: Session, name: str) -> dict[str, Any]:
    """The data of what the GM alone was told (an enemy's numbers, issue 24)."""
    [found] = [m for m in session.by_line[NAMES[name]] if m["to"] == "private"]
    assert found["user"] == "keeper" and found["data"] is not None, found
    return dict(found["data"])


def data(session: Session, name: str) -> dict[str, Any]:
    found = said(session, name)["data"]
    assert found is not None, name
    return found


# --------------------------------------------------------------------------- the session


def test_restarting_between_every_line_changes_nothing(session: Session) -> None:
    restarted = [message for line in session.by_line for message in line]
    assert len(session.whole) == len(restarted)
    for i, (one, other) in enumerate(zip(session.whole, restarted, strict=True)):
        assert one == other, f"message {i} differs"
    assert all(session.by_line), "every line of the script answers"
    refusals = [m["text"] for m in session.whole if m["text"].startswith("⚠")]
    assert refusals == [said(session, "out_of_turn")["text"]]
    # issue 24: only the enemies' numbers go elsewhere — to the GM, privately
    assert all(m["to"] == "channel" or (m["to"], m["user"]) == ("private", "keeper")
               for m in session.whole)


def test_setup_stealth_and_initiative(session: Session) -> None:
    assert gm_data(session, "wolf")["hp"] == 70  # 體質 7 × 10 (AE-1)
    sneak = gm_data(session, "sneak")
    assert sneak["result"]["pool"]["total"] == 2
    assert [(c["watcher"], c["pool"]["total"], c["discovered"])
            for c in sneak["result"]["checks"]] == [("狼人", 1, False), ("蝙蝠", 1, False)]
    assert sneak["unseen"] is True
    start = data(session, "start")["fight"]
    assert [(m["name"], m["initiative"], m["ambush"]) for m in start["members"]] == [
        ("艾莉絲", 7, True), ("狼人", 22, False), ("鮑伯", 19, False), ("卡蘿", 16, False),
        ("蝙蝠", 13, False)]


def test_ambush_assassination_skips_the_evasion(session: Session) -> None:
    attack = gm_data(session, "assassinate")
    hit, damage = attack["result"]["hit"], attack["result"]["damage"]
    assert hit["skipped"] is True and hit["raw"] is None
    assert (damage["attack"], damage["defense"], damage["dp"], damage["dice"]) == (
        8, 6, 2, [8, 10])
    assert (damage["successes"], damage["total"]) == (2, 10)
    assert (attack["hp_before"], attack["hp_after"]) == (70, 60)
    wolf = gm_data(session, "wolf_hits")
    assert wolf["result"]["attacker"] == "狼人"  # the GM plays the enemy whose turn it is
    assert (wolf["result"]["hit"]["total"], wolf["result"]["hit"]["evasion"]) == (15, 6)
    assert (wolf["result"]["damage"]["dp"], wolf["total"]) == (3, 10)
    assert (wolf["hp_before"], wolf["hp_after"]) == (50, 40)


def test_called_shot_crits_only_on_a_raw_10(session: Session) -> None:
    attack = gm_data(session, "called_shot")["result"]
    assert attack["part"] == "abdomen"
    assert attack["hit"]["die"] == 10 and attack["hit"]["raw"] == 10
    assert (attack["hit"]["total"], attack["hit"]["evasion"]) == (10, 12)  # a crit hits
    assert attack["hit"]["crit"] is True
    damage = attack["damage"]
    assert (damage["attack"], damage["defense"], damage["dp"]) == (11, 6, 5)
    assert (damage["successes"], damage["multiplier"], damage["part_extra"]) == (2, 10, 5)
    assert damage["total"] == 25
    assert gm_data(session, "called_shot")["hp_after"] == 35


def test_grapple_holds_then_pins(session: Session) -> None:
    grab = gm_data(session, "grab")["result"]
    assert (grab["action"], grab["choice"], grab["after"], grab["margin"]) == (
        "grab", "escape", "held", 1)
    assert (grab["hit"]["total"], grab["contest"]["a"]["total"],
            grab["contest"]["b"]["total"]) == (17, 19, 18)
    held = gm_data(session, "held_hits")["result"]
    assert held["hit"]["mods"] == [["held", -1]] and held["hit"]["total"] == 13
    assert gm_data(session, "held_hits")["hp_after"] == 55
    pin = gm_data(session, "pin")["result"]
    assert (pin["action"], pin["after"], pin["margin"]) == ("pin", "pinned", 3)
    assert (pin["contest"]["a"]["total"], pin["contest"]["b"]["total"]) == (23, 20)
    assert "鮑伯 壓制 狼人" in said(session, "init_show")["text"]


def test_extended_action_across_rounds(session: Session) -> None:
    first = data(session, "ext_1")["event"]
    assert (first["period"], first["successes"], first["ones"], first["status"]) == (
        1, 1, 1, "running")
    second = data(session, "ext_2")["event"]
    assert (second["period"], second["successes"], second["ones"], second["status"]) == (
        2, 3, 1, "done")
    assert data(session, "round_2")["turn"]["new_round"] is True


def test_item_stored_and_taken(session: Session) -> None:
    store = data(session, "store")["event"]
    assert (store["count"], store["used"], store["capacity"], store["actions"]) == (
        2, 2, 6, ["standard"])
    take = data(session, "take")["event"]
    assert (take["count"], take["used"], take["actions"]) == (1, 1, ["swift", "standard"])
