"""Everything a handler needs for one command, inside one transaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from bot.decks import DeckShelf
from bot.messages import Attachment, Incoming, Outgoing
from bot.unit_of_work import Table, UnitOfWork
from rules.dice.source import DiceSource
from rules.kits.game_system import GameSystem

if TYPE_CHECKING:
    from bot.gamelog.book import LogBook
    from bot.i18n import Catalog


class CommandInfo(Protocol):
    """What `.help` reads of a command (``bot.router.Command``)."""

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def help_key(self) -> str: ...


class PluginInfo(Protocol):
    """What the kits read of a rule system's plugin (``bot.systems.SystemPlugin``): its
    id and the services it offers the systems played with it (``bot.kits.layers``)."""

    @property
    def id(self) -> str: ...

    @property
    def hooks(self) -> Mapping[str, Callable[..., Any]]: ...


@dataclass(frozen=True)
class Services:
    """What the dispatcher lends every command besides its unit of work: the texts,
    the platforms' id rules, the rule systems and the game log's memory."""

    catalog: Catalog
    is_user_id: Callable[[str, str], bool]
    """Whether a user id can be a real person on a platform (never the bot)."""
    system_of: Callable[[str], GameSystem]
    """The rules of a table's system id (the default system's when unknown)."""
    default_system: str
    logbook: LogBook
    commands: Callable[[str], Sequence[CommandInfo]]
    """The commands of a table that plays a system id (`.help`)."""
    command: Callable[[str, str], CommandInfo | None]
    """The command called ``name`` at a table that plays a system id."""
    base_of: Callable[[str], PluginInfo | None]
    """The plugin of a table's system (for a layered id, its base's)."""
    layers_of: Callable[[str], Sequence[PluginInfo]]
    """The layers a table plays on its base (``ap20+v6`` → v6's plugin)."""
    decks: DeckShelf = field(default_factory=DeckShelf)
    """The decks `.draw` draws from (bot/decks), read at start."""


@dataclass
class Context:
    uow: UnitOfWork
    services: Services
    incoming: Incoming
    dice: DiceSource
    args: str
    command: str
    locale: str
    notes: list[str] = field(default_factory=list)

    @property
    def channel(self) -> Table:
        """The table the command plays at (``uow.channel``)."""
        return self.uow.channel

    @property
    def catalog(self) -> Catalog:
        return self.services.catalog

    # --- who and where -------------------------------------------------------
    @property
    def user(self) -> str:
        return self.incoming.user

    @property
    def name(self) -> str:
        """How to call the speaker (as a player, not a character): the display name."""
        return self.incoming.display_name or self.incoming.user

    @property
    def system(self) -> GameSystem:
        return self.services.system_of(self.channel.system)

    @property
    def gm_users(self) -> list[str]:
        return [gm.user for gm in self.channel.gms]

    @property
    def is_gm(self) -> bool:
        return self.user in self.gm_users

    # --- text ------------------------------------------------------------------
    def t(self, key: str, /, **params: Any) -> str:
        return self.services.catalog.text_at(self.channel.system, self.locale, key, **params)

    def has(self, key: str) -> bool:
        """Whether the table's language has a text for ``key`` (a system's optional
        names: a rule's own word when none is translated)."""
        return self.services.catalog.has(key, self.locale)

    # --- outgoing --------------------------------------------------------------
    def reply(self, text: str, data: dict[str, Any] | None = None,
              block: bool = False, attachment: Attachment | None = None) -> Outgoing:
        return Outgoing("channel", self.incoming.channel, text, data=data, block=block,
                        attachment=attachment)

    def private(
        self, user: str, text: str, data: dict[str, Any] | None = None, secret: bool = True,
        attachment: Attachment | None = None,
    ) -> Outgoing:
        return Outgoing("private", self.incoming.channel, text, user=user, data=data,
                        secret=secret, attachment=attachment)

    def player_private(self, user: str, text: str, summary: str,
                       data: dict[str, Any] | None = None) -> Outgoing:
        """A private message for ``user`` alone (a hand, a draw): it enters no copy of
        any game log — the GM's neither; the log records ``summary`` instead, which
        must say only what everyone may know ("alice drew 2 cards")."""
        return Outgoing("private", self.incoming.channel, text, user=user, data=data,
                        secret=True, player_private=True, log_summary=summary)

    def to_gms(
        self, text: str, data: dict[str, Any] | None = None, exclude: str | None = None
    ) -> list[Outgoing]:
        """One secret private message per GM of the channel (never the channel)."""
        return [self.private(gm, text, data) for gm in self.gm_users if gm != exclude]
