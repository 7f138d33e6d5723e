"""rules/decks: SealDice's JSON deck format parsed, checked and drawn with scripted dice
(docs/decks.md)."""

from __future__ import annotations

import json

import pytest

from rules.decks import PLAYER, DeckLimits, Entry, Ref, Roll, cost_of, draw, parse_deck
from rules.errors import RuleError
from tests.support import NoMoreDice, strict_dice


def deck(lists: dict[str, object], source: str = "test.json"):
    return parse_deck(json.dumps(lists, ensure_ascii=False, indent=1), source)


# --- the format ---------------------------------------------------------------------------

def test_weights_references_and_the_players_name_are_read() -> None:
    parsed = deck({"a": ["::3::x{b}y", "{%b}", "{%b%}", "{$b}", "{player}【name】[name]"],
                   "b": ["::0::never", "z"]})
    assert parsed.lists["a"] == (
        Entry(3, ("x", Ref("b", False), "y")),
        Entry(1, (Ref("b", True),)),
        Entry(1, (Ref("b", True),)),   # the issue's {%b%} is SealDice's {%b}
        Entry(1, (Ref("b", False),)),  # {$b}: without putting back, as {b}
        Entry(1, (PLAYER, PLAYER, PLAYER)),
    )
    assert parsed.lists["b"][0] == Entry(0, ("never",))


def test_a_reference_to_no_list_stays_as_written_and_is_reported() -> None:
    parsed = parse_deck('{\n "a": ["x"],\n "b": ["{nope} and {%a}"]\n}', "t.json")
    assert parsed.lists["b"] == (Entry(1, ("{nope} and ", Ref("a", True))),)
    assert parsed.unknown == ((3, "nope"),)


def test_names_starting_with_an_underscore_are_drawn_only_through_references() -> None:
    parsed = deck({"_title": "My deck", "_author": ["me"], "_hidden": ["h"],
                   "shown": ["{_hidden}"]})
    assert parsed.title == "My deck" and parsed.author == "me"
    assert dict(parsed.keys) == {"shown": True}
    with pytest.raises(RuleError) as refused:
        draw(parsed, "_hidden", 1, NoMoreDice())
    assert refused.value.code == "decks.unknown"
    assert draw(parsed, "shown", 1, NoMoreDice()).texts == ("h",)


def test_descriptions_of_any_shape_are_accepted_but_a_drawn_list_must_be_drawable() -> None:
    parsed = deck({"_version": 2, "_updateUrls": [], "_etag": "x", "_license": {"a": 1},
                   "a": ["x"]})
    assert dict(parsed.keys) == {"a": True}
    with pytest.raises(RuleError) as refused:
        parse_deck('{\n "a": ["{_b}"],\n "_b": []\n}', "t.json")
    assert (refused.value.code, refused.value.params["line"]) == ("decks.empty_list", 3)


def test_keys_and_exports_as_sealdice_reads_them() -> None:
    # _keys: those are listed; every other name stays drawable, unlisted.
    listed = deck({"_keys": ["a"], "a": ["1"], "b": ["2"]})
    assert dict(listed.keys) == {"a": True, "b": False} and listed.shown() == ["a"]
    # _export: only those can be drawn at all.
    exported = deck({"_export": ["a"], "a": ["{b}"], "b": ["2"]})
    assert dict(exported.keys) == {"a": True}
    # Without a title the file's name is the deck's.
    assert listed.title == "test"


# --- malformed files: the file and the line ------------------------------------------------

