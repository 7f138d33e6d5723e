"""The embedded default: a chat in the terminal, scriptable for tests and benchmarks.

Input lines are `text`, `name: text` (speak as `name` from now on) or
`#channel name: text` (also move to `channel`). With `--json` every outgoing
message is printed as one JSON object per line (docs/console-json.md).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from dataclasses import dataclass
from typing import TextIO

from bot.core import Core
from bot.messages import Incoming, Outgoing

PLATFORM = "console"
_LINE = re.compile(
    r"^(?:#(?P<channel>\S+)\s*)?"  # optional channel switch
    r"(?:(?P<user>[^\s:.。．/#][^\s:]{0,31}):\s?)?"  # optional speaker (not a command)
    r"(?P<text>.*)$"
)


@dataclass
class Speaker:
    user: str
    channel: str


def parse_line(line: str, speaker: Speaker) -> str:
    """Apply a `#channel name:` head to ``speaker`` (sticky) and return the text."""
    match = _LINE.match(line)
    assert match is not None  # the pattern matches every string
    if match["channel"]:
        speaker.channel = match["channel"]
    if match["user"]:
        speaker.user = match["user"]
    return match["text"]


def render(out: Outgoing, as_json: bool) -> str:
    if as_json:
        return json.dumps(out.as_json(), ensure_ascii=False)
    if out.to == "private":
        return f"[私訊 → {out.user}] {out.text}"
    return f"[#{out.channel}] {out.text}"


async def serve_console(
    core: Core,
    user: str,
    channel: str,
    as_json: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> None:
    """Read lines until end of input, answering each through the core."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    speaker = Speaker(user, channel)
    interactive = stdin.isatty() and not as_json
    loop = asyncio.get_running_loop()
    if interactive:
        stdout.write("trpgbot console — 輸入 .help 查看指令，Ctrl-D 離開。\n")
    count = 0
    while True:
        if interactive:
            stdout.write(f"{speaker.user}@{speaker.channel}> ")
            stdout.flush()
        line = await loop.run_in_executor(None, stdin.readline)
        if not line:
            break
        text = parse_line(line.rstrip("\r\n"), speaker)
        if not text.strip():
            continue
        count += 1
        incoming = Incoming(PLATFORM, speaker.channel, speaker.user, text,
                            display_name=speaker.user, message_id=None)
        for out in await core.handle(incoming):
            stdout.write(render(out, as_json) + "\n")
        stdout.flush()
