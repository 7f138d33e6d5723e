"""Seeded stress inputs for ``Core.handle``: the generator behind ``bench/stress.py``
and ``tests/bot/test_stress.py`` (not collected by pytest; see bench/README.md).

Inputs come in blocks of :data:`BLOCK`. Block ``b`` of seed ``s`` is a pure function
of ``(s, b, channels)`` and the command tables and catalogs of this checkout: its own
``random.Random``, its own channels and users, and it is meant to run on a fresh
``Core`` (the stress driver opens one per block). So input ``i`` is replayed exactly
by running block ``i // BLOCK`` from its start — at most ``BLOCK`` inputs.

A block starts with a table set-up (a GM claims some channels, every channel picks
a rule system, players make characters and set a few stats), then mixes:

- ``dice``: a grammar-aware dice expression (``docs/dice.md``: counts, faces, ``d%``,
  ``dF``, keep/drop, explode, reroll, success counting, ``N#``, ``adv``/``dis``,
  parentheses, ``+ - * /``, whitespace), sometimes deliberately broken or at a limit,
  after a roll command and before a reason;
- ``command``: every command name of every table (aliases and Chinese names too, read
  from ``bot.router`` at run time, so systems added later are covered; mostly names of
  the system the channel plays, and each block takes ~100 names of all of them in
  turn) with random arguments — words of that command's own help text in every
  locale, stat names of every system, numbers at the edges, dice, mentions, board
  cells, ``key=value``;
- ``example``: a usage example cut out of a help text, with its ``[optional]`` parts
  kept or dropped, ``<placeholders>`` and ``a|b`` choices filled, and a token mutated;
- ``walk``: 15–60 consecutive usage examples of the channel's system, in the order of
  its tables and help texts, by its GM and players, placeholders filled with the
  channel's characters and players — so battles, games and logs actually start and
  later commands meet the state earlier ones made;
- ``system`` / ``lang``: `.system <id>` in turn over every system, `.lang`;
- ``unicode``: lone surrogates, RTL/LTR marks and overrides, zero-width joiners,
  full-width punctuation (``。ｒ``), combining marks, emoji sequences, line breaks,
  controls, case-fold changers (``ß``, ``ﬅ``, ``İ``), digits that are not ASCII;
- ``markup``: mention- and link-looking text (``@everyone``, ``<@123>``,
  ``[CQ:at,qq=all]``, ``https://…``, markdown) in arguments and reasons;
- ``long``: lines around the core's input limit, huge numbers and reasons;
- ``typo``, ``chatter``, and ``replay`` (an earlier message id sent again);

and every text may be transformed on top (full-width, another prefix, injected
junk, a line break, changed case, surrounding blanks). Speakers have display names
with the same edge cases; Plurk inputs sometimes carry emoticon dice; one in a hundred
is a private message (the adapters' ``dm:<user>`` channel).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache

from bot import router, systems
from bot.dispatcher import MAX_INPUT
from bot.i18n import LOCALES, Catalog
from bot.messages import Incoming, PlatformDie
from bot.routes import router as _router

ROUTER = _router()

BLOCK = 1000
"""Inputs per block: a block runs on a fresh core, so it is the unit of replay."""

PLATFORMS = ("console", "qq", "discord", "plurk")
_NUMERIC_IDS = frozenset({"qq", "discord", "plurk"})

# --- pools of edge cases ---------------------------------------------------------------

SURROGATES = ("\ud800", "\udbff", "\udc00", "\udfff")
BIDI = ("\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066",
        "\u2067", "\u2068", "\u2069", "\u061c")
ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e", "\u3164")
FULL_WIDTH = ("。", "．", "｡", "／", "ｒ", "ＲＨ", "ｓｔ", "＋", "－", "＊", "／", "＃", "！",
              "＞＝", "＜", "＝", "（", "）", "　", "，", "、", "：", "；", "＠", "％", "ｄ",
              "２ｄ６", "１ｄ２０＋３", "×", "÷", "−", "—", "～")
COMBINING = ("\u0301", "\u0308", "\u0336", "\u20dd", "\u0489", "\u0300\u0301\u0302\u0303",
             "e\u0301", "\u0d4d", "\u093f", "\u0e49" * 20, "\u0301" * 50)
EMOJI = ("🎲", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇹🇼", "1️⃣", "#️⃣", "❤️", "🧙‍♀️", "😀" * 10,
         "\U0001f600\u200d\U0001f600", "\U0001fae0", "🏴󠁧󠁢󠁳󠁣󠁴󠁿")
BREAKS = ("\n", "\r\n", "\r", "\u2028", "\u2029", "\x85", "\v", "\f", "\x1c", "\n\n\n")
CONTROLS = ("\x00", "\x07", "\x1b[31m", "\t", "\x7f", "\x08", "\u0000\u0000")
CASEFOLD = ("ß", "ẞ", "ﬅ", "ﬆ", "ﬁ", "ﬀ", "İ", "ı", "ſ", "K", "Å", "ǅ", "ΐ", "ŉ")
ODD_DIGITS = ("١٢٣", "²", "³", "½", "Ⅻ", "𝟗𝟗", "৩", "٠", "〇", "十", "０", "９９", "¹⁰⁰",
              "①", "𝟘", "߁")
OTHER = ("\ufffd", "\uffff", "\ufffe", "\ue000", "\U0010ffff", "\U000e0041", "\ufe0f",
         "\u00a0", "\u2003", "\u3000", "\u00ad", "\u034f", "𝕯𝖎𝖈𝖊", "Ｄ２０", "ﾃﾞｨｽ",
         "\ud83c\udfb2")  # the last one: a surrogate *pair* written as two code points
MARKUP = ("@everyone", "@here", "<@123456789>", "<@!123456789>", "<@&987654321>",
          "<#111111111>", "</help:1>", "<t:1700000000:R>", "<:emo:123>", "<a:x:1>",
          "[CQ:at,qq=all]", "[CQ:at,qq=10001]", "[CQ:image,file=x.png]", "@all",
          "https://evil.example/x?a=1", "http://a.b", "www.evil.example", "evil.example",
          "discord.gg/abc", "discord.com/invite/x", "[link](https://x.example)",
          "**bold**", "__under__", "~~strike~~", "||spoiler||", "`code`", "```block```",
          "# heading", "> quote", ">>> all", "-# small", "1. item", "- item", "*italic*",
          "\\", "\\\\<@1>", "#tag", "(dice20)", "(dice)", "(dice6)", "@plurker:", "@@@",
          "<script>alert(1)</script>", "{name}", "{0}", "{{}}", "%s", "%(x)s", "${x}")
NAMES = ("Bob", "艾莉絲", "艾莉丝", "@everyone", "<@1>", "‮evil", "a\nb", "", "   ", "x" * 120,
         "🎲🎲", "\u200b", "名" * 40, "ﬅ", "[CQ:at,qq=all]", "https://x.example", "Ｇ Ｍ",
         "`", "\\", "O'Neil", "a\u0301", "{name}")
JUNK = (SURROGATES, BIDI, ZERO_WIDTH, FULL_WIDTH, COMBINING, EMOJI, BREAKS, CONTROLS,
        CASEFOLD, ODD_DIGITS, OTHER, MARKUP)

BIG_NUMBERS = ("0", "-0", "+0", "00", "007", "-1", "1", "99", "100", "101", "999", "1000",
               "1001", "9999", "10000", "99999", "100000", "100001", "2147483647",
               "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
               "18446744073709551616", "1" + "0" * 30, "9" * 50, "9" * 300, "9" * 999,
               "1e9", "1E3", "1.5", "-2.5", ".5", "5.", "0x1f", "0b11", "1_000", "1,000",
               "+5", "--5", "+-5", "-+5", "NaN", "nan", "inf", "-inf", "∞", "1/0", "5%")
PREFIXES = (*".........。。。．．//｡／", ". .", "..", ". ", "", "/ ", "\u200b.", "!", "。。")
"""Mostly ones that work (full-width too), some that are no command prefix at all."""
WORKING_PREFIXES = (".", "。", "．", "/", "｡", "／")
"""The prefixes that make a command of what follows (a name taken in turn gets one)."""
ADV = ("adv", "dis", "advantage", "disadvantage", "優勢", "劣勢", "优势", "劣势", "ADV")
CONDITIONS = (">=", ">", "<=", "<", "=", "")


# --- what the tables and catalogs of this checkout offer --------------------------------

@dataclass(frozen=True)
class Vocabulary:
    """Everything the generator reads from the router, the systems and the catalogs."""

    names: tuple[str, ...]
    """Every name (aliases too) of every command of every table."""
    names_of: dict[str, tuple[str, ...]]
    """Per system: the names a channel that plays it has (common ones and its own)."""
    roll_names: tuple[str, ...]
    """Names of the commands that roll a dice expression (`.r`, `.rh` and their aliases)."""
    words: dict[str, tuple[str, ...]]
    """Per command name: the words of that command's help text, in every locale."""
    keys: tuple[str, ...]
    """``key=`` words found in help texts (``hit=``, ``pen=``)."""
    examples: tuple[str, ...]
    """Usage examples cut out of the help texts (``.st 觀察 5``)."""
    examples_of: dict[str, tuple[str, ...]]
    """Per system: the examples of the commands its channels have."""
    walks: dict[str, tuple[str, ...]]
    """Per system: the trimmed examples of its channels' commands in the order of the
    tables and help texts (join, then start, then act …), English then Chinese."""
    stats: tuple[str, ...]
    """Every stat name and alias of every system."""
    systems: tuple[str, ...]
    locales: tuple[str, ...]


