"""Turn what players type on a phone into what the router parses.

Chinese input methods produce full-width forms (`。ｒ　２ｄ６＋３`); the core
folds them to ASCII before routing so that every command, dice expression and
number works the same whichever way it was typed. Only the compatibility
forms are folded — Chinese text itself is left alone.
"""

from __future__ import annotations

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
_TABLE = {**_FULLWIDTH, **{cp: ch for cp, ch in _EXTRA.items()}}

PREFIXES = (".", "/")


def normalize(text: str) -> str:
    """Full-width → ASCII, trimmed. `。ｒ　２ｄ６＋３` → `.r 2d6+3`."""
    return text.translate(_TABLE).strip()


def strip_prefix(text: str) -> str | None:
    """The command text after a command prefix, or None when it is not a command."""
    if text[:1] in PREFIXES and len(text) > 1 and not text[1:2].isspace():
        return text[1:]
    return None
