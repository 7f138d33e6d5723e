"""A OneBot v11 implementation as the bot sees it, for loopback tests.

It plays the part NapCat or Lagrange.OneBot plays in production: it dials the
bot's reverse WebSocket with ``X-Self-ID`` and ``Authorization`` headers, posts
message events as JSON, and answers every action the bot calls, echo-matched,
like a real implementation — including the failed ``send_private_msg`` a QQ
account gets for a user who is not its friend, and the group list / group
member look-ups (failed for a non-member, as NapCat answers) that the friend
request check uses.

Where its behaviour comes from ("assumed" = chosen, not documented):

- the reverse WebSocket handshake (``X-Self-ID``, ``Authorization: Bearer``),
  events as JSON with ``post_type``, and actions answered with the caller's
  ``echo`` (OneBot v11, "communication/ws-reverse" and "api");
- an answer is ``{"status", "retcode", "data", "message", "wording", "echo"}``
  with ``wording`` equal to ``message`` (NapCat's ``OB11Response``); a success
  is ``status: "ok", retcode: 0``; an action that fails while being carried out
  (a private message to a non-friend, an unknown group member) is ``status:
  "failed", retcode: 1200, data: null`` — the code NapCat's
  ``OneBotAction.websocketHandle`` gives every such error over WebSocket (older
  NapCat used 200); the error texts are assumed;
- an action the peer does not implement is ``status: "failed", retcode: 1404``
  (OneBot v11: 1404 = the API does not exist, for WebSocket);
- message events use the array message format (NapCat's ``messagePostFormat:
  "array"``), an @ as ``{"type": "at", "data": {"qq": "<number>", "name"}}``;
- an ``image`` segment's ``file`` is a URL, a ``file://`` path or ``base64://``
  data (OneBot v11, "message/segment": image); the peer decodes ``base64://``
  and fails the action (``retcode`` 1200, like any failed send) when the data is not
  base64 or not a PNG/JPEG/GIF picture (assumed: NapCat cannot upload it), or when
  ``refuse_pictures`` is set (QQ refusing a picture: risk control, a muted group);
- ``upload_group_file`` (``group_id``, ``file``, ``name``, optional ``folder`` /
  ``folder_id``) and ``upload_private_file`` (``user_id``, ``file``, ``name``) as
  NapCat implements them (``src/onebot/action/go-cqhttp/UploadGroupFile.ts`` and
  ``UploadPrivateFile.ts`` of NapNeko/NapCatQQ; parameters its schema refuses are
  retcode 1400, ``OneBotAction.websocketHandle``): ``file`` is a path on NapCat's host,
  ``file://``, ``http(s)://`` or ``base64://`` (``uriToLocalFile`` in
  ``src/common/file.ts``), anything else fails the action (``识别URL失败``); ``name``
  is required; the answer is ``{"file_id": <uuid>}`` (NapCat's API documentation).
  The peer keeps what it received in ``files`` (decoded ``base64://`` only: it shares
  no disk with the bot), fails an upload when ``refuse_files`` is set (QQ refusing it:
  no upload right in the group, risk control) and a private upload to a non-friend
  (assumed; NapCat tries a temporary session, which QQ often refuses), and answers
  both actions with retcode 1404 when ``file_uploads`` is off (an implementation
  that lacks them);
- a file uploaded to a group is posted as OneBot v11's ``notice`` ``group_upload``
  (``group_id``, ``user_id``, ``file``: ``id``, ``name``, ``size``, ``busid``; OneBot v11
  "event/notice", NapCat's ``OB11GroupUploadNoticeEvent``), its ``id`` the one
  ``get_file`` takes as ``file_id``; ``get_file`` answers ``{"file", "url", "file_size",
  "file_name"}`` — ``file`` and ``url`` a path on NapCat's host — and ``base64``, the
  bytes, only with NapCat's ``enableLocalFile2Url`` on (``file_base64``; NapCat's
  ``GetFile.ts`` and its API documentation); an id it does not know fails the action
  (``file not found``, retcode 1200), and with ``get_file_action`` off it is retcode 1404
  (an implementation without it, as Lagrange-like peers).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import itertools
import json
import time
import uuid
from dataclasses import dataclass
from typing import Any

import websockets

SELF_ID = 10000


def text_segment(text: str) -> dict[str, Any]:
    return {"type": "text", "data": {"text": text}}


def at_segment(qq: int | str, name: str = "") -> dict[str, Any]:
    """An @ as NapCat reports it (``qq`` a string: a QQ number or ``"all"``)."""
    return {"type": "at", "data": {"qq": str(qq), "name": name}}


def raw_message(segments: list[dict[str, Any]]) -> str:
    """The CQ-string form of ``segments`` (what ``raw_message`` carries)."""
    return "".join(s["data"]["text"] if s["type"] == "text" else
                   f"[CQ:{s['type']},qq={s['data']['qq']}]" for s in segments)


def group_event(group_id: int, user_id: int, text: str, *, nickname: str = "",
                card: str = "", message_id: int | None = None,
                segments: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A ``message.group.normal`` event as NapCat posts it (array message format);
    ``segments`` replaces the one text segment made of ``text``."""
    message = segments if segments is not None else [text_segment(text)]
    return {
        "time": int(time.time()),
        "self_id": SELF_ID,
        "post_type": "message",
        "message_type": "group",
        "sub_type": "normal",
        "message_id": message_id if message_id is not None else next(_message_ids),
        "group_id": group_id,
        "user_id": user_id,
        "anonymous": None,
        "message": message,
        "raw_message": raw_message(message),
        "font": 0,
        "sender": {"user_id": user_id, "nickname": nickname or str(user_id), "card": card,
                   "role": "member"},
    }


