"""Traditional → simplified Chinese, one converter for the whole process.

OpenCC's ``t2s`` dictionary costs ~2.5 MiB and a few milliseconds to build; the
catalog (a 简体 reader's templates) and the stat-name matching of :mod:`bot.names`
both need it, so it is built once, on first use — a process that never meets a 简体
reader or a typed stat name never builds it (issue 23: idle memory, start-up time).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import opencc


@cache
def converter() -> opencc.OpenCC:
    """The process's one ``t2s`` converter, built by the first call."""
    import opencc  # the dictionary loads with the converter, not at start

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """``text`` in simplified characters."""
    return converter().convert(text)
