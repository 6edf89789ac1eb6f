"""Analysis of positions beyond the rules: forced mates with their proofs, material, and
the adjudication of unfinished games (``gcadj adjudicate``).

`search` is the prover, which knows the rules only through the engine (`table` is its
transposition table); `proof_check` is the checker, which replays a proof through the
judge and never imports the prover (import contracts in pyproject.toml say both); `proof`
writes a proof as Game Courier text, SAN and JSON, a tree or a graph; `options` holds the
options, their defaults and ranges; `adjudicate` puts them together per game.
"""
