"""A game log as Markdown, as one self-contained HTML page (styles inline, no
external resource: it opens offline years later), or as the plain text that SealDice
writes and story viewers (SealDice's story painter, 染色器) import.

Every line is named by the character its speaker played when it was said; the GM's
copy shows the account beside it. Every text is escaped for the format, so nothing a
player typed becomes a heading, a link or markup in the file, nor a second speaker's
line in the text form: the log shows the words as the table saw them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from bot.gamelog import storyline, text_form
from bot.records import LogLine


@dataclass(frozen=True, slots=True)
class Labels:
    """The few words of the page, in the table's language (from the catalog)."""

    title: str  # "{name}" already filled in
    summary: str  # e.g. "12 lines, 2026-12-01 UTC"
    bot: str  # the name shown for the bot's replies
    private: str  # "{name}" → e.g. "privately to {name}"
    gm: bool = False  # a GM's copy: the account beside each character's name
    story: str = ""  # the page's link to its story view
    whole: str = ""  # the story view's link back to the whole log
    command_of: storyline.CommandOf | None = None
    """Which command a said line calls: the story view leaves out the bot's answers to
    the table's business with the command (:func:`bot.gamelog.storyline.asides`)."""
    speakers: tuple[str, ...] = ()
    """The accounts that speak in the whole copy, in order: the players' text copy names
    them P1, P2, … (no account in it), the same in every part of a long log."""


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&$])")
"""The ASCII marks that start Markdown syntax — inline (emphasis, code, links,
autolinks, raw HTML, entities such as ``&lt;``, strikethrough, math ``$``) or a block
(ATX ``#``, setext ``---``, lists ``-``/``+``/``*``/``1.``/``1)``, quotes ``>``,
fences, tables ``|``, thematic breaks): a backslash before one shows it as typed
(CommonMark: any ASCII punctuation may be escaped). ``=`` only matters as a setext
underline (:data:`_SETEXT`): every roll's ``=`` stays plain, as Plurk readers see it."""
_SETEXT = re.compile(r"[ \t]*=+[ \t]*")
"""A line of ``=`` alone, which would make the line above it a heading."""
_LINE_END = re.compile(r"\r\n|\r|\n")
"""CommonMark's line endings: a lone ``\r`` ends a line as ``\n`` does."""


def _md(text: str) -> str:
    """One line of text, escaped (a line ending in it becomes a space)."""
    text = _LINE_END.sub(" ", text)
    if _SETEXT.fullmatch(text):
        return text.replace("=", "\\=")
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_body(text: str) -> str:
    """A message's lines, each escaped and kept in the paragraph of its speaker's line:
    a hard break (two spaces) ends each, and an empty line is a lone backslash (a hard
    break of its own) — a blank line would end the paragraph, and a line after it
    indented four spaces would become a code block that shows the escapes. Empty lines
    at the end are left out: a backslash that ends a paragraph shows as itself."""
    parts = _LINE_END.split(text)
    if not text.strip():
        return ""
    while not parts[-1].strip():
        parts.pop()
    lines = [f"{_md(part)}  " if part.strip() else "\\" for part in parts]
    return "\n".join(lines).rstrip(" ")


def _who(line: LogLine, labels: Labels) -> str:
    if line.kind == "reply":
        return labels.bot
    if line.kind in ("private", "sealed"):
        return labels.private.format(name=line.name)
    return line.character or line.name


def _account(line: LogLine, labels: Labels) -> str:
    """The account beside a character's name: in a GM's copy only, and only where the
    line has a character (else the account is already its name)."""
    if labels.gm and line.kind == "said" and line.character:
        return line.name
    return ""


def _time(at: datetime) -> str:
    return at.strftime("%H:%M:%S")


def visible(lines: Iterable[LogLine], viewer: str | None) -> list[LogLine]:
    """The lines of ``viewer``'s copy (None: the players' copy): a private line only in
    the copy of the one it was sent to — so a GM seated after a hidden roll does not
    get it, and a GM gets their own copies of secrets, nobody else's private messages.
    A player-private message has no line to show (only its ``sealed`` summary)."""
    return [line for line in lines
            if line.kind != "private" or (viewer is not None and line.user == viewer)]


