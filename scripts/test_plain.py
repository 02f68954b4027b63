#!/usr/bin/env python3
"""Run the test suite on the plain Python sources, whatever this checkout's install compiled.

    python scripts/test_plain.py [pytest arguments]

A compiled install (``pip install -e .``) leaves extension modules beside the sources, and Python
imports them first; there is no switch at run time. This copies the checkout's files (those git
tracks or would track: no extension module, no build record) to a temporary folder and runs
``python -m pytest`` there with ``PYTHONPATH`` pointing at the copy, so every module, in this
process and in every subprocess the tests start, is the ``.py`` file. The tests of the compiled
build skip themselves (``tests/test_build.py``, ``tests/test_speedups.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


LEFT_OUT_DIRS = {"__pycache__", "build", "dist", ".git", ".venv", ".bench-venv", ".pytest_cache", ".hypothesis"}
"""Outside a git checkout (a source archive): the folders not copied, as ``.gitignore`` has them."""


def _sources() -> list[str]:
    """The checkout's files as git lists them (tracked, or untracked and not ignored); outside a
    git checkout every file but the build's products (``.gitignore``'s folders, extension
    modules, the build record, egg-info)."""
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                                cwd=REPO, capture_output=True, check=True).stdout.decode().split("\0")
        return list(filter(None, listed))
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for folder, dirs, files in os.walk(REPO):
        dirs[:] = sorted(d for d in dirs if d not in LEFT_OUT_DIRS and not d.endswith(".egg-info"))
        for name in sorted(files):
            if not name.endswith((".so", ".pyd")) and name != "_build_record.json":
                found.append(os.path.relpath(os.path.join(folder, name), REPO))
    return found


def main(argv: list[str]) -> int:
    listed = _sources()
    with tempfile.TemporaryDirectory(prefix="tenhou-plain-") as tmp:
        root = Path(tmp)
        for name in filter(None, listed):
            source = REPO / name
            if source.is_file():
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, root / name)
        # a module missing from the copy would be found in the checkout by the editable install's
        # finder (asked after PYTHONPATH): the C extension's name raises ImportError instead
        (root / "tenhou_tools" / "_native" / "_speedups.py").write_text(
            'raise ImportError("a plain copy of the sources: no C extension")\n', encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "TENHOU_TOOLS_EXPECT_COMPILED"}
        env["PYTHONPATH"] = str(root)
        # the copy is elsewhere: the corpus as the checkout's tests would find it, made absolute
        env["TENHOU_CORPUS"] = str(Path(os.environ.get("TENHOU_CORPUS", REPO.parent / "shared" / "corpus")).resolve())
        check = subprocess.run([sys.executable, "-c", "import tenhou_tools._build as b; print(b.status())"],
                               cwd=root, env=env, capture_output=True, text=True, check=True)
        print(f"plain copy in {root}: {check.stdout.strip()}", flush=True)
        return subprocess.run([sys.executable, "-m", "pytest", *argv], cwd=root, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
