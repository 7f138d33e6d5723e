"""The command table of the `plurk` system: its commands register here."""

from bot.router import system_table

TABLE = system_table("plurk")
command = TABLE.command
