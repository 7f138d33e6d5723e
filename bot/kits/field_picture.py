"""The battle field as a picture: a system-free view and a Pillow renderer — one for
every gridded system (plurk's `.field png`, v6's `.map`; issue 16 item 3, issue 24 item 9).

A system turns its battle into a :class:`FieldView` (the board's size, each
combatant's name, marker, cell, side, HP, facing, posture and base size where the
system has them, its :class:`~rules.kits.encounter.Life`, whose turn it is) and
:func:`render_field` draws it as a PNG: the grid with lettered columns and numbered
rows (``A1`` top left, as ``rules.kits.grid``), a token per combatant — grey and
crossed when down, dark with a red cross when dead, left off the board when removed,
flattened when low or prone, wider than a cell for a large base — a highlighted
current actor and, on the right, a legend with every name, cell, HP bar and note,
ending with a key of the life markers shown (in the reader's words the caller
gives). Cells of a small board are large enough for the names; on a large board a
cell shows the marker only and the legend carries the names, so no label ever
overlaps another. The same view gives the same bytes.

**Fonts.** Names are CJK, so the renderer needs a CJK font: the project relies
on Debian's ``fonts-wqy-microhei`` (``/usr/share/fonts/truetype/wqy/wqy-microhei.ttc``,
Apache-2.0 or GPL-3+ with the font exception; the Docker image and CI install
it) and takes Noto Sans CJK (``fonts-noto-cjk``, OFL-1.1) or WenQuanYi Zen Hei
when those are there instead. ``TRPGBOT_CJK_FONT`` names another file. Without
any system font, the package's own subset of WenQuanYi Micro Hei
(``bot/kits/fonts/``, Apache-2.0: the common 繁 and 简 characters, issue 25 item 9)
draws the names, so a bare ``pip install`` draws them too. Only if that file is gone
the picture falls back to DejaVu or Pillow's own font: a name the font cannot show
is left out of the picture (its marker stays) and :attr:`FieldPicture.complete` is
False, so the caller can say so; the text board stays the full answer.
"""

from __future__ import annotations

import functools
import io
import logging
import math
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rules.kits.encounter import Life

log = logging.getLogger(__name__)

FONT_ENV = "TRPGBOT_CJK_FONT"
"""Environment variable naming a font file (``.ttf``/``.otf``/``.ttc``) to use first."""

#: CJK fonts tried in order: (path, Debian package). The first that exists is used.
CJK_FONTS: tuple[tuple[str, str], ...] = (
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "fonts-wqy-microhei"),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "fonts-noto-cjk"),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", "fonts-wqy-zenhei"),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", "fonts-droid-fallback"),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", "fonts-arphic-uming"),
    ("/System/Library/Fonts/PingFang.ttc", "macOS"),
    ("C:/Windows/Fonts/msjh.ttc", "Windows"),
)
#: The package's own CJK font (a subset, ``scripts/font_subset.py``), used when no
#: system font of :data:`CJK_FONTS` is installed.
BUNDLED_FONT = Path(__file__).with_name("fonts") / "trpgbot-cjk.ttf"
#: Latin fallbacks when no CJK font is there (names in CJK then cannot be drawn).
LATIN_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)

MAX_COLUMNS = 26
"""Widest board drawn (the column letters end at Z)."""
MAX_ROWS = 99
"""Tallest board drawn (v6 fields go to 99 rows)."""

# --- colours (RGB) ---------------------------------------------------------------
PAPER = (246, 243, 235)
BOARD = (255, 253, 247)
BOARD_ALT = (241, 237, 226)
GRID = (196, 188, 170)
INK = (40, 38, 34)
MUTED = (120, 114, 104)
CURRENT = (232, 163, 0)
CURRENT_BG = (253, 240, 200)
HP_BACK = (222, 216, 204)
HP_GOOD = (70, 160, 80)
HP_MID = (225, 170, 40)
HP_LOW = (205, 60, 50)
DOWN = (150, 150, 150)
DEAD = (62, 58, 54)
DEAD_CROSS = (214, 64, 52)
REMOVED = (206, 201, 191)
SIDE_COLOURS: dict[str, tuple[int, int, int]] = {
    "party": (47, 111, 181),
    "enemy": (192, 57, 43),
    "ally": (46, 139, 87),
}
OTHER_COLOURS = ((125, 91, 166), (184, 110, 30), (30, 130, 140))

