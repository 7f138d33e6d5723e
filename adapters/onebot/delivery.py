"""Executes the core's ``Outgoing`` list as OneBot v11 actions.

- ``to="channel"`` → ``send_group_msg`` (or ``send_private_msg`` for a
  ``dm:<user>`` pseudo-channel), optionally @-ing the sender.
- ``to="private"`` → ``send_private_msg``. QQ only delivers private messages to
  friends; for a non-friend the implementation answers with a failed action.
  We then retry once as a *temporary session* (``send_private_msg`` with the
  ``group_id`` the message concerns — NapCat and Lagrange accept it when the
  bot may start temporary chats in that group). If that fails too, the core is
  told (``private_delivery_failed``) and the channel notice it returns is sent:
  the GM sees the failure, the group never sees the secret.
- An ``Outgoing`` with ``secret=True`` is never sent to a group, whatever the core says.
- An ``Outgoing.attachment`` that is a picture (the battle map) goes with the last
  piece of the text as an ``image`` segment (``base64://…``). If the implementation
  refuses the message with the picture, the text is sent alone.
- An attachment of kind ``file`` (a game log) is uploaded after the text: a group
  file (``upload_group_file``) for a group message, a private file
  (``upload_private_file``) for a private one, its ``file`` given as
  ``base64://…`` — the bytes travel in the action itself, so NapCat needs no path
  shared with the bot (it may run in another container). When the upload fails
  (an implementation without these actions answers retcode 1404; NapCat refuses
  with a failed action), a short localised note says the file could not be sent —
  in the group for a group message, privately for a private one.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from nonebot.adapters.onebot.v11 import Bot, Message
from nonebot.adapters.onebot.v11.exception import ActionFailed, ApiNotAvailable, NetworkError

from adapters.delivery import CoreAPI, Delivery
from adapters.onebot.convert import PLATFORM, as_id, private_channel_user, split_text, to_message
from adapters.onebot.group_controls import leave_group
from adapters.onebot.settings import OneBotSettings
from bot.messages import Attachment, Incoming, Outgoing

log = logging.getLogger(__name__)

#: What a failed OneBot call raises: a failed action, a timeout, no connection.
SEND_ERRORS = (ActionFailed, NetworkError, ApiNotAvailable)
#: Seconds an upload may take at least: the implementation writes the file, then
#: uploads it to QQ — slower than a message (``api_timeout`` when that is longer).
UPLOAD_TIMEOUT = 120.0

Send = Callable[[Message], Awaitable[Any]]


class OneBotDelivery(Delivery):
    """Sends one command's replies through ``bot``, in the order the core gave them."""

    platform = PLATFORM

    def __init__(
        self, bot: Bot, core: CoreAPI, settings: OneBotSettings, origin: Incoming | None
    ) -> None:
        super().__init__(core)
        self.bot = bot
        self.settings = settings
        self.origin = origin

    async def leave(self, out: Outgoing) -> None:
        await leave_group(self.bot, out.channel)

    async def send_channel(self, out: Outgoing) -> None:
        dm_user = private_channel_user(out.channel)
        if dm_user is not None:
            await self.send_private(Outgoing(to="private", channel=out.channel, text=out.text,
                                              user=dm_user, attachment=out.attachment))
            return
        group_id = as_id(out.channel)
        if group_id is None:
            log.error("not a QQ group id: %r", out.channel)
            return
        # the player whose turn it is now is @-ed (QQ notifies them); else the sender
        at_user = out.notify[0] if out.notify else self._at_user(out)
        image = picture_of(out.attachment)
        pieces = split_text(out.text, self.settings.max_message_length)
        if image is not None and not pieces:
            pieces = [""]

        async def send(message: Message) -> Any:
            return await self.bot.call_api("send_group_msg", group_id=group_id, message=message)

        for index, piece in enumerate(pieces):
            at = at_user if index == 0 else None
            last = image if index == len(pieces) - 1 else None
            try:
                await self._send_with_picture(send, piece, at, last)
            except SEND_ERRORS as exc:
                log.warning("send_group_msg to %s failed: %r", group_id, exc)
                return
        document = file_of(out.attachment)
        if document is None or await self._upload(document, "upload_group_file",
                                                  group_id=group_id):
            return
        try:
            await send(to_message(self._file_note(out, document)))
        except SEND_ERRORS as exc:
            log.warning("send_group_msg to %s (the file note) failed: %r", group_id, exc)

    @staticmethod
    async def _send_with_picture(send: Send, piece: str, at_user: str | None,
                                 image: bytes | None) -> None:
        """Send one piece, with the picture if any; refused with it, send the text alone."""
        if image is None:
            await send(to_message(piece, at_user))
            return
        try:
            await send(to_message(piece, at_user, image))
        except SEND_ERRORS as exc:
            if not piece and at_user is None:
                raise
            log.warning("a message with a picture was refused (%r); sending the text alone",
                        exc)
            await send(to_message(piece, at_user))

    def _at_user(self, out: Outgoing) -> str | None:
        """The sender to @ at the start of a group reply, when the setting asks for it."""
        origin = self.origin  # None: replies kept from before a restart, @ no one
        if origin is None:
            return None
        if self.settings.at_sender and not origin.is_private and out.channel == origin.channel:
            return origin.user
        return None

    async def send_private(self, out: Outgoing) -> bool:
        """Deliver every piece privately, then the file if any; ``False`` as soon as a
        piece cannot be delivered (or, for a file alone, when neither the file nor the
        note about it could be)."""
        user_id = as_id(out.user or "")
        if user_id is None:
            log.error("not a QQ number: %r", out.user)
            return False
        attempts: list[dict[str, Any]] = [{}]
        group_id = as_id(out.channel)
        if self.settings.temp_session and group_id is not None:
            attempts.append({"group_id": group_id})
        image = picture_of(out.attachment)
        pieces = split_text(out.text, self.settings.max_message_length)
        if image is not None and not pieces:
            pieces = [""]
        if not await self._send_private_pieces(user_id, attempts, pieces, image):
            return False
        document = file_of(out.attachment)
        if document is None or await self._upload(document, "upload_private_file",
                                                  user_id=user_id):
            return True
        # the note stays private: the file may be the GM's copy
        noted = await self._send_private_pieces(user_id, attempts,
                                                [self._file_note(out, document)], None)
        return noted or bool(pieces)

    async def _send_private_pieces(self, user_id: int, attempts: list[dict[str, Any]],
                                   pieces: list[str], image: bytes | None) -> bool:
        """Send ``pieces`` (the picture with the last) to ``user_id``: as a friend, then
        through the temporary session; an attempt that failed is not tried again (it is
        dropped from ``attempts``). ``False`` once every attempt failed."""
        for index, piece in enumerate(pieces):
            last = image if index == len(pieces) - 1 else None
            while True:
                extra = attempts[0]

                async def send(message: Message, extra: dict[str, Any] = extra) -> Any:
                    return await self.bot.call_api("send_private_msg", user_id=user_id,
                                                   message=message, **extra)
                try:
                    await self._send_with_picture(send, piece, None, last)
                    break
                except SEND_ERRORS as exc:
                    log.info("send_private_msg to %s (%s) failed: %r",
                             user_id, extra or "friend", exc)
                    attempts.pop(0)
                    if not attempts:
                        return False
        return True

    async def _upload(self, document: Attachment, action: str, **target: int) -> bool:
        """Upload ``document`` with ``action`` (``upload_group_file`` /
        ``upload_private_file``); ``False`` when the implementation lacks the action
        or refused it. Its content is never logged (a GM's copy holds secrets)."""
        data = "base64://" + base64.b64encode(document.data).decode("ascii")
        try:
            await self.bot.call_api(action, **target, file=data, name=document.filename,
                                    _timeout=max(self.settings.api_timeout, UPLOAD_TIMEOUT))
        except SEND_ERRORS as exc:
            log.warning("qq: %s of %s (%d bytes) failed: %r", action, document.filename,
                        len(document.data), exc)
            return False
        return True

    def _file_note(self, out: Outgoing, document: Attachment) -> str:
        """The localised note that ``document`` could not be sent (the channel's language)."""
        core: Any = self.core
        locale = core.cached_locale(PLATFORM, out.channel)
        return str(core.catalog.text(locale, "core.log.file_not_sent",
                                     filename=document.filename))


def picture_of(attachment: Attachment | None) -> bytes | None:
    """The bytes of a picture attachment; None for none, or for a file (uploaded apart)."""
    if attachment is None or attachment.kind != "picture":
        return None
    return attachment.data


def file_of(attachment: Attachment | None) -> Attachment | None:
    """A ``file`` attachment (uploaded after the text); None for none or a picture."""
    return attachment if attachment is not None and attachment.kind == "file" else None