def group_upload_event(group_id: int, user_id: int, file_id: str, name: str,
                       size: int) -> dict[str, Any]:
    """A ``notice.group_upload`` event as NapCat posts it."""
    return {
        "time": int(time.time()),
        "self_id": SELF_ID,
        "post_type": "notice",
        "notice_type": "group_upload",
        "group_id": group_id,
        "user_id": user_id,
        "file": {"id": file_id, "name": name, "size": size, "busid": 102},
    }


def private_event(user_id: int, text: str, *, nickname: str = "",
                  message_id: int | None = None) -> dict[str, Any]:
    """A ``message.private.friend`` event."""
    return {
        "time": int(time.time()),
        "self_id": SELF_ID,
        "post_type": "message",
        "message_type": "private",
        "sub_type": "friend",
        "message_id": message_id if message_id is not None else next(_message_ids),
        "user_id": user_id,
        "message": [{"type": "text", "data": {"text": text}}],
        "raw_message": text,
        "font": 0,
        "sender": {"user_id": user_id, "nickname": nickname or str(user_id)},
    }


def friend_request_event(user_id: int, *, flag: str = "", comment: str = "") -> dict[str, Any]:
    """A ``request.friend`` event: someone asks to become the bot's friend."""
    return {
        "time": int(time.time()),
        "self_id": SELF_ID,
        "post_type": "request",
        "request_type": "friend",
        "user_id": user_id,
        "comment": comment,
        "flag": flag or f"flag-{user_id}",
    }


_message_ids = itertools.count(1000)


def message_text(params: dict[str, Any]) -> str:
    """The visible text of an action's ``message`` (array format), @s shown as ``@<qq>``."""
    parts = []
    for segment in params["message"]:
        if segment["type"] == "text":
            parts.append(segment["data"]["text"])
        elif segment["type"] == "at":
            parts.append(f"@<{segment['data']['qq']}>")
        elif segment["type"] == "image":
            parts.append("[image]")
        else:
            parts.append(f"[{segment['type']}]")
    return "".join(parts)


PICTURE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")


def image_bytes(segment: dict[str, Any]) -> bytes | None:
    """The picture an ``image`` segment carries as ``base64://`` data, else None
    (a URL or a path: the peer does not fetch it)."""
    file = str(segment["data"].get("file", ""))
    if not file.startswith("base64://"):
        return None
    return base64.b64decode(file.removeprefix("base64://"), validate=True)


def pictures(params: dict[str, Any]) -> list[bytes]:
    """The pictures of an action's message (base64 data decoded)."""
    return [data for segment in params["message"] if segment["type"] == "image"
            and (data := image_bytes(segment)) is not None]


def ok(data: Any) -> dict[str, Any]:
    """A successful action, as NapCat answers it."""
    return {"status": "ok", "retcode": 0, "data": data, "message": "", "wording": ""}


