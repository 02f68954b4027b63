"""``--player`` names: compared after NFKC and case folding, with suggestions for a miss."""

from __future__ import annotations

import pytest

from tenhou_tools.stats.names import NameMatcher, name_key, suggest


@pytest.mark.parametrize(("a", "b"), [
    ("Naga", "naga"),
    ("Ｎａｇａ", "naga"),  # full-width Latin letters
    ("ＮＡＧＡ１２３", "naga123"),  # and digits
    ("ｱｶｷﾞ", "アカギ"),  # half-width katakana, with a separate voicing mark
    ("Straße", "STRASSE"),  # case folding, not just lower()
    (" Naga ", "Naga"),
])
def test_names_that_match(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(("a", "b"), [("Naga", "Nagi"), ("あかぎ", "アカギ"), ("Naga", "Na ga")])
def test_names_that_do_not(a, b):
    assert name_key(a) != name_key(b)


def test_matcher_keeps_the_names_as_written_and_knows_what_it_missed():
    m = NameMatcher(["alice", "ＢＯＢ", "Zed"])
    assert [n for n in ["Alice", "ALICE", "Bob", "Carol", "bob"] if m.matches(n)] == ["Alice", "ALICE", "Bob", "bob"]
    assert m.matched() == ["ALICE", "Alice", "Bob", "bob"]
    assert m.unmatched() == ["Zed"]
    m.see(["Zeb", "Ned"])
    assert m.suggestions("Zed") == ["Zeb", "Ned"]
    assert not NameMatcher(None).wanted and NameMatcher(None).matches("anyone")


def test_suggestions_are_by_key_and_few():
    names = ["Alice", "ａｌｉｃｅ", "Alicia", "Alina", "Bob"]
    assert suggest("alcie", names) == ["Alice", "ａｌｉｃｅ", "Alicia"]
    assert suggest("zzzz", names) == []


def test_short_and_partly_typed_names_get_suggestions():
    """A two-character name one character off (a wrong kanji) and a name typed in part."""
    names = ["太郎", "花子", "Naga", "Nanami", "Bob"]
    assert suggest("太朗", names) == ["太郎"]
    assert suggest("na", names) == ["Naga", "Nanami"]
    assert suggest("NAG", names) == ["Naga"]
    assert suggest("  ", names) == []
