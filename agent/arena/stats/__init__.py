"""What games say: score rates, Elo, the pentanomial model, pair margins and sequential tests."""
