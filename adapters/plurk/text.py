"""Text on the way in (mention -> command) and on the way out (neutralise, split).

In: a command is a plurk or response whose text *starts* with ``@<bot nick>``
followed by a command; a mention later in a sentence is conversation, not a
command. Conversation in a thread still reaches the core, for the game log
(``Incoming.kind == "chatter"``).

Out: Plurk shows at most 360 characters per post, so replies are split into
several responses, preferring line breaks, then sentence ends, then spaces.
Plurk escapes HTML itself, so the bot does not HTML-escape (players would see
``&lt;``), but it renders its own markup: links (bare ``http://…``/``www.…``
and the ``url (text)`` syntax), ``**bold**``, ``*italic*``, ``__underline__``,
``@nick`` mentions and emoticons. :func:`neutralise` makes every text the bot
posts show literally by swapping the one character that triggers each of them
for its full-width twin (``@``→``＠``, ``*``→``＊``, ``__``→``＿＿``,
``://``→``：//``, ``www.``→``www．``, a leading ``#``→``＃``, ``(dice20)``→
``（dice20）``). Each swap is one BMP character for one, so the length is
unchanged and splitting after escaping can never cut an escape in half; and
NFKC (the core's input normalisation) turns them back, so a player who copies
the bot's text into a command gets what they meant.
"""

from __future__ import annotations

import re
import unicodedata

from adapters.plurk.emoticons import RANDOM_TOKEN_PATTERN, parse_content
from adapters.split import fit, split, utf16_length
from bot.normalize import normalize, strip_prefix

PLURK_LIMIT = 360
ELLIPSIS = "…"

_NICK_CHAR = r"[A-Za-z0-9_]"


# -- in ----------------------------------------------------------------------------


def command_text(content: str | None, content_raw: str | None) -> str:
    """The text a player typed, for mention detection and the command.

    ``content_raw`` (what the player typed) is preferred: rendering turns
    ``*``/``_`` pairs into markup, shortens links and may render ``@nick`` as a
    display name, any of which would corrupt ``.r 2d6*2*3``. Without it, the
    rendered ``content`` is reduced to text with each emoticon replaced by its
    alt token, tags stripped and entities unescaped. (What ``content_raw``
    holds after a roll is unconfirmed; this is the one place to change.)
    """
    if isinstance(content_raw, str) and content_raw.strip():
        text = content_raw
    else:
        text = parse_content(content or "").text
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def strip_mention(text: str, nick: str) -> str | None:
    """The command after a leading ``@nick`` (case-insensitive), else None.

    ``@nick`` may be followed by ``:``/``：`` and whitespace; ``@nickname``
    is a different user and does not match ``@nick``.
    """
    if not nick:
        return None
    pattern = re.compile(
        r"^\s*@" + re.escape(nick) + r"(?!" + _NICK_CHAR + r")[\s:：]*", re.IGNORECASE
    )
    match = pattern.match(text or "")
    if match is None:
        return None
    return text[match.end() :].strip()


def is_command(text: str) -> bool:
    """Whether the core takes ``text`` for a command (it starts with ``.`` / ``/`` or a
    full-width twin, :func:`bot.normalize.strip_prefix`)."""
    return strip_prefix(normalize(text)) is not None


_MENTION_IN_TEXT = re.compile(r"(?<![A-Za-z0-9_@＠])@([A-Za-z0-9_]{1,60})")


def mentioned_nicks(text: str) -> list[str]:
    """Nicks mentioned with ``@nick`` in a command (``.gm add @alice``), in order."""
    seen: list[str] = []
    for match in _MENTION_IN_TEXT.finditer(text):
        if match.group(1).lower() not in (n.lower() for n in seen):
            seen.append(match.group(1))
    return seen


def replace_mentions(text: str, ids: dict[str, int]) -> str:
    """``@nick`` -> ``@<user id>`` for the nicks in ``ids`` (keys lower-case).

    The core keys Plurk users by numeric id, so ``.gm add @alice`` must name
    Alice's id; unknown nicks are left as typed.
    """

    def swap(match: re.Match[str]) -> str:
        found = ids.get(match.group(1).lower())
        return f"@{found}" if found is not None else match.group(0)

    return _MENTION_IN_TEXT.sub(swap, text)


# -- out ---------------------------------------------------------------------------


_UNDERLINE = re.compile(r"_{2,}")
_SCHEME = re.compile(r"://")
_WWW = re.compile(r"(?i)(?<![A-Za-z0-9])(www)\.")
_HASHTAG = re.compile(r"(?<!\S)#(?=[^\s#])")

