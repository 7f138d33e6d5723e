"""Discord's side of the group controls: a member with Manage Server has a GM's say
over `.bot` / `.dismiss` / `.ban`, and `.dismiss confirm` says goodbye, then leaves the
server (``Guild.leave``) — real discord.py objects, a real Core, HTTP answered by the
double of the other Discord tests."""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route

from adapters.discord.convert import incoming_from_interaction
from bot.core import Core
from tests.adapters.discord.doubles import (
    CHANNEL_ID,
    GUILD_ID,
    DiscordApi,
    Request,
    channel_payload,
    command_payload,
    make_client,
    member_payload,
    message_payload,
    user_payload,
)

MOD, PLAYER = 555, 556
MODS_ROLE = 777
MANAGE_GUILD = 1 << 5


class LeavingApi(DiscordApi):
    """Discord's "Leave Guild": ``DELETE /users/@me/guilds/{guild.id}``, answered with
    204 No Content (docs, "User" resource)."""

    def answer(self, via: str, route: Route, body: Any,
               uploads: list[tuple[str, bytes]] | None = None) -> Any:
        path = route.url.removeprefix(Route.BASE)
        if route.method == "DELETE" and path == f"/users/@me/guilds/{GUILD_ID}":
            self.requests.append(Request(route.method, path, None, via))
            return None
        return super().answer(via, route, body, uploads)


def server_with_mods(client: discord.Client) -> discord.Guild:
    """The table's server: @everyone may nothing, the Mods role may manage the server."""
    state = client._connection
    guild = discord.Guild(data={
        "id": str(GUILD_ID), "name": "Table", "channels": [channel_payload()],
        "roles": [{"id": str(GUILD_ID), "name": "@everyone", "permissions": "0",
                   "position": 0, "color": 0, "hoist": False, "managed": False,
                   "mentionable": False},
                  {"id": str(MODS_ROLE), "name": "Mods", "permissions": str(MANAGE_GUILD),
                   "position": 1, "color": 0, "hoist": False, "managed": False,
                   "mentionable": False}],
        "members": [], "emojis": [], "stickers": [], "features": [], "member_count": 2,
        "owner_id": "1"}, state=state)
    state._add_guild(guild)
    return guild


def said_by(client: discord.Client, user_id: int, content: str,
            roles: list[int]) -> discord.Message:
    """A MESSAGE_CREATE in the table channel by a member with ``roles``."""
    channel = client.get_channel(CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    data = message_payload(user_id * 1000 + len(content), CHANNEL_ID, content,
                           user_payload(user_id, f"user{user_id}"))
    data["guild_id"] = str(GUILD_ID)
    member = member_payload(user_id, f"user{user_id}")
    data["member"] = {**{k: v for k, v in member.items() if k != "user"},
                      "roles": [str(role) for role in roles]}
    return discord.Message(state=client._connection, channel=channel, data=data)


async def test_a_server_manager_switches_the_bot_off_and_dismisses_it(core: Core) -> None:
    api = LeavingApi()
    client = make_client(core, api, message_content=True)
    server_with_mods(client)
    await client.on_message(said_by(client, PLAYER, ".bot off", []))
    await client.on_message(said_by(client, MOD, ".bot off", [MODS_ROLE]))
    await client.on_message(said_by(client, PLAYER, ".r 1d20", []))
    await client.on_message(said_by(client, MOD, ".bot on", [MODS_ROLE]))
    await client.on_message(said_by(client, MOD, ".dismiss confirm", [MODS_ROLE]))
    assert api.public() == [
        "⚠ 只有本頻道的 GM 或群管理員可以這麼做。",
        "我在本頻道關閉了：只回應 .bot on，期間遊戲日誌也不記錄。",
        "我在本頻道重新回應指令了。",
        "再見！我退出了。（再次邀請時，我會保持關閉，直到有人輸入 .bot on。）"]
    assert (api.requests[-1].method, api.requests[-1].path) == (
        "DELETE", f"/users/@me/guilds/{GUILD_ID}")


async def test_a_slash_commands_user_counts_by_the_permissions_discord_resolved(
        core: Core) -> None:
    client = make_client(core, DiscordApi())
    manager = command_payload("r", MOD, "Mod")  # the double's member may do everything
    player = command_payload("r", PLAYER, "Player")
    player["member"]["permissions"] = str(discord.Permissions(send_messages=True).value)
    dm = command_payload("r", PLAYER, "Player", guild=False)
    admins = [incoming_from_interaction(
        discord.Interaction(data=payload, state=client._connection), ".bot off").channel_admin
        for payload in (manager, player, dm)]
    assert admins == [True, False, False]
