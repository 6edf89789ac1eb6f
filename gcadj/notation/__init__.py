"""The languages games are written in: Game Courier text (grammar, parser, records), SAN and
Game Courier position codes. May import only the engine."""