_SPLIT = re.compile(r"[\s,;；，、。()（）:：\"“”'‘’…]+")
_EXAMPLE_STOP = re.compile(
    r"[;；\n。（(、｜：，]|,\s*(?=[.。])| — | - (?=[A-Z])|\s(?=\.\w)|\s\|(?=\s|$)|:\s|:$")
#: a token of usage syntax rather than prose: [optional], <placeholder>, a|b, key=…,
#: a number, an upper-case placeholder (TARGET, N)
_SYNTAX = re.compile(r"[\[\]<>|=\d]|^[A-Z][A-Z0-9_…]*\.?$")
_PLACEHOLDER = re.compile(r"^(?:<.*>|[A-Z][A-Z_…]*\.?)$")
_KEY = re.compile(r"(?<![\w])([A-Za-z_]+)=")


def _help_texts(catalog: Catalog, cmd: router.Command) -> list[str]:
    return [catalog.text(locale, cmd.help_key) for locale in LOCALES
            if catalog.has(cmd.help_key, locale)]


def _examples(text: str, names: set[str], full: bool = True) -> list[str]:
    """The ``.name args`` runs of a help text whose name is a known command, in order:
    each as written up to where its prose seems to end, and (when shorter) cut after
    its last token of usage syntax (`.js join [team] sit down` → `.js join [team]`)."""
    found = []
    for match in re.finditer(r"(?<![\w.])[.。]([^\s.。]+)", text):
        if match.group(1).casefold() not in names:
            continue
        rest = text[match.end():]
        stop = _EXAMPLE_STOP.search(rest)
        tokens = ["." + match.group(1), *(rest[:stop.start()] if stop else rest).split()]
        keep = max([min(2, len(tokens)), *(n + 1 for n, token in enumerate(tokens)
                                          if n and _SYNTAX.search(token))])
        found.append(" ".join(tokens[:keep]).rstrip(".,)）"))
        if full and keep < len(tokens):
            found.append(" ".join(tokens))
    return found


