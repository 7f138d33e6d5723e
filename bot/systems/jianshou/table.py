"""The command table of the `jianshou` system: its commands register here."""

from __future__ import annotations

from bot.router import system_table

TABLE = system_table("jianshou")
command = TABLE.command
