"""Issue 24 item 9: v6's `.map` sends the field as a picture too (the shared renderer,
``bot.kits.field_picture``, that draws plurk's `.field png`), with its text."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.kits import field_picture as fp
from bot.kits.layers import Member
from bot.systems.v6.map_view import life_of
from rules.kits.encounter import Life
from tests.bot.systems.v6.test_field import prepare
from tests.support import Table

# 12 × 12 cells of 65 px (780 px the longer side); the legend 330 px to the right
WIDTH = fp.MARGIN + fp.AXIS + 12 * 65 + 2 * fp.MARGIN + fp.LEGEND_WIDTH + fp.MARGIN
HEIGHT = fp.MARGIN + fp.TITLE + fp.AXIS + 12 * 65 + fp.MARGIN


async def test_map_sends_its_text_and_a_picture(table: Table) -> None:
    await prepare(table)
    [out] = await table.say("p1", ".map")
    assert out.to == "channel" and out.block
    assert out.text.splitlines()[0] == "🗺 場地 12×12（1 格 = 1 步）"
    assert out.attachment is not None
    assert (out.attachment.filename, out.attachment.kind, out.attachment.mime) == (
        "map.png", "picture", "image/png")
    image = Image.open(io.BytesIO(out.attachment.data))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT) == (1198, 870)
    assert len(out.attachment.data) < 200_000
    assert out.data is not None and out.data["picture"] == out.attachment.describe()


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> list:
    return [colour for _, colour in image.convert("RGB").crop(box).getcolors(1 << 16) or ()]


def fighter_pixels(image: Image.Image, cell: tuple[int, int]) -> list:
    """The colours of one cell of the 12 × 12 map."""
    left, top = fp.MARGIN + fp.AXIS, fp.MARGIN + fp.TITLE + fp.AXIS
    x, y = left + cell[0] * 65, top + cell[1] * 65
    return colours(image, (x + 2, y + 2, x + 63, y + 63))


def has(colours: list, wanted: tuple[int, int, int]) -> bool:
    return any(sum(abs(a - b) for a, b in zip(c, wanted, strict=True)) <= 12 for c in colours)


async def test_the_map_marks_who_cannot_fight_and_the_enemy(table: Table) -> None:
    """卡蘿 at 0 生命 cannot fight (the base's roster): her token is down, grey; the GM's
    斥候 is an enemy, red; and the picture grows a key for the marker."""
    await prepare(table)
    [before] = await table.say("p1", ".map")
    await table.text("gm", ".init set 卡蘿 hp=0")
    [after] = await table.say("p1", ".map")
    assert before.attachment is not None and after.attachment is not None
    first = Image.open(io.BytesIO(before.attachment.data))
    second = Image.open(io.BytesIO(after.attachment.data))
    carol, scout = (5, 6), (4, 4)  # F7, E5
    assert has(fighter_pixels(first, carol), fp.SIDE_COLOURS["party"])
    assert has(fighter_pixels(second, carol), fp.DOWN)
    assert not has(fighter_pixels(second, carol), fp.SIDE_COLOURS["party"])
    assert has(fighter_pixels(second, scout), fp.SIDE_COLOURS["enemy"])
    assert second.size == first.size  # the key fits beside the board
    # the key under the legend (four fighters, each with a note): a down token, 倒下
    x, y = WIDTH - fp.MARGIN - fp.LEGEND_WIDTH, fp.MARGIN + fp.TITLE
    y += 4 * (fp.LEGEND_ROW + fp.LEGEND_NOTE) + fp.LEGEND_NOTE // 2
    key = (x, y, x + 26, y + fp.KEY_ROW)
    assert not has(colours(first, key), fp.DOWN) and has(colours(second, key), fp.DOWN)


async def test_field_is_the_map_where_v6_is_played(table: Table) -> None:
    """`.field` (plurk's word for its board) shows v6's map instead of telling the GM
    to switch system; where v6 is not played it names v6 among the systems that have it."""
    await prepare(table)
    [field] = await table.say("p1", ".field")
    [shown] = await table.say("p1", ".map")
    assert field.text == shown.text and field.attachment is not None
    await table.text("gm", ".system ap20")
    assert await table.text("gm", ".field") == (
        "⚠ .field 是 plurk、v6 規則系統的指令；本頻道玩的是 ap20。要用 v6 的 .map：.system ap20+v6")


@pytest.mark.parametrize(("member", "life"), [
    (None, Life.ACTIVE),
    (Member("卡蘿", "party"), Life.ACTIVE),
    (Member("卡蘿", "party", able=False), Life.DOWN),
    (Member("哥布林", "foe", able=False, life=Life.DEAD), Life.DEAD),
    (Member("哥布林", "foe", able=False, life=Life.DOWN), Life.DOWN),
])
def test_the_map_draws_the_life_state_the_base_reports(member: Member | None, life: Life) -> None:
    """A fighter the GM declared dead is drawn dead, not merely down (issue 24 item 6)."""
    assert life_of(member) is life


async def test_the_pictures_legend_keeps_an_enemys_fatigue_the_gms(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The legend's notes, as the text legend: a sense, the players' fatigue, not the
    GM's 斥候's."""
    drawn: list[fp.FieldView] = []
    render = fp.render_field

    def spy(view: fp.FieldView) -> fp.FieldPicture:
        drawn.append(view)
        return render(view)

    monkeypatch.setattr(fp, "render_field", spy)
    await prepare(table)
    await table.text("gm", ".place 卡蘿 F7 N 食草")
    await table.say("p1", ".map")
    notes = {piece.name: piece.note for piece in drawn[0].pieces}
    # and a sense, as the text legend (the issue: 食草 and 震感 were missing)
    assert (notes["艾莉絲"], notes["卡蘿"], notes["斥候"]) == (
        "站立 疲勞0", "站立 食草 疲勞0", "站立")
