"""Settings of the QQ adapter (nonebot2 + OneBot v11), environment ``TRPGBOT_ONEBOT__<FIELD>``.

The bot is a OneBot v11 *server*: NapCat / Lagrange.OneBot connect to the
reverse WebSocket ``ws://<host>:<port>/onebot/v11/ws``. Forward WebSocket (the
bot dials the implementation) is optional via ``ws_urls``. Every field is
documented in docs/qq.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field, SecretStr

from adapters.plugin import PlatformSettings, section_of

if TYPE_CHECKING:
    from bot.config import Settings

SECTION = "onebot"
"""The settings' field and the environment's ``TRPGBOT_ONEBOT__``."""


class OneBotSettings(PlatformSettings):
    enabled: bool = False
    host: str = Field(default="127.0.0.1", description="address the reverse WebSocket listens on")
    port: int = Field(default=8080, description="port of the reverse WebSocket / HTTP endpoint")
    access_token: SecretStr | None = Field(
        default=None,
        description="shared secret; the implementation sends it as 'Authorization: Bearer …'",
    )
    ws_urls: list[str] = Field(
        default_factory=list,
        description="forward WebSocket URLs to dial (ws://host:port); empty = reverse WS only",
    )
    self_ids: list[str] = Field(
        default_factory=list,
        description=(
            "the QQ accounts (X-Self-ID) this process answers for; empty = every account "
            "that connects (docs/scaling.md)"
        ),
    )
    locale: str = "zh-Hans"
    command_prefixes: list[str] = Field(
        default_factory=lambda: [".", "。", "．", "/"],
        description="a message is a command when its text starts with one of these",
    )
    at_sender: bool = Field(
        default=False, description="@ the sender at the start of group replies to a command"
    )
    temp_session: bool = Field(
        default=True,
        description=(
            "when send_private_msg to a non-friend fails, retry once as a group temporary "
            "session (send_private_msg with group_id) before reporting the failure"
        ),
    )
    accept_friend_requests: bool = Field(
        default=True,
        description=(
            "approve QQ friend requests from members of a group the bot is in (secret "
            "rolls need friendship); other requests are left to the operator"
        ),
    )
    max_message_length: int = Field(
        default=3000, ge=100, description="longer replies are split into several messages"
    )
    api_timeout: float = Field(
        default=30.0, gt=0, description="seconds to wait for the implementation to answer a call"
    )


def onebot_section(settings: Settings) -> OneBotSettings:
    """The OneBot section of the whole configuration."""
    return section_of(settings, SECTION, OneBotSettings)
