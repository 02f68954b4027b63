"""The documents people and pages read: typed values built by the library, each with one JSON form
(``to_json``), which the command line prints or renders and ``views/`` embeds in its pages.

- ``replay``: the replay document of ``tenhou-tools replay`` (``ReplayDocument``), the one the
  replay page embeds;
- ``seat``: a replay document as one seat sees it (``seat_view``), what a seat's page embeds;
- ``board``: the table at one moment, ``replay --at HAND:STEP`` (``BoardDocument``);
- ``findings``: a finding as the documents carry it, its values written for people
  (``FindingValues``);
- ``stats``: the statistics report of ``tenhou-tools stats`` (``StatsReport``).
"""
