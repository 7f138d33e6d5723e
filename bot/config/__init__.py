"""Configuration: environment variables (prefix ``TRPGBOT_``, nested with ``__``)
and a ``.env`` file, read by pydantic-settings. Every setting is documented in
docs/configuration.md.

Each adapter's section lives in its own module so that adapters can grow their
settings without touching the others. Tokens are ``SecretStr`` so they never
print in logs or reprs.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.config.discord import DiscordSettings
from bot.config.onebot import OneBotSettings
from bot.config.plurk import PlurkSettings


class ConsoleSettings(BaseModel):
    """The embedded terminal chat (the default when nothing else is enabled)."""

    user: str = "player"
    channel: str = "console"
    locale: str = "zh-Hant"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="TRPGBOT_",
        env_nested_delimiter="__",
        env_file=".env",
        extra="ignore",
    )

    data_dir: Path = Path("data")
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy async URL; default sqlite+aiosqlite in data_dir/trpgbot.db",
    )
    messages_file: Path | None = Field(
        default=None, description="TOML file overriding catalog messages per locale"
    )
    default_system: str = "plurk"
    log_level: str = "WARNING"
    group_commit: bool = Field(
        default=True,
        description="commit the changes of concurrent commands together, with a working "
        "set in memory (docs/architecture.md); false: one transaction per command",
    )

    console: ConsoleSettings = ConsoleSettings()
    onebot: OneBotSettings = OneBotSettings()
    discord: DiscordSettings = DiscordSettings()
    plurk: PlurkSettings = PlurkSettings()

    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'trpgbot.db').as_posix()}"
