"""The offline HTML statistics page (``stats PATHS --html FILE``): the file, the CLI's writes and
exit codes, and the page in a real headless Chromium (tests/browser.py).

The browser tests load the page ``stats --html`` writes for the logs of
``tests/stats_page_games.py``; what the page shows is compared with the planned games (ranks in
date order, Ann's dan and rate at each game) and with the objects ``stats --format json`` prints
(the page embeds the members it draws, packed as columns: ``tests/stats_page_document.py`` reads
them back).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli
from tenhou_tools.documents.stats import PAGE_COLUMNS
from tenhou_tools.rounding import fixed
from tenhou_tools.serialize import visible
from tenhou_tools.views import html as html_view
from tenhou_tools.views.stats_html import stats_page

from .browser import browser, open_page, requests  # noqa: F401 - the fixture is found by name
from .conftest import FIXTURES, corpus_files, stats_summary
from .stats_page_document import DATA_RE, as_on_the_page, embedded, leaves_only, page_matches_json, page_players
from .stats_page_games import ANN, HOSTILE, IMG, planned, write_logs


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[Path]:
    """The planned games as files named by game id, and the 3-player fixture (no id: no date)."""
    folder = tmp_path_factory.mktemp("stats-page")
    paths = write_logs(folder / "logs")
    shutil.copy(FIXTURES / "sanma_kita.xml", folder / "sanma_kita.xml")
    return [*paths, folder / "sanma_kita.xml"]


@pytest.fixture(scope="module")
def players(logs) -> list[dict]:
    result = run("stats", *map(str, logs), "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def page(tmp_path_factory, logs) -> Path:
    out = tmp_path_factory.mktemp("stats-html") / "stats.html"
    result = run("stats", *map(str, logs), "--html", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def document(page) -> dict:
    return embedded(page.read_text(encoding="utf-8"))


def row_index(document: dict, name: str, size: int) -> int:
    (index,) = [i for i, p in enumerate(page_players(document)) if p["name"] == name and p["players"] == size]
    return index


# -- the file and the CLI ------------------------------------------------------------------------------


def test_cli_writes_the_page_of_the_json_report(logs, players, tmp_path):
    out = tmp_path / "stats.html"
    result = run("stats", *map(str, logs), "--html", str(out))
    assert result.exit_code == 0
    assert result.stdout == ""
    size = out.stat().st_size
    summary, (written,) = stats_summary(result.stderr)
    assert re.fullmatch(rf"stats: {len(logs)} logs read in [0-9.]+ s \([0-9]+ games/s\); 0 unreadable; "
                        rf"{len(logs)} games and {len(players)} player rows reported\.", summary)
    assert written == f"{out}: stats page, {size:,} bytes"
    doc = embedded(out.read_text(encoding="utf-8"))
    page_matches_json(doc, players)  # the figures --format json prints
    assert doc["set"]["games"] == sum(p["games"] for p in players)
    assert sorted(doc["set"]["by_players"]) == sorted({str(p["players"]) for p in players})
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_cli_html_with_player_lobby_and_db(logs, players, tmp_path):
    out = tmp_path / "ann.html"
    assert run("stats", *map(str, logs), "--player", "ann", "--lobby", "houou", "--html", str(out)).exit_code == 0
    doc = embedded(out.read_text(encoding="utf-8"))
    assert [(p["name"], p["players"]) for p in page_players(doc)] == [(ANN, 4), (ANN, 3)]
    db = tmp_path / "stats.sqlite"
    assert run("stats", *map(str, logs), "--db", str(db), "--format", "json").exit_code == 0
    assert run("stats", "--db", str(db), "--html", str(out)).exit_code == 0
    page_matches_json(embedded(out.read_text(encoding="utf-8")), players)


def test_cli_html_refuses_a_missing_folder_and_keeps_files_on_error(logs, tmp_path):
    missing = tmp_path / "no" / "stats.html"
    result = run("stats", *map(str, logs), "--html", str(missing))
    other = run("stats", *map(str, logs), "-o", str(tmp_path / "no" / "stats.txt"))
    assert result.exit_code == 2 and other.exit_code == 2
    assert result.stderr == f"Error: cannot write '{missing}': the folder '{missing.parent}' does not exist\n"
    assert not missing.parent.exists()
    out = tmp_path / "stats.html"
    out.write_text("old")
    result = run("stats", str(tmp_path / "nothing-here"), "--html", str(out))
    assert result.exit_code == 2 and out.read_text() == "old"
    result = run("stats", *map(str, logs), "--html", str(out), "-o", str(tmp_path / "r.txt"))
    assert result.exit_code == 2 and "--html FILE is the report" in result.stderr
    assert out.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["stats.html"]


def test_cli_html_to_stdout(logs):
    result = run("stats", *map(str, logs[:2]), "--html", "-")
    assert result.exit_code == 0 and result.stdout.startswith("<!DOCTYPE html>")
    assert [p["games"] for p in page_players(embedded(result.stdout))] == [2, 2, 2, 2]


@pytest.fixture(scope="module")
def unreadable_page(tmp_path_factory) -> tuple[Path, list[str]]:
    """``stats --html`` of two logs and two that cannot be read, one of them named with markup and
    a bidi control: the page, and the logs the text report names as unreadable on stderr."""
    folder = tmp_path_factory.mktemp("stats-unreadable")
    cut = (FIXTURES / "truncated.mjlog").read_bytes()
    bad = [folder / "cut.mjlog", folder / "<img src=x onerror=alert(1)>\u202e.xml"]
    bad[0].write_bytes(cut)
    bad[1].write_bytes(b"")  # an empty file
    out = folder / "stats.html"
    result = run("stats", str(FIXTURES / "one_hand.xml"), str(FIXTURES / "sanma_kita.xml"), *map(str, bad),
                 "--html", str(out), "--jobs", "1")
    assert result.exit_code == 1  # logs could not be read: the page covers the others
    summary, others = stats_summary(result.stderr)
    assert "; 2 unreadable; " in summary
    named = [line.removeprefix("  unreadable: ") for line in others if line.startswith("  unreadable: ")]
    assert len(named) == 2 and "\\u202e" in named[1] and "\u202e" not in named[1]  # shown as its escape
    return out, named


def test_the_page_document_names_the_unreadable_logs(unreadable_page):
    out, named = unreadable_page
    inputs = embedded(out.read_text(encoding="utf-8"))["inputs"]
    assert (inputs["read"], inputs["unreadable"]) == (2, 2)
    assert [visible(message) for message in inputs["unreadable_examples"]] == named  # the data, as it is


def test_the_page_shows_the_logs_that_could_not_be_read(browser, unreadable_page):
    """The page says how the logs were read, in the text report's words, and names each log that
    could not be read as the text report does: as text, a hidden character as its escape."""
    out, named = unreadable_page
    open_page(browser, out)
    shown = browser.execute_script(
        "return [document.getElementById('inputs-summary').innerText, document.getElementById('unreadable').hidden,"
        " [...document.querySelectorAll('#unreadable-logs li')].map((li) => li.textContent),"
        " document.querySelectorAll('#unreadable-logs li *').length]")
    assert shown == ["4 logs read; 2 unreadable.", False, named, 0]


def test_a_page_of_readable_logs_names_none(browser, page, logs):
    open_page(browser, page)
    shown = browser.execute_script(
        "return [document.getElementById('inputs-summary').innerText, document.getElementById('unreadable').hidden]")
    assert shown == [f"{len(logs)} logs read; 0 unreadable.", True]


def test_page_policy_and_no_address_to_load_from(page):
    text = page.read_text(encoding="utf-8")
    (policy,) = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text)
    directives = dict(d.strip().split(" ", 1) for d in policy.replace("&#x27;", "'").split(";"))
    assert directives["default-src"] == "'none'" and directives["connect-src"] == "'none'"
    scripts = re.findall(r"<script>(.*?)</script>", text, re.S)
    styles = re.findall(r"<style>(.*?)</style>", text, re.S)
    assert len(scripts) == 1 and len(styles) == 1
    assert directives["script-src"] == html_view._sha256(scripts[0])
    assert directives["style-src"] == html_view._sha256(styles[0])
    # The only http(s) addresses are the SVG namespace (a name, never fetched) and the one in a
    # player's name, which is inside the JSON, escaped.
    outside_data = DATA_RE.sub("", text)
    assert re.findall(r"https?://[^\s'\"]*", outside_data) == ["http://www.w3.org/2000/svg"]
    assert "https://example.com/x.png" in DATA_RE.findall(text)[0]
    assert not re.search(r"(src|href)=\"(https?:)?//", outside_data)
    assert "@import" not in styles[0] and "url(" not in styles[0]


def test_hostile_names_cannot_end_the_data_element(page, document):
    text = page.read_text(encoding="utf-8")
    assert text.count("</script>") == 2 and text.lower().count("<script") == 2
    assert "<!--" not in text and "<img" not in text and "<b>" not in text
    assert embedded(text) == json.loads(json.dumps(document))


def test_static_files_cannot_break_out_of_their_elements():
    script = html_view.asset("stats.js").lower()
    assert "</script" not in script and "<script" not in script and "<!--" not in script
    assert "</style" not in html_view.asset("stats.css").lower()
    for marker in ("@@CSP@@", "@@TITLE@@", "@@STYLE@@", "@@STATS@@", "@@SCRIPT@@"):
        assert html_view.asset("stats.html").count(marker) == 1


def test_the_page_document_is_compact(document, players):
    """The page embeds the members its script draws and nothing else, each row a list in the
    order of the document's columns (no key repeated per row or per game), not the JSON objects
    (issue 34, item 10: 24.9 MB for the corpus)."""
    assert "players" not in document
    assert document["columns"] == {k: list(v) for k, v in PAGE_COLUMNS.items()}
    row_columns = document["columns"]["row"]
    assert all(len(row) == len(row_columns) for row in document["rows"]) and len(document["rows"]) == len(players)
    assert leaves_only(document["rows"])
    history = row_columns.index("history")
    assert all(len(row[history]) == len(document["columns"]["history"]) for row in document["rows"])
    # every column is read by the script, and none is a member of the JSON that it never reads
    script = html_view.asset("stats.js")
    reads = lambda name: re.search(rf"\.{name}\b|'{name}'", script)  # noqa: E731
    for name in {c for cols in document["columns"].values() for c in cols}:
        # an interval is read as p[key + '_ci'] beside its value
        assert reads(name) or (name.endswith("_ci") and reads(name[:-3]) and "+ '_ci'" in script), name
    for unused in ("counters", "yaku", "riichi_outcomes", "wins", "avg_win_points", "tsumo_share", "bust_rate"):
        assert unused not in row_columns and not re.search(rf"\.{unused}\b|'{unused}'", script)
    # a fraction of the JSON report's size, most of it the history
    page_bytes = len(json.dumps(document, ensure_ascii=False, separators=(",", ":")))
    json_bytes = len(json.dumps(players, ensure_ascii=False, separators=(",", ":")))
    assert page_bytes * 5 < json_bytes, (page_bytes, json_bytes)


def test_the_page_figures_follow_the_planned_games(document):
    ann = page_players(document)[row_index(document, ANN, 4)]
    plan = sorted((g for g in planned() if g.players == 4), key=lambda g: g.log_id)
    assert [h["rank"] for h in ann["history"]] == [g.ann_rank for g in plan]
    assert [h["dan"] for h in ann["history"]] == [g.dan for g in plan]
    assert [h["rate"] for h in ann["history"]] == [g.rate for g in plan]
    assert sum(t["games"] for t in ann["tables"]) == ann["games"] == len(plan)
    assert ann["latest"] == {"date": "2023-01-15", "dan": plan[-1].dan, "dan_name": "六段", "rate": plan[-1].rate}
    assert [h["when"] for h in ann["history"]] == [f"20{g.log_id[2:4]}-{g.log_id[4:6]}-{g.log_id[6:8]}" for g in plan]


# -- in the browser ------------------------------------------------------------------------------------

DOM = r"""
const q = (sel) => [...document.querySelectorAll(sel)];
const chart = (key) => document.querySelector('#player [data-chart="' + key + '"]');
const out = {name: document.getElementById('player-name').textContent,
             player: document.body.getAttribute('data-player'), charts: {}};
