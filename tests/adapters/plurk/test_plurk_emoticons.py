"""Emoticon dice read from rendered content HTML (fixtures made from docs/plurk.md)."""

from __future__ import annotations

import pytest

from adapters.plurk.emoticons import (
    EmoticonResult,
    EmoticonRolls,
    die_faces,
    die_value,
    other_kind,
    parse_content,
    raw_value,
    run_start_kind,
    unrolled_tokens,
)
from bot.messages import PlatformDie
from tests.adapters.plurk.fake_plurk import render


def img(alt: str, **attrs: str) -> str:
    extra = "".join(f' {k}="{v}"' for k, v in attrs.items())
    return f'<img src="https://s.plurk.com/x.gif" class="emoticon" alt="{alt}"{extra} height="24">'


def test_single_d20_with_rndnum() -> None:
    content = (
        '<a href="https://www.plurk.com/dicebot">@dicebot</a>: .r '
        + img("(dice20)", rndnum="13")
        + "+3"
    )
    rolls = parse_content(content)
    assert rolls.dice == (PlatformDie(20, 13, "(dice20)"),)
    assert rolls.unreadable == ()
    assert rolls.text == "@dicebot: .r (dice20)+3"


def test_all_die_sizes_and_plain_dice_is_d6() -> None:
    content = "".join(
        img(tok, rndnum=str(v))
        for tok, v in [
            ("(dice)", 4),
            ("(dice2)", 2),
            ("(dice4)", 3),
            ("(dice8)", 8),
            ("(dice10)", 10),
            ("(dice12)", 1),
            ("(dice20)", 20),
        ]
    )
    faces = [(d.faces, d.value) for d in parse_content(content).dice]
    assert faces == [(6, 4), (2, 2), (4, 3), (8, 8), (10, 10), (12, 1), (20, 20)]


def test_older_rnd_attribute_and_rndnum_preferred() -> None:
    assert parse_content(img("(dice20)", rnd="7")).dice == (PlatformDie(20, 7, "(dice20)"),)
    both = img("(dice20)", rndnum="5", rnd="9")
    assert parse_content(both).dice[0].value == 5


@pytest.mark.parametrize(
    "attrs", [{}, {"rndnum": ""}, {"rndnum": "21"}, {"rndnum": "0"}, {"rndnum": "x"}]
)
def test_missing_or_impossible_value_is_unreadable_never_guessed(attrs: dict[str, str]) -> None:
    rolls = parse_content(".r " + img("(dice20)", **attrs))
    assert rolls.dice == ()
    assert rolls.unreadable == ("(dice20)",)


def test_token_left_as_text_is_unreadable() -> None:
    rolls = parse_content("@dicebot .r (dice20)+3 and " + img("(dice6)", rndnum="2"))
    assert rolls.unreadable == ("(dice20)",)
    assert rolls.dice == (PlatformDie(6, 2, "(dice6)"),)


def test_digit_run_first_alt_names_it_following_alt_empty() -> None:
    content = (
        "roll "
        + img("(dice10-3)", rndnum="4")
        + img("", rndnum="0")
        + img("", rndnum="7")
        + " done"
    )
    rolls = parse_content(content)
    assert rolls.others == (EmoticonResult("digits", "(dice10-3)", "407"),)
    assert rolls.text == "roll (dice10-3) done"
    assert rolls.dice == ()


def test_digit_run_with_a_missing_digit_is_unreadable() -> None:
    content = img("(dice10-3)", rndnum="4") + img("") + img("", rndnum="7")
    assert parse_content(content).unreadable == ("(dice10-3)",)


def test_slot_run() -> None:
    content = img("(slot)", rndnum="7") + img("", rndnum="7") + img("", rndnum="3")
    assert parse_content(content).others == (EmoticonResult("slot", "(slot)", "773"),)


def test_other_random_emoticons_are_data() -> None:
    content = (
        img("(coin)", rndnum="1")
        + img("(bobei)", rndnum="2")
        + img("(lots)", rndnum="38")
        + img("(rock-paper-scissors)", rndnum="Paper")
    )
    rolls = parse_content(content)
    assert [(o.kind, o.value) for o in rolls.others] == [
        ("coin", "1"),
        ("bobei", "2"),
        ("lots", "38"),
        ("rps", "paper"),
    ]
    assert rolls.dice == () and rolls.unreadable == ()


