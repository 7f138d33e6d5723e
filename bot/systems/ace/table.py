"""The command table of the `ace` system: its commands register here."""

from __future__ import annotations

from bot.router import system_table

TABLE = system_table("ace")
command = TABLE.command
