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
        # the planned turn, the position expected before each of its actions, the next one
        self._plan: list[int] = []
        self._positions: list[PrismataState] = []
        self._next = 0
        self.last_stats: SearchStats | None = None
        self.turn_stats: list[SearchStats] = []

    def reset(self) -> None:
        """Forget the current plan and the statistics."""
        self._plan = []
        self._positions = []
        self._next = 0
        self.turn_stats = []

    def act(self, state: PrismataState, *, rng: np.random.Generator) -> int:
        """The next action of this player's planned turn (planning it when needed)."""
        i = self._next
        if not (i < len(self._plan) and self._positions[i].same_position(state)):
            plan, positions = self.player.plan_move(state, rng)
            stats = getattr(self.player, "last_stats", None)
            if stats is not None:
                self.last_stats = stats
                self.turn_stats.append(stats)
            if not plan:
                raise RuntimeError(f"{self.name} planned an empty turn")
            self._plan = list(plan)
            self._positions = self._check(state, plan) if positions is None else positions
            i = 0
        self._next = i + 1
        return self._plan[i]

    def _check(self, state: PrismataState, plan: list[int]) -> list[PrismataState]:
        """Replay ``plan`` on a copy of ``state``: the positions before each of its actions.

        A planner's bug (an illegal action) raises here rather than reaching the game.
        """
        check = state.clone()
        positions = []
        for a in plan:
            if a not in check.legal_action_list():
                raise RuntimeError(
                    f"{self.name} planned an illegal action "
                    f"{self.game.action_to_string(a)} in its turn {plan}"
                )
            positions.append(check.clone())
            check.apply(a)
        return positions

    def __repr__(self) -> str:
        return f"PrismataBotAgent(bot={self.bot!r})"


class PrismataRuleBasedAgent(PrismataBotAgent):
    """The game's ``rule_based`` agent: the reference's scripted ``Playout`` player by default.

    ``make_agent("rule_based:bot=Master", game)`` builds any configured bot through this class,
    which works in any process (the registry names this class).
    """