def _md_entry(line: LogLine, labels: Labels, aside: str = "") -> str:
    account = _account(line, labels)
    beside = f" \\({_md(account)}\\)" if account else ""
    return (f"**{_md(_who(line, labels))}**{beside} {_time(line.at)}  \n"
            f"{_md_body(line.text)}\n\n")


def markdown(lines: list[LogLine], labels: Labels, tail: str = "") -> str:
    return render(lines, labels, "md", tail)


def _md_head(labels: Labels) -> str:
    return f"# {_md(labels.title)}\n\n{_md(labels.summary)}\n\n"


_MD_INLINE = re.compile(r"([\\`*_{}\[\]()#+!|<>~&$])")
"""The marks that matter inside a line (not ``-`` nor ``.``: only at a line's start)."""


def _md_tail(tail: str) -> str:
    """A note of the bot's own at the end (one line, which starts with a sign such as
    ✂): inline marks escaped, ``-`` and ``.`` left plain, so that the server command in
    it reads — and copies, on Plurk, which posts the Markdown as text — as it is."""
    if not tail:
        return ""
    line = _LINE_END.sub(" ", tail)
    if line[:1].isascii():  # a line that could start a block: everything escaped
        return f"{_md(line)}\n"
    return _MD_INLINE.sub(r"\\\1", line) + "\n"


_CSS = """
body{font-family:system-ui,"Noto Sans CJK TC","Microsoft JhengHei",sans-serif;
max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222;background:#fbfaf7}
h1{font-size:1.4rem;margin-bottom:.2rem}.summary{color:#777;margin-top:0}
.line{margin:.5rem 0;padding:.3rem .6rem;border-left:3px solid #ccc}
.line .who{font-weight:600}.line time{color:#999;font-size:.8rem;margin-left:.5rem}
.line p{margin:.2rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.reply{border-color:#6a8caf;background:#f0f4f8}
.private{border-color:#b06a6a;background:#f8eeee}
.sealed{border-color:#b06a6a;color:#777}.tail{color:#777;font-style:italic}
.line .account{color:#777;margin-left:.4rem;font-size:.85rem}
#story-view{position:absolute;opacity:0}
.views{color:#6a8caf;font-size:.9rem;cursor:pointer;text-decoration:underline}
.views .to-whole{display:none}
#story:not(:target)>#story-view:checked~[data-aside],
#story:target>#story-view:not(:checked)~[data-aside],
#story:not(:target)>#story-view:checked~.views .to-story,
#story:target>#story-view:not(:checked)~.views .to-story{display:none}
#story:not(:target)>#story-view:checked~.views .to-whole,
#story:target>#story-view:not(:checked)~.views .to-whole{display:inline}
""".strip()
"""The story view is CSS alone — no script, no link: the switch at the top (a checkbox
and its label) hides the lines marked ``data-aside`` (commands and out-of-character
chatter), and so does the address ``<file>#story`` (``#story`` holds the page's
content and becomes the target); the switch then brings the whole log back."""


def _html_entry(line: LogLine, labels: Labels, aside: str = "") -> str:
    e = html.escape
    account = _account(line, labels)
    beside = f'<span class="account">{e(account)}</span>' if account else ""
    mark = f' data-aside="{aside}"' if aside else ""
    return (f'<div class="line {e(line.kind)}"{mark}><span class="who">'
            f"{e(_who(line, labels))}</span>{beside}<time>{_time(line.at)}</time>"
            f"<p>{e(line.text)}</p></div>\n")


def _html_head(labels: Labels) -> str:
    e = html.escape
    views = ('<input type="checkbox" id="story-view"><label class="views" for="story-view">'
             f'<span class="to-story">{e(labels.story)}</span>'
             f'<span class="to-whole">{e(labels.whole)}</span></label>\n'
             if labels.story else "")
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(labels.title)}</title><style>{_CSS}</style></head>\n"
        f'<body><div id="story">'
        f'<h1>{e(labels.title)}</h1><p class="summary">{e(labels.summary)}</p>\n{views}'
    )