def test_unknown_rps_value_and_valueless_coin_are_unreadable() -> None:
    rolls = parse_content(img("(rock-paper-scissors)", rndnum="lizard") + img("(coin)"))
    assert rolls.unreadable == ("(rock-paper-scissors)", "(coin)")


def test_smileys_entities_and_breaks_become_text() -> None:
    content = "a &amp; b &lt;c&gt;<br />" + img("(LOL)") + " line2"
    rolls = parse_content(content)
    assert rolls.text == "a & b <c>\n(LOL) line2"
    assert rolls.dice == rolls.unreadable == rolls.others == ()


def test_fake_server_rendering_roundtrip() -> None:
    content = render("@dicebot .r (dice20)+(dice)\n.ra 觀察 (dice20)", [17, 5, 2])
    rolls = parse_content(content)
    assert [(d.faces, d.value) for d in rolls.dice] == [(20, 17), (6, 5), (20, 2)]
    assert rolls.text == "@dicebot .r (dice20)+(dice)\n.ra 觀察 (dice20)"


def test_the_unconfirmed_points_are_small_functions() -> None:
    assert die_faces("(dice)") == 6 and die_faces("(DICE20)") == 20
    assert die_faces("(dice1)") is None and die_faces("(coin)") is None
    assert raw_value({"rndnum": " 3 ", "rnd": "4"}) == "3"
    assert raw_value({"rnd": "4"}) == "4" and raw_value({}) is None
    assert die_value("6", 6) == 6 and die_value("7", 6) is None and die_value(None, 6) is None
    assert run_start_kind("(dice10-3)") == "digits" and run_start_kind("(slot)") == "slot"
    assert run_start_kind("(dice20)") is None
    assert other_kind("(Coin)") == "coin" and other_kind("(dice20)") is None
    assert unrolled_tokens("@bot .r (dice20)+(dice) (coin) (LOL)") == (
        "(dice20)",
        "(dice)",
        "(coin)",
    )


@pytest.mark.parametrize("gap", [" ", "\n", "<br>", " <br/>\n"])
def test_whitespace_between_the_images_of_a_digit_run_keeps_the_run(gap: str) -> None:
    """Plurk's rendered HTML may put spaces or line breaks between the images of a
    run; only visible text ends a run (``parse_content``), so the run still reads
    as its three digits."""
    content = (
        img("(dice10-123)", rndnum="1") + gap + img("", rndnum="2") + "\n" + img("", rndnum="3")
    )
    rolls = parse_content(content)
    assert rolls.others == (EmoticonResult("digits", "(dice10-123)", "123"),)
    assert rolls.unreadable == ()
    assert rolls.dice == ()
    assert rolls.text == "(dice10-123)" + gap.replace("<br>", "\n").replace("<br/>", "\n") + "\n"


# ------------------------------------------------------------------ attributes and tokens
def test_an_empty_rndnum_falls_back_to_the_older_rnd_attribute() -> None:
    assert raw_value({"rndnum": " ", "rnd": " 5 "}) == "5"
    assert raw_value({"rndnum": "", "rnd": None}) is None
    html = '<img class="emoticon" alt="(dice6)" rndnum=" " rnd="5">'
    assert parse_content(html).dice == (PlatformDie(6, 5, "(dice6)"),)


def test_runs_and_other_random_emoticons_keep_their_token() -> None:
    assert parse_content("") == EmoticonRolls()
    assert parse_content(None) == EmoticonRolls()  # type: ignore[arg-type]
    # a run's first image may only name it; each following image is one digit
    digits = ('<img class="emoticon" alt="(digit)">'
              '<img class="emoticon" alt="" rndnum="4"><img class="emoticon" alt="" rndnum="2">')
    assert parse_content(digits).others == (EmoticonResult("digits", "(digit)", "42"),)
    coin = '<img class="emoticon" alt="(coin)" rndnum="1">'
    assert parse_content(coin) == EmoticonRolls(
        others=(EmoticonResult("coin", "(coin)", "1"),), text="(coin)")
