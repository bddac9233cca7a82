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
from collections.abc import Callable, Sequence
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
    players: Sequence[Agent],
    *,
    seed: int = 0,
    out: TextIO = sys.stdout,
    verbose: bool = True,
    actions: list[int] | None = None,
    rngs: Sequence[np.random.Generator] | None = None,
    max_decisions: int | None = None,
    on_decision: Callable[[State, int], bool | None] | None = None,
) -> State:
    """Play one game, printing the board at every turn change and each action taken.

    Every program that plays a game between agents outside a tournament calls this (the papers'
    measurements, ``stratagem play``, training's evaluation, ``stratagem view``), so that they
    all seat, seed and show the agents the same way; what they measure comes through
    ``actions`` and ``on_decision`` instead of a loop of their own.

    Args:
        game: The game.
        players: One agent per seat (the same object may sit in several seats).
        seed: Seed of the initial state, and of the agents' generator unless ``rngs`` is given.
        out: Where the board and the actions are printed.
        verbose: Print them (else play silently).
        actions: When given, every action played is appended to it: with the game's
            configuration and ``seed`` it replays the game (``stratagem replay``/``view``).
        rngs: One generator per seat; ``None``: one generator seeded with ``seed``, shared by
            every seat.
        max_decisions: Stop after this many decisions (the state returned is then not
            terminal); ``None``: play to the end.
        on_decision: Called with the state before each action is applied (read it, never
            change it) and the action chosen; when it returns ``True`` the game stops after
            that action.

    Returns:
        The final state (terminal unless a human quit or a limit above stopped the game).
    """
    if rngs is not None and len(rngs) != len(players):
        raise ValueError(f"rngs needs one generator per seat ({len(players)}), got {len(rngs)}")
    shared = np.random.default_rng(seed) if rngs is None else None
    state = game.new_initial_state(seed)
    order = coordinate_order(game) if verbose else None
    for player in players:
        player.reset()
    if verbose:
        print(state, file=out)
    mover = state.current_player
    played = 0
    while not state.is_terminal() and (max_decisions is None or played < max_decisions):
        seat = state.current_player
        player = players[seat]
        rng = shared if rngs is None else rngs[seat]
        action = player.act(state.observed_by(seat), rng=rng)
        if verbose:
            print(f"player {seat} ({player.name}): {display_name(game, action, order)}", file=out)
        stop = on_decision is not None and on_decision(state, action) is True
        state.apply(action)
        played += 1
        if actions is not None:
            actions.append(int(action))
        if verbose and (state.current_player != mover or state.is_terminal()):
            print(state, file=out)
        mover = state.current_player
        if stop:
            break
    return state