@pytest.mark.parametrize(("text", "code", "line"), [
    ('{\n "a": ["x",\n  "y" "z"]\n}', "decks.not_json", 3),
    ('["a", "b"]', "decks.not_object", 1),
    ('{\n "a": ["x"],\n "b": "y"\n}', "decks.not_a_list", 3),
    ('{\n "a": ["x"],\n\n "b": [1, 2]\n}', "decks.not_text", 4),
    ('{\n "a": []\n}', "decks.empty_list", 2),
    ('{\n "a": ["::0::x", "::0::y"]\n}', "decks.no_weight", 2),
    ('{\n "a": ["::1000001::x"]\n}', "decks.weight_too_large", 2),
])
def test_a_malformed_file_is_refused_naming_file_and_line(text: str, code: str,
                                                          line: int) -> None:
    with pytest.raises(RuleError) as refused:
        parse_deck(text, "folder/broken.json")
    assert refused.value.code == code
    assert refused.value.params["file"] == "folder/broken.json"
    assert refused.value.params["line"] == line


def test_the_json_error_gives_its_column_too() -> None:
    with pytest.raises(RuleError) as refused:
        parse_deck('{\n "a": ["x",\n  "y" "z"]\n}', "b.json")
    assert refused.value.params == {"file": "b.json", "line": 3, "column": 7}


# --- drawing -------------------------------------------------------------------------------

def test_a_weighted_draw_takes_the_entry_under_the_face() -> None:
    parsed = deck({"a": ["::3::heavy", "light", "::0::never"]})
    # One die of 4 faces (3 + 1): faces 1-3 are "heavy", 4 is "light".
    assert draw(parsed, "a", 1, strict_dice([3])).texts == ("heavy",)
    result = draw(parsed, "a", 1, strict_dice([4]))
    assert result.texts == ("light",) and result.rolls == ((4, 4),)


def test_a_list_with_one_possible_entry_rolls_no_die() -> None:
    parsed = deck({"a": ["only", "::0::never"]})
    assert draw(parsed, "a", 1, NoMoreDice()).texts == ("only",)


def test_draws_of_one_command_do_not_put_back() -> None:
    parsed = deck({"a": ["::9::seal", "shiny"]})
    # SealDice's manual: two draws give both, the weight orders them.
    first = draw(parsed, "a", 2, strict_dice([10]))  # d10: 10 → shiny, then seal alone
    assert first.texts == ("shiny", "seal") and first.rolls == ((10, 10),)
    second = draw(parsed, "a", 2, strict_dice([1]))
    assert second.texts == ("seal", "shiny") and second.rolls == ((10, 1),)


def test_a_pool_drawn_empty_is_full_again() -> None:
    parsed = deck({"a": ["x", "y"], "three": ["{a}{a}{a}"]})
    # d2 → y; x alone (no die); pool empty → full again, d2 → y.
    result = draw(parsed, "three", 1, strict_dice([2, 2]))
    assert result.texts == ("yxy",) and result.rolls == ((2, 2), (2, 2))


def test_without_putting_back_is_shared_by_every_reference_of_the_command() -> None:
    parsed = deck({"card": ["A", "B", "C"], "spread": ["{card}/{card}/{card}"],
                   "again": ["{%card}/{%card}/{%card}"]})
    assert draw(parsed, "spread", 1, strict_dice([1, 1])).texts == ("A/B/C",)
    # With putting back, the same face draws the same card each time.
    assert draw(parsed, "again", 1, strict_dice([1, 1, 1])).texts == ("A/A/A",)
    # The top-level draws and the references share the pool of "card".
    parsed = deck({"card": ["A", "B", "C"], "two": ["{card}{card}"]})
    # C, A; then B alone (no die); the pool drawn empty is full again: A.
    source = strict_dice([3, 1, 1])
    assert draw(parsed, "two", 2, source).texts == ("CA", "BA")
    assert source.remaining == 0


