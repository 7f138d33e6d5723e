"""Settings of the Plurk adapter (environment ``TRPGBOT_PLURK__<FIELD>``).

The four OAuth secrets may come from these settings or from the ``API.keys``
JSON file that plurk-oauth users already have (``keys_file``); a value set
here wins over the file. Delays are in seconds so that tests can shrink them
to milliseconds; the defaults follow docs/plurk.md (anti-flood backs off in
minutes, never hammering Plurk, and gives up after a ceiling).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr

from adapters.plugin import PlatformSettings


class PlurkSettings(PlatformSettings):
    enabled: bool = False
    app_key: SecretStr | None = None
    app_secret: SecretStr | None = None
    token: SecretStr | None = None
    token_secret: SecretStr | None = None
    keys_file: Path | None = Field(
        default=None, description="plurk-oauth style API.keys JSON; explicit settings win"
    )
    base_url: str = "https://www.plurk.com"
    locale: str = "zh-Hant"
    user_agent: str = "trpgbot/0.1 (+plurk adapter)"

    qualifier: str = Field(default=":", description="qualifier of the bot's responses")
    private_qualifier: str = Field(default=":", description="qualifier of private plurks")
    emoticon_dice_in_replies: bool = Field(
        default=False,
        description=(
            "let Plurk roll (diceN)-style tokens that appear in the bot's own posts; "
            "off until checked on a live account (see docs/plurk.md)"
        ),
    )

    face_images_file: Path | None = Field(
        default=None,
        description=(
            "JSON {\"<file>.png\": [die size, face]} of emoticon dice faces checked on a "
            "live account: a second reading of each die (docs/plurk.md); none ship"
        ),
    )

    request_timeout: float = 30.0
    comet_timeout: float = Field(default=80.0, description="Plurk holds a comet poll ~50 s")
    reconnect_base_delay: float = 2.0
    reconnect_max_delay: float = 300.0
    anti_flood_base_delay: float = Field(default=60.0, description="first anti-flood wait")
    anti_flood_max_delay: float = 900.0
    anti_flood_max_retries: int = Field(
        default=6,
        description=(
            "waits for anti-flood-too-many-new before a reply is dropped "
            "(60+120+240+480+900+900 s = 45 min with the defaults)"
        ),
    )
    retry_base_delay: float = 5.0
    max_retries: int = Field(default=5, description="attempts for non-flood errors")
    min_post_interval: float = Field(default=1.0, description="spacing between two posts")
    friends_interval: float = Field(
        default=300.0, description="how often to accept friend requests (Alerts/addAllAsFriends)"
    )
    catch_up_interval: float = Field(
        default=600.0,
        description="safety-net catch-up over Alerts/getHistory besides the comet gaps; 0 = off",
    )
    max_reply_parts: int = Field(
        default=12, description="a longer reply is trimmed with a visible '…'"
    )
    shutdown_grace: float = Field(
        default=10.0, description="seconds to finish queued replies when stopping"
    )
