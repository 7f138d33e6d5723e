"""Settings of the Discord adapter (discord.py), environment ``TRPGBOT_DISCORD__<FIELD>``.

Every field is documented in docs/discord.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field, SecretStr

from adapters.plugin import PlatformSettings, section_of

if TYPE_CHECKING:
    from bot.config import Settings

SECTION = "discord"
"""The settings' field and the environment's ``TRPGBOT_DISCORD__``."""


class DiscordSettings(PlatformSettings):
    enabled: bool = False
    token: SecretStr | None = Field(default=None, description="the bot token (Bot tab)")
    dev_guild_id: int | None = Field(
        default=None,
        description=(
            "sync slash commands to this one server only (instant, for development); "
            "unset = global sync"
        ),
    )
    sync_commands: bool = Field(
        default=True,
        description=(
            "sync the slash commands at start when they changed since the last sync "
            "(adapters/discord/sync.py); `trpgbot discord sync` forces one"
        ),
    )
    message_content: bool = Field(
        default=False,
        description=(
            "request the privileged Message Content intent so that prefix commands "
            "(.r, 。r) work in server channels; must also be enabled in the developer portal"
        ),
    )
    command_prefixes: list[str] = Field(
        default_factory=lambda: [".", "。", "．"],
        description="prefixes of text commands in ordinary messages",
    )
    locale: str = "zh-Hant"
    defer_after: float = Field(
        default=2.0,
        gt=0,
        le=2.8,
        description=(
            "seconds a slash command may take before the bot shows 'thinking…' "
            "(Discord drops an interaction not answered within 3 s)"
        ),
    )


def discord_section(settings: Settings) -> DiscordSettings:
    """The Discord section of the whole configuration."""
    return section_of(settings, SECTION, DiscordSettings)
