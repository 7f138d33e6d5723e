"""One text splitter for every platform: a reply longer than a platform takes becomes
several messages, in order, none of them blank.

What differs per platform is handed in, not copied:

- how it counts (``length``): Discord and Plurk count UTF-16 code units
  (:func:`utf16_length`: an emoji outside the BMP is two), QQ counts characters (``len``);
- its limit: Discord 2,000 per message, Plurk 360 per response (less the room the
  sender keeps), QQ ``TRPGBOT_ONEBOT__MAX_MESSAGE_LENGTH`` (3,000);
- where it prefers to cut (a :data:`Cut`): QQ at the last line break that fits
  (:func:`at_line_break`), Discord at a line break or else a space, never inside an
  escape (adapters/discord/convert.py), Plurk at a line break, a sentence end or a
  space in the second half of the window, never before a combining mark
  (adapters/plurk/text.py);
- what the rest needs after a cut (``then``): Discord escapes the line-start markers
  a cut in mid-line makes.
"""

from __future__ import annotations

from collections.abc import Callable

Length = Callable[[str], int]
"""A platform's length of a text."""
Cut = Callable[[str, int], tuple[int, int]]
"""Where to cut ``text`` (too long) whose first ``window`` characters fit: the end of
this piece and where the rest starts (what lies between — a line break — is dropped)."""


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units (as JavaScript, Discord and Plurk count)."""
    return len(text.encode("utf-16-le")) // 2


def fit(text: str, limit: int, length: Length = len) -> int:
    """How many characters of ``text`` fit in ``limit``: the longest such prefix, found
    by halving (``length`` grows with the prefix, every character counting one or more)."""
    low, high = 0, min(len(text), limit)
    while low < high:
        middle = (low + high + 1) // 2
        if length(text[:middle]) <= limit:
            low = middle
        else:
            high = middle - 1
    return low


def at_line_break(text: str, window: int) -> tuple[int, int]:
    """After the last line break that fits — the break itself is dropped, so it may sit
    just past the window — else the whole window."""
    cut = text.rfind("\n", 0, window + 1)
    return (cut, cut + 1) if cut > 0 else (window, window)


def split(text: str, limit: int, *, length: Length = len, cut: Cut = at_line_break,
          then: Callable[[str], str] | None = None) -> list[str]:
    """``text`` in pieces of at most ``limit`` (by ``length``), cut where ``cut`` says;
    ``then`` is applied to the rest after each cut. Blank pieces are left out."""
    pieces: list[str] = []
    while length(text) > limit:
        end, start = cut(text, fit(text, limit, length))
        pieces.append(text[:end])
        text = text[start:]
        if then is not None:
            text = then(text)
    pieces.append(text)
    return [piece for piece in pieces if piece.strip()]