for (const c of q('#player [data-chart]')) out.charts[c.dataset.chart] = {missing: c.dataset.missing === '1',
  text: c.textContent};
out.bars = q('#player [data-chart="rank-distribution"] rect.bar').map((b) => [Number(b.dataset.rank),
  Number(b.dataset.count)]);
out.dots = q('#player [data-chart="rank-history"] circle.game').map((c) => Number(c.dataset.rank));
const colour = (e, what) => getComputedStyle(e)[what];
out.bar_colours = q('#player [data-chart="rank-distribution"] rect.bar').map((b) => colour(b, 'fill'));
out.key_colours = q('#player [data-chart="rank-distribution"] .legend li:first-child .swatch')
  .map((s) => colour(s, 'backgroundColor'));
const line = (key) => {
  const p = chart(key) && chart(key).querySelector('path');
  return p ? Number(p.dataset.points) : 0;
};
out.rate_points = line('rate-history');
out.dan_points = line('dan-history');
out.dan_marks = chart('dan-history') ? chart('dan-history').querySelectorAll('circle.point').length : 0;
out.rates = q('#player g.rate-row').map((g) => g.dataset.key);
out.kinds = q('#player g.kind-row').map((g) => [g.dataset.kind, Number(g.dataset.games),
  g.querySelector('rect') ? Number(g.querySelector('rect').dataset.value) : null]);
