"""A file a user sends with a command (a 劍手 deck for `.js deck file`), as every adapter
takes it: from what the platform declares before any byte moves — its name, media type
and size — an adapter fetches only a text file (JSON, YAML, plain text) of at most
:data:`MAX_UPLOAD_BYTES`, and only for a message that is a command. A file too large or
one the platform would not hand over is not fetched again: the user is told why, in the
table's language (``platform.uploads.*``), instead of meeting silence.

A picture or any other kind of file is never fetched: it is not what a command reads
(the deck, a sheet), and chat is full of pictures sent beside a roll. docs/decisions.md,
"Issue 24 — attachments", has the reasons and each platform's way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import PurePosixPath

from adapters.delivery import CoreAPI
from bot.messages import Attachment, Outgoing
from bot.normalize import normalize, strip_prefix, visible

MAX_UPLOAD_BYTES = 256 * 1024
"""The largest file read with a command: a 200-card deck is a few kilobytes, a sheet less."""
TEXT_SUFFIXES = frozenset({".json", ".yaml", ".yml", ".txt"})
TEXT_MEDIA_TYPES = ("text/", "application/json", "application/yaml", "application/x-yaml")
NAME_LIMIT = 100
"""The longest file name passed on (a platform's names may be long)."""


@dataclass(frozen=True, slots=True)
class Offer:
    """A file as the platform describes it before it is fetched: its name, its declared
    size in bytes and its media type when the platform gives one (Discord does, QQ not)."""

    name: str
    size: int
    media_type: str = ""

    @property
    def is_text(self) -> bool:
        """A JSON, YAML or plain text file, by its name or its media type."""
        suffix = PurePosixPath(self.name.replace("\\", "/")).suffix.casefold()
        media = self.media_type.split(";")[0].strip().casefold()
        return suffix in TEXT_SUFFIXES or (bool(media) and media.startswith(TEXT_MEDIA_TYPES))

    @property
    def fits(self) -> bool:
        return 0 <= self.size <= MAX_UPLOAD_BYTES

    def attachment(self, data: bytes) -> Attachment | None:
        """The fetched bytes as the core's attachment; None when they are more than the
        platform declared the limit allows (a declared size is a claim, not a proof)."""
        if len(data) > MAX_UPLOAD_BYTES:
            return None
        name = self.name.replace("/", "_").replace("\\", "_")[:NAME_LIMIT].strip()
        return Attachment(name or "upload.txt", data)


def is_command(text: str) -> bool:
    """Whether ``text`` is a command of any table, decided as the core decides it and
    without I/O: a file sent with chat is never fetched."""
    from bot.routes import router  # the core's command tables, loaded once

    body = strip_prefix(normalize(text))
    return body is not None and router().is_command(visible(body))


def notice(core: CoreAPI, platform: str, channel: str, reason: str,
           offer: Offer) -> Outgoing:
    """Why ``offer`` was not read (``reason``: ``too_large`` or ``unreadable``), as a
    refusal in the channel's language (no I/O: the language the core last saw there)."""
    locale = core.cached_locale(platform, channel)
    text = core.catalog.text(locale, f"platform.uploads.{reason}", name=offer.name[:40],
                             size=kib(offer.size), limit=kib(MAX_UPLOAD_BYTES))
    return Outgoing("channel", channel, core.catalog.text(locale, "core.error.prefix",
                                                          text=text))


def kib(size: int) -> str:
    """A size as people read it: ``300 KiB`` (rounded up: 1 byte over is not "256")."""
    return f"{math.ceil(max(size, 0) / 1024)} KiB"