def test_a_dice_expression_in_brackets_is_rolled_with_the_same_dice() -> None:
    parsed = deck({"a": ["STR [3d6*5], [图:./x.png] [注] [1000d6]"]})
    assert parsed.lists["a"][0].parts[1] == Roll("3d6*5", parsed.lists["a"][0].parts[1].parsed)
    result = draw(parsed, "a", 1, strict_dice([1, 2, 3]))
    # Not a dice expression (or past the deck's dice limits): shown as written.
    assert result.texts == ("STR 30, [图:./x.png] [注] [1000d6]",)
    assert result.rolls == ((6, 1), (6, 2), (6, 3))
    # Its dice count as picks before the draw: 20 each (DICE_LIMITS.max_rolls).
    assert cost_of(parsed, "a", 0).picks == 21


def test_the_players_name_is_put_in() -> None:
    parsed = deck({"a": ["{player} looks at 【name】"]})
    assert draw(parsed, "a", 1, NoMoreDice(), player="艾莉絲").texts == \
        ("艾莉絲 looks at 艾莉絲",)


# --- refused before any die ----------------------------------------------------------------

def test_a_reference_cycle_is_refused_before_any_die() -> None:
    parsed = deck({"start": ["x", "{loop}"], "loop": ["{back}", "y"], "back": ["{%loop}"]})
    with pytest.raises(RuleError) as refused:
        draw(parsed, "start", 1, NoMoreDice())
    assert refused.value.code == "decks.cycle"
    assert refused.value.params == {"file": "test.json", "path": "loop → back → loop"}
    selfish = deck({"me": ["{me}"]})
    with pytest.raises(RuleError, match=r"decks\.cycle"):
        draw(selfish, "me", 1, NoMoreDice())


def test_too_deep_a_nesting_is_refused() -> None:
    chain = {f"l{i}": [f"{{l{i + 1}}}"] for i in range(12)} | {"l12": ["end"]}
    with pytest.raises(RuleError) as refused:
        draw(deck(chain), "l0", 1, NoMoreDice())
    assert refused.value.code == "decks.too_deep" and refused.value.params["limit"] == 12
    assert draw(deck(chain), "l1", 1, NoMoreDice()).texts == ("end",)  # 12 deep: fine


def test_too_many_picks_is_refused_before_any_die() -> None:
    # Each level doubles the picks: 2**9 - 1 + ... beyond 500 at the top.
    lists = {f"l{i}": ["a", f"{{%l{i + 1}}}{{%l{i + 1}}}"] for i in range(9)} | {"l9": ["a", "b"]}
    parsed = deck(lists)
    assert cost_of(parsed, "l0", 0).picks == 1023
    with pytest.raises(RuleError) as refused:
        draw(parsed, "l0", 1, NoMoreDice())
    assert refused.value.code == "decks.too_many_picks"
    assert refused.value.params == {"name": "l0", "picks": 1023, "limit": 500}
    assert cost_of(parsed, "l1", 0).picks == 511
    with pytest.raises(RuleError, match="too_many_picks"):
        draw(parsed, "l2", 2, NoMoreDice())  # 255 × 2 = 510


def test_too_long_a_result_is_refused_before_any_die() -> None:
    parsed = deck({"a": ["x" * 400, "y"], "b": ["{%a}{%a}"]})
    assert cost_of(parsed, "b", 0).length == 800
    with pytest.raises(RuleError) as refused:
        draw(parsed, "b", 2, NoMoreDice(), separator="\n1. ")
    assert refused.value.code == "decks.too_long"
    assert refused.value.params == {"name": "b", "length": 1604, "limit": 1500}
    # The drawer's name counts where it is put in.
    named = deck({"a": ["{player}" * 10]})
    with pytest.raises(RuleError, match="too_long"):
        draw(named, "a", 1, NoMoreDice(), player="n" * 151)


def test_the_number_of_draws_is_checked() -> None:
    parsed = deck({"a": ["x"]})
    for count in (0, 6):
        with pytest.raises(RuleError) as refused:
            draw(parsed, "a", count, NoMoreDice())
        assert refused.value.params == {"count": count, "limit": 5}
    assert draw(parsed, "a", 5, NoMoreDice(), limits=DeckLimits()).texts == ("x",) * 5
