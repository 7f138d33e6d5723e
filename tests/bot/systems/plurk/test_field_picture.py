"""Issue 16 item 3: `.field png` — the board as text plus the picture as an
``Outgoing.attachment`` — and the attachment's way through the outbox."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot.core import Core
from bot.kits import field_picture
from bot.kits.field_picture import FontChoice
from bot.messages import MAX_ATTACHMENT_BYTES, Attachment, Outgoing
from bot.systems.plurk_trpg.battle_state import Setup
from bot.systems.plurk_trpg.field_view import hp_max
from rules.systems.plurk_trpg import Combatant
from tests.support import Table, stored_replies

START = [10, 13, 12, 4, 8, 8, 3, 2, 9]  # Bob, Ann, Ghoul, Thug (see test_battle.py)


async def battle(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("p1", ".pc new Ann")
    await table.text("p1", ".st 靈巧 5 體質 3 體力 12")
    await table.text("p2", ".pc new Bob")
    await table.text("p2", ".st 靈巧 2 體質 1 體力 10")
    await table.text("p1", ".battle join")
    await table.text("p2", ".battle join")
    await table.text("gm", ".enemy add Ghoul 靈巧=3 hp=15 armor=2")
    await table.text("gm", ".enemy add Thug 靈巧=1 體質=1 hp=9 human")
    await table.say("gm", ".battle start", dice=START)
    await table.text("gm", ".place Bob A1")
    await table.text("gm", ".place Ann B1")
    await table.text("gm", ".place Ghoul D4")


async def test_field_png_is_the_board_plus_a_picture(table: Table) -> None:
    await battle(table)
    board = await table.text("p1", ".field")
    [out] = await table.say("p1", ".field png")
    assert (out.to, out.text, out.block) == ("channel", board, True)
    assert out.attachment is not None
    assert (out.attachment.filename, out.attachment.kind, out.attachment.mime) == (
        "field.png", "picture", "image/png")
    image = Image.open(io.BytesIO(out.attachment.data))
    assert image.format == "PNG" and len(out.attachment.data) < 200_000
    assert out.data is not None and out.data["event"] == "field"
    assert out.data["picture"] == {"filename": "field.png", "kind": "picture",
                                   "mime": "image/png", "size": len(out.attachment.data)}
    # the other spellings; plain `.field` carries no picture
    for spelling in (".field 圖", ".場地 图片", ".field PNG", ".战场 picture"):
        [again] = await table.say("p1", spelling)
        assert again.attachment is not None and again.text == board
    [plain] = await table.say("p1", ".field")
    assert plain.attachment is None


async def test_field_png_needs_a_running_battle(table: Table) -> None:
    await table.text("gm", ".gm")
    assert await table.text("gm", ".field png") == \
        "⚠ 目前沒有進行中的戰鬥；GM 用 .battle start 開始。"
    assert await table.text("gm", ".field pngs") == \
        "⚠ 用法：.field、.field png（附圖）或 .field 10x10（1 到 26）"


async def test_without_a_cjk_font_the_reply_says_the_picture_has_markers_only(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    await battle(table)
    monkeypatch.setattr(field_picture, "_font_choice", lambda lang: FontChoice(None, 0, False))
    # ASCII names are drawn with any font: nothing to say
    [out] = await table.say("p1", ".field png")
    assert out.attachment is not None and out.text == await table.text("p1", ".field")
    await table.say("gm", ".enemy add 食屍鬼 hp=5", dice=[5])
    [out] = await table.say("p1", ".field png")
    assert out.attachment is not None
    assert out.text.endswith("\n（這台主機沒有中文字型，圖上只標代號；名字見上面的圖例。）")


def test_hp_bars_of_enemies_come_from_their_definitions() -> None:
    setup = Setup(party=[], enemies=[{"name": "狂信者", "hp": 9}, {"name": "Ghoul", "hp": 15}],
                  costs={})
    assert hp_max(setup, Combatant("狂信者", kind="enemy", hp=4)) == 9
    assert hp_max(setup, Combatant("狂信者2", kind="enemy", hp=9)) == 9  # a numbered copy
    assert hp_max(setup, Combatant("ghoul", kind="enemy", hp=20)) == 20  # healed above it
    assert hp_max(setup, Combatant("Ann", kind="investigator", hp=12)) is None
    assert hp_max(setup, Combatant("Stranger", kind="ally", hp=5)) is None
    assert hp_max(setup, Combatant("Ghoul", kind="enemy", hp=None)) is None


# --------------------------------------------------------------------------- outbox


def test_an_attachment_survives_the_outbox_record() -> None:
    data = bytes(range(256)) * 10
    out = Outgoing("channel", "t", "board", attachment=Attachment("field.png", data, "picture"),
                   block=True, outbox_id=7)
    record = json.loads(json.dumps(out.to_record()))  # what the JSON column keeps
    assert record["attachment"]["filename"] == "field.png"
    assert isinstance(record["attachment"]["data"], str)  # base64, not bytes
    back = Outgoing.from_record(record)
    assert back.attachment == out.attachment and back.text == "board" and back.block
    plain = Outgoing.from_record(json.loads(json.dumps(Outgoing("channel", "t", "x")
                                                       .to_record())))
    assert plain.attachment is None


def test_an_attachment_is_bounded_and_named_plainly() -> None:
    Attachment("big.bin", b"x" * MAX_ATTACHMENT_BYTES)
    with pytest.raises(ValueError):
        Attachment("big.bin", b"x" * (MAX_ATTACHMENT_BYTES + 1))
    for name in ("", "../etc/passwd", "a\\b.png"):
        with pytest.raises(ValueError):
            Attachment(name, b"x")


def test_the_console_json_line_describes_the_attachment_without_its_bytes() -> None:
    out = Outgoing("channel", "t", "board", attachment=Attachment("field.png", b"\x89PNG..",
                                                                  "picture"))
    assert out.as_json()["attachment"] == {"filename": "field.png", "kind": "picture",
                                           "mime": "image/png", "size": 6}
    assert "attachment" not in Outgoing("channel", "t", "x").as_json()
    assert "data=" not in repr(out.attachment)  # a log line never dumps the bytes


async def test_an_unsent_picture_comes_back_from_the_store_whole(core: Core) -> None:
    table = Table(core)
    await battle(table)
    for out in await stored_replies(core):
        await core.delivered(out)
    await core.flush_acks()
    [out] = await table.say("p1", ".field png")
    [kept] = await stored_replies(core)
    assert kept.outbox_id == out.outbox_id
    assert kept.attachment == out.attachment and kept.text == out.text
