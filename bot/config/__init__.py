"""Configuration: environment variables (prefix ``TRPGBOT_``, nested with ``__``)
and a ``.env`` file, read by pydantic-settings. Every setting is documented in
docs/configuration.md.

This is the core's part. Each platform's section (``TRPGBOT_<SECTION>__<FIELD>``)
lives in its adapter's package, and the whole configuration — this class with a
field per section — is composed where the adapters are known
(``adapters.config.Settings``, adapters/plugin.py); it also tells the core what it
must know of each platform (:meth:`Settings.platforms`). Tokens are ``SecretStr`` so
they never print in logs or reprs.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.platforms import Platforms


class BackupSettings(BaseModel):
    """The daily backup of a SQLite store by `trpgbot run` (``TRPGBOT_BACKUP__<FIELD>``,
    adapters/backup.py); PostgreSQL is backed up with ``pg_dump``."""

    enabled: bool = False
    dir: Path | None = Field(
        default=None, description="where the daily backups go; default data_dir/backups")
    keep: int = Field(default=7, ge=1,
                      description="how many daily backups are kept (the newest): days")


class RateSettings(BaseModel):
    """The per-user rate limit (``TRPGBOT_RATE__…``; bot/rate_limit.py): a token bucket
    of ``burst`` commands, one token back every ``refill_seconds``."""

    burst: int = Field(default=10, ge=0, description="commands a user may send at once; "
                       "0 turns the limit off")
    refill_seconds: float = Field(default=2.0, gt=0, description="seconds until a spent "
                                  "command comes back")


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
    default_system: str = Field(
        default="plurk", description="the rule system a new channel plays (a system's id, "
        "not a layer: `.system` lists them)")
    decks_dir: Path | None = Field(
        default=None, description="the folder of deck files `.draw` reads at start "
        "(docs/decks.md); default data_dir/decks")
    log_level: str = "INFO"
    group_commit: bool = Field(
        default=True,
        description="commit the changes of concurrent commands together, with a working "
        "set in memory (docs/architecture.md); false: one transaction per command",
    )
    backup: BackupSettings = Field(default_factory=BackupSettings)

    rate: RateSettings = Field(default_factory=RateSettings)

    @field_validator("default_system")
    @classmethod
    def _a_playable_system(cls, value: str) -> str:
        """Refused at start, not at a table's first `.r` (a KeyError there)."""
        from bot.systems import declared

        known = {system: m for system, m in declared().items() if not m.layer_of}
        if value.casefold() not in known:
            raise ValueError(f"no rule system {value!r}; one of: {', '.join(sorted(known))}")
        return value.casefold()

    def platforms(self) -> Platforms:
        """The locale and user-id rule of each platform these settings configure (none
        here: the composed settings add every adapter's)."""
        return Platforms()

    def resolved_decks_dir(self) -> Path:
        return self.decks_dir if self.decks_dir is not None else self.data_dir / "decks"

    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'trpgbot.db').as_posix()}"
