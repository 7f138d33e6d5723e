"""A process imports only the rule systems its tables play (issue 23: start-up time and
idle memory). Each test runs a fresh interpreter — this one has imported every system
long ago — and reads its ``sys.modules``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PACKAGES = ("ace", "ap20", "coc7", "jianshou", "plurk_trpg", "v6")

REPORT = """
import gc, json, sys
from adapters.cli import main

def report():
    mods = sorted({m.split(".")[2] for m in sys.modules
                   if m.startswith(("bot.systems.", "rules.systems."))
                   and m.count(".") >= 2 and m.split(".")[2] in PACKAGES})
    rules = sorted({m.split(".")[2] for m in sys.modules if m.startswith("rules.systems.")
                    and m.count(".") >= 2 and m.split(".")[2] in PACKAGES})
    converters = 0
    gc.unfreeze()  # the console froze what start-up built: count it too
    if "opencc" in sys.modules:
        converters = sum(isinstance(o, sys.modules["opencc"].OpenCC) for o in gc.get_objects())
    print(json.dumps({"systems": mods, "rules": rules, "converters": converters}),
          file=sys.stderr)

code = main(sys.argv[1:])
report()
"""


def console(tmp: Path, lines: str) -> tuple[list[str], dict[str, object]]:
    """The console's replies to ``lines`` and what its process had imported at the end:
    the system packages (bot and rules side) and how many t2s converters it built."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRPGBOT_")}
    env.update(TRPGBOT_DATA_DIR=str(tmp), PYTHONPATH=str(ROOT))
    code = f"PACKAGES = {PACKAGES!r}\n{REPORT}"
    done = subprocess.run(
        [sys.executable, "-c", code, "console", "--json", "--dice", "14,1",
         "--db", f"sqlite+aiosqlite:///{(tmp / 'x.db').as_posix()}"],
        input=lines, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
        check=True)
    replies = [json.loads(line)["text"] for line in done.stdout.splitlines()]
    return replies, json.loads(done.stderr.strip().splitlines()[-1])


def test_a_roll_at_a_table_of_the_default_system_imports_no_system(tmp_path: Path) -> None:
    # `.r` alone rolls the system's default die: read from its manifest
    replies, imported = console(tmp_path, ".r 1d20\n.r\n")
    assert replies == ["🎲 player：1d20 = [14] = 14", "🎲 player：1d20 = [1] = 1"]
    assert imported == {"systems": [], "rules": [], "converters": 0}


def test_a_check_imports_the_system_the_table_plays_alone(tmp_path: Path) -> None:
    replies, imported = console(tmp_path, ".st 觀察 50\n.ra 觀察\n")
    assert len(replies) == 2 and "觀察" in replies[1]
    # plurk's battle roster folds its words at import: the one converter is built
    assert imported == {"systems": ["plurk_trpg"], "rules": ["plurk_trpg"], "converters": 1}


def test_choosing_a_system_imports_it_and_a_command_of_another_stays_a_name(
        tmp_path: Path) -> None:
    replies, imported = console(tmp_path, ".system coc7\n.atk 1\n.hlep\n.r\n")
    assert replies[3:] == ["🎲 player：1d100 = [14] = 14"]  # coc7's default die
    assert replies[:3] == [
        "本頻道的規則系統改為 coc7（克蘇魯的呼喚第七版）。",
        # the other systems' `.atk`, named from their manifests: none of them imported
        "⚠ .atk 是 ace、ap20、jianshou、plurk 規則系統的指令；本頻道玩的是 coc7"
        "（可用 .system 切換）。",
        "⚠ 沒有 .hlep 這個指令；是要 .help 嗎？",
    ]
    # the channel's former system (plurk) was never needed
    assert imported["systems"] == imported["rules"] == ["coc7"]


def test_a_process_that_only_starts_imports_no_system_and_builds_no_converter(
        tmp_path: Path) -> None:
    replies, imported = console(tmp_path, "")
    assert replies == []
    assert imported == {"systems": [], "rules": [], "converters": 0}


def test_the_catalog_and_the_stat_names_share_one_converter(tmp_path: Path) -> None:
    """`.lang zh-Hans` renders simplified templates (the catalog), `.st 體力 3` folds a
    stat name (bot.names): one OpenCC t2s converter serves both."""
    replies, imported = console(tmp_path, ".lang zh-Hans\n.st 體力 3\n")
    assert replies == ["本频道的回复语言改为简体中文。", "player 的数值已更新：体力:3"]
    assert imported["converters"] == 1
