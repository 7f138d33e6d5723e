"""Issue 16 item 3: the battle map picture (bot/kits/field_picture.py) — size, PNG,
determinism, CJK glyphs really drawn, pixel spot checks, the no-font fallback."""

from __future__ import annotations

import io
import os
import struct
from pathlib import Path

import pytest
from PIL import Image

from bot.kits import field_picture as fp
from bot.kits.field_picture import FieldPiece, FieldView, FontChoice, find_font, render_field

NAMES = ["艾莉絲", "食屍鬼", "狂信者", "狂信者2", "暴徒", "Bob", "林小雨", "深潛者長老", "貓",
         "司馬懿", "Alexandria", "影子"]
SIDES = ["party", "enemy", "enemy", "enemy", "enemy", "party", "party", "enemy", "ally",
         "ally", "party", "enemy"]
CELLS_26 = [(0, 0), (1, 0), (2, 1), (25, 25), (12, 12), (13, 12), (5, 20), (20, 5), (0, 25),
            (25, 0), (10, 10), (11, 11)]
CELLS_8 = [(0, 0), (1, 0), (2, 1), (7, 7), (3, 3), (4, 3), (5, 5), (6, 2), (0, 7), (7, 0),
           (2, 6), None]
CJK = find_font()
needs_cjk = pytest.mark.skipif(
    not CJK.cjk and not os.environ.get("TRPGBOT_REQUIRE_CJK_FONT"),
    reason="no CJK font here (install fonts-wqy-microhei); TRPGBOT_REQUIRE_CJK_FONT=1 fails")


def twelve(size: int, cells: list[tuple[int, int] | None]) -> FieldView:
    pieces = tuple(
        FieldPiece(name, "abcdefghijkl"[i], cells[i], SIDES[i], hp=[12, 3, 0, 9, 1, None, 7,
                   30, 4, 12, 9, 2][i], hp_max=None if SIDES[i] == "party" else 10 + 2 * i,
                   down=i == 2, note="昏迷（還要跳過 3 次）" if i == 4 else "")
        for i, name in enumerate(NAMES))
    return FieldView(size, size, pieces, current="艾莉絲", title="▶ 第 2 輪，輪到 艾莉絲（BP 5/5）")


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(colour: tuple[int, ...], wanted: tuple[int, int, int], slack: int = 40) -> bool:
    """Equal up to the 64-colour palette the PNG is saved with."""
    return sum(abs(a - b) for a, b in zip(colour, wanted, strict=False)) <= slack


def centre(lay_cell: int, left: int, top: int, cell: tuple[int, int]) -> tuple[int, int]:
    return left + cell[0] * lay_cell + lay_cell // 2, top + cell[1] * lay_cell + lay_cell // 2


@needs_cjk
@pytest.mark.parametrize(("size", "cells"), [(26, CELLS_26), (8, CELLS_8)], ids=["26x26", "8x8"])
def test_twelve_combatants_fit_in_a_small_png(size: int, cells: list) -> None:
    picture = render_field(twelve(size, cells))
    assert picture.png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(picture.png) < 200_000
    width, height = struct.unpack(">II", picture.png[16:24])  # the IHDR chunk
    assert (width, height) == (picture.width, picture.height) == pixels(picture.png).size
    assert 600 <= width <= 1400 and 500 <= height <= 1000
    assert picture.complete and picture.missing == ()


@needs_cjk
def test_the_same_view_gives_the_same_bytes() -> None:
    view = twelve(26, CELLS_26)
    first = render_field(view).png
    fp._font.cache_clear()
    fp._font_choice.cache_clear()
    assert render_field(view).png == first
    moved = FieldView(26, 26, (view.pieces[0].__class__("艾莉絲", "a", (3, 3)),), current=None)
    assert render_field(moved).png != first


@needs_cjk
def test_cjk_names_are_drawn_not_tofu() -> None:
    """Each character of a name has a glyph of its own (not the font's .notdef box,
    not blank), and the name changes the picture's pixels where the legend shows it."""
    font = fp._font(CJK.path, CJK.index, 16)
    tofu = fp._glyph(font, fp._NO_GLYPH)
    blank = fp._glyph(font, " ")
    for ch in "艾莉絲食屍鬼深潛者長老司馬懿貓影子體力輪到":
        glyph = fp._glyph(font, ch)
        assert glyph not in (tofu, blank), ch
    named = FieldView(8, 8, (FieldPiece("艾莉絲", "a", (0, 0)),))
    unnamed = FieldView(8, 8, (FieldPiece("\U000f0000" * 3, "a", (0, 0)),))
    a, b = pixels(render_field(named).png), pixels(render_field(unnamed).png)
    assert a.size == b.size
    lay = fp._layout(named, fp.LEGEND_ROW)
    row = (lay.legend_x + 34, fp.MARGIN + fp.TITLE, lay.legend_x + 200,
           fp.MARGIN + fp.TITLE + fp.LEGEND_ROW)
    assert a.crop(row).tobytes() != b.crop(row).tobytes()
    ink = sum(count for count, colour in a.crop(row).getcolors(1 << 16) or ()
              if near(colour, fp.INK, 60))
    assert ink > 40  # three CJK characters' worth of dark pixels


