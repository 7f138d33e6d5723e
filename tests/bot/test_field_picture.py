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
from rules.kits.encounter import Life

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
                   life=Life.DOWN if i == 2 else Life.ACTIVE,
                   note="昏迷（還要跳過 3 次）" if i == 4 else "")
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
    bare = find_font(candidates=[], env={})  # no system CJK font: the package's own
    assert (bare.path, bare.cjk, bare.package) == (str(fp.BUNDLED_FONT), True, "trpgbot")
    fallback = find_font(candidates=[], env={}, bundled=None)
    assert not fallback.cjk


def test_a_bare_install_draws_cjk_names_with_the_bundled_font() -> None:
    """Issue 25 item 9: with no system CJK font, names in 繁 and 简 are drawn (the
    same board with two names gives two pictures), none is left out."""
    bare = find_font(candidates=[], env={})
    assert bare.path == str(fp.BUNDLED_FONT)

    def board(a: str, b: str) -> FieldView:
        return FieldView(8, 8, (FieldPiece(a, "a", (1, 1)), FieldPiece(b, "b", (4, 4))))

    first = render_field(board("艾莉絲", "食人魔"), bare)
    second = render_field(board("艾莉丝", "哥布林"), bare)
    assert first.complete and second.complete
    assert first.missing == second.missing == ()
    assert first.png != second.png


@pytest.mark.parametrize("view", [
    FieldView(27, 8), FieldView(0, 8),
    FieldView(8, 8, (FieldPiece("a", "a", (8, 0)),)),
    FieldView(8, 8, (FieldPiece("a", "a", (1, 1)), FieldPiece("b", "b", (1, 1)))),
], ids=["too-wide", "empty", "off-board", "same-cell"])
def test_views_the_picture_cannot_show_are_refused(view: FieldView) -> None:
    with pytest.raises(ValueError):
        render_field(view)


# --------------------------------------------------------------------------- issue 24 item 9
# one renderer for every gridded system: life markers, posture, base size, the key


def cell_pixels(image: Image.Image, view: FieldView, cell: tuple[int, int]) -> list:
    """Every pixel of one board cell."""
    lay = fp._layout(view, 0)
    x0, y0 = lay.left + cell[0] * lay.cell, lay.top + cell[1] * lay.cell
    box = image.crop((x0 + 2, y0 + 2, x0 + lay.cell - 2, y0 + lay.cell - 2))
    return [colour for _, colour in box.getcolors(1 << 16) or ()]


def token_at(image: Image.Image, view: FieldView, cell: tuple[int, int],
             colour: tuple[int, int, int]) -> bool:
    return any(near(p, colour, 12) for p in cell_pixels(image, view, cell))


LIVES = FieldView(12, 12, (
    FieldPiece("艾莉絲", "a", (1, 1), "party"),
    FieldPiece("卡蘿", "b", (3, 1), "party", life=Life.DOWN),
    FieldPiece("斥候", "c", (5, 1), "enemy", life=Life.DEAD),
    FieldPiece("逃兵", "d", (7, 1), "enemy", life=Life.REMOVED),
    FieldPiece("路人", "e", (7, 1), "enemy"),  # a removed fighter's cell is free at once
), life_words=((Life.DOWN, "倒下"), (Life.DEAD, "死亡"), (Life.REMOVED, "離場")))


@needs_cjk
def test_each_life_state_has_its_marker() -> None:
    image = pixels(render_field(LIVES).png)
    assert token_at(image, LIVES, (1, 1), fp.SIDE_COLOURS["party"])
    assert token_at(image, LIVES, (3, 1), fp.DOWN)
    assert not token_at(image, LIVES, (3, 1), fp.SIDE_COLOURS["party"])
    assert token_at(image, LIVES, (5, 1), fp.DEAD) and token_at(image, LIVES, (5, 1),
                                                                fp.DEAD_CROSS)
    assert not token_at(image, LIVES, (5, 1), fp.SIDE_COLOURS["enemy"])
    # the removed fighter is off the board; who stands on its old cell is drawn
    assert token_at(image, LIVES, (7, 1), fp.SIDE_COLOURS["enemy"])


def test_the_legend_lists_everyone_and_keys_the_markers_shown() -> None:
    assert [(r.name, r.cell, r.hp) for r in fp.legend_rows(LIVES)] == [
        ("艾莉絲", "B2", "HP ?"), ("卡蘿", "D2", "HP ?"), ("斥候", "F2", "HP ?"),
        ("逃兵", "—", "HP ?"), ("路人", "H2", "HP ?")]
    assert fp.legend_key(LIVES) == ((Life.DOWN, "倒下"), (Life.DEAD, "死亡"),
                                    (Life.REMOVED, "離場"))
    only_down = FieldView(8, 8, (FieldPiece("a", "a", (0, 0), life=Life.DOWN),
                                 FieldPiece("b", "b", None, hp=3, hp_max=9)),
                          life_words=LIVES.life_words, hp=False)
    assert fp.legend_key(only_down) == ((Life.DOWN, "倒下"),)
    assert [(r.cell, r.hp) for r in fp.legend_rows(only_down)] == [("A1", ""), ("—", "")]
    shown = FieldView(8, 8, only_down.pieces)
    assert [r.hp for r in fp.legend_rows(shown)] == ["HP ?", "HP 3/9"]
    assert fp.legend_key(shown) == ()  # no words given: no key


@needs_cjk
def test_the_key_makes_the_legend_taller() -> None:
    pieces = tuple(FieldPiece(p.name, p.mark, (i, 0), life=p.life)
                   for i, p in enumerate(LIVES.pieces[:3]))
    plain = FieldView(3, 1, pieces)
    keyed = FieldView(3, 1, pieces, life_words=LIVES.life_words)
    a, b = render_field(plain), render_field(keyed)
    assert b.height == a.height + 2 * fp.KEY_ROW + fp.LEGEND_NOTE // 2


@needs_cjk
def test_posture_flattens_the_token() -> None:
    """A prone token is a flat disc: the top of its cell stays the board's colour."""
    def top_row(posture: str) -> list:
        view = FieldView(12, 12, (FieldPiece("a", "a", (2, 2), "enemy", posture=posture),))
        image = pixels(render_field(view).png)
        lay = fp._layout(view, 0)
        x0, y0 = lay.left + 2 * lay.cell, lay.top + 2 * lay.cell
        return [image.getpixel((x0 + lay.cell // 2, y0 + dy)) for dy in range(4, 9)]

    enemy = fp.SIDE_COLOURS["enemy"]
    assert any(near(p, enemy, 12) for p in top_row("upright"))
    assert not any(near(p, enemy, 12) for p in top_row("prone"))


@needs_cjk
def test_a_large_base_spreads_over_its_neighbours() -> None:
    def neighbour(size: float) -> bool:
        view = FieldView(12, 12, (FieldPiece("a", "a", (5, 5), "enemy", size=size),))
        return token_at(pixels(render_field(view).png), view, (6, 5), fp.SIDE_COLOURS["enemy"])

    assert not neighbour(1.0) and neighbour(2.4)


def test_tall_boards_up_to_99_rows() -> None:
    picture = render_field(FieldView(12, 99, (FieldPiece("a", "a", (0, 98)),)),
                           FontChoice(None, 0, False))
    assert picture.height > 99 * fp.MIN_CELL
    for view in (FieldView(12, 100), FieldView(8, 8, (FieldPiece("a", "a", posture="sitting"),)),
                 FieldView(8, 8, (FieldPiece("a", "a", size=0),))):
        with pytest.raises(ValueError):
            render_field(view)
