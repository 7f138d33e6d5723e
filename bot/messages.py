"""What adapters hand to the core and what the core hands back.

The core never calls a platform: it returns a list of :class:`Outgoing`, each
addressed to the channel or to one user in private. "The GMs of this channel"
is resolved by the core into one private message per GM, so an adapter only
has to translate two kinds of target into platform calls — and a test can
check, for every platform at once, that a secret never lands in the channel.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass, field, fields
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class PlatformDie:
    """A die the platform already rolled (a Plurk emoticon such as ``(dice20)``).

    ``faces`` is the die size (20 for ``(dice20)``); ``value`` the face shown;
    ``token`` the emoticon text as the player typed it, for the reply.
    """

    faces: int
    value: int
    token: str = ""


MessageKind = Literal["command", "chatter"]
UploadWay = Literal["attached", "before", "none"]


@dataclass(frozen=True, slots=True)
class Incoming:
    """One chat message as the core sees it, whatever the platform.

    ``channel`` is the platform's id of the table (a QQ group, a Discord
    channel, a Plurk thread); for a private message it is the id of the
    channel the conversation belongs to when the adapter knows it, else a
    private pseudo-channel such as ``"dm:<user>"``.
    """

    platform: str
    channel: str
    user: str
    text: str
    display_name: str = ""
    is_private: bool = False
    platform_dice: tuple[PlatformDie, ...] = ()
    message_id: str | None = None
    typed: str | None = None
    """The text as typed when the core removed invisible format characters from it
    (:func:`bot.normalize.shown`), else None. Never echoed: it only tells a command
    typed with invisible arguments (`.nn` + zero-width spaces) from one without."""
    kind: MessageKind = "command"
    """``chatter``: a message the adapter knows is no command although its text may
    look like one (`.r 1d20` posted in a Plurk thread without the bot's mention): the
    core records it for the game log and never runs it. ``command``: the core decides
    from the text."""
    attachment: Attachment | None = None
    """A file the user sent with the command (a 剑手 deck file), as the adapter read
    it — at most 8 MiB (adapters read text files up to 256 KiB: adapters/uploads.py);
    None without one, or on a platform whose adapter reads no uploads (Plurk)."""
    uploads: UploadWay = "attached"
    """How a file reaches a command on this platform, for a command that reads one to
    say how to send it when none came: ``attached`` to the command's message (Discord,
    the console's ``<<PATH``), uploaded to the group just ``before`` the command (QQ,
    where a file is a message of its own), or ``none`` (a Plurk post, a QQ private
    chat: paste the text instead). ``platform.uploads.how.<way>`` says each in words."""
    account: str = ""
    """The bot's own account on the platform that received the message (a QQ account's
    ``X-Self-ID``, the Discord bot's or the Plurk account's user id; empty where the
    platform has one account, the console). The replies are stored in the outbox under
    it, and only that account sends them (docs/scaling.md)."""
    channel_admin: bool = False
    """The platform says the sender runs the channel: on QQ a group's owner or admin
    (OneBot v11 ``sender.role``), on Discord a member with Manage Server. Such a
    sender has a GM's say over the group controls (`.bot`, `.dismiss`, `.ban`)."""


