"""Tribes (The Battle of Polytopia) rules: the game, the state and the turn flow.

Source: ``specs/tribes_rules.md`` and the reference GAIGResearch/Tribes at its release 1.0 (the
code behind the AIIDE-2020 paper). The other modules of this package hold the parts: units and
combat (``units``, ``combat``), movement (``movement``), cities and the economy (``cities``),
technologies (``techtree``), levels (``levelgen``), the board geometry (``geo``), the action
layout (``actions``), observations (``observation``) and rendering (``render``).
:class:`TribesState` composes the mixins of the legal action list (``legal``, with the board
memo of ``memo``), of carrying out actions and the turn flow (``turns``) and of its JSON
(``state_json``, checked by ``validate``).

How the forward model maps the reference's framework:

* One decision is one action of the tribe to move (``current_player``). A turn is any number of
  actions closed by ``end_turn``; when a tribe has nothing left to do but end its turn, the turn
  ends by itself (the reference's game loop), except at the very start of a turn, where the
  tribe is still asked once.
* A city whose population reached its target must level up first: its two bonuses are then
  the only legal actions (no end of turn).
* The turn counter (the reference's tick) starts at 0 and grows once every tribe still in the
  game has played; the game ends when it exceeds 50 (Capitals) or 30 (Score), so 51 or 31
  rounds are played. The forward model counts turns inside simulations too (the reference's
  ``advance`` never does, so its rollouts started at turn 0 reset the stars to 5 every turn).
* Capitals: a tribe owning every original capital wins at once. Score: the game ends when at
  most one tribe is left. At the turn limit tribes are ranked by win, then survival (our
  decision: the reference ranks an eliminated tribe by score like the others), score, number
  of technologies, cities and production; a full tie is broken by the state's random generator.
  The first tribe wins (+1), every other loses (-1/(n-1), so returns sum to zero).
* A tribe that loses its last city is out: its units are removed and it plays no more turns.

The state is a handful of flat lists (terrain, resource, building, unit, city and trade-network
per tile) and small per-unit and per-city lists, so a clone is a few list copies (the board lists
are shared until written: see :meth:`TribesState.clone`).
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stratagem.envs.core import Game, GameSpec, State, check_seed
from stratagem.envs.state_json import clone_rng, refuse_file_option
from stratagem.envs.tribes import actions as A
from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes import techtree
from stratagem.envs.tribes import units as UN
from stratagem.envs.tribes.geo import Geo, _all_visible
from stratagem.envs.tribes.legal import LegalActions, LegalLink
from stratagem.envs.tribes.levelgen import (
    BUNDLED_LEVELS,
    LAND_RATIO_RANGE,
    MAP_SIZE_RANGE,
    Level,
    LevelError,
    generate_level,
    load_level,
    tournament_seeds,
)
from stratagem.envs.tribes.state_json import StateJson
from stratagem.envs.tribes.turns import TurnFlow

__all__ = ["TribesGame", "TribesState"]

GAME_NAME = "tribes"
RULES_VERSION = 0  # the v0 of stratagem/<Game>-v0 and <game>_v0: bump them together

#: Generator seeds tried for one game seed before giving up (see ``level_for_seed``).
LEVEL_ATTEMPTS = 256

U_TYPE, U_TRIBE, U_POS, U_HP, U_MAXHP, U_KILLS, U_VET, U_CITY, U_STATUS, U_BASE = range(10)
C_POS, C_TRIBE, C_LEVEL, C_POP, C_NEED, C_CAPITAL, C_PROD, C_WALLS, C_BOUND, C_UNITS, C_WORTH = (
    range(11)
)


def _parse_tribes(value: Any, num_players: int) -> tuple[int, ...]:
    if value is None or value == "" or value == ():
        return tuple(range(num_players))
    if not isinstance(value, (str, list, tuple)):
        # a number (``-c tribes=5`` parses as JSON) would otherwise fail deep in list()
        raise ValueError(
            f"tribes: tribes must be a comma-separated list of tribe names, got {value!r}; "
            f"choose from {', '.join(C.TRIBE_KEYS)}"
        )
    items = value.split(",") if isinstance(value, str) else list(value)
    out = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < len(C.TRIBES):
            out.append(item)
            continue
        key = str(item).strip().lower().replace("-", "_").replace(" ", "_")
        if key not in C.TRIBE_KEYS:
            raise ValueError(
                f"tribes: unknown tribe {item!r}; choose from {', '.join(C.TRIBE_KEYS)}"
            )
        out.append(C.TRIBE_KEYS.index(key))
    if len(set(out)) != len(out):
        raise ValueError(f"tribes: each tribe may play once, got {value!r}")
    return tuple(out)


#: Per plane (then one for the global actions: research; the end of the turn is apart), True
#: when its actions never change the board, the other tribes' units or what the mover sees with
#: full observability, so that ``apply`` may keep the board memo and context of the list.
_KEEPS_CONTEXT: tuple[bool, ...] = tuple(
    plane < A.ATTACK0
    or plane in (A.DISBAND, A.HEAL, A.VETERAN, A.RECOVER, A.UPGRADE)
    or A.SPAWN0 <= plane < A.BUILD0
    or plane == A.NUM_PLANES
    for plane in range(A.NUM_PLANES + 1)
)


class TribesGame(Game):
    """Tribes on a generated or loaded level.

    Args:
        num_players: 2 to 4 tribes (for a level file: its number of capitals).
        tribes: Tribe names (``"xin_xi,imperius"``); default the first ``num_players`` of
            Xin-Xi, Imperius, Bardur, Oumaji. Seats follow the turn order, which is the reading
            order of the capitals on the map (as in the reference), not this list's order.
        map: The level. ``""`` generates one from the game seed; ``"seed:N"`` always the level
            of seed N; ``"paper"`` one of the 25 levels of the paper's tournament, chosen by the
            game seed, ``"paper:K"`` the K-th (``--maps paper:0-24`` plays them all in a
            tournament); a bundled level name (``"SampleLevel2p"``) or a ``.csv`` path loads
            that level.
        map_size: Side of generated levels (0: 11, 14 or 16 for 2, 3 or 4 tribes).
        mode: ``"capitals"`` (win by holding every capital; turns 0 to 50) or ``"score"``
            (turns 0 to 30).
        max_rounds: Rounds played at most, a round being a turn of every tribe still playing
            (0: the mode's, 51 or 31: the reference's turns 0 to 50 or 0 to 30); smaller values
            make short games.
        observability: ``"full"`` (the paper's) or ``"partial"`` (fog of war).
        initial_land: Land fraction the generator starts from, 0.05 to 0.95 (0.5: "1:1
            water/land"); checked even with a level file, which does not use it.

    Raises:
        ValueError, LevelError: For an unknown option value, a bad level or an impossible
            configuration.
    """

    def __init__(
        self,
        *,
        num_players: int = 2,
        tribes: str | Sequence[str] = "",
        map: str = "",
        map_size: int = 0,
        mode: str = "capitals",
        max_rounds: int = 0,
        observability: str = "full",
        initial_land: float = 0.5,
    ) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise ValueError(f"tribes: num_players must be an integer, got {num_players!r}")
        if mode not in C.MODE_NAMES:
            raise ValueError(f"tribes: mode must be 'capitals' or 'score', got {mode!r}")
        if observability not in ("full", "partial"):
            raise ValueError(
                f"tribes: observability must be 'full' or 'partial', got {observability!r}"
            )
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 0:
            raise ValueError(f"tribes: max_rounds must be an integer >= 0, got {max_rounds!r}")
        if isinstance(map_size, bool) or not isinstance(map_size, int) or map_size < 0:
            raise ValueError(f"tribes: map_size must be an integer >= 0, got {map_size!r}")
        if not isinstance(map, str):
            raise ValueError(f"tribes: map must be a string, got {map!r}")
        level = map
        if isinstance(initial_land, bool) or not isinstance(initial_land, (int, float)):
            raise ValueError(f"tribes: initial_land must be a number, got {initial_land!r}")
        # Checked here, not only by the generator: a level that cannot be generated is otherwise
        # reported as "no level for game seed 0 after 256 generator seeds".
        low_land, high_land = LAND_RATIO_RANGE
        if not low_land <= initial_land <= high_land:
            raise ValueError(
                f"tribes: initial_land must be in [{low_land}, {high_land}], got {initial_land!r}"
            )
        self.mode = C.MODE_NAMES.index(mode)
        self.partial = observability == "partial"
        #: The last turn (tick) played; turns count from 0, so ``max_rounds - 1``.
        self.max_turns = max_rounds - 1 if max_rounds else C.MAX_TURNS[self.mode]
        self.initial_land = float(initial_land)
        self._fixed_level: Level | None = None
        self._level_seeds: tuple[int, ...] | None = None
        self._levels: dict[int, Level] = {}
        self._seed_levels: dict[int, Level] = {}
        if level == "" or level.startswith("seed:") or level.startswith("paper"):
            if not 2 <= num_players <= 4:
                raise ValueError(f"tribes: num_players must be 2 to 4, got {num_players}")
            self.tribe_types = _parse_tribes(tribes, num_players)
            if len(self.tribe_types) != num_players:
                raise ValueError(
                    f"tribes: {num_players} players need {num_players} tribes, "
                    f"got {len(self.tribe_types)} ({tribes!r})"
                )
            size = map_size or C.DEFAULT_MAP_SIZE[num_players]
            low, high = MAP_SIZE_RANGE
            if not low <= size <= high:
                raise ValueError(f"tribes: map_size must be {low}..{high} (or 0), got {size}")
            if level.startswith("seed:"):
                try:
                    self._level_seeds = (int(level[5:]),)
                except ValueError:
                    raise LevelError(f"tribes: level {level!r}: seed must be an integer") from None
            elif level.startswith("paper"):
                seeds = tournament_seeds()
                if level == "paper":
                    self._level_seeds = seeds
                elif level.startswith("paper:") and level[6:].isdigit():
                    k = int(level[6:])
                    if not 0 <= k < len(seeds):
                        raise LevelError(f"tribes: level {level!r}: K must be 0..{len(seeds) - 1}")
                    self._level_seeds = (seeds[k],)
                else:
                    raise LevelError(f"tribes: unknown level {level!r}; use 'paper' or 'paper:K'")
            self.size = size
            # fail early on impossible generator settings (tribes, size, land ratio)
            self.level_for_seed(0)
        else:
            if level not in BUNDLED_LEVELS:
                refuse_file_option(GAME_NAME, "map", level)
            lv = load_level(level)
            self._fixed_level = lv
            self.size = lv.size
            if num_players != 2 and num_players != len(lv.capitals):
                raise ValueError(
                    f"tribes: level {level!r} has {len(lv.capitals)} tribes, "
                    f"num_players={num_players}"
                )
            num_players = len(lv.capitals)
            file_tribes = tuple(t for _, t in lv.capitals)
            if tribes not in ("", None, ()) and set(_parse_tribes(tribes, num_players)) != set(
                file_tribes
            ):
                raise ValueError(
                    f"tribes: level {level!r} is played by "
                    f"{', '.join(C.TRIBE_KEYS[t] for t in file_tribes)}; tribes={tribes!r}"
                )
            self.tribe_types = file_tribes
        self.num_players = num_players
        self.geo = Geo(self.size)
        self.layout = A.make_layout(self.size)
        self.end_turn_action = self.layout.size - 1
        from stratagem.envs.tribes.observation import OBSERVATION_PLANES

        config = {
            "num_players": num_players,
            "tribes": ",".join(C.TRIBE_KEYS[t] for t in self.tribe_types),
            "map": level,
            "map_size": map_size,
            "mode": mode,
            "max_rounds": max_rounds,
            "observability": observability,
            "initial_land": initial_land,
        }
        if self._fixed_level is not None and tribes in ("", None, ()):
            config["tribes"] = ""
        self.spec = GameSpec(
            name=GAME_NAME,
            version=RULES_VERSION,
            num_players=num_players,
            action_size=self.layout.size,
            observation_shape=(self.size, self.size, len(OBSERVATION_PLANES)),
            max_game_length=(self.max_turns + 1) * num_players * 2000,
            reward_range=(-1.0, 1.0),
            deterministic=False,
            perfect_information=False,
            zero_sum=True,
            action_layout=self.layout,
            observation_planes=OBSERVATION_PLANES,
            observation_bounds=(0.0, 1.0),
            config=config,
        )

    @property
    def max_rounds(self) -> int:
        """Rounds played at most: the ``max_rounds`` option, or the mode's (51 or 31) for 0."""
        return self.max_turns + 1

    # ------------------------------------------------------------------ levels
    def _generated(self, seed: int) -> Level:
        level = self._levels.get(seed)
        if level is None:
            level = generate_level(seed, self.tribe_types, self.size, self.initial_land)
            if len(self._levels) > 64:
                self._levels.clear()
            self._levels[seed] = level
        return level

    def level_for_seed(self, seed: int | None) -> Level:
        """The level a game of this seed is played on.

        With ``map=""`` it is the generator's level of seed ``N`` (the game seed); where that
        board has no room for every capital (only boards smaller than 10 or land ratios far
        from the paper's 0.5 run out of room), the first of the seeds ``N + k * 2**32``,
        ``k = 1 .. LEVEL_ATTEMPTS - 1``, whose board has room, so that every game seed gives a
        game (the level's ``name`` says which seed made it). ``seed:N`` and ``paper`` levels
        are exact: they raise instead.

        Raises:
            LevelError: If no attempt makes a level (impossible generator settings).
        """
        if self._fixed_level is not None:
            return self._fixed_level
        seed = 0 if seed is None else int(seed)
        if self._level_seeds is not None:
            return self._generated(self._level_seeds[seed % len(self._level_seeds)])
        level = self._seed_levels.get(seed)
        if level is None:
            first: LevelError | None = None
            for k in range(LEVEL_ATTEMPTS):
                try:
                    level = self._generated(seed + (k << 32))
                    break
                except LevelError as exc:
                    first = first or exc
            else:
                raise LevelError(
                    f"tribes: no level for game seed {seed} after {LEVEL_ATTEMPTS} generator "
                    f"seeds ({seed} + k * 2**32); use a larger map_size or an initial_land "
                    f"nearer 0.5. The first attempt said: {first}"
                )
            if len(self._seed_levels) > 64:
                self._seed_levels.clear()
            self._seed_levels[seed] = level
        return level

    # ------------------------------------------------------------------ contract
    def new_initial_state(self, seed: int | None = None, level: Level | None = None) -> TribesState:
        """Start of a game: level from the seed (see ``level``), game chance from the seed too.

        Args:
            seed: Drives the level (when generated) and every random event of the game.
            level: Play this level instead (tests and tools); its tribes must be the game's.
        """
        seed = check_seed(seed, "tribes")
        if level is None:
            level = self.level_for_seed(seed)
        elif len(level.capitals) != self.num_players or level.size != self.size:
            raise LevelError(
                f"tribes: level {level.name!r} has {len(level.capitals)} tribes on "
                f"{level.size}x{level.size}; this game needs {self.num_players} on "
                f"{self.size}x{self.size}"
            )
        return TribesState._from_level(self, level, np.random.default_rng(seed))

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action`` (``move (3,4)->(4,6)``, ``research_climbing``)."""
        return A.action_to_string(self.layout, int(action))

    def string_to_action(self, text: str) -> int:
        """Parse a name written by :meth:`action_to_string`."""
        return A.string_to_action(self.layout, text)

    def _state_from_dict(self, data: Mapping[str, Any]) -> TribesState:
        return TribesState._from_dict(self, data)


class TribesState(LegalActions, TurnFlow, StateJson, State):
    """A Tribes position. Create it with :meth:`TribesGame.new_initial_state`.

    Public read-only attributes (agents and tools read them; only the rules write them):

    Attributes:
        tick: The turn counter (0-based).
        terrain, resource, building, unit_at, tile_city, network: Per tile (row-major).
        units: Unit id -> ``[type, tribe, tile, hp, max_hp, kills, veteran, city, status,
            carried type]`` (see ``units.U_*``).
        cities: City id -> ``[tile, tribe, level, population, population needed, is capital,
            bonus production, walls, territory radius, unit ids, points worth]``
            (``cities.C_*``).
        stars, score, techs, kills, result: Per tribe (``techs`` is a bit mask).
        tcities, extra: Per tribe, its city ids and its units without a city.
        tribe_type: Per seat, the tribe played (``constants.XIN_XI`` ...).
        native: False in a copy made for an agent (:meth:`observed_by`).
    """

    game: TribesGame
    render_module = "stratagem.envs.tribes.render"
    __slots__ = (
        "_board_shared",
        "_legal",
        "_legal_link",
        "_memo",
        "_rng",
        "_rng_owned",
        "building",
        "capital",
        "cities",
        "connected",
        "current_player",
        "extra",
        "game",
        "game_over",
        "geo",
        "kills",
        "met",
        "monuments",
        "native",
        "network",
        "next_id",
        "num_tribes",
        "pacifist",
        "ranking",
        "resource",
        "result",
        "score",
        "stars",
        "tcities",
        "techs",
        "temples",
        "terrain",
        "tick",
        "tile_city",
        "tribe_type",
        "unit_at",
        "units",
        "vis",
    )

    # ------------------------------------------------------------------ construction
    @classmethod
    def _empty(cls, game: TribesGame) -> TribesState:
        s = cls.__new__(cls)
        s.game = game
        s.geo = game.geo
        s._board_shared = False
        s._legal = None
        s._legal_link = None
        s._memo = None
        s._rng = None
        s._rng_owned = True
        s.native = True
        s.ranking = None
        s.game_over = False
        return s

    @classmethod
    def _from_level(cls, game: TribesGame, level: Level, rng: np.random.Generator) -> TribesState:
        s = cls._empty(game)
        n = game.geo.n
        nt = len(level.capitals)
        s.num_tribes = nt
        s.tribe_type = tuple(t for _, t in level.capitals)
        s.terrain = list(level.terrain)
        s.resource = list(level.resource)
        s.building = [C.NO_BUILDING] * n
        s.unit_at = [0] * n
        s.tile_city = [0] * n
        s.network = [0] * n
        s.temples = {}
        s.units = {}
        s.cities = {}
        s.stars = [C.INITIAL_STARS] * nt
        s.score = [C.TRIBES[t].initial_score for t in s.tribe_type]
        s.techs = [1 << C.TRIBES[t].tech for t in s.tribe_type]
        s.kills = [0] * nt
        s.pacifist = [0] * nt
        s.result = [C.INCOMPLETE] * nt
        s.capital = [0] * nt
        s.tcities = [[] for _ in range(nt)]
        s.extra = [[] for _ in range(nt)]
        s.connected = [[] for _ in range(nt)]
        s.monuments = [[C.MONUMENT_UNAVAILABLE] * len(C.MONUMENTS) for _ in range(nt)]
        s.met = [0] * nt
        s.vis = [[0] * n for _ in range(nt)] if game.partial else [_all_visible(n)] * nt
        s.next_id = 1
        s.tick = 0
        s.current_player = 0
        s._rng = rng
        centres = {pos for pos, _ in level.capitals}
        for k, (pos, ttype) in enumerate(level.capitals):
            cid = CT.found_city(s, k, pos, capital=True)
            s.capital[k] = cid
            UN.add_unit(s, UN.new_unit(C.TRIBES[ttype].unit, k, pos, cid))
            CT.assign_city_tiles(s, cid, 1, reserved=centres - {pos})
            s.terrain[pos] = C.CITY
        for k in range(nt):
            UN.clear_view(s, k, s.cities[s.capital[k]][C_POS], C.FIRST_CITY_CLEAR_RANGE)
        CT.update_network_all(s)
        s._init_turn(0)
        return s

    # ------------------------------------------------------------------ randomness
    def _own_rng(self) -> np.random.Generator:
        if not self._rng_owned:
            self._rng = clone_rng(self._rng)
            self._rng_owned = True
        return self._rng  # type: ignore[return-value]

    def randint(self, k: int) -> int:
        """A uniform integer in ``[0, k)`` from the state's generator."""
        return int(self._own_rng().integers(k))

    def shuffled(self, items: Sequence[int]) -> list[int]:
        """A random permutation of ``items`` (the state's generator)."""
        out = list(items)
        if len(out) > 1:
            order = self._own_rng().permutation(len(out))
            out = [out[i] for i in order]
        return out

    # ------------------------------------------------------------------ contract
    @property
    def active(self) -> int:
        """The tribe whose turn it is (same as ``current_player``)."""
        return self.current_player

    def clone(self) -> TribesState:
        """Copy the lists; the board and the random generator are shared until written to.

        The board lists (terrain, resource, building, territory, trade network) change in a
        few actions only (builds, roads, captures...), so the copy shares them and whichever
        side first writes one copies them all (:meth:`_own_board`); the random generator is
        copied when one side draws from it.
        """
        c = TribesState.__new__(TribesState)
        c.game = self.game
        c.geo = self.geo
        c.num_tribes = self.num_tribes
        c.tribe_type = self.tribe_type
        c.terrain = self.terrain
        c.resource = self.resource
        c.building = self.building
        c.tile_city = self.tile_city
        c.network = self.network
        c._board_shared = self._board_shared = True
        c.unit_at = self.unit_at[:]
        c.temples = self.temples.copy()
        c.units = {k: v[:] for k, v in self.units.items()}
        cities = {}
        for k, v in self.cities.items():
            w = v[:]
            w[9] = v[9][:]
            cities[k] = w
        c.cities = cities
        c.stars = self.stars[:]
        c.score = self.score[:]
        c.techs = self.techs[:]
        c.kills = self.kills[:]
        c.pacifist = self.pacifist[:]
        c.result = self.result[:]
        c.capital = self.capital[:]
        c.tcities = [x[:] for x in self.tcities]
        c.extra = [x[:] for x in self.extra]
        c.connected = [x[:] for x in self.connected]
        c.monuments = [x[:] for x in self.monuments]
        c.met = self.met[:]
        c.vis = [x[:] for x in self.vis] if self.game.partial else self.vis
        c.next_id = self.next_id
        c.tick = self.tick
        c.current_player = self.current_player
        c.game_over = self.game_over
        c.native = self.native
        c.ranking = self.ranking
        c._legal = self._legal
        c._legal_link = self._legal_link  # valid while its list is ``_legal`` (see ``apply``)
        c._memo = self._memo  # shared: its entries are keyed by everything they depend on
        c._rng = self._rng
        c._rng_owned = False
        self._rng_owned = False
        return c

    def _own_board(self) -> None:
        """Copy the board lists if a clone may share them: call before writing to them.

        The rules call it wherever they write the board (``_execute`` before any action but
        a move or an attack, and every function of ``cities``, ``units`` and ``observation``
        that writes it), so a clone never sees the other's writes. Code outside the rules
        that writes the (read-only) board lists of a clone must call it first.
        """
        if self._board_shared:
            self.terrain = self.terrain[:]
            self.resource = self.resource[:]
            self.building = self.building[:]
            self.tile_city = self.tile_city[:]
            self.network = self.network[:]
            self._board_shared = False

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.game_over

    def returns(self) -> np.ndarray:
        """+1 for the winner, -1/(n-1) for every other tribe; zeros before the end."""
        n = self.num_tribes
        out = np.zeros(n, dtype=np.float64)
        if self.game_over:
            for t in range(n):
                out[t] = 1.0 if self.result[t] == C.WIN else -1.0 / (n - 1)
        return out

    def legal_action_list(self) -> list[int]:
        """Legal actions, ascending, as a new Python list: the fast path for planners."""
        if self._legal is None:
            self._compute_legal()
        return list(self._legal)  # type: ignore[arg-type]

    def legal_action_mask(self) -> np.ndarray:
        """Boolean mask over the flat action space."""
        if self._legal is None:
            self._compute_legal()
        mask = np.zeros(self.game.spec.action_size, dtype=bool)
        mask[self._legal] = True
        return mask

    def legal_actions(self) -> np.ndarray:
        """Legal action indices, ascending."""
        if self._legal is None:
            self._compute_legal()
        return np.asarray(self._legal, dtype=np.int64)

    def apply(self, action: int) -> None:
        """Advance by one decision; an illegal action raises and changes nothing."""
        if type(action) is not int:
            action = self.check_action_index(action)
        if self._legal is None:
            self._compute_legal()
        legal = self._legal
        i = bisect_left(legal, action)  # type: ignore[arg-type]
        if i == len(legal) or legal[i] != action:  # type: ignore[arg-type,index]
            action = self.check_action_index(action)  # out of the space: its own message
            raise self.illegal(action, self._why_illegal(action))
        end = self.game.end_turn_action
        link = self._legal_link
        if link is not None and (link[0] is not legal or link[1] is not self._memo):
            link = None  # another state's (a clone's original moved on): not this list's
        if action == end:
            self._end_turn_keeping(link)
            return
        # A move with full observability changes none of the board, the enemies and the
        # visibility (nor do research, spawns and a unit's own actions but attacks, captures
        # and examining ruins): the list's board memo and context hold for the next list.
        kept = None
        if link is not None and _KEEPS_CONTEXT[action // self.geo.n] and not self.game.partial:
            kept = (link[1], link[2])
        captured = self._execute(action)
        self._legal = None
        if captured:
            self._check_game_over()
            if self.game_over:
                return
        self._compute_legal(kept)
        if len(self._legal) == 1 and self._legal[0] == end:  # type: ignore[arg-type]
            self._end_turn_keeping(self._legal_link)

    def _end_turn_keeping(self, link: LegalLink | None) -> None:
        """End the turn, then list the next tribe's actions on the board memo of ``link``.

        Ending a turn writes no board list (production, temples, statuses and recovery live
        elsewhere), so the board memo of the list the turn ended from (``link``, this state's
        current list or None) still matches the board: the next list skips the compare.
        """
        self._end_turn()
        if link is not None and not self.game_over:
            self._compute_legal((link[1], None))

    # ------------------------------------------------------------------ views
    def observation(self, player: int) -> np.ndarray:
        """``H × W × C`` planes of what ``player`` sees (see ``observation.OBSERVATION_PLANES``)."""
        from stratagem.envs.tribes.observation import observe

        return observe(self, self._seat(player))

    def observed_by(self, player: int) -> TribesState:
        """The agent's copy: other tribes' private figures hidden, unseen tiles fogged."""
        from stratagem.envs.tribes.observation import observed_copy

        return observed_copy(self, self._seat(player))

    def _seat(self, player: int) -> int:
        """``player`` as a plain int, checked: the views take a seat from outside the engine.

        Raises:
            ValueError: If ``player`` is not an integer seat of this game (a bool is not).
        """
        if (
            isinstance(player, bool)
            or not isinstance(player, (int, np.integer))
            or not (0 <= player < self.num_tribes)
        ):
            raise ValueError(f"tribes: player must be 0..{self.num_tribes - 1}, got {player!r}")
        return int(player)

    # ------------------------------------------------------------------ hooks for agents
    def action_kind(self, action: int) -> str:
        """Kind of an action: ``move``, ``attack``, ..., ``research``, ``end_turn``."""
        plane = action // self.geo.n
        if plane >= A.NUM_PLANES:
            return "end_turn" if action == self.game.end_turn_action else "research"
        return A.PLANE_KIND[plane]

    def action_group(self, action: int) -> str:
        """The paper's root-prioritisation group of an action: ``unit``, ``city`` or ``tribe``.

        Research and roads are tribe actions. The reference offers the tribe group only when it
        holds more than the end of the turn, so ``end_turn`` is a tribe action only next to
        research or road actions; otherwise it joins the unit group (or the city group), so that
        a planner drawing a group never draws "end the turn" alone.
        """
        n = self.geo.n
        plane = action // n
        if plane in A.UNIT_PLANES:
            return "unit"
        if plane in A.CITY_PLANES:
            return "city"
        end = self.game.end_turn_action
        if action != end:
            return "tribe"
        if self._legal is None:
            self._compute_legal()
        legal = self._legal
        if any(a >= A.BUILD_ROAD * n and a != end for a in legal):  # type: ignore[union-attr]
            return "tribe"
        if legal and legal[0] < (A.UPGRADE + 1) * n:  # type: ignore[index]
            return "unit"
        if len(legal) > 1:  # type: ignore[arg-type]
            return "city"
        return "tribe"

    def action_actor(self, action: int) -> tuple[str, int]:
        """``("unit", id)``, ``("city", id)`` or ``("tribe", seat)`` performing ``action``."""
        plane, tile = divmod(action, self.geo.n)
        if plane in A.UNIT_PLANES:
            return "unit", self.unit_at[tile]
        if plane in A.CITY_PLANES:
            return "city", self.tile_city[tile]
        return "tribe", self.current_player

    def action_target(self, action: int) -> int:
        """Target tile of a spatial action (the source tile plus its offset), -1 for globals."""
        plane, tile = divmod(action, self.geo.n)
        if plane >= A.NUM_PLANES:
            return -1
        _, dr, dc, _ = A.PLANE_INFO[plane]
        row, col = self.geo.rc[tile]
        return (row + dr) * self.geo.size + (col + dc)

    def rounds_played(self) -> int:
        """Rounds played so far, the one in progress included, at most ``max_rounds``.

        The turn counter (``tick``) starts at 0 and ends one past the last turn at the round
        limit, so this is ``tick + 1`` capped at ``max_rounds``.
        """
        return min(self.tick + 1, self.game.max_rounds)

    def end_statistics(self) -> dict[str, Any]:
        """The paper's end-of-game figures (Table 1).

        Rounds played (as the ``max_rounds`` option counts them, :meth:`rounds_played`), and
        per seat: rank, score, share of the 24 technologies researched, cities and production.
        """
        ranking = list(self.ranking) if self.ranking is not None else self.current_ranking()
        n = self.num_tribes
        return {
            "rounds": float(self.rounds_played()),
            "rank": [float(ranking.index(t) + 1) for t in range(n)],
            "score": [float(self.score[t]) for t in range(n)],
            "techs": [self.num_techs(t) / C.NUM_TECHS for t in range(n)],
            "cities": [float(len(self.tcities[t])) for t in range(n)],
            "production": [float(CT.tribe_production(self, t)) for t in range(n)],
        }

    def production(self, tribe: int) -> int:
        """Stars per turn of a tribe (sum of its cities' production)."""
        return CT.tribe_production(self, tribe)

    def num_techs(self, tribe: int) -> int:
        """Technologies a tribe has researched."""
        return techtree.num_researched(self.techs[tribe])

    def tribe_units(self, tribe: int) -> list[int]:
        """Unit ids of a tribe (city units in city order, then the extra units)."""
        return UN.tribe_units(self, tribe)

    # Kept (not core's ==): comparing the JSON text also tells dict key order, 1.0 and True from 1.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TribesState):
            return NotImplemented
        return self.game.spec.config == other.game.spec.config and json.dumps(
            self._to_dict()
        ) == json.dumps(other._to_dict())


__all__ += ["BUNDLED_LEVELS", "Geo"]
