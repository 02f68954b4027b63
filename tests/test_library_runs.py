"""The library's run loops, without the CLI: ``validate.validate_paths`` and
``stats.collect.collect_stats`` own the runner, the store and Ctrl-C; they print nothing."""

from __future__ import annotations

import pytest

from tenhou_tools.check import GameRecord, check_log
from tenhou_tools.errors import InputError
from tenhou_tools.mjlog import parse_game
from tenhou_tools.stats import game_counters
from tenhou_tools.stats.collect import collect_stats
from tenhou_tools.stats.store import StatsStore
from tenhou_tools.validate import NoLogsFound, ValidateStart, ValidateSummary, validate_paths

from .conftest import FIXTURES
from .stats_games import game_a, game_b

ID_A = "2020010112gm-00a9-0000-0000000a"
ID_B = "2021060112gm-00a9-0000-0000000b"
LOGS = ["one_hand.xml", "sanma_kita.xml", "truncated.mjlog"]


@pytest.fixture
def logs(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in LOGS:
        (folder / name).write_bytes((FIXTURES / name).read_bytes())
    return folder


def expected_records(folder) -> list[dict]:
    return [check_log((folder / name).read_bytes(), path=str(folder / name)).to_json()
            for name in sorted(LOGS)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_validate_paths_yields_a_start_the_records_in_order_and_a_summary(logs, capfd, jobs):
    items = list(validate_paths([logs], jobs=jobs, batch_size=1))
    start, *records, end = items
    assert start == ValidateStart(3)
    assert [r.to_json() for r in records] == expected_records(logs)
    assert isinstance(end, ValidateSummary) and end.interrupted is False
    assert (end.summary.games, end.summary.ok, end.summary.failed) == (3, 2, 1)
    assert end.to_json()["findings_by_code"] == {"PARSE_ERROR": 1}
    assert end.sources.items == 3 and end.sources.errors == 0
    assert capfd.readouterr() == ("", "")  # the library prints nothing


def test_ctrl_c_in_the_caller_is_thrown_in_and_the_summary_covers_what_was_handed_out(logs):
    run = validate_paths([logs], jobs=1)
    assert isinstance(next(run), ValidateStart)
    first = next(run)
    assert isinstance(first, GameRecord)
    end = run.throw(KeyboardInterrupt)
    assert isinstance(end, ValidateSummary) and end.interrupted is True
    assert end.summary.games == 1 and end.to_json()["interrupted"] is True
    with pytest.raises(StopIteration):
        next(run)


def test_ctrl_c_inside_the_run_ends_it_with_an_interrupted_summary(logs, monkeypatch):
    import tenhou_tools.validate as validate

    real = validate.iter_logs

    def cut(*args, **kwargs):
        items = real(*args, **kwargs)
        yield next(items)
        raise KeyboardInterrupt

    monkeypatch.setattr(validate, "iter_logs", cut)
    *records, end = list(validate_paths([logs], jobs=1))[1:]
    assert len(records) == 1 and end.interrupted is True and end.summary.games == 1


def test_inputs_without_logs_and_missing_paths_are_typed_errors(tmp_path):
    (tmp_path / "readme.txt").write_text("not a log")
    with pytest.raises(NoLogsFound) as caught:
        next(validate_paths([tmp_path]))
    assert caught.value.ignored == 1 and caught.value.rows_without_log == 0
    with pytest.raises(InputError, match="no such file or directory"):
        next(validate_paths([tmp_path / "missing"]))


def test_collect_stats_sums_each_players_counters(tmp_path):
    (tmp_path / f"{ID_A}.xml").write_bytes(game_a())
    (tmp_path / f"{ID_B}.xml").write_bytes(game_b())
    (tmp_path / "broken.mjlog").write_bytes((FIXTURES / "truncated.mjlog").read_bytes())
    started, seen = [], []
    result = collect_stats([tmp_path], total=3, jobs=1, on_start=lambda: started.append(1),
                           on_record=lambda done, skipped, summary: seen.append((done, skipped)))
    want: dict = {}
    for data in (game_a(), game_b()):
        for key, counters in game_counters(parse_game(data)).items():
            want[key] = want[key] + counters if key in want else counters
    assert result.totals == want and result.interrupted is False
    assert (result.summary.read, result.summary.unreadable, result.summary.found) == (2, 1, 3)
    assert started == [1] and seen == [(1, 0), (2, 0), (3, 0)]


def test_collect_stats_into_a_store_is_consistent_after_ctrl_c(tmp_path, monkeypatch):
    import tenhou_tools.stats.collect as collect

    monkeypatch.setattr(collect, "FLUSH_RECORDS", 1)
    (tmp_path / f"{ID_A}.xml").write_bytes(game_a())
    (tmp_path / f"{ID_B}.xml").write_bytes(game_b())

    def stop_after_first(done, skipped, summary):
        if done == 1:
            raise KeyboardInterrupt

    store = StatsStore(tmp_path / "s.sqlite", create=True)
    try:
        result = collect_stats([tmp_path], total=2, store=store, jobs=1, on_record=stop_after_first)
        assert result.interrupted is True and result.summary.added == 1
        assert store.game_count() == 1
        again = collect_stats([tmp_path], total=2, store=store, jobs=1)  # resumed: the other game
        assert again.interrupted is False and (again.summary.added, again.summary.known) == (1, 1)
        assert store.game_count() == 2
    finally:
        store.close()
