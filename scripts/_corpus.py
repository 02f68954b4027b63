"""What the measuring scripts share: count something over the corpus's files in a pool of
processes, adding up the ``Counter`` each file gives."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from multiprocessing import Pool


def count_files(files: Sequence[str], measure: Callable[[str], Counter], *, jobs: int = 1,
                chunksize: int = 4) -> dict[str, int]:
    """The sum of ``measure(path)`` over ``files``, in ``jobs`` processes, with a progress line on
    standard error every 200 files."""
    total: Counter = Counter()
    started = time.time()
    with Pool(jobs) as pool:
        for n, found in enumerate(pool.imap_unordered(measure, files, chunksize=chunksize), 1):
            total.update(found)
            if n % 200 == 0:
                print(f"{n}/{len(files)} files, {time.time() - started:.0f} s", file=sys.stderr)
    return dict(total)
