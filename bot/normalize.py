"""Turn what players type on a phone into what the router parses.

Chinese input methods produce full-width forms (`。ｒ　２ｄ６＋３`); the core
folds them to ASCII before routing so that every command, dice expression and
number works the same whichever way it was typed. Only the compatibility
forms are folded — Chinese text itself is left alone.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.messages import Incoming

# U+FF01..U+FF5E are the full-width twins of ASCII 0x21..0x7E.
_FULLWIDTH = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}
_EXTRA = {
    0x3000: " ",  # ideographic space
    0x3002: ".",  # 。 ideographic full stop (the QQ habit 。r)
    0xFF61: ".",  # ｡ half-width ideographic full stop
    0x00D7: "*",  # ×
    0x00F7: "/",  # ÷
    0x2212: "-",  # − minus sign
    0x2014: "-",  # — (some IMEs give it for a minus)
}
_TABLE: dict[int, int | str] = {**_FULLWIDTH, **{cp: ch for cp, ch in _EXTRA.items()}}

PREFIXES = (".", "/")


def normalize(text: str) -> str:
    """Full-width → ASCII, trimmed. `。ｒ　２ｄ６＋３` → `.r 2d6+3`."""
    return text.translate(_TABLE).strip()


def strip_prefix(text: str) -> str | None:
    """The command text after a command prefix, or None when it is not a command."""
    if text[:1] in PREFIXES and len(text) > 1 and not text[1:2].isspace():
        return text[1:]
    return None


_LINE_BREAKS = re.compile(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]+")

#: The invisible format characters (Unicode category Cf): bidirectional embeddings,
#: overrides and isolates (U+202A–202E, U+2066–2069), direction marks, zero-width
#: spaces, the byte-order mark, tags… A name like "\u202e功成大 → 02=02d1" would make
#: every reply naming it read "1d20=20 → 大成功". The joiners (U+200C, U+200D) stay:
#: emoji sequences and scripts need them, and they move nothing.
#: ``tests/bot/test_echo_safety.py`` checks this list against ``unicodedata``.
_INVISIBLE = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b"
    "\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]+")


def visible(text: str) -> str:
    """``text`` without invisible format characters (see :data:`_INVISIBLE`)."""
    return _INVISIBLE.sub("", text)


#: Letters and marks that render as nothing: the Hangul fillers (U+115F, U+1160,
#: U+3164, U+FFA0), the braille blank (U+2800), the Khmer inherent vowels, the
#: combining grapheme joiner, the variation selectors and the rest of Unicode's
#: default-ignorable code points that are not format characters. Unlike
#: :data:`_INVISIBLE` they are not removed (a variation selector belongs to its emoji);
#: a name made of nothing else, whitespace and format characters is refused.
_BLANK_LOOKING = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0"
    "\ufff0-\ufff8\U000e0000-\U000e0fff]")


def looks_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: no character but whitespace, control and format
    characters (joiners included) and blank-looking fillers (:data:`_BLANK_LOOKING`).
    A name that looks blank would be echoed as an empty space in every reply naming
    it (`🎲 ⠀：1d20 = …`, `carol［ㅤ］ 入席`), a stand-in for nobody."""
    return all(ch.isspace() or unicodedata.category(ch) in _BLANK_CATEGORIES
               or _BLANK_LOOKING.match(ch) for ch in text)


_BLANK_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})

_SURROGATE = re.compile("[\ud800-\udfff]")


def shown(incoming: Incoming) -> Incoming:
    """The message without invisible format characters, in its text and the speaker's
    name: both are echoed (replies, the game log), and a bidirectional override in them
    could make what the bot shows read backwards. The text as typed stays in
    ``Incoming.typed`` (never echoed): `.nn` followed by nothing but invisible
    characters is a blank name, not a bare `.nn`."""
    text, name = visible(incoming.text), visible(incoming.display_name)
    if text == incoming.text and name == incoming.display_name:
        return incoming
    typed = incoming.text if text != incoming.text else None
    return replace(incoming, text=text, display_name=name, typed=typed)


def line_of_text(text: str) -> str:
    """``text`` with every line break (and other line separator) turned into a space:
    echoed text (a reason, a deck's entry) cannot start a line of its own."""
    return _LINE_BREAKS.sub(" ", text)


def one_line(incoming: Incoming) -> Incoming:
    """The message with every line break (and other line separator) turned into a space,
    in its text and in the speaker's name.

    Reasons, names and skill names are echoed into replies: a line break in them could
    start a line that looks like the bot's own result. A command is one line anyway.
    """
    text = line_of_text(incoming.text)
    name = line_of_text(incoming.display_name)
    if text == incoming.text and name == incoming.display_name:
        return incoming
    return replace(incoming, text=text, display_name=name)


def has_lone_surrogate(text: str) -> bool:
    """A lone UTF-16 surrogate cannot be encoded (stored, sent or logged): such input is
    refused at once instead of failing deep inside a platform call."""
    return _SURROGATE.search(text) is not None
