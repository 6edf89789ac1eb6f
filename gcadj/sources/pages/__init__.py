"""Reading Game Courier pages: their text lines, the move list found by content, the board
diagram, the facts of the game, and the index of logs. Part of the sources layer."""
