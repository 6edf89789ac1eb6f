"""Whole jobs, as the CLI and the Python API run them: check a source, convert it, audit an
archive. May import every layer below; only the CLI sits above."""
