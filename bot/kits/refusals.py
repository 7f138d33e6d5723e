"""Refusals rendered as the core renders them (``⚠ …``), for a command that must answer
one somewhere else than the channel — a hidden check's refusal goes to the asker."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.i18n import rule_key
from rules.errors import RuleError


def refusal_text(ctx: Context, exc: CommandError | RuleError) -> str:
    """A refusal rendered as the core renders it (``⚠ …``), for a handler that must
    answer it somewhere else than the channel (a hidden check's refusal, PL-7)."""
    if isinstance(exc, RuleError):
        key, params = rule_key(exc.code), dict(exc.params)
        if not ctx.has(key):
            key, params = "core.error.rule", {"code": exc.code}
    else:
        key, params = exc.key, dict(exc.params)
    return ctx.t("core.error.prefix", text=ctx.t(key, **params))
