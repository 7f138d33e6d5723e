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
  refuses the message with the picture, the text is sent alone. Other files (a game
  log) are not sent by this adapter yet: the text goes alone.
"""

from __future__ import annotations

import logging
from typing import Any

from nonebot.adapters.onebot.v11 import Bot
from nonebot.adapters.onebot.v11.exception import ActionFailed, ApiNotAvailable, NetworkError

from adapters.delivery import CoreAPI, Delivery
from adapters.onebot.convert import PLATFORM, as_id, private_channel_user, split_text, to_message
from bot.config.onebot import OneBotSettings
from bot.messages import Attachment, Incoming, Outgoing

log = logging.getLogger(__name__)

#: What a failed OneBot call raises: a failed action, a timeout, no connection.
SEND_ERRORS = (ActionFailed, NetworkError, ApiNotAvailable)


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

    async def send_channel(self, out: Outgoing) -> None:
        dm_user = private_channel_user(out.channel)
        if dm_user is not None:
            await self.send_private(Outgoing(to="private", channel=out.channel,
                                              text=out.text, user=dm_user))
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
        for index, piece in enumerate(pieces):
            at = at_user if index == 0 else None
            last = image if index == len(pieces) - 1 else None
            try:
                await self._send_with_picture(
                    lambda message: self.bot.call_api("send_group_msg", group_id=group_id,
                                                      message=message), piece, at, last)
            except SEND_ERRORS as exc:
                log.warning("send_group_msg to %s failed: %r", group_id, exc)
                return

    @staticmethod
    async def _send_with_picture(send: Any, piece: str, at_user: str | None,
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
        """Deliver every piece privately; ``False`` as soon as one cannot be delivered."""
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
        for index, piece in enumerate(pieces):
            last = image if index == len(pieces) - 1 else None
            while True:
                try:
                    await self._send_with_picture(
                        lambda message: self.bot.call_api(
                            "send_private_msg", user_id=user_id, message=message,
                            **attempts[0]), piece, None, last)
                    break
                except SEND_ERRORS as exc:
                    log.info("send_private_msg to %s (%s) failed: %r",
                             user_id, attempts[0] or "friend", exc)
                    attempts.pop(0)
                    if not attempts:
                        return False
        return True


def picture_of(attachment: Attachment | None) -> bytes | None:
    """The bytes of a picture attachment; None for none, or for a file (not sent here)."""
    if attachment is None:
        return None
    if attachment.kind != "picture":
        log.warning("qq: a %s attachment (%s) is not sent; the text goes alone",
                    attachment.kind, attachment.filename)
        return None
    return attachment.data
