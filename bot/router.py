"""Command tables: names → handlers, and the lookup of a command in a message.

There is one table of common commands (`.r .rh .st .pc .gm .campaign .system
.lang .help .set`) and one table per rule system, so the same name may mean
different things in channels that play different systems (each system's own
`.atk`). A message is resolved in two steps: :func:`is_command` decides from the
text alone whether it is a command of *any* table (ignored chatter stays cheap),
and :func:`resolve` picks the handler once the channel — and so its system — is
known: the system's own table first, then the common one.

Within a table the longest registered name that starts the message wins, so
`.ra觀察`, `.rh1d20` and `.st敏捷60` work without a space, as players type them —
but a Latin name must end the word (`.rabbit` is not `.ra bbit`) unless a die
follows (`.rd20`). A message whose first word is no command is ignored (several
bots often share a QQ group, and a reply to every `.` would flood it).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.context import Context
    from bot.messages import Outgoing

Handler = Callable[["Context"], Awaitable[list["Outgoing"]]]
Precheck = Callable[[str], None]

CORE = "core"
"""Owner of the common commands (and the catalog namespace of their texts)."""


@dataclass(frozen=True)
class Command:
    """A command: its names (first is the canonical one), handler and help key.

    ``precheck`` runs on the argument text before any database work; it raises
    to refuse input that breaks a limit, so a refusal costs no I/O.

    ``hidden`` marks a command whose very subject is secret (`.rh`, `.rah`,
    `.secret`): any refusal of it — even "開鎖 is not on your sheet" — names what
    was checked in secret, so the core sends it privately to the one who asked.

    ``owner`` is ``"core"`` or the id of the rule system whose table holds it.

    ``rebinds`` marks a command that may move its channel to another table
    (`.campaign bind/unbind`): once it is committed the core forgets which table the
    channel plays at, so the next message (chatter too) is routed where it now plays.
    """

    names: tuple[str, ...]
    handler: Handler
    help_key: str
    precheck: Precheck | None = None
    hidden: bool = False
    owner: str = CORE
    rebinds: bool = False


_DIE_AFTER_NAME = re.compile(r"d(?:\d|%|f\b)", re.IGNORECASE)


def _ends_at_a_boundary(name: str, rest: str) -> bool:
    """`.ra觀察`, `.rh1d20`, `.rd20` are commands; `.rabbit`, `.passive`, `.rules` are
    other words (another bot's command, or chat) and must not run `.ra`/`.pass`/`.r`."""
    if not (rest[:1].isascii() and rest[:1].isalpha() and name[-1:].isascii()):
        return True
    return _DIE_AFTER_NAME.match(rest) is not None


@dataclass(frozen=True)
class Spec:
    """What ``@command(...)`` declares on a handler; a table is built from the marked
    handlers of its modules (:meth:`CommandTable.collect`), never by importing them."""

    names: tuple[str, ...]
    help_key: str | None = None
    precheck: Precheck | None = None
    hidden: bool = False
    rebinds: bool = False


SPEC = "__command__"
"""The attribute ``@command`` sets on a handler."""


def command(*names: str, help_key: str | None = None, precheck: Precheck | None = None,
            hidden: bool = False, rebinds: bool = False) -> Callable[[Handler], Handler]:
    """Declare the decorated function a command called ``names`` (case-insensitive);
    its help text is ``<owner>.help.<first name>`` unless ``help_key`` says otherwise.
    Nothing is registered: the owner's table collects it."""

    def mark(handler: Handler) -> Handler:
        setattr(handler, SPEC, Spec(tuple(names), help_key, precheck, hidden, rebinds))
        return handler

    return mark


Heads = tuple[str, ...]
"""The command names a message starts with (each ending at a word boundary), of any
table, longest first: all that decides which command it runs where."""
Found = tuple["CommandTable", str] | None
"""A resolution: the table whose command runs and the name it is found by (None: no
command). The command itself is read from the table at each use, so a command
replaced under its name is the one that runs."""
MEMO = 4096
"""Resolutions a router remembers (by heads and system); beyond, it starts over."""


class CommandTable:
    """The commands of one owner (the core, or one rule system), by name."""

    revision = 0
    """Bumped by every name added to any table: a router's resolutions made before are
    forgotten (:meth:`Router.resolve` remembers them)."""

    def __init__(self, owner: str, commands: Iterable[Command] = ()) -> None:
        self.owner = owner
        self._by_name: dict[str, Command] = {}
        for cmd in commands:
            self.add(cmd)
        self._lengths = _lengths(self._by_name)

    @classmethod
    def collect(cls, owner: str, *modules: ModuleType) -> CommandTable:
        """The table of ``owner`` holding every handler ``@command`` marked in
        ``modules`` (a package: its modules too, in name order), in source order."""
        found: list[Command] = []
        for module in _walk(modules):
            for value in vars(module).values():
                spec = getattr(value, SPEC, None)
                if isinstance(spec, Spec) and getattr(value, "__module__", None) \
                        == module.__name__:
                    found.append(Command(
                        spec.names, value, spec.help_key or f"{owner}.help.{spec.names[0]}",
                        spec.precheck, spec.hidden, owner, spec.rebinds))
        return cls(owner, found)

    def command(self, *names: str, help_key: str | None = None,
                precheck: Precheck | None = None, hidden: bool = False,
                rebinds: bool = False) -> Callable[[Handler], Handler]:
        """Add the decorated handler to this table directly (a table built in code, as
        a test's or an operator's own system is)."""

        def add(handler: Handler) -> Handler:
            self.add(Command(tuple(names), handler,
                             help_key or f"{self.owner}.help.{names[0]}", precheck, hidden,
                             self.owner, rebinds))
            return handler

        return add

    def add(self, cmd: Command) -> None:
        for name in cmd.names:
            key = name.casefold()
            if key in self._by_name:
                raise ValueError(f"command name {name!r} registered twice in {self.owner}")
            self._by_name[key] = cmd
        self._lengths = _lengths(self._by_name)
        CommandTable.revision += 1

    def match(self, body: str) -> tuple[Command, str, int] | None:
        """The command that starts ``body``, its arguments and the length of its name."""
        folded = body.casefold()
        for length in self._lengths:  # a dict lookup per name length, not a scan
            if length > len(folded):
                continue
            cmd = self._by_name.get(folded[:length])
            if cmd is not None and _ends_at_a_boundary(folded[:length], folded[length:]):
                return cmd, body[length:].strip(), length
        return None

    def names_of(self, body: str) -> tuple[str, ...] | None:
        """The names of the command that starts ``body`` (its first the canonical one),
        or None: what a refusal names, without running anything."""
        found = self.match(body)
        return None if found is None else found[0].names

    def canonical(self, name: str) -> str:
        """The first name (folded) of the command registered under the folded ``name``:
        two names are the same command when this is the same."""
        return self._by_name[name].names[0].casefold()

    def first_of(self, heads: Heads) -> Found:
        """This table and the longest of ``heads`` it has (the name :meth:`match` finds
        in the message those heads start)."""
        for head in heads:
            if head in self._by_name:
                return self, head
        return None

    def named(self, name: str) -> Command | None:
        """The command registered under the folded ``name``."""
        return self._by_name.get(name)

    def commands(self) -> list[Command]:
        """Every command once, in declaration order."""
        seen: dict[int, Command] = {}
        for cmd in self._by_name.values():
            seen.setdefault(id(cmd), cmd)
        return list(seen.values())

    def find(self, name: str) -> Command | None:
        return self._by_name.get(name.casefold().lstrip("./"))

    def names(self) -> list[str]:
        return list(self._by_name)


class DeclaredTable(CommandTable):
    """A rule system's table known by its command names alone (its manifest, see
    :mod:`bot.manifests`) until a command of it must run or be listed: then
    ``load`` imports the system and its real table answers from that moment on.

    Everything a router asks of *every* table — its names (is a message a command, a
    near miss, whose command is it), the longest of a message's heads it has, which
    names are one command — is answered from the names, so a process imports only the
    systems its tables play."""

    def __init__(self, owner: str, declared: Iterable[tuple[str, ...]],
                 load: Callable[[], CommandTable]) -> None:
        super().__init__(owner)
        self._canonical = {name.casefold(): names[0].casefold()
                           for names in declared for name in names}
        self._declared = {name: names for names in declared for name in
                          (n.casefold() for n in names)}
        self._declared_lengths = _lengths(self._canonical)
        self._load = load
        self._real: CommandTable | None = None

    @property
    def loaded(self) -> bool:
        return self._real is not None

    def real(self) -> CommandTable:
        """The system's own table, its package imported the first time."""
        if self._real is None:
            self._real = self._load()
            CommandTable.revision += 1  # routers re-read this table's names
        return self._real

    def add(self, cmd: Command) -> None:
        self.real().add(cmd)

    def match(self, body: str) -> tuple[Command, str, int] | None:
        return self.real().match(body)

    def names_of(self, body: str) -> tuple[str, ...] | None:
        if self._real is not None:
            return self._real.names_of(body)
        folded = body.casefold()
        for length in self._declared_lengths:
            head = folded[:length]
            if length <= len(folded) and head in self._declared \
                    and _ends_at_a_boundary(head, folded[length:]):
                return self._declared[head]
        return None

    def canonical(self, name: str) -> str:
        return self._real.canonical(name) if self._real is not None else self._canonical[name]

    def first_of(self, heads: Heads) -> Found:
        if self._real is not None:
            return self._real.first_of(heads)
        for head in heads:
            if head in self._canonical:
                return self, head
        return None

    def named(self, name: str) -> Command | None:
        return self.real().named(name)

    def commands(self) -> list[Command]:
        return self.real().commands()

    def find(self, name: str) -> Command | None:
        return self.real().find(name)

    def names(self) -> list[str]:
        return self._real.names() if self._real is not None else list(self._canonical)


def _walk(modules: Iterable[ModuleType]) -> list[ModuleType]:
    """``modules`` with every module of the packages among them (name order)."""
    found: list[ModuleType] = []
    for module in modules:
        found.append(module)
        if hasattr(module, "__path__"):
            for info in sorted(pkgutil.iter_modules(module.__path__), key=lambda m: m.name):
                found.extend(_walk([importlib.import_module(f"{module.__name__}.{info.name}")]))
    return found


def _lengths(names: Iterable[str]) -> list[int]:
    return sorted({len(name) for name in names}, reverse=True)


class Router:
    """The common table and every rule system's: what a message runs where."""

    def __init__(self, common: CommandTable, systems: Iterable[CommandTable] = ()) -> None:
        self.common = common
        self._systems: dict[str, CommandTable] = {}
        self._all_names: set[str] = set()
        """Every table's names: :meth:`is_command` asks them all at once."""
        self._all_lengths: list[int] = []
        self._memo: dict[tuple[Heads, str | None], Found] = {}
        """(heads, system id or None for "whatever the system") → the resolution:
        a pure function of the tables, kept until a table changes."""
        self._revision = CommandTable.revision
        for table in systems:
            self._systems[table.owner] = table
        self._union_changed()

    def add_table(self, table: CommandTable) -> None:
        """Route the commands of ``table`` (a system's) from now on."""
        self._systems[table.owner] = table
        self._union_changed()

    def remove_table(self, system_id: str) -> None:
        self._systems.pop(system_id, None)
        self._union_changed()

    def _union_changed(self) -> None:
        self._all_names = {name for table in (self.common, *self._systems.values())
                           for name in table.names()}
        self._all_lengths = _lengths(self._all_names)
        self._memo.clear()

    def _heads(self, body: str) -> Heads:
        folded = body.casefold()
        names = self._all_names
        # a loop, not a generator: this and is_command run on every message
        heads = []
        for n in self._all_lengths:
            head = folded[:n]
            if head in names and _ends_at_a_boundary(head, folded[n:]):
                heads.append(head)
        return tuple(heads)

    def _remembered(self, body: str, system_id: str | None) -> tuple[Command, str] | None:
        """The resolution of ``body`` at a table of ``system_id`` (None: the one command
        of every system, :meth:`unambiguous`), found once per heads and system — a pure
        function of the tables, kept until one of them changes."""
        if self._revision != CommandTable.revision or len(self._memo) > MEMO:
            self._revision = CommandTable.revision
            self._union_changed()
        heads = self._heads(body)
        key = (heads, system_id)
        # tables only gain names, and every gain or table change clears the memo: a
        # remembered resolution always names a command its table still has
        found = self._memo[key] if key in self._memo else self._find(heads, system_id)
        cmd = _command(found)
        self._memo[key] = found
        return None if found is None or cmd is None else (cmd, body[len(found[1]):].strip())

    def _find(self, heads: Heads, system_id: str | None) -> Found:
        common = self.common.first_of(heads)  # what a channel of no system runs
        if system_id is not None:
            return self._pick(heads, system_id, common)
        found = common
        for system in self._systems:
            each = self._pick(heads, system, common)
            if each is None or (found is not None and _identity(each) != _identity(found)):
                return None
            found = found or each
        return found

    def is_command(self, body: str) -> bool:
        """Whether ``body`` starts with a command of any table (decided without I/O)."""
        folded = body.casefold()
        names = self._all_names
        for n in self._all_lengths:
            head = folded[:n]
            if head in names and _ends_at_a_boundary(head, folded[n:]):
                return True
        return False

    def _own(self, system_id: str) -> list[CommandTable]:
        """The tables of a channel's system: for a layered id (``ap20+v6``) the layers'
        own (the last first), then the base's."""
        return [self._systems[part] for part in reversed(system_id.split("+"))
                if part in self._systems]

    def resolve(self, body: str, system_id: str) -> tuple[Command, str] | None:
        """The command ``body`` runs in a channel that plays ``system_id``: the system's
        own table first (a name of the same length wins over the common one), then the
        common commands."""
        return self._remembered(body, system_id)

    def _pick(self, heads: Heads, system_id: str, common: Found) -> Found:
        """The system's own table first (the last layer's first), a name of the same
        length winning over the common one; then the common command."""
        own = None
        for table in self._own(system_id):
            found = table.first_of(heads)
            if found is not None and (own is None or len(found[1]) > len(own[1])):
                own = found
        return own if own is not None and (common is None or len(own[1]) >= len(common[1])) \
            else common

    def unambiguous(self, body: str) -> tuple[Command, str] | None:
        """The command ``body`` runs whatever the channel's system, if that is one
        command (so its precheck may run before the channel is even read)."""
        return self._remembered(body, None)

    def owners_of(self, body: str) -> dict[str, tuple[str, ...]]:
        """The systems whose own table has the command ``body`` starts with, and that
        command's names — by system id, so a refusal names them in the same order
        whatever loaded first (and without importing a system the channel does not
        play)."""
        found = {system: self._systems[system].names_of(body)
                 for system in sorted(self._systems)}
        return {system: names for system, names in found.items() if names is not None}

    def commands(self, system_id: str) -> list[Command]:
        """The commands of a channel that plays ``system_id``: common ones, then its own."""
        own = [cmd for table in reversed(self._own(system_id)) for cmd in table.commands()]
        shadowed = {name for cmd in own for name in (n.casefold() for n in cmd.names)}
        common = [c for c in self.common.commands()
                  if not shadowed & {n.casefold() for n in c.names}]
        return [*common, *own]

    def find(self, name: str, system_id: str) -> Command | None:
        """The command called ``name`` in a channel that plays ``system_id``."""
        own = next((cmd for table in self._own(system_id) if (cmd := table.find(name))),
                   None)
        return own or self.common.find(name)

    def near_miss(self, body: str) -> str | None:
        """`.hlep` → ``help``: the one command name a typo'd first word is one edit (or
        one swap of neighbours) away from. Only Latin words of four letters or more —
        shorter ones are too often another bot's command (`.ob`, `.rd`) — and only when
        exactly one name is that close; anything else stays silent."""
        match = _WORD.match(body.casefold())
        if match is None:
            return None
        word = match.group()
        close = {name for name in self._all_names
                 if name.isascii() and len(name) >= 3 and _one_edit(word, name)}
        return close.pop() if len(close) == 1 else None


def _command(found: Found) -> Command | None:
    return None if found is None else found[0].named(found[1])


def _identity(found: Found) -> tuple[str, str] | None:
    """Which command a resolution runs, as (table owner, canonical name): two systems
    run the same command only when both fall back to the common one — told apart
    without loading a system's table."""
    return None if found is None else (found[0].owner, found[0].canonical(found[1]))


_WORD = re.compile(r"[a-z]{4,12}(?=\s|$)")


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one insertion, deletion, substitution or swap of
    two neighbours (and is not ``b`` already)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))
