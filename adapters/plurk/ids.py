"""Plurk ids: the API takes decimal numbers, web URLs show base 36."""

from __future__ import annotations

import re

_URL = re.compile(r"plurk\.com/(?:m/)?p/([0-9a-z]+)", re.IGNORECASE)

ANONYMOUS_USER_ID = 99999


def plurk_id_from(value: str | int) -> int:
    """Decimal id from ``123``, ``"123"``, ``"https://www.plurk.com/p/abc1"`` or ``"abc1"``.

    A bare string of digits is read as decimal (the API form); a URL is always
    base 36, and a bare string with letters can only be base 36.
    """
    if isinstance(value, int):
        return value
    text = value.strip()
    match = _URL.search(text)
    if match:
        return int(match.group(1), 36)
    if text.isdigit():
        return int(text)
    if re.fullmatch(r"[0-9a-zA-Z]+", text):
        return int(text, 36)
    raise ValueError(f"not a plurk id: {value!r}")


def plurk_url(plurk_id: int) -> str:
    """The web URL of a plurk (base 36), for logs and docs."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    number, out = plurk_id, ""
    while True:
        number, rem = divmod(number, 36)
        out = digits[rem] + out
        if number == 0:
            return f"https://www.plurk.com/p/{out}"
