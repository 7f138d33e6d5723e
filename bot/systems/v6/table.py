"""The command table of the `v6` layer. Every v6 command passes through
:func:`readable`: a refusal names postures, modes and attack kinds in the reader's
words."""

from __future__ import annotations

import functools
from typing import Any

from bot.context import Context
from bot.messages import Outgoing
from bot.router import Handler, system_table
from rules.errors import RuleError

TABLE = system_table("v6")

_LABELLED = {"posture": "posture", "kind": "kind", "mode": "mode", "stat": "stat"}


def _label(ctx: Context, group: str, key: str) -> str:
    full = f"v6.{group}.{key}"
    return ctx.t(full) if ctx.core.catalog.has(full, ctx.locale) else key


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


def command(*names: str, **options: Any):
    """Register a v6 command (see :meth:`bot.router.CommandTable.command`)."""

    def register(handler: Handler) -> Handler:
        TABLE.command(*names, **options)(readable(handler))
        return handler

    return register
