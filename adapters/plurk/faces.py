"""A second reading of an emoticon die: the picture of the face Plurk drew.

Every face of every emoticon die is its own image on Plurk's static host
(``https://s.plurk.com/<md5>.png``), so the ``src`` of a rolled ``<img>`` names the face
as well as its ``rndnum`` does — if one knows which file is which face. The one public
list (the 2020 package plurk-dice) has known errors (its d20 faces 9 and 11 share a
file; digit dice lack 2, 3 and 6), and the only other public copy found repeats its d20
list error for error, so it confirms nothing. No mapping could be verified, so the
project ships **no** table (:data:`FACE_IMAGES` is empty) and an operator who has
checked faces on a live account may give them in a JSON file
(``TRPGBOT_PLURK__FACE_IMAGES_FILE``, docs/plurk.md).

An image may only confirm or question ``rndnum``, never overrule it; it gives the
value alone only when ``rndnum`` is missing and the file names one face of that die
without ambiguity (a file listed for two faces names none).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import urlsplit

FaceTable = Mapping[str, tuple[int, int]]
"""Image file name (``<md5>.png``, lower case) → (die size, face)."""

FACE_IMAGES: FaceTable = {}
"""The verified faces: none (see the module's docstring)."""


def face_table(entries: Iterable[tuple[str, int, int]]) -> dict[str, tuple[int, int]]:
    """(file, die size, face) entries as a table; a file given for two different faces
    is ambiguous and left out, as is a face outside ``1..size``."""
    table: dict[str, tuple[int, int]] = {}
    ambiguous: set[str] = set()
    for file, size, face in entries:
        name = file.strip().lower()
        if not 1 <= face <= size or name in ambiguous:
            continue
        if table.get(name, (size, face)) != (size, face):
            ambiguous.add(name)
            del table[name]
            continue
        table[name] = (size, face)
    return table


def read_face_file(path: Path) -> dict[str, tuple[int, int]]:
    """``{"<file>.png": [size, face], …}`` from an operator's JSON file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected an object of file name → [die size, face]")
    entries = []
    for file, value in data.items():
        if not (isinstance(value, list) and len(value) == 2
                and all(isinstance(n, int) for n in value)):
            raise ValueError(f"{path}: {file!r} must map to [die size, face]")
        entries.append((str(file), value[0], value[1]))
    return face_table(entries)


def image_name(src: str | None) -> str | None:
    """The file name of an image URL (``…/<md5>.png`` → ``<md5>.png``)."""
    if not src:
        return None
    name = urlsplit(src.strip()).path.rsplit("/", 1)[-1].lower()
    return name or None


def face_in_image(src: str | None, size: int, table: FaceTable) -> int | None:
    """The face of a d``size`` that the image shows, when the table knows its file."""
    name = image_name(src)
    known = table.get(name) if name is not None else None
    return known[1] if known is not None and known[0] == size else None