#: NapCat's retcode for an action that failed while being carried out (WebSocket)
ACTION_ERROR = 1200
#: OneBot v11's retcode for an action that does not exist (WebSocket)
NO_SUCH_ACTION = 1404
#: NapCat's retcode for parameters its schema refuses (WebSocket; ``OneBotAction.check``)
BAD_PARAMS = 1400


def failed(message: str, retcode: int = ACTION_ERROR) -> dict[str, Any]:
    """A failed action, as NapCat answers it (``wording`` repeats ``message``)."""
    return {"status": "failed", "retcode": retcode, "data": None, "message": message,
            "wording": message}


@dataclass(frozen=True)
class ReceivedFile:
    """A file the peer took with ``upload_group_file`` / ``upload_private_file``."""

    action: str
    target: int  # the group or the user
    name: str
    data: bytes
    folder: str | None = None


def file_bytes(file: str) -> bytes | None:
    """The bytes of a ``base64://`` upload, None for a path or a URL (not fetched);
    ``ValueError`` for data that is not base64."""
    if not file.startswith("base64://"):
        return None
    return base64.b64decode(file.removeprefix("base64://"), validate=True)


class OneBotPeer:
    """Connects to ``url``; ``friends`` (None = everyone) decides which private sends
    succeed; ``temp_groups`` are groups where a temporary session (group_id) works;
    ``groups`` are the bot's groups with their members."""

    def __init__(self, url: str, *, token: str | None, self_id: int = SELF_ID,
                 friends: set[int] | None = None, temp_groups: set[int] | None = None,
                 groups: dict[int, set[int]] | None = None) -> None:
        self.url = url
        self.token = token
        self.self_id = self_id
        self.friends = friends
        self.temp_groups = temp_groups or set()
        self.groups = groups or {}
        self.refuse_pictures = False
        self.file_uploads = True  # False: no upload_*_file actions (retcode 1404)
        self.refuse_files = False
        self.files: list[ReceivedFile] = []
        self.group_files: dict[str, tuple[str, bytes]] = {}  # file id → (name, bytes)
        self.file_base64 = True  # NapCat's enableLocalFile2Url
        self.get_file_action = True  # False: no get_file (retcode 1404)
        self.actions: list[dict[str, Any]] = []
        self._changed = asyncio.Event()
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._message_ids = itertools.count(1)

    async def connect(self, timeout: float = 10.0) -> None:
        """Reverse WebSocket: dial the bot until its server accepts (it may be starting)."""
        headers = {"X-Self-ID": str(self.self_id)}
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            try:
                # NapCat takes frames far larger than websockets' 1 MiB default (a
                # file upload carries its bytes as base64)
                ws = await websockets.connect(self.url, additional_headers=headers,
                                              open_timeout=2, max_size=32 * 2**20)
                break
            except OSError:
                if asyncio.get_running_loop().time() > deadline:
                    raise
                await asyncio.sleep(0.05)
        self.attach(ws)
        # the bot registers the connection right after accepting; give it a turn
        await asyncio.sleep(0.05)

    def attach(self, ws: Any) -> None:
        """Serve actions on an open connection (either direction)."""
        self._ws = ws
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def __aenter__(self) -> OneBotPeer:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read(self) -> None:
        assert self._ws is not None
        with contextlib.suppress(websockets.ConnectionClosed):
            await self._serve_actions()

    async def _serve_actions(self) -> None:
        async for raw in self._ws:
            data = json.loads(raw)
            if "action" not in data:
                continue
            self.actions.append(data)
            reply = {**self.answer(data["action"], data.get("params", {})), "echo": data["echo"]}
            await self._ws.send(json.dumps(reply))
            self._changed.set()

    def answer(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        """What NapCat answers: ok with a message id, or failed for a non-friend;
        the bot's groups, a member's info (failed for a non-member)."""
        if action == "send_private_msg" and self.friends is not None \
                and params.get("user_id") not in self.friends \
                and params.get("group_id") not in self.temp_groups:
            return failed("user is not a friend")
        if action in ("send_group_msg", "send_private_msg", "send_msg"):
            refusal = self._picture_refusal(params)
            if refusal is not None:
                return failed(refusal)
        if action == "get_group_list":
            return ok([{"group_id": group, "group_name": f"group {group}",
                        "member_count": len(members), "max_member_count": 500}
                       for group, members in self.groups.items()])
        if action == "get_group_member_info":
            group, user = params.get("group_id"), params.get("user_id")
            if user not in self.groups.get(group, set()):
                return failed("member not found")
            return ok({"group_id": group, "user_id": user, "nickname": str(user),
                       "card": "", "role": "member"})
        if action == "set_friend_add_request":
            return ok(None)
        if action in ("upload_group_file", "upload_private_file"):
            return self._upload(action, params)
        if action == "get_file" and self.get_file_action:
            return self._get_file(params)
        if action in ("send_group_msg", "send_private_msg", "send_msg"):
            return ok({"message_id": next(self._message_ids)})
        return failed(f"不支持的 Api {action}", NO_SUCH_ACTION)

    def _upload(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        """NapCat's ``upload_group_file`` / ``upload_private_file`` (module docstring)."""
        if not self.file_uploads:
            return failed(f"不支持的 Api {action}", NO_SUCH_ACTION)
        key = "group_id" if action == "upload_group_file" else "user_id"
        target, file, name = params.get(key), params.get("file"), params.get("name")
        if not isinstance(target, (int, str)) or not str(target).isdigit() \
                or not isinstance(file, str) or not isinstance(name, str):
            return failed(f"Key: {key}/file/name, Message: Required", BAD_PARAMS)
        if not file.startswith(("base64://", "file://", "http://", "https://", "/")):
            return failed(f"识别URL失败, uri= {file[:40]}")
        try:
            data = file_bytes(file)
        except (binascii.Error, ValueError):
            return failed("invalid base64")
        if self.refuse_files:
            return failed("文件上传失败")
        if key == "user_id" and self.friends is not None and int(target) not in self.friends:
            return failed("user is not a friend")
        if data is not None:
            folder = params.get("folder") or params.get("folder_id")
            self.files.append(ReceivedFile(action, int(target), name, data, folder))
        return ok({"file_id": str(uuid.uuid4())})

    def upload_to_group(self, group_id: int, user_id: int, name: str, data: bytes, *,
                        size: int | None = None) -> dict[str, Any]:
        """A member uploads a file to a group: kept for ``get_file``; the notice NapCat
        posts for it (``size``: what it declares, else the file's)."""
        file_id = f"/{uuid.uuid4()}"
        self.group_files[file_id] = (name, data)
        return group_upload_event(group_id, user_id, file_id, name,
                                  len(data) if size is None else size)

    def _get_file(self, params: dict[str, Any]) -> dict[str, Any]:
        """NapCat's ``get_file`` (module docstring)."""
        file_id = params.get("file_id") or params.get("file")
        if not isinstance(file_id, str) or file_id not in self.group_files:
            return failed("file not found")
        name, data = self.group_files[file_id]
        path = f"/app/.config/QQ/NapCat/temp/{name}"
        answer = {"file": path, "url": path, "file_size": str(len(data)), "file_name": name}
        if self.file_base64:
            answer["base64"] = base64.b64encode(data).decode("ascii")
        return ok(answer)

    def _picture_refusal(self, params: dict[str, Any]) -> str | None:
        for segment in params.get("message", []):
            if segment["type"] != "image":
                continue
            if self.refuse_pictures:
                return "图片发送失败"
            file = str(segment["data"].get("file", ""))
            if not file.startswith(("base64://", "file://", "http://", "https://")):
                return f"unknown file: {file[:40]}"
            try:
                data = image_bytes(segment)
            except (binascii.Error, ValueError):
                return "invalid base64"
            if data is not None and not data.startswith(PICTURE_SIGNATURES):
                return "not a picture"
        return None

    async def post(self, event: dict[str, Any]) -> None:
        assert self._ws is not None
        await self._ws.send(json.dumps(event))

    async def say(self, event: dict[str, Any], *, expect: int = 1,
                  quiet: float = 0.15, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Post ``event`` and return the actions it causes: at least ``expect`` of
        them, then whatever else arrives before the bot has been quiet for ``quiet`` s."""
        start = len(self.actions)
        await self.post(event)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self.actions) - start < expect:
            self._changed.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"expected {expect} action(s) after "
                    f"{event.get('raw_message', event['post_type'])!r}, "
                    f"got {self.actions[start:]}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        while True:
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), quiet)
            except TimeoutError:
                return self.actions[start:]