TargetKind = Literal["channel", "private"]
AttachmentKind = Literal["picture", "file"]
MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024
"""The largest attachment a message may carry (8 MiB)."""


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file sent with a message: a ``picture`` (a battle map, shown inline) or a
    ``file`` (a game log). Each adapter sends it its platform's way; one that cannot
    send it sends the message's text alone."""

    filename: str
    data: bytes = field(repr=False)
    kind: AttachmentKind = "file"

    def __post_init__(self) -> None:
        # bounded: it is stored in the outbox (base64) until the platform took it, and
        # under Discord's default upload limit (10 MiB)
        if len(self.data) > MAX_ATTACHMENT_BYTES:
            raise ValueError(f"attachment {self.filename!r} is {len(self.data)} bytes, "
                             f"over {MAX_ATTACHMENT_BYTES}")
        if not self.filename or "/" in self.filename or "\\" in self.filename:
            raise ValueError(f"not a plain file name: {self.filename!r}")

    @property
    def mime(self) -> str:
        """The media type its name says (``image/png``), for platforms that want one."""
        return mimetypes.guess_type(self.filename)[0] or "application/octet-stream"

    def describe(self) -> dict[str, Any]:
        """What a log or the console's JSON shows of it: never the bytes."""
        return {"filename": self.filename, "kind": self.kind, "mime": self.mime,
                "size": len(self.data)}

    def to_record(self) -> dict[str, str]:
        return {"filename": self.filename, "kind": self.kind,
                "data": base64.b64encode(self.data).decode("ascii")}

    @classmethod
    def from_record(cls, record: dict[str, str]) -> Attachment:
        # a record's kind is one to_record wrote (the outbox is ours)
        return cls(record["filename"], base64.b64decode(record["data"]),
                   record.get("kind", "file"))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message to send.

    ``to == "channel"``: post ``text`` in ``channel``. ``to == "private"``:
    send ``text`` to ``user`` privately (``channel`` still names the table it
    concerns, so an adapter can report a failed delivery there). ``data`` is
    the structured result (dice, totals, outcome) for JSON consumers.
    ``secret`` marks a private message whose text must never be shown in a
    channel, even when private delivery fails. ``outbox_id`` is the message's row in
    the store's outbox: the adapter reports it ``Core.delivered`` once sent. ``notify``
    names users a channel message is for (the player whose turn it is): adapters of
    platforms that notify mention them — pinging them alone. ``block`` marks a text
    laid out in columns (a battle board): shown in a code block where there is one.
    ``attachment`` is a file sent with the text (:class:`Attachment`).
    ``player_private`` marks a private message for its addressee alone — a card hand,
    a draw, a mulligan: no copy of any game log holds its text, the GMs' neither (a GM
    may see a hidden roll, never a player's hand); the log records ``log_summary``
    instead, a public-safe line such as "alice drew 2 cards" (nothing when empty). Any
    system with player-private information uses this marker
    (:meth:`bot.context.Context.player_private`). ``leave`` (`.dismiss`): once this
    channel message is sent, the bot leaves the channel — the QQ group, the Discord
    server, the Plurk thread (muted); an adapter that cannot leave sends the text alone.
    """

    to: TargetKind
    channel: str
    text: str
    user: str | None = None
    data: dict[str, Any] | None = None
    secret: bool = False
    notify: tuple[str, ...] = ()
    block: bool = False
    attachment: Attachment | None = None
    player_private: bool = False
    log_summary: str = ""
    leave: bool = False
    outbox_id: int | None = None

    def stored_as(self, outbox_id: int) -> Outgoing:
        """This message as stored in the outbox's row ``outbox_id``. Every field named
        (``dataclasses.replace`` costs three times as much, for every reply the writer
        stores; ``tests/bot/test_outbox.py`` checks that they agree)."""
        return Outgoing(self.to, self.channel, self.text, self.user, self.data, self.secret,
                        self.notify, self.block, self.attachment, self.player_private,
                        self.log_summary, self.leave, outbox_id)

    def to_record(self) -> dict[str, Any]:
        """Every field but the outbox id, JSON-serialisable (for storing an unsent
        message; the id is the stored row's own)."""
        # shallow (``data`` is JSON already); `dataclasses.asdict` deep-copies it, a
        # tenth of a millisecond of every command
        record = {name: getattr(self, name) for name in _RECORDED}
        record["notify"] = list(self.notify)
        record["attachment"] = self.attachment.to_record() if self.attachment else None
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Outgoing:
        attachment = record.get("attachment")
        return cls(**{**record, "notify": tuple(record.get("notify") or ()),
                      "attachment": Attachment.from_record(attachment) if attachment
                      else None})

    def as_json(self) -> dict[str, Any]:
        """The console ``--json`` line (schema in docs/console-json.md); an attachment
        is described (name, kind, size), never its bytes."""
        line: dict[str, Any] = {
            "to": self.to,
            "channel": self.channel,
            "user": self.user,
            "text": self.text,
            "data": self.data,
        }
        if self.attachment is not None:
            line["attachment"] = self.attachment.describe()
        if self.notify:
            line["notify"] = list(self.notify)
        if self.leave:
            line["leave"] = True
        return line


_RECORDED = tuple(f.name for f in fields(Outgoing) if f.name != "outbox_id")
