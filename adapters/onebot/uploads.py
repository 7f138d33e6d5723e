"""A file uploaded to a QQ group, for the uploader's next command (a 剑手 deck for
`.js deck file`).

QQ sends a file in a message of its own, never beside text, so a command cannot
"carry" one: the implementation reports the upload as OneBot v11's ``notice`` /
``group_upload`` (group, uploader, and the file's ``id``, ``name``, ``size``,
``busid``), and the uploader types the command after it. The adapter keeps the last
text file (adapters/uploads.py) each member uploaded to a group for
:data:`UPLOAD_WINDOW` seconds; that member's next command in that group takes it.
Nothing is fetched at upload: only a command does, after the declared size passed.

The bytes come from NapCat's ``get_file`` (``file_id``: the notice's id) as the
``base64`` of its answer, over the connection already open — the bot reads no path on
the implementation's disk and fetches no URL. NapCat puts ``base64`` in the answer
only with ``enableLocalFile2Url`` on; an implementation without it, or without
``get_file``, gets the reason said to the user, and the operator a warning.
"""

from __future__ import annotations

import base64
import binascii
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nonebot.adapters.onebot.v11 import Bot, GroupUploadNoticeEvent

from adapters.onebot.delivery import SEND_ERRORS
from adapters.uploads import Offer
from bot.messages import Attachment

log = logging.getLogger(__name__)

UPLOAD_WINDOW = 300.0
"""Seconds an uploaded file waits for its uploader's command."""
KEPT = 256
"""Uploads kept at most (the oldest leaves first): a busy group costs bounded memory."""
FETCH_TIMEOUT = 60.0
"""Seconds ``get_file`` may take at least: the implementation downloads it from QQ first."""


@dataclass(frozen=True, slots=True)
class GroupUpload:
    """A group file as the ``group_upload`` notice declared it."""

    offer: Offer
    file_id: str
    at: float


class Uploads:
    """The last text file each member uploaded to each group, until their next command
    takes it or :data:`UPLOAD_WINDOW` passes."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._waiting: OrderedDict[tuple[str, str], GroupUpload] = OrderedDict()

    def offer(self, event: GroupUploadNoticeEvent) -> None:
        """Keep the uploaded file when it is a text file (a picture or an archive is no
        command's: never kept, never fetched)."""
        offer = Offer(event.file.name, event.file.size)
        if not offer.is_text:
            return
        key = (str(event.group_id), str(event.user_id))
        self._waiting.pop(key, None)
        self._waiting[key] = GroupUpload(offer, event.file.id, self._clock())
        while len(self._waiting) > KEPT:
            self._waiting.popitem(last=False)

    def take(self, group: str, user: str) -> GroupUpload | None:
        """The file ``user`` uploaded to ``group`` within the window, once."""
        upload = self._waiting.pop((group, user), None)
        if upload is None or self._clock() - upload.at > UPLOAD_WINDOW:
            return None
        return upload


async def fetch(bot: Bot, upload: GroupUpload, api_timeout: float) -> Attachment | str:
    """The uploaded file's bytes through ``get_file``, or why not: ``too_large`` (from
    the declared size, before any call) or ``unreadable``."""
    name = upload.offer.name
    if not upload.offer.fits:
        return "too_large"
    try:
        answer: Any = await bot.call_api("get_file", file_id=upload.file_id,
                                         _timeout=max(api_timeout, FETCH_TIMEOUT))
    except SEND_ERRORS as exc:
        log.warning("QQ: get_file of %r failed: %r", name, exc)
        return "unreadable"
    encoded = answer.get("base64") if isinstance(answer, dict) else None
    if not isinstance(encoded, str):
        log.warning("QQ: get_file gave no base64 of %r: NapCat gives it with "
                    "enableLocalFile2Url on (docs/qq.md)", name)
        return "unreadable"
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        log.warning("QQ: get_file gave no valid base64 of %r", name)
        return "unreadable"
    file = upload.offer.attachment(data)
    return "too_large" if file is None else file
