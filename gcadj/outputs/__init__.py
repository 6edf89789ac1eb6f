"""What gcadj writes: human reports, text and SVG diagrams, the PGN and Game Courier writers,
exports and the audit report, through one safe file writer. May import every layer below."""
