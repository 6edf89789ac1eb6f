"""`python -m gcadj` runs the command line."""

from gcadj.cli import main

main()
