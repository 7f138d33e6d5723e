"""Platforms as plugins: one package per platform below ``adapters``, found by discovery.

Each platform package (``adapters/console``, ``discord``, ``onebot``, ``plurk``) exports
``PLUGIN``, an :class:`Adapter`: the platform's id (``Incoming.platform``: ``qq``), its
settings section and class (``TRPGBOT_<SECTION>__<FIELD>``: ``onebot``), whether the
configuration enables it, how to start it, its tables' language until a player
picks one and which user ids can be a real person there. :func:`plugins` finds them
the way ``bot.systems.manifests`` finds rule systems; nothing else lists them:

- :func:`settings_class` composes the whole configuration — the core's settings
  (``bot.config.Settings``) with a field per section, read from the same environment
  variables and ``.env`` as ever (``adapters.config.Settings``);
- its ``platforms()`` gives the core each platform's locale and user-id rule
  (``bot.platforms``), so the core names no platform;
- `trpgbot run` (adapters/runner.py) starts every enabled adapter, or the fallback
  (the console) when none is.

Adding a platform is adding a package; see docs/architecture.md, "Adding a platform".
A package's ``__init__`` stays light (its settings class and ``PLUGIN``): the
platform's library is imported by its ``serve`` only, when the platform is used.
"""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, Field, create_model

import adapters
from bot.config import Settings
from bot.platforms import DEFAULT_LOCALE, Platform, Platforms, UserIdRule, any_user_id

if TYPE_CHECKING:
    from bot.core import Core


class PlatformSettings(BaseModel):
    """What every platform's settings section has."""

    locale: str = DEFAULT_LOCALE
    """The language of the platform's tables until a player picks one (`.lang`)."""


S = TypeVar("S", bound=PlatformSettings)


def section_of(settings: Settings, section: str, kind: type[S]) -> S:
    """The section ``section`` (a ``kind``) of the whole configuration: what a platform's
    own modules read, since they sit below the ``PLUGIN`` that starts them."""
    found = getattr(settings, section, None)
    if not isinstance(found, kind):
        raise TypeError(f"settings without the {section!r} section ({kind.__name__})")
    return found

Serve = Callable[["Core", Settings, asyncio.Event], Awaitable[None]]
"""Run the platform until the event is set (``settings``: the whole configuration)."""


class Adapter(Protocol):
    """What a platform package exports as ``PLUGIN`` (see the module's docstring)."""

    @property
    def platform(self) -> str: ...

    @property
    def section(self) -> str: ...

    @property
    def settings(self) -> type[PlatformSettings]: ...

    @property
    def fallback(self) -> bool: ...

    def enabled(self, settings: Settings) -> bool: ...

    def locale(self, settings: Settings) -> str: ...

    def is_user_id(self, user: str) -> bool: ...

    def serve(self, core: Core, settings: Settings, stop: asyncio.Event) -> Awaitable[None]: ...


@dataclass(frozen=True)
class AdapterPlugin(Generic[S]):
    """An :class:`Adapter` made of parts, what each platform package declares."""

    platform: str
    """The id messages and stored channels carry (``qq``)."""
    section: str
    """Its settings' section: the field of the settings and the environment variables'
    ``TRPGBOT_<SECTION>__`` (``onebot``)."""
    settings: type[S]
    start: Serve
    user_id: UserIdRule = any_user_id
    fallback: bool = False
    """Started when the configuration enables no platform (the console); never with others."""

    def of(self, settings: Settings) -> S:
        """This platform's section of the whole configuration."""
        return section_of(settings, self.section, self.settings)

    def enabled(self, settings: Settings) -> bool:
        """Whether `trpgbot run` starts it: its section says ``enabled`` (a fallback
        has no such setting)."""
        return not self.fallback and getattr(self.of(settings), "enabled", False) is True

    def locale(self, settings: Settings) -> str:
        return self.of(settings).locale

    def is_user_id(self, user: str) -> bool:
        return self.user_id(user)

    def serve(self, core: Core, settings: Settings, stop: asyncio.Event) -> Awaitable[None]:
        return self.start(core, settings, stop)


@cache
def plugins() -> dict[str, Adapter]:
    """Every platform package below ``adapters``, by platform id (imported once)."""
    found: dict[str, Adapter] = {}
    sections: set[str] = set()
    for module in pkgutil.iter_modules(adapters.__path__):
        if not module.ispkg:
            continue
        plugin: Adapter = importlib.import_module(f"{adapters.__name__}.{module.name}").PLUGIN
        if plugin.platform in found or plugin.section in sections:
            raise ValueError(f"adapter package {module.name!r} declares platform "
                             f"{plugin.platform!r} or section {plugin.section!r} again")
        if plugin.section in Settings.model_fields:
            raise ValueError(f"adapter package {module.name!r}: {plugin.section!r} is a "
                             "core setting")
        found[plugin.platform] = plugin
        sections.add(plugin.section)
    return found


class _WithPlatforms(Settings):
    def platforms(self) -> Platforms:
        # every chat platform is rate-limited; the fallback (the console) is the
        # operator's own terminal
        return Platforms({plugin.platform: Platform(plugin.locale(self), plugin.is_user_id,
                                                    rate_limited=not plugin.fallback)
                          for plugin in plugins().values()})


@cache
def settings_class() -> type[Settings]:
    """The whole configuration: the core's settings and a field per platform section,
    each read from ``TRPGBOT_<SECTION>__<FIELD>`` (nested models of pydantic-settings)."""
    sections: dict[str, Any] = {
        plugin.section: (plugin.settings, Field(default_factory=plugin.settings))
        for plugin in plugins().values()}
    return create_model("Settings", __base__=_WithPlatforms, **sections)