def _html_tail(tail: str) -> str:
    return ((f'<p class="tail">{html.escape(tail)}</p>\n' if tail else "")
            + "</div></body></html>\n")


def _txt_entry(line: LogLine, labels: Labels, aside: str = "") -> str:
    """One message as SealDice writes it (:mod:`bot.gamelog.text_form`): the speaker's
    line, the message's lines, an empty line. A private or sealed line is the bot's,
    its recipient on a line of its own above it (“🔒 to alice”), as the page shows it."""
    if line.kind == "said":
        who = _who(line, labels)
        ident = line.user if labels.gm else text_form.pseudonym(labels.speakers, line.user)
        body = line.text
    else:
        who, ident = labels.bot, text_form.BOT_ID
        body = line.text if line.kind == "reply" \
            else f"{labels.private.format(name=line.name)}\n{line.text}"
    return text_form.entry(who, ident, line.at, body)


def _txt_head(labels: Labels) -> str:
    return ""


def _txt_tail(tail: str) -> str:
    return f"{text_form.body(tail)}\n" if tail else ""


def page(lines: list[LogLine], labels: Labels, tail: str = "") -> str:
    return render(lines, labels, "html", tail)


_FORMATS = {"html": (_html_head, _html_entry, _html_tail),
            "md": (_md_head, _md_entry, _md_tail),
            "txt": (_txt_head, _txt_entry, _txt_tail)}


def speakers(lines: Iterable[LogLine]) -> tuple[str, ...]:
    """The accounts that speak in ``lines``, in the order they first do."""
    return tuple(dict.fromkeys(line.user for line in lines if line.kind == "said"))


def render(lines: list[LogLine], labels: Labels, fmt: str, tail: str = "") -> str:
    """The file of ``lines`` as ``html``, ``md`` or ``txt``, ``tail`` (a note) at its end."""
    head, entry, end = _FORMATS[fmt]
    marks = storyline.asides(lines, labels.command_of)
    return (head(labels) + "".join(entry(line, labels, mark)
                                   for line, mark in zip(lines, marks, strict=True))
            + end(tail))


def fits(lines: list[LogLine], labels: Labels, fmt: str, size: Callable[[str], int],
         limit: int, tail: str = "") -> int:
    """How many of the first ``lines`` make a file of at most ``limit`` (measured by
    ``size``, after escaping — an HTML entity counts all its bytes); at least one."""
    head, entry, end = _FORMATS[fmt]
    used = size(head(labels)) + size(end(tail))
    marks = storyline.asides(lines, labels.command_of)
    for count, (line, mark) in enumerate(zip(lines, marks, strict=True)):
        used += size(entry(line, labels, mark))
        if used > limit:
            return max(count, 1)
    return len(lines)


def parts(lines: list[LogLine], labels: Labels, fmt: str,
          cap: int) -> list[tuple[Labels, list[LogLine]]]:
    """``lines`` cut into files of at most ``cap`` bytes (UTF-8) each, in order: one
    when it fits, else numbered parts whose titles end in ``(1/3)``, ``(2/3)``, … A log
    at its cap (1,000,000 characters, HTML-escaped to six bytes each at worst) is
    larger than a platform takes; a file too large was an internal error."""
    def size(text: str) -> int:
        return len(text.encode("utf-8"))

    if size(render(lines, labels, fmt)) <= cap:
        return [(labels, lines)]
    # room for the longest part mark (twice in an HTML page: <title> and <h1>)
    room = 2 * len(f" ({len(lines)}/{len(lines)})")
    chunks: list[list[LogLine]] = []
    rest = lines
    while rest:
        count = fits(rest, labels, fmt, size, cap - room)
        chunks.append(rest[:count])
        rest = rest[count:]
    total = len(chunks)
    return [(replace(labels, title=f"{labels.title} ({n}/{total})"), chunk)
            for n, chunk in enumerate(chunks, start=1)]
