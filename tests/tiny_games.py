"""A tic-tac-toe game implementing the contract, for training tests (tests only, not shipped).

Registered as ``tictactoe_test`` on import. Observation 3×3×3: own marks, opponent marks, a
plane of ones when the observer is to move. Actions 0..8 are the cells in reading order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.envs.core import Game, GameSpec, InvalidStateError, State, check_seed
from stratagem.envs.registry import _REGISTRY, register

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToeGame(Game):
    def __init__(self) -> None:
        self.spec = GameSpec(
            name="tictactoe_test",
            version=1,
            num_players=2,
            action_size=9,
            observation_shape=(3, 3, 3),
            max_game_length=9,
            observation_planes=("own", "opponent", "to_move"),
            config={},
        )

    def new_initial_state(self, seed: int | None = None) -> TicTacToeState:
        check_seed(seed, "tictactoe_test")  # the contract: every game refuses bad seeds
        return TicTacToeState(self)

    def action_to_string(self, action: int) -> str:
        return f"cell{int(action)}"

    def string_to_action(self, text: str) -> int:
        if not (
            isinstance(text, str)
            and text.startswith("cell")
            and text[4:].isdigit()
            and 0 <= int(text[4:]) < 9
        ):
            raise ValueError(f"not a tic-tac-toe action: {text!r}")
        return int(text[4:])

    def _state_from_dict(self, data: dict[str, Any]) -> TicTacToeState:
        state = TicTacToeState(self)
        board = data["board"]
        if len(board) != 9 or any(v not in (-1, 0, 1) for v in board):
            raise InvalidStateError("bad board")
        state.board = list(board)
        state.current_player = data["current_player"]
        state.winner = data["winner"]
        return state


class TicTacToeState(State):
    def __init__(self, game: TicTacToeGame) -> None:
        self.game = game
        self.board = [-1] * 9
        self.current_player = 0
        self.winner: int | None = None

    def clone(self) -> TicTacToeState:
        c = TicTacToeState.__new__(TicTacToeState)
        c.game, c.board, c.current_player, c.winner = (
            self.game,
            self.board[:],
            self.current_player,
            self.winner,
        )
        return c

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(9, dtype=bool)
        if self.winner is None:
            mask[[i for i in range(9) if self.board[i] < 0]] = True
        return mask

    def apply(self, action: int) -> None:
        action = self.check_action_index(action)
        if self.winner is not None or self.board[action] >= 0:
            raise self.illegal(action, "cell taken or game over")
        self.board[action] = self.current_player
        if any(all(self.board[i] == self.current_player for i in line) for line in LINES):
            self.winner = self.current_player
        elif all(v >= 0 for v in self.board):
            self.winner = -1
        self.current_player = 1 - self.current_player

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> np.ndarray:
        out = np.zeros(2)
        if self.winner is not None and self.winner >= 0:
            out[self.winner], out[1 - self.winner] = 1.0, -1.0
        return out

    def observation(self, player: int) -> np.ndarray:
        b = np.asarray(self.board).reshape(3, 3)
        obs = np.zeros((3, 3, 3), dtype=np.float32)
        obs[:, :, 0] = b == player
        obs[:, :, 1] = b == 1 - player
        obs[:, :, 2] = float(self.current_player == player and self.winner is None)
        return obs

    def _to_dict(self) -> dict[str, Any]:
        return {"board": self.board, "current_player": self.current_player, "winner": self.winner}

    def __str__(self) -> str:
        marks = {-1: ".", 0: "X", 1: "O"}
        return "\n".join("".join(marks[v] for v in self.board[r * 3 : r * 3 + 3]) for r in range(3))


def _factory() -> TicTacToeGame:
    return TicTacToeGame()


if "tictactoe_test" not in _REGISTRY:
    register(
        "tictactoe_test",
        _factory,
        description="tic-tac-toe (tests only)",
        env_id="stratagem/TicTacToeTest-v0",
        test_configs=({},),
    )

# A test module importing this one may do so after `import stratagem` registered the Gymnasium
# ids, and suites that loop over every registered game then expect this game's id too.
from stratagem.wrappers.gym_env import register_gymnasium_envs  # noqa: E402

register_gymnasium_envs()
