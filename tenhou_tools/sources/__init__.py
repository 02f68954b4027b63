"""Where logs come from: local files, folders, archives, databases, and tenhou.net (with a cache).

The only package that does I/O besides the CLI's output.
"""
