"""Reading recorded games after the fact: move-by-move analysis, the endgame audit, margin by phase."""
