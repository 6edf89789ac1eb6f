"""The command line, the top layer: one module per command, wired in `gcadj.cli.main`; it may
import every layer below and is the only one that prints or chooses exit codes."""
