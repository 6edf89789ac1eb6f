"""Whole jobs, as the CLI and the Python API run them: check a source, convert it, audit an
archive; and the batch runner that judges many sources in worker processes, for
``gcadj audit`` and ``gcadj serve`` alike (`batch`, `pool`, `judging`, `jsonl`,
`products`). May import every layer below; only the web layer and the CLI sit above."""
