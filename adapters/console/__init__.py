"""The embedded default: a chat in the terminal, scriptable for tests and benchmarks.

Input lines are `text`, `name: text` (speak as `name` from now on) or
`#channel name: text` (also move to `channel`); a line ending in ` <<PATH` sends the
file at PATH with the text (an upload: `.js deck file <<deck.json`). With `--json`
every outgoing message is printed as one JSON object per line (docs/console-json.md).

Input that is not valid in the terminal's encoding never stops the console: the
undecodable bytes become U+FFFD and the line is answered. Output never fails on
text the terminal cannot encode (lone surrogates, or CJK under an ASCII locale):
JSON escapes it (``\\udXXX``), plain text gets a backslash escape.

An attachment (a battle map, a game log) is not printed: it is written to
``<data_dir>/exports/<file name>`` (never over an existing file: ``name-2.ext``,
``name-3.ext``, …), and plain text names it (file name, kind, size, path) under the
reply; ``--json`` describes it in ``attachment``, with its ``path``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from adapters.console.settings import ConsoleSettings
from adapters.plugin import AdapterPlugin
from bot.config import Settings
from bot.core import Core
from bot.messages import Attachment, Incoming, Outgoing

log = logging.getLogger(__name__)

PLATFORM = "console"
EXPORTS = "exports"
"""The folder under the data directory that attachments are written to."""
MAX_SAME_NAME = 10_000
"""Files of one name an export folder may hold (``name-2.ext`` … then it gives up)."""
_LINE = re.compile(
    r"^(?:#(?P<channel>\S+)\s*)?"  # optional channel switch
    r"(?:(?P<user>[^\s:.。．/#][^\s:]{0,31}):\s?)?"  # optional speaker (not a command)
    r"(?P<text>.*)$"
)


@dataclass
class Speaker:
    user: str
    channel: str


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def console_id(name: str) -> str:
    """A user or channel id the store can keep: a lone surrogate (``--user $'\\xff'``
    arrives from argv that way) becomes U+FFFD. The text of a line is left alone:
    the core refuses lone surrogates in it with a message."""
    return _LONE_SURROGATE.sub("\ufffd", name)


def parse_line(line: str, speaker: Speaker) -> str:
    """Apply a `#channel name:` head to ``speaker`` (sticky) and return the text."""
    match = _LINE.match(line)
    assert match is not None  # the pattern matches every string
    if match["channel"]:
        speaker.channel = console_id(match["channel"])
    if match["user"]:
        speaker.user = console_id(match["user"])
    return match["text"]


_UPLOAD = re.compile(r"\s<<(?P<path>\S.*)$")


def split_upload(text: str) -> tuple[str, Attachment | None]:
    """``text <<PATH`` → (``text``, the file at PATH as an upload); a file that cannot
    be read (or is too large) is logged and the text goes without it."""
    match = _UPLOAD.search(text)
    if match is None:
        return text, None
    path = Path(match["path"].strip()).expanduser()
    try:
        return text[:match.start()], Attachment(path.name, path.read_bytes())
    except (OSError, ValueError) as exc:
        log.error("console: cannot send %s: %s", path, exc)
        return text[:match.start()], None


def save_attachment(attachment: Attachment, folder: Path) -> Path | None:
    """Write ``attachment`` into ``folder`` under its own name, or ``name-2.ext``,
    ``name-3.ext``, … when that is taken (an existing file is never overwritten);
    its absolute path, or None when it could not be written (logged)."""
    name = Path(attachment.filename)
    stem, suffix = (name.stem, name.suffix) if name.stem else (attachment.filename, "")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for number in range(1, MAX_SAME_NAME + 1):
            path = folder / (attachment.filename if number == 1 else f"{stem}-{number}{suffix}")
            try:
                with path.open("xb") as file:  # x: fails if it exists, atomically
                    file.write(attachment.data)
            except (FileExistsError, IsADirectoryError):
                continue
            return path.absolute()
        log.error("console: %s has %d files named like %s already", folder, MAX_SAME_NAME,
                  attachment.filename)
    except (OSError, ValueError) as exc:
        log.error("console: could not write %s into %s: %s", attachment.filename, folder, exc)
    return None


def render(out: Outgoing, as_json: bool, encoding: str = "utf-8",
           path: Path | None = None) -> str:
    """One output line (``path``: where the attachment was written). JSON stays
    readable (``ensure_ascii=False``) when ``encoding`` can carry it; a lone
    surrogate (not encodable in any UTF) is written as its JSON escape, and
    everything is escaped when the encoding cannot carry the text (an ASCII locale)."""
    if as_json:
        data = out.as_json()
        if "attachment" in data and path is not None:
            data["attachment"]["path"] = str(path)
        line = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}",
                                   json.dumps(data, ensure_ascii=False))
        try:
            line.encode(encoding)
        except (UnicodeEncodeError, LookupError):
            line = json.dumps(data, ensure_ascii=True)
        return line
    text = out.text
    if out.attachment is not None:  # a terminal shows no picture: say what came with it
        a = out.attachment
        where = f" → {path}" if path is not None else ""
        text += f"\n[附件 {a.filename}：{a.kind}，{len(a.data)} bytes{where}]"
    if out.to == "private":
        return f"[私訊 → {out.user}] {text}"
    return f"[#{out.channel}] {text}"


def _read_lines(stdin: TextIO, loop: asyncio.AbstractEventLoop,
                lines: asyncio.Queue[str | None]) -> None:
    """Feed stdin into ``lines`` from a daemon thread: a blocking read must never
    keep the process alive after a stop signal (`trpgbot run` on SIGTERM).
    End of input is always reported, even when reading fails, so the console
    never waits for a line that cannot come."""
    try:
        try:
            for line in iter(stdin.readline, ""):
                loop.call_soon_threadsafe(lines.put_nowait, line)
        except Exception:
            log.exception("console: reading the input failed")
        loop.call_soon_threadsafe(lines.put_nowait, None)
    except RuntimeError:  # the loop closed while we were reading
        pass


def _tolerant(stream: TextIO, errors: str) -> None:
    """Undecodable input / unencodable output must not stop the console: switch
    the stream's error handler (``sys.stdin``/``sys.stdout`` are TextIOWrappers;
    test streams such as StringIO have no encoding to fail)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # closed or unusual: leave it
            reconfigure(errors=errors)


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


