"""`python -m gcadj` runs the command line (through the same guarded entry point as the
``gcadj`` script: `gcadj.cli.launch`)."""

from gcadj.cli.launch import main

main()
