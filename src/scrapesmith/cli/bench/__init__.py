"""Every ``scrapesmith bench NAME`` command, one module per area: ``cli/bench/<area>.py``.

Each command parses its options, calls the benchmark in :mod:`scrapesmith.bench` and prints; the
measuring lives there. ``bench swde`` is in ``swde.py``, ``bench miniwob`` in ``insta.py``, ``bench
nexteval`` and ``bench weblists`` in ``lists.py``; ``grep -rn 'command("NAME")' src/scrapesmith/cli/bench``
finds any other.
"""
