"""Analyses behind one finding each (issue 34's ceilings and sparse fits), imported by the scripts beside
this folder and by ``tests/research/``; nothing under ``src/`` imports them and the wheel does not ship them."""
