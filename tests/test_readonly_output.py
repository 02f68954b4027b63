"""Output into a folder that cannot be written: one clear line, the documented exit code, and no
file, partial or temporary, left behind; an older file there is kept as it was.

The tests run as root, which ignores permission bits, so a read-only folder is made in ways that
hold for root too, each checked with a probe before it is used:

- ``immutable``: ``chattr +i`` on the folder (ext4, xfs, btrfs; needs CAP_LINUX_IMMUTABLE);
- ``read-only mount``: the command runs in a private mount namespace (``unshare -m``) where the
  folder is bind-mounted read-only (needs CAP_SYS_ADMIN);
- ``unprivileged user``: the command runs as ``nobody`` (setuid/setgid in a preexec function) on
  a folder of mode 0555 owned by root (needs the interpreter and the package to be readable by
  ``nobody``, which a Python under /root is not).

Each test runs with every method that works here and is skipped, with the reason, for the others;
when none works, all are skipped. Commands run in a subprocess (``python -m tenhou_tools``).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .conftest import FIXTURES
from .fuzzing.downloads import check_cache
from .fuzzing.server import FuzzServer, Plan, fuzz_game_id
from .fuzzing.store import stats_database

ONE_HAND = FIXTURES / "one_hand.xml"
NOBODY = 65534
METHODS = ("immutable", "read-only mount", "unprivileged user")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.update(NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", TENHOU_TOOLS_DEBUG="1")
    return env


class Unwritable:
    """A folder the commands run by ``run`` cannot write to, made by ``method``."""

    def __init__(self, method: str, folder: Path):
        self.method = method
        self.folder = folder
        self._undo: list = []

    def setup(self) -> str | None:
        """Make the folder unwritable; ``None`` when it worked, else why not."""
        if self.method == "immutable":
            if shutil.which("chattr") is None:
                return "no chattr"
            done = subprocess.run(["chattr", "+i", str(self.folder)], capture_output=True, text=True)
            if done.returncode:
                return f"chattr +i failed: {done.stderr.strip()}"
            self._undo.append(["chattr", "-i", str(self.folder)])
        elif self.method == "unprivileged user":
            if os.geteuid() != 0:
                return "not root: the folder's mode alone would do, but this method switches from root"
            self.folder.chmod(0o555)
            try:
                probe = self.run("--version")
            except OSError as exc:  # the interpreter itself cannot be run
                return f"tenhou-tools cannot run as uid {NOBODY}: {exc}"
            if probe.returncode:
                return (f"tenhou-tools cannot run as uid {NOBODY} "
                        f"({(probe.stderr.strip().splitlines() or ['?'])[-1][:200]})")
        elif self.method == "read-only mount":
            if shutil.which("unshare") is None:
                return "no unshare"
        probe = self._probe()
        if probe is not None:
            return probe
        return None

    def _probe(self) -> str | None:
        """Writing a file into the folder must fail for the commands."""
        code = ("import sys, pathlib\n"
                "try:\n    pathlib.Path(sys.argv[1], '.probe').write_text('x')\n"
                "except OSError as exc:\n    print(exc.strerror); sys.exit(0)\n"
                "sys.exit(1)\n")
        done = self._spawn([sys.executable, "-c", code, str(self.folder)])
        if done.returncode:
            (self.folder / ".probe").unlink(missing_ok=True)
            return f"the folder was still writable ({done.stderr.strip()[-200:]})"
        self.reason = done.stdout.strip()  # what the system says: the message the commands show
        return None

    def _spawn(self, argv: list[str], **kw) -> subprocess.CompletedProcess:
        preexec = None
        if self.method == "read-only mount":
            argv = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                    'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"',
                    str(self.folder), *argv]
        elif self.method == "unprivileged user":
            def preexec():
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
        return subprocess.run(argv, capture_output=True, text=True, env=_env(), timeout=120,
                              preexec_fn=preexec, cwd="/", **kw)

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return self._spawn([sys.executable, "-m", "tenhou_tools", *map(str, args)])

    def cleanup(self) -> None:
        for argv in self._undo:
            subprocess.run(argv, check=False)
        if self.method == "unprivileged user":
            self.folder.chmod(0o755)


@pytest.fixture(params=METHODS)
def readonly(request, tmp_path):
    """A folder holding ``old.json`` (an earlier report) that the commands cannot write to.
    (For ``nobody`` it lies in a folder of its own under /tmp: pytest's are private to root.)"""
    base = tmp_path
    if request.param == "unprivileged user":
        base = Path(tempfile.mkdtemp(prefix="tenhou-readonly-"))
        base.chmod(0o755)
        request.addfinalizer(lambda: shutil.rmtree(base, ignore_errors=True))
    folder = base / "out"
    folder.mkdir()
    (folder / "old.json").write_text("the previous report\n")
    shutil.copy(FIXTURES / "one_hand.mjlog", folder / "log.mjlog")  # something to read there
    for name in ("old.json", "log.mjlog"):
        (folder / name).chmod(0o644)
    unwritable = Unwritable(request.param, folder)
    try:
        why = unwritable.setup()
        if why is not None:
            pytest.skip(f"{request.param}: {why}")
        unwritable.before = sorted(os.listdir(folder))
        yield unwritable
    finally:
        unwritable.cleanup()
    assert sorted(os.listdir(folder)) == ["log.mjlog", "old.json"]  # nothing left, nothing gone
    assert (folder / "old.json").read_text() == "the previous report\n"


def one_error_line(result: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("target", ["new.ndjson", "old.json"])
def test_validate_report(readonly, target):
    """A report that cannot be written is refused up front, a usage error (exit 2): a new one
    because its temporary file cannot be made in the folder; an older one that cannot be
    written itself (a read-only mount, another user's file) by the option's own check; in an
    immutable folder the file is writable, the folder is not."""
    out = readonly.folder / target
    result = readonly.run("validate", ONE_HAND, "--format", "ndjson", "-o", out)
    assert result.stdout == ""
    if target == "old.json" and readonly.method != "immutable":
        assert result.returncode == 2
        assert one_error_line(result) == (f"Error: Invalid value for '--output' / '-o': File {str(out)!r} "
                                          "is not writable.")
    else:
        assert result.returncode == 2
        assert result.stderr == (f"Error: cannot write {str(out)!r}: no file can be made in its folder "
                                 f"{str(readonly.folder)!r} ({readonly.reason})\n")


def test_stats_report(readonly):
    out = readonly.folder / "stats.json"
    result = readonly.run("stats", ONE_HAND, "--format", "json", "-o", out)
    assert result.returncode == 2
    assert one_error_line(result) == (f"Error: cannot write {str(out)!r}: no file can be made in its folder "
                                      f"{str(readonly.folder)!r} ({readonly.reason})")


def test_stats_database(readonly):
    """A new database cannot be made there (exit 2); one that is there cannot be added to (exit
    2, unchanged), but it can still be reported from."""
    new = readonly.folder / "new.sqlite"
    result = readonly.run("stats", ONE_HAND, "--db", new)
    assert result.returncode == 2
    assert one_error_line(result).startswith(f"Error: cannot open {str(new)!r}: ")
    # an existing database, made while the folder could be written
    readonly.cleanup()
    db = readonly.folder / "old.sqlite"
    stats_database([ONE_HAND.read_bytes()], db)
    db.chmod(0o644)
    assert readonly.setup() is None
    before = db.read_bytes()
    result = readonly.run("stats", FIXTURES / "sanma_kita.xml", "--db", db)
    assert result.returncode == 2
    line = one_error_line(result)
    assert line.startswith((f"Error: cannot write to {str(db)!r}: ", f"Error: cannot read {str(db)!r}: "))
    assert db.read_bytes() == before
    report = readonly.run("stats", "--db", db, "--format", "json")
    assert report.returncode == 0, report.stderr
    assert {row["name"] for row in json.loads(report.stdout)} == {"Alice", "Bob", "Dan", "さくら"}
    assert db.read_bytes() == before
    readonly.cleanup()
    db.unlink()
    assert readonly.setup() is None


def test_convert_out(readonly):
    result = readonly.run("convert", ONE_HAND, "--to", "mjai", "--out", readonly.folder)
    assert result.returncode == 1
    line = one_error_line(result)
    assert line.startswith(f"Error: Could not open file {str(readonly.folder)!r}".rstrip("'")), line
    assert line.endswith(f": {readonly.reason}")


def test_download_cache_and_out(readonly):
    """The cache in a read-only folder: the lock cannot be taken (exit 1, nothing requested).
    --out into one: the log is downloaded into the cache, the copy fails (exit 1)."""
    log_id = fuzz_game_id(1)
    with FuzzServer({log_id: ONE_HAND.read_bytes()}, ONE_HAND.read_bytes(), random.Random(0),
                    script=[Plan()]) as server:
        result = readonly.run("download", log_id, "--base-url", server.url, "--cache-dir", readonly.folder)
        assert result.returncode == 1
        assert one_error_line(result) == (f"Error: cannot lock the cache {readonly.folder}: "
                                          f"{readonly.reason}")
        assert server.plans == []
        cache = readonly.folder.parent / "cache"  # writable by whoever runs the command
        cache.mkdir()
        if readonly.method == "unprivileged user":
            os.chown(cache, NOBODY, NOBODY)
        result = readonly.run("download", log_id, "--base-url", server.url, "--cache-dir", cache,
                              "--out", readonly.folder)
        assert result.returncode == 1
        target = readonly.folder / f"{log_id}.mjlog"
        assert one_error_line(result) == f"Error: {log_id}: cannot write {target}: {readonly.reason}"
        assert check_cache(cache) == 1 and len(server.plans) == 1
