"""The fuzzers: development tools, not part of the installed ``tenhou_tools`` package (nothing in
``tenhou_tools/`` imports them).

- ``logs``: mutated logs (mjlog XML and tenhou.net/6 JSON) through every command's input path;
- ``containers``: damaged zip archives (written by ``zipwriter``) and log databases;
- ``downloads``: the downloader against a loopback server that answers at random (``server``);
- ``store``: ``stats --db`` on damaged stats databases;
- ``common``: what the last three share.

Bounded runs are tests (``tests/test_fuzz.py``, ``tests/test_fuzz_io.py``); long runs are
``python scripts/fuzz.py --minutes N``.
"""
