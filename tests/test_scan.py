"""The fast reader of Tenhou's XML subset (``mjlog.scan``) against lxml, the judge.

Whatever the document, parsing it through ``scan()`` must give exactly what parsing it through
lxml gives: the same ``Game``, or the same ``ParseError``. ``scan()`` may decline a document (lxml
then reads it), but it must never accept one that lxml reads differently or rejects.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from tenhou_tools.errors import ParseError
from tenhou_tools.mjlog._parse import parse_xml_game
from tenhou_tools.mjlog.read import decompress
from tenhou_tools.mjlog.scan import scan

from .conftest import FIXTURES, corpus_files, corpus_root, genuine_files
from .fuzzing.logs import MUTATIONS
from .genuine_logs import genuine_logs_read

ONE_HAND = (FIXTURES / "one_hand.xml").read_bytes()


def outcome(xml: bytes, fast: bool) -> tuple[str, object]:
    try:
        return "game", parse_xml_game(xml, "doc", None, True, fast)
    except ParseError as exc:
        return "error", str(exc)


def assert_same(xml: bytes) -> None:
    assert outcome(xml, True) == outcome(xml, False)


def real_xml(path: Path) -> bytes:
    return decompress(path.read_bytes())


# -- documents inside and outside the subset -----------------------------------------------------


def test_fixture_is_in_the_subset():
    result = scan(ONE_HAND)
    assert result is not None
    root, items = result
    assert root == {"ver": "2.3"}
    assert [tag for tag, _ in items[:3]] == ["GO", "UN", "TAIKYOKU"]
    assert outcome(ONE_HAND, True)[0] == "game"


def edit(old: bytes, new: bytes, count: int = 1) -> bytes:
    assert old in ONE_HAND
    return ONE_HAND.replace(old, new, count)


def first_tag(name: bytes) -> bytes:
    """The first ``<NAME .../>`` element of the fixture, as written."""
    start = ONE_HAND.index(b"<" + name + b" ")
    return ONE_HAND[start: ONE_HAND.index(b"/>", start) + 2]


GO = first_tag(b"GO")

# (name, document, does scan() read it?) - every one must parse the same both ways
CASES = [
    ("whitespace between elements and inside tags",
     edit(GO, GO[:-2].replace(b" ", b"\n  ") + b" />\r\n\t"), True),
    ("single-quoted attribute", edit(GO, GO.replace(b'"', b"'")), True),
    ("'>' inside a value", edit(GO, GO[:-2] + b' note="a>b"/>'), True),
    ("spaces around '='", edit(GO, GO.replace(b"=", b" = ")), True),
    ("an apostrophe inside a double-quoted value", edit(GO, GO[:-2] + b' x="it\'s"/>'), True),
    ("a name with a dot and a dash", edit(GO, GO[:-2] + b' x.y-z="1"/>'), True),
    ("an element with no attributes", edit(GO, b"<X/>" + GO), True),
    ("a tile tag beyond tile 135", edit(GO, b"<T200/>" + GO), True),
    ("DEL character in a value", edit(GO, GO[:-2] + b' x="a\x7fb"/>'), False),
    ("whitespace after the root's end", ONE_HAND + b"\n\n", True),
    ("XML declaration", b'<?xml version="1.0" encoding="UTF-8"?>' + ONE_HAND, False),
    ("declaration naming Shift_JIS", b'<?xml version="1.0" encoding="Shift_JIS"?>' + ONE_HAND, False),
    ("byte-order mark", b"\xef\xbb\xbf" + ONE_HAND, False),
    ("whitespace before the root", b"\n \t\r\n" + ONE_HAND, True),
    ("text before the root", b"x" + ONE_HAND, False),
    ("comment", edit(GO, b"<!-- a comment -->" + GO), False),
    ("comment hiding a tag", edit(GO, b"<!-- <T5/> -->" + GO), False),
    ("CDATA", edit(GO, b"<![CDATA[<x>]]>" + GO), False),
    ("processing instruction", edit(GO, b"<?pi data?>" + GO), False),
    ("entity reference in a value", edit(GO, GO[:-2] + b' x="a&amp;b"/>'), False),
    ("character reference in a value", edit(GO, GO[:-2] + b' x="&#65;"/>'), False),
    ("undefined entity", edit(GO, GO[:-2] + b' x="&nope;"/>'), False),
    ("bare ampersand", edit(GO, GO[:-2] + b' x="a&b"/>'), False),
    ("tab inside a value (normalised to a space)", edit(GO, GO[:-2] + b' x="a\tb"/>'), False),
    ("newline inside a value", edit(GO, GO[:-2] + b' x="a\nb"/>'), False),
    ("non-ASCII name", edit(b'n0="', "n0=\"名".encode()), False),
    ("control character", edit(GO, GO[:-2] + b' x="a\x01b"/>'), False),
    ("NUL byte", edit(GO, GO[:-2] + b' x="a\x00b"/>'), False),
    ("duplicate attribute", edit(GO, GO[:-2] + b' type="9"/>'), False),
    ("no space between attributes", edit(GO, GO[:-2] + b'x="1"/>'), False),
    ("unquoted value", edit(GO, GO[:-2] + b" x=1/>"), False),
    ("namespaced name", edit(GO, GO[:-2] + b' a:b="1"/>'), False),
    ("very long tag name", edit(GO, b"<" + b"X" * 60000 + b"/>" + GO), False),
    ("nested element", edit(GO, b"<X><T5/></X>" + GO), False),
    ("empty element written as start and end tag", edit(GO, GO[:-2] + b"></GO>"), False),
    ("text between elements", edit(GO, b"text" + GO), False),
    ("'<' inside a value", edit(GO, GO[:-2] + b' x="a<b"/>'), False),
    ("self-closing root", b'<mjloggm ver="2.3"/>', False),
    ("another root", ONE_HAND.replace(b"mjloggm", b"mjlog"), False),
    ("no end tag", ONE_HAND[: ONE_HAND.rindex(b"</mjloggm>")], False),
    ("junk after the end tag", ONE_HAND + b"<T5/>", False),
    ("second root", ONE_HAND + ONE_HAND, False),
    ("truncated in a tag", ONE_HAND[: len(ONE_HAND) // 2], False),
    ("empty document", b"", False),
    ("only whitespace", b"  \n", False),
    ("unclosed tag", edit(GO, GO[:-2]), False),
    ("mismatched end tag", ONE_HAND.replace(b"</mjloggm>", b"</mjlog>"), False),
]


@pytest.mark.parametrize("name,xml,read", CASES, ids=[c[0] for c in CASES])
def test_scan_declines_what_it_cannot_vouch_for(name, xml, read):
    assert (scan(xml) is not None) is read
    assert_same(xml)


def test_a_draw_tag_with_an_attribute_is_reported_both_ways():
    xml = edit(b"<T100/>", b'<T100 x="1"/>')
    assert scan(xml) is not None
    kind, game = outcome(xml, True)
    assert kind == "game"
    assert any("unknown attribute 'x'" in w for w in game.warnings)
    assert_same(xml)


def test_scan_keeps_attribute_order_and_values():
    _root, items = scan(edit(GO, GO[:-2] + b" b='x\"y' a=\"\" c='>'/>"))
    attrs = next(a for tag, a in items if tag == "GO")
    assert list(attrs)[-3:] == ["b", "a", "c"]
    assert (attrs["b"], attrs["a"], attrs["c"]) == ('x"y', "", ">")


# -- real and damaged logs ----------------------------------------------------------------------


def test_fixtures_parse_the_same_both_ways():
    paths = [p for p in sorted(FIXTURES.iterdir()) if p.suffix in (".mjlog", ".xml")]
    assert paths
    for path in paths:
        try:
            xml = real_xml(path)
        except ParseError:  # a damaged gzip stream: no XML to compare
            continue
        assert_same(xml)


@pytest.mark.corpus  # every log of the corpus: a long run
@pytest.mark.xdist_group("genuine_logs")
def test_every_corpus_log_is_read_by_scan_and_parses_the_same(corpus):
    """Every genuine log is in the subset ``scan`` reads, and the game the public reader gives
    (``read_game``: through ``scan``) is the one lxml alone gives (``genuine_logs_read``)."""
    reads = genuine_logs_read()
    assert [r.name for r in reads] == [p.name for p in genuine_files()] != []
    assert [r.name for r in reads if not r.in_subset] == [], "Tenhou logs outside the subset"
    assert [r.name for r in reads if not r.same_as_lxml] == []


def test_broken_corpus_logs_parse_the_same_both_ways(corpus):
    paths = sorted(p for p in (corpus_root() / "broken").rglob("*") if p.suffix in (".xml", ".mjlog", ".gz"))
    assert paths
    for path in paths:
        try:
            xml = real_xml(path)
        except ParseError:
            continue
        assert_same(xml)


def test_fuzz_mutated_logs_parse_the_same_both_ways(corpus):
    rng = random.Random(20261121)
    seeds = [real_xml(p) for p in corpus_files()[::97]] + [ONE_HAND]
    names = sorted(MUTATIONS)
    for i in range(600):
        xml = MUTATIONS[names[i % len(names)]](rng.choice(seeds), rng)
        assert_same(xml)


def test_gzip_input_goes_through_the_same_reader():
    from tenhou_tools.mjlog import parse_game

    assert parse_game(gzip.compress(ONE_HAND)) == parse_game(ONE_HAND)


@pytest.mark.parametrize("piece,expected", [
    ('N who="1" m="2" />', ("N", {"who": "1", "m": "2"})),
    ('INIT seed="0,1"/>', ("INIT", {"seed": "0,1"})),
    ("T24/>\n", ("T24", {})),
    ("X />", ("X", {})),
    ('A b="it\'s > 1"/>', ("A", {"b": "it's > 1"})),
    ('A b=""/>', ("A", {"b": ""})),
    ('GO type="1"x="2"/>', None),  # no space between attributes: left to the grammar
    ('A b="1" />x', None),  # text after the tag
    ('A  b="1"/>', None),  # two spaces: legal, left to the grammar
    ('A b = "1"/>', None),
    ("A b='1'/>", None),
    ('A b="1" b="2"/>', None),  # a repeated name
    ('A b="x&amp;y"/>', None),
    ('A b="tab\there"/>', None),
    ('A b="1"', None),
    ('A b="1/>', None),
    ('A x.y="1"/>', None),
    ('1A b="1"/>', None),
])
def test_the_simple_element_path(piece, expected):
    from tenhou_tools.mjlog.scan import simple_element

    assert simple_element(piece) == expected
