"""How an `ace` command is declared: :func:`bot.router.command`, collected into the
system's table by its plugin (``bot/systems/ace/__init__.py``)."""

from bot.router import command

__all__ = ["command"]