POSTURES: dict[str, float] = {"upright": 1.0, "low": 0.78, "prone": 0.55}
"""The postures a token shows, by the height of its disc: a system maps its own words
(v6: 站立 upright; 蹲伏, 騎坐 low; 匍匐, 躺倒 prone) and names the posture in the note."""


@dataclass(frozen=True)
class FieldPiece:
    """One combatant as the picture shows it.

    ``cell`` is ``(column, row)`` from 0 (``A1`` = ``(0, 0)``), None off the board.
    ``mark`` is the short token text (one character reads best; the plurk board's
    marker). ``side`` picks the colour (``party``, ``enemy``, ``ally``, anything
    else). ``facing`` is degrees clockwise from up (0 = towards row 1), None when
    the system has no facing. ``life``: down (0 HP, unconscious) is drawn grey and
    crossed, dead dark with a red cross, removed is left off the board (its cell is
    free) and greyed in the legend. ``posture``: one of :data:`POSTURES`. ``size``:
    the base's diameter in cells (v6: 1, 1.4, 2.4), centred on its cell. ``note``: a
    short status for the legend, in the reader's words.
    """

    name: str
    mark: str
    cell: tuple[int, int] | None = None
    side: str = "party"
    hp: int | None = None
    hp_max: int | None = None
    facing: float | None = None
    life: Life = Life.ACTIVE
    posture: str = "upright"
    size: float = 1.0
    note: str = ""

    @property
    def on_board(self) -> bool:
        """Whether the board shows it: placed, and not removed from the fight."""
        return self.cell is not None and self.life is not Life.REMOVED


@dataclass(frozen=True)
class FieldView:
    """What the picture shows: the board, its pieces, whose turn (a piece's name),
    a title line (e.g. the round) and the language of the names (picks the regional
    face of a font collection such as Noto Sans CJK: ``zh-Hant`` → TC).
    ``life_words``: the reader's word for each life state (``bot.kits.encounter.
    life_text``); the legend ends with a key of the states its pieces show. ``hp``:
    False for a system whose map shows no HP (the legend leaves the column out)."""

    width: int
    height: int
    pieces: tuple[FieldPiece, ...] = ()
    current: str | None = None
    title: str = ""
    lang: str = "zh-Hant"
    life_words: tuple[tuple[Life, str], ...] = ()
    hp: bool = True


@dataclass(frozen=True)
class LegendRow:
    """One line of the legend, as drawn: the name, the cell (``—`` off the board), the
    HP text (empty when the view shows none) and the note."""

    name: str
    cell: str
    hp: str
    note: str


def legend_rows(view: FieldView) -> tuple[LegendRow, ...]:
    """The legend's lines, one per piece in the view's order."""
    return tuple(LegendRow(p.name, cell_label(p), hp_label(p) if view.hp else "", p.note)
                 for p in view.pieces)


def legend_key(view: FieldView) -> tuple[tuple[Life, str], ...]:
    """The life markers the picture shows (down, dead, removed) with the reader's word
    for each, in the order of :class:`Life`: the key under the legend."""
    shown = {p.life for p in view.pieces}
    words = dict(view.life_words)
    return tuple((life, words[life]) for life in Life
                 if life is not Life.ACTIVE and life in shown and words.get(life))


def cell_label(piece: FieldPiece) -> str:
    """``C4``, or ``—`` for a piece off the board (unplaced or removed)."""
    if not piece.on_board or piece.cell is None:
        return "—"
    return f"{chr(ord('A') + piece.cell[0])}{piece.cell[1] + 1}"


def hp_label(piece: FieldPiece) -> str:
    if piece.hp is None:
        return "HP ?"
    return f"HP {piece.hp}/{piece.hp_max}" if piece.hp_max else f"HP {piece.hp}"


@dataclass(frozen=True)
class FieldPicture:
    """A rendered field: the PNG, its size in pixels, and whether every name could be
    drawn (False when no font on this host has their characters)."""

    png: bytes
    width: int
    height: int
    complete: bool = True
    missing: tuple[str, ...] = field(default=())


# --- fonts ------------------------------------------------------------------------


@dataclass(frozen=True)
class FontChoice:
    """A font file (and face in a collection); ``cjk`` False for a Latin fallback."""

    path: str | None  # None: Pillow's built-in font
    index: int = 0
    cjk: bool = True
    package: str = ""


_REGION_FACES = {"zh-Hant": ("TC", "HK"), "zh-Hans": ("SC",), "ja": ("JP",), "ko": ("KR",)}


