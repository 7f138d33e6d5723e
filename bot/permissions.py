"""Who may change a channel's settings."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError


def require_gm(ctx: Context) -> None:
    """Refuse unless the speaker is a GM of the channel."""
    if not ctx.is_gm:
        raise CommandError("core.error.gm_only")


def require_gm_if_any(ctx: Context) -> None:
    """A channel without GMs is run by everyone; once a GM exists, only GMs decide."""
    if ctx.gm_users and not ctx.is_gm:
        raise CommandError("core.error.gm_only")
