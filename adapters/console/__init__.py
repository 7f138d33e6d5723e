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
import threading
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


def _read_lines(stdin: TextIO, loop: asyncio.AbstractEventLoop,
                lines: asyncio.Queue[str | None]) -> None:
    """Feed stdin into ``lines`` from a daemon thread: a blocking read must never
    keep the process alive after a stop signal (`trpgbot run` on SIGTERM)."""
    try:
        for line in iter(stdin.readline, ""):
            loop.call_soon_threadsafe(lines.put_nowait, line)
        loop.call_soon_threadsafe(lines.put_nowait, None)
    except RuntimeError:  # the loop closed while we were reading
        pass


async def _next_line(lines: asyncio.Queue[str | None], stop: asyncio.Event) -> str | None:
    """The next input line, or None at end of input or once ``stop`` is set."""
    if stop.is_set():
        return None
    getting = asyncio.ensure_future(lines.get())
    stopping = asyncio.ensure_future(stop.wait())
    done, pending = await asyncio.wait({getting, stopping},
                                       return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return getting.result() if getting in done else None


async def serve_console(
    core: Core,
    user: str,
    channel: str,
    as_json: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Read lines until end of input (or ``stop``), answering each through the core."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stop = stop or asyncio.Event()
    speaker = Speaker(user, channel)
    interactive = stdin.isatty() and not as_json
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    threading.Thread(target=_read_lines, args=(stdin, asyncio.get_running_loop(), lines),
                     daemon=True, name="console-stdin").start()
    if interactive:
        stdout.write("trpgbot console — 輸入 .help 查看指令，Ctrl-D 離開。\n")
    while True:
        if interactive:
            stdout.write(f"{speaker.user}@{speaker.channel}> ")
            stdout.flush()
        line = await _next_line(lines, stop)
        if line is None:
            break
        text = parse_line(line.rstrip("\r\n"), speaker)
        if not text.strip():
            continue
        incoming = Incoming(PLATFORM, speaker.channel, speaker.user, text,
                            display_name=speaker.user)
        for out in await core.handle(incoming):
            stdout.write(render(out, as_json) + "\n")
        stdout.flush()
