"""Strength research, on no command's path but `tune-eval`'s: position features and their
fast twin, the fit of a horizon evaluation, the two-ply harness that plays one."""
