"""Game ids and viewer URLs: parsing, strict validation, the obfuscated-id decoding, dates."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenhou_tools.errors import InputError
from tenhou_tools.ids import (
    JST,
    GameRef,
    decode_obfuscated,
    game_start,
    is_log_id,
    parse_log_id,
    parse_ref,
    parse_viewer_url,
    require_ref,
    validate_log_id,
)

GAME = "2014102312gm-00c1-0000-afb21fa5"

TABLE = (
    22136, 52719, 55146, 42104, 59591, 46934, 9248, 28891, 49597, 52974, 62844, 4015,
    18311, 50730, 43056, 17939, 64838, 38145, 27008, 39128, 35652, 63407, 65535, 23473,
    35164, 55230, 27536, 4386, 64920, 29075, 42617, 17294, 18868, 2081,
)  # fmt: skip


# -- plain ids --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        GAME,
        "2009090100gm-00a9-0000-6920f1ac",
        "2012060420gm-0009-10011-acfd4b57",  # a 5-digit lobby
        "20141023gm-00c1-0000-afb21fa5",  # an 8-digit date (yakuman lists)
    ],
)
def test_canonical_ids_are_accepted_unchanged(text):
    assert parse_log_id(text) == text
    assert validate_log_id(text) == text
    assert parse_ref(text) == GameRef(text, None)
    assert is_log_id(text)


def test_typed_id_is_stripped_and_lower_cased():
    assert parse_log_id(f"  {GAME.upper()}\n") == GAME
    assert parse_ref(" 2014102312GM-00C1-0000-AFB21FA5 ") == GameRef(GAME)


def test_date_type_and_lobby_from_the_id():
    ref = GameRef(GAME)
    assert ref.date == datetime(2014, 10, 23, 12, tzinfo=JST)
    assert ref.type_code == 0xC1 and ref.lobby == 0
    assert GameRef("2012060420gm-0009-10011-acfd4b57").lobby == 10011
    assert game_start("20141023gm-00c1-0000-afb21fa5") == datetime(2014, 10, 23, 0, tzinfo=JST)


def test_the_start_of_a_game_is_read_from_its_id_alone():
    """One reading for the engine (the rules of the day), the replay view and stats' filters:
    the id's leading date and hour; nothing for what does not start with a possible date."""
    assert game_start(GAME) == datetime(2014, 10, 23, 12, tzinfo=JST)
    assert game_start("2014102312gm-00a9-0000-afb21fa5_copy") == datetime(2014, 10, 23, 12, tzinfo=JST)
    assert [game_start(t) for t in (None, "", "one_hand", "2014gm", "20141332gm-00a9-0000-afb21fa5",
                                    "2014022912gm-00a9-0000-afb21fa5")] == [None] * 6


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("2014102312gm-00c1-0000-afb21fa", "the key must be 8 hex digits, or x and 12 hex digits"),
        ("2014102312gm-00c1-0000-afb21fa55", "the key must be 8 hex digits"),
        ("2014102312gm-00g1-0000-afb21fa5", "the type TTTT must be 4 hex digits"),
        ("2014102312gm-00c1-000-afb21fa5", "the lobby LLLL must be 4 or 5 digits"),
        ("2014102312gm-00c1-00a0-afb21fa5", "the lobby LLLL must be 4 or 5 digits"),
        ("201410231gm-00c1-0000-afb21fa5", "the date must be YYYYMMDDHH (or YYYYMMDD)"),
        ("2014102312gm-00c1-0000", "expected three parts after gm-"),
        ("2014102312gm-00c1-0000-afb21fa5-00", "expected three parts after gm-"),
        ("2014102312gm_00c1_0000_afb21fa5", "expected YYYYMMDDHHgm-TTTT-LLLL-KKKKKKKK"),
    ],
)
def test_malformed_ids_say_what_is_wrong(text, hint):
    with pytest.raises(InputError) as err:
        parse_log_id(text)
    message = str(err.value)
    assert message.startswith(f"not a Tenhou game id: {text!r}")
    assert hint in message and "\n" not in message


@pytest.mark.parametrize(
    "text",
    [
        "2014133112gm-00c1-0000-afb21fa5",  # month 13
        "2014023012gm-00c1-0000-afb21fa5",  # 30 February
        "2014102325gm-00c1-0000-afb21fa5",  # hour 25
    ],
)
def test_impossible_dates_are_rejected(text):
    with pytest.raises(InputError, match="impossible date"):
        parse_log_id(text)


