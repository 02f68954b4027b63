"""What a compiled install builds, and how to tell whether it is in use (``tenhou-tools --version``).

Two kinds of native code sit behind private names, each with the Python it was built from or a
Python reference beside it:

- ``COMPILED``: modules compiled with mypyc from their own ``.py`` files (the parser, the table
  state and the checks of the replay, and the rule modules the replay asks, where ``validate``
  spends its time; the shanten and hand value, where the analysis spends its own); they define
  functions and working classes only, never a value type;
- ``SPEEDUPS``: ``tenhou_tools._native._speedups``, a small C extension
  (``_native/_speedups.c``), imported only by the package ``tenhou_tools._native`` (the one door
  to speed), which binds each kernel to its C function or to the Python reference beside it.

``setup.py`` reads these names from this file (it executes it: standard library only here), and
writes to ``RECORD`` in the package folder each built source's SHA-256, size and modification
time (``record_entry``).

**An edit runs.** The package's ``__init__`` calls ``use_sources_if_stale()`` before anything
else is imported: when a built source differs from the record (a module edited after
``pip install -e .``), every built module is loaded from its ``.py`` file and ``_speedups`` is
left out (``_native`` then binds the Python references), so the edit takes effect on the
next run; one line on standard error says so and how to compile again. All or nothing: a
compiled module calls the compiled modules it imports directly, so one module loaded from source
beside stale compiled callers would not take effect. ``status()`` reports it for ``--version``.

**Differs** is told by content, cheaply (``changed_sources``): a source whose size and
modification time (in nanoseconds) are the ones recorded is taken as unchanged without being
read; any other is hashed, and differs when its SHA-256 does. So an edit is always seen (saving
a file sets its modification time), and a touch or a checkout that leaves the content alone is
not a change. The one edit not seen is one that keeps the size and puts the modification time
back to the nanosecond (``touch -r``, on purpose). Hashing every source on every start cost about
3 ms (12 M instructions) of each run; a ``stat`` of each is a few microseconds.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

COMPILED: tuple[str, ...] = (
    "tenhou_tools.analysis.defence",
    "tenhou_tools.analysis.discard",
    "tenhou_tools.analysis.game",
    "tenhou_tools.analysis.model",
    "tenhou_tools.analysis.tables",
    "tenhou_tools.analysis.value",
    "tenhou_tools.analysis.verdict",
    "tenhou_tools.analysis.waits",
    "tenhou_tools.mjlog._meld",
    "tenhou_tools.mjlog._parse",
    "tenhou_tools.mjlog.scan",
    "tenhou_tools.replay._draw_checks",
    "tenhou_tools.replay._flow",
    "tenhou_tools.replay._hand_checks",
    "tenhou_tools.replay._recorder",
    "tenhou_tools.replay._win_checks",
    "tenhou_tools.replay.engine",
    "tenhou_tools.replay.state",
    "tenhou_tools.rules.calls",
    "tenhou_tools.rules.danger",
    "tenhou_tools.rules.draws",
    "tenhou_tools.rules.furiten",
    "tenhou_tools.rules.game_end",
    "tenhou_tools.rules.hand",
    "tenhou_tools.rules.pao",
    "tenhou_tools.rules.payments",
    "tenhou_tools.rules.readings",
    "tenhou_tools.rules.riichi",
    "tenhou_tools.rules.scoring",
    "tenhou_tools.rules.shanten",
    "tenhou_tools.rules.splits",
    "tenhou_tools.rules.wall",
)
"""The modules compiled with mypyc, by import name. None of them defines a value type (a
dataclass, an enum, an exception): those live in plain modules (``events.py``,
``rules/values.py``, ``replay/board.py``, ``replay/checks.py``), since a class defined in a
compiled module becomes a native class (``tests/test_build.py`` holds this)."""

SPEEDUPS = "tenhou_tools._native._speedups"
"""The C extension; its source is ``_native/_speedups.c`` in the package folder."""

SPEEDUPS_SOURCE = "_native/_speedups.c"

RECORD = "_build_record.json"
"""Written by the build into the package folder (git-ignored): import name -> ``record_entry``
of the source it was built from. A record of an older build, import name -> SHA-256, is still
read (its sources are hashed on each start)."""

PACKAGE_DIR = Path(__file__).resolve().parent


def source_path(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """``tenhou_tools.replay._hand`` -> ``<package_dir>/replay/_hand.py`` (the C extension:
    ``<package_dir>/_native/_speedups.c``)."""
    if module == SPEEDUPS:
        return package_dir / SPEEDUPS_SOURCE
    return package_dir.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_hash(path: Path) -> str:
    """SHA-256 of a file, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_hashes(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """SHA-256 of each built module's source as it is on disk now."""
    return {m: source_hash(source_path(m, package_dir)) for m in (*COMPILED, SPEEDUPS)}


def record_entry(path: Path) -> dict[str, int | str]:
    """What the record keeps of one built source: its SHA-256, and its size and modification
    time (``changed_sources`` reads no source whose size and time are these)."""
    st = path.stat()
    return {"sha256": source_hash(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def read_record(package_dir: Path = PACKAGE_DIR) -> dict[str, Any] | None:
    """The build's record, or ``None`` when this install built nothing."""
    try:
        data = json.loads((package_dir / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def recorded_hash(entry: object) -> str | None:
    """The SHA-256 a record's entry holds (an older build's record holds only that)."""
    if isinstance(entry, dict):
        entry = entry.get("sha256")
    return entry if isinstance(entry, str) else None


def loaded_natively(module: str) -> bool:
    """Whether ``module`` imports as an extension module (compiled), not from its ``.py`` file."""
    try:
        found = importlib.import_module(module)
    except ImportError:
        return False
    origin = getattr(found, "__file__", None) or ""
    return any(origin.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def stale(record: dict[str, Any], current: dict[str, str]) -> list[str]:
    """The built modules whose source changed since the build (``current``: ``source_hashes``)."""
    return sorted(m for m in current if recorded_hash(record.get(m)) != current[m])


def changed_sources(record: dict[str, Any], package_dir: Path = PACKAGE_DIR) -> list[str]:
    """``stale`` without reading the sources that kept the size and modification time the record
    gives them (the module's text: **differs**); the others are hashed."""
    changed = []
    for module in (*COMPILED, SPEEDUPS):
        path = source_path(module, package_dir)
        entry = record.get(module)
        if isinstance(entry, dict):
            st = path.stat()
            if st.st_size == entry.get("size") and st.st_mtime_ns == entry.get("mtime_ns"):
                continue
        if recorded_hash(entry) != source_hash(path):
            changed.append(module)
    return sorted(changed)


STALE_NOTICE_VARIABLE = "TENHOU_TOOLS_STALE_NOTICE"
"""Set in the environment once the stale build's line is printed: the batch's worker processes,
which inherit it, do not print it again."""


class SourcesFirst:
    """Loads each built module from its ``.py`` file and refuses ``_speedups`` (``_native`` then
    binds the Python references): what ``use_sources_if_stale`` installs. A finder of
    ``sys.meta_path`` needs only ``find_spec``: not deriving from ``importlib.abc.MetaPathFinder``
    spares every run importing ``importlib.abc`` (and ``importlib.resources`` with it: 18 ms of a
    compiled ``validate``'s start, measured with ``-X importtime``)."""

    def __init__(self, changed: list[str], package_dir: Path = PACKAGE_DIR) -> None:
        self.changed = changed
        self.package_dir = package_dir

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if name == SPEEDUPS:
            raise ModuleNotFoundError(f"{name} is not used: sources changed since the build", name=name)
        if name in COMPILED:
            return importlib.util.spec_from_file_location(name, source_path(name, self.package_dir))
        return None


def use_sources_if_stale(package_dir: Path = PACKAGE_DIR) -> list[str]:
    """When this install compiled modules and a built source changed since (``stale``): load the
    whole package from its sources (``SourcesFirst``) and say so once on standard error. Returns
    the changed modules (none: nothing done). Tens of microseconds when no source was touched
    since the build (``changed_sources``)."""
    record = read_record(package_dir)
    if record is None:
        return []
    changed = changed_sources(record, package_dir)
    if changed and not any(isinstance(f, SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, SourcesFirst(changed, package_dir))
        if not os.environ.get(STALE_NOTICE_VARIABLE):
            os.environ[STALE_NOTICE_VARIABLE] = "1"
            names = ", ".join(source_path(m, package_dir).relative_to(package_dir).as_posix() for m in changed)
            print(f"tenhou-tools: {names} changed since the compiled build: running the plain Python sources "
                  f"(slower) until `pip install -e .` compiles them again", file=sys.stderr)
    return changed


def stale_modules() -> list[str]:
    """The changed modules when this process runs the sources of a stale build, else none."""
    return next((f.changed for f in sys.meta_path if isinstance(f, SourcesFirst)), [])


def status() -> str:
    """One line for ``--version``: what runs, and why when it is not the compiled build."""
    changed = stale_modules()
    if changed:
        return (f"plain Python (STALE build: {', '.join(changed)} changed since it; "
                f"run pip install -e . again to compile)")
    compiled = [m for m in COMPILED if loaded_natively(m)]
    speedups = loaded_natively(SPEEDUPS) and importlib.import_module("tenhou_tools._native").NATIVE
    if not compiled and not speedups:
        why = "this install built nothing (TENHOU_TOOLS_PURE=1)"
        if read_record() is not None:
            why = "the built modules do not load"
        return f"plain Python ({why})"
    parts = [f"{len(compiled)} modules"] + (["_speedups"] if speedups else [])
    line = f"compiled ({' + '.join(parts)})"
    if len(compiled) < len(COMPILED):
        line += f"; plain Python for {len(COMPILED) - len(compiled)} of the {len(COMPILED)} listed modules"
    return line
