"""The command table of the `v6` layer. Every v6 command passes through
:func:`readable`: a refusal names postures, modes and attack kinds in the reader's
words."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from bot.context import Context
from bot.messages import Outgoing
from bot.router import Handler
from bot.router import command as declare
from rules.errors import RuleError

_LABELLED = {"posture": "posture", "kind": "kind", "mode": "mode", "stat": "stat"}


def _label(ctx: Context, group: str, key: str) -> str:
    full = f"v6.{group}.{key}"
    return ctx.t(full) if ctx.has(full) else key


def readable(handler: Handler) -> Handler:
    @functools.wraps(handler)
    async def wrapper(ctx: Context) -> list[Outgoing]:
        try:
            return await handler(ctx)
        except RuleError as exc:
            if not exc.code.startswith("v6."):
                raise
            params = {k: _label(ctx, _LABELLED[k], v) if k in _LABELLED and isinstance(v, str)
                      else v for k, v in exc.params.items()}
            raise RuleError(exc.code, **params) from exc

    return wrapper


def command(*names: str, **options: Any) -> Callable[[Handler], Handler]:
    """Declare a v6 command (:func:`bot.router.command`), read through
    :func:`readable`."""

    def mark(handler: Handler) -> Handler:
        return declare(*names, **options)(readable(handler))

    return mark
