"""Read the results of Plurk's random emoticons from a post's rendered HTML.

Plurk replaces tokens such as ``(dice20)`` server-side with an image carrying
the rolled face (docs/plurk.md): ``<img class="emoticon" alt="(dice20)"
rndnum="13">`` (older HTML: ``rnd``). Digit dice and slots are runs of images:
the first names the emoticon in ``alt``, the following have ``alt=""``, each
image one digit.

Several points are unconfirmed, so each is one small function here, tested
on its own and easy to correct: :func:`die_faces` (token -> die size),
:func:`raw_value` (which attribute holds the value), :func:`die_value` (what
is a readable face), :func:`run_start_kind` (which alt starts a run),
:func:`other_kind` (the non-numeric emoticons).

A token whose value cannot be read is listed in ``unreadable`` so the reply
can say so; it is never replaced by a guess. The face's image is a second reading
(faces.py): where it disagrees with ``rndnum`` the token is listed in
``disagreements`` (``rndnum`` is kept); where ``rndnum`` is missing and the image is
known without ambiguity, its face is used and the token listed in ``from_image``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from adapters.plurk.faces import FACE_IMAGES, FaceTable, face_in_image
from bot.messages import PlatformDie

_DIE_TOKEN = re.compile(r"^\(dice(\d*)\)$", re.IGNORECASE)
_RUN_TOKEN = re.compile(r"^\((?:dice[^()\s]*-[^()\s]*|digit[^()\s]*|slot[^()\s]*)\)$", re.I)

#: non-numeric random emoticons and the kind reported in ``others``
OTHER_TOKENS = {
    "(coin)": "coin",
    "(bobei)": "bobei",
    "(lots)": "lots",
    "(rock-paper-scissors)": "rps",
    "(bzzz)": "bzzz",
}

#: every token Plurk rolls, as typed; used to find tokens left unrolled in text
RANDOM_TOKEN_PATTERN = re.compile(
    r"\((?:dice\d*|dice[^()\s]*-[^()\s]*|digit|slot|lots|bobei|coin|rock-paper-scissors|bzzz)\)",
    re.IGNORECASE,
)

_RPS_NAMES = {"rock": "rock", "paper": "paper", "scissors": "scissors", "scissor": "scissors"}


@dataclass(frozen=True, slots=True)
class EmoticonResult:
    """A random emoticon that is not a plain die: coin, 擲筊, 抽籤, RPS, digits, slot.

    ``value`` is the raw value as Plurk rendered it (digits concatenated for
    runs); its meaning for coin / bobei is not documented, so it stays raw.
    """

    kind: str
    token: str
    value: str


@dataclass(frozen=True, slots=True)
class EmoticonRolls:
    """Everything read from one post's HTML."""

    dice: tuple[PlatformDie, ...] = ()
    unreadable: tuple[str, ...] = ()
    others: tuple[EmoticonResult, ...] = ()
    text: str = ""  # the content as text, each emoticon replaced by its alt token
    from_image: tuple[str, ...] = ()  # dice read from the face's image (no rndnum)
    disagreements: tuple[str, ...] = ()  # dice whose image shows another face than rndnum


# -- the unconfirmed points, one function each ---------------------------------


def die_faces(token: str) -> int | None:
    """Die size of a die token: ``(dice)`` is a d6, ``(diceN)`` a dN; else None."""
    match = _DIE_TOKEN.match(token.strip())
    if not match:
        return None
    digits = match.group(1)
    if not digits:
        return 6
    faces = int(digits)
    return faces if faces >= 2 else None


def raw_value(attrs: dict[str, str | None]) -> str | None:
    """The rolled value of one emoticon image: ``rndnum``, then the older ``rnd``."""
    for name in ("rndnum", "rnd"):
        value = attrs.get(name)
        if value is not None and value.strip() != "":
            return value.strip()
    return None


def die_value(raw: str | None, faces: int) -> int | None:
    """A face in ``1..faces`` or None (unreadable): never clamp or guess."""
    if raw is None or not raw.isdigit():
        return None
    value = int(raw)
    return value if 1 <= value <= faces else None


