"""Build step: the private compiled modules (mypyc) and the C extension ``_native._speedups`` (the
rest of the package's metadata is in pyproject.toml).

What is built is listed once, in ``tenhou_tools/_build.py`` (``COMPILED``, ``SPEEDUPS``), which
this file executes. ``TENHOU_TOOLS_PURE=1`` at install time skips the compilation. A compile that
fails stops the install with a message that says why and how to install the plain Python package
instead (pip shows a failed build's output; a build that fell back quietly would not be seen).
The build writes each built source's SHA-256, size and modification time to
``tenhou_tools/_build_record.json`` (``_build.record_entry``): a source changed after the build
makes the package run its sources (``_build.use_sources_if_stale``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
_BUILD: dict = {"__name__": "tenhou_tools_build_list", "__file__": str(ROOT / "tenhou_tools" / "_build.py")}
exec(compile((ROOT / "tenhou_tools" / "_build.py").read_text(encoding="utf-8"), "tenhou_tools/_build.py", "exec"),
     _BUILD)
COMPILED: tuple[str, ...] = _BUILD["COMPILED"]
SPEEDUPS: str = _BUILD["SPEEDUPS"]
RECORD: str = _BUILD["RECORD"]
record_entry = _BUILD["record_entry"]
MODULES = [m.replace(".", "/") + ".py" for m in COMPILED]
SPEEDUPS_SOURCE = "tenhou_tools/" + _BUILD["SPEEDUPS_SOURCE"]


def _pure_requested() -> bool:
    return os.environ.get("TENHOU_TOOLS_PURE", "") not in ("", "0")


def _failed(exc: BaseException) -> SystemExit:
    """The install stops: what failed, and the two ways on."""
    return SystemExit(
        f"tenhou-tools: compiling the native modules failed ({type(exc).__name__}: {exc}).\n"
        "  Install a C compiler and Python's headers (Debian, Ubuntu: apt-get install gcc python3-dev) and try "
        "again,\n  or install the plain Python package, about three times slower: TENHOU_TOOLS_PURE=1 pip install ...")


class BuildNative(build_ext):
    """Compiles only when an extension build really runs (not for metadata), records what it
    compiled, and stops the install when it cannot compile (``_failed``)."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules == EXTENSIONS and EXTENSIONS:
            try:
                from mypyc.build import mypycify

                # -ffp-contract=off: no fused multiply-add, so first_tenpai_sums gives the doubles
                # of its Python reference on every CPU (GCC fuses a * b + c by default where the
                # target has FMA: aarch64, or x86 built with -mfma or -march=native)
                speedups = Extension(SPEEDUPS, sources=[SPEEDUPS_SOURCE],
                                     extra_compile_args=["-O3", "-ffp-contract=off"])
                self.distribution.ext_modules = [
                    *mypycify(["--ignore-missing-imports", *MODULES], opt_level="3"), speedups]
            except Exception as exc:  # no mypyc, or it refused a module
                raise _failed(exc) from exc
        super().finalize_options()

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers
            raise _failed(exc) from exc
        if self.inplace:
            self._remove_stale_extensions()
        record = {
            module: record_entry(ROOT / path)
            for module, path in [*zip(COMPILED, MODULES), (SPEEDUPS, SPEEDUPS_SOURCE)]
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
# build_ext runs); BuildNative replaces it with the real extensions when it runs.
EXTENSIONS = [] if _pure_requested() else [Extension("tenhou_tools._native_stand_in", sources=[])]

setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": BuildNative})
