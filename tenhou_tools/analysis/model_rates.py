"""The measured tables of the discard model (docs/analysis.md, "The expected-points model"), read
from the data file beside this module, ``model_rates.txt``, which ``scripts/measure_model.py``
writes (``tables_text``) from its counts of the corpus's Houou games. Each cell holds its raw
counts; the tables are data, so they live in a data file, not in code.

- ``TENPAI``: (players, open melds '0' '1' '2' '3+', turn bucket) -> (cases, tenpai): an
  opponent not in riichi;
- ``RON_POINTS``: (players, 'riichi' 'open' 'dama', 'dealer' 'child') -> (rons, points): what a
  deal-in costs;
- ``WIN_TILE``: (players, winning tile group) -> (tsumo, ron);
- ``FAR``: (players, shanten '0' '1' '2' '3' '4+', turn bucket, accepted bucket, 'open'
  'closed') -> (cases, wins, points won): a seat after its discard (0 and 1 for comparison; the
  model values those by the scorer);
- ``MARKS``: (players, marks '0' '1' '2' '3+', yakuhai single '0' '1') -> (cases, wins, points
  won): a seat two or more from tenpai after its discard;
- ``RIICHI_BONUS``: (players,) -> (riichi wins, ippatsu and ura dora han on them);
- ``KEEP``: (players, stage '0' '1' 'far', 'threat' 'calm', turn bucket) -> 'role offered
  discarded role offered discarded ...': every kind in the hand of a discarder not in riichi, and
  whether it was the one let go, by its role; roles offered fewer than 50 times left out, '*' the
  group's totals (``analysis.tables.keep_preference`` reads a group's string when it is asked).

The file: ``#`` comment lines, then per table a ``[NAME]`` line and one line a cell, its key's
parts joined by ``|``, a space, and its counts (``KEEP``: its string).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

__all__ = ["FAR", "KEEP", "MARKS", "NAMES", "RIICHI_BONUS", "RON_POINTS", "TENPAI", "WIN_TILE", "read_tables",
           "tables_text"]

NAMES = ("TENPAI", "RON_POINTS", "WIN_TILE", "FAR", "MARKS", "RIICHI_BONUS", "KEEP")
"""The tables, in the file's order."""

DATA = Path(__file__).with_name("model_rates.txt")


def read_tables(text: str) -> dict[str, dict[tuple[str, ...], object]]:
    """The tables of a file's text (``tables_text``'s form): name -> key parts -> counts (a tuple
    of ints; ``KEEP``: its string). ``ValueError`` on a line outside a table."""
    tables: dict[str, dict[tuple[str, ...], object]] = {}
    current: dict[tuple[str, ...], object] | None = None
    name = ""
    for number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            name = line[1:line.index("]")]
            current = tables[name] = {}
            continue
        if current is None:
            raise ValueError(f"line {number}: a cell before any [TABLE] line")
        key, _, rest = line.partition(" ")
        current[tuple(key.split("|"))] = rest if name == "KEEP" else tuple(int(v) for v in rest.split())
    return tables


def tables_text(tables: Mapping[str, Mapping[tuple[str, ...], object]], comments: Iterable[str] = ()) -> str:
    """The file's text for ``tables`` (name -> key parts -> counts, or ``KEEP``'s strings), cells
    in key order, after the ``comments`` lines."""
    lines = [f"# {c}" for c in comments]
    for name in NAMES:
        lines.append(f"[{name}]")
        for key, value in sorted(tables[name].items()):
            text = value if isinstance(value, str) else " ".join(str(v) for v in value)  # type: ignore[attr-defined]
            lines.append(f"{'|'.join(key)} {text.strip()}")
    return "\n".join(lines) + "\n"


_TABLES = read_tables(DATA.read_text(encoding="utf-8"))
TENPAI: dict[tuple[str, ...], tuple[int, ...]] = _TABLES["TENPAI"]  # type: ignore[assignment]
RON_POINTS: dict[tuple[str, ...], tuple[int, ...]] = _TABLES["RON_POINTS"]  # type: ignore[assignment]
WIN_TILE: dict[tuple[str, ...], tuple[int, ...]] = _TABLES["WIN_TILE"]  # type: ignore[assignment]
FAR: dict[tuple[str, ...], tuple[int, ...]] = _TABLES["FAR"]  # type: ignore[assignment]
MARKS: dict[tuple[str, ...], tuple[int, ...]] = _TABLES["MARKS"]  # type: ignore[assignment]
RIICHI_BONUS: dict[tuple[str, ...], tuple[int, ...]] = _TABLES["RIICHI_BONUS"]  # type: ignore[assignment]
KEEP: dict[tuple[str, ...], str] = _TABLES["KEEP"]  # type: ignore[assignment]