def find_font(lang: str = "zh-Hant", candidates: Sequence[tuple[str, str]] | None = None,
              env: dict[str, str] | None = None,
              bundled: Path | None = BUNDLED_FONT) -> FontChoice:
    """The font the picture uses: ``TRPGBOT_CJK_FONT`` if it names a readable file,
    else the first of :data:`CJK_FONTS` (or ``candidates``) present, else the
    package's own (``bundled``), else a Latin fallback (``cjk`` False). Cached per
    argument set by :func:`_font_choice`."""
    environ = os.environ if env is None else env
    wanted = environ.get(FONT_ENV, "").strip()
    if wanted:
        if Path(wanted).is_file():
            return FontChoice(wanted, _face(wanted, lang), True, FONT_ENV)
        log.warning("%s=%s is not a file; looking for an installed CJK font", FONT_ENV, wanted)
    for path, package in CJK_FONTS if candidates is None else candidates:
        if Path(path).is_file():
            return FontChoice(path, _face(path, lang), True, package)
    if bundled is not None and bundled.is_file():
        return FontChoice(str(bundled), 0, True, "trpgbot")
    for path in LATIN_FONTS:
        if Path(path).is_file():
            return FontChoice(path, 0, False, "fonts-dejavu-core")
    return FontChoice(None, 0, False, "")


def _face(path: str, lang: str) -> int:
    """In a font collection (``.ttc``), the face for ``lang`` (Noto Sans CJK holds JP,
    KR, SC, TC and HK faces); 0 otherwise or when none matches."""
    if not path.lower().endswith((".ttc", ".otc")):
        return 0
    wanted = _REGION_FACES.get(lang, ())
    for index in range(16):
        try:
            family = ImageFont.truetype(path, 10, index=index).getname()[0] or ""
        except OSError:
            break
        if "Mono" not in family and any(family.endswith(" " + w) for w in wanted):
            return index
    return 0


@functools.lru_cache(maxsize=8)
def _font_choice(lang: str) -> FontChoice:
    choice = find_font(lang)
    if not choice.cjk:
        log.warning("no CJK font found for the field picture (install fonts-wqy-microhei, "
                    "or set %s): names in CJK are left out of the picture", FONT_ENV)
    return choice


