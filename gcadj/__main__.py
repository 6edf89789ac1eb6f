"""`python -m gcadj` runs the command line."""

from gcadj.cli.main import main

main()
