"""The export formats: one module per format, each declaring ``WRITER`` (see
`gcadj.outputs.registry`, which finds them). Add a format by adding a module here."""
