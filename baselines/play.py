"""``stratagem play``: a person against an agent in the terminal, or agents watched playing.

Each seat is ``human`` or an agent spec (``random``, ``rule_based``, ``mcts:budget=500``). A
human is shown the board and the numbered legal actions by name, and answers with an index or a
name; ``help``, ``board``, ``list`` and ``quit`` are understood, and a bad entry is answered with
a message and a new prompt.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

import numpy as np

from stratagem.baselines.agent import Agent, make_agent
from stratagem.envs.core import Game, State
from stratagem.envs.registry import make_game

__all__ = ["HumanPlayer", "play_game", "register"]

_HELP = (
    "Enter an action by its number or its name (e.g. 'move (3,4)->(4,4)', 'end_turn').\n"
    "Other commands: 'list' shows the legal actions, 'board' the board, 'quit' ends the game."
)


class QuitGame(Exception):
    """The person asked to stop."""


class HumanPlayer:
    """An agent whose decisions are typed by a person.

    Args:
        game: The game being played (to parse action names).
        read: Function returning one line of input (``input`` by default); raising
            ``EOFError`` ends the game.
        out: Stream for prompts and messages.
    """

    name = "human"

    def __init__(
        self,
        game: Game,
        read: Callable[[str], str] = input,
        out: TextIO = sys.stdout,
    ) -> None:
        self.game = game
        self.read = read
        self.out = out

    def reset(self) -> None:
        """Nothing to forget."""

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """Prompt until the person names a legal action."""
        legal = [int(a) for a in state.legal_actions()]
        self._list(state, legal)
        while True:
            try:
                text = self.read(f"player {state.current_player}> ").strip()
            except EOFError:
                raise QuitGame from None
            if not text:
                continue
            if text in ("quit", "exit", "q"):
                raise QuitGame
            if text in ("help", "?"):
                print(_HELP, file=self.out)
                continue
            if text == "list":
                self._list(state, legal)
                continue
            if text == "board":
                print(state, file=self.out)
                continue
            action = self._parse(text, legal)
            if action is not None:
                return action

    def _parse(self, text: str, legal: list[int]) -> int | None:
        if text.lstrip("-").isdigit():
            index = int(text)
            if 0 <= index < len(legal):
                return legal[index]
            print(f"no action number {index}: choose 0..{len(legal) - 1}", file=self.out)
            return None
        try:
            action = self.game.string_to_action(text)
        except ValueError as exc:
            print(f"{exc} (type 'help')", file=self.out)
            return None
        if action not in legal:
            print(f"'{text}' is not legal now; type 'list' for the legal actions", file=self.out)
            return None
        return action

    def _list(self, state: State, legal: list[int]) -> None:
        names = [f"{i:>3}: {self.game.action_to_string(a)}" for i, a in enumerate(legal)]
        width = max(len(n) for n in names) + 2
        columns = max(1, 100 // width)
        print("legal actions:", file=self.out)
        for row in range(0, len(names), columns):
            print(
                "".join(n.ljust(width) for n in names[row : row + columns]).rstrip(), file=self.out
            )


def play_game(
    game: Game,
    players: list[Agent],
    *,
    seed: int = 0,
    out: TextIO = sys.stdout,
    verbose: bool = True,
) -> State:
    """Play one game, printing the board at every turn change and each action taken.

    Returns:
        The final state (terminal unless a human quit).
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
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
                f"player {state.current_player} ({player.name}): {game.action_to_string(action)}",
                file=out,
            )
        state.apply(action)
        if verbose and (state.current_player != mover or state.is_terminal()):
            print(state, file=out)
        mover = state.current_player
    return state


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``play``."""
    from stratagem.envs.commands import add_config_argument

    play = subparsers.add_parser(
        "play", help="play against an agent in the terminal, or watch agents play"
    )
    play.add_argument("game", help="game name (see 'stratagem games')")
    add_config_argument(play)
    play.add_argument(
        "--players",
        default="human,rule_based",
        help="comma-separated seat list: 'human' or an agent spec (default: human,rule_based)",
    )
    play.add_argument("--seed", type=int, default=0, help="game and agent seed")
    play.add_argument("--quiet", action="store_true", help="print only the final board and result")
    play.set_defaults(func=_cmd_play)


def _cmd_play(args: argparse.Namespace) -> int:
    from stratagem.envs.commands import parse_config

    game = make_game(args.game, **parse_config(args.config))
    specs = [s.strip() for s in args.players.split(",")]
    if len(specs) != game.spec.num_players:
        raise ValueError(
            f"{game.spec.name} has {game.spec.num_players} seats, "
            f"--players names {len(specs)}: {args.players!r}"
        )
    players: list[Agent] = [
        HumanPlayer(game) if spec == "human" else make_agent(spec, game) for spec in specs
    ]
    if any(spec == "human" for spec in specs):
        print(_HELP)
    try:
        state = play_game(game, players, seed=args.seed, verbose=not args.quiet)
    except QuitGame:
        print("game abandoned")
        return 0
    if args.quiet:
        print(state)
    returns = state.returns()
    names = ", ".join(f"player {i} ({specs[i]}): {r:+g}" for i, r in enumerate(returns))
    print(f"result: {names}")
    return 0
