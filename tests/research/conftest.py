"""The research folder (``research/``: analyses and the scripts behind one figure each) is outside the package;
its tests import ``analysis.*`` from it, as its scripts do when run as ``python research/SCRIPT.py``."""

from __future__ import annotations

import sys
from pathlib import Path

RESEARCH = Path(__file__).resolve().parents[2] / "research"
if str(RESEARCH) not in sys.path:
    sys.path.insert(0, str(RESEARCH))
