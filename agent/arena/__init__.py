"""The Fruit Rage arena: a referee for matches between agents, baselines to match
against, statistics, replay of recorded games, and play against a human."""
