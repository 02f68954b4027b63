"""Build step: compile the hot modules with mypyc, and the native core in C (everything else is
in pyproject.toml).

The parser, the replay engine and the rules it calls on every event are compiled from the same
``.py`` files that run when they are not (``tenhou_tools/native.py`` lists them and decides at
import which build runs). Two kernels, the wall generator and the reader of Tenhou's XML subset,
are also written in C (``tenhou_tools/_core.c``, the native core), built and chosen together
with the compiled modules. ``TENHOU_TOOLS_PURE=1`` at install time skips the compilation; a
machine without a C compiler gets the plain Python package and a warning instead of a failed
install. The build writes the sources' SHA-256 to ``tenhou_tools/_native_build.json`` so that a
source edited after the build is noticed and run as plain Python.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
MODULES = [  # keep in step with tenhou_tools.native.COMPILED_MODULES (a test compares them)
    "tenhou_tools/events.py",
    "tenhou_tools/mjlog/meld.py",
    "tenhou_tools/mjlog/parse.py",
    "tenhou_tools/mjlog/scan.py",
    "tenhou_tools/replay/checks.py",
    "tenhou_tools/replay/engine.py",
    "tenhou_tools/replay/flow.py",
    "tenhou_tools/replay/hand.py",
    "tenhou_tools/replay/ryuukyoku.py",
    "tenhou_tools/replay/table.py",
    "tenhou_tools/replay/wins.py",
    "tenhou_tools/rules/calls.py",
    "tenhou_tools/rules/draws.py",
    "tenhou_tools/rules/furiten.py",
    "tenhou_tools/rules/hand.py",
    "tenhou_tools/rules/pao.py",
    "tenhou_tools/rules/riichi.py",
    "tenhou_tools/rules/scoring.py",
    "tenhou_tools/rules/valuation.py",
    "tenhou_tools/rules/wall.py",
    "tenhou_tools/tiles.py",
]
CORE_SOURCE = "tenhou_tools/_core.c"  # the native core: tenhou_tools.native.NATIVE_CORE_SOURCE
RECORD = "_native_build.json"


def _pure_requested() -> bool:
    return os.environ.get("TENHOU_TOOLS_PURE", "") not in ("", "0")


def _fallback(exc: BaseException) -> None:
    print(f"tenhou-tools: compiling the hot modules failed ({exc}); installing plain Python", file=sys.stderr)


class BuildNative(build_ext):
    """Compiles with mypyc only when an extension build really runs (not for metadata), records
    what it compiled, and falls back to plain Python if it cannot compile."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules == EXTENSIONS and EXTENSIONS:
            try:
                from mypyc.build import mypycify

                core = Extension("tenhou_tools._core", sources=[CORE_SOURCE], extra_compile_args=["-O3"])
                self.distribution.ext_modules = [
                    *mypycify(["--ignore-missing-imports", *MODULES], opt_level="3"), core]
            except BaseException as exc:  # no mypyc, or it refused a module: still install
                self.distribution.ext_modules = []
                _fallback(exc)
        super().finalize_options()

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers: the package still works, slower
            self.extensions = []
            _fallback(exc)
            return
        if self.inplace:
            self._remove_stale_extensions()
        record = {
            path.rsplit(".", 1)[0].replace("/", "."): hashlib.sha256((ROOT / path).read_bytes()).hexdigest()
            for path in [*MODULES, CORE_SOURCE]
        }
        target = Path(ROOT if self.inplace else self.build_lib) / "tenhou_tools" / RECORD
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")

    def _remove_stale_extensions(self) -> None:
        """Extension files an earlier in-place build left that this one did not write (a module
        taken off the list, mypyc's shared library of an older module list): Python would
        import them in preference to the sources."""
        from importlib.machinery import EXTENSION_SUFFIXES

        written = {Path(self.get_ext_fullpath(ext.name)).resolve() for ext in self.extensions}
        candidates = [*ROOT.glob("*__mypyc*"), *(ROOT / "tenhou_tools").rglob("*")]
        for path in candidates:
            if path.is_file() and any(path.name.endswith(sfx) for sfx in EXTENSION_SUFFIXES) \
                    and path.resolve() not in written:
                path.unlink()

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()
        if self.extensions:
            outputs.append(str(Path(self.build_lib) / "tenhou_tools" / RECORD))
        return outputs


# One stand-in extension tells setuptools that there is something to build (a platform wheel,
# build_ext runs); BuildNative replaces it with mypyc's extensions when it runs.
EXTENSIONS = [] if _pure_requested() else [Extension("tenhou_tools._native_stand_in", sources=[])]

setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": BuildNative})
