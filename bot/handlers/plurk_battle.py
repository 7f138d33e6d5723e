"""`plurk` battle (PL-13, PL-14): roster, initiative, turns and BP as chat commands.

`.enemy add 食屍鬼 靈巧=12 hp=20 armor=2 human` defines an enemy, `.battle join`
enlists a player's active character, `.battle start` rolls initiative
(`start_battle`), `.act 攻擊` spends BP, `.pass` ends a turn, `.bp` shows or
(GM) configures BP, `.battle add/remove/skip/end` are the GM's. The field lives
in `plurk_field.py`, parry and damage in `plurk_damage.py`; the helpers here
(load/save, who may act for whom, rendering a turn) are shared by all three.

Every rule — BP arithmetic, initiative, turn order, refills — is in
``rules.systems.plurk``; handlers only parse arguments, decide permissions and
render. State: the `Battle` itself in ``ctx.state("plurk.battle")``
(``Battle.to_dict()``, ``{}`` when no battle runs) and the preparation that
outlives a battle (who joined, defined enemies, GM costs and field size) in
``ctx.state("plurk.battle.setup")``. Both are versioned rows written in the
command's one transaction, so a restart continues the battle and a concurrent
writer in another process fails instead of overwriting.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.handlers.gm import user_ref
from bot.messages import Outgoing
from bot.names import fold
from bot.permissions import require_gm_if_any
from bot.plurk_support import param_label, pending_fatal, require_plurk, same_character
from bot.router import command
from bot.store.models import ChannelState, Character
from rules.errors import RuleError
from rules.systems import plurk
from rules.systems.plurk import Battle, Combatant, Entrant, TurnEvent

STATE_KEY = "plurk.battle"
FATAL_SOURCE = "battle"
SETUP_KEY = "plurk.battle.setup"
MAX_NAME = 30
MAX_ENEMIES = 40
MAX_VALUE = 100_000

HP_STAT = plurk.SYSTEM.stat("HP").name  # type: ignore[union-attr]  # 體力
DEX_STAT = plurk.SYSTEM.stat("DEX").name  # type: ignore[union-attr]  # 靈巧
CON_STAT = plurk.SYSTEM.stat("CON").name  # type: ignore[union-attr]  # 體質
ARMOR_SPELLINGS = ("護甲", "armor", "防具")


# --------------------------------------------------------------------------- words


def words(text: str) -> list[str]:
    return text.split()


def is_word(token: str, *spellings: str) -> bool:
    """Command words in any script: ``開始`` / ``开始`` / ``START`` match ``start``."""
    key = fold(token)
    return any(fold(s) == key for s in spellings)


def number(text: str, *, usage: str) -> int:
    """A non-negative integer argument, bounded so nothing huge reaches the state."""
    if not re.fullmatch(r"\d{1,6}", text.strip()):
        raise CommandError(usage)
    value = int(text)
    if value > MAX_VALUE:
        raise CommandError("error.battle.value_too_big", limit=MAX_VALUE)
    return value


# --------------------------------------------------------------------------- state


@dataclass
class Setup:
    """Preparation that outlives one battle: joined players, enemies, GM settings."""

    party: list[str]
    enemies: list[dict[str, Any]]
    costs: dict[str, int]
    width: int = plurk.FIELD_DEFAULT
    height: int = plurk.FIELD_DEFAULT
    serial: int = 0

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        return cls(
            party=list(data.get("party", [])),
            enemies=[dict(e) for e in data.get("enemies", [])],
            costs={str(k): int(v) for k, v in data.get("costs", {}).items()},
            width=int(data.get("width", plurk.FIELD_DEFAULT)),
            height=int(data.get("height", plurk.FIELD_DEFAULT)),
            serial=int(data.get("serial", 0)),
        )

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def enemy(self, name: str) -> dict[str, Any] | None:
        """A definition by name: as written first, then folded (食尸鬼 = 食屍鬼)."""
        exact = next((e for e in self.enemies if e["name"] == name.strip()), None)
        if exact is not None:
            return exact
        key = fold(name)
        return next((e for e in self.enemies if fold(e["name"]) == key), None)


async def load_setup(ctx: Context) -> tuple[ChannelState, Setup]:
    require_plurk(ctx)
    row = await ctx.state(SETUP_KEY)
    return row, Setup.from_dict(row.data or {})


def save_setup(row: ChannelState, setup: Setup) -> None:
    row.data = setup.to_dict()  # a new dict: JSON columns do not track mutation


async def load_battle(ctx: Context) -> tuple[ChannelState, Battle | None]:
    require_plurk(ctx)
    row = await ctx.state(STATE_KEY)
    data = row.data or {}
    if not data.get("combatants") or data.get("ended"):
        return row, None
    return row, Battle.from_dict(data)


async def running_battle(ctx: Context) -> tuple[ChannelState, Battle]:
    """The channel's battle, its investigators' HP refreshed from their sheets."""
    row, battle = await load_battle(ctx)
    if battle is None:
        raise CommandError("error.battle.none")
    return row, await sync_sheet_hp(ctx, row, battle)


def save_battle(row: ChannelState, battle: Battle | None, *, serial: int | None = None,
                sheets: dict[str, int] | None = None) -> None:
    """Store the battle (``{}`` once over). ``serial`` numbers battles in the channel
    so that a fatal event resolved later touches only the battle it happened in
    (and starts a new battle: its sheet links start empty). ``sheets`` links
    investigators (by combatant name) to their ``Character.id``: a `.pc rename`
    during the battle does not cut a combatant from its sheet."""
    if battle is None or battle.ended:
        row.data = {}
        return
    old = row.data or {}
    keep = serial if serial is not None else old.get("serial", 0)
    names = {c.name for c in battle.combatants}
    links = {} if serial is not None else dict(old.get("sheets") or {})
    links.update(sheets or {})
    row.data = {**battle.to_dict(), "serial": keep,
                "sheets": {k: v for k, v in links.items() if k in names}}


def sheet_links(row: ChannelState) -> dict[str, int]:
    """Combatant name → ``Character.id`` of the running battle (empty in battles
    stored before the links were kept: those fall back to owner + name)."""
    return {str(k): int(v) for k, v in ((row.data or {}).get("sheets") or {}).items()}


def battle_serial(row: ChannelState) -> int:
    return int((row.data or {}).get("serial", 0))


# --------------------------------------------------------------------------- sheets


def sheet_value(stats: dict[str, Any], *spellings: str) -> int | None:
    """A number on a sheet under any of the spellings (folded: 体质 = 體質)."""
    keys = {fold(s) for s in spellings}
    for name, value in stats.items():
        if fold(name) in keys and isinstance(value, int):
            return value
    return None


def stat_spellings(canonical: str) -> tuple[str, ...]:
    stat = plurk.SYSTEM.stat(canonical)
    return (canonical, *stat.aliases) if stat is not None else (canonical,)


async def sheet_of(ctx: Context, owner: str, name: str) -> Character | None:
    """The character a combatant was made from (by owner and name, active or not)."""
    for character in await ctx.characters(owner):
        if character.name == name:
            return character
    return None


async def sheet_for(ctx: Context, row: ChannelState, combatant: Combatant) -> Character | None:
    """The sheet of an investigator combatant: by the ``Character.id`` linked when it
    entered (a renamed sheet stays linked), else — a battle stored before links were
    kept — by owner and name. None for enemies, allies and deleted sheets."""
    if combatant.kind != "investigator" or combatant.owner is None:
        return None
    character_id = sheet_links(row).get(combatant.name)
    if character_id is None:
        return await sheet_of(ctx, combatant.owner, combatant.name)
    character = await ctx.session.get(Character, character_id)
    if character is None or character.channel_id != ctx.channel.id \
            or character.owner != combatant.owner:
        return None
    return character


async def hp_waiting(ctx: Context, character: Character) -> list[dict[str, Any]]:
    """Pending HP fatal events of a sheet (PL-12): until they are settled the sheet's
    體力 is not the battle's."""
    return [e for e in await pending_fatal(ctx)
            if e.get("resource") == HP_STAT and same_character(e, character)]