@cache
def vocabulary() -> Vocabulary:
    """Read from this checkout at run time: every system's tables, stats and help."""
    catalog = Catalog()
    plugins = systems.plugins()
    commands: dict[int, router.Command] = {}
    for system_id in plugins:
        for cmd in ROUTER.commands(system_id):
            commands.setdefault(id(cmd), cmd)
    names_of = {system_id: tuple(sorted({name for cmd in ROUTER.commands(system_id)
                                         for name in cmd.names})) for system_id in plugins}
    names = sorted({name for cmd in commands.values() for name in cmd.names})
    folded = {name.casefold() for name in names}
    words: dict[str, tuple[str, ...]] = {}
    examples: set[str] = set()
    keys: set[str] = set()
    walks = {system_id: tuple(dict.fromkeys(
        example for cmd in ROUTER.commands(system_id) for locale in ("en", "zh-Hant")
        if catalog.has(cmd.help_key, locale)
        for example in _examples(catalog.text(locale, cmd.help_key), folded, full=False)))
        for system_id in plugins}
    for cmd in commands.values():
        texts = _help_texts(catalog, cmd)
        found = sorted({w for text in texts for w in _SPLIT.split(text) if 0 < len(w) <= 24})
        for name in cmd.names:
            words[name] = tuple(found)
        for text in texts:
            examples.update(_examples(text, folded))
            keys.update(_KEY.findall(text))
    rolls = [name for base in ("r", "rh") for cmd in [ROUTER.common.find(base)] if cmd
             for name in cmd.names]
    stats = sorted({spelling for plugin in plugins.values() for stat in plugin.game.stats
                    for spelling in (stat.name, *stat.aliases)})
    examples_of = {system_id: tuple(e for e in sorted(examples)
                                    if e[1:].split()[0].casefold() in map(str.casefold, own))
                   for system_id, own in names_of.items()}
    return Vocabulary(tuple(names), names_of, tuple(rolls) or tuple(names), words,
                      tuple(sorted(keys)), tuple(sorted(examples)), examples_of, walks,
                      tuple(stats), tuple(plugins), LOCALES)


