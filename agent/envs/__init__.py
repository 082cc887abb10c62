"""Fruit Rage in the standard interfaces of game-AI research: a PettingZoo AEC
environment (agent.envs.pettingzoo), a Gymnasium environment against one of the
project's players (agent.envs.gymnasium, registered as ``FruitRage-v0``) and an
OpenSpiel game (agent.envs.openspiel, registered as ``python_fruit_rage``); and Red-Blue
Nim as an OpenSpiel game too (agent.envs.openspiel_nim, ``python_red_blue_nim``). Players
go both ways (agent.envs.openspiel_players): the agent as an OpenSpiel bot, OpenSpiel's
bots as players of the referee and of ``fruit-rage match``. Every move can be scored
against perfect play (agent.envs.regret, which needs no third-party library).

They need the ``rl`` extra (``python3 -m pip install '.[rl]'`` in a clone of the
repository); this package itself imports none of those libraries, so nothing of the rest
of agent pays for them.
"""

RL_EXTRA = "python3 -m pip install '.[rl]' in a clone of the repository"


def missing_library(library: str, error: ImportError) -> ImportError:
    """The error to raise when `library`, which an environment module needs, is not
    installed: it names the extra that brings it."""
    message = f"{library} is not installed: the Fruit Rage environments need the rl extra ({RL_EXTRA})"
    return ImportError(message, name=error.name)
