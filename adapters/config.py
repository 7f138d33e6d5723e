"""The whole configuration: the core's settings (``bot.config``) with a section per
platform, each declared by its adapter package (adapters/plugin.py). Read from the
environment (``TRPGBOT_<NAME>``, ``TRPGBOT_<SECTION>__<FIELD>``) and ``.env``;
every setting is documented in docs/configuration.md."""

from __future__ import annotations

from adapters.plugin import settings_class

Settings = settings_class()
