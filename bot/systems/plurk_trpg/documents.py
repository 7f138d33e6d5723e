"""The state documents of the `plurk` system (``bot.documents.Doc``): one table's last
checks (PL-4, PL-10), the GM's consent to take 10 / take 20 / push (PL-10), AP pool
(PL-11), pending fatal events (PL-12), and battle (PL-13 …) with its setup.

Each is a dataclass read and written by a pydantic ``TypeAdapter``: what the rules own
(a check, the AP pool) is the rules' dataclass, what only the chat side keeps (who
was told of a hidden check, the links of combatants to sheets) is declared here. Every
document is at schema 1: the adapters read the JSON the hand-written ``to_dict`` of
earlier versions stored (tests/bot/systems/plurk/test_documents.py holds samples of
it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BeforeValidator, WrapSerializer
from pydantic_core.core_schema import SerializerFunctionWrapHandler

from bot.documents import Doc
from bot.kits.references import same_character
from bot.names import fold
from bot.unit_of_work import Sheet
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Battle

# --------------------------------------------------------------------------- last checks


@dataclass
class FateRoll:
    """A fate check rolled on a record (PL-4)."""

    raw: int
    success: bool
    certain: str | None
    final_success: bool


@dataclass
class FateCall:
    """A fate check called on a crit or fumble (PL-4), and its roll once made."""

    threshold: int
    called_by: str = ""
    result: FateRoll | None = None


@dataclass(kw_only=True)
class CheckRecord:
    """A player's last check, kept for a later push (PL-10) or fate check (PL-4).

    ``character_id`` names the sheet (a renamed character keeps its record); ``told``
    are the GMs a hidden check's result was sent to (only they referee it, issue 22).
    """

    character: str
    character_id: int | None = None
    check: plurk.CheckResult
    hidden: bool = False
    fate: FateCall | None = None
    reason: str | None = None
    told: list[str] = field(default_factory=list)
    pushed: bool = False
    push_request: bool = False
    """The push waits for the GM's consent (`.ra allow`)."""
    push_allowed: bool = False
    attack_used: bool = False
    """A combat check that served an `.atk` as its hit check (used once)."""

    def is_of(self, owner: str, sheet: Sheet) -> bool:
        """Whether ``owner``'s record is about ``sheet`` (by id, else by name)."""
        return same_character({"owner": owner, "character": self.character,
                               "character_id": self.character_id}, sheet)


@dataclass
class LastChecks:
    last: dict[str, CheckRecord] = field(default_factory=dict)
    """owner → their last check"""


# --------------------------------------------------------------------------- consent


@dataclass
class Allowed:
    """What players may do without asking the GM (PL-10 「若局方允許」)."""

    take10: bool = False
    take20: bool = False
    push: bool = False


@dataclass
class CheckRequest:
    """A take-10 / take-20 check waiting for the GM's `.ra allow`."""

    args: str
    mode: str
    character: str
    hidden: bool = False
    character_id: int | None = None
    name: str = ""


@dataclass
class Consent:
    allow: Allowed = field(default_factory=Allowed)
    requests: dict[str, CheckRequest] = field(default_factory=dict)
    """owner → their waiting request"""


# --------------------------------------------------------------------------- fatal events


@dataclass(kw_only=True)
class FatalEvent:
    """A loss that would bring HP or SAN to 0, waiting for `.intervene` / `.accept`.

    ``sheet`` is the sheet's value when the event was raised (the event expires when
    the sheet no longer shows it); ``details`` is what its ``source`` keeps for its
    resolution hook (the battle's hit)."""

    id: int
    owner: str
    character: str
    character_id: int | None = None
    resource: str
    loss: int
    before: int
    after: int
    sheet: int | None = None
    source: str
    details: dict[str, Any] = field(default_factory=dict)

    def is_of(self, sheet: Sheet) -> bool:
        """Whether the event is about ``sheet`` (by id, else by owner and name)."""
        return same_character({"owner": self.owner, "character": self.character,
                               "character_id": self.character_id}, sheet)


