"""The arena at the terminal: tables, boards in colour, the screen of `fruit-rage play`."""
