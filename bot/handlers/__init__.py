"""Command handlers; importing this package registers every command."""

from bot.handlers import gm, help, pc, roll, st, system  # noqa: F401
