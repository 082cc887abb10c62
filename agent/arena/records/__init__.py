"""The results file of a match: game records checked as they are read, written a whole line at a time."""
