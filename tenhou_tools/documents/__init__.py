"""The documents people and pages read: typed values built by the library, each with one JSON form
(``to_json``), which the command line prints or renders and ``views/`` embeds in its pages.

- ``stats``: the statistics report of ``tenhou-tools stats`` (``StatsReport``).
"""
