"""Discord's side of the group controls (`.bot`, `.dismiss`, `.ban`; bot/controls.py).

- Who runs a server: a member with the Manage Server permission (which the owner and
  every Administrator have) has a GM's say over the group controls
  (``Incoming.channel_admin``) — the permission Discord itself asks to add a bot.
- Leaving: ``Guild.leave()`` of the server the channel (or thread) belongs to.
"""

from __future__ import annotations

import discord


def manages_server(user: discord.abc.User) -> bool:
    """Whether a message's author may manage the server; a user outside any server (a
    DM) never does."""
    return isinstance(user, discord.Member) and user.guild_permissions.manage_guild


def interaction_manages_server(interaction: discord.Interaction) -> bool:
    """Whether a slash command's user may manage the server: the permissions Discord
    resolved for them in the interaction's channel."""
    return isinstance(interaction.user, discord.Member) \
        and interaction.permissions.manage_guild


async def leave_server(client: discord.Client, channel: str) -> None:
    """Leave the server of the channel ``channel`` (a DM's ``dm:`` key has none)."""
    if not channel.isdigit():
        return
    found = client.get_channel(int(channel)) or await client.fetch_channel(int(channel))
    guild = getattr(found, "guild", None)
    if isinstance(guild, discord.Guild):
        await guild.leave()
