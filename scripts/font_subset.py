"""Build the CJK font the map picture falls back to on a bare install (issue 25, item 9).

    .venv/bin/python scripts/font_subset.py [SOURCE.ttc]

Reads WenQuanYi Micro Hei (Debian's ``fonts-wqy-microhei``; Apache-2.0, see
``bot/kits/fonts/LICENSE``) and keeps the glyphs a table's names are written with:
ASCII, the 3,755 level-1 characters of GB2312 (the common 简), the 5,401 level-1
characters of Big5 (the common 繁), CJK punctuation and full-width forms, and every
character of the bot's catalogs and rule texts. The result, ``bot/kits/fonts/
trpgbot-cjk.ttf``, is committed: fontTools (the ``fonts`` extra) is needed only to
rebuild it.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
TARGET = ROOT / "bot" / "kits" / "fonts" / "trpgbot-cjk.ttf"


def decoded(codec: str, rows: range, cells: range) -> set[str]:
    found: set[str] = set()
    for row in rows:
        for cell in cells:
            with contextlib.suppress(UnicodeDecodeError):
                found.add(bytes((row, cell)).decode(codec))
    return found


def characters() -> set[str]:
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars |= {chr(c) for c in range(0x3000, 0x3040)}  # CJK punctuation
    chars |= {chr(c) for c in range(0xFF01, 0xFF5F)}  # full-width forms
    chars |= {chr(c) for c in range(0x2190, 0x2200)}  # arrows (facing)
    chars |= decoded("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))  # level 1
    chars |= decoded("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    for folder in ("bot", "rules"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".toml", ".py", ".json"):
                chars |= set(path.read_text("utf-8"))
    return {c for c in chars if c.isprintable()}


def main() -> None:
    source = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    font = TTCollection(source).fonts[0]  # WenQuanYi Micro Hei (not its Mono face)
    options = subset.Options()
    options.name_IDs = ["*"]  # keep the copyright and licence names
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(map(ord, characters())))
    subsetter.subset(font)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    font.save(TARGET)
    print(f"{TARGET.relative_to(ROOT)}: {TARGET.stat().st_size / 1024:.0f} KiB, "
          f"{len(font.getGlyphOrder())} glyphs")


if __name__ == "__main__":
    main()
