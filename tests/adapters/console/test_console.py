"""The console adapter as a user runs it: the installed `trpgbot` command."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from adapters.console import Speaker, parse_line, render, serve_console
from bot.core import Core
from bot.messages import Outgoing

TRPGBOT = str(Path(sys.executable).with_name("trpgbot"))
"""The console script that `pip install -e .` put beside the interpreter."""


def run_console(tmp_path: Path, script: str, *args: str) -> list[dict]:
    env = {**os.environ, "TRPGBOT_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [TRPGBOT, "console", "--json", *args],
        input=script, capture_output=True, text=True, env=env, timeout=60, check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_scripted_roll_as_json(tmp_path: Path) -> None:
    [line] = run_console(tmp_path, ".r 2d6+3\n", "--dice", "4,5")
    assert line["to"] == "channel" and line["channel"] == "console" and line["user"] is None
    assert line["data"]["total"] == 12 and line["data"]["dice"] == [4, 5]
    assert "12" in line["text"]


def test_scripted_die_larger_than_the_die_is_refused(tmp_path: Path) -> None:
    [line] = run_console(tmp_path, ".r 1d6\n", "--dice", "7")
    assert line["text"].startswith("⚠") and line["data"] is None


def test_speakers_channels_and_secrets_in_one_script(tmp_path: Path) -> None:
    script = "keeper: .gm\nalice: .rh 1d20\n#other bob: .pc new 鮑伯\n.pc\n"
    lines = run_console(tmp_path, script, "--dice", "13")
    assert [(x["to"], x["channel"], x["user"]) for x in lines] == [
        ("channel", "console", None),
        ("channel", "console", None),
        ("private", "console", "alice"),
        ("private", "console", "keeper"),
        ("channel", "other", None),
        ("channel", "other", None),
    ]
    assert "13" not in lines[1]["text"]
    assert all("13" in x["text"] for x in lines[2:4])
    assert "鮑伯" in lines[5]["text"]


def test_state_persists_between_runs(tmp_path: Path) -> None:
    run_console(tmp_path, ".st 觀察 5\n")
    [line] = run_console(tmp_path, ".st show\n")
    assert line["data"]["stats"] == {"觀察": 5}


def test_line_heads_are_sticky() -> None:
    speaker = Speaker("player", "console")
    assert parse_line("#t2 alice: .r 1d20", speaker) == ".r 1d20"
    assert (speaker.user, speaker.channel) == ("alice", "t2")
    assert parse_line(".r 1d20 理由: 開門", speaker) == ".r 1d20 理由: 開門"
    assert (speaker.user, speaker.channel) == ("alice", "t2")


async def test_plain_output(core: Core) -> None:
    out = io.StringIO()
    await serve_console(core, "u", "c", stdin=io.StringIO(".pc new A\n\n"), stdout=out)
    assert out.getvalue() == "[#c] 已建立角色「A」並設為使用中。\n"


def test_db_upgrade_creates_the_schema(tmp_path: Path) -> None:
    import sqlite3

    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    done = subprocess.run([TRPGBOT, "db", "upgrade", "--db", url], capture_output=True,
                          text=True, timeout=60, check=True)
    assert "up to date" in done.stdout
    with sqlite3.connect(tmp_path / "fresh.db") as db:
        tables = {row[0] for row in db.execute("select name from sqlite_master")}
        heads = [row[0] for row in db.execute("select version_num from alembic_version")]
    assert {"channels", "characters", "channel_state", "channel_bindings",
            "outbox"} <= tables
    assert "parked_outgoing" not in tables  # folded into the outbox (0005)
    from alembic.script import ScriptDirectory

    from bot.store.db import alembic_config

    assert heads == [ScriptDirectory.from_config(alembic_config()).get_current_head()]


def strict_console(tmp_path: Path, script: bytes, *args: str | bytes) -> list[dict]:
    """The console under a strict UTF-8 locale, fed raw bytes; it must answer every
    line and exit at end of input (a hang fails on the timeout)."""
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict",
           "TRPGBOT_DATA_DIR": str(tmp_path)}
    db = f"sqlite+aiosqlite:///{tmp_path / 'strict.db'}"
    done = subprocess.run([TRPGBOT, "console", "--db", db, "--json", *args], input=script,
                          capture_output=True, env=env, timeout=30, check=True)
    return [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]


def test_console_replaces_undecodable_bytes_and_exits(tmp_path: Path) -> None:
    lines = strict_console(tmp_path, b".r 1d20 \xff\n.r 1d20\n", "--dice", "5,6")
    assert [line["text"] for line in lines] == ["🎲 player「\ufffd」：1d20 = [5] = 5",
                                                "🎲 player：1d20 = [6] = 6"]
    assert lines[0]["data"]["reason"] == "\ufffd"


def test_console_ids_with_undecodable_bytes_from_argv(tmp_path: Path) -> None:
    """``--user``/``--channel`` arrive from argv as lone surrogates: the console makes
    them U+FFFD instead of crashing in the store."""
    [line] = strict_console(tmp_path, b".r 1d20\n", "--dice", "5",
                            b"--user", b"\xff", b"--channel", b"t\xff")
    assert line["channel"] == "t\ufffd"
    assert line["text"] == "🎲 \ufffd：1d20 = [5] = 5"


def test_console_json_escapes_lone_surrogates() -> None:
    out = Outgoing("private", "c\udcff", "骰 \ud800 x", user="u\udfff")
    line = render(out, as_json=True)
    line.encode("utf-8")  # printable on any UTF-8 terminal
    assert "骰" in line and "\\ud800" in line and "\\udcff" in line
    assert json.loads(line)["text"] == "骰 \ud800 x"
    assert json.loads(line)["user"] == "u\udfff"
    ascii_line = render(out, as_json=True, encoding="ascii")
    assert ascii_line.isascii() and json.loads(ascii_line) == json.loads(line)


async def test_console_plain_output_never_fails_on_unencodable_text(core: Core) -> None:
    raw = io.BytesIO()
    stdout = io.TextIOWrapper(raw, encoding="ascii", errors="strict", write_through=True)
    await serve_console(core, "u", "c", stdin=io.StringIO(".pc new 艾莉絲\n"), stdout=stdout)
    assert raw.getvalue().decode("ascii").startswith("[#c] \\u5df2")


def test_json_names_whom_a_turn_line_pings() -> None:
    """The next actor's ping is visible in `--json` (docs/console-json.md), and absent
    from a line that pings nobody."""
    pinged = json.loads(render(Outgoing("channel", "console", "▶ alice", notify=("alice",)),
                               as_json=True))
    assert pinged["notify"] == ["alice"]
    assert "notify" not in json.loads(render(Outgoing("channel", "console", "x"), as_json=True))