#: what Plurk would act on -> the literal look-alike the bot posts instead
ESCAPES = {"@": "＠", "*": "＊", "_": "＿", ":": "：", ".": "．", "#": "＃"}


def neutralise(text: str, *, allow_emoticon_dice: bool = False) -> str:
    """Make Plurk show ``text`` literally: no link, mention, bold, italic or underline.

    Every ``@`` becomes ``＠`` (no ping, no alert for a stranger), every ``*``
    ``＊`` (no bold or italic), a run of two or more ``_`` becomes ``＿``s (no
    underline; a single ``_`` as in ``happy_cat`` stays), ``://`` becomes
    ``：//`` and ``www.`` ``www．`` (no link, so no ``url (text)`` link and no
    ``anti-flood-spam-domain``), a ``#`` that starts a word ``＃`` (no hashtag
    link), and a random emoticon token ``（dice20）`` unless the operator lets
    Plurk roll them (off until checked live). Length-preserving: one BMP
    character for one.
    """
    text = text.replace("@", ESCAPES["@"]).replace("*", ESCAPES["*"])
    text = _UNDERLINE.sub(lambda m: ESCAPES["_"] * len(m.group(0)), text)
    text = _SCHEME.sub(ESCAPES[":"] + "//", text)
    text = _WWW.sub(lambda m: m.group(1) + ESCAPES["."], text)
    text = _HASHTAG.sub(ESCAPES["#"], text)
    if not allow_emoticon_dice:
        text = RANDOM_TOKEN_PATTERN.sub(lambda m: "（" + m.group(0)[1:-1] + "）", text)
    return text


plurk_length = utf16_length
"""Length as Plurk may count it: UTF-16 code units (>= code points, so safe)."""

_SENTENCE_END = "。！？!?；;…"
_JOINERS = {"\u200d"}


def _is_glued(ch: str) -> bool:
    """True for characters that must stay with the one before them."""
    code = ord(ch)
    return (
        unicodedata.combining(ch) != 0
        or ch in _JOINERS
        or 0xFE00 <= code <= 0xFE0F  # variation selectors
        or 0x1F3FB <= code <= 0x1F3FF  # skin tone modifiers
        or 0xE0100 <= code <= 0xE01EF
    )


def _cut_point(text: str, window: int) -> int:
    """Where to cut ``text`` (longer than its first ``window`` characters) so the head
    fits: after a line break, else a sentence end, else a space, in the window's second
    half; else at the window's end, moved back before a combining mark or a joiner."""
    head = text[:window]
    floor = max(1, window // 2)
    newline = head.rfind("\n")
    if newline >= floor:
        return newline + 1
    best = -1
    for mark in _SENTENCE_END:
        best = max(best, head.rfind(mark))
    if best + 1 >= floor:
        return best + 1
    space = max(head.rfind(" "), head.rfind("\u3000"), head.rfind("\t"))
    if space >= floor:
        return space + 1
    cut = window
    while cut > 1 and (_is_glued(text[cut]) or text[cut - 1] in _JOINERS):
        cut -= 1
    return cut if cut > 1 else window


def plurk_cut(text: str, window: int) -> tuple[int, int]:
    """At :func:`_cut_point`, the whitespace around the cut dropped."""
    cut = _cut_point(text, window)
    rest = text[cut:]
    return len(text[:cut].rstrip()), cut + len(rest) - len(rest.lstrip())


def split_reply(text: str, limit: int = PLURK_LIMIT, max_parts: int | None = None) -> list[str]:
    """Split ``text`` into non-empty parts of at most ``limit`` characters, in order
    (adapters/split.py with Plurk's :func:`plurk_cut`).

    With ``max_parts``, a reply that would need more parts is trimmed with a
    visible ``…`` at the end of the last part rather than flooding the thread.
    """
    if limit < 2:
        raise ValueError("limit must be at least 2")
    parts = split(text.replace("\r\n", "\n").strip(), limit, length=plurk_length,
                  cut=plurk_cut)
    if max_parts is not None and len(parts) > max_parts:
        parts = parts[:max_parts]
        last = parts[-1]
        if plurk_length(last) + len(ELLIPSIS) > limit:
            room = limit - len(ELLIPSIS)
            last = last[: _cut_point(last, fit(last, room, plurk_length))].rstrip()
        parts[-1] = last + ELLIPSIS
    return parts
