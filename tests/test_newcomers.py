"""What a newcomer meets on a fresh clone (issue 26): the README shows the plain install beside the
quick start and says where the real-log corpus comes from and how to point the tests at it; a
browser test that cannot run names the part that is missing; every package a test imports is
declared (numpy included), so no test skips for want of it on a fresh install."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib

from .browser import CHROMIUM_NAMES, DRIVER_PLACES, missing_browser_parts
from .conftest import REPO
from .test_readme import quick_start_commands


def _readme_quick_start() -> str:
    text = (REPO / "README.md").read_text()
    return text.split("## Quick start", 1)[1].split("\n## ", 1)[0]


def test_the_quick_start_shows_the_plain_install_beside_its_two_commands():
    section = _readme_quick_start()
    assert len(quick_start_commands()) == 2 and "'.[test]'" in quick_start_commands()[0]
    assert "`python3 -m pip install .`" in section  # the tool alone, without the test extra


def test_the_readme_says_where_the_corpus_comes_from_and_how_to_point_the_tests_at_it():
    section = _readme_quick_start()
    assert "public GitHub repositories" in section and "MANIFEST.tsv" in section
    assert "TENHOU_CORPUS=/path/to/corpus .venv/bin/python -m pytest -q" in section
    assert "mjlog/<source>/<game id>.xml.gz" in section


def test_a_missing_browser_part_is_named():
    only_driver = missing_browser_parts("/usr/bin/chromium", None)
    assert only_driver.startswith("missing chromedriver") and "Chromium (" not in only_driver
    assert "apt-get install chromium-driver" in only_driver and DRIVER_PLACES[0] in only_driver
    only_browser = missing_browser_parts(None, "/usr/bin/chromedriver")
    assert only_browser.startswith("missing Chromium") and "chromedriver (" not in only_browser
    assert "apt-get install chromium" in only_browser and CHROMIUM_NAMES[0] in only_browser
    both = missing_browser_parts(None, None)
    assert both.startswith("missing Chromium") and "; and chromedriver" in both


def _declared() -> set[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    specs = project["dependencies"] + project["optional-dependencies"]["test"]
    return {re.split(r"[<>=!~\[ ;]", spec, maxsplit=1)[0].lower().replace("_", "-") for spec in specs}


def test_every_package_a_test_imports_is_declared():
    """A third-party import in tests/ (numpy for the wall's reference MT19937, selenium, ...) is a
    dependency or in the test extra: a fresh `pip install -e '.[test]'` runs every test."""
    local = {"tests", "tenhou_tools"}
    distributions = importlib.metadata.packages_distributions()
    imported: dict[str, set[str]] = {}
    for path in sorted((REPO / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".", 1)[0]
                if top not in sys.stdlib_module_names and top not in local:
                    imported.setdefault(top, set()).add(path.name)
    assert "numpy" in imported
    declared = _declared()
    missing = {}
    for top, files in imported.items():
        dists = {d.lower().replace("_", "-") for d in distributions.get(top, [top])}
        if not dists & declared:
            missing[top] = sorted(files)
    assert missing == {}
