"""Views that are files rather than terminal output: the offline HTML replay page (``html``).

A view turns a JSON-ready document (the one the matching ``--format json`` prints) into a
page; it reads no log and runs no engine (the CLI wires those), and it never writes a file.
"""