out.options = q('#player-select option').map((o) => o.textContent);
out.markup = q('#player b, #player img, header b, header img, img').length;
out.scroll = [document.documentElement.scrollWidth, document.documentElement.clientWidth];
return out;
"""


def shown(driver) -> dict:
    return driver.execute_script(DOM)


def check_player(driver, row: dict) -> dict:
    """What every player's page must show from its JSON object (``stats --format json``): the
    script's unpacked row holds the JSON's values, and the charts draw them."""
    got = shown(driver)
    unpacked = driver.execute_script("return TenhouStats.row(TenhouStats.current())")
    assert unpacked == as_on_the_page(row, unpacked)
    assert got["name"] == (row["name"] or "(no name)")
    assert got["bars"] == [[r, n] for r, n in enumerate(row["rank_counts"], 1)]
    assert len(got["bars"]) == row["players"]
    assert got["key_colours"] == got["bar_colours"]  # the legend's key shows each rank's bar colour
    assert len(set(got["bar_colours"])) == row["players"]
    history = row.get("history")
    if history:
        assert got["dots"] == [h["rank"] for h in history]
        assert got["rate_points"] == sum(1 for h in history if h["rate"] is not None)
        assert got["dan_points"] == sum(1 for h in history if h["dan"] is not None)
    else:
        for key in ("rank-history", "rate-history", "dan-history"):
            assert got["charts"][key]["missing"] and "not in this report" in got["charts"][key]["text"]
    tables = row.get("tables")
    if tables:
        assert [k[1] for k in got["kinds"]] == [t["games"] for t in tables]
        assert [k[2] for k in got["kinds"]] == [t["stable_dan"] for t in tables]
    else:
        assert got["charts"]["stable-dan"]["missing"]
    last = f"rank{row['players']}_rate"
    assert got["rates"] == ["win_rate", "deal_in_rate", "riichi_rate", "call_rate", "rank1_rate", last]
    assert not got["charts"]["rank-distribution"]["missing"] and not got["charts"]["rates"]["missing"]
    assert got["markup"] == 0
    return got


@pytest.mark.parametrize("size", [4, 3])
def test_a_players_charts(browser, page, document, players, size):
    index = row_index(document, ANN, size)
    open_page(browser, page, f"player={index}")
    row = players[index]
    got = check_player(browser, row)
    plan = sorted((g for g in planned() if g.players == size), key=lambda g: g.log_id)
    assert got["dots"] == [g.ann_rank for g in plan]
    assert got["player"] == str(index)
    shown = browser.execute_script("return document.body.innerText + ' ' + [...document.querySelectorAll('svg')]"
                                   ".map(s => s.textContent).join(' ')")
    assert "undefined" not in shown and "NaN" not in shown  # no missing value printed (issue 34, item 9)
    if size == 3:  # Ann 1st, 3rd, 2nd in houou East-South (+135 / 0 / -15·(d+2)): 9·1/1 - 2 = 7
        assert [k[0] for k in got["kinds"]] == ["3p houou East-South"]
        assert [k[2] for k in got["kinds"]] == [7]
    else:
        assert [k[0] for k in got["kinds"]] == ["4p houou East-South", "4p houou East"]


def test_the_picker_switches_players(browser, page, document, players):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_page(browser, page)
    names = [p["name"] or "(no name)" for p in players]
    got = shown(browser)
    assert [o.split(" · ")[0] for o in got["options"]] == names
    select = Select(browser.find_element(By.ID, "player-select"))
    for index in (row_index(document, ANN, 3), row_index(document, "Alice", 3), 0):
        select.select_by_value(str(index))
        check_player(browser, players[index])
        assert browser.execute_script("return location.hash") == f"#player={index}"
    # the filter narrows the list and shows the first row that matches
    box = browser.find_element(By.ID, "player-filter")
    box.send_keys("ＡＮＮ")  # full width: matched as the text report's --player matches
    got = shown(browser)
    assert got["options"] == [o for o in got["options"] if o.startswith("Ann ·")] and len(got["options"]) == 2
    assert got["name"] == ANN


def test_hostile_names_render_as_text(browser, page, document, players):
    for name in (HOSTILE, IMG):
        index = row_index(document, name, 4)
        open_page(browser, page, f"player={index}")
        got = check_player(browser, players[index])
        assert got["name"] == name
        assert any(o.startswith(name + " · ") for o in got["options"])
        assert browser.execute_script("return document.scripts.length") == 2
        assert browser.execute_script("return window.pwned") is None


@pytest.mark.parametrize("width", [375, 1280])
def test_no_horizontal_scroll(browser, page, document, width):
    for index in range(len(document["rows"])):
        open_page(browser, page, f"player={index}", width=width)
        scroll, client = shown(browser)["scroll"]
        assert scroll <= client, (width, index, scroll, client)


def test_no_request_leaves_the_page(browser, page, document):
    open_page(browser, page)
    browser.execute_script("TenhouStats.show(1); TenhouStats.show(2)")
    assert requests(browser) == [page.resolve().as_uri()]
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_a_report_without_the_figures_degrades(browser, document, players, tmp_path):
    """A document without the per-game figures (an older report's shape): the charts of the
    counters, and a line in place of each chart whose members are absent."""
    figures = ("tables", "latest", "history", "rate_change_per_game", "play_quality")
    keep = [i for i, c in enumerate(document["columns"]["row"]) if c not in figures]
    plain = dict(document, columns=dict(document["columns"], row=[document["columns"]["row"][i] for i in keep]),
                 rows=[[row[i] for i in keep] for row in document["rows"]])
    rows = [{k: v for k, v in p.items() if k not in figures} for p in players]
    out = tmp_path / "plain.html"
    out.write_text(stats_page(plain), encoding="utf-8")
    for index in (0, len(rows) - 1):
        open_page(browser, out, f"player={index}", width=375)
        got = check_player(browser, rows[index])
        assert got["scroll"][0] <= got["scroll"][1]


def test_the_set_is_every_player_of_the_games_even_with_player(logs, tmp_path):
    """``--player`` keeps one row, but the row is compared with every player of the games read:
    over every four-player game each place is taken once, so the set's shares are a quarter each."""
    for extra in ((), ("--db", str(tmp_path / "stats.sqlite"))):
        out = tmp_path / "ann.html"
        assert run("stats", *map(str, logs), "--player", "ann", *extra, "--html", str(out)).exit_code == 0
        doc = embedded(out.read_text(encoding="utf-8"))
        four = doc["set"]["by_players"]["4"]
        assert four["over"] == "every player" and four["rows"] == 1
        ann = next(p for p in page_players(doc) if p["players"] == 4)
        assert four["games"] > ann["games"]
        assert four["rank_rates"] == [0.25, 0.25, 0.25, 0.25] and four["avg_rank"] == 2.5


def test_the_page_says_what_the_set_is(browser, page):
    open_page(browser, page)
    summary = browser.find_element("id", "set-summary").text
    assert summary.endswith(" · the set averages are over every player of the games read, per table size.")


KIND_ROWS = r"""
const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const svg = document.querySelector('g.kind-row').ownerSVGElement;
return {layout: svg.getAttribute('data-layout'), rows: [...document.querySelectorAll('g.kind-row')].map((g) => ({
  label: box(g.querySelector('text.kind-label')),
  others: [...g.querySelectorAll('rect, text:not(.kind-label)')].map(box),
}))};
"""


@pytest.fixture(scope="module")
def kinds_page(tmp_path_factory, logs) -> Path:
    """The planned games and, for Ann, a private lobby game and two Tokujou East-only games: four
    table kinds, the longest label "4p lobby:1234 East-South · 1 game" with an undefined value."""
    from .test_stats_figures import game, gid

    folder = tmp_path_factory.mktemp("stats-kinds")
    (folder / f"{gid(12, 12, '00a9', '1234')}.xml").write_text(game(["Ann", "Bob", "Cat", "Dov"], lobby=1234))
    (folder / f"{gid(13, 13, '0021')}.xml").write_text(game(["Bob", "Ann", "Cat", "Dov"], go_type=0x21, dans=(13,) * 4))
    (folder / f"{gid(14, 14, '0021')}.xml").write_text(game(["Dov", "Bob", "Cat", "Ann"], go_type=0x21, dans=(13,) * 4))
    out = folder / "stats.html"
    result = run("stats", *map(str, logs), str(folder), "--html", str(out))
    assert result.exit_code == 0, result.output
    return out


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize(("width", "layout"), [(1280, "beside"), (1024, "beside"), (390, "above")])
def test_stable_dan_labels_never_run_into_their_bars(browser, kinds_page, width, layout):
    """Each table kind's label is measured as drawn: beside the bars it ends before them (at a
    desktop width), on a phone it goes above them; it never overlaps its bar, its value or
    "undefined"."""
    document = embedded(kinds_page.read_text(encoding="utf-8"))
    index = row_index(document, ANN, 4)
    assert len(page_players(document)[index]["tables"]) == 4
    open_page(browser, kinds_page, f"player={index}", width=width)
    drawn = browser.execute_script(KIND_ROWS)
    assert drawn["layout"] == layout and len(drawn["rows"]) == 4
    for row in drawn["rows"]:
        assert row["others"] and not any(_overlap(row["label"], other) for other in row["others"]), row


STABLE_AXIS = """
const box = (node) => node.getBoundingClientRect();
const card = document.querySelector('[data-chart="stable-dan"]');
return {bars: [...card.querySelectorAll('rect.stable-bar')].map((r) => box(r).left),
        axis: Math.min(...[...card.querySelectorAll('g.grid line')].map((l) => box(l).left)),
        header: [...document.querySelectorAll('table.kinds th')].map((th) => box(th).height),
        cell: box(document.querySelector('table.kinds td')).height};
"""


@pytest.mark.parametrize("width", [1280, 1024, 390])
def test_the_stable_dan_bars_start_on_their_axis(browser, kinds_page, width):
    """Each bar starts at the axis's left edge (its least value, 3級 = -2), never left of it (the
    bars started at -2 while the axis began at 0); the table kinds' header is one line, as high as
    a row of figures."""
    document = embedded(kinds_page.read_text(encoding="utf-8"))
    open_page(browser, kinds_page, f"player={row_index(document, ANN, 4)}", width=width)
    shown = browser.execute_script(STABLE_AXIS)
    assert len(shown["bars"]) == 3 and all(left >= shown["axis"] - 0.5 for left in shown["bars"]), shown
    assert all(abs(left - shown["axis"]) <= 0.5 for left in shown["bars"]), shown  # from the axis's origin
    if width == 1280:
        assert all(abs(height - shown["cell"]) <= 1 for height in shown["header"]), shown


def test_the_page_shows_the_play_quality_figures(browser, logs, tmp_path):
    """With ``--quality`` the page shows the agreement with the analysis among the rates and the
    loss rate and the points given up a discard in words (issue 33), as the JSON has them."""
    out = tmp_path / "quality.html"
    assert run("stats", *map(str, logs), "--quality", "--html", str(out)).exit_code == 0
    doc = embedded(out.read_text(encoding="utf-8"))
    index, player = next((i, p) for i, p in enumerate(page_players(doc)) if p.get("play_quality"))
    quality = player["play_quality"]
    open_page(browser, out, f"player={index}", width=1280)
    note = browser.execute_script("return (document.querySelector('.quality-note') || {}).textContent || ''")
    assert note == (f"Play quality: losses (✗) on {fixed(100 * quality['loss_rate'], 1)} % of {quality['discards']} "
                    f"discards, {fixed(quality['mean_cost'], 1)} points of expected value given up a discard "
                    "against the analysis's top pick.")  # as the text report shows them (rounding.py)
    labels = browser.execute_script("return document.body.textContent")
    assert "Agreement (top pick)" in labels


@pytest.mark.corpus
def test_a_corpus_page_shows_the_json_figures(corpus, browser, tmp_path):
    """Over a sample of the corpus (every eighth log): the page's document, read back in Python and
    by the page's script, holds every row's figures as ``--format json`` prints them, packed (no
    object in its rows), and the rows with the most games draw them."""
    files = [str(p) for p in corpus_files("mjlog")[::8]]
    result = run("stats", *files, "--format", "json", "--no-progress")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    out = tmp_path / "stats.html"
    assert run("stats", *files, "--html", str(out), "--no-progress").exit_code == 0
    document = embedded(out.read_text(encoding="utf-8"))
    page_matches_json(document, rows)
    assert leaves_only(document["rows"])
    open_page(browser, out)
    unpacked = browser.execute_script("return Array.from({length: TenhouStats.count}, (_, i) => TenhouStats.row(i))")
    assert len(unpacked) == len(rows)
    for got, row in zip(unpacked, rows, strict=True):
        assert got == as_on_the_page(row, got), row["name"]
    three = next(i for i, row in enumerate(rows) if row["players"] == 3)
    for index in (0, 1, three):
        browser.execute_script("TenhouStats.show(arguments[0])", index)
        check_player(browser, rows[index])


def test_a_player_of_one_game_sees_it_on_the_dan_chart(browser, logs, tmp_path):
    """A step line of one point draws nothing: the one game is marked (the rate chart marks
    every game anyway)."""
    out = tmp_path / "one.html"
    assert run("stats", str(logs[0]), "--html", str(out)).exit_code == 0
    open_page(browser, out, "player=0")
    got = shown(browser)
    assert got["dan_points"] == 1 and got["dan_marks"] == 1