def run_start_kind(alt: str) -> str | None:
    """``"digits"`` / ``"slot"`` when ``alt`` opens a run of digit images."""
    token = alt.strip()
    if not _RUN_TOKEN.match(token):
        return None
    return "slot" if token.lower().startswith("(slot") else "digits"


def other_kind(token: str) -> str | None:
    """Kind of a non-numeric random emoticon (coin, bobei, lots, rps, bzzz)."""
    return OTHER_TOKENS.get(token.strip().lower())


def other_value(kind: str, raw: str | None) -> str | None:
    """Normalise the value of a non-numeric emoticon; None when unreadable."""
    if raw is None:
        return None
    if kind == "rps":
        return _RPS_NAMES.get(raw.lower())
    return raw


# -- parsing ----------------------------------------------------------------------


class _Collector(HTMLParser):
    """Flattens content HTML into text pieces and emoticon images, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[str, str | dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.items.append(("img", dict(attrs)))
        elif tag == "br":
            self.items.append(("text", "\n"))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.items.append(("text", data))


@dataclass
class _Run:
    kind: str
    token: str
    digits: list[str | None]


def parse_content(content: str, face_images: FaceTable = FACE_IMAGES) -> EmoticonRolls:
    """Read dice and other random emoticons from a post's rendered ``content``;
    ``face_images`` gives the second reading of a die from its image's file."""
    collector = _Collector()
    collector.feed(content or "")
    collector.close()

    dice: list[PlatformDie] = []
    unreadable: list[str] = []
    from_image: list[str] = []
    disagreements: list[str] = []
    others: list[EmoticonResult] = []
    text_parts: list[str] = []
    run: _Run | None = None

    def close_run() -> None:
        nonlocal run
        if run is None:
            return
        # the first image may only name the run; every following image is one digit
        digits = run.digits
        if digits and all(d is not None and len(d) == 1 and d.isdigit() for d in digits):
            others.append(EmoticonResult(run.kind, run.token, "".join(str(d) for d in digits)))
        else:
            unreadable.append(run.token)
        run = None

    for kind, item in collector.items:
        if kind == "text":
            assert isinstance(item, str)
            if item.strip():
                close_run()
                # a token left as text was not rolled: present, but no value
                unreadable.extend(m.group(0) for m in RANDOM_TOKEN_PATTERN.finditer(item))
            text_parts.append(item)
            continue
        assert isinstance(item, dict)
        alt = (item.get("alt") or "").strip()
        value = raw_value(item)
        if not alt:
            if run is not None:
                run.digits.append(value)
            continue
        close_run()
        text_parts.append(alt)
        faces = die_faces(alt)
        if faces is not None:
            face = die_value(value, faces)
            seen = face_in_image(item.get("src"), faces, face_images)
            if face is None and seen is not None:
                face = seen
                from_image.append(alt)
            elif face is not None and seen is not None and seen != face:
                disagreements.append(alt)  # rndnum is trusted
            if face is None:
                unreadable.append(alt)
            else:
                dice.append(PlatformDie(faces=faces, value=face, token=alt))
            continue
        run_kind = run_start_kind(alt)
        if run_kind is not None:
            run = _Run(run_kind, alt, [value] if value is not None else [])
            continue
        kind_name = other_kind(alt)
        if kind_name is not None:
            normalised = other_value(kind_name, value)
            if normalised is None:
                unreadable.append(alt)
            else:
                others.append(EmoticonResult(kind_name, alt, normalised))
        # any other emoticon (smileys) is only text
    close_run()
    return EmoticonRolls(
        dice=tuple(dice),
        unreadable=tuple(unreadable),
        others=tuple(others),
        text="".join(text_parts),
        from_image=tuple(from_image),
        disagreements=tuple(disagreements),
    )


def unrolled_tokens(text: str) -> tuple[str, ...]:
    """Random tokens in plain text (used when a post has no ``content`` HTML)."""
    return tuple(m.group(0) for m in RANDOM_TOKEN_PATTERN.finditer(text or ""))