async def sync_sheet_hp(ctx: Context, row: ChannelState, battle: Battle) -> Battle:
    """Investigators' sheets are the truth for HP: a `.st 體力+3` between two
    battle commands counts. Enemies' HP lives only in the battle. An investigator
    with a pending HP fatal event keeps the battle's HP (the sheet waits for
    `.accept` / `.intervene`, PL-12)."""
    for combatant in battle.combatants:
        character = await sheet_for(ctx, row, combatant)
        if character is None or await hp_waiting(ctx, character):
            continue
        hp = sheet_value(character.stats, *stat_spellings(HP_STAT))
        if hp is not None and hp != combatant.hp:
            battle = plurk.update_combatant(battle, combatant.name, hp=hp)
    return battle


async def write_sheet_hp(ctx: Context, row: ChannelState, combatant: Combatant,
                         hp: int) -> None:
    """Write an investigator's HP back to the sheet under the system's HP name."""
    character = await sheet_for(ctx, row, combatant)
    if character is None:
        return
    stats = {k: v for k, v in character.stats.items()
             if fold(k) not in {fold(s) for s in stat_spellings(HP_STAT)}}
    stats[HP_STAT] = hp
    character.stats = stats


def entrant_from_sheet(owner: str, character: Character) -> Entrant:
    stats = character.stats
    return Entrant(
        name=character.name,
        kind="investigator",
        dex=sheet_value(stats, *stat_spellings(DEX_STAT)) or 0,
        con=sheet_value(stats, *stat_spellings(CON_STAT)) or 0,
        owner=owner,
        hp=sheet_value(stats, *stat_spellings(HP_STAT)),
        armor=sheet_value(stats, *ARMOR_SPELLINGS) or 0,
    )


# --------------------------------------------------------------------------- enemies

