"""Exception hierarchy.

Every error a user can cause (bad URL, missing file, unreachable host, refused fetch, bad model output)
derives from :class:`ScrapesmithError`, so the command line can print it as one line and exit non-zero
instead of showing a traceback.
"""

from __future__ import annotations


class ScrapesmithError(Exception):
    """Base class for errors that are reported to the user as a single line."""
