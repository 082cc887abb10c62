"""The name 0.1's README gave the two-ply harness's factories (`py:agent.eval_search:
fitted_player`), so that commands written with it keep running; the harness lives in
agent.tuning.two_ply."""

from agent.tuning.two_ply import core_player, fitted_player, greedy_exchange_player, greedy_pair_player

__all__ = ["core_player", "fitted_player", "greedy_exchange_player", "greedy_pair_player"]