_FIELDS: dict[str, tuple[str, ...]] = {
    "dex": stat_spellings(DEX_STAT),
    "con": stat_spellings(CON_STAT),
    "hp": stat_spellings(HP_STAT),
    "armor": ARMOR_SPELLINGS,
    "bp_max": ("bp", "bpmax", "BP上限"),
    "weapon_durability": ("durability", "dur", "耐久", "耐久度"),
    "position": ("at", "pos", "位置"),
}
_FLAGS: dict[str, tuple[str, Any]] = {
    **{fold(w): ("human_like", True) for w in ("human", "人形", "人類", "humanlike")},
    **{fold(w): ("human_like", False) for w in ("monster", "怪物", "非人")},
    **{fold(w): ("kind", "ally") for w in ("ally", "友方", "盟友")},
    **{fold(w): ("kind", "enemy") for w in ("enemy", "敵方", "敵人")},
}
_OPTION = re.compile(r"^(?P<key>[^\d=:：\s]+)\s*[=:：]?\s*(?P<value>-?\d+|[A-Za-z]\d{1,2})$")


def field_for(key: str) -> str | None:
    folded = fold(key)
    for name, spellings in _FIELDS.items():
        if any(fold(s) == folded for s in spellings):
            return name
    return None


def parse_enemy(text: str) -> dict[str, Any]:
    """`食屍鬼 靈巧=12 hp=20 armor=2 human at=B3` → the fields of an enemy `Entrant`."""
    tokens = words(text)
    if not tokens:
        raise CommandError("error.battle.enemy_usage")
    name = tokens[0]
    if len(name) > MAX_NAME or field_for(name.split("=")[0]) is not None:
        raise CommandError("error.battle.enemy_usage")
    values: dict[str, Any] = {"name": name, "kind": "enemy"}
    for token in tokens[1:]:
        flag = _FLAGS.get(fold(token))
        if flag is not None:
            values[flag[0]] = flag[1]
            continue
        match = _OPTION.match(token)
        key = field_for(match["key"]) if match else None
        if match is None or key is None:
            raise CommandError("error.battle.enemy_option", option=token[:30])
        raw = match["value"]
        if key == "position":
            values[key] = raw.upper()
        elif not re.fullmatch(r"-?\d+", raw) or abs(int(raw)) > MAX_VALUE:
            raise CommandError("error.battle.enemy_option", option=token[:30])
        elif int(raw) < _MINIMUM.get(key, -MAX_VALUE):
            raise CommandError("error.battle.enemy_value_min", option=token[:30],
                               field=match["key"], minimum=_MINIMUM[key])
        else:
            values[key] = int(raw)
    return values


_MINIMUM = {"hp": 1, "armor": 0, "bp_max": 0, "weapon_durability": 0}
"""An enemy starts alive (hp ≥ 1); armor, BP and durability are never negative."""


def enemy_entrant(values: dict[str, Any]) -> Entrant:
    allowed = {f.name for f in dataclasses.fields(Entrant)}
    return Entrant(**{k: v for k, v in values.items() if k in allowed})


# --------------------------------------------------------------------------- who acts


def find_name(battle: Battle, typed: str) -> str:
    """The stored name a player means: as written, else case-insensitively, else
    traditional/simplified-folded (食尸鬼 = 食屍鬼). When a fold matches several
    (艾莉絲 and 艾莉丝 both fight) the name is refused with the candidates rather
    than guessed; unknown names pass through so that the rules refuse them."""
    text = typed.strip()
    if any(c.name == text for c in battle.combatants):
        return text
    found = battle.find(text)
    if found is not None:
        return found.name
    key = fold(text)
    matches = [c.name for c in battle.combatants if fold(c.name) == key]
    if len(matches) > 1:
        raise CommandError("error.battle.ambiguous_name", name=text,
                           candidates=" / ".join(matches))
    return matches[0] if matches else typed


def may_control(ctx: Context, combatant: Combatant) -> bool:
    """The owner acts for an investigator; GMs act for anyone (enemies, absent
    players); in a channel without GMs anyone acts for GM-run combatants."""
    if ctx.is_gm or (combatant.owner is not None and combatant.owner == ctx.user):
        return True
    return combatant.owner is None and not ctx.gm_users


def require_control(ctx: Context, combatant: Combatant) -> None:
    if not may_control(ctx, combatant):
        raise CommandError("error.battle.not_yours", actor=combatant.name)


def current_actor(ctx: Context, battle: Battle) -> Combatant:
    """The actor whose BP the speaker is about to spend — only theirs to spend."""
    actor = battle.actor
    require_control(ctx, actor)
    return actor


# --------------------------------------------------------------------------- rendering


def sep(ctx: Context) -> str:
    return ctx.t("battle.sep")


def action_label(ctx: Context, key: str) -> str:
    catalog_key = f"battle.action.{key}"
    return ctx.t(catalog_key) if ctx.core.catalog.has(catalog_key, ctx.locale) else key


