"""Which build of the hot modules runs: compiled (mypyc) or plain Python.

The install compiles the parser, the replay engine and the rules it calls every event with mypyc
(``setup.py``; the same source files, no second implementation). The build records a SHA-256 of
each compiled source in ``_native_build.json`` next to the package. At import, before any of those
modules loads, ``select()`` compares the record with the sources on disk. When they differ (a
source was edited after the build, a checkout changed it), or when ``TENHOU_TOOLS_PURE`` is set,
the plain ``.py`` files are imported instead of the extension modules, all of them together: a
compiled engine never runs against a plain-Python event module or the other way round.

Two kernels have a hand-written C version besides: the wall generator and the reader of Tenhou's
XML subset (``_core.c``, the native core). It is built, recorded and chosen with the compiled
modules; the plain build runs the Python reference of both, and tests hold the two to the same
results.

``status()`` says which build runs and why; ``tenhou-tools --version`` prints it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

COMPILED_MODULES = (
    "tenhou_tools.events",
    "tenhou_tools.mjlog.meld",
    "tenhou_tools.mjlog.parse",
    "tenhou_tools.mjlog.scan",
    "tenhou_tools.replay.checks",
    "tenhou_tools.replay.engine",
    "tenhou_tools.replay.flow",
    "tenhou_tools.replay.hand",
    "tenhou_tools.replay.ryuukyoku",
    "tenhou_tools.replay.table",
    "tenhou_tools.replay.wins",
    "tenhou_tools.rules.calls",
    "tenhou_tools.rules.draws",
    "tenhou_tools.rules.furiten",
    "tenhou_tools.rules.hand",
    "tenhou_tools.rules.pao",
    "tenhou_tools.rules.riichi",
    "tenhou_tools.rules.scoring",
    "tenhou_tools.rules.valuation",
    "tenhou_tools.rules.wall",
    "tenhou_tools.tiles",
)
"""The modules ``setup.py`` compiles, by import name."""

NATIVE_CORE = "tenhou_tools._core"
"""The hand-written C kernels (``_core.c``: wall generation, the reader of Tenhou's XML subset).
They are built and chosen with the compiled modules: the plain build never loads them and runs
the Python reference code of the same kernels instead."""

NATIVE_CORE_SOURCE = "_core.c"
"""Its source, in the package folder."""

BUILT_MODULES = (*COMPILED_MODULES, NATIVE_CORE)
"""Everything the build makes, by import name; the build record holds a hash of each one's source."""

RECORD = "_native_build.json"
"""The build's record of the compiled sources' hashes, in the package folder."""

PURE_ENV = "TENHOU_TOOLS_PURE"
"""Set (to anything but empty or ``0``) to run the plain Python modules even when compiled ones exist."""

PACKAGE_DIR = Path(__file__).resolve().parent


def source_path(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """``tenhou_tools.replay.engine`` -> ``<package_dir>/replay/engine.py`` (the native core:
    ``<package_dir>/_core.c``)."""
    if module == NATIVE_CORE:
        return package_dir / NATIVE_CORE_SOURCE
    return package_dir.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_hashes(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """SHA-256 of each built module's source as it is on disk now."""
    return {m: hashlib.sha256(source_path(m, package_dir).read_bytes()).hexdigest() for m in BUILT_MODULES}


@dataclass(frozen=True)
class Status:
    compiled: bool
    """The extension modules run."""
    reason: str
    """Why, in words."""

    def line(self) -> str:
        return f"{'compiled (mypyc)' if self.compiled else 'plain Python'}: {self.reason}"


def _pure_requested(value: str | None) -> bool:
    return value not in (None, "", "0")


def decide(record: dict[str, str] | None, current: dict[str, str], pure_env: str | None,
           extensions: bool) -> Status:
    """Pure decision: the build's record, the sources' hashes now, the environment variable and
    whether every compiled module has an extension file."""
    if _pure_requested(pure_env):
        return Status(False, f"{PURE_ENV} is set")
    if record is None or not extensions:
        return Status(False, "this install has no compiled modules")
    changed = sorted(m for m in BUILT_MODULES if record.get(m) != current.get(m))
    if changed:
        return Status(False, f"{', '.join(changed)} changed since the build (reinstall to compile again)")
    return Status(True, f"{len(COMPILED_MODULES)} modules and the native core built from the sources on disk")


def _has_extension(module: str) -> bool:
    folder = PACKAGE_DIR.joinpath(*module.split(".")[1:-1])
    stem = module.rsplit(".", 1)[1]
    return any((folder / f"{stem}{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _read_record() -> dict[str, str] | None:
    try:
        data = json.loads((PACKAGE_DIR / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


class _PlainSourceFinder:
    """Imports the compiled modules from their ``.py`` files (the extension files stay unused)."""

    def find_spec(self, name, path=None, target=None):
        if name not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(name, source_path(name))


_status: Status | None = None


def select() -> Status:
    """Decide once per process, before the first compiled module is imported."""
    global _status
    if _status is None:
        record = _read_record()
        extensions = all(_has_extension(m) for m in BUILT_MODULES)
        pure_env = os.environ.get(PURE_ENV)
        needed = record is not None and extensions and not _pure_requested(pure_env)
        _status = decide(record, source_hashes() if needed else {}, pure_env, extensions)
        if not _status.compiled:
            # also when only some extension files exist (a build that failed half-way, or one
            # from an older module list): none of them may load
            sys.meta_path.insert(0, _PlainSourceFinder())
    return _status


def status() -> Status:
    """Which build runs in this process."""
    return select()


def core() -> Any:
    """The native core module when the compiled build runs, else ``None`` (the callers then run
    their Python reference code)."""
    if not status().compiled:
        return None
    return importlib.import_module(NATIVE_CORE)


def _assign_once(self: object, name: str, value: object) -> None:
    """``__setattr__`` of a frozen value class in the plain build: a field may be set once (by
    its ``__init__``), never changed."""
    try:
        getattr(self, name)
    except AttributeError:
        object.__setattr__(self, name, value)
        return
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def hand_written_inits(*classes: type) -> None:
    """For frozen dataclasses that carry their own ``__init__`` (``init=False``).

    Compiled, such an ``__init__`` stores each field straight into the object, 14 times faster
    than the ``__init__`` the dataclass decorator writes (interpreted Python calling
    ``object.__setattr__`` per field), and the class stays frozen to every other caller. As plain
    Python the same assignments would hit the frozen ``__setattr__``; there, each class gets one
    that lets a field be set once. Either way a field cannot be changed after ``__init__``.
    """
    if status().compiled:
        return
    for cls in classes:
        setattr(cls, "__setattr__", _assign_once)
