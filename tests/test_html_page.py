"""The HTML replay page as a file (no browser): what it embeds, its policy, the CLI's writes."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli
from tenhou_tools.documents.seat import seat_view
from tenhou_tools.views import html as html_view

from .conftest import FIXTURES, corpus_files

GAME_RE = re.compile(r'<script type="application/json" id="tenhou-tools-game">(.*?)</script>', re.S)


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def embedded(page: str) -> dict:
    (text,) = GAME_RE.findall(page)
    return json.loads(text)


def test_embed_json_cannot_close_the_element():
    value = {"name": "</script><script>alert(1)</script>", "c": "<!-- x -->", "a": "&amp;", "l": "a\u2028b\u2029"}
    text = html_view.embed_json(value)
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == value


def test_page_embeds_the_replay_json_document(tmp_path):
    out = tmp_path / "one.html"
    result = run("replay", str(FIXTURES / "one_hand.xml"), "--html", str(out), "--seat", "1")
    assert result.exit_code == 0
    assert result.stdout == ""
    size = out.stat().st_size
    assert result.stderr == f"{out}: replay page, {size:,} bytes\n"
    page = out.read_text(encoding="utf-8")
    doc = json.loads(run("replay", str(FIXTURES / "one_hand.xml"), "--format", "json", "--seat", "1").stdout)
    assert "analysis" not in doc
    # the page holds the JSON document plus the analysis: what --format json --analysis prints,
    # as seat 1 sees it (documents.seat); without --seat, all of it
    with_analysis = json.loads(run("replay", str(FIXTURES / "one_hand.xml"), "--format", "json", "--seat", "1",
                                   "--analysis").stdout)
    assert with_analysis == {**doc, "analysis": with_analysis["analysis"]}
    assert embedded(page) == seat_view(with_analysis, 1)
    whole = embedded(run("replay", str(FIXTURES / "one_hand.xml"), "--html", "-").stdout)
    assert whole == {**with_analysis, "viewer": None}
    discards = with_analysis["analysis"]["discards"]
    assert [(d["hand"], d["event_index"], d["seat"]) for d in discards] == [(0, 1, 0), (0, 3, 1)]
    assert discards[1]["deal_in"] == {"discarder": 1, "winner": 0, "tile": 134, "kind": 33, "waits": [17, 33],
                                      "riichi": False, "open": False, "points": 48000,
                                      "tile_class": None}  # 99p 77z: a shanpon; dama: no class
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>fixtures/one_hand.xml · tenhou-tools replay</title>" in page.replace(str(FIXTURES), "fixtures")


def test_policy_allows_only_the_pages_own_script_and_style(tmp_path):
    out = tmp_path / "one.html"
    run("replay", str(FIXTURES / "one_hand.xml"), "--html", str(out))
    page = out.read_text(encoding="utf-8")
    (policy,) = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    directives = dict(d.strip().split(" ", 1) for d in policy.replace("&#x27;", "'").split(";"))
    assert directives["default-src"] == "'none'"
    for name in ("connect-src", "img-src", "font-src", "frame-src", "object-src", "base-uri", "form-action"):
        assert directives[name] == "'none'", name
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert len(scripts) == 1 and len(styles) == 1

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert directives["script-src"] == digest(scripts[0])
    assert directives["style-src"] == digest(styles[0])
    # nothing in the page names another place to load from
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "@import" not in styles[0] and "url(" not in styles[0]


def test_the_page_is_the_same_whatever_the_log_text(tmp_path):
    """A hostile name is escaped in the JSON and the title; the page's markup around it does not change."""
    from .tamper import elements, nth, serialize, xml_of

    root, kids = elements(xml_of(FIXTURES / "one_hand.xml"))
    nth(kids, "UN").set("n0", "%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    hostile = tmp_path / "<script>&.xml"
    hostile.write_bytes(serialize(root))
    out = tmp_path / "hostile.html"
    assert run("replay", str(hostile), "--html", str(out)).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert page.count("</script>") == 2  # the game's element and the page's script
    assert page.lower().count("<script") == 2
    title = str(tmp_path).replace("&", "&amp;") + "/&lt;script&gt;&amp;.xml"
    assert f"<title>{title} · tenhou-tools replay</title>" in page
    assert embedded(page)["header"]["players"][0]["name"] == "</script><script>alert(1)</script>"


def test_html_replaces_a_file_atomically_and_keeps_it_on_error(tmp_path):
    out = tmp_path / "page.html"
    out.write_text("old")
    assert run("replay", str(FIXTURES / "one_hand.xml"), "--html", str(out)).exit_code == 0
    assert out.read_text().startswith("<!DOCTYPE html>")
    out.write_text("old")
    result = run("replay", str(FIXTURES / "one_hand.xml"), "--html", str(out), "--hand", "S4-0")
    assert result.exit_code == 2 and "no hand 'S4-0'" in result.stderr
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]  # no temporary file left


