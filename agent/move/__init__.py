"""The competition move: input.txt -> output.txt within the clock. The launch line, the
time policy, iterative deepening over the core and the calibration file; it imports
nothing outside this package but the core, the file formats and the rules."""
