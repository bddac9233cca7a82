"""Gymnasium vector environment over a batched game: the learner against a batched opponent.

:class:`BatchedVectorEnv` is the vector version of
:class:`~stratagem.wrappers.gym_env.SingleAgentEnv` for the games that have a batched version
(:mod:`stratagem.envs.batched`): ``num_envs`` games live in one batch of tensors (CPU or CUDA),
so a step costs a handful of tensor operations instead of ``num_envs`` Python games. The
conventions are SingleAgentEnv's: the observation is the game's float32 ``H × W × C`` planes
seen by the learner, the legal-action mask is ``info["action_mask"]`` (int8) and
:meth:`BatchedVectorEnv.action_masks`, the learner's seat is drawn for every episode
(``seat="random"``, see ``docs/seats.md``) or fixed, and the reward is the learner's return
when its game ends (0 before).

The opponent plays inside :meth:`~BatchedVectorEnv.step`, in every game where it is to move,
until the learner is to move again or the game ended; it plays one decision at a time for all
those games at once (a loop over decisions, not over games). It is ``"random"`` (uniform over
the legal actions, from a generator seeded by :meth:`~BatchedVectorEnv.reset`) or a callable
``opponent(observations, masks) -> actions`` that receives the ``(n, H, W, C)`` float32
observations (each from the mover's seat) and ``(n, num_actions)`` bool masks of the ``n``
games where it is to move, as tensors on the env's device, and returns ``n`` integer actions
(a tensor, array or list). It is called under :func:`torch.no_grad`. A torch policy network
becomes one with a masked argmax (or a masked sample)::

    def greedy(net: torch.nn.Module) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
        def act(observations: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
            logits = net(observations)  # (n, num_actions)
            return logits.masked_fill(~masks, float("-inf")).argmax(dim=1)

        return act

Autoreset follows Gymnasium's three modes (``autoreset_mode=``, default
``AutoresetMode.NEXT_STEP``, recorded in ``metadata["autoreset_mode"]``), as its
``SyncVectorEnv`` runs them:

- ``NEXT_STEP``: the step that ends a sub-environment's episode returns its terminal observation
  (``terminations[i]`` True, the reward), and the next :meth:`~BatchedVectorEnv.step` ignores
  that sub-environment's action and starts a new game there (reward 0, not terminated). As in
  SingleAgentEnv, the mask on the terminal step allows every action (no action is legal, but
  the next action is ignored and an all-zero mask would break masked sampling).
- ``SAME_STEP``: the step that ends an episode starts the next game at once and returns its first
  observation, with the reward and ``terminations[i]`` of the ended one; the terminal
  observation is ``info["final_obs"][i]`` (a numpy object array, ``None`` where no episode
  ended; with ``as_tensors`` one ``(num_envs, H, W, C)`` tensor whose rows count where
  ``info["_final_obs"]``) and its info ``info["final_info"]`` (mask and seat of the ended
  episode), each with its ``_`` flags.
- ``DISABLED``: nothing restarts by itself; stepping a sub-environment whose episode ended is an
  error until ``reset(options={"reset_mask": ...})`` restarts it.

A game that ends before the learner's first decision (only possible on boards where a seat can
win in its opening turn) has no decision to report and is replaced at once by another.

An illegal learner action in a live sub-environment raises
:class:`~stratagem.envs.core.IllegalActionError` naming the sub-environment, and nothing is
played (the batch is as before the call): there is no "lose on an illegal action" mode, since
a batched learner samples from the mask.

With ``as_tensors=True`` every array returned (observations, rewards, flags, info values) is a
torch tensor on the device instead of a numpy array, for training loops that stay on the GPU.

``gym.make_vec("stratagem/PushThemAll-v0", num_envs=64)`` builds this class (the ids of games
with a batched version register it as their ``vector_entry_point``); pass
``vectorization_mode="sync"`` or ``"async"`` for Gymnasium's vector envs over SingleAgentEnv
(which take any agent spec as the opponent).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from stratagem.envs.batched import BatchedGame, BatchedState, batched_game, sample_legal
from stratagem.envs.batched.core import action_tensor
from stratagem.envs.core import ActionTypeError, IllegalActionError
from stratagem.envs.registry import game_entry, make_game
from stratagem.wrappers.gym_env import check_seat

__all__ = ["BatchedVectorEnv", "Opponent"]

#: An opponent: ``(observations (n, H, W, C) float32, masks (n, A) bool) -> (n,) int actions``.
Opponent = Callable[[torch.Tensor, torch.Tensor], Any]

#: Game seeds are drawn below this bound (as SingleAgentEnv draws them).
_SEED_BOUND = 2**31
#: Times in a row a game may end before the learner's first decision before giving up.
_MAX_REDRAWS = 100


class BatchedVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of the learner against an opponent, as one batch (module docstring).

    Args:
        game: Registry name of a game with a batched version (``"push_them_all"``).
        num_envs: Number of sub-environments (games played side by side).
        opponent: ``"random"`` or a callable ``(observations, masks) -> actions`` (see the
            module docstring); it plays every seat but the learner's.
        seat: The learner's seat, or ``"random"`` (the default) to draw it for every episode.
        device: Where the batch lives (``"cpu"``, ``"cuda"``, a :class:`torch.device`).
        as_tensors: Return torch tensors on ``device`` instead of numpy arrays.
        compile: Run the game's rules through ``torch.compile`` (``batched_game(...,
            compile=True)``: on the CPU it needs a C++ compiler, and each new batch size
            compiles for a few seconds first).
        autoreset_mode: An :class:`~gymnasium.vector.AutoresetMode` or its value
            (``"NextStep"``, ``"SameStep"``, ``"Disabled"``); see the module docstring.
        render_mode: Only ``None``: a batch of tensors has no picture (render a position
            with ``env.game`` or use ``gym.make_vec(..., vectorization_mode="sync")``).
        **config: The game's configuration keywords (``map=...``).

    Attributes:
        game: The scalar game (its rules and configuration).
        batched: The batched game.
        seat: ``(num_envs,)`` int64 tensor, the learner's seat in each sub-environment's
            current episode (also ``info["seat"]``).
        state: The current batch of positions (the forward model of every sub-environment).
        opponent: The opponent callable, or ``"random"``.

    Raises:
        UnknownOptionError: For an unknown keyword (a ``TypeError`` and a ``ValueError``).
        ValueError: For a game without a batched version, or a bad ``num_envs``, opponent,
            seat, device, ``as_tensors``, ``autoreset_mode``, ``render_mode`` or option value.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        game: str,
        num_envs: int = 1,
        opponent: str | Opponent = "random",
        seat: int | str = "random",
        device: torch.device | str = "cpu",
        as_tensors: bool = False,
        compile: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        render_mode: str | None = None,
        **config: Any,
    ) -> None:
        self.game = make_game(game, **config)
        spec = self.game.spec
        self._name = game_entry(game).env_id
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = ", ".join(repr(m.value) for m in AutoresetMode)
            raise ValueError(
                f"{self._name}: autoreset_mode must be an AutoresetMode or one of {modes}, "
                f"got {autoreset_mode!r}"
            ) from None
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        if render_mode is not None:
            raise ValueError(
                f"{self._name}: the batched vector env renders nothing (render_modes []), got "
                f"render_mode={render_mode!r}; render a position with env.game, or make "
                "Gymnasium's vector env with gym.make_vec(..., vectorization_mode='sync')"
            )
        self.render_mode = None
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise ValueError(f"{self._name}: num_envs must be a positive integer, got {num_envs!r}")
        if num_envs < 1:
            raise ValueError(f"{self._name}: num_envs must be a positive integer, got {num_envs}")
        seat = check_seat(seat, spec.num_players, self._name)
        if not (opponent == "random" or (callable(opponent) and not isinstance(opponent, str))):
            raise ValueError(
                f"{self._name}: opponent must be 'random' or a callable (observations, masks) "
                f"-> actions, got {opponent!r}; agent specs such as 'rule_based' play in "
                "gym.make_vec(..., vectorization_mode='sync'), over SingleAgentEnv"
            )
        if not isinstance(as_tensors, bool):
            raise ValueError(f"{self._name}: as_tensors must be True or False, got {as_tensors!r}")
        if not isinstance(compile, bool):
            raise ValueError(f"{self._name}: compile must be True or False, got {compile!r}")
        try:
            device = torch.device(device)
        except (RuntimeError, TypeError) as exc:
            raise ValueError(f"{self._name}: bad device {device!r}: {exc}") from None
        self.batched: BatchedGame[Any] = batched_game(self.game, device, compile=compile)
        self.device = device
        self.num_envs = int(num_envs)
        self.opponent = opponent
        self.seat_option = seat
        self.as_tensors = as_tensors
        low, high = spec.observation_bounds
        self.single_observation_space = spaces.Box(low, high, spec.observation_shape, np.float32)
        self.single_action_space = spaces.Discrete(spec.action_size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self.seat = torch.full((n,), 0 if seat == "random" else int(seat), device=device)
        self.state: BatchedState | None = None
        self._generator = torch.Generator(device=device)
        self._mask = torch.ones(n, spec.action_size, dtype=torch.bool, device=device)
        self._autoreset = torch.zeros(n, dtype=torch.bool, device=device)

    # ----------------------------------------------------------------- Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """New games in every sub-environment (or those of ``options["reset_mask"]``).

        The opponent plays its opening moves where the learner's seat is not first.

        Args:
            seed: Seeds the generator of the game seeds, the seats and the random opponent
                (``None``: go on with the current stream).
            options: ``{"reset_mask": (num_envs,) bool array}`` resets only those
                sub-environments (Gymnasium's partial reset); no other option exists.

        Raises:
            TypeError: If ``seed`` is not an integer or ``None``.
            ValueError: For an unknown option or a bad ``reset_mask``, or a partial reset
                before the first full one.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"{self._name}: seed must be an integer or None, got {seed!r}")
        unknown = sorted(set(options or {}) - {"reset_mask"})
        if unknown:
            raise ValueError(f"{self._name}: unknown reset option(s) {unknown}; valid: reset_mask")
        reseed = seed is not None or self.state is None
        super().reset(seed=seed)
        where = self._reset_mask((options or {}).get("reset_mask"))
        # game seeds, then seats, in SingleAgentEnv's order: with num_envs=1 and the same seed
        # the first game and seat are SingleAgentEnv's
        if where is None:
            where = torch.ones(self.num_envs, dtype=torch.bool, device=self.device)
            self.state = self.batched.init(self._game_seeds(self.num_envs))
            self._draw_seats(where, self.num_envs)
        else:
            self._replace(where, int(where.sum()))
        if reseed:
            self._generator.manual_seed(int(self.np_random.integers(2**63)))
        self._settle(where)
        terminated = self._finish_step()
        assert not bool((terminated & where).any())  # settled: the learner is to move there
        return self._out(self._observation()), self._info()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """The learner's action in each sub-environment, then the opponent's replies.

        Args:
            actions: ``(num_envs,)`` integer actions (a numpy array, torch tensor or list);
                those of sub-environments that ended at the previous step are ignored.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``: numpy arrays
            (float32 ``(num_envs, H, W, C)``, float64, bool, bool), or tensors on the device
            with ``as_tensors``; ``truncations`` is always False (games end by their rules).

        Raises:
            RuntimeError: Before the first :meth:`reset`.
            ActionTypeError: If ``actions`` are not integers (a ``TypeError``).
            ValueError: If ``actions`` does not have shape ``(num_envs,)``.
            IllegalActionError: For an illegal action in a live sub-environment (the first is
                named); nothing is played.
        """
        if self.state is None:
            raise RuntimeError(f"{self._name}: step() called before reset(); call reset()")
        restart = self._autoreset
        if self.autoreset_mode == AutoresetMode.DISABLED and bool(restart.any()):
            ended = torch.nonzero(restart)[:, 0].tolist()
            raise RuntimeError(
                f"{self._name}: the episodes of sub-environment(s) {ended} ended and "
                "autoreset_mode is DISABLED: restart them with "
                "reset(options={'reset_mask': ...}) before stepping"
            )
        acts = self._learner_actions(actions)
        live = ~restart
        count = int(restart.sum())
        self.state = self.batched.step(
            self.state, torch.where(live, acts, 0), active=live, validate=False
        )
        if count:
            self._replace(restart, count)
        self._settle(restart)
        terminated = self._finish_step()
        seat = self.seat[:, None]
        rewards = torch.where(
            terminated, self.batched.returns(self.state).gather(1, seat)[:, 0], 0.0
        )
        truncated = torch.zeros_like(terminated)
        final: dict[str, Any] = {}
        if self.autoreset_mode == AutoresetMode.SAME_STEP and bool(terminated.any()):
            final = self._final(terminated)
            self._replace(terminated, int(terminated.sum()))
            self._settle(terminated)
            assert not bool(self._finish_step().any())  # settled: the learner is to move
        info = {**self._info(), **final}
        if self.as_tensors:
            return self._observation(), rewards, terminated, truncated, info
        return (
            self._observation().cpu().numpy(),
            rewards.cpu().numpy().astype(np.float64),
            terminated.cpu().numpy(),
            truncated.cpu().numpy(),
            info,
        )

    def action_masks(self) -> np.ndarray:
        """``(num_envs, num_actions)`` int8 legal-action masks of the learner (numpy).

        A sub-environment whose episode just ended (and every one before the first reset)
        allows every action: its next action is ignored (see the module docstring).
        """
        return self._mask.to(torch.int8).cpu().numpy()

    # ----------------------------------------------------------------- internals
    def _reset_mask(self, mask: Any) -> torch.Tensor | None:
        if mask is None:
            return None
        if self.state is None:
            raise ValueError(f"{self._name}: a partial reset (reset_mask) needs a full reset first")
        if isinstance(mask, torch.Tensor):
            mask = mask.cpu().numpy()
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise ValueError(f"{self._name}: options['reset_mask'] must be a numpy bool array")
        if mask.shape != (self.num_envs,):
            raise ValueError(
                f"{self._name}: options['reset_mask'] must have shape ({self.num_envs},), "
                f"got {mask.shape}"
            )
        return torch.from_numpy(mask.copy()).to(self.device)

    def _learner_actions(self, actions: Any) -> torch.Tensor:
        """``actions`` as an int64 tensor on the device, checked against the learner's masks."""
        actions = action_tensor(
            actions, self.num_envs, self.device, where=self._name, per="sub-environment"
        )
        size = self.single_action_space.n
        live = ~self._autoreset
        outside = live & ((actions < 0) | (actions >= size))
        legal = self._mask.gather(1, actions.clamp(0, size - 1)[:, None])[:, 0]
        bad = outside | (live & ~legal)
        if bool(bad.any()):
            i = int(torch.nonzero(bad)[0])
            a = int(actions[i])
            what = (
                f"outside the action space 0..{size - 1}"
                if bool(outside[i])
                else f"({self.game.action_to_string(a)}) masked out"
            )
            raise IllegalActionError(
                f"{self._name}: illegal action {a} {what} in sub-environment {i} (the learner, "
                f"seat {int(self.seat[i])}); {int(bad.sum())} of {self.num_envs} "
                "sub-environments got an illegal action and nothing was played"
            )
        return actions

    def _game_seeds(self, count: int) -> list[int]:
        return self.np_random.integers(_SEED_BOUND, size=count).tolist()

    def _draw_seats(self, where: torch.Tensor, count: int) -> None:
        """Draw the learner's seat of the new episodes at ``where`` (with ``seat="random"``)."""
        if self.seat_option != "random":
            return
        drawn = self.np_random.integers(self.batched.num_players, size=count)
        seat = self.seat.clone()
        seat[where] = torch.as_tensor(drawn, device=self.device)
        self.seat = seat

    def _replace(self, where: torch.Tensor, count: int) -> None:
        """New games (and seats) at ``where`` (``count`` of them)."""
        assert self.state is not None
        self.state = self.batched.reset_where(self.state, where, self._game_seeds(count))
        self._draw_seats(where, count)

    def _settle(self, fresh: torch.Tensor) -> None:
        """Let the opponent play wherever it is to move; replace new games that it ended."""
        for _ in range(_MAX_REDRAWS):
            self._play_opponent()
            assert self.state is not None
            fresh = fresh & self.batched.terminated(self.state)
            count = int(fresh.sum())
            if not count:
                return
            self._replace(fresh, count)
        raise RuntimeError(
            f"{self._name}: {_MAX_REDRAWS} new games in a row ended before the learner's first "
            "decision; this board leaves the learner no game to play"
        )

    def _play_opponent(self) -> None:
        """One opponent decision per loop in all games where it is to move, until none is."""
        batched = self.batched
        while True:
            state = self.state
            assert state is not None
            moving = ~batched.terminated(state) & (batched.current_player(state) != self.seat)
            if not bool(moving.any()):
                return
            if self.opponent == "random":
                actions = sample_legal(batched, state, self._generator)
                self.state = batched.step(state, actions, active=moving, validate=False)
                continue
            index = torch.nonzero(moving)[:, 0]
            sub = state.take(index)
            with torch.no_grad():
                chosen = self.opponent(batched.observation(sub), batched.legal_mask(sub))
            actions = torch.zeros(self.num_envs, dtype=torch.int64, device=self.device)
            actions[index] = self._opponent_actions(chosen, len(index))
            try:
                self.state = batched.step(state, actions, active=moving)
            except IllegalActionError as exc:
                raise IllegalActionError(f"{self._name}: the opponent played {exc}") from None

    def _opponent_actions(self, chosen: Any, count: int) -> torch.Tensor:
        if isinstance(chosen, (list, tuple, np.ndarray)):
            chosen = torch.as_tensor(np.asarray(chosen))
        if not isinstance(chosen, torch.Tensor) or (
            chosen.dtype.is_floating_point or chosen.dtype.is_complex or chosen.dtype == torch.bool
        ):
            raise ActionTypeError(
                f"{self._name}: the opponent must return integer actions (a tensor, array or "
                f"list), got {getattr(chosen, 'dtype', type(chosen).__name__)}"
            )
        if tuple(chosen.shape) != (count,):
            raise ValueError(
                f"{self._name}: the opponent was asked for {count} actions and returned shape "
                f"{tuple(chosen.shape)}"
            )
        return chosen.to(self.device, torch.int64)

    def _finish_step(self) -> torch.Tensor:
        """Record the ended games (autoreset next step) and the learner's masks; ended flags."""
        assert self.state is not None
        terminated = self.batched.terminated(self.state)
        mask = self.batched.legal_mask(self.state)
        self._mask = mask | terminated[:, None]
        self._autoreset = terminated
        return terminated

    def _observation(self) -> torch.Tensor:
        assert self.state is not None
        return self.batched.observation(self.state, self.seat)

    def _out(self, value: torch.Tensor) -> Any:
        return value if self.as_tensors else value.cpu().numpy()

    def _info(self, where: torch.Tensor | None = None) -> dict[str, Any]:
        """The step's info: masks and seats, flagged at ``where`` (every sub-environment).

        Rows outside ``where`` are zeroed, as Gymnasium leaves the entries of sub-environments
        without that info; the every-step info (``where=None``) needs no zeroing.
        """
        mask, seat = self._mask.to(torch.int8), self.seat.clone()
        if where is None:
            where = torch.ones(self.num_envs, dtype=torch.bool, device=self.device)
        else:
            mask, seat = mask * where[:, None], seat * where
        info = {"action_mask": mask, "_action_mask": where, "seat": seat, "_seat": where}
        return {key: self._out(value) for key, value in info.items()}

    def _final(self, ended: torch.Tensor) -> dict[str, Any]:
        """``SAME_STEP``'s ``final_obs`` and ``final_info`` of the episodes ``ended`` now.

        As Gymnasium's vector envs give them: the terminal observations in an object array
        (``None`` elsewhere), their infos as arrays flagged where an episode ended.
        """
        observation = self._observation()
        flags = self._out(ended.clone())
        if self.as_tensors:
            final_obs: Any = observation * ended[:, None, None, None]
        else:
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in torch.nonzero(ended)[:, 0].tolist():
                final_obs[i] = observation[i].cpu().numpy()
        return {
            "final_obs": final_obs,
            "_final_obs": flags,
            "final_info": self._info(ended),
            "_final_info": flags,
        }
