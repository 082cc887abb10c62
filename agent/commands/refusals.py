"""What several subcommands refuse alike before any work, with exit code 2: an odd --games
with --paired (match, tournament). What analyse and audit refuse alike is in reviews.py,
with the rest of what they share."""

from __future__ import annotations


def odd_paired_games(args) -> str:
    """Why --paired cannot pair --games (every board is played twice), or ""."""
    if args.paired and args.games % 2:
        return f"--paired plays every board twice, so --games must be even (got {args.games})"
    return ""
