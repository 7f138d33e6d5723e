"""The whole configuration: the core's settings (``bot.config``), the service's own
(:class:`ServiceSettings`: the log's format, the operator's health and metrics
endpoint) and a section per platform, each declared by its adapter package
(adapters/plugin.py). Read from the environment (``TRPGBOT_<NAME>``,
``TRPGBOT_<SECTION>__<FIELD>``) and ``.env``; every setting is documented in
docs/configuration.md."""

from __future__ import annotations

from typing import Literal, cast

from pydantic import BaseModel, Field, create_model

from adapters.plugin import settings_class
from bot.config import Settings as CoreSettings


class OpsSettings(BaseModel):
    """``TRPGBOT_OPS__*``: the HTTP endpoint of `trpgbot run` that a supervisor and
    Prometheus read (``/healthz``, ``/metrics``; adapters/ops.py)."""

    enabled: bool = True
    host: str = "127.0.0.1"
    """Loopback by default: what it shows is for the operator, not the internet."""
    port: int = Field(default=8090, ge=0, le=65535)


class ServiceSettings(CoreSettings):
    """What the running service adds to the core's settings."""

    log_format: Literal["text", "json"] = "text"
    """``json``: one JSON object per line (adapters/logs.py), for a log collector."""
    ops: OpsSettings = Field(default_factory=OpsSettings)


Settings = cast(type[ServiceSettings],
                create_model("Settings", __base__=(settings_class(), ServiceSettings)))
