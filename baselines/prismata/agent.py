"""Prismata bots as stratagem agents: a whole-turn plan handed out one action at a time.

The reference's players choose a whole turn (a ``Move``); stratagem's :class:`Agent` returns one
action per call. :class:`PrismataBotAgent` computes the turn when its player is first asked,
then hands out the planned actions while the state is the one the plan expects, and plans
again otherwise (a new turn, or someone else moved).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines.agent import BaseAgent
from stratagem.baselines.prismata.config import load_config
from stratagem.baselines.prismata.search import SearchStats, TurnPlayer
from stratagem.envs.core import Game
from stratagem.envs.prismata.rules import PrismataGame, PrismataState

__all__ = ["PrismataBotAgent", "PrismataRuleBasedAgent"]


def _signature(state: PrismataState) -> tuple[Any, ...]:
    """What must match for a planned turn to go on: the position (see ``position_key``)."""
    return state.position_key()


class PrismataBotAgent(BaseAgent):
    """A named player of the AI configuration (``bots.toml``) playing Prismata.

    Args:
        game: A Prismata game.
        bot: Player name in the configuration (``Master``, ``Expert``, ``Medium``, ``Easy``,
            ``Docile``, ``Random``, ``Playout``, ``UCT100``, ``AB1000``, ...).
        config: Path of an AI configuration file (default: the packaged ``bots.toml``).
        **overrides: Search parameters replacing the configured ones (``time_limit_ms``,
            ``max_playouts``, ``max_depth``, ...).

    Raises:
        ValueError: For another game, an unknown bot or a bad parameter.
    """

    def __init__(
        self, game: Game, bot: str = "Playout", config: str | Path | None = None, **overrides: Any
    ) -> None:
        if not isinstance(game, PrismataGame):
            raise ValueError(f"Prismata bots play Prismata, not {game.spec.name}")
        self.game = game
        self.bot = str(bot)
        self.player: TurnPlayer = load_config(config).player(self.bot, **overrides)
        self.name = f"prismata:{self.bot}"
        self._plan: list[int] = []
        self._expected: PrismataState | None = None
        self.last_stats: SearchStats | None = None
        self.turn_stats: list[SearchStats] = []

    def reset(self) -> None:
        """Forget the current plan and the statistics."""
        self._plan = []
        self._expected = None
        self.turn_stats = []

    def act(self, state: PrismataState, *, rng: np.random.Generator) -> int:
        """The next action of this player's planned turn (planning it when needed)."""
        if not (
            self._plan
            and self._expected is not None
            and _signature(self._expected) == _signature(state)
        ):
            plan = self.player.get_move(state, rng)
            stats = getattr(self.player, "last_stats", None)
            if stats is not None:
                self.last_stats = stats
                self.turn_stats.append(stats)
            check = state.clone()
            for a in plan:
                if a not in check.legal_action_list():
                    raise RuntimeError(
                        f"{self.name} planned an illegal action "
                        f"{self.game.action_to_string(a)} in its turn {plan}"
                    )
                check.apply(a)
            if not plan:
                raise RuntimeError(f"{self.name} planned an empty turn")
            self._plan = list(plan)
            self._expected = state.clone()
        action = self._plan.pop(0)
        self._expected.apply(action)  # type: ignore[union-attr]
        return action

    def __repr__(self) -> str:
        return f"PrismataBotAgent(bot={self.bot!r})"


class PrismataRuleBasedAgent(PrismataBotAgent):
    """The game's ``rule_based`` agent: the reference's scripted ``Playout`` player by default.

    ``make_agent("rule_based:bot=Master", game)`` builds any configured bot through this class,
    which works in any process (the registry names this class).
    """
