"""Matches at scale: many games from seeds or given positions, locally or on a Dask
cluster, checked before they start, resumed, or gated by a sequential test."""
