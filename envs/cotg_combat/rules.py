"""Children of the Galaxy combat rules: the forward model.

Source: Šmejkal & Gemrot, "Engaging Turn-Based Combat in the Children of the Galaxy Videogame"
(AIIDE 2018, ``papers/cotg_combat_mcts_hp.txt``), section "Combat Background", and
``specs/cotg_combat_spec.md`` sections 1–4 (numbers marked ⚑ there are the spec's choices, since
the paper's simulator is not public). The facts that decide play:

* Two players on a hex board (axial coordinates, a ``W × H`` parallelogram, no obstacles); at
  most one unit per hex and units block movement for everyone.
* Units have hit points, strength (damage per attack), shield (flat reduction: a hit does
  ``max(1, strength - shield)``), attack range (hex distance) and power (hexes of movement per
  turn). A unit at 0 HP or less is removed at once.
* Player 0 (army 1) moves first. In its turn a player issues any number of unit actions in any
  interleaved order: a move to a hex reachable over free hexes within the unit's remaining power
  (spending the path length), and at most one attack per unit per turn on an enemy within range.
  A unit may move, attack and move again with leftover power. ``end_turn`` passes the turn and
  refills the ending player's power and attacks for its next turn; power is not carried over.
* A player with no unit left has lost. ⚑ After ``max_rounds`` (50) rounds, a round being a turn
  of each player (100 player-turns), the battle is a draw (the hit points left still tell how it
  went: :meth:`CotgCombatState.hp_totals`).

Units keep stable slots: player ``p``'s ``k``-th unit has id ``p * U + k`` (``U`` slots a side);
a destroyed unit's slot stays empty with position -1.

The unit types, their attributes and the configuration checks are in
:mod:`~stratagem.envs.cotg_combat.units`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from stratagem.envs.core import (
    Game,
    GameSpec,
    InvalidStateError,
    TwoPlayerState,
    check_seed,
)
from stratagem.envs.cotg_combat.actions import END_TURN, ActionLayout
from stratagem.envs.cotg_combat.armies import (
    PLACEMENTS,
    ArmyError,
    generate_armies,
    parse_armies,
)
from stratagem.envs.cotg_combat.hexgrid import HexGrid, shared_grid
from stratagem.envs.cotg_combat.units import (
    BATTLESHIP,
    DEFAULT_UNIT_STATS,
    DESTROYER,
    UNIT_NAMES,
    UNIT_SYMBOLS,
    UnitStats,
    _check_int,
    _unit_stats,
    auto_board_size,
)

__all__ = [
    "BATTLESHIP",
    "DEFAULT_UNIT_STATS",
    "DESTROYER",
    "OBSERVATION_PLANES",
    "UNIT_NAMES",
    "UNIT_SYMBOLS",
    "CotgCombatGame",
    "CotgCombatState",
    "UnitStats",
    "UnitView",
    "auto_board_size",
]

GAME_NAME = "cotg_combat"
RULES_VERSION = 0  # the v0 of stratagem/<Game>-v0 and <game>_v0: bump them together
NUM_PLAYERS = 2
MAX_UNITS = 64

#: Observation channels (H × W × C), relative to the observing player.
OBSERVATION_PLANES: tuple[str, ...] = (
    "own_destroyer",
    "own_battleship",
    "enemy_destroyer",
    "enemy_battleship",
    "hp_fraction",
    "power_fraction",
    "has_attacked",
    "shield",
    "turn_progress",
    "to_move",
)


class UnitView(NamedTuple):
    """Read-only snapshot of one unit, for agents, tests and rendering.

    Attributes:
        id: Unit id ``owner * U + slot``.
        slot: Slot within its side (stable over the battle).
        owner: Player 0 or 1.
        type: ``DESTROYER`` or ``BATTLESHIP``.
        q: Axial column (-1 once destroyed).
        r: Axial row (-1 once destroyed).
        hp: Hit points left (0 once destroyed).
        power: Movement points left this turn.
        attacked: True once it has attacked this turn.
    """

    id: int
    slot: int
    owner: int
    type: int
    q: int
    r: int
    hp: int
    power: int
    attacked: bool


class CotgCombatGame(Game):
    """A CotG combat scenario: board, unit types and how the armies are made.

    Args:
        units: Unit slots per side (``U``), 1..64; the size of generated armies. Defaults to 5,
            or to the larger explicit army.
        width: Board columns; ``None`` for :func:`auto_board_size` (or the drawn board's).
        height: Board rows; ``None`` likewise.
        battleships: Battleships per generated army (0..units); ``None`` draws the ratio per
            battle (see :mod:`~stratagem.envs.cotg_combat.armies`).
        placement: ``"random"`` (a random centre per army, the paper's protocol) or
            ``"mirror"`` (army 2 is army 1 mirrored through the board centre).
        armies: Explicit armies (a board drawing or a unit list, see
            :func:`~stratagem.envs.cotg_combat.armies.parse_armies`); ``None`` generates them
            from the seed.
        max_rounds: Rounds (a turn of each player) after which the battle is a draw.
        unit_stats: Overrides of the unit attributes, e.g. ``{"battleship": {"shield": 1}}``.

    Raises:
        ValueError: For any option out of range or malformed (the message names it).
    """

    def __init__(
        self,
        *,
        units: int | None = None,
        width: int | None = None,
        height: int | None = None,
        battleships: int | None = None,
        placement: str = "random",
        armies: str | None = None,
        max_rounds: int = 50,
        unit_stats: Mapping[str, Any] | None = None,
    ) -> None:
        config = {
            "units": units,
            "width": width,
            "height": height,
            "battleships": battleships,
            "placement": placement,
            "armies": armies,
            "max_rounds": max_rounds,
            "unit_stats": None,
        }
        self.stats = _unit_stats(unit_stats)
        if unit_stats is not None:
            config["unit_stats"] = {k: dict(v) for k, v in unit_stats.items()}
        #: The draw limit of the player-turn counter (``turn``): two player-turns a round.
        self.turn_limit = 2 * _check_int("max_rounds", max_rounds, 1)
        if placement not in PLACEMENTS:
            raise ValueError(
                f"cotg_combat: placement must be one of {', '.join(PLACEMENTS)}, got {placement!r}"
            )
        self.placement = placement
        explicit = None
        drawn_w = drawn_h = None
        if armies is not None:
            drawn_w, drawn_h, explicit = parse_armies(armies)
            if not explicit[0] or not explicit[1]:
                raise ArmyError("cotg_combat: armies must give both players at least one unit")
        if units is None:
            units = 5 if explicit is None else max(len(explicit[0]), len(explicit[1]))
        self.units = _check_int("units", units, 1, MAX_UNITS)
        for name, value, drawn in (("width", width, drawn_w), ("height", height, drawn_h)):
            if value is not None:
                _check_int(name, value, 1, 256)
                if drawn is not None and value != drawn:
                    raise ValueError(
                        f"cotg_combat: {name}={value} disagrees with the {drawn} hexes of the "
                        f"armies board"
                    )
        side = auto_board_size(self.units)
        self.width = width if width is not None else drawn_w if drawn_w is not None else side
        self.height = height if height is not None else drawn_h if drawn_h is not None else side
        if battleships is not None:
            battleships = _check_int("battleships", battleships, 0, self.units)
        self.battleships = battleships
        max_power = max(s.power for s in self.stats)
        self.grid: HexGrid = shared_grid(self.width, self.height, max_power)
        self.layout = ActionLayout(self.units, self.grid.offsets)
        # Per-type tables used by the hot paths.
        self.max_hp = tuple(s.hp for s in self.stats)
        self.strength = tuple(s.strength for s in self.stats)
        self.range = tuple(s.range for s in self.stats)
        self.power = tuple(s.power for s in self.stats)
        self.damage = tuple(
            tuple(max(1, a.strength - t.shield) for t in self.stats) for a in self.stats
        )
        top_shield = max(s.shield for s in self.stats)
        self.shield_fraction = tuple(
            s.shield / top_shield if top_shield else 0.0 for s in self.stats
        )
        self._explicit = None
        if explicit is not None:
            self._explicit = self._place_explicit(explicit)
        else:
            # Fail now, not at the first seed, when armies cannot fit the board.
            generate_armies(np.random.default_rng(0), self.grid, self.units, battleships, placement)
        per_turn = self.units * (max_power + 1) + 1
        self.spec = GameSpec(
            name=GAME_NAME,
            version=RULES_VERSION,
            num_players=NUM_PLAYERS,
            action_size=self.layout.size,
            observation_shape=(self.height, self.width, len(OBSERVATION_PLANES)),
            max_game_length=self.turn_limit * per_turn,
            reward_range=(-1.0, 1.0),
            deterministic=True,
            perfect_information=True,
            zero_sum=True,
            action_layout=None,
            observation_planes=OBSERVATION_PLANES,
            observation_bounds=(0.0, 1.0),
            config=config,
        )

    def _place_explicit(
        self, armies: tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Types and cells of explicit armies, per slot (``-1`` for empty slots)."""
        u = self.units
        types = [-1] * (2 * u)
        cells = [-1] * (2 * u)
        seen: dict[int, str] = {}
        for p, army in enumerate(armies):
            if len(army) > u:
                raise ArmyError(
                    f"cotg_combat: player {p} has {len(army)} units but units={u} slots a side; "
                    f"raise units"
                )
            for k, (t, q, r) in enumerate(army):
                if not self.grid.contains(q, r):
                    raise ArmyError(
                        f"cotg_combat: player {p}'s unit {k} at ({q},{r}) is off the "
                        f"{self.width}x{self.height} board"
                    )
                c = self.grid.cell(q, r)
                if c in seen:
                    raise ArmyError(
                        f"cotg_combat: two units on hex ({q},{r}) ({seen[c]} and player {p} "
                        f"unit {k})"
                    )
                seen[c] = f"player {p} unit {k}"
                types[p * u + k] = t
                cells[p * u + k] = c
        return tuple(types), tuple(cells)

    # ------------------------------------------------------------------ contract
    @property
    def max_rounds(self) -> int:
        """Rounds played at most, the ``max_rounds`` option (half the player-turn limit)."""
        return self.turn_limit // 2

    @property
    def end_turn_action(self) -> int:
        """Index of ``end_turn`` (0)."""
        return END_TURN

    def new_initial_state(self, seed: int | None = None) -> CotgCombatState:
        """The battle of ``seed``: generated armies, or the explicit ones (the seed is unused)."""
        seed = check_seed(seed, "cotg_combat")
        if self._explicit is not None:
            types, cells = self._explicit
        else:
            rng = np.random.default_rng(seed)
            first, second = generate_armies(
                rng, self.grid, self.units, self.battleships, self.placement
            )
            u = self.units
            types_l = [-1] * (2 * u)
            cells_l = [-1] * (2 * u)
            for p, army in enumerate((first, second)):
                for k, (t, c) in enumerate(army):
                    types_l[p * u + k] = t
                    cells_l[p * u + k] = c
            types, cells = tuple(types_l), tuple(cells_l)
        return self._make_state(
            types,
            list(cells),
            [self.max_hp[t] if t >= 0 else 0 for t in types],
            [self.power[t] if t >= 0 else 0 for t in types],
            [False] * len(types),
            turn=0,
            player=0,
        )

    def _make_state(
        self,
        types: tuple[int, ...],
        pos: list[int],
        hp: list[int],
        power: list[int],
        attacked: list[bool],
        *,
        turn: int,
        player: int,
    ) -> CotgCombatState:
        state = CotgCombatState.__new__(CotgCombatState)
        state.game = self
        state._type = types
        state._pos = pos
        state._hp = hp
        state._pw = power
        state._atk = attacked
        state._occ = {c: i for i, c in enumerate(pos) if c >= 0}
        u = self.units
        state._alive = [sum(1 for c in pos[p * u : (p + 1) * u] if c >= 0) for p in (0, 1)]
        state._reach = {}
        state.turn = turn
        state.current_player = player
        state.winner = None
        state._settle()
        return state

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action``: ``end_turn``, ``move 3 (+1,-2)``, ``attack 3 -> 4``."""
        return self.layout.to_string(int(action))

    def string_to_action(self, text: str) -> int:
        """Parse a name written by :meth:`action_to_string`."""
        return self.layout.from_string(text)

    def _state_from_dict(self, data: Mapping[str, Any]) -> CotgCombatState:
        n = 2 * self.units
        fields: dict[str, list[Any]] = {}
        for key in ("types", "pos", "hp", "power", "attacked"):
            values = data[key]
            if not isinstance(values, list) or len(values) != n:
                raise InvalidStateError(f"cotg_combat: '{key}' must be a list of {n} values")
            kind = bool if key == "attacked" else int
            if not all(type(v) is kind for v in values):
                raise InvalidStateError(f"cotg_combat: '{key}' must hold {kind.__name__}s")
            fields[key] = list(values)
        turn, player, winner = data["turn"], data["current_player"], data["winner"]
        if type(turn) is not int or not 0 <= turn <= self.turn_limit:
            raise InvalidStateError(f"cotg_combat: turn {turn!r} outside 0..{self.turn_limit}")
        if player not in (0, 1) or type(player) is not int:
            raise InvalidStateError(f"cotg_combat: current_player {player!r} is not 0 or 1")
        if winner is not None and (type(winner) is not int or winner not in (-1, 0, 1)):
            raise InvalidStateError(f"cotg_combat: winner {winner!r} is not null, -1, 0 or 1")
        seen: set[int] = set()
        for i in range(n):
            t, c, hp, pw = (fields[k][i] for k in ("types", "pos", "hp", "power"))
            if t not in (-1, DESTROYER, BATTLESHIP):
                raise InvalidStateError(f"cotg_combat: unit {i} has unknown type {t!r}")
            if c == -1:
                if hp != 0:
                    raise InvalidStateError(f"cotg_combat: unit {i} is off the board with hp {hp}")
                continue
            if t < 0:
                raise InvalidStateError(f"cotg_combat: empty slot {i} has a position")
            if not 0 <= c < self.grid.size or c in seen:
                raise InvalidStateError(
                    f"cotg_combat: unit {i} stands on cell {c}, off the board or shared"
                )
            seen.add(c)
            if not 0 < hp <= self.max_hp[t]:
                raise InvalidStateError(
                    f"cotg_combat: unit {i} hp {hp} outside 1..{self.max_hp[t]}"
                )
            if not 0 <= pw <= self.power[t]:
                raise InvalidStateError(
                    f"cotg_combat: unit {i} power {pw} outside 0..{self.power[t]}"
                )
        if self._explicit is not None and tuple(fields["types"]) != self._explicit[0]:
            raise InvalidStateError("cotg_combat: unit types differ from the explicit armies")
        state = self._make_state(
            tuple(fields["types"]),
            fields["pos"],
            fields["hp"],
            fields["power"],
            fields["attacked"],
            turn=turn,
            player=player,
        )
        if state.winner != winner:
            raise InvalidStateError(
                f"cotg_combat: winner {winner!r} does not match the position "
                f"(expected {state.winner!r})"
            )
        return state


class CotgCombatState(TwoPlayerState):
    """A CotG battle position. Create it with :meth:`CotgCombatGame.new_initial_state`.

    Besides the contract, it offers the unit-level interface the scripts and script-space
    searches run on: :meth:`reachable`, and the *unchecked* :meth:`move_unit`,
    :meth:`attack_unit` and :meth:`end_turn`, which apply moves the caller has already found
    legal (through :meth:`reachable` and the range rule) without validating them again.

    Attributes:
        turn: Player-turns completed so far.
        winner: ``None`` while fighting, ``-1`` for a draw (turn limit), else the winner.
    """

    game: CotgCombatGame
    render_module = "stratagem.envs.cotg_combat.render"
    __slots__ = (
        "_alive",
        "_atk",
        "_hp",
        "_occ",
        "_pos",
        "_pw",
        "_reach",
        "_type",
        "current_player",
        "game",
        "turn",
        "winner",
    )

    # ------------------------------------------------------------------ contract
    def clone(self) -> CotgCombatState:
        """Copy the few unit lists; board facts and unit types are shared."""
        c = CotgCombatState.__new__(CotgCombatState)
        c.game = self.game
        c._type = self._type
        c._pos = self._pos[:]
        c._hp = self._hp[:]
        c._pw = self._pw[:]
        c._atk = self._atk[:]
        c._occ = self._occ.copy()
        c._alive = self._alive[:]
        c._reach = {}
        c.turn = self.turn
        c.current_player = self.current_player
        c.winner = self.winner
        return c

    def legal_action_list(self) -> list[int]:
        """Legal actions as a Python list (``end_turn`` first, then by slot); the fast path."""
        if self.winner is not None:
            return []
        g = self.game
        grid = g.grid
        u_n = g.units
        block, moves = g.layout.block, g.layout.num_moves
        cp = self.current_player
        base, ebase = cp * u_n, (1 - cp) * u_n
        pos, pw, atk, types = self._pos, self._pw, self._atk, self._type
        dist = grid.dist
        out = [END_TURN]
        enemies = [(e, pos[ebase + e]) for e in range(u_n) if pos[ebase + e] >= 0]
        for k in range(u_n):
            u = base + k
            c = pos[u]
            if c < 0:
                continue
            b = 1 + k * block
            if pw[u] > 0:
                dest_offset = grid.dest_offset[c]
                for d in self.reachable(u):
                    if d != c:
                        out.append(b + dest_offset[d])
            t = types[u]
            if not atk[u] and g.strength[t] > 0:
                reach, row = g.range[t], dist[c]
                b += moves
                for e, ce in enemies:
                    if row[ce] <= reach:
                        out.append(b + e)
        return out

    def apply(self, action: int) -> None:
        """Advance by one decision; an illegal action raises and changes nothing."""
        if type(action) is not int:
            action = self.check_action_index(action)
        if self.winner is not None:
            raise self.illegal(action, "the battle is over")
        if action == END_TURN:
            self.end_turn()
            return
        g = self.game
        if not 0 < action < g.layout.size:
            raise self.illegal(action, f"outside the action space 0..{g.layout.size - 1}")
        k, rest = divmod(action - 1, g.layout.block)
        u = self.current_player * g.units + k
        c = self._pos[u]
        if c < 0:
            raise self.illegal(action, f"player {self.current_player} has no unit in slot {k}")
        moves = g.layout.num_moves
        if rest < moves:
            power = self._pw[u]
            if power <= 0:
                raise self.illegal(action, "the unit has no power left this turn")
            d = g.grid.offset_dest[c][rest]
            if d < 0:
                raise self.illegal(action, "the destination is off the board")
            reach = self._reach.get(u)
            if reach is not None:
                cost = reach.get(d, -1)
            else:
                cost = g.grid.path_cost(c, d, power, self._occ)
            if cost <= 0:
                raise self.illegal(
                    action, f"no free path to the destination within the unit's power ({power})"
                )
            self.move_unit(u, d, cost)
            return
        e = rest - moves
        v = (1 - self.current_player) * g.units + e
        ce = self._pos[v]
        if ce < 0:
            raise self.illegal(action, f"the enemy has no unit in slot {e}")
        if self._atk[u]:
            raise self.illegal(action, "the unit has already attacked this turn")
        t = self._type[u]
        if g.strength[t] <= 0:
            raise self.illegal(action, "the unit has no strength")
        if g.grid.dist[c][ce] > g.range[t]:
            raise self.illegal(
                action, f"the target is {g.grid.dist[c][ce]} hexes away, range {g.range[t]}"
            )
        self.attack_unit(u, v)

    def observation(self, player: int) -> np.ndarray:
        """``H × W × 10`` planes relative to ``player`` (see ``OBSERVATION_PLANES``)."""
        if player not in (0, 1):
            raise ValueError(f"cotg_combat: player must be 0 or 1, got {player!r}")
        g = self.game
        obs = np.zeros(g.spec.observation_shape, dtype=np.float32)
        width, u_n = g.width, g.units
        for u, c in enumerate(self._pos):
            if c < 0:
                continue
            r, q = divmod(c, width)
            t = self._type[u]
            cell = obs[r, q]
            cell[t + (0 if u // u_n == player else 2)] = 1.0
            cell[4] = self._hp[u] / g.max_hp[t]
            cell[5] = self._pw[u] / g.power[t]
            cell[6] = float(self._atk[u])
            cell[7] = g.shield_fraction[t]
        obs[:, :, 8] = min(1.0, self.turn / g.turn_limit)
        obs[:, :, 9] = float(self.current_player == player and self.winner is None)
        return obs

    def _to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "current_player": self.current_player,
            "winner": self.winner,
            "types": list(self._type),
            "pos": self._pos,
            "hp": self._hp,
            "power": self._pw,
            "attacked": self._atk,
        }

    # ------------------------------------------------------------------ optional planner hooks
    def action_unit(self, action: int) -> int | None:
        """Id of the unit that performs ``action`` (``None`` for ``end_turn``); MCTS_u's hook."""
        if action == END_TURN:
            return None
        return self.current_player * self.game.units + (action - 1) // self.game.layout.block

    def action_kind(self, action: int) -> str:
        """``"end_turn"``, ``"move"`` or ``"attack"``."""
        return self.game.layout.decode(int(action))[0]

    # ------------------------------------------------------------------ unit-level interface
    @property
    def units_per_side(self) -> int:
        """Unit slots per side (``U``)."""
        return self.game.units

    @property
    def types(self) -> tuple[int, ...]:
        """Unit type per id (``-1`` for an empty slot)."""
        return self._type

    @property
    def positions(self) -> list[int]:
        """Cell per unit id (``-1`` once destroyed); a live view, do not mutate."""
        return self._pos

    @property
    def hit_points(self) -> list[int]:
        """Hit points per unit id; a live view, do not mutate."""
        return self._hp

    @property
    def power_left(self) -> list[int]:
        """Movement points left this turn per unit id; a live view, do not mutate."""
        return self._pw

    @property
    def has_attacked(self) -> list[bool]:
        """Whether each unit id has attacked this turn; a live view, do not mutate."""
        return self._atk

    @property
    def occupancy(self) -> dict[int, int]:
        """Occupied cell -> unit id; a live view, do not mutate."""
        return self._occ

    @property
    def alive_counts(self) -> tuple[int, int]:
        """Units left per player."""
        return self._alive[0], self._alive[1]

    def hp_totals(self) -> tuple[int, int]:
        """Sum of the hit points left per player (the MCTS-HP and tournament measure)."""
        u_n = self.game.units
        hp = self._hp
        return sum(hp[:u_n]), sum(hp[u_n:])

    def rounds_played(self) -> int:
        """Rounds played so far, the one in progress included, at most ``max_rounds``.

        ``turn`` counts the player-turns completed, so the round in progress is ``turn // 2 + 1``
        until the limit, where the battle has played exactly ``max_rounds`` rounds.
        """
        return min(self.turn // 2 + 1, self.game.max_rounds)

    def end_statistics(self) -> dict[str, Any]:
        """Rounds and player-turns played, and per player: ships left, hit points and their share.

        ``rounds`` counts as the ``max_rounds`` option does (:meth:`rounds_played`); ``turns``
        is the player-turn counter (benchmark scripts read it).

        ``hp`` (hit points, not a share) is what decides the CotG paper's split symmetric
        battles (``stratagem tournament --symmetric --tie-break hp``).
        """
        alive, hp, start = self.alive_counts, self.hp_totals(), self.starting_hp()
        return {
            "rounds": float(self.rounds_played()),
            "turns": float(self.turn),
            "ships_left": [float(a) for a in alive],
            "hp": [float(hp[0]), float(hp[1])],
            "hp_left": [hp[p] / start[p] if start[p] else 0.0 for p in (0, 1)],
        }

    def starting_hp(self) -> tuple[int, int]:
        """Sum of the full hit points of each player's army (HP cannot grow back)."""
        u_n = self.game.units
        max_hp = self.game.max_hp
        return (
            sum(max_hp[t] for t in self._type[:u_n] if t >= 0),
            sum(max_hp[t] for t in self._type[u_n:] if t >= 0),
        )

    def unit(self, uid: int) -> UnitView:
        """Snapshot of unit ``uid``."""
        g = self.game
        c = self._pos[uid]
        q, r = (g.grid.q[c], g.grid.r[c]) if c >= 0 else (-1, -1)
        return UnitView(
            uid,
            uid % g.units,
            uid // g.units,
            self._type[uid],
            q,
            r,
            self._hp[uid],
            self._pw[uid],
            self._atk[uid],
        )

    def units(self, player: int | None = None) -> list[UnitView]:
        """Living units in id order, of one player or of both."""
        u_n = self.game.units
        ids: Sequence[int] = (
            range(2 * u_n) if player is None else range(player * u_n, (player + 1) * u_n)
        )
        return [self.unit(u) for u in ids if self._pos[u] >= 0]

    def unit_at(self, q: int, r: int) -> UnitView | None:
        """The unit on hex ``(q, r)``, if any."""
        if not self.game.grid.contains(q, r):
            return None
        u = self._occ.get(self.game.grid.cell(q, r))
        return None if u is None else self.unit(u)

    def reachable(self, uid: int) -> dict[int, int]:
        """Cells unit ``uid`` can move to now -> path cost (its own cell with cost 0).

        Cached until the next move, kill or end of turn; do not mutate the result.
        """
        reach = self._reach.get(uid)
        if reach is None:
            reach = self.game.grid.reachable(self._pos[uid], self._pw[uid], self._occ)
            self._reach[uid] = reach
        return reach

    def move_unit(self, uid: int, cell: int, cost: int) -> None:
        """Move ``uid`` to ``cell`` spending ``cost`` power. Unchecked: see :meth:`reachable`."""
        occ = self._occ
        start = self._pos[uid]
        del occ[start]
        occ[cell] = uid
        self._pos[uid] = cell
        self._pw[uid] -= cost
        if self._reach:
            self._forget(start, cell)

    def attack_unit(self, uid: int, target: int) -> bool:
        """``uid`` attacks ``target``; returns True when the target is destroyed. Unchecked."""
        g = self.game
        self._atk[uid] = True
        hp = self._hp[target] - g.damage[self._type[uid]][self._type[target]]
        if hp > 0:
            self._hp[target] = hp
            return False
        self._hp[target] = 0
        cell = self._pos[target]
        del self._occ[cell]
        self._pos[target] = -1
        if self._reach:
            self._forget(cell, cell)
        side = target // g.units
        self._alive[side] -= 1
        if self._alive[side] == 0:
            self.winner = 1 - side
        return True

    def end_turn(self) -> None:
        """End the current player's turn: refill its units, pass the turn, apply the limit."""
        g = self.game
        u_n = g.units
        base = self.current_player * u_n
        power, types, pw, atk = g.power, self._type, self._pw, self._atk
        for u in range(base, base + u_n):
            t = types[u]
            if t >= 0:
                pw[u] = power[t]
                atk[u] = False
        self._reach = {}
        self.turn += 1
        self.current_player = 1 - self.current_player
        if self.turn >= g.turn_limit and self.winner is None:
            self.winner = -1

    # ------------------------------------------------------------------ internals
    def _forget(self, a: int, b: int) -> None:
        """Drop the cached reach of every unit whose search area contains cell ``a`` or ``b``.

        A unit's reachable set only depends on the cells within its remaining power, so a move
        or a kill elsewhere leaves it valid; this keeps legal-action generation incremental.
        """
        dist = self.game.grid.dist
        row_a, row_b = dist[a], dist[b]
        pos, pw = self._pos, self._pw
        stale = []
        for v in self._reach:
            c = pos[v]
            if c < 0 or row_a[c] <= pw[v] or row_b[c] <= pw[v]:
                stale.append(v)
        for v in stale:
            del self._reach[v]

    def _settle(self) -> None:
        """Set the winner implied by the position (used when a state is built)."""
        a0, a1 = self._alive
        if a0 == 0 and a1 == 0:
            self.winner = -1
        elif a0 == 0:
            self.winner = 1
        elif a1 == 0:
            self.winner = 0
        elif self.turn >= self.game.turn_limit:
            self.winner = -1
        else:
            self.winner = None
