"""One game between agents: the loop every runner shares, and the action names it prints.

:func:`play_game` seats one agent per player, gives each the state as its player sees it and
one seeded generator, and can print the game as it goes and collect its actions (which, with the
game's configuration and the seed, replay it). ``stratagem play`` and training's evaluation
games use it; it lives apart from the ``play`` command so that library code never imports a
command module.

Coordinates follow one convention in every game: ``(x,y)`` with ``x`` the column and ``y`` the
row, counted from 0 at the top-left. A game whose own action names write ``(row,col)`` (Tribes,
as its Java reference does) has its names shown in ``(x,y)`` by :func:`display_name`.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

import numpy as np

from stratagem.baselines.agent import Agent
from stratagem.envs.core import Game, State

__all__ = ["coordinate_order", "display_name", "play_game", "swap_pairs"]

_PAIR = re.compile(r"\((-?\d+),(-?\d+)\)")


def coordinate_order(game: Game) -> str | None:
    """How ``game``'s own action names write a tile: ``"xy"``, ``"rowcol"`` or ``None`` (never).

    Read from the game itself: the name of the action whose source tile is ``(x, y) = (0, 1)``
    in the spatial layout shows which number comes first, so no table has to be kept in step
    with the games.
    """
    layout = game.spec.action_layout
    if layout is None or layout.height < 2:
        return None
    for plane in range(len(layout.planes)):
        match = _PAIR.search(game.action_to_string(layout.encode(plane, 0, 1)))
        if match is None:
            continue
        first = (int(match.group(1)), int(match.group(2)))
        if first == (0, 1):
            return "xy"
        if first == (1, 0):
            return "rowcol"
    return None


def swap_pairs(text: str) -> str:
    """``text`` with every coordinate pair ``(a,b)`` written ``(b,a)``: row-column <-> x-y."""
    return _PAIR.sub(lambda m: f"({m.group(2)},{m.group(1)})", text)


def display_name(game: Game, action: int, order: str | None = "auto") -> str:
    """The name of ``action`` with its coordinates written ``(x,y)`` (column, row).

    Args:
        game: The game.
        action: Index in the flat action space.
        order: :func:`coordinate_order` of the game when the caller has it already (it is
            read from the game when left at ``"auto"``).
    """
    name = game.action_to_string(action)
    if order == "auto":
        order = coordinate_order(game)
    return swap_pairs(name) if order == "rowcol" else name


def play_game(
    game: Game,
    players: list[Agent],
    *,
    seed: int = 0,
    out: TextIO = sys.stdout,
    verbose: bool = True,
    actions: list[int] | None = None,
) -> State:
    """Play one game, printing the board at every turn change and each action taken.

    Args:
        game: The game.
        players: One agent per seat.
        seed: Seed of the initial state and of the agents' generator.
        out: Where the board and the actions are printed.
        verbose: Print them (else play silently).
        actions: When given, every action played is appended to it: with the game's
            configuration and ``seed`` it replays the game (``stratagem replay``/``view``).

    Returns:
        The final state (terminal unless a human quit).
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    order = coordinate_order(game)
    for player in players:
        player.reset()
    if verbose:
        print(state, file=out)
    mover = state.current_player
    while not state.is_terminal():
        player = players[state.current_player]
        action = player.act(state.observed_by(state.current_player), rng=rng)
        if verbose:
            print(
                f"player {state.current_player} ({player.name}): "
                f"{display_name(game, action, order)}",
                file=out,
            )
        state.apply(action)
        if actions is not None:
            actions.append(int(action))
        if verbose and (state.current_player != mover or state.is_terminal()):
            print(state, file=out)
        mover = state.current_player
    return state
