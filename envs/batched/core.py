"""Games as batches of positions in torch tensors: the interface every batched game implements.

A scalar game (:class:`~stratagem.envs.core.Game`) advances one position per Python call. A
batched game advances ``B`` positions per call with tensor operations and no Python loop over
games or units, which is what a GPU (and a CPU's vector units) must be fed to pay (Pgx's design,
here in torch so that the same tensors go straight into a torch network).

The interface is functional, as in Pgx and mctx: a position batch is an immutable
:class:`BatchedState` (a dataclass of tensors whose first dimension is the batch) and
:meth:`BatchedGame.step` returns a new one. A tree search can therefore keep the states of many
nodes, gather them by index (:meth:`BatchedState.take`) and select between two batches
(:meth:`BatchedState.where`) without copying games one by one.

Semantics every batched game shares:

* **Bit-identical to the scalar rules.** :meth:`BatchedGame.to_scalar` and
  :meth:`BatchedGame.from_scalar` convert; the tests play thousands of random games in both and
  compare states, masks, observations and returns at every step.
* **Finished games stay as they ended.** :meth:`BatchedGame.step` ignores the action of a
  finished game (Pgx's convention), so a batch can be stepped as a whole; resetting finished
  games is the caller's choice (:meth:`BatchedGame.reset_where`, or
  :class:`~stratagem.envs.batched.env.BatchedEnv`, which does it automatically).
* **Only some games may move.** ``step(..., active=mask)`` leaves the games where ``mask`` is
  False untouched: that is how an opponent moves only in the games where it is to play.
* **Illegal actions raise.** With ``validate=True`` (the default) an illegal action of a live,
  active game raises :class:`~stratagem.envs.core.IllegalActionError` naming the game, the
  action and the player, and nothing is returned; a search that only ever picks legal actions
  passes ``validate=False`` and saves the mask computation.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import shutil
import sysconfig
import types
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import torch

from stratagem.envs.batched.seeding import BoardPicker
from stratagem.envs.core import ActionTypeError, Game, IllegalActionError, State
from stratagem.envs.registry import batched_game_names, game_entry

__all__ = [
    "BatchedGame",
    "BatchedState",
    "action_tensor",
    "batched_game",
    "compile_unavailable",
    "has_batched",
    "sample_legal",
]

S = TypeVar("S", bound="BatchedState")


@dataclasses.dataclass(frozen=True)
class BatchedState:
    """A batch of positions: every field is a tensor whose first dimension is the batch.

    Subclasses (one per game) are frozen dataclasses that declare their tensor fields. Methods
    build new batches; no method changes a batch in place, so a batch can be shared.
    """

    @property
    def batch_size(self) -> int:
        """Number of positions in the batch."""
        return int(getattr(self, dataclasses.fields(self)[0].name).shape[0])

    @property
    def device(self) -> torch.device:
        """The device the tensors live on."""
        return getattr(self, dataclasses.fields(self)[0].name).device

    def map(self: S, fn: Callable[[torch.Tensor], torch.Tensor]) -> S:
        """A batch of the same type with ``fn`` applied to every field."""
        return type(self)(**{f.name: fn(getattr(self, f.name)) for f in dataclasses.fields(self)})

    def replace(self: S, **fields: torch.Tensor) -> S:
        """A batch with some fields replaced (the others are shared, not copied)."""
        return dataclasses.replace(self, **fields)

    def take(self: S, index: torch.Tensor | Sequence[int] | slice) -> S:
        """The positions at ``index`` (a slice, a list or tensor of indices, or a bool mask)."""
        return self.map(lambda t: t[index])

    def where(self: S, mask: torch.Tensor, other: S) -> S:
        """Per position: this batch's where ``mask`` (shape ``(B,)``) is True, else ``other``'s."""
        if type(other) is not type(self):
            raise TypeError(f"cannot mix a {type(self).__name__} with a {type(other).__name__}")

        def pick(name: str) -> torch.Tensor:
            a, b = getattr(self, name), getattr(other, name)
            return torch.where(mask.view(-1, *([1] * (a.dim() - 1))), a, b)

        return type(self)(**{f.name: pick(f.name) for f in dataclasses.fields(self)})

    def to(self: S, device: torch.device | str) -> S:
        """The same batch on ``device``."""
        return self.map(lambda t: t.to(device))

    @classmethod
    def cat(cls: type[S], batches: Sequence[S]) -> S:
        """One batch holding ``batches`` one after the other."""
        if not batches:
            raise ValueError("cannot concatenate an empty list of batches")
        names = [f.name for f in dataclasses.fields(batches[0])]
        return cls(**{n: torch.cat([getattr(b, n) for b in batches]) for n in names})


class BatchedGame(ABC, Generic[S]):
    """A game's rules over batches of positions (see the module docstring).

    Args:
        game: The scalar game whose rules (and configuration: map, round limit) this batches.
        device: Where the tensors live (``"cpu"``, ``"cuda"``, a :class:`torch.device`).
        compile: Run :meth:`step` and :func:`sample_legal` through ``torch.compile`` (see
            :meth:`compile_rules`).

    Attributes:
        game: The scalar game.
        spec: Its :class:`~stratagem.envs.core.GameSpec` (action size, observation shape).
        device: The device of every tensor this game creates.
        candidates: ``K``, the width of :meth:`legal_candidates` (set by each game).
        compiled: Whether the rules run compiled.
    """

    candidates: int

    def __init__(
        self, game: Game, device: torch.device | str = "cpu", *, compile: bool = False
    ) -> None:
        self.game = game
        self.spec = game.spec
        self.device = torch.device(device)
        self.compiled = False
        self._board_picker = BoardPicker(len(getattr(game, "boards", (None,))))
        self._step_rules: Callable[[S, torch.Tensor, torch.Tensor], S] = self._step
        self._sample_rules: Callable[[S, torch.Tensor], torch.Tensor] = self._sample
        self._random_rules: Callable[[S, torch.Tensor], tuple[S, torch.Tensor]] = self._random_step
        if compile:
            self.compile_rules()

    def compile_rules(self) -> None:
        """Compile :meth:`step`'s rules and the sampler with ``torch.compile`` (inductor).

        A step of a batch is a few dozen small tensor operations; on one CPU thread their number,
        not their size, sets the speed, and inductor fuses them into a few loops (on Push Them
        All at batch 1,024 about twice the steps/s; docs/benchmarks.md). Same results as the
        uncompiled rules (the differential tests run both). Each batch size compiles once, on
        its first call (seconds; inductor's on-disk cache shortens later runs), into loops
        specialised to its shapes (compiled for any size, dynamic shapes, a step of 1,024 games
        took 1.6 times as long). Every game object and batch size has its own compiled copy, so
        that no number of them runs into torch's recompile limit. ``compile=True`` calls this;
        nothing is compiled before the first call.

        Raises:
            RuntimeError: On a CPU device when no C++ compiler is on the PATH or Python's headers
                are missing (inductor writes C++ for the CPU), naming what to install.
        """
        missing = compile_unavailable(self.device)
        if missing is not None:
            raise RuntimeError(f"{self.spec.name}: {missing}")
        # on the CPU inductor's C++ wrapper also takes the Python glue between the fused
        # loops out of each call (about 30% more steps/s at batch 1,024)
        options = {"cpp_wrapper": True} if self.device.type == "cpu" else {}

        self._step_rules = _PerBatchSize(self._step, options)
        self._sample_rules = _PerBatchSize(self._sample, options)
        self._random_rules = _PerBatchSize(self._random_step, options)
        self.compiled = True

    @property
    def sample_draws(self) -> int:
        """Uniform numbers per position that one draw of :meth:`sample_legal` uses.

        The default sampler keys each of the ``K`` candidates; a game whose structure allows a
        cheaper exactly uniform draw overrides :meth:`_sample` and this.
        """
        return self.candidates

    @property
    def num_actions(self) -> int:
        """Size of the flat action space (the scalar game's)."""
        return self.spec.action_size

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.spec.num_players

    # ----------------------------------------------------------------- creating batches
    def init(self, seeds: Sequence[int] | np.ndarray | torch.Tensor) -> S:
        """Initial positions, one per seed, exactly as ``game.new_initial_state(seed)``."""
        seeds = [int(s) for s in _as_list(seeds, "seeds")]
        if not seeds:
            raise ValueError(f"{self.spec.name}: init needs at least one seed")
        return self.init_boards(self.board_indices(seeds))

    def board_indices(self, seeds: Sequence[int]) -> torch.Tensor:
        """The board each seed picks, as the scalar game picks it (one RNG draw per seed)."""
        picks = self._board_picker(seeds)
        return torch.from_numpy(picks).to(self.device)

    @abstractmethod
    def init_boards(self, boards: torch.Tensor) -> S:
        """Initial positions on the given boards (indices into ``game.boards``)."""

    def reset_where(self, state: S, done: torch.Tensor, seeds: Sequence[int]) -> S:
        """``state`` with the positions where ``done`` is True replaced by fresh games.

        Args:
            state: The batch.
            done: ``(B,)`` bool, the positions to reset.
            seeds: One seed per position to reset (``done.sum()`` of them), in batch order.
        """
        index = torch.nonzero(done, as_tuple=True)[0]
        if len(seeds) != len(index):
            raise ValueError(
                f"{self.spec.name}: reset_where got {len(seeds)} seeds for {len(index)} games"
            )
        if not len(index):
            return state
        fresh = self.init(seeds)
        return state.replace(
            **{
                f.name: _scatter_rows(getattr(state, f.name), index, getattr(fresh, f.name))
                for f in dataclasses.fields(state)
            }
        )

    # ----------------------------------------------------------------- the rules
    def step(
        self,
        state: S,
        actions: torch.Tensor | Sequence[int] | np.ndarray,
        *,
        active: torch.Tensor | None = None,
        validate: bool = True,
    ) -> S:
        """Play one action in every live game (where ``active``, if given, is True).

        Args:
            state: The batch.
            actions: ``(B,)`` integer actions; ignored for finished or inactive games.
            active: Optional ``(B,)`` bool mask of the games that move.
            validate: Check that every moving game's action is legal (see the module
                docstring); ``False`` is for callers that only pick legal actions.

        Raises:
            ActionTypeError: If ``actions`` is not a tensor or array of integers of shape (B,).
            IllegalActionError: With ``validate``, for an illegal action (the first one is named).
        """
        actions = self._actions(actions, state.batch_size)
        moving = ~self.terminated(state)
        if active is not None:
            if active.shape != (state.batch_size,) or active.dtype != torch.bool:
                raise ValueError(
                    f"{self.spec.name}: active must be a bool tensor of shape "
                    f"({state.batch_size},), got {active.dtype} {tuple(active.shape)}"
                )
            moving = moving & active.to(self.device)
        if validate:
            self._validate(state, actions, moving)
        return self._step_rules(state, actions, moving)

    @abstractmethod
    def _step(self, state: S, actions: torch.Tensor, moving: torch.Tensor) -> S:
        """The rules: play ``actions`` (int64, legal) where ``moving``; other games unchanged."""

    def legal_mask(self, state: S) -> torch.Tensor:
        """``(B, num_actions)`` bool: the legal actions of each position (none once finished).

        Scattered from :meth:`legal_candidates` (a game may override it with something faster).
        """
        ids, ok = self.legal_candidates(state)
        mask = torch.zeros(
            state.batch_size, self.num_actions + 1, dtype=torch.bool, device=self.device
        )
        mask.scatter_(1, torch.where(ok, ids, self.num_actions), True)
        return mask[:, : self.num_actions]

    def sample_legal(self, state: S, generator: torch.Generator | None = None) -> torch.Tensor:
        """A uniformly random legal action per position (``(B,)`` int64; 0 for finished games).

        Draws :attr:`sample_draws` uniform numbers per position from ``generator`` (outside the
        compiled rules, so that the stream is the same compiled or not) and hands them to the
        game's sampler.
        """
        u = torch.rand(state.batch_size, self.sample_draws, generator=generator, device=self.device)
        return self._sample_rules(state, u)

    def step_random(
        self, state: S, generator: torch.Generator | None = None
    ) -> tuple[S, torch.Tensor]:
        """Play one uniformly random legal action in every live game (random rollouts).

        The same as ``step(state, sample_legal(state, generator), validate=False)``, the same
        actions from the same generator, in one call: compiled, the draw and the rules are one
        graph, which on the CPU makes random play about 30% faster than the two calls.

        Returns:
            ``(next_state, actions)``; finished games stay as they are (their action is 0).
        """
        u = torch.rand(state.batch_size, self.sample_draws, generator=generator, device=self.device)
        return self._random_rules(state, u)

    def _random_step(self, state: S, u: torch.Tensor) -> tuple[S, torch.Tensor]:
        actions = self._sample(state, u)
        return self._step(state, actions, ~self.terminated(state)), actions

    def _sample(self, state: S, u: torch.Tensor) -> torch.Tensor:
        """The draw of :meth:`sample_legal` from uniforms ``u`` (``(B, sample_draws)``).

        Default: the legal candidate with the largest key ``u`` (uniform over the legal
        candidates, which are distinct actions), at ``O(K)`` per position instead of
        ``O(num_actions)``.
        """
        actions, legal = self.legal_candidates(state)
        keys = torch.where(legal, u, -1.0)
        pick = keys.argmax(dim=1, keepdim=True)
        chosen = actions.gather(1, pick).squeeze(1)
        return torch.where(legal.any(dim=1), chosen, 0)

    @abstractmethod
    def legal_candidates(self, state: S) -> tuple[torch.Tensor, torch.Tensor]:
        """Every possibly legal action of each position and whether it is legal.

        Returns:
            ``(actions, legal)``, both ``(B, K)`` with a game-dependent ``K`` much smaller than
            the action space: the legal actions of position ``b`` are exactly
            ``actions[b][legal[b]]``, each once. Sampling from these costs ``O(K)`` per
            position where sampling from :meth:`legal_mask` costs ``O(num_actions)``.
        """

    @abstractmethod
    def observation(self, state: S, player: torch.Tensor | int | None = None) -> torch.Tensor:
        """``(B, H, W, C)`` float32 planes, the scalar ``observation(player)`` of each position.

        Args:
            state: The batch.
            player: The observing seat: an int for all, a ``(B,)`` tensor, or ``None`` for the
                player to move in each position.
        """

    @abstractmethod
    def current_player(self, state: S) -> torch.Tensor:
        """``(B,)`` int64: the player to move (meaningless in finished games)."""

    @abstractmethod
    def terminated(self, state: S) -> torch.Tensor:
        """``(B,)`` bool: the game is won, lost or drawn."""

    def round_number(self, state: S) -> torch.Tensor | None:
        """``(B,)`` the round counter the observation shows, or ``None`` for a game without."""
        return None

    @abstractmethod
    def returns(self, state: S) -> torch.Tensor:
        """``(B, num_players)`` float32: the scalar ``returns()`` (0 for unfinished games)."""

    # ----------------------------------------------------------------- scalar conversion
    @abstractmethod
    def to_scalar(self, state: S, index: int) -> State:
        """Position ``index`` of the batch as a scalar state of :attr:`game`."""

    @abstractmethod
    def from_scalar(self, states: Sequence[State]) -> S:
        """A batch holding copies of scalar states of :attr:`game`."""

    # ----------------------------------------------------------------- helpers
    def _actions(self, actions: Any, batch: int) -> torch.Tensor:
        """``actions`` as an int64 tensor of shape ``(batch,)`` on the device, in range."""
        name = self.spec.name
        actions = action_tensor(actions, batch, self.device, where=name, per="game")
        bad = (actions < 0) | (actions >= self.num_actions)
        if bool(bad.any()):
            i = int(torch.nonzero(bad)[0])
            raise IllegalActionError(
                f"{name}: action {int(actions[i])} of game {i} is outside the action space "
                f"0..{self.num_actions - 1}"
            )
        return actions

    def _validate(self, state: S, actions: torch.Tensor, moving: torch.Tensor) -> None:
        legal = self.legal_mask(state).gather(1, actions[:, None]).squeeze(1)
        bad = moving & ~legal
        if bool(bad.any()):
            i = int(torch.nonzero(bad)[0])
            a = int(actions[i])
            player = int(self.current_player(state)[i])
            raise IllegalActionError(
                f"{self.spec.name}: illegal action {a} ({self.game.action_to_string(a)}) in game "
                f"{i} for player {player}; {int(bad.sum())} game(s) of {len(bad)} got an "
                f"illegal action"
            )


def sample_legal(
    game: BatchedGame[Any], state: BatchedState, generator: torch.Generator | None = None
) -> torch.Tensor:
    """A uniformly random legal action per position (``(B,)`` int64; 0 for finished games).

    The same as ``game.sample_legal(state, generator)``: by default the legal candidate of
    :meth:`BatchedGame.legal_candidates` with the largest uniform key, which costs ``O(K)`` per
    position instead of ``O(num_actions)``; a game whose structure allows a draw without the
    ``(B, K)`` candidates defines its own (same distribution: uniform over the same legal
    actions), and random play is then that much faster.
    """
    return game.sample_legal(state, generator)


def compile_unavailable(device: torch.device | str) -> str | None:
    """Why ``compile=True`` cannot work on ``device`` here, or ``None`` when it can.

    On the CPU inductor writes C++ and builds it against Python's headers, so it needs a C++
    compiler on the PATH and ``Python.h``; on CUDA it uses Triton, which CUDA builds of torch
    bring. :meth:`BatchedGame.compile_rules` raises with this message, and tests skip with it.
    """
    if torch.device(device).type != "cpu":
        return None
    compilers = (os.environ.get("CXX", ""), "g++", "c++", "clang++")
    if not any(shutil.which(c) for c in compilers if c):
        return (
            "compile=True on the CPU needs a C++ compiler for torch.compile (inductor), and none "
            "of $CXX, g++, c++, clang++ is on the PATH; install one (Debian/Ubuntu: apt install "
            "g++) or pass compile=False"
        )
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        return (
            f"compile=True on the CPU builds C++ against Python's headers, and {include} has no "
            "Python.h; install them (Debian/Ubuntu: apt install python3-dev) or pass "
            "compile=False"
        )
    return None


def action_tensor(
    actions: Any, batch: int, device: torch.device, *, where: str, per: str
) -> torch.Tensor:
    """``actions`` (a tensor, numpy array or list of integers) as int64 ``(batch,)`` on ``device``.

    Args:
        actions: The actions given.
        batch: How many there must be.
        device: Where the result lives.
        where: Prefix of the error messages (the game or environment name).
        per: What one action belongs to, for the messages (``"game"``, ``"sub-environment"``).

    Raises:
        ActionTypeError: If they are not integers (floats, bools, other objects).
        ValueError: If their shape is not ``(batch,)``.
    """
    if isinstance(actions, (list, tuple)):
        actions = np.asarray(actions)
    if isinstance(actions, np.ndarray):
        if actions.dtype.kind not in "iu":
            raise ActionTypeError(
                f"{where}: actions must be integers, got an array of {actions.dtype}"
            )
        actions = torch.from_numpy(actions.astype(np.int64))
    if not isinstance(actions, torch.Tensor):
        raise ActionTypeError(
            f"{where}: actions must be a tensor, numpy array or list of integers, got "
            f"{type(actions).__name__}"
        )
    dtype = actions.dtype
    if dtype.is_floating_point or dtype.is_complex or dtype == torch.bool:
        raise ActionTypeError(f"{where}: actions must be integers, got a tensor of {dtype}")
    if tuple(actions.shape) != (batch,):
        raise ValueError(
            f"{where}: expected {batch} actions (one per {per}), got shape {tuple(actions.shape)}"
        )
    return actions.to(device=device, dtype=torch.int64)


def batched_game(
    game: Game, device: torch.device | str = "cpu", *, compile: bool = False
) -> BatchedGame[Any]:
    """The batched version of ``game`` (same rules and configuration) on ``device``.

    Args:
        game: The scalar game.
        device: Where the tensors live.
        compile: Run the rules through ``torch.compile`` (:meth:`BatchedGame.compile_rules`).

    Raises:
        ValueError: If the game has no batched version (the message lists those that do).
        RuntimeError: With ``compile`` on the CPU, when no C++ compiler is installed.
    """
    name = game.spec.name
    target = game_entry(name).batched
    if target is None:
        raise ValueError(
            f"{name} has no batched version; batched games: {', '.join(batched_game_names())}"
        )
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)(game, device, compile=compile)


def has_batched(game: Game | str) -> bool:
    """True when the game (or registry name) has a batched version."""
    return game_entry(game if isinstance(game, str) else game.spec.name).batched is not None


class _PerBatchSize:
    """A rules method compiled once per batch size (see :meth:`BatchedGame.compile_rules`).

    torch.compile keeps its compiled graphs on the code object of the function it wraps, and
    stops with an error (``fullgraph=True``) after 8 of them; a copy of the method's code per
    batch size gives each (game object, batch size) its own code object and one graph.

    Args:
        method: The bound rules method; its second argument's length is the batch size.
        options: Inductor's options.
    """

    def __init__(self, method: Callable[..., Any], options: dict[str, Any]) -> None:
        self.method = method
        self.options = options
        self.by_size: dict[int, Callable[..., Any]] = {}

    def __call__(self, state: BatchedState, batch: torch.Tensor, *rest: torch.Tensor) -> Any:
        fn = self.by_size.get(len(batch))
        if fn is None:
            func = self.method.__func__  # type: ignore[attr-defined]
            copy = types.FunctionType(
                func.__code__.replace(), func.__globals__, func.__name__, func.__defaults__
            )
            copy.__qualname__ = func.__qualname__
            bound = types.MethodType(copy, self.method.__self__)  # type: ignore[attr-defined]
            fn = torch.compile(bound, fullgraph=True, dynamic=False, options=self.options)
            self.by_size[len(batch)] = fn
        return fn(state, batch, *rest)


def _as_list(values: Any, what: str) -> list[Any]:
    if isinstance(values, torch.Tensor):
        return values.tolist()
    if isinstance(values, np.ndarray):
        return values.tolist()
    if isinstance(values, (list, tuple, range)):
        return list(values)
    raise TypeError(f"{what} must be a sequence of integers, got {type(values).__name__}")


def _scatter_rows(target: torch.Tensor, index: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    """A copy of ``target`` with ``rows`` at ``index`` (``index_copy``: no advanced indexing)."""
    return target.index_copy(0, index, rows)