def kind_label(ctx: Context, kind: str) -> str:
    catalog_key = f"battle.attack_kind.{kind}"
    return ctx.t(catalog_key) if ctx.core.catalog.has(catalog_key, ctx.locale) else kind


_LABELLED_KINDS = {"plurk.impale_not_allowed", "plurk.knockout_not_allowed"}

Handler = Callable[[Context], Awaitable[list[Outgoing]]]


def readable(handler: Handler) -> Handler:
    """Refusals name actions and attack kinds in the reader's words (`攻擊`, not
    the rules' key `attack`); everything else of the rules' error passes as is."""

    @functools.wraps(handler)
    async def wrapper(ctx: Context) -> list[Outgoing]:
        try:
            return await handler(ctx)
        except RuleError as exc:
            params = dict(exc.params)
            if exc.code == "plurk.negative_amount" and isinstance(params.get("name"), str):
                params["name"] = param_label(ctx, params["name"])
            if isinstance(params.get("action"), str):
                params["action"] = action_label(ctx, params["action"])
            if exc.code == "plurk.bp_unknown_action" and isinstance(params.get("known"), str):
                params["known"] = sep(ctx).join(
                    action_label(ctx, k) for k in params["known"].split(", "))
            if exc.code in _LABELLED_KINDS and isinstance(params.get("kind"), str):
                params["kind"] = kind_label(ctx, params["kind"])
            raise RuleError(exc.code, **params) from exc

    return wrapper


def hp_text(ctx: Context, hp: int | None) -> str:
    return ctx.t("battle.hp_unknown") if hp is None else str(hp)


def status_tags(ctx: Context, c: Combatant) -> str:
    tags = []
    if c.position is not None:
        tags.append(ctx.t("battle.tag.position", cell=c.position))
    if c.parry_against is not None:
        tags.append(ctx.t("battle.tag.parry", enemy=c.parry_against,
                          durability=hp_text(ctx, c.weapon_durability)))
    if c.unconscious:
        tags.append(ctx.t("battle.tag.unconscious", turns=c.unconscious))
    elif c.hp is not None and c.hp <= 0:
        tags.append(ctx.t("battle.tag.down"))
    if c.kind == "enemy":
        tags.append(ctx.t("battle.tag.enemy"))
    elif c.kind == "ally":
        tags.append(ctx.t("battle.tag.ally"))
    return "".join(tags)


def combatant_line(ctx: Context, battle: Battle, index: int) -> str:
    c = battle.combatants[index]
    return ctx.t(
        "battle.line",
        marker="▶" if index == battle.current else "　",
        index=index + 1, name=c.name, initiative=c.initiative, bp=c.bp, bp_max=c.bp_max,
        hp=hp_text(ctx, c.hp), tags=status_tags(ctx, c),
    )


def turn_line(ctx: Context, battle: Battle) -> str:
    actor = battle.actor
    return ctx.t("battle.turn", round=battle.round, actor=actor.name, bp=actor.bp,
                 bp_max=actor.bp_max)


def state_text(ctx: Context, battle: Battle) -> str:
    lines = [turn_line(ctx, battle)]
    lines.extend(combatant_line(ctx, battle, i) for i in range(len(battle.combatants)))
    return "\n".join(lines)


def turn_event_text(ctx: Context, battle: Battle, event: TurnEvent | None) -> str:
    """What a change of turn means for the table: who ended, who was passed over
    (before or after the new round began), a new round, whose turn it is now —
    or, when everyone is down or unconscious, that nobody can act."""
    if event is None:
        return ""
    parts = []
    if event.previous is not None and event.reason != "removed":
        parts.append(ctx.t(f"battle.turn_reason.{event.reason}", actor=event.previous))
    if not battle.actor.can_act:
        # the rules went once round the order and found no one able to act; the
        # turn "returning" to a fallen combatant would only confuse the table
        parts.append(ctx.t("battle.nobody_can_act", round=battle.round))
        return "\n".join(parts)
    late = list(event.skipped)
    if event.new_round:
        ended = battle.find(event.previous or "")
        mark = battle.index_of(ended.name) if ended is not None else len(battle.combatants)
        early = [n for n in event.skipped if battle.index_of(n) > mark]
        late = [n for n in event.skipped if n not in early]
        if early:
            parts.append(ctx.t("battle.skipped", names=sep(ctx).join(early)))
        parts.append(ctx.t("battle.new_round", round=event.round))
    if late:
        parts.append(ctx.t("battle.skipped", names=sep(ctx).join(late)))
    parts.append(turn_line(ctx, battle))
    return "\n".join(parts)


def initiative_line(ctx: Context, index: int, c: Combatant) -> str:
    rolls = c.initiative_rolls
    detail = ctx.t("battle.init_roll", raw=rolls[0], dex=f"{c.dex:+d}") if rolls else ""
    if len(rolls) > 1:
        detail += ctx.t("battle.init_reroll", rolls=sep(ctx).join(map(str, rolls[1:])))
    if not rolls:
        detail = ctx.t("battle.init_given")
    return ctx.t("battle.init_line", index=index + 1, name=c.name, initiative=c.initiative,
                 detail=detail)