@functools.lru_cache(maxsize=64)
def _font(path: str | None, index: int, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if path is None:
        return ImageFont.load_default(size)
    # the basic layout: the same glyph positions on every machine (no shaping needed
    # for CJK, Latin or digits), so the same view gives the same bytes
    return ImageFont.truetype(path, size, index=index, layout_engine=ImageFont.Layout.BASIC)


_NO_GLYPH = "\U000f0000"  # a private-use character no font draws: its .notdef box


def can_draw(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str) -> bool:
    """Whether every character of ``text`` has a glyph in ``font`` (a missing one
    draws the font's .notdef box, "tofu", or nothing)."""
    tofu = _glyph(font, _NO_GLYPH)
    return all(ch.isspace() or _glyph(font, ch) != tofu for ch in set(text))


def _glyph(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, ch: str) -> bytes:
    """The pixels of one character drawn alone."""
    size = int(getattr(font, "size", 16))
    image = Image.new("L", (size * 2, size * 2))
    ImageDraw.Draw(image).text((size // 2, size // 2), ch, font=font, fill=255)
    return image.tobytes()


# --- layout -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Layout:
    cell: int
    left: int  # x of column A
    top: int  # y of row 1
    legend_x: int
    legend_width: int
    width: int
    height: int
    names_in_cells: bool


MARGIN = 16
AXIS = 24  # room for the column letters / row numbers
TITLE = 34
LEGEND_WIDTH = 330
LEGEND_ROW = 34
LEGEND_NOTE = 16
KEY_ROW = 26
BOARD_BUDGET = 780  # the board's longer side, in pixels, before clamping the cell size
MIN_CELL, MAX_CELL = 26, 76
NAMES_FROM = 60  # cells this large show the name under the token


def _layout(view: FieldView, rows: int) -> _Layout:
    """``rows``: the legend's height below its first row, in pixels."""
    cell = max(MIN_CELL, min(MAX_CELL, BOARD_BUDGET // max(view.width, view.height)))
    left = MARGIN + AXIS
    top = MARGIN + TITLE + AXIS
    board_w, board_h = cell * view.width, cell * view.height
    legend_x = left + board_w + 2 * MARGIN
    legend_h = LEGEND_ROW + rows
    width = legend_x + LEGEND_WIDTH + MARGIN
    height = max(top + board_h, MARGIN + TITLE + legend_h) + MARGIN
    return _Layout(cell, left, top, legend_x, LEGEND_WIDTH, width, height, cell >= NAMES_FROM)


def side_colour(side: str) -> tuple[int, int, int]:
    """A side's colour: fixed for party / enemy / ally, stable for any other key."""
    if side in SIDE_COLOURS:
        return SIDE_COLOURS[side]
    return OTHER_COLOURS[sum(map(ord, side)) % len(OTHER_COLOURS)]


def hp_colour(hp: int, hp_max: int) -> tuple[int, int, int]:
    ratio = hp / hp_max if hp_max > 0 else 0
    return HP_GOOD if ratio > 0.5 else HP_MID if ratio > 0.25 else HP_LOW


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
         width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…" if text else ""


# --- drawing ----------------------------------------------------------------------


class _Painter:
    def __init__(self, view: FieldView, choice: FontChoice) -> None:
        self.view = view
        self.choice = choice
        # a CJK font may lack a rare character too: every name is checked
        self.drawable = {p.name: can_draw(self.font(16), p.name) for p in view.pieces}
        notes = sum(LEGEND_NOTE for p in view.pieces if p.note)
        self.key = legend_key(view)
        key = KEY_ROW * len(self.key) + (LEGEND_NOTE // 2 if self.key else 0)
        self.layout = _layout(view, LEGEND_ROW * len(view.pieces) + notes + key)
        self.image = Image.new("RGB", (self.layout.width, self.layout.height), PAPER)
        self.draw = ImageDraw.Draw(self.image)

    def font(self, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
        return _font(self.choice.path, self.choice.index, size)

    def label(self, piece: FieldPiece) -> str:
        """The name, or — when no font here can draw it — nothing (the marker stays)."""
        return piece.name if self.drawable[piece.name] else ""

    # -- the whole picture ----------------------------------------------------------
    def paint(self) -> None:
        self.title()
        self.board()
        # the larger bases first: a small token next to a large one stays visible
        for piece in sorted((p for p in self.view.pieces if p.on_board),
                            key=lambda p: -p.size):
            self.token_in_cell(piece)
        self.legend()

    def title(self) -> None:
        text = self.view.title or f"{self.view.width}×{self.view.height}"
        font = self.font(20)
        if not can_draw(font, text):
            text = f"{self.view.width}x{self.view.height}"
        width = self.layout.width - 2 * MARGIN
        self.draw.text((MARGIN, MARGIN + 4), _fit(self.draw, text, font, width), font=font,
                       fill=INK)

    def board(self) -> None:
        lay, view, draw = self.layout, self.view, self.draw
        right, bottom = lay.left + lay.cell * view.width, lay.top + lay.cell * view.height
        draw.rectangle((lay.left, lay.top, right, bottom), fill=BOARD)
        for row in range(view.height):
            for col in range(view.width):
                if (row + col) % 2:
                    x, y = lay.left + col * lay.cell, lay.top + row * lay.cell
                    draw.rectangle((x, y, x + lay.cell, y + lay.cell), fill=BOARD_ALT)
        for col in range(view.width + 1):
            x = lay.left + col * lay.cell
            draw.line((x, lay.top, x, bottom), fill=GRID, width=1)
        for row in range(view.height + 1):
            y = lay.top + row * lay.cell
            draw.line((lay.left, y, right, y), fill=GRID, width=1)
        axis = self.font(13)
        for col in range(view.width):
            mid_x = lay.left + col * lay.cell + lay.cell / 2
            draw.text((mid_x, lay.top - AXIS / 2), chr(ord("A") + col), font=axis, fill=MUTED,
                      anchor="mm")
        for row in range(view.height):
            mid_y = lay.top + row * lay.cell + lay.cell / 2
            draw.text((lay.left - 4, mid_y), str(row + 1), font=axis, fill=MUTED, anchor="rm")

    def cell_box(self, cell: tuple[int, int]) -> tuple[int, int, int, int]:
        lay = self.layout
        x, y = lay.left + cell[0] * lay.cell, lay.top + cell[1] * lay.cell
        return x, y, x + lay.cell, y + lay.cell

    def token_in_cell(self, piece: FieldPiece) -> None:
        assert piece.cell is not None
        lay, draw = self.layout, self.draw
        x0, y0, x1, y1 = self.cell_box(piece.cell)
        current = piece.name == self.view.current
        if current:
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=CURRENT_BG)
        bar = max(3, lay.cell // 12)
        name = self.label(piece) if lay.names_in_cells else ""
        # the token fills the room above the HP bar (and above the name on a large cell)
        room = lay.cell * 0.5 if name else lay.cell - bar - 7
        diameter = min(room, lay.cell - 6)
        cx, cy = (x0 + x1) / 2, y0 + 3 + room / 2
        if piece.size > 1:  # a large base spreads over its neighbours, centred on its cell
            diameter += (piece.size - 1) * lay.cell
            cy = (y0 + y1) / 2
        self.token(piece, cx, cy, diameter, facing=True)
        if name:
            font = self.font(max(11, lay.cell // 6 + 1))
            text = _fit(draw, name, font, lay.cell - 6)
            draw.text(((x0 + x1) / 2, y1 - bar - 4), text, font=font, fill=INK, anchor="md")
        if piece.hp is not None and piece.hp_max:
            self.hp_bar(x0 + 4, y1 - bar - 2, x1 - 4, y1 - 2, piece.hp, piece.hp_max)
        if current:
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=CURRENT,
                           width=max(2, lay.cell // 14))

    def token(self, piece: FieldPiece, cx: float, cy: float, diameter: float, *,
              facing: bool = False) -> None:
        """A disc in the side's colour with the marker, as high as the posture allows;
        grey and crossed when down, dark with a red cross when dead."""
        draw, r = self.draw, diameter / 2
        ry = r * POSTURES[piece.posture]
        fill = {Life.DOWN: DOWN, Life.DEAD: DEAD, Life.REMOVED: REMOVED}.get(
            piece.life, side_colour(piece.side))
        draw.ellipse((cx - r, cy - ry, cx + r, cy + ry), fill=fill, outline=INK, width=1)
        if facing and piece.facing is not None:
            self.facing(cx, cy, r, ry, piece.facing)
        font = self.font(max(10, int(min(diameter, 2 * ry + 4) * 0.72)))
        mark = piece.mark if can_draw(font, piece.mark) else "?"
        draw.text((cx, cy), mark, font=font, fill=(255, 255, 255), anchor="mm")
        if piece.life in (Life.DOWN, Life.DEAD):
            k, colour = r * 0.7, INK if piece.life is Life.DOWN else DEAD_CROSS
            width = 2 if piece.life is Life.DOWN else 3
            ky = min(k, ry)
            draw.line((cx - k, cy - ky, cx + k, cy + ky), fill=colour, width=width)
            draw.line((cx - k, cy + ky, cx + k, cy - ky), fill=colour, width=width)

    def facing(self, cx: float, cy: float, rx: float, ry: float, degrees: float) -> None:
        """A dark pointer on the token's rim, towards where the combatant faces: inside
        the disc but for its tip, so it never reaches a neighbouring cell."""
        a = math.radians(degrees)
        dx, dy = math.sin(a), -math.cos(a)
        px, py = -dy, dx
        r = rx * ry / math.hypot(ry * dx, rx * dy)  # the rim's distance that way
        tip = (cx + dx * (r + 2), cy + dy * (r + 2))
        inner, half = r * 0.7, min(rx, ry) * 0.4
        left = (cx + dx * inner + px * half, cy + dy * inner + py * half)
        right = (cx + dx * inner - px * half, cy + dy * inner - py * half)
        self.draw.polygon((tip, left, right), fill=INK)

    def hp_bar(self, x0: float, y0: float, x1: float, y1: float, hp: int, hp_max: int) -> None:
        draw = self.draw
        draw.rectangle((x0, y0, x1, y1), fill=HP_BACK)
        ratio = max(0.0, min(1.0, hp / hp_max))
        if ratio > 0:
            draw.rectangle((x0, y0, x0 + (x1 - x0) * ratio, y1), fill=hp_colour(hp, hp_max))

    # -- the legend -------------------------------------------------------------------
    def legend(self) -> None:
        lay, draw = self.layout, self.draw
        x, y = lay.legend_x, MARGIN + TITLE
        name_font, small = self.font(16), self.font(12)
        cell_w, hp_w = 40, 96
        name_w = lay.legend_width - 8 - 26 - 8 - cell_w - hp_w - 8
        if not self.view.hp:
            name_w += hp_w
        for piece, row in zip(self.view.pieces, legend_rows(self.view), strict=True):
            height = LEGEND_ROW + (LEGEND_NOTE if row.note else 0)
            if piece.name == self.view.current:
                draw.rounded_rectangle((x - 6, y, x + lay.legend_width - 2, y + height - 2),
                                       radius=6, fill=CURRENT_BG, outline=CURRENT, width=2)
            middle = y + LEGEND_ROW / 2
            self.token(piece, x + 13, middle, 24)
            name = self.label(piece) or f"({piece.mark})"
            fallen = piece.life is not Life.ACTIVE
            name = _fit(draw, name, name_font, name_w)
            draw.text((x + 34, middle), name, font=name_font, fill=MUTED if fallen else INK,
                      anchor="lm")
            if piece.life in (Life.DEAD, Life.REMOVED):  # struck through
                end = x + 34 + draw.textlength(name, font=name_font)
                draw.line((x + 34, middle, end, middle), fill=MUTED, width=2)
            cx = x + 34 + name_w + 8
            draw.text((cx, middle), row.cell, font=name_font, fill=INK, anchor="lm")
            if row.hp:
                self.legend_hp(piece, row.hp, cx + cell_w, middle, hp_w, small)
            if row.note:
                note = row.note if can_draw(small, row.note) else ""
                draw.text((x + 34, y + LEGEND_ROW - 4), _fit(draw, note, small, lay.legend_width
                                                             - 40), font=small, fill=MUTED)
            y += height
        y += LEGEND_NOTE // 2
        for life, word in self.key:
            sample = FieldPiece(word, "", life=life)
            middle = y + KEY_ROW / 2
            self.token(sample, x + 13, middle, 18)
            word = word if can_draw(name_font, word) else life.value
            draw.text((x + 34, middle), _fit(draw, word, name_font, lay.legend_width - 40),
                      font=name_font, fill=MUTED, anchor="lm")
            y += KEY_ROW

    def legend_hp(self, piece: FieldPiece, text: str, x: float, middle: float, width: int,
                  font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> None:
        draw = self.draw
        if piece.hp is None:
            draw.text((x, middle), text, font=font, fill=MUTED, anchor="lm")
        elif piece.hp_max:
            self.hp_bar(x, middle - 9, x + width, middle - 3, piece.hp, piece.hp_max)
            draw.text((x, middle + 1), text, font=font, fill=INK, anchor="lt")
        else:
            draw.text((x, middle), text, font=font, fill=INK, anchor="lm")


def check_view(view: FieldView) -> None:
    """Refuse a view the picture cannot show (a caller's bug, not a player's error)."""
    if not (1 <= view.width <= MAX_COLUMNS and 1 <= view.height <= MAX_ROWS):
        raise ValueError(f"board {view.width}x{view.height} outside "
                         f"1…{MAX_COLUMNS} × 1…{MAX_ROWS}")
    if any(p.posture not in POSTURES or not 0 < p.size <= 4 for p in view.pieces):
        raise ValueError("a posture outside POSTURES or a size outside (0, 4] cells")
    cells: set[tuple[int, int]] = set()
    for piece in view.pieces:
        if not piece.on_board or piece.cell is None:
            continue
        col, row = piece.cell
        if not (0 <= col < view.width and 0 <= row < view.height):
            raise ValueError(f"{piece.name!r} stands off the board at {piece.cell}")
        if piece.cell in cells:
            raise ValueError(f"two pieces on {piece.cell}")
        cells.add(piece.cell)


_RENDERING = threading.Lock()  # the cached FreeType faces are not safe across threads


def render_field(view: FieldView, font: FontChoice | None = None) -> FieldPicture:
    """Draw ``view`` as a PNG (the same view and font give the same bytes). About 50 ms
    for 26×26; callers on an event loop run it in a thread (``asyncio.to_thread``)."""
    check_view(view)
    with _RENDERING:
        painter = _Painter(view, font or _font_choice(view.lang))
        painter.paint()
        # a palette of at most 64 colours keeps a 26×26 field with a dozen tokens
        # near 25 KB; the board is flat colours plus anti-aliased text
        image = painter.image.quantize(colors=64, method=Image.Quantize.FASTOCTREE,
                                       dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    missing = tuple(name for name, ok in painter.drawable.items() if not ok)
    return FieldPicture(buffer.getvalue(), painter.layout.width, painter.layout.height,
                        complete=not missing, missing=missing)