def exports_folder(core: Core) -> Path:
    """``<data_dir>/exports``: where attachments are written."""
    return Path(core.settings.data_dir) / EXPORTS


async def write_all(core: Core, outs: list[Outgoing], stdout: TextIO, as_json: bool,
                    encoding: str) -> None:
    """Write attachments and print replies, then take them out of the core's outbox
    (a crash in between writes a file again, under the next free name). A stored reply
    another process took over is its to print."""
    outs = [out for out in outs if out.outbox_id is None or await core.holds(out)]
    for out in outs:
        path = None
        if out.attachment is not None:
            path = save_attachment(out.attachment, exports_folder(core))
        stdout.write(render(out, as_json, encoding, path) + "\n")
    stdout.flush()
    for out in outs:
        await core.delivered(out)


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
    _tolerant(stdin, "replace")  # undecodable bytes → U+FFFD
    _tolerant(stdout, "backslashreplace")
    encoding = getattr(stdout, "encoding", None) or "utf-8"
    speaker = Speaker(console_id(user), console_id(channel))
    interactive = stdin.isatty() and not as_json
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    threading.Thread(target=_read_lines, args=(stdin, asyncio.get_running_loop(), lines),
                     daemon=True, name="console-stdin").start()
    # replies a crash or a stop cut off last time (the outbox) come first
    await write_all(core, await core.undelivered(PLATFORM), stdout, as_json, encoding)
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
        text, upload = split_upload(text)
        incoming = Incoming(PLATFORM, speaker.channel, speaker.user, text,
                            display_name=speaker.user, attachment=upload)
        await write_all(core, await core.handle(incoming), stdout, as_json, encoding)


async def serve(core: Core, settings: Settings, stop: asyncio.Event) -> None:
    """`trpgbot run` with no platform enabled: the console as configured."""
    section = PLUGIN.of(settings)
    await serve_console(core, section.user, section.channel, stop=stop)


PLUGIN = AdapterPlugin(PLATFORM, "console", ConsoleSettings, serve, fallback=True)
"""The console: any name is a user id (but an empty one or zeros); started by
`trpgbot run` when no platform is enabled, and by `trpgbot console`."""
