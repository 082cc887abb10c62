"""The Fruit Rage arena: a referee for matches between agents (the baselines live in
agent.baselines), statistics, the checked game records and what is read from them (replay,
endgame audit, margin by phase), and play against a person."""
