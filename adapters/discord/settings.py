"""Settings of the Discord adapter (discord.py), environment ``TRPGBOT_DISCORD__<FIELD>``.

Every field is documented in docs/discord.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import NoDecode

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
    shard_count: int | None = Field(
        default=None, ge=1,
        description=(
            "how many shards the bot runs in all, across every process (Discord requires "
            "sharding past 2,500 servers); unset = as many as Discord recommends, every "
            "one in this process (docs/scaling.md)"
        ),
    )
    shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        default=None,
        description=(
            "the shards this process runs, e.g. 0,1 (each below shard_count, which it "
            "needs); unset = all of them. The process that runs shard 0 syncs the slash "
            "commands"
        ),
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

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        """``0,1`` as the environment writes it (a JSON list is taken too)."""
        if isinstance(value, str):
            text = value.strip().removeprefix("[").removesuffix("]")
            return [part.strip() for part in text.split(",") if part.strip()] or None
        return value

    @model_validator(mode="after")
    def _shards_within_the_count(self) -> Self:
        """Refused at start, before any connection: a shard id Discord would close the
        gateway over (4010 Invalid shard), or that another process runs twice."""
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("TRPGBOT_DISCORD__SHARD_IDS needs TRPGBOT_DISCORD__SHARD_COUNT "
                             "(the shards of every process together)")
        outside = [shard for shard in self.shard_ids if not 0 <= shard < self.shard_count]
        if outside:
            raise ValueError(f"TRPGBOT_DISCORD__SHARD_IDS {outside} not within 0 to "
                             f"{self.shard_count - 1} (TRPGBOT_DISCORD__SHARD_COUNT="
                             f"{self.shard_count})")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("TRPGBOT_DISCORD__SHARD_IDS names a shard twice")
        return self

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs the slash commands: the setting, and it runs
        shard 0 (all shards when none are named) — one process of a sharded bot, never
        two racing each other's bulk overwrite."""
        return self.sync_commands and (self.shard_ids is None or 0 in self.shard_ids)


def discord_section(settings: Settings) -> DiscordSettings:
    """The Discord section of the whole configuration."""
    return section_of(settings, SECTION, DiscordSettings)