@needs_cjk
def test_pixel_spot_checks() -> None:
    view = twelve(26, CELLS_26)
    image = pixels(render_field(view).png)
    lay = fp._layout(view, 0)
    assert lay.cell == 30 and not lay.names_in_cells
    # the current actor's cell (A1) is framed in the turn colour
    x0, y0 = lay.left, lay.top
    assert near(image.getpixel((x0 + 2, y0 + lay.cell // 2)), fp.CURRENT)
    # tokens in their side's colour, a fallen one grey; empty cells are the board's
    for cell, colour in (((1, 0), fp.SIDE_COLOURS["enemy"]), ((5, 20), fp.SIDE_COLOURS["party"]),
                         ((0, 25), fp.SIDE_COLOURS["ally"]), ((2, 1), fp.DOWN)):
        x, y = centre(lay.cell, lay.left, lay.top, cell)
        ring = [image.getpixel((x + dx, y + dy)) for dx, dy in ((-9, 0), (9, 0), (0, -9))]
        assert any(near(p, colour) for p in ring), (cell, ring)
    for cell in ((4, 4), (5, 4)):
        x, y = centre(lay.cell, lay.left, lay.top, cell)
        assert near(image.getpixel((x, y)), fp.BOARD) or near(image.getpixel((x, y)),
                                                                fp.BOARD_ALT)


@needs_cjk
def test_a_large_board_names_cells_by_marker_and_a_small_one_by_name() -> None:
    assert fp._layout(twelve(8, CELLS_8), 0).names_in_cells
    assert not fp._layout(twelve(26, CELLS_26), 0).names_in_cells


@needs_cjk
def test_facing_is_drawn_where_the_system_has_it() -> None:
    plain = FieldView(8, 8, (FieldPiece("Bob", "b", (3, 3)),))
    facing = FieldView(8, 8, (FieldPiece("Bob", "b", (3, 3), facing=90.0),))
    a, b = pixels(render_field(plain).png), pixels(render_field(facing).png)
    lay = fp._layout(plain, fp.LEGEND_ROW)
    x0, y0 = lay.left + 3 * lay.cell, lay.top + 3 * lay.cell
    box = (x0, y0, x0 + lay.cell, y0 + lay.cell)
    assert a.crop(box).tobytes() != b.crop(box).tobytes()
    # the pointer stays in its own cell: the neighbour to the right is untouched
    right = (box[2] + 1, y0, box[2] + lay.cell, y0 + lay.cell)
    assert a.crop(right).tobytes() == b.crop(right).tobytes()


def test_without_a_cjk_font_the_picture_keeps_markers_and_says_so() -> None:
    latin = FontChoice(fp.LATIN_FONTS[0], 0, False) if Path(fp.LATIN_FONTS[0]).is_file() \
        else FontChoice(None, 0, False)
    picture = render_field(twelve(8, CELLS_8), latin)
    assert picture.png.startswith(b"\x89PNG") and len(picture.png) < 200_000
    assert not picture.complete
    assert set(picture.missing) == {n for n in NAMES if not n.isascii()}


def test_find_font_order(tmp_path: Path) -> None:
    mine = tmp_path / "mine.ttf"
    mine.write_bytes(b"not really a font")
    assert find_font(env={fp.FONT_ENV: str(mine)}).path == str(mine)
    present = tmp_path / "cjk.ttf"
    present.write_bytes(b"x")
    chosen = find_font(candidates=[(str(tmp_path / "absent.ttc"), "a"), (str(present), "b")],
                       env={fp.FONT_ENV: str(tmp_path / "missing.ttf")})
    assert (chosen.path, chosen.cjk, chosen.package) == (str(present), True, "b")
    fallback = find_font(candidates=[], env={})
    assert not fallback.cjk


@pytest.mark.parametrize("view", [
    FieldView(27, 8), FieldView(0, 8),
    FieldView(8, 8, (FieldPiece("a", "a", (8, 0)),)),
    FieldView(8, 8, (FieldPiece("a", "a", (1, 1)), FieldPiece("b", "b", (1, 1)))),
], ids=["too-wide", "empty", "off-board", "same-cell"])
def test_views_the_picture_cannot_show_are_refused(view: FieldView) -> None:
    with pytest.raises(ValueError):
        render_field(view)