def test_html_to_a_missing_folder_is_a_one_line_error(tmp_path):
    """As for ``validate -o`` (the same atomic writer): one line, the same exit code."""
    result = run("replay", str(FIXTURES / "one_hand.xml"), "--html", str(tmp_path / "no" / "page.html"))
    other = run("validate", str(FIXTURES / "one_hand.xml"), "-o", str(tmp_path / "no" / "report.txt"))
    assert result.exit_code == other.exit_code and result.exit_code in (1, 2)
    assert result.stderr.count("\n") == 1 and "page.html" in result.stderr
    assert not (tmp_path / "no").exists()


def test_html_to_stdout_and_exit_code_follows_the_verdict(tmp_path):
    from .tamper import elements, nth, serialize, xml_of

    result = run("replay", str(FIXTURES / "sanma_kita.xml"), "--html", "-")
    assert result.exit_code == 0 and result.stdout.startswith("<!DOCTYPE html>") and result.stderr == ""
    root, kids = elements(xml_of(FIXTURES / "one_hand.xml"))
    nth(kids, "AGARI").set("ten", "50,36000,5")
    altered = tmp_path / "altered.xml"
    altered.write_bytes(serialize(root))
    result = run("replay", str(altered), "--html", str(tmp_path / "altered.html"))
    assert result.exit_code == 1
    doc = embedded((tmp_path / "altered.html").read_text(encoding="utf-8"))
    assert [f["code"] for f in doc["hands"][0]["findings"]] == ["AGARI_POINTS"]


def test_analysis_member_is_the_hook():
    page = html_view.replay_page({"type": "replay", "hands": []}, analysis={"discards": []})
    assert embedded(page)["analysis"] == {"discards": []}
    # a document that already carries its analysis keeps it
    page = html_view.replay_page({"type": "replay", "hands": [], "analysis": {"discards": [1]}})
    assert embedded(page)["analysis"] == {"discards": [1]}
    assert embedded(html_view.replay_page({"type": "replay", "hands": []}))["analysis"] is None


def test_static_files_cannot_break_out_of_their_elements():
    script = html_view.script("replay").lower()
    assert "</script" not in script and "<script" not in script and "<!--" not in script
    assert "</style" not in html_view.asset("replay.css").lower()
    for marker in ("@@CSP@@", "@@TITLE@@", "@@STYLE@@", "@@GAME@@", "@@SCRIPT@@"):
        assert html_view.asset("replay.html").count(marker) == 1


def test_every_script_file_is_a_part_of_one_page_in_order():
    """Every .js file of views/static/ is a part of exactly one page's script (none left out of
    the page), but the shared part, which begins both; and the replay page's own parts join into
    one function: the first opens it, the last closes it and starts the page."""
    static = Path(html_view.__file__).parent / "static"
    shared = html_view.SHARED_SCRIPT
    assert all(parts[0] == shared for parts in html_view.SCRIPTS.values())
    parts = [part for parts in html_view.SCRIPTS.values() for part in parts[1:]]
    assert sorted([shared, *parts]) == sorted(p.name for p in static.glob("*.js"))
    first, *_, last = html_view.SCRIPTS["replay"][1:]
    assert "(function () {\n  \"use strict\";" in html_view.asset(first)
    assert html_view.asset(last).endswith('document.documentElement.setAttribute("data-ready", "1");\n})();\n')
    assert html_view.script("replay").count("(function () {") == 1


@pytest.mark.corpus
def test_the_largest_corpus_games_stay_under_the_size_budget(corpus, tmp_path):
    """The biggest four-player East-South games (by events) make pages well under 1.5 MB."""
    files = [p for p in corpus_files("mjlog") if "00a9" in p.name]
    biggest = sorted(files, key=lambda p: p.stat().st_size)[-3:]
    for path in biggest:
        out = tmp_path / "page.html"
        assert run("replay", str(path), "--html", str(out)).exit_code == 0
        assert out.stat().st_size < 1_500_000, (path.name, out.stat().st_size)


def test_the_demo_game_is_verified_by_the_engine():
    from tenhou_tools.check import check_log

    from .demo_game import demo_hand

    record = check_log(demo_hand(), path="demo.xml")
    assert record.findings == () and record.hands == 1