@pytest.mark.parametrize(
    "text",
    [
        "2014102312gm-00c1-0000-afb21fa5/../../etc/passwd",
        "2014102312gm-00c1-0000-afb21fa5?x=1",
        "2014102312gm-00c1-0000-afb21fa5&tw=1",
        "2014102312gm-00c1-0000-afb21fa5#frag",
        "2014102312gm-00c1-0000-afb21fa5%2f..",
        "2014102312gm-00c1-0000-afb21fa5 x",
        "2014102312gm-00c1-0000-afb2\n1fa5",
        "2014102312gm-00c1-0000-afb21fa5\x00",
        "..\\2014102312gm-00c1-0000-afb21fa5",
        "2014102312gm-00c1-0000-../../aa",
        "２014102312gm-00c1-0000-afb21fa5",  # a full-width digit: \\d would have matched it
        "2014102312gm-00c1-0000-afb21fa٥",  # an Arabic-Indic five
    ],
)
def test_nothing_unsafe_passes_as_an_id(text):
    with pytest.raises(InputError):
        parse_log_id(text)
    with pytest.raises(InputError):
        validate_log_id(text)
    assert not is_log_id(text)


def test_validate_accepts_only_the_canonical_form():
    for text in (GAME.upper(), f" {GAME}", f"{GAME}\n", "2016062415gm-0089-0000-x52645f60d396", 42, None):
        with pytest.raises(InputError):
            validate_log_id(text)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        GameRef("../etc/passwd")
    with pytest.raises(InputError, match="seat 4 is not 0-3"):
        GameRef(GAME, 4)


def test_error_messages_stay_one_line_and_short():
    with pytest.raises(InputError) as err:
        parse_log_id("2014102312gm-" + "a\n" * 500)
    message = str(err.value)
    assert "\n" not in message and len(message) < 300


# -- obfuscated ids ---------------------------------------------------------------------------


def test_obfuscated_id_worked_example():
    # MJLOG.md §1.3 example. a, b, c = 0x5264, 0x5f60, 0xd396; i = 3062415 % (33 - 5) = 27;
    # T[27] = 4386 = 0x1122, T[28] = 64920 = 0xfd98;
    # w1 = 0x5264 ^ 0x5f60 ^ 0x1122 = 0x1c26; w2 = 0x5f60 ^ 0xd396 ^ 0x1122 ^ 0xfd98 = 0x604c.
    obfuscated = "2016062415gm-0089-0000-x52645f60d396"
    assert decode_obfuscated(obfuscated) == "2016062415gm-0089-0000-1c26604c"
    assert parse_log_id(obfuscated) == "2016062415gm-0089-0000-1c26604c"
    assert parse_ref(obfuscated.upper()) == GameRef("2016062415gm-0089-0000-1c26604c")


def test_obfuscated_ids_up_to_2010041111_use_index_0():
    # i = 0: w1 = a ^ b ^ T[0], w2 = b ^ c ^ T[0] ^ T[1]
    a, b, c = 0x1234, 0xABCD, 0x0F0F
    key = f"x{a:04x}{b:04x}{c:04x}"
    w1, w2 = a ^ b ^ TABLE[0], b ^ c ^ TABLE[0] ^ TABLE[1]
    for date in ("2009081723", "2010041111"):
        assert decode_obfuscated(f"{date}gm-0029-0000-{key}") == f"{date}gm-0029-0000-{w1:04x}{w2:04x}"
    # One hour later the index depends on the date: 3041112 % (33 - 2) = 12 (31 * 98100 = 3041100)
    i = 3041112 % 31
    assert i == 12
    expected = f"{a ^ b ^ TABLE[i]:04x}{b ^ c ^ TABLE[i] ^ TABLE[i + 1]:04x}"
    assert decode_obfuscated(f"2010041112gm-0029-0000-{key}") == f"2010041112gm-0029-0000-{expected}"


