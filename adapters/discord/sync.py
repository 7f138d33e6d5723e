"""Sync the slash commands only when Discord's copy is out of date.

discord.py's maintainers advise against syncing at every start: a sync is a bulk
overwrite Discord rate-limits (dynamically, and harder on bots that sync
unconditionally), and it is needed only when something Discord shows changed — a
name, a description, a translation, an option, a choice. So the bot hashes exactly
what a sync would send (each command's payload through the tree's translator, as
``CommandTree.sync`` builds it) and keeps the hash of the last successful sync, per
application and target (global, or the development server), in one small JSON file in
the data directory (``discord-commands.json``; the ``bot-data`` volume in compose).
At start it syncs only when the hash differs; ``trpgbot discord sync`` syncs
regardless (after a command was deleted in the developer portal, say).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

if TYPE_CHECKING:
    from adapters.discord.settings import DiscordSettings

log = logging.getLogger(__name__)

RECORD_FILE = "discord-commands.json"
"""The record's name inside the data directory."""


class SyncRecord:
    """The hash of the last successful sync per scope, in a JSON file (``None``: no
    record; every sync goes through)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:  # unreadable: sync, and write it anew
            log.warning("Discord: ignoring the sync record %s (%s)", self.path, exc)
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def matches(self, scope: str, digest: str) -> bool:
        return self._read().get(scope) == digest

    def save(self, scope: str, digest: str) -> None:
        """Write atomically (a crash leaves the old record, never half a file); a
        failure only costs a sync at the next start, so it is logged, not raised."""
        if self.path is None:
            return
        record = {**self._read(), scope: digest}
        partial = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_text(json.dumps(record, indent=1, sort_keys=True), "utf-8")
            os.replace(partial, self.path)
        except OSError as exc:
            log.warning("Discord: could not write the sync record %s (%s)", self.path, exc)


async def tree_payload(tree: app_commands.CommandTree[Any],
                       guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """What ``tree.sync(guild=guild)`` would send, translations included."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """A hash independent of the order commands were added in."""
    ordered = sorted(payload, key=lambda command: (command.get("type", 1), command["name"]))
    text = json.dumps(ordered, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


async def sync_commands(tree: app_commands.CommandTree[Any], dev_guild_id: int | None,
                        record: SyncRecord, *, force: bool = False,
                        ) -> list[app_commands.AppCommand] | None:
    """Development: copy the commands to one server and sync there (visible at once).
    Production: sync globally (Discord may take a while to show changes). Either only
    when the commands differ from the last sync recorded (or ``force``); ``None`` when
    nothing was sent."""
    guild = discord.Object(id=dev_guild_id) if dev_guild_id is not None else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    where = "globally" if guild is None else f"to server {dev_guild_id}"
    scope = f"{tree.client.application_id}/{'global' if guild is None else dev_guild_id}"
    digest = payload_hash(await tree_payload(tree, guild))
    if not force and record.matches(scope, digest):
        log.info("Discord: slash commands unchanged since they were synced %s; not synced "
                 "(`trpgbot discord sync` forces it)", where)
        return None
    synced = await tree.sync(guild=guild)
    record.save(scope, digest)
    log.info("Discord: %d slash commands synced %s", len(synced), where)
    return synced


async def sync_now(section: DiscordSettings, record: Path) -> int:
    """``trpgbot discord sync``: log in (REST only, no gateway), sync the commands the
    bot would offer whether or not they changed, record the hash; the number synced."""
    from adapters.discord.commands import build_commands, core_knows
    from adapters.discord.i18n import CommandTranslator

    if section.token is None:
        raise RuntimeError("TRPGBOT_DISCORD__TOKEN is not set")
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    for command in build_commands(core_knows):
        tree.add_command(command)
    async with client:
        await client.login(section.token.get_secret_value())
        await tree.set_translator(CommandTranslator())
        synced = await sync_commands(tree, section.dev_guild_id, SyncRecord(record),
                                     force=True)
    return len(synced or [])