@dataclass
class FatalEvents:
    events: list[FatalEvent] = field(default_factory=list)
    next: int = 1
    """The id of the next event."""
    cost: int = plurk.INTERVENTION_MIN_COST
    """The CP an intervention costs at this table."""


# --------------------------------------------------------------------------- battle


@dataclass
class Setup:
    """Preparation that outlives one battle: joined players, enemies, GM settings."""

    party: list[str] = field(default_factory=list)
    enemies: list[dict[str, Any]] = field(default_factory=list)
    """Enemy definitions as the GM gave them: the ``Entrant`` fields named."""
    costs: dict[str, int] = field(default_factory=dict)
    width: int = plurk.FIELD_DEFAULT
    height: int = plurk.FIELD_DEFAULT
    serial: int = 0
    """The number of the last battle started at the table."""

    def enemy(self, name: str) -> dict[str, Any] | None:
        """A definition by name: as written first, then folded (食尸鬼 = 食屍鬼)."""
        exact = next((e for e in self.enemies if e["name"] == name.strip()), None)
        if exact is not None:
            return exact
        key = fold(name)
        return next((e for e in self.enemies if fold(e["name"]) == key), None)


_BESIDE = ("serial", "sheets", "weapons", "marks")
"""What the bot keeps beside the rules' battle, at the top of the stored object."""


@dataclass
class StoredBattle:
    """The running battle (None between battles) and what the chat side keeps with it.

    ``serial`` numbers battles at the table, so that a fatal event settled later
    touches only the battle it happened in; ``sheets`` links investigators (by
    combatant name) to their sheet's id, so a `.pc rename` does not cut them from it;
    ``weapons`` names the sheet entry of a parrying weapon's durability; ``marks``
    are the board markers (PL-15), given once per battle."""

    battle: Battle | None = None
    serial: int = 0
    sheets: dict[str, int] = field(default_factory=dict)
    weapons: dict[str, str] = field(default_factory=dict)
    marks: dict[str, str] = field(default_factory=dict)


def _nest(data: Any) -> Any:
    """Stored as one object, ``{**battle, "serial": …}``: the rules' part apart from
    the bot's. A battle without combatants, or ended, is none. The ``version: 1`` that
    the rules' ``Battle.to_dict`` once wrote is no field (the ``schema`` versions the
    document now): it is read and ignored, and no longer written."""
    if not isinstance(data, dict):
        return data
    battle = {k: v for k, v in data.items() if k not in _BESIDE}
    running = bool(battle.get("combatants")) and not battle.get("ended")
    return {**{k: data[k] for k in _BESIDE if k in data},
            "battle": battle if running else None}


def _flatten(value: StoredBattle, dump: SerializerFunctionWrapHandler) -> dict[str, Any]:
    """The stored object: ``{}`` between battles, else the battle and the bot's keys."""
    data: dict[str, Any] = dump(value)
    battle = data.pop("battle")
    return {**battle, **data} if battle else {}


# --------------------------------------------------------------------------- declarations

LAST_CHECKS = Doc("plurk.checks", LastChecks, LastChecks)
CONSENT = Doc("plurk.consent", Consent, Consent)
ACTION_POINTS = Doc("plurk.ap", plurk.ApPool, plurk.ApPool)
FATAL_EVENTS = Doc("plurk.fatal", FatalEvents, FatalEvents)
BATTLE: Doc[StoredBattle] = Doc(
    "plurk.battle",
    Annotated[StoredBattle, BeforeValidator(_nest), WrapSerializer(_flatten)],
    StoredBattle)
BATTLE_SETUP = Doc("plurk.battle.setup", Setup, Setup)

DOCUMENTS = (LAST_CHECKS, CONSENT, ACTION_POINTS, FATAL_EVENTS, BATTLE, BATTLE_SETUP)