@given(
    month=st.integers(1, 12), day=st.integers(1, 28), hour=st.integers(0, 23),
    year=st.integers(2011, 2030), w1=st.integers(0, 0xFFFF), w2=st.integers(0, 0xFFFF),
    a=st.integers(0, 0xFFFF),
)  # fmt: skip
def test_obfuscation_round_trip(year, month, day, hour, w1, w2, a):
    """Obfuscating a key as the spec describes (any first word) decodes back to it."""
    date = f"{year:04d}{month:02d}{day:02d}{hour:02d}"
    i = int("3" + date[4:10]) % (33 - int(date[9]))
    b = w1 ^ a ^ TABLE[i]
    c = w2 ^ b ^ TABLE[i] ^ TABLE[i + 1]
    obfuscated = f"{date}gm-00a9-0000-x{a:04x}{b:04x}{c:04x}"
    real = f"{date}gm-00a9-0000-{w1:04x}{w2:04x}"
    assert parse_log_id(obfuscated) == real
    assert validate_log_id(real) == real


def test_obfuscated_ids_need_a_10_digit_date():
    with pytest.raises(InputError, match="needs a 10-digit date"):
        parse_log_id("20160624gm-0089-0000-x52645f60d396")


def test_plain_ids_pass_decode_unchanged():
    assert decode_obfuscated(GAME) == GAME


# -- viewer URLs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "seat"),
    [
        (f"https://tenhou.net/0/?log={GAME}&tw=2", 2),
        (f"https://tenhou.net/3/?log={GAME}&tw=0", 0),
        (f"https://tenhou.net/6/?log={GAME}&tw=3&ts=4", 3),
        (f"http://tenhou.net/0/?log={GAME}", None),
        (f"https://www.tenhou.net/0/?tw=1&log={GAME}", 1),
        (f"HTTPS://Tenhou.NET/5/?log={GAME}&tw=1&tj=7", 1),
        (f"tenhou.net/0/?log={GAME}&tw=1", 1),
        (f"  https://tenhou.net/0/?log={GAME}&tw=1\n", 1),
    ],
)
def test_viewer_urls(url, seat):
    assert parse_ref(url) == GameRef(GAME, seat)


def test_viewer_url_with_an_obfuscated_id():
    url = "https://tenhou.net/0/?log=2016062415gm-0089-0000-x52645f60d396&tw=1"
    assert parse_viewer_url(url) == GameRef("2016062415gm-0089-0000-1c26604c", 1)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (f"https://tenhou.net/0/?log={GAME}&tw=4", "tw='4' in the URL is not a seat 0-3"),
        (f"https://tenhou.net/0/?log={GAME}&tw=-1", "is not a seat 0-3"),
        (f"https://tenhou.net/0/?log={GAME}&tw=", "is not a seat 0-3"),
        (f"https://tenhou.net/0/?log={GAME}&tw=1&tw=2", "more than one tw="),
        (f"https://tenhou.net/0/?log={GAME}&log={GAME}", "more than one log="),
        ("https://tenhou.net/0/?tw=1", "no log= parameter"),
        (f"https://evil.example/0/?log={GAME}", "not a tenhou.net viewer URL"),
        (f"https://tenhou.net.evil.example/0/?log={GAME}", "not a tenhou.net viewer URL"),
        (f"https://user@tenhou.net/0/?log={GAME}", "not a tenhou.net viewer URL"),
        (f"https://tenhou.net:8080/0/?log={GAME}", "not a tenhou.net viewer URL"),
        (f"https://tenhou.net/0/log/?log={GAME}", "not a tenhou.net viewer URL"),
        (f"https://tenhou.net/0/../../?log={GAME}", "not a tenhou.net viewer URL"),
        (f"ftp://tenhou.net/0/?log={GAME}", "not a tenhou.net viewer URL"),
        (f"https://tenhou.net/0/?log={GAME}%2F..%2Fx", "not a Tenhou game id"),
        (f"https://tenhou.net/0/?log={GAME}%0a", "not a Tenhou game id"),
        ("https://tenhou.net/0/?log=2014102312gm-00c1-0000-afb21fa&tw=1", "not a Tenhou game id"),
        (f"https://tenhou.net/0/?log={GAME} &tw=1", "not a tenhou.net viewer URL"),
    ],
)
def test_bad_viewer_urls(url, message):
    with pytest.raises(InputError) as err:
        parse_ref(url)
    assert message in str(err.value) and "\n" not in str(err.value)


# -- neither: a path ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "fixtures/one_hand.xml",
        "one_hand.mjlog",
        f"{GAME}.mjlog",  # a file named after a game: a path
        f"logs/{GAME}",
        f"./{GAME}",
        "corpus.db",
        "-",
    ],
)
def test_paths_are_neither(text):
    assert parse_ref(text) is None
    with pytest.raises(InputError, match="not a Tenhou game id or viewer URL"):
        require_ref(text)
