"""``stratagem play``: a person against an agent in the terminal, or agents watched playing.

Each seat is ``human`` or an agent spec (``random``, ``rule_based``, ``mcts:budget=500``). A
human is shown the board and the legal actions, each with its **number: its index in the game's
flat action space**, so a number always means the same action (it does not move when the list
changes after a move), and answers with a number or a name; ``help``, ``board``, ``list`` and
``quit`` are understood, and a bad entry is answered with a message and a new prompt.

Coordinates follow one convention in every game: ``(x,y)`` with ``x`` the column (the numbers
across the top of the board) and ``y`` the row (the numbers down its left side), counted from 0
at the top-left. A game whose own action names write ``(row,col)`` (Tribes, as its Java
reference does) is shown and read in ``(x,y)`` here; a legend says so at the start and on
``help``. The game loop and the action names are :mod:`stratagem.baselines.match`'s.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable
from typing import TextIO

import numpy as np

from stratagem.baselines.agent import Agent, make_agent
from stratagem.baselines.match import coordinate_order, display_name, play_game, swap_pairs
from stratagem.envs.core import Game, State
from stratagem.envs.registry import make_game

__all__ = ["HumanPlayer", "QuitGame", "legend", "register"]

_COMMANDS = (
    "Other commands: 'list' shows the legal actions, 'board' the board, 'quit' ends the game."
)


def legend(game: Game) -> str:
    """What the numbers and coordinates of ``stratagem play`` mean, for ``game``."""
    lines = [
        "Enter an action by its number or its name (e.g. 'end_turn'). An action's number is its "
        f"index in the action space (0..{game.spec.action_size - 1}): it always means the same "
        "action.",
    ]
    if coordinate_order(game) is not None:
        lines.append(
            "Coordinates are (x,y): x = column (numbers across the top of the board), y = row "
            "(numbers down the left side), from 0 at the top-left; e.g. 'move (3,4)->(4,4)' "
            "moves the piece in column 3, row 4 one column to the right."
        )
    lines.append(_COMMANDS)
    return "\n".join(textwrap.fill(line, width=100) for line in lines)


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
        self.order = coordinate_order(game)

    def reset(self) -> None:
        """Nothing to forget."""

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """Prompt until the person names a legal action."""
        legal = [int(a) for a in state.legal_actions()]
        self._list(legal)
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
                print(legend(self.game), file=self.out)
                continue
            if text == "list":
                self._list(legal)
                continue
            if text == "board":
                print(state, file=self.out)
                continue
            action = self._parse(text, legal)
            if action is not None:
                return action

    def _name(self, action: int) -> str:
        return display_name(self.game, action, self.order)

    def _parse(self, text: str, legal: list[int]) -> int | None:
        size = self.game.spec.action_size
        if text.lstrip("-").isdigit():
            action = int(text)
            if not 0 <= action < size:
                print(f"no action number {action}: actions are 0..{size - 1}", file=self.out)
                return None
            if action not in legal:
                print(
                    f"action {action} ({self._name(action)}) is not legal now; "
                    "type 'list' for the legal actions",
                    file=self.out,
                )
                return None
            return action
        try:
            action = self.game.string_to_action(
                swap_pairs(text) if self.order == "rowcol" else text
            )
        except ValueError as exc:
            message = str(exc)
            if self.order == "rowcol":
                message = message.replace(swap_pairs(text), text)
            print(f"{message} (type 'help')", file=self.out)
            return None
        if action not in legal:
            print(f"'{text}' is not legal now; type 'list' for the legal actions", file=self.out)
            return None
        return action

    def _list(self, legal: list[int]) -> None:
        names = [f"{a:>{len(str(legal[-1]))}}: {self._name(a)}" for a in legal]
        width = max(len(n) for n in names) + 2
        columns = max(1, 100 // width)
        print("legal actions (number: name):", file=self.out)
        for row in range(0, len(names), columns):
            print(
                "".join(n.ljust(width) for n in names[row : row + columns]).rstrip(), file=self.out
            )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``play``."""
    from stratagem.envs.cli_options import add_config_argument, non_negative_int

    play = subparsers.add_parser(
        "play", help="play against an agent in the terminal, or watch agents play"
    )
    play.add_argument("game", help="game name (see 'stratagem games')")
    add_config_argument(play)
    play.add_argument(
        "--players",
        default="human,rule_based",
        help="comma-separated seat list: 'human' or an agent spec, whose own key=value "
        "parameters may follow it ('mcts:budget=500,c=1.4,human'; default: human,rule_based)",
    )
    play.add_argument(
        "--seed", type=non_negative_int, default=0, help="game and agent seed, >= 0 (default 0)"
    )
    play.add_argument("--quiet", action="store_true", help="print only the final board and result")
    play.set_defaults(func=_cmd_play)


def _cmd_play(args: argparse.Namespace) -> int:
    from stratagem.baselines.tournament.schedule import split_agent_list
    from stratagem.envs.cli_options import parse_config

    game = make_game(args.game, **parse_config(args.config))
    specs = split_agent_list(args.players)
    if len(specs) != game.spec.num_players:
        raise ValueError(
            f"{game.spec.name} has {game.spec.num_players} seats, "
            f"--players names {len(specs)}: {args.players!r}"
        )
    players: list[Agent] = [
        HumanPlayer(game) if spec == "human" else make_agent(spec, game) for spec in specs
    ]
    if any(spec == "human" for spec in specs):
        print(legend(game))
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
