"""The second reading of an emoticon die from its face's image (faces.py).

No face of Plurk's dice could be verified, so the shipped table is empty and these tests
use a fixture table whose file names are obviously made up: the mechanism is what is
tested — an image confirms or questions ``rndnum``, never overrules it, and gives the
value only when ``rndnum`` is missing and the file names one face without ambiguity."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from adapters.config import Settings
from adapters.plurk.emoticons import parse_content
from adapters.plurk.faces import (
    FACE_IMAGES,
    face_in_image,
    face_table,
    image_name,
    read_face_file,
)
from adapters.plurk.listener import face_images_of
from adapters.plurk.settings import PlurkSettings
from bot.messages import PlatformDie
from tests.adapters.plurk.fake_plurk import FakePlurk, render
from tests.adapters.plurk.test_plurk_listener import ALICE, Bot, plurk_settings
from tests.support import NoMoreDice

FIXTURE = {  # made-up names: no real file is known for sure
    "fixture-d20-13.png": [20, 13],
    "fixture-d20-7.png": [20, 7],
    "fixture-d6-2.png": [6, 2],
}


def fixture_table() -> dict[str, tuple[int, int]]:
    return face_table((name, size, face) for name, (size, face) in FIXTURE.items())


def test_no_face_ships_until_one_is_verified() -> None:
    assert FACE_IMAGES == {}


def test_a_file_named_for_two_faces_names_none() -> None:
    # the plurk-dice error: one file for d20 faces 9 and 11
    table = face_table([("same.png", 20, 9), ("same.png", 20, 11), ("same.png", 20, 12),
                        ("Nine.PNG", 20, 9), ("nine.png", 20, 9), ("bad.png", 6, 7)])
    assert table == {"nine.png": (20, 9)}


def test_image_name_and_die_size() -> None:
    table = fixture_table()
    assert image_name("https://s.plurk.com/Fixture-D20-13.png?v=2") == "fixture-d20-13.png"
    assert image_name(None) is None and image_name("") is None
    assert face_in_image("https://s.plurk.com/fixture-d20-13.png", 20, table) == 13
    assert face_in_image("https://s.plurk.com/fixture-d20-13.png", 12, table) is None
    assert face_in_image("https://s.plurk.com/unknown.png", 20, table) is None


def test_the_face_file_is_checked(tmp_path: Path) -> None:
    good = tmp_path / "faces.json"
    good.write_text(json.dumps(FIXTURE), encoding="utf-8")
    assert read_face_file(good) == fixture_table()
    for bad in ('["x.png"]', '{"x.png": [20]}', '{"x.png": ["20", 3]}', "{"):
        good.write_text(bad, encoding="utf-8")
        with pytest.raises(ValueError):
            read_face_file(good)
    missing = PlurkSettings(face_images_file=tmp_path / "missing.json")
    assert face_images_of(missing) == FACE_IMAGES  # logged; the dice still read by rndnum


def test_rndnum_is_trusted_and_a_disagreement_is_listed() -> None:
    content = render("(dice20) (dice20) (dice)", [7, 13, 2],
                     images=["fixture-d20-13.png", "fixture-d20-13.png", "fixture-d6-2.png"])
    rolls = parse_content(content, fixture_table())
    assert [d.value for d in rolls.dice] == [7, 13, 2]
    assert rolls.disagreements == ("(dice20)",) and rolls.from_image == ()


def test_a_missing_rndnum_is_read_from_a_known_image_only() -> None:
    content = render("(dice20) (dice) (dice12)", [],
                     images=["fixture-d20-13.png", "fixture-d20-7.png", "fixture-d6-2.png"])
    rolls = parse_content(content, fixture_table())
    assert rolls.dice == (PlatformDie(faces=20, value=13, token="(dice20)"),)
    assert rolls.from_image == ("(dice20)",)
    assert rolls.unreadable == ("(dice)", "(dice12)")  # a d20's file, a file of no d12
    assert parse_content(content).unreadable == ("(dice20)", "(dice)", "(dice12)")


# -- through the adapter, the real client against the fake Plurk ------------------------


@pytest.fixture
def settings(tmp_path: Path, fake: FakePlurk) -> Settings:
    fake.add_user(ALICE, "alice", "Alice")
    faces = tmp_path / "faces.json"
    faces.write_text(json.dumps(FIXTURE), encoding="utf-8")
    return Settings(_env_file=None, data_dir=tmp_path,
                    plurk=plurk_settings(fake, face_images_file=faces))


async def test_a_die_without_rndnum_is_read_from_its_image_and_the_reply_says_so(
        fake: FakePlurk, settings: Settings) -> None:
    bot = await Bot(fake, settings, dice=NoMoreDice()).start()  # the bot rolls nothing
    try:
        pid = fake.add_plurk(ALICE, "thread")
        raw = "@dicebot .r (dice20)+3"
        fake.add_response(pid, ALICE, raw, render(raw, [], images=["fixture-d20-13.png"]))
        await fake.wait_for_posts(1)
        await bot.settle()
        await bot.resync()  # read again: answered once, noted once
    finally:
        await bot.close()
    [reply] = fake.posts_in(pid)
    note, result = reply.split("\n", 1)
    assert "（dice20）" in note and "骰面圖" in note
    assert "16" in result and "13" in result


async def test_an_image_that_disagrees_is_logged_without_content_and_rndnum_kept(
        fake: FakePlurk, settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    bot = await Bot(fake, settings, dice=NoMoreDice()).start()
    try:
        pid = fake.add_plurk(ALICE, "thread")
        raw = "@dicebot .r (dice20)+3 祕密的話"
        with caplog.at_level(logging.WARNING, logger="adapters.plurk"):
            rid = fake.add_response(pid, ALICE, raw,
                                    render(raw, [7], images=["fixture-d20-13.png"]))
            await fake.wait_for_posts(1)
            await bot.settle()
    finally:
        await bot.close()
    [reply] = fake.posts_in(pid)
    assert "10" in reply and "16" not in reply and "骰面圖" not in reply
    [line] = [r.getMessage() for r in caplog.records if "rndnum" in r.getMessage()]
    assert f"r{rid}" in line and "祕密" not in line and "dicebot" not in line