# --- one block ------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One input of the stream: its global index, what made it, and the message."""

    index: int
    kind: str
    incoming: Incoming


@dataclass
class _Channel:
    platform: str
    key: str
    gm: str | None
    players: list[str]
    next_system: int
    system: str = ""
    """The system its last `.system` asked for (the generator's belief)."""
    characters: list[str] = field(default_factory=list)
    """Names of the characters made at its set-up."""


class Block:
    """The inputs of block ``number`` of ``seed`` (iterate it for its :class:`Step`\\ s)."""

    def __init__(self, seed: int, number: int, channels: int = 4,
                 voc: Vocabulary | None = None) -> None:
        self.seed, self.number = seed, number
        self.voc = voc or vocabulary()
        self.rng = random.Random(f"trpgbot-stress:{seed}:{number}")
        self.base = number * BLOCK
        self.sent: list[Incoming] = []
        rng = self.rng
        users = [str(rng.randrange(10**5, 10**12)) for _ in range(6)]  # as adapters give
        # a name with a lone surrogate has every message refused: rare, or it would
        # hide what the other edge cases do
        self.names = {user: rng.choice((f"P{n}", f"P{n}", rng.choice(NAMES), self._junk(
            2, SURROGATES if rng.random() < 0.9 else ()))) for n, user in enumerate(users)}
        self.channels: list[_Channel] = []
        for n in range(max(1, channels)):
            platform = PLATFORMS[(number + n) % len(PLATFORMS)]
            key = str(rng.randrange(10**5, 10**12)) if platform in _NUMERIC_IDS else f"ch{n}"
            if platform == "plurk" and rng.random() < 0.5:
                key = f"{key}:{rng.randrange(10**9)}"  # a plurk thread (plurk:response)
            gm = rng.choice(users) if rng.random() < 0.7 else None
            players = rng.sample([u for u in users if u != gm], k=rng.randint(1, 4))
            self.channels.append(_Channel(platform, key, gm, players,
                                          rng.randrange(len(self.voc.systems))))
        self.ch = self.channels[0]
        """The channel of the input being made."""
        self.walk: list[str] = []
        """The rest of the walk through a system's help examples being played."""
        self.walk_channel = self.ch
        self.turn = number * 50
        self.in_turn = False
        """Whether the input being made names a command in turn."""
        """Where this block's turn through every command name starts: each block takes
        about a hundred in turn, so consecutive blocks overlap and n blocks name the
        first ~50·n + 50 names whatever each block's luck (the test's ten: 550)."""

    # --- the stream --------------------------------------------------------------------
    def __iter__(self) -> Iterator[Step]:
        index = self.base
        for kind, incoming in self._setup():
            if index >= self.base + BLOCK:
                return
            yield self._step(index, kind, incoming)
            index += 1
        while index < self.base + BLOCK:
            kind, incoming = self._random_input()
            yield self._step(index, kind, incoming)
            index += 1

    def _step(self, index: int, kind: str, incoming: Incoming) -> Step:
        if incoming.message_id is None and kind != "replay":
            incoming = replace(incoming, message_id=f"m{index}")
        self.sent.append(incoming)
        return Step(index, kind, incoming)

    def _say(self, ch: _Channel, user: str, text: str, **extra) -> Incoming:
        return Incoming(ch.platform, ch.key, user, text, display_name=self.names[user],
                        **extra)

    def _setup(self) -> Iterator[tuple[str, Incoming]]:
        rng, voc = self.rng, self.voc
        for ch in self.channels:
            if ch.gm is not None:
                yield "setup", self._say(ch, ch.gm, ".gm")
            yield "setup", self._say(ch, ch.gm or ch.players[0], self._system_text(ch))
            for player in ch.players:
                if rng.random() < 0.8:
                    ch.characters.append(self._name())
                    yield "setup", self._say(ch, player, f".pc new {ch.characters[-1]}")
                    stats = rng.sample(voc.stats, k=min(len(voc.stats), rng.randint(2, 8)))
                    values = " ".join(f"{s} {rng.randint(1, 90)}" for s in stats)
                    yield "setup", self._say(ch, player, f".st {values}")

    def _system_text(self, ch: _Channel) -> str:
        ch.system = self.voc.systems[ch.next_system % len(self.voc.systems)]
        ch.next_system += 1
        return f".system {ch.system}"

    def _names(self) -> tuple[str, ...]:
        """Names of the current channel's system mostly, of any table sometimes."""
        if self.rng.random() < 0.25 or self.ch.system not in self.voc.names_of:
            return self.voc.names
        return self.voc.names_of[self.ch.system]

    def _random_input(self) -> tuple[str, Incoming]:
        self.in_turn = False
        rng = self.rng
        if not self.walk and rng.random() < 0.008:
            self._start_walk()
        if self.walk and rng.random() < 0.8:
            ch = self.ch = self.walk_channel
            user = ch.gm if ch.gm and rng.random() < 0.5 else rng.choice(ch.players)
            return "walk", self._say(ch, user, self._filled(self.walk.pop(0).split(),
                                                            mutate=0.03))
        ch = self.ch = rng.choice(self.channels)
        speakers = [*ch.players, *([ch.gm] * 2 if ch.gm else [])]
        user = rng.choice(speakers) if rng.random() < 0.97 else rng.choice(list(self.names))
        roll = rng.random()
        extra: dict = {}
        if roll < 0.20:
            kind, text = "dice", self._dice_command()
        elif roll < 0.52:
            kind, text = "command", self._command()
        elif roll < 0.70:
            kind, text = "example", self._example()
        elif roll < 0.72:
            kind, text = "system", self._system_text(ch)
            user = ch.gm if ch.gm and rng.random() < 0.9 else user
        elif roll < 0.73:
            kind, text = "lang", f".lang {rng.choice(self.voc.locales)}"
            user = ch.gm if ch.gm and rng.random() < 0.9 else user
        elif roll < 0.80:
            kind, text = "unicode", self._prefix() * (rng.random() < 0.6) + self._junk(
                rng.randint(1, 8))
        elif roll < 0.86:
            kind, text = "markup", self._markup_command()
        elif roll < 0.88:
            kind, text = "long", self._long()
        elif roll < 0.91:
            kind, text = "typo", self._prefix() + self._typo(rng.choice(self._names()))
        elif roll < 0.99 or not self.sent:
            kind, text = "chatter", self._chatter()
        else:
            return "replay", rng.choice(self.sent[-50:])
        if kind not in ("system", "lang") and rng.random() < 0.25 and not self.in_turn:
            text = self._transform(text)  # (a name taken in turn stays whole: covered)
        if ch.platform == "plurk" and rng.random() < 0.1:
            text, dice = self._emoticon_dice(text)
            extra["platform_dice"] = dice
        if rng.random() < 0.01:  # a private message: the adapters' `dm:<user>` channel
            return kind, Incoming(ch.platform, f"dm:{user}", user, text, is_private=True,
                                  display_name=self.names[user])
        return kind, self._say(ch, user, text, **extra)

    # --- pieces -----------------------------------------------------------------------
    def _prefix(self) -> str:
        return self.rng.choice(PREFIXES)

    def _name(self) -> str:
        rng = self.rng
        return rng.choice(("Aria", "哥布林", "艾莉絲", "Zed", "X" * rng.randint(1, 40),
                           rng.choice(NAMES) or "n", self._junk(1), "A1", "1", "@b",
                           rng.choice(self.voc.stats)))

    def _junk(self, count: int, without: tuple[str, ...] = ()) -> str:
        rng = self.rng
        pools = [pool for pool in JUNK if pool is not without]
        return "".join(rng.choice(rng.choice(pools)) for _ in range(count))

    def _number(self) -> str:
        rng = self.rng
        if rng.random() < 0.6:
            return str(rng.randint(-10, 120))
        if rng.random() < 0.15:
            return rng.choice(ODD_DIGITS)
        return rng.choice(BIG_NUMBERS)

    def _arg(self, name: str) -> str:
        rng, voc = self.rng, self.voc
        roll = rng.random()
        words = voc.words.get(name) or self._names()
        if roll < 0.35:
            return rng.choice(words)
        if roll < 0.50:
            stat = rng.choice(voc.stats)
            return rng.choice((stat, f"{stat}{self._number()}", f"{stat} {self._number()}",
                               f"{stat}={self._number()}", f"{stat}-{rng.randint(0, 9)}",
                               f"{stat}+{self._dice()}"))
        if roll < 0.65:
            return self._number()
        if roll < 0.75:
            return self._dice()
        if roll < 0.80:
            user = rng.choice(list(self.names))
            return rng.choice((f"<@{user}>", f"@{user}", f"@{self.names[user]}", user,
                               "<@0>", "<@99999999999999999999999>", "@", "<@>",
                               f"[CQ:at,qq={user}]"))
        if roll < 0.85:
            return rng.choice("ABCDEFGHXYZ") + str(rng.choice((1, 3, 8, 26, 27, 0, 99)))
        if roll < 0.90 and voc.keys:
            return f"{rng.choice(voc.keys)}={rng.choice((self._number(), rng.choice(words)))}"
        if roll < 0.95:
            return self._junk(rng.randint(1, 3))
        return rng.choice(MARKUP)

    def _command(self) -> str:
        rng = self.rng
        if rng.random() < 0.3:  # every name in turn, whatever the channel plays
            name = self.voc.names[self.turn % len(self.voc.names)]
            self.turn += 1
            self.in_turn = True
        else:
            name = rng.choice(self._names())
        args = [self._arg(name) for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4, 6)))]
        glue = " " if rng.random() < 0.85 else ""
        if rng.random() < 0.05:
            name = name.upper()
        prefix = self._prefix()
        if self.in_turn and prefix not in WORKING_PREFIXES:
            prefix = "."  # the turn is what covers every name: it must reach the command
        return prefix + name + (glue + " ".join(args) if args else "")

    def _dice_command(self) -> str:
        rng = self.rng
        name = rng.choice(self.voc.roll_names)
        expression = self._dice(broken=rng.random() < 0.15)
        if rng.random() < 0.1:
            expression = f"{rng.randint(-2, 22)}#{expression}"
        reason = ""
        if rng.random() < 0.4:
            reason = rng.choice((" ", "")) + rng.choice((
                rng.choice(self.voc.stats), "攻擊", "lockpicking", self._junk(2),
                rng.choice(MARKUP), rng.choice(ADV), "+攻擊", "(開鎖)", "x" * 300))
        space = " " if rng.random() < 0.8 else ""
        return f"{self._prefix()}{name}{space}{expression}{reason}"

    def _dice(self, broken: bool = False, depth: int = 0) -> str:
        """A dice expression after docs/dice.md; ``broken`` damages it on purpose."""
        rng = self.rng
        parts = [self._operand(depth)]
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            op = rng.choice("+-*/+-")
            if op == "/" and rng.random() < 0.1:
                parts.append("/0")
                continue
            space = " " if rng.random() < 0.1 else ""
            parts.append(f"{space}{op}{space}{self._operand(depth)}")
        text = "".join(parts)
        if depth == 0 and rng.random() < 0.1:
            text += " " * rng.randint(0, 1) + rng.choice(ADV)
        if broken:
            text = self._break(text)
        return text

    def _operand(self, depth: int) -> str:
        rng = self.rng
        roll = rng.random()
        sign = rng.choice(("",) * 12 + ("-", "-", "+", "--"))
        if roll < 0.2:
            return sign + str(rng.choice((rng.randint(0, 20), rng.randint(0, 10**6))))
        if roll < 0.3 and depth < 4:
            return f"{sign}({self._dice(depth=depth + 1)})"
        if roll < 0.33:
            return rng.choice(ADV)
        return sign + self._die()

    def _die(self) -> str:
        rng = self.rng
        if rng.random() < 0.8:  # mostly dice that roll, so results are rendered too
            count = rng.choice(("", "1", "2", "3", "4", "10", str(rng.randint(1, 30))))
            faces = rng.choice(("6", "20", "100", "%", "F", "4", "8", "10", "12", "2"))
        else:
            count = rng.choice(("0", "1000", "1001", "99999", "00", str(rng.randint(1, 999))))
            faces = rng.choice(("1", "0", "f", "100000", "100001", str(rng.randint(1, 10**6))))
        die = f"{count}{rng.choice('dD')}{faces}"
        mods = []
        for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3))):
            kind = rng.random()
            if kind < 0.35:
                mods.append(rng.choice(("kh", "kl", "dh", "dl", "k")) + str(rng.randint(0, 5)))
            elif kind < 0.55:
                condition = rng.choice(CONDITIONS) + str(rng.randint(1, 20))
                mods.append(rng.choice(("!", "!!")) + rng.choice(("", "", condition)))
            elif kind < 0.8:
                mods.append(rng.choice(("r", "ro")) + rng.choice(CONDITIONS)
                            + str(rng.randint(1, 6)))
            else:
                mods.append(rng.choice(CONDITIONS[:-1]) + str(rng.randint(1, 20)))
        return die + "".join(mods)

    def _break(self, text: str) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.2:
            return "(" * rng.choice((5, 32, 33, 100)) + text + ")" * rng.choice((0, 5, 33))
        if roll < 0.35:
            return "+".join([text] * rng.randint(10, 120))  # near / past max_length
        if roll < 0.5 and text:
            cut = rng.randrange(len(text))
            return text[:cut] + text[cut + 1:]
        if roll < 0.65:
            return text + rng.choice(("(", ")", "+", "#", "d", "kh", "r", "!!!", ">=", "/"))
        if roll < 0.8:
            return rng.choice(("20#1000d6", "21#d6", "d1!", "d6r<=6", "1d20+1d20 adv",
                               "10/(1d2-1)", "4d6kh3kl1", "1d6!!!", "d20d6", "0#d6",
                               "1d999999", "99999d6", "1d%!", "dF!", "1d20r1 adv"))
        cut = rng.randrange(len(text) + 1)
        return text[:cut] + self._junk(1) + text[cut:]

    def _start_walk(self) -> None:
        """Play a stretch of the help examples of one channel's system in order (join,
        start, act …), so that battles, games and logs get going and later commands
        meet the state the earlier ones made."""
        rng = self.rng
        self.walk_channel = ch = rng.choice(self.channels)
        steps = self.voc.walks.get(ch.system) or ()
        if steps:
            start = rng.randrange(len(steps))
            self.walk = list(steps[start:start + rng.randint(15, 60)])

    def _example(self) -> str:
        rng, voc = self.rng, self.voc
        examples = voc.examples_of.get(self.ch.system) if rng.random() < 0.75 else None
        examples = examples or voc.examples
        if not examples:
            return self._command()
        out = self._filled(rng.choice(examples).split(), mutate=0.12).split(" ")
        name = out[0].lstrip(".。")
        if rng.random() < 0.2:
            out.insert(rng.randint(1, len(out)), self._arg(name))
        if rng.random() < 0.4:  # help texts run on into prose: the first words only
            out = out[:rng.randint(1, 3)]
        text = " ".join(out)
        if text.startswith((".", "。")):
            text = self._prefix() + text[1:]
        return text

    def _filled(self, tokens: list[str], mutate: float) -> str:
        """An example's tokens with ``[optional]`` parts kept or dropped, ``a|b`` chosen,
        placeholders filled (a character of the channel, a player, a number …), and
        now and then a token replaced or dropped."""
        rng = self.rng
        name = tokens[0].lstrip(".。")
        out = [tokens[0]]
        for token in tokens[1:]:
            if token.startswith("[") and token.endswith("]"):
                if rng.random() < 0.5:
                    continue
                token = token[1:-1]
            if "|" in token and not token.startswith("<"):
                token = rng.choice(token.split("|"))
            if _PLACEHOLDER.match(token):
                token = self._placeholder(token, name)
            elif "=<" in token or "=N" in token:
                token = token.split("=")[0] + "=" + self._placeholder("N", name)
            if rng.random() < mutate:
                token = self._arg(name)
            if rng.random() < mutate / 3:
                continue
            out.append(token)
        return " ".join(out)

    def _placeholder(self, token: str, name: str) -> str:
        rng, ch = self.rng, self.ch
        if token in ("N", "N.", "<N>") or rng.random() < 0.1:
            return str(rng.choice((1, 2, 3, 5, 10, rng.randint(0, 100))))
        roll = rng.random()
        if roll < 0.4 and ch.characters:
            return rng.choice(ch.characters)
        if roll < 0.6:
            return f"<@{rng.choice(ch.players)}>"
        if roll < 0.7:
            return rng.choice(self.voc.stats)
        return self._arg(name)

    def _markup_command(self) -> str:
        rng = self.rng
        markup = " ".join(rng.choice(MARKUP) for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.4:
            return f"{self._prefix()}{rng.choice(self.voc.roll_names)} 1d20 {markup}"
        return f"{self._command()} {markup}"

    def _long(self) -> str:
        rng = self.rng
        head = f".{rng.choice(self.voc.roll_names)} 1d20 "
        length = rng.choice((MAX_INPUT - 2, MAX_INPUT - 1, MAX_INPUT, MAX_INPUT + 1,
                             MAX_INPUT * 3, rng.randint(200, MAX_INPUT)))
        fill = rng.choice(("x", "字", "🎲", "\u200d", " ", "@everyone ", "9", "+1", "(",
                           rng.choice(self.voc.stats)))
        roll = rng.random()
        if roll < 0.3:
            head = self._prefix() + rng.choice(self._names()) + " "
        elif roll < 0.5:
            return f".{rng.choice(self._names())} " + rng.choice(BIG_NUMBERS[-24:-20])
        text = head + fill * (length // max(1, len(fill)) + 1)
        return text[:length + 1]  # the body after the one-character prefix is `length`

    def _typo(self, name: str) -> str:
        rng = self.rng
        if len(name) < 2:
            return name + rng.choice("aeiou")
        i = rng.randrange(len(name))
        edit = rng.random()
        if edit < 0.25:
            return name[:i] + name[i + 1:]
        if edit < 0.5:
            return name[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + name[i:]
        if edit < 0.75 and i + 1 < len(name):
            return name[:i] + name[i + 1] + name[i] + name[i + 2:]
        return name + rng.choice(("bit", "s", "ive", "ules"))

    def _chatter(self) -> str:
        rng = self.rng
        return rng.choice(("hello", "今天要跑團嗎", "lol", "..", ".", "。", "/", "", "  ",
                           "... anyway", "1d20", "r 1d20", "@bot .r", ". r", "http://x.y",
                           self._junk(3), "!r 1d20", "> .r d20", "＊＊"))

    def _transform(self, text: str) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.25:  # full-width the ASCII (a Chinese IME), some or all of it
            share = rng.random()
            return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" and rng.random() < share
                           else "\u3000" if c == " " and rng.random() < share else c
                           for c in text)
        if roll < 0.5 and text:
            cut = rng.randrange(len(text) + 1)
            return text[:cut] + self._junk(rng.randint(1, 3)) + text[cut:]
        if roll < 0.6:
            cut = rng.randrange(len(text) + 1)
            return text[:cut] + rng.choice(BREAKS) + text[cut:]
        if roll < 0.7:
            return rng.choice((text.upper(), text.swapcase(), text.casefold()))
        if roll < 0.8:
            return rng.choice(("\u3000", " ", "\t", "\u200b", "\n")) + text + rng.choice(
                ("", " ", "\u3000", "\n", "\u200f"))
        if roll < 0.85:
            return text + " " + rng.choice(SURROGATES)
        if roll < 0.9:
            return text.replace(" ", rng.choice(("  ", "\u3000", "\t", "\u00a0", "")))
        return text + " " + self._junk(rng.randint(4, 30))

    def _emoticon_dice(self, text: str) -> tuple[str, tuple[PlatformDie, ...]]:
        rng = self.rng
        faces = rng.choice((4, 6, 6, 10, 20, 20, 100, 0))
        token = f"(dice{faces})" if faces != 6 or rng.random() < 0.5 else "(dice)"
        dice = tuple(PlatformDie(faces or 6, rng.randint(1, faces or 6), token)
                     for _ in range(rng.choice((1, 1, 2))))
        if rng.random() < 0.7:
            name = rng.choice(self.voc.roll_names if rng.random() < 0.5 else self._names())
            text = rng.choice((f".{name} {token}+3", f".{name} {token}", f"{text} {token}",
                               f".{name} {token}{token}"))
        return text, dice
