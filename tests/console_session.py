"""A scripted console session played twice: one `trpgbot console --json` process with
every die on ``--dice``, and a fresh ``Core`` (a restarted bot) for every line with only
that line's dice. Each system's session test (tests/bot/test_*_session.py) compares the
two transcripts and asserts the numbers on the per-line replies.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

from adapters.config import Settings
from adapters.console import serve_console
from bot.core import Core
from tests.support import strict_dice

TRPGBOT = str(Path(sys.executable).with_name("trpgbot"))
CHANNEL = "console"

Message = dict[str, Any]


class Step(NamedTuple):
    line: str
    dice: list[int]
    name: str = ""


def database_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path.as_posix()}"


def one_process(tmp: Path, script: list[Step]) -> list[Message]:
    """The installed console: one process, the whole script on stdin."""
    text = "".join(f"{step.line}\n" for step in script)
    dice = ",".join(str(d) for step in script for d in step.dice)
    env = {**os.environ, "TRPGBOT_DATA_DIR": str(tmp)}
    done = subprocess.run(
        [TRPGBOT, "console", "--json", "--dice", dice, "--db", database_url(tmp / "a.db")],
        input=text, capture_output=True, text=True, env=env, cwd=tmp, timeout=120, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


async def restart_every_line(tmp: Path, script: list[Step]) -> list[list[Message]]:
    """A fresh Core — a restarted bot — for every line; the replies of each line."""
    settings = Settings(_env_file=None, data_dir=tmp, database_url=database_url(tmp / "b.db"))
    replies: list[list[Message]] = []
    for step in script:
        dice = strict_dice(step.dice)
        core = await Core.open(settings, dice=dice)
        out = io.StringIO()
        try:
            await serve_console(core, "player", CHANNEL, as_json=True,
                                stdin=io.StringIO(step.line + "\n"), stdout=out)
        finally:
            await core.close()
        assert dice.remaining == 0, f"{step.line!r} left {dice.remaining} scripted dice"
        replies.append([json.loads(line) for line in out.getvalue().splitlines()])
    return replies


class Session(NamedTuple):
    script: list[Step]
    whole: list[Message]
    by_line: list[list[Message]]

    def said(self, name: str) -> Message:
        """The one channel message of the step called ``name``."""
        index = next(i for i, step in enumerate(self.script) if step.name == name)
        [out] = self.by_line[index]
        assert (out["to"], out["channel"]) == ("channel", CHANNEL), out
        return out

    def text(self, name: str) -> str:
        return str(self.said(name)["text"])

    def data(self, name: str) -> dict[str, Any]:
        found = self.said(name)["data"]
        assert found is not None, name
        return dict(found)


async def play(tmp: Path, script: list[Step]) -> Session:
    names = [step.name for step in script if step.name]
    assert len(names) == len(set(names)), "duplicate step names"
    return Session(script, one_process(tmp, script), await restart_every_line(tmp, script))


def comparable(message: Message) -> Message:
    """A message without where this run's console saved its attachment (both runs save
    into one folder, each file under a name of its own): what the bot sent is compared."""
    attachment = message.get("attachment")
    if not isinstance(attachment, dict):
        return message
    return {**message, "attachment": {k: v for k, v in attachment.items() if k != "path"}}


def assert_same_transcript(session: Session) -> None:
    restarted = [message for line in session.by_line for message in line]
    assert len(session.whole) == len(restarted)
    for i, (one, other) in enumerate(zip(session.whole, restarted, strict=True)):
        assert comparable(one) == comparable(other), f"message {i} differs"
    assert all(session.by_line), "every line of the script answers"
