"""The rules engine: squares, piece kinds, moves, FEN and `Position` (legal moves, push/pop,
the end of the game). Pure computation with no I/O; it imports nothing else of gcadj."""
