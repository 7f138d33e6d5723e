"""The command table of the `ap20` system: its commands register here.

Every ap20 command passes through :func:`readable`: a refusal from the rules names an
action by its key (``maneuver``); the channel reads it in its own words (戰技)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from bot.context import Context
from bot.messages import Outgoing
from bot.router import Handler
from bot.router import command as declare
from rules.errors import RuleError


def _action(ctx: Context, key: str) -> str:
    full = f"ap20.action.{key}"
    return ctx.t(full) if ctx.has(full) else key


def readable(handler: Handler) -> Handler:
    @functools.wraps(handler)
    async def wrapper(ctx: Context) -> list[Outgoing]:
        try:
            return await handler(ctx)
        except RuleError as exc:
            if not exc.code.startswith("ap20."):
                raise
            params = dict(exc.params)
            if isinstance(params.get("action"), str):
                params["action"] = _action(ctx, params["action"])
            if exc.code == "ap20.unknown_action" and isinstance(params.get("known"), str):
                params["known"] = ctx.t("ap20.sep").join(
                    _action(ctx, k) for k in params["known"].split(", "))
            raise RuleError(exc.code, **params) from exc

    return wrapper


def command(*names: str, **options: Any) -> Callable[[Handler], Handler]:
    """Declare an ap20 command (:func:`bot.router.command`), read through
    :func:`readable`."""

    def mark(handler: Handler) -> Handler:
        return declare(*names, **options)(readable(handler))

    return mark