def battle_data(event: str, battle: Battle | None, **extra: Any) -> dict[str, Any]:
    """Structured result for JSON consumers (console ``--json``): the event, the
    event's own numbers and the whole battle state after the command."""
    data: dict[str, Any] = {"kind": "plurk.battle", "event": event}
    data.update({k: _plain(v) for k, v in extra.items()})
    data["battle"] = battle.to_dict() if battle is not None else None
    return data


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------- .battle


@command("battle", "戰鬥", "战斗", help_key="help.battle")
@readable
async def battle_command(ctx: Context) -> list[Outgoing]:
    tokens = words(ctx.args)
    verb, rest = (tokens[0], tokens[1:]) if tokens else ("", [])
    for spellings, handler in _BATTLE_VERBS:
        if is_word(verb, *spellings):
            return await handler(ctx, rest)
    raise CommandError("error.battle.usage")


@command("turn", "回合", help_key="help.turn")
@readable
async def turn_command(ctx: Context) -> list[Outgoing]:
    return await show(ctx, [])


async def show(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    row, battle = await load_battle(ctx)
    if battle is None:
        return [ctx.reply(await setup_text(ctx), battle_data("none", None))]
    battle = await sync_sheet_hp(ctx, row, battle)
    return [ctx.reply(state_text(ctx, battle), battle_data("show", battle))]


async def setup_text(ctx: Context) -> str:
    _, setup = await load_setup(ctx)
    party = []
    for user in setup.party:
        character = await ctx.active_character(user)
        party.append(character.name if character is not None else
                     ctx.t("battle.no_character", user=user))
    enemies = [e["name"] for e in setup.enemies]
    none = ctx.t("battle.nobody")
    return ctx.t("battle.no_battle", party=sep(ctx).join(party) or none,
                 enemies=sep(ctx).join(enemies) or none)


async def join(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """A player enlists their active character; during a battle it enters at once
    with its own initiative roll (PL-14), after everyone with an equal value."""
    character = await ctx.active_character()
    if character is None:
        raise CommandError("error.pc_no_active")
    setup_row, setup = await load_setup(ctx)
    if ctx.user not in setup.party:
        setup.party.append(ctx.user)
        save_setup(setup_row, setup)
    row, battle = await load_battle(ctx)
    if battle is None:
        return [ctx.reply(ctx.t("battle.joined", name=character.name),
                          battle_data("join", None, user=ctx.user))]
    refuse_second_entry(row, character)
    battle = plurk.add_combatant(battle, entrant_from_sheet(ctx.user, character), ctx.dice)
    save_battle(row, battle, sheets={character.name: character.id})
    newcomer = battle.get(character.name)
    text = ctx.t("battle.added", line=initiative_line(
        ctx, battle.index_of(newcomer.name), newcomer))
    return [ctx.reply(f"{text}\n{turn_line(ctx, battle)}", battle_data("add", battle))]


async def leave(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """A player withdraws before the battle; during it the GM removes combatants."""
    setup_row, setup = await load_setup(ctx)
    if ctx.user not in setup.party:
        raise CommandError("error.battle.not_joined")
    _, battle = await load_battle(ctx)
    if battle is not None:
        raise CommandError("error.battle.leave_running")
    setup.party.remove(ctx.user)
    save_setup(setup_row, setup)
    character = await ctx.active_character()
    name = character.name if character is not None else ctx.name
    return [ctx.reply(ctx.t("battle.left", name=name), battle_data("leave", None))]


def refuse_second_entry(row: ChannelState, character: Character) -> None:
    """A sheet fights once: after a `.pc rename` its combatant keeps the old name, so
    the rules' duplicate-name check alone would let it enter a second time."""
    for name, character_id in sheet_links(row).items():
        if character_id == character.id:
            raise RuleError("plurk.battle_duplicate_name", name=name)


async def party_entrants(ctx: Context, setup: Setup
                         ) -> tuple[list[Entrant], list[str], dict[str, int]]:
    """Joined players' active characters (and their ids, by name); players without
    one are reported, not fatal."""
    entrants, missing, ids = [], [], {}
    for user in setup.party:
        character = await ctx.active_character(user)
        if character is None:
            missing.append(user)
        else:
            entrants.append(entrant_from_sheet(user, character))
            ids[character.name] = character.id
    return entrants, missing, ids


_SIDES = {fold(w): "party" for w in ("party", "我方", "玩家", "調查員")} | {
    fold(w): "enemy" for w in ("enemy", "敵方", "敵人")}


def parse_start_options(rest: list[str]) -> str | None:
    """`first=party|enemy` (`先制=我方|敵方`): the side that won surprise (PL-14)."""
    first = None
    for token in rest:
        key, _, value = token.partition("=")
        if not is_word(key, "first", "surprise", "先制", "背襲") or fold(value) not in _SIDES:
            raise CommandError("error.battle.start_usage")
        first = _SIDES[fold(value)]
    return first


async def start(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """PL-13/14: everyone rolls 靈巧 initiative (ties rerolled by the rules), round 0."""
    require_gm_if_any(ctx)
    first_side = parse_start_options(rest)
    row, running = await load_battle(ctx)
    if running is not None:
        raise CommandError("error.battle.already")
    setup_row, setup = await load_setup(ctx)
    entrants, missing, ids = await party_entrants(ctx, setup)
    entrants.extend(enemy_entrant(e) for e in setup.enemies)
    battle = plurk.start_battle(ctx.dice, entrants, costs=setup.costs, width=setup.width,
                                height=setup.height, first_side=first_side)
    setup.serial += 1
    save_setup(setup_row, setup)
    save_battle(row, battle, serial=setup.serial, sheets=ids)
    lines = [ctx.t("battle.started")]
    lines.extend(initiative_line(ctx, i, c) for i, c in enumerate(battle.combatants))
    if first_side is not None:
        lines.append(ctx.t(f"battle.first_side.{first_side}"))
    if missing:
        lines.append(ctx.t("battle.missing_characters", users=sep(ctx).join(missing)))
    lines.append(turn_line(ctx, battle))
    return [ctx.reply("\n".join(lines), battle_data("start", battle))]


async def add(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: bring a defined enemy (by name), a new one (`name 靈巧=… hp=…`) or a
    player's active character (`@user`) into the running battle."""
    require_gm_if_any(ctx)
    if not rest:
        raise CommandError("error.battle.add_usage")
    row, battle = await running_battle(ctx)
    entrant, character = await entrant_to_add(ctx, rest)
    if character is not None:
        refuse_second_entry(row, character)
    battle = plurk.add_combatant(battle, entrant, ctx.dice)
    save_battle(row, battle, sheets={character.name: character.id} if character else None)
    newcomer = battle.get(entrant.name)
    text = ctx.t("battle.added", line=initiative_line(
        ctx, battle.index_of(newcomer.name), newcomer))
    return [ctx.reply(f"{text}\n{turn_line(ctx, battle)}", battle_data("add", battle))]


async def entrant_to_add(ctx: Context, rest: list[str]) -> tuple[Entrant, Character | None]:
    """The entrant `.battle add` means, and the sheet it comes from (a player's)."""
    if rest[0].startswith(("@", "<@", "[CQ:")) and len(rest) == 1:
        user = user_ref(rest[0])
        character = await ctx.active_character(user)
        if character is None:
            raise CommandError("error.battle.user_no_character", user=user)
        return entrant_from_sheet(user, character), character
    setup_row, setup = await load_setup(ctx)
    known = setup.enemy(rest[0])
    if known is not None and len(rest) == 1:
        return enemy_entrant(known), None
    values = parse_enemy(" ".join(rest))
    remember_enemy(setup, values)
    save_setup(setup_row, setup)
    return enemy_entrant(values), None


def remember_enemy(setup: Setup, values: dict[str, Any]) -> None:
    existing = setup.enemy(values["name"])
    if existing is not None:
        setup.enemies.remove(existing)
    elif len(setup.enemies) >= MAX_ENEMIES:
        raise CommandError("error.battle.too_many_enemies", limit=MAX_ENEMIES)
    setup.enemies.append(values)


async def remove(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: take a combatant out (fled, dead, left the table); its turn passes if current."""
    require_gm_if_any(ctx)
    if len(rest) != 1:
        raise CommandError("error.battle.remove_usage")
    row, battle = await running_battle(ctx)
    name = find_name(battle, rest[0])
    battle, event = plurk.remove_combatant(battle, name)
    save_battle(row, battle)
    text = ctx.t("battle.removed", name=name)
    if event is not None:
        text += "\n" + turn_event_text(ctx, battle, event)
    return [ctx.reply(text, battle_data("remove", battle, turn=event))]


async def skip(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """GM: the current actor loses the rest of its turn."""
    require_gm_if_any(ctx)
    row, battle = await running_battle(ctx)
    battle, event = plurk.skip_turn(battle)
    save_battle(row, battle)
    return [ctx.reply(turn_event_text(ctx, battle, event), battle_data("skip", battle, turn=event))]


async def end(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """GM: the battle is over. Its enemies and the join list are cleared (the next
    fight has its own); GM costs and the field size stay for the next battle."""
    require_gm_if_any(ctx)
    row, battle = await running_battle(ctx)
    battle = plurk.end_battle(battle)
    save_battle(row, None)
    setup_row, setup = await load_setup(ctx)
    setup.enemies, setup.party = [], []
    save_setup(setup_row, setup)
    standing = [f"{c.name} {ctx.t('battle.hp_label')} {hp_text(ctx, c.hp)}"
                for c in battle.combatants]
    text = ctx.t("battle.ended", round=battle.round, summary=sep(ctx).join(standing))
    return [ctx.reply(text, battle_data("end", None, final=battle.to_dict()))]


async def wake(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: a successful 醫療 check woke a knocked-out combatant."""
    require_gm_if_any(ctx)
    if len(rest) != 1:
        raise CommandError("error.battle.usage")
    row, battle = await running_battle(ctx)
    name = find_name(battle, rest[0])
    battle = plurk.wake(battle, name)
    save_battle(row, battle)
    return [ctx.reply(ctx.t("battle.woken", name=battle.get(name).name),
                      battle_data("wake", battle))]


_BATTLE_VERBS: list[tuple[tuple[str, ...], Any]] = [
    (("", "show", "state", "狀態"), show),
    (("start", "開始", "begin"), start),
    (("join", "參加", "參戰", "加入"), join),
    (("leave", "離開", "退出"), leave),
    (("add", "增加", "新增"), add),
    (("remove", "rm", "del", "移除", "刪除"), remove),
    (("skip", "跳過"), skip),
    (("end", "結束", "stop"), end),
    (("wake", "喚醒", "清醒"), wake),
]


# --------------------------------------------------------------------------- .enemy


@command("enemy", "敵人", "敌人", help_key="help.enemy")
@readable
async def enemy_command(ctx: Context) -> list[Outgoing]:
    """GM: define enemies for the next battle; during a battle a new one enters it."""
    verb, _, rest = ctx.args.strip().partition(" ")
    if is_word(verb, "", "list", "ls", "列表"):
        return await list_enemies(ctx)
    require_gm_if_any(ctx)
    if is_word(verb, "add", "new", "新增", "增加"):
        return await add_enemy(ctx, rest)
    if is_word(verb, "del", "rm", "remove", "刪除", "移除"):
        return await delete_enemy(ctx, rest.strip())
    if is_word(verb, "clear", "清除", "清空"):
        setup_row, setup = await load_setup(ctx)
        setup.enemies = []
        save_setup(setup_row, setup)
        return [ctx.reply(ctx.t("battle.enemies_cleared"))]
    raise CommandError("error.battle.enemy_usage")


async def list_enemies(ctx: Context) -> list[Outgoing]:
    _, setup = await load_setup(ctx)
    if not setup.enemies:
        return [ctx.reply(ctx.t("battle.enemies_none"))]
    lines = [ctx.t("battle.enemies_header")]
    lines.extend(enemy_line(ctx, e) for e in setup.enemies)
    return [ctx.reply("\n".join(lines), {"kind": "plurk.enemies", "enemies": setup.enemies})]


def enemy_line(ctx: Context, e: dict[str, Any]) -> str:
    entrant = enemy_entrant(e)
    human = entrant.human_like if entrant.human_like is not None else entrant.kind != "enemy"
    return ctx.t(
        "battle.enemy_line", name=entrant.name, dex=entrant.dex, con=entrant.con,
        hp=hp_text(ctx, entrant.hp), armor=entrant.armor,
        bp=entrant.bp_max if entrant.bp_max is not None else plurk.bp_max_for(entrant.dex),
        kind=ctx.t(f"battle.kind.{entrant.kind}"),
        human=ctx.t("battle.human_like") if human else ctx.t("battle.not_human_like"),
    )


async def add_enemy(ctx: Context, text: str) -> list[Outgoing]:
    values = parse_enemy(text)
    setup_row, setup = await load_setup(ctx)
    row, battle = await load_battle(ctx)
    if battle is not None and battle.find(values["name"]) is not None:
        raise CommandError("error.battle.enemy_in_battle", name=values["name"])
    remember_enemy(setup, values)
    save_setup(setup_row, setup)
    line = enemy_line(ctx, values)
    if battle is None:
        return [ctx.reply(ctx.t("battle.enemy_defined", line=line),
                          {"kind": "plurk.enemies", "enemies": setup.enemies})]
    battle = plurk.add_combatant(await sync_sheet_hp(ctx, row, battle), enemy_entrant(values),
                                 ctx.dice)
    save_battle(row, battle)
    newcomer = battle.get(values["name"])
    text_out = ctx.t("battle.added", line=initiative_line(
        ctx, battle.index_of(newcomer.name), newcomer))
    return [ctx.reply(f"{text_out}\n{turn_line(ctx, battle)}", battle_data("add", battle))]


async def delete_enemy(ctx: Context, name: str) -> list[Outgoing]:
    setup_row, setup = await load_setup(ctx)
    found = setup.enemy(name) if name else None
    if found is None:
        raise CommandError("error.battle.enemy_unknown", name=name)
    setup.enemies.remove(found)
    save_setup(setup_row, setup)
    return [ctx.reply(ctx.t("battle.enemy_deleted", name=found["name"]))]


# --------------------------------------------------------------------------- .act / .pass


_COUNT = re.compile(r"^[x×*]?(\d{1,3})$", re.IGNORECASE)


def parse_act(args: str) -> tuple[str, int]:
    """`攻擊`, `移動 3`, `move x3` → (action, count)."""
    tokens = words(args)
    if not tokens or len(tokens) > 2:
        raise CommandError("error.battle.act_usage")
    count = 1
    if len(tokens) == 2:
        match = _COUNT.match(tokens[1])
        if match is None:
            raise CommandError("error.battle.act_usage")
        count = int(match.group(1))
    if count < 1:
        raise CommandError("error.battle.act_usage")
    return tokens[0], count


def spend_text(ctx: Context, battle: Battle, event: plurk.BpEvent) -> str:
    text = ctx.t("battle.spent", actor=event.actor, action=action_label(ctx, event.action),
                 cost=event.cost, before=event.bp_before, after=event.bp_after)
    if event.turn is not None:
        text += "\n" + turn_event_text(ctx, battle, event.turn)
    return text


@command("act", "行動", "行动", help_key="help.act")
@readable
async def act(ctx: Context) -> list[Outgoing]:
    """PL-13: the current actor spends BP on an action (cost from the battle's table)."""
    action, count = parse_act(ctx.args)
    row, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    battle, event = plurk.spend_bp(battle, action, actor=actor.name, count=count)
    save_battle(row, battle)
    return [ctx.reply(spend_text(ctx, battle, event), battle_data("spend", battle, bp=event))]


@command("pass", "結束回合", "结束回合", help_key="help.pass")
@readable
async def pass_(ctx: Context) -> list[Outgoing]:
    """PL-13: the actor ends its turn; BP refills, the next in order acts."""
    row, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    battle, event = plurk.pass_turn(battle, actor.name)
    save_battle(row, battle)
    return [ctx.reply(turn_event_text(ctx, battle, event), battle_data("pass", battle, turn=event))]


# --------------------------------------------------------------------------- .bp


@command("bp", "戰鬥點數", "战斗点数", help_key="help.bp")
@readable
async def bp(ctx: Context) -> list[Outgoing]:
    """`.bp` shows BP; `.bp cost [action N]` shows or (GM) sets a cost;
    `.bp max <who> N` (GM) overrides one combatant's BP max for this battle."""
    tokens = words(ctx.args)
    if not tokens:
        _, battle = await running_battle(ctx)
        return [ctx.reply(bp_text(ctx, battle), battle_data("bp", battle))]
    if is_word(tokens[0], "cost", "costs", "費用", "消耗"):
        return await bp_cost(ctx, tokens[1:])
    if is_word(tokens[0], "max", "上限"):
        return await bp_max(ctx, tokens[1:])
    raise CommandError("error.battle.bp_usage")


def bp_text(ctx: Context, battle: Battle) -> str:
    items = [ctx.t("battle.bp_item", name=c.name, bp=c.bp, bp_max=c.bp_max)
             for c in battle.combatants]
    return ctx.t("battle.bp_show", items=sep(ctx).join(items))


def costs_text(ctx: Context, costs: dict[str, int]) -> str:
    items = [ctx.t("battle.cost_item", action=action_label(ctx, k), cost=v)
             for k, v in costs.items()]
    return ctx.t("battle.costs", items=sep(ctx).join(items))


async def bp_cost(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """Costs are GM configuration: they apply to the running battle and the next ones."""
    row, battle = await load_battle(ctx)
    setup_row, setup = await load_setup(ctx)
    configured = {**plurk.BP_DEFAULT_COSTS, **setup.costs}
    if not rest:
        costs = battle.costs if battle is not None else configured
        return [ctx.reply(costs_text(ctx, costs), {"kind": "plurk.bp_costs", "costs": costs})]
    require_gm_if_any(ctx)
    if len(rest) != 2:
        raise CommandError("error.battle.bp_usage")
    cost = number(rest[1], usage="error.battle.bp_usage")
    # the rules canonicalise the action name (攻擊 → attack) on a battle-less table
    setup.costs = dict(plurk.set_bp_cost(Battle((), costs=configured), rest[0], cost).costs)
    save_setup(setup_row, setup)
    costs = setup.costs
    if battle is not None:
        battle = plurk.set_bp_cost(battle, rest[0], cost)
        save_battle(row, battle)
        costs = battle.costs
    return [ctx.reply(costs_text(ctx, costs), {"kind": "plurk.bp_costs", "costs": costs})]


async def bp_max(ctx: Context, rest: list[str]) -> list[Outgoing]:
    require_gm_if_any(ctx)
    if len(rest) != 2:
        raise CommandError("error.battle.bp_usage")
    row, battle = await running_battle(ctx)
    name = find_name(battle, rest[0])
    value = number(rest[1], usage="error.battle.bp_usage")
    battle = plurk.update_combatant(battle, name, bp_max=value)
    save_battle(row, battle)
    c = battle.get(name)
    return [ctx.reply(ctx.t("battle.bp_max_set", name=c.name, bp=c.bp, bp_max=c.bp_max),
                      battle_data("bp_max", battle))]

