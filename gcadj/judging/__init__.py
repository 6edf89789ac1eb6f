"""Judging a parsed game: one ply to a legal move or a finding (`judge`), a whole log to a
`Verdict` (`verdict`). May import the notation and the engine."""
