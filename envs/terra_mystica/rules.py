"""Terra Mystica (base game) rules: the game configuration and the forward model.

Source: ``specs/terra_mystica_rules.md``, written from the online engine
(jsnell/terra-mystica), which also decides every point the spec leaves open; the engine's
behaviour is followed where it differs from the printed rules, because the real game logs in
``tm_games/`` were produced by it and replay exactly (see ``replay.py``).

Every decision is a player's action, the out-of-turn ones included:

* **Setup**: initial dwellings in snake order (Nomads' third, then Chaos Magicians' single one
  last), then bonus tiles in reverse order.
* **Turn** of the active player: any number of free conversions (burn, the power and resource
  conversions, Mermaids' river towns), one main action (twice after the Chaos Magicians'
  ACTC), the decisions it brings (spades to place, favor and town tiles, cult tracks, a bridge,
  the Darklings' stronghold conversion), an optional dwelling after a terraform, and
  ``end turn`` (passing ends the turn by itself).
* **Leech**: when the turn is over, every offer made by its builds is decided by the receiving
  player, in offer order (turn order after the builder); a Cultists' offer accepted gives the
  Cultists a cult step to place at once; all declined gives them 1 power (errata). (A replay of a
  real game may postpone an offer past later turns, as the online engine allowed: see
  :meth:`TerraMysticaState.postpone_leech`.)
* **Town tiles** with cult steps (TW5, TW6): each track the steps would take to 10 is the
  player's choice, to 10 with a key or ``decline`` (it stays at 9).
* **Cult-reward spades** at the end of a round are placed by each player in the next round's
  turn order before the ordinary income.

Spades bought with workers ("dig") are implicit: a terraform costs exactly the missing spades,
which is the only amount the engine lets a player use (dug spades may not be wasted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stratagem.envs.core import Game, GameSpec, InvalidStateError, State
from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.buildings import (
    detect_town,
    iter_bits,
    leech_offers,
    mermaid_town_rivers,
    opponent_adjacent,
    reach_masks,
)
from stratagem.envs.terra_mystica.cults import ORDER_SPACE_STEPS, advance_cult, gain_keys
from stratagem.envs.terra_mystica.factions import (
    ALCHEMISTS,
    AUREN,
    BUILDING_NAMES,
    CHAOSMAGICIANS,
    CULTISTS,
    DARKLINGS,
    DWARVES,
    ENGINEERS,
    FACTION_NAMES,
    FACTIONS,
    FAKIRS,
    GIANTS,
    HALFLINGS,
    MERMAIDS,
    NOMADS,
    SWARMLINGS,
    WITCHES,
    faction_id,
)
from stratagem.envs.terra_mystica.fields import (
    BLOCKED,
    BON,
    BON_USED,
    BRIDGES,
    CARPET,
    CULT,
    CULTP,
    DIG,
    FAV6_USED,
    FAVS,
    KEY,
    MAXP,
    NB,
    P1,
    P2,
    P3,
    PASSED,
    PLAYER_SIZE,
    SH_USED,
    SHIP,
    TELE,
    TOWN_SIZE,
    TW,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.map import (
    BRIDGE_SLOTS,
    LAND_ADJ_MASK,
    LAND_CELLS,
    LAND_MASK,
    NUM_CELLS,
    RIVER_CELLS,
    TERRAIN0,
)
from stratagem.envs.terra_mystica.power import burn, gain_power, gain_priests, leech_amount
from stratagem.envs.terra_mystica.scoring import (
    CULT_POINTS,
    NETWORK_POINTS,
    cult_reward,
    network_size,
    pass_vp,
    rank_points,
    resource_vp,
    take_income,
)
from stratagem.envs.terra_mystica.terraform import COST, spade_cost
from stratagem.envs.terra_mystica.tiles import (
    BONUS_NAMES,
    FAVORS,
    SCORING,
    SCORING_NAMES,
    TOWNS,
)
from stratagem.envs.terra_mystica.validate import check_state

__all__ = [
    "PHASE_NAMES",
    "TerraMysticaGame",
    "TerraMysticaState",
]

GAME_NAME = "terra_mystica"
RULES_VERSION = 0  # the v0 of stratagem/<Game>-v0 and <game>_v0: bump them together

# Phases: who decides what.
SETUP_DWELLING, SETUP_BONUS, ACTION, LEECH, CULTIST, INCOME_SPADES, OVER = range(7)
PHASE_NAMES = (
    "setup dwelling",
    "setup bonus",
    "action",
    "leech",
    "cultist step",
    "income spades",
    "over",
)

# Turn context of the active player (``TerraMysticaState.ctx``).
X_ACTIONS = 0  # main actions left this turn
X_SPADES = 1  # spades held
X_TF = 2  # terraforms still allowed with them (-1: any number, cult-reward spades)
X_BUILD = 3  # 1 if a dwelling may still be built on a hex terraformed this action
X_DIG = 4  # 1 if missing spades may be bought with workers in this action
X_HOME = 5  # 1 if further terraforms must be to the home terrain
X_TELE = 6  # hex reached by tunnel/carpet this turn, or -1
X_FREE_TF = 7  # Nomads' sandstorm to place
X_FREE_D = 8  # Witches' free dwelling to place
X_FREE_TP = 9  # Swarmlings' free trading post to place
X_FAV = 10  # favor tiles to choose
X_TW = 11  # town tiles to choose
X_CULT = 12  # cult-track choices to make
X_CSTEPS = 13  # steps per cult choice (2 for Auren's ACTA)
X_BRIDGE = 14  # bridge to place
X_WP = 15  # Darklings' stronghold conversion pending
X_INCOME = 16  # 1 while placing cult-reward spades (passed: no BON4, no teleport, no build)
X_NODECL = 17  # 1 when the held spades were dug: they may not be thrown away
X_TCULT = 18  # tracks a town tile's cult steps would take to 10 and the player still decides
X_TSTEPS = 19  # the steps that town tile gives on every track (TW5: 1, TW6: 2)
CTX_SIZE = 20

POWER_ACTION_COST = (3, 3, 4, 4, 4, 6)
_SH_ACTION_FACTIONS = {AUREN, CHAOSMAGICIANS, GIANTS, NOMADS, SWARMLINGS, WITCHES}
_DEFAULT_FACTIONS = ("halflings", "engineers", "witches", "nomads", "mermaids")
_RIVER_INDEX = {cell: i for i, cell in enumerate(RIVER_CELLS)}
_HOME_CELLS = tuple(tuple(c for c in LAND_CELLS if TERRAIN0[c] == t) for t in range(7))


def _parse_list(value: Any, what: str) -> list[str] | None:
    """``"random"`` -> None; ``"A,B"`` or a sequence of names -> list of names.

    ``None`` is refused rather than read as ``"random"``: for ``factions`` the default is
    ``"default"``, so a missing value has no single obvious meaning (``-c factions=null``).
    """
    if isinstance(value, str) and value.strip().lower() in ("random", ""):
        return None
    if isinstance(value, str):
        items = [x.strip() for x in value.split(",") if x.strip()]
    elif isinstance(value, Sequence) and all(isinstance(x, str) for x in value):
        items = [x.strip() for x in value]
    else:
        choices = "'default', 'random'" if what == "factions" else "'random'"
        raise ValueError(
            f"terra_mystica: {what} must be {choices} or a comma-separated list of names, "
            f"got {value!r}"
        )
    return items


class TerraMysticaGame(Game):
    """Terra Mystica base game on the original map.

    Args:
        num_players: 2 to 5.
        factions: ``"default"`` (Halflings, Engineers, Witches, Nomads, Mermaids: the first
            ``num_players``; for 2 players the paper's pair), ``"random"`` (drawn per seed, no two
            sharing a home terrain) or a comma-separated list of engine names in seat order.
        scoring_tiles: ``"random"`` (6 drawn per seed, SCORE1 not in rounds 5 and 6) or the 6 round
            tiles, e.g. ``"SCORE6,SCORE8,SCORE1,SCORE4,SCORE5,SCORE7"``.
        bonus_tiles: ``"random"`` (``num_players + 3`` drawn per seed) or the tiles in play.
        turn_order: ``"base"`` (next round starts with the first to pass, then seat order) or
            ``"variable"`` (next round's order is this round's passing order; option
            ``variable-turn-order`` of the online game).
        mini_expansion: Town tiles TW6–TW8 (``mini-expansion-1``).
        shipping_bonus: Bonus tile BON10 (``shipping-bonus``).
        temple_scoring_tile: Scoring tile SCORE9 (``temple-scoring-tile``).
        cultists_errata: Cultists gain 1 power when every opponent declines (errata,
            ``errata-cultist-power``).

    Raises:
        ValueError: For a bad option value (unknown faction or tile, two factions of one
            colour, wrong counts).
    """

    def __init__(
        self,
        *,
        num_players: int = 2,
        factions: str | Sequence[str] = "default",
        scoring_tiles: str | Sequence[str] = "random",
        bonus_tiles: str | Sequence[str] = "random",
        turn_order: str = "base",
        mini_expansion: bool = False,
        shipping_bonus: bool = False,
        temple_scoring_tile: bool = False,
        cultists_errata: bool = True,
    ) -> None:
        if (
            isinstance(num_players, bool)
            or not isinstance(num_players, int)
            or not (2 <= num_players <= 5)
        ):
            raise ValueError(f"terra_mystica: num_players must be 2..5, got {num_players!r}")
        for name, flag in (
            ("mini_expansion", mini_expansion),
            ("shipping_bonus", shipping_bonus),
            ("temple_scoring_tile", temple_scoring_tile),
            ("cultists_errata", cultists_errata),
        ):
            if not isinstance(flag, bool):
                raise ValueError(f"terra_mystica: {name} must be true or false, got {flag!r}")
        if turn_order not in ("base", "variable"):
            raise ValueError(
                f"terra_mystica: turn_order must be 'base' or 'variable', got {turn_order!r}"
            )
        n = num_players
        self.num_players = n
        self.turn_order = turn_order
        self.mini_expansion = mini_expansion
        self.shipping_bonus = shipping_bonus
        self.temple_scoring_tile = temple_scoring_tile
        self.cultists_errata = cultists_errata
        # factions
        if isinstance(factions, str) and factions.strip().lower() == "default":
            self.fixed_factions: tuple[int, ...] | None = tuple(
                faction_id(x) for x in _DEFAULT_FACTIONS[:n]
            )
        else:
            names = _parse_list(factions, "factions")
            if names is None:
                self.fixed_factions = None
            else:
                if len(names) != n:
                    raise ValueError(f"terra_mystica: {len(names)} factions given for {n} players")
                ids = tuple(faction_id(x) for x in names)
                homes = [FACTIONS[i].home for i in ids]
                if len(set(homes)) != n:
                    raise ValueError(
                        f"terra_mystica: factions {', '.join(names)} share a home terrain"
                    )
                self.fixed_factions = ids
        # tiles
        self.score_pool = tuple(range(9 if temple_scoring_tile else 8))
        tiles = _parse_list(scoring_tiles, "scoring_tiles")
        if tiles is None:
            self.fixed_scoring: tuple[int, ...] | None = None
        else:
            if len(tiles) != 6:
                raise ValueError(f"terra_mystica: scoring_tiles needs 6 tiles, got {len(tiles)}")
            ids = []
            for t in tiles:
                key = t.upper()
                if key not in SCORING_NAMES or SCORING_NAMES.index(key) not in self.score_pool:
                    raise ValueError(f"terra_mystica: unknown or disabled scoring tile {t!r}")
                ids.append(SCORING_NAMES.index(key))
            if len(set(ids)) != 6:
                raise ValueError("terra_mystica: scoring_tiles repeats a tile")
            self.fixed_scoring = tuple(ids)
        self.bonus_pool = tuple(range(10 if shipping_bonus else 9))
        tiles = _parse_list(bonus_tiles, "bonus_tiles")
        if tiles is None:
            self.fixed_bonus: tuple[int, ...] | None = None
        else:
            ids = []
            for t in tiles:
                key = t.upper()
                if key not in BONUS_NAMES or BONUS_NAMES.index(key) not in self.bonus_pool:
                    raise ValueError(f"terra_mystica: unknown or disabled bonus tile {t!r}")
                ids.append(BONUS_NAMES.index(key))
            if len(set(ids)) != n + 3:
                raise ValueError(
                    f"terra_mystica: bonus_tiles needs {n + 3} different tiles for {n} players"
                )
            self.fixed_bonus = tuple(sorted(ids))
        self.town_supply = tuple(
            (TOWNS[i].copies if (i < 5 or mini_expansion) else 0) for i in range(8)
        )
        self.layout = A.make_layout()
        from stratagem.envs.terra_mystica.observation import observation_planes

        planes = observation_planes(n)
        config = {
            "num_players": n,
            "factions": factions if isinstance(factions, str) else ",".join(factions),
            "scoring_tiles": scoring_tiles
            if isinstance(scoring_tiles, str)
            else ",".join(scoring_tiles),
            "bonus_tiles": bonus_tiles if isinstance(bonus_tiles, str) else ",".join(bonus_tiles),
            "turn_order": turn_order,
            "mini_expansion": mini_expansion,
            "shipping_bonus": shipping_bonus,
            "temple_scoring_tile": temple_scoring_tile,
            "cultists_errata": cultists_errata,
        }
        self.spec = GameSpec(
            name=GAME_NAME,
            version=RULES_VERSION,
            num_players=n,
            action_size=A.ACTION_SIZE,
            observation_shape=(9, 26, len(planes)),
            max_game_length=4000 * n,
            reward_range=(-1.0, 1.0),
            deterministic=True,
            perfect_information=True,
            zero_sum=True,
            action_layout=self.layout,
            observation_planes=planes,
            observation_bounds=(0.0, 1000.0),
            config=config,
        )

    # ----------------------------------------------------------------- setup
    def _draw(self, seed: int | None) -> tuple[list[int], list[int], list[int]]:
        rng = np.random.default_rng(seed)
        n = self.num_players
        if self.fixed_factions is not None:
            fac = list(self.fixed_factions)
        else:
            fac = []
            homes: set[int] = set()
            for i in rng.permutation(len(FACTIONS)):
                if FACTIONS[int(i)].home not in homes:
                    fac.append(int(i))
                    homes.add(FACTIONS[int(i)].home)
                if len(fac) == n:
                    break
        if self.fixed_scoring is not None:
            score = list(self.fixed_scoring)
        else:
            while True:
                score = [int(x) for x in rng.permutation(self.score_pool)[:6]]
                if score[4] != 0 and score[5] != 0:
                    break
        if self.fixed_bonus is not None:
            bonus = list(self.fixed_bonus)
        else:
            bonus = sorted(int(x) for x in rng.permutation(self.bonus_pool)[: n + 3])
        return fac, score, bonus

    def new_initial_state(self, seed: int | None = None) -> TerraMysticaState:
        """Initial position: factions, round tiles and bonus tiles drawn from ``seed``."""
        fac, score, bonus = self._draw(seed)
        n = self.num_players
        st = TerraMysticaState.__new__(TerraMysticaState)
        st.game = self
        st.n = n
        st.fac = fac
        st.F = [FACTIONS[i] for i in fac]
        st.terrain = TERRAIN0
        st.bld = (0,) * NUM_CELLS
        st.own = (-1,) * NUM_CELLS
        st.town = (0,) * NUM_CELLS
        st.mine = (0,) * n
        st.bmask = 0
        st.bown = (-1,) * len(BRIDGE_SLOTS)
        st.mriv = 0
        st.pd = []
        for f in st.F:
            d = [0] * PLAYER_SIZE
            d[C], d[W], d[P], d[P1], d[P2] = f.start
            d[VP] = 20
            for i in range(4):
                d[CULT + i] = f.cults[i]
            d[SHIP] = f.ship_start
            d[CARPET] = 1
            d[BON] = -1
            d[TOWN_SIZE] = 7
            d[MAXP] = 7
            st.pd.append(d)
        st.score_tiles = tuple(score)
        st.bon_game = tuple(1 if i in bonus else 0 for i in range(10))
        st.bon_supply = st.bon_game
        st.bon_coins = (0,) * 10
        st.fav_supply = tuple(f.copies for f in FAVORS)
        st.tw_supply = tuple(self.town_supply)
        st.cult_spaces = (-1,) * 16
        st.act_used = 0
        st.round = 0
        st.order = tuple(range(n))
        st.pass_order = ()
        st.leech = ()
        st.lid = 0
        st.lstat = (0, 0, 0)  # lid, accepted, declined of the offers being decided
        st.late = ()  # offers a replay postponed (receiver, builder, power, lid)
        st.lstats = ()  # lid, accepted, declined of builds with postponed offers
        st.dropped = ()  # seats of players a replay dropped from the game
        st.cpend = 0
        st.inc_queue = ()
        st.inc_spades = (0,) * n
        st.ctx = [0] * CTX_SIZE
        st.ctx[X_TELE] = -1
        st.build_locs = ()
        st.setup_queue = _setup_order(fac)
        st.phase = SETUP_DWELLING
        st.act = -1
        st.current_player = st.setup_queue[0][0]
        st.final = None
        st._legal = None
        st._trace = None
        return st

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action`` (see :mod:`.actions`)."""
        return A.action_to_string(int(action))

    def string_to_action(self, text: str) -> int:
        """Parse an action name written by :meth:`action_to_string`."""
        return A.string_to_action(text)

    def _state_from_dict(self, data: Mapping[str, Any]) -> TerraMysticaState:
        return TerraMysticaState._from_dict(self, data)


def _put(t: tuple, i: int, v: int) -> tuple:
    """``t`` with entry ``i`` replaced (containers that rarely change are shared tuples)."""
    return (*t[:i], v, *t[i + 1 :])


def _setup_order(fac: list[int]) -> tuple[tuple[int, int], ...]:
    """Initial dwellings in snake order, Nomads' third, Chaos Magicians last; bonus picks."""
    n = len(fac)
    normal = [p for p in range(n) if fac[p] != CHAOSMAGICIANS]
    order = [(p, 0) for p in normal] + [(p, 0) for p in reversed(normal)]
    order += [(p, 0) for p in range(n) if fac[p] == NOMADS]
    order += [(p, 0) for p in range(n) if fac[p] == CHAOSMAGICIANS]
    order += [(p, 1) for p in reversed(range(n))]
    return tuple(order)


class TerraMysticaState(State):
    """A Terra Mystica position. Create it with :meth:`TerraMysticaGame.new_initial_state`.

    Attributes:
        n: Number of players.
        fac: Faction id of each seat.
        round: 0 during setup, then 1..6.
        phase: One of the ``PHASE_NAMES`` indices (who decides what).
        act: The player whose turn it is (or who places cult-reward spades), -1 in setup.
        final: Final VP per player once the game is over (``None`` before).
        late: Leech offers a replay postponed (receiver, builder, power, build id); empty in
            play (see :meth:`postpone_leech`).
        dropped: Seats of players who left the game (replays of real games only, see
            :meth:`drop_player`); empty in play.
    """

    game: TerraMysticaGame
    render_module = "stratagem.envs.terra_mystica.render"
    __slots__ = (
        "F",
        "_legal",
        "_trace",
        "act",
        "act_used",
        "bld",
        "bmask",
        "bon_coins",
        "bon_game",
        "bon_supply",
        "bown",
        "build_locs",
        "cpend",
        "ctx",
        "cult_spaces",
        "current_player",
        "dropped",
        "fac",
        "fav_supply",
        "final",
        "game",
        "inc_queue",
        "inc_spades",
        "late",
        "leech",
        "lid",
        "lstat",
        "lstats",
        "mine",
        "mriv",
        "n",
        "order",
        "own",
        "pass_order",
        "pd",
        "phase",
        "round",
        "score_tiles",
        "setup_queue",
        "terrain",
        "town",
        "tw_supply",
    )

    # ================================================================= contract
    def clone(self) -> TerraMysticaState:
        """Copy the player records and the turn context; everything else is shared.

        The board, supplies and queues are tuples, replaced (never mutated) when they change,
        so a clone shares them until one side writes.
        """
        c = TerraMysticaState.__new__(TerraMysticaState)
        c.game = self.game
        c.n = self.n
        c.fac = self.fac
        c.F = self.F
        c.terrain = self.terrain
        c.bld = self.bld
        c.own = self.own
        c.town = self.town
        c.mine = self.mine
        c.bmask = self.bmask
        c.bown = self.bown
        c.mriv = self.mriv
        c.pd = [d[:] for d in self.pd]
        c.score_tiles = self.score_tiles
        c.bon_game = self.bon_game
        c.bon_supply = self.bon_supply
        c.bon_coins = self.bon_coins
        c.fav_supply = self.fav_supply
        c.tw_supply = self.tw_supply
        c.cult_spaces = self.cult_spaces
        c.act_used = self.act_used
        c.round = self.round
        c.order = self.order
        c.pass_order = self.pass_order
        c.leech = self.leech
        c.late = self.late
        c.dropped = self.dropped
        c.lstats = self.lstats
        c.lid = self.lid
        c.lstat = self.lstat
        c.cpend = self.cpend
        c.inc_queue = self.inc_queue
        c.inc_spades = self.inc_spades
        c.ctx = self.ctx[:]
        c.build_locs = self.build_locs
        c.setup_queue = self.setup_queue
        c.phase = self.phase
        c.act = self.act
        c.current_player = self.current_player
        c.final = None if self.final is None else self.final[:]
        c._legal = self._legal
        c._trace = None
        return c

    def is_terminal(self) -> bool:
        """True once the final scoring is done."""
        return self.phase == OVER

    def returns(self) -> np.ndarray:
        """Rank outcome: (players with fewer VP − players with more VP) / (n − 1); 0 before the end.

        For two players this is +1 / −1, and 0 each for a tie.
        """
        out = np.zeros(self.n, dtype=np.float64)
        if self.phase != OVER:
            return out
        vp = [d[VP] for d in self.pd]
        for p in range(self.n):
            out[p] = (sum(v < vp[p] for v in vp) - sum(v > vp[p] for v in vp)) / (self.n - 1)
        return out

    def legal_action_list(self) -> list[int]:
        """Legal actions (unsorted); the fast path for planners."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def apply(self, action: int) -> None:
        """Advance by one decision; an illegal action raises and changes nothing."""
        if type(action) is not int:
            action = self.check_action_index(action)
        if self.phase == OVER:
            raise self.illegal(action, "the game is over")
        if self._legal is None:
            self._legal = self._compute_legal()
        if action not in self._legal:
            raise self.illegal(action, f"not legal in phase '{PHASE_NAMES[self.phase]}'")
        self._legal = None
        self._do(action)

    def observation(self, player: int) -> np.ndarray:
        """``9 × 26 × (48 P + 110)`` planes relative to ``player`` (see :mod:`.observation`)."""
        from stratagem.envs.terra_mystica.observation import encode

        if not (isinstance(player, (int, np.integer)) and 0 <= player < self.n):
            raise ValueError(f"terra_mystica: player must be 0..{self.n - 1}, got {player!r}")
        return encode(self, int(player))

    # ================================================================= serialization
    _LIST_FIELDS = (
        "fac",
        "terrain",
        "bld",
        "own",
        "town",
        "mine",
        "bown",
        "score_tiles",
        "bon_game",
        "bon_supply",
        "bon_coins",
        "fav_supply",
        "tw_supply",
        "cult_spaces",
        "order",
        "pass_order",
        "lstat",
        "inc_queue",
        "inc_spades",
        "ctx",
        "build_locs",
    )
    _INT_FIELDS = ("bmask", "mriv", "act_used", "round", "lid", "cpend", "phase", "act")

    def _to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: list(getattr(self, k)) for k in self._LIST_FIELDS}
        out.update({k: getattr(self, k) for k in self._INT_FIELDS})
        out["pd"] = [list(d) for d in self.pd]
        out["leech"] = [list(o) for o in self.leech]
        out["late"] = [list(o) for o in self.late]
        out["lstats"] = [list(o) for o in self.lstats]
        out["setup_queue"] = [list(x) for x in self.setup_queue]
        out["current_player"] = self.current_player
        out["final"] = self.final
        if self.dropped:  # only a replay drops a player: other states keep their form
            out["dropped"] = list(self.dropped)
        return out

    @classmethod
    def _from_dict(cls, game: TerraMysticaGame, data: Mapping[str, Any]) -> TerraMysticaState:
        st = game.new_initial_state(0)
        n = game.num_players

        def ints(value: Any, name: str, length: int | None = None) -> list[int]:
            if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                raise InvalidStateError(f"terra_mystica: '{name}' must be a list of integers")
            if length is not None and len(value) != length:
                raise InvalidStateError(
                    f"terra_mystica: '{name}' must have {length} entries, not {len(value)}"
                )
            return list(value)

        lengths = {
            "fac": n,
            "terrain": NUM_CELLS,
            "bld": NUM_CELLS,
            "own": NUM_CELLS,
            "town": NUM_CELLS,
            "mine": n,
            "bown": len(BRIDGE_SLOTS),
            "score_tiles": 6,
            "bon_game": 10,
            "bon_supply": 10,
            "bon_coins": 10,
            "fav_supply": 12,
            "tw_supply": 8,
            "cult_spaces": 16,
            "lstat": 3,
            "inc_spades": n,
            "ctx": CTX_SIZE,
        }
        for key in cls._LIST_FIELDS:
            value = ints(data[key], key, lengths.get(key))
            setattr(st, key, value if key == "ctx" else tuple(value))
        for key in cls._INT_FIELDS:
            value = data[key]
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidStateError(f"terra_mystica: '{key}' must be an integer")
            setattr(st, key, value)
        pd = data["pd"]
        if not isinstance(pd, list) or len(pd) != n:
            raise InvalidStateError(f"terra_mystica: 'pd' must hold {n} player records")
        st.pd = [ints(d, "pd", PLAYER_SIZE) for d in pd]
        for key in ("leech", "setup_queue"):
            if not isinstance(data[key], list):
                raise InvalidStateError(f"terra_mystica: '{key}' must be a list")
        st.leech = tuple(tuple(ints(o, "leech", 4)) for o in data["leech"])
        # absent from the states saved before a replay could postpone an offer
        for key in ("late", "lstats"):
            if not isinstance(data.get(key, []), list):
                raise InvalidStateError(f"terra_mystica: '{key}' must be a list")
        st.late = tuple(tuple(ints(o, "late", 4)) for o in data.get("late", []))
        st.lstats = tuple(tuple(ints(o, "lstats", 3)) for o in data.get("lstats", []))
        st.setup_queue = tuple(tuple(ints(x, "setup_queue", 2)) for x in data["setup_queue"])
        st.dropped = tuple(ints(data.get("dropped", []), "dropped"))
        if len(set(st.dropped)) != len(st.dropped) or any(not 0 <= q < n for q in st.dropped):
            raise InvalidStateError("terra_mystica: 'dropped' must list distinct seats")
        if not all(0 <= f < len(FACTIONS) for f in st.fac):
            raise InvalidStateError("terra_mystica: faction id out of range")
        if not 0 <= st.phase <= OVER:
            raise InvalidStateError(f"terra_mystica: phase {st.phase} out of range")
        if not 0 <= st.round <= 6:
            raise InvalidStateError(f"terra_mystica: round {st.round} out of range 0..6")
        if any(t not in (-1, *range(8)) for t in st.terrain):
            raise InvalidStateError("terra_mystica: terrain value out of range")
        if any(not 0 <= b <= 5 for b in st.bld) or any(not -1 <= o < n for o in st.own):
            raise InvalidStateError("terra_mystica: building or owner out of range")
        if sorted(st.order) != list(range(n)):
            raise InvalidStateError("terra_mystica: 'order' must be a permutation of the seats")
        player = data["current_player"]
        if type(player) is not int or not 0 <= player < n:
            raise InvalidStateError(f"terra_mystica: current_player {player!r} out of range")
        st.current_player = player
        final = data["final"]
        if final is not None:
            final = ints(final, "final", n)
        st.final = final
        st.F = [FACTIONS[i] for i in st.fac]
        st._legal = None
        st._trace = None
        for p in range(n):
            mask = sum(1 << c for c in range(NUM_CELLS) if st.own[c] == p and st.bld[c])
            if mask != st.mine[p]:
                raise InvalidStateError(f"terra_mystica: building mask of player {p} is wrong")
        check_state(st)
        return st

    # ================================================================= queries
    def faction_name(self, player: int) -> str:
        """Engine name of a seat's faction."""
        return FACTION_NAMES[self.fac[player]]

    def seat_of(self, faction: str) -> int:
        """Seat playing ``faction`` (engine name).

        Raises:
            ValueError: If that faction is not in the game.
        """
        fid = faction_id(faction)
        if fid not in self.fac:
            raise ValueError(f"terra_mystica: {faction} is not in this game")
        return self.fac.index(fid)

    def resources(self, player: int) -> dict[str, Any]:
        """A player's resources as the game logs show them."""
        d = self.pd[player]
        return {
            "VP": d[VP],
            "C": d[C],
            "W": d[W],
            "P": d[P],
            "PW": (d[P1], d[P2], d[P3]),
            "CULT": tuple(d[CULT : CULT + 4]),
        }

    def vp(self) -> list[int]:
        """Current VP of every player."""
        return [d[VP] for d in self.pd]

    def town_tiles_left(self) -> int:
        """Town tiles in the supply not already owed to a player."""
        return sum(self.tw_supply) - (self.ctx[X_TW] if self.phase == ACTION else 0)

    def leech_order(self, p: int) -> list[int]:
        """Other players in the engine's current order, starting after ``p``."""
        if self.game.turn_order == "variable":
            passed = set(self.pass_order)
            raw = [q for q in self.order if q not in passed] + list(self.pass_order)
        else:
            raw = list(range(self.n))
        i = raw.index(p)
        return raw[i + 1 :] + raw[:i]

    def decision(self) -> str:
        """What the player to move is deciding, in words."""
        if self.phase != ACTION:
            return PHASE_NAMES[self.phase]
        x = self.ctx
        if x[X_TCULT]:
            return "town cult step"
        if x[X_WP]:
            return "darklings conversion"
        if x[X_TW] or x[X_FAV]:
            return "tile choice"
        if x[X_CULT]:
            return "cult track"
        if x[X_BRIDGE]:
            return "bridge"
        if x[X_SPADES] or x[X_FREE_TF] or x[X_FREE_D] or x[X_FREE_TP]:
            return "spades"
        if x[X_ACTIONS]:
            return "main action"
        return "end of turn"

    def leech_offer(self) -> tuple[int, int, int] | None:
        """(receiver, builder, power offered) being decided, in the leech phase."""
        if self.phase != LEECH:
            return None
        q, frm, amount, _ = self.leech[0]
        return q, frm, amount

    # ================================================================= legal actions
    def _compute_legal(self) -> frozenset[int]:
        ph = self.phase
        if ph == OVER:
            return frozenset()
        if ph == SETUP_DWELLING:
            p = self.setup_queue[0][0]
            home = self.F[p].home
            k = (A.K_BUILD + home) * NUM_CELLS
            return frozenset(
                k + c for c in _HOME_CELLS[home] if self.terrain[c] == home and not self.bld[c]
            )
        if ph == SETUP_BONUS:
            return frozenset(self._bonus_choices(pass_action=True))
        if ph == LEECH:
            if self.pd[self.leech[0][0]][P2] >= 2:
                return frozenset((A.X_ACCEPT, A.X_DECLINE, A.X_BURN))
            return frozenset((A.X_ACCEPT, A.X_DECLINE))
        if ph == CULTIST:
            return frozenset(range(A.X_CULT, A.X_CULT + 4))
        p = self.act
        out: list[int] = []
        if ph == INCOME_SPADES:
            self._spade_actions(p, out)
            out.append(A.X_DISCARD)
            return frozenset(out)
        x = self.ctx
        self._free_actions(p, out)
        if x[X_TCULT]:
            # the town's steps on the lowest undecided track: to 10 (a key), or stop at 9
            track = (x[X_TCULT] & -x[X_TCULT]).bit_length() - 1
            out.append(A.X_CULT + track)
            out.append(A.X_DISCARD)
        elif x[X_WP] or x[X_TW] or x[X_FAV]:
            if x[X_WP]:
                w = self.pd[p][W]
                out.extend(A.X_WP + k for k in range(min(3, w) + 1))
            if x[X_TW]:
                for i in range(8):
                    if self.tw_supply[i]:
                        out.append(A.A_TOWN + i if i < 5 else A.X_TOWN + i - 5)
            if x[X_FAV]:
                favs = self.pd[p][FAVS]
                for i in range(12):
                    if self.fav_supply[i] and not favs >> i & 1:
                        out.append(A.X_FAV + i)
        elif x[X_CULT]:
            out.extend(range(A.X_CULT, A.X_CULT + 4))
        elif x[X_BRIDGE]:
            out.extend(A.X_BRIDGE + s for s in self._bridge_slots(p))
        elif x[X_SPADES] or x[X_FREE_TF] or x[X_FREE_D] or x[X_FREE_TP]:
            before = len(out)
            self._spade_actions(p, out)
            if x[X_SPADES] and (not x[X_NODECL] or len(out) == before):
                # dug spades may not be thrown away, unless conversions made them unusable
                out.append(A.X_DISCARD)
            if x[X_SPADES] and x[X_DIG] and self._can_dig(p, x[X_SPADES]):
                out.append(A.X_DIG1)
        elif x[X_ACTIONS] > 0:
            self._optional_build(p, out)
            self._main_actions(p, out)
            if self._can_dig(p, 0):
                out.append(A.X_DIG1)
        else:
            self._optional_build(p, out)
            out.append(A.X_END)
        return frozenset(out)

    def _bonus_choices(self, pass_action: bool) -> list[int]:
        out = []
        for i in range(10):
            if self.bon_supply[i]:
                out.append(A.A_PASS + i if i < 9 else A.X_PASS_BON10)
        return out

    def _free_actions(self, p: int, out: list[int]) -> None:
        d = self.pd[p]
        if d[P2] >= 2:
            out.append(A.X_BURN)
        p3 = d[P3]
        if p3 >= 1:
            out.append(A.X_CONV)
            if p3 >= 3:
                out.append(A.X_CONV + 1)
                if p3 >= 5:
                    out.append(A.X_CONV + 2)
        if d[P] >= 1:
            out.append(A.X_CONV + 3)
            out.append(A.X_CONV + 4)
        if d[W] >= 1:
            out.append(A.X_CONV + 5)
        alch = self.fac[p] == ALCHEMISTS
        if d[C] >= (2 if alch else 3):
            out.append(A.X_CONV + 6)
        if alch and d[VP] >= 1:
            out.append(A.X_CONV + 7)
        if self.fac[p] == MERMAIDS:
            for r in mermaid_town_rivers(self, p):
                out.append(A.X_CONNECT + _RIVER_INDEX[r])

    def _bridge_slots(self, p: int) -> list[int]:
        """Free bridge slots touching one of ``p``'s buildings (at most 3 bridges each)."""
        if self.pd[p][BRIDGES] >= 3:
            return []
        mine = self.mine[p]
        out = []
        for s, (a, b) in enumerate(BRIDGE_SLOTS):
            if self.bown[s] < 0 and (mine >> a & 1 or mine >> b & 1):
                out.append(s)
        return out

    def _dig_payment(self, p: int, spades: int) -> tuple[int, int]:
        """Workers and priests that buy ``spades`` spades."""
        if self.fac[p] == DARKLINGS:
            return 0, spades
        return spades * self.F[p].dig_workers[self.pd[p][DIG]], 0

    def _tele_payment(self, p: int) -> tuple[int, int]:
        """Workers and priests of one tunnel / carpet flight."""
        if self.fac[p] == DWARVES:
            return (2 if self.pd[p][TELE] == 0 else 1), 0
        return 0, 1

    def _main_actions(self, p: int, out: list[int]) -> None:
        d = self.pd[p]
        f = self.F[p]
        fid = self.fac[p]
        home = f.home
        terrain, bld = self.terrain, self.bld
        occupied = 0
        for m in self.mine:
            occupied |= m
        direct, tele = reach_masks(self, p, False)
        x_tele = self.ctx[X_TELE]
        if x_tele >= 0:
            tele &= 1 << x_tele
        w_have, c_have, p_have = d[W], d[C], d[P]
        dw, dc = f.costs[1]
        d_ok = d[NB + 1] < 8
        darkl = fid == DARKLINGS
        rate = 1 if darkl else f.dig_workers[d[DIG]]
        giants = fid == GIANTS
        tw, tp = self._tele_payment(p) if tele else (0, 0)
        cost_row = COST[home]
        nb = NUM_CELLS
        build_k = (A.K_BUILD + home) * nb
        m = (direct | tele) & LAND_MASK & ~occupied
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            if tele & low:
                ew, ep = tw, tp
            else:
                ew = ep = 0
            cur = terrain[cell]
            if cur == home:
                if d_ok and ew + dw <= w_have and dc <= c_have and ep <= p_have:
                    out.append(build_k + cell)
                continue
            costs = cost_row[cur]
            for t in range(7):
                if t == cur or (giants and t != home):
                    continue
                s = 2 if giants else costs[t]
                if darkl:
                    nw, npr = ew, ep + s
                else:
                    nw, npr = ew + s * rate, ep
                if nw <= w_have and npr <= p_have:
                    out.append(t * nb + cell)
                    if t == home and d_ok and nw + dw <= w_have and dc <= c_have:
                        out.append(build_k + cell)
        # upgrades
        costs = f.costs
        ntp, nte, nsh, nsa = d[NB + 2], d[NB + 3], d[NB + 4], d[NB + 5]
        m = self.mine[p]
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            kind = bld[cell]
            if kind == 1:
                if ntp < 4:
                    cw, cc = costs[2]
                    if not opponent_adjacent(self, p, cell):
                        cc *= 2
                    if cw <= w_have and cc <= c_have:
                        out.append(A.K_TP * nb + cell)
            elif kind == 2:
                if nsh == 0:
                    cw, cc = costs[4]
                    if cw <= w_have and cc <= c_have:
                        out.append(A.K_SH * nb + cell)
                if nte < 3:
                    cw, cc = costs[3]
                    if cw <= w_have and cc <= c_have:
                        out.append(A.K_TE * nb + cell)
            elif kind == 3 and nsa == 0:
                cw, cc = costs[5]
                if cw <= w_have and cc <= c_have:
                    out.append(A.K_SA * nb + cell)
        # tracks
        if d[SHIP] < f.ship_max and c_have >= 4 and p_have >= 1:
            out.append(A.A_SHIP)
        if d[DIG] < f.dig_max:
            aw, ac, ap = f.dig_advance
            if aw <= w_have and ac <= c_have and ap <= p_have:
                out.append(A.A_DIG)
        # priests
        if p_have >= 1:
            spaces = self.cult_spaces
            for track in range(4):
                base = A.A_PRIEST + 3 * track
                if spaces[4 * track] < 0:
                    out.append(base)
                if (
                    spaces[4 * track + 1] < 0
                    or spaces[4 * track + 2] < 0
                    or spaces[4 * track + 3] < 0
                ):
                    out.append(base + 1)
                out.append(base + 2)
        # power actions
        p3 = d[P3]
        used = self.act_used
        for i in range(6):
            if not used >> i & 1 and p3 >= POWER_ACTION_COST[i]:
                if i == 0 and not self._bridge_slots(p):
                    continue
                out.append(A.A_POWER + i)
        # special actions
        if d[BON] == 0 and not d[BON_USED]:
            out.append(A.A_BON1)
        if (d[BON] == 1 and not d[BON_USED]) or (d[FAVS] >> 5 & 1 and not d[FAV6_USED]):
            out.append(A.A_CULTACT)
        if self._faction_action_ok(p):
            out.append(A.A_FACTION)
        # pass
        if self.round == 6:
            out.append(A.X_PASS_NONE)
        else:
            out.extend(self._bonus_choices(pass_action=True))

    def _faction_action_ok(self, p: int) -> bool:
        fid = self.fac[p]
        d = self.pd[p]
        if fid == ENGINEERS:
            return d[W] >= 2 and bool(self._bridge_slots(p))
        if fid not in _SH_ACTION_FACTIONS or not d[NB + 4] or d[SH_USED]:
            return False
        if fid == NOMADS:
            return bool(self._sandstorm_targets(p))
        if fid == WITCHES:
            return d[NB + 1] < 8 and any(
                self.terrain[c] == 3 and not self.bld[c] for c in LAND_CELLS
            )
        if fid == SWARMLINGS:
            return d[NB + 2] < 4 and d[NB + 1] > 0
        return True

    def _sandstorm_targets(self, p: int) -> int:
        """Empty non-desert hexes directly (not by bridge) adjacent to the Nomads' buildings."""
        m = 0
        for cell in iter_bits(self.mine[p]):
            m |= LAND_ADJ_MASK[cell]
        occupied = 0
        for mm in self.mine:
            occupied |= mm
        out = 0
        for cell in iter_bits(m & ~occupied):
            if self.terrain[cell] != self.F[p].home:
                out |= 1 << cell
        return out

    def _can_dig(self, p: int, held: int) -> bool:
        """True when one more spade can be dug and all ``held + 1`` spades used on one hex.

        The rest of that hex's spades must be affordable too (dug spades may not be thrown
        away), so digging never leads to a position without a legal move.
        """
        f = self.F[p]
        d = self.pd[p]
        darkl = self.fac[p] == DARKLINGS
        if not darkl and not f.dig_workers[d[DIG]]:
            return False
        rate = 1 if darkl else f.dig_workers[d[DIG]]
        w_left, p_left = (d[W], d[P] - 1) if darkl else (d[W] - rate, d[P])
        if w_left < 0 or p_left < 0:
            return False
        want = held + 1
        home = f.home
        giants = self.fac[p] == GIANTS
        home_only = self.ctx[X_HOME]
        occupied = 0
        for m in self.mine:
            occupied |= m
        direct, tele = reach_masks(self, p, False)
        x_tele = self.ctx[X_TELE]
        if x_tele >= 0:
            tele &= 1 << x_tele
        tw, tp = self._tele_payment(p) if tele else (0, 0)
        for cell in iter_bits((direct | tele) & LAND_MASK & ~occupied):
            cur = self.terrain[cell]
            ew, ep = (tw, tp) if tele >> cell & 1 else (0, 0)
            for t in range(7):
                if t == cur or ((giants or home_only) and t != home):
                    continue
                c = spade_cost(cur, t, home, giants, want)
                if c < want:
                    continue
                more = c - want
                nw, npr = (ew, ep + more) if darkl else (ew + more * rate, ep)
                if nw <= w_left and npr <= p_left:
                    return True
        return False

    def _optional_build(self, p: int, out: list[int]) -> None:
        """The dwelling a terraform action may still add on a hex it turned to home terrain."""
        x = self.ctx
        if not x[X_BUILD] or x[X_SPADES] or not self.build_locs:
            return
        d = self.pd[p]
        f = self.F[p]
        if d[NB + 1] >= 8:
            return
        dw, dc = f.costs[1]
        if d[W] < dw or d[C] < dc:
            return
        k = (A.K_BUILD + f.home) * NUM_CELLS
        for cell in self.build_locs:
            if not self.bld[cell] and self.terrain[cell] == f.home:
                out.append(k + cell)

    def _spade_actions(self, p: int, out: list[int]) -> None:
        """Board actions while spades (or a free terraform, dwelling, trading post) are held."""
        x = self.ctx
        d = self.pd[p]
        f = self.F[p]
        home = f.home
        nb = NUM_CELLS
        occupied = 0
        for m in self.mine:
            occupied |= m
        if x[X_FREE_D]:
            if d[NB + 1] < 8:
                k = (A.K_BUILD + home) * nb
                out.extend(k + c for c in LAND_CELLS if self.terrain[c] == home and not self.bld[c])
            return
        if x[X_FREE_TP]:
            if d[NB + 2] < 4:
                out.extend(A.K_TP * nb + c for c in iter_bits(self.mine[p]) if self.bld[c] == 1)
            return
        if x[X_FREE_TF]:
            dw, dc = f.costs[1]
            can_build = d[NB + 1] < 8 and d[W] >= dw and d[C] >= dc
            for c in iter_bits(self._sandstorm_targets(p)):
                out.append(home * nb + c)
                if can_build:
                    out.append((A.K_BUILD + home) * nb + c)
            return
        spades = x[X_SPADES]
        income = x[X_INCOME] == 1
        tf_left = x[X_TF]
        if tf_left == 0 and not income:
            return
        direct, tele = reach_masks(self, p, income)
        x_tele = x[X_TELE]
        if x_tele >= 0:
            tele &= 1 << x_tele
        fid = self.fac[p]
        giants = fid == GIANTS
        darkl = fid == DARKLINGS
        rate = 1 if darkl else f.dig_workers[d[DIG]]
        tw, tp = self._tele_payment(p) if tele else (0, 0)
        dw, dc = f.costs[1]
        d_ok = d[NB + 1] < 8 and x[X_BUILD] and not income
        home_only = x[X_HOME]
        dig_ok = x[X_DIG] and not income
        w_have, p_have = d[W], d[P]
        m = (direct | tele) & LAND_MASK & ~occupied
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            ew, ep = (tw, tp) if tele & low else (0, 0)
            cur = self.terrain[cell]
            for t in range(7):
                if t == cur or ((giants or home_only) and t != home):
                    continue
                c = spade_cost(cur, t, home, giants, spades)
                need = c - spades
                if need > 0:
                    if not dig_ok:
                        continue
                    if darkl:
                        nw, npr = ew, ep + need
                    else:
                        nw, npr = ew + need * rate, ep
                    left = 0
                    tf_after = 0
                else:
                    nw, npr = ew, ep
                    left = -need
                    tf_after = tf_left - 1 if tf_left > 0 else tf_left
                if nw > w_have or npr > p_have:
                    continue
                if left and tf_after == 0 and not income and (t != home or x[X_NODECL]):
                    continue  # dug spades must all be used (engine); no dead ends
                out.append(t * nb + cell)
                if t == home and d_ok and not left and nw + dw <= w_have and dc <= d[C]:
                    out.append((A.K_BUILD + home) * nb + cell)

    # ================================================================= doing
    def _do(self, a: int) -> None:
        ph = self.phase
        if ph == SETUP_DWELLING:
            p = self.setup_queue[0][0]
            self.setup_queue = self.setup_queue[1:]
            cell = a % NUM_CELLS
            self._place_building(p, cell, 1)
            self._trace_row(p, "build")
            self._advance_setup()
            return
        if ph == SETUP_BONUS:
            p = self.setup_queue[0][0]
            self.setup_queue = self.setup_queue[1:]
            tile = a - A.A_PASS if a < A.A_TOWN else 9
            self._take_bonus(p, tile)
            self.pd[p][PASSED] = 1
            self._trace_row(p, "turn over")
            self._advance_setup()
            return
        if ph == LEECH:
            if a == A.X_BURN:
                burn(self.pd[self.current_player], 1)
                return
            self._decide_leech(a == A.X_ACCEPT)
            self._resolve()
            return
        if ph == CULTIST:
            p = self.fac.index(CULTISTS)
            advance_cult(self.pd, p, a - A.X_CULT, 1)
            self.pd[p][BLOCKED] = 0  # out of their turn: no key comes to lift it
            self.cpend -= 1
            self._resolve()
            return
        p = self.act
        if a < A.NUM_BOARD:
            self._do_board(p, a % NUM_CELLS, a // NUM_CELLS)
        elif a >= A.X_BURN and a < A.X_WP:
            self._do_conversion(p, a)
        elif a >= A.X_CONNECT:
            self._do_connect(p, RIVER_CELLS[a - A.X_CONNECT])
        elif a == A.X_END:
            self._end_turn()
            return
        elif a == A.X_DISCARD:
            if self.ctx[X_TCULT]:
                self._town_top(p, take=False)
            else:
                self.ctx[X_SPADES] = 0
        elif a == A.X_DIG1:
            if not self.ctx[X_SPADES]:
                self._start_action(p)
            self._dig(p, 1)
            self.ctx[X_NODECL] = 1
        elif A.X_WP <= a < A.X_DISCARD:
            k = a - A.X_WP
            d = self.pd[p]
            d[W] -= k
            gain_priests(d, k)
            self.ctx[X_WP] = 0
        elif A.A_TOWN <= a < A.A_TOWN + 5 or A.X_TOWN <= a < A.X_TOWN + 3:
            self._take_town(p, a - A.A_TOWN if a < A.PAPER_SIZE else a - A.X_TOWN + 5)
        elif A.X_FAV <= a < A.X_FAV + 12:
            self._take_favor(p, a - A.X_FAV)
        elif A.X_CULT <= a < A.X_CULT + 4 and self.ctx[X_TCULT]:
            self._town_top(p, take=True)
        elif A.X_CULT <= a < A.X_CULT + 4:
            self.ctx[X_CULT] -= 1
            advance_cult(self.pd, p, a - A.X_CULT, self.ctx[X_CSTEPS])
        elif A.X_BRIDGE <= a < A.X_BRIDGE + 29:
            self._place_bridge(p, a - A.X_BRIDGE)
        else:
            self._do_main(p, a)
        self._after_step()

    def _after_step(self) -> None:
        """Close an income-spade turn once its spades are gone; drop unfillable favor picks."""
        x = self.ctx
        if self.phase == ACTION and x[X_FAV]:
            favs = self.pd[self.act][FAVS]
            if not any(self.fav_supply[i] and not favs >> i & 1 for i in range(12)):
                x[X_FAV] = 0
        if self.phase == INCOME_SPADES and self.ctx[X_SPADES] == 0:
            self._trace_row(self.act, "turn over")
            p = self.inc_queue[0]
            self.inc_queue = self.inc_queue[1:]
            self.inc_spades = _put(self.inc_spades, p, 0)
            self._next_income_spades()

    # ----------------------------------------------------------------- setup
    def _advance_setup(self) -> None:
        if self.setup_queue:
            p, kind = self.setup_queue[0]
            self.phase = SETUP_DWELLING if kind == 0 else SETUP_BONUS
            self.current_player = p
            return
        self._other_income()

    # ----------------------------------------------------------------- board actions
    def _do_board(self, p: int, cell: int, k: int) -> None:
        x = self.ctx
        f = self.F[p]
        home = f.home
        if self.phase == INCOME_SPADES:
            self._spade_transform(p, cell, k, income=True)
            return
        if x[X_FREE_D]:
            x[X_FREE_D] = 0
            self._build_dwelling(p, cell, free=True)
            return
        if x[X_FREE_TP]:
            x[X_FREE_TP] = 0
            self._upgrade(p, cell, 2, free=True)
            return
        if x[X_FREE_TF]:
            x[X_FREE_TF] = 0
            self.terrain = _put(self.terrain, cell, home)
            x[X_TF] = 0
            x[X_BUILD] = 1
            self.build_locs = (cell,)
            if k >= A.K_BUILD:
                x[X_BUILD] = 0
                self._build_dwelling(p, cell, free=False)
            return
        if x[X_SPADES]:
            self._spade_transform(p, cell, k, income=False)
            return
        if k == A.K_BUILD + home and x[X_BUILD] and cell in self.build_locs:
            x[X_BUILD] = 0
            self._build_dwelling(p, cell, free=False)
            return
        # a fresh main action
        self._start_action(p)
        if k >= A.K_TP:
            self._upgrade(p, cell, A.UPGRADE_OF_K[k][1], free=False)
            return
        target = k if k < A.K_BUILD else k - A.K_BUILD
        direct, _ = reach_masks(self, p, False)
        if not direct >> cell & 1 and x[X_TELE] != cell:
            self._pay_teleport(p, cell)
        cur = self.terrain[cell]
        if cur != target:
            s = 2 if self.fac[p] == GIANTS else COST[home][cur][target]
            self._dig(p, s)
            x[X_SPADES] -= s
            x[X_TF] = 0
            self.terrain = _put(self.terrain, cell, target)
            if target == home:
                self.build_locs = (cell,)
        if k >= A.K_BUILD:
            x[X_BUILD] = 0
            self._build_dwelling(p, cell, free=False)

    def _spade_transform(self, p: int, cell: int, k: int, income: bool) -> None:
        x = self.ctx
        f = self.F[p]
        home = f.home
        target = k if k < A.K_BUILD else k - A.K_BUILD
        if not income:
            direct, _ = reach_masks(self, p, False)
            if not direct >> cell & 1 and x[X_TELE] != cell:
                self._pay_teleport(p, cell)
        cur = self.terrain[cell]
        giants = self.fac[p] == GIANTS
        c = spade_cost(cur, target, home, giants, x[X_SPADES])
        need = c - x[X_SPADES]
        if need > 0:
            self._dig(p, need)
        x[X_SPADES] -= c
        if not income:
            if x[X_TF] > 0:
                x[X_TF] -= 1
            if x[X_SPADES] and target != home:
                x[X_HOME] = 1
        self.terrain = _put(self.terrain, cell, target)
        if target == home and not income:
            self.build_locs = (*self.build_locs, cell)
        if k >= A.K_BUILD:
            x[X_BUILD] = 0
            self._build_dwelling(p, cell, free=False)

    def _dig(self, p: int, n: int) -> None:
        """Buy ``n`` spades with workers (Darklings: priests, +2 VP each); they are gained."""
        d = self.pd[p]
        pw, pp = self._dig_payment(p, n)
        d[W] -= pw
        d[P] -= pp
        if self.fac[p] == DARKLINGS:
            d[VP] += 2 * n
        x = self.ctx
        x[X_TF] = 1
        x[X_BUILD] = 1
        x[X_DIG] = 1
        self._gain_spades(p, n)

    def _gain_spades(self, p: int, n: int) -> None:
        """Spades gained: round tile SCORE1, Halflings +1 VP, Alchemists' stronghold +2 power."""
        d = self.pd[p]
        self.ctx[X_SPADES] += n
        self._score_spades(p, n)
        if self.fac[p] == ALCHEMISTS and d[NB + 4]:
            gain_power(d, 2 * n)

    def _score_spades(self, p: int, n: int) -> None:
        d = self.pd[p]
        if self.round and SCORING[self.score_tiles[self.round - 1]].kind == "spade":
            d[VP] += 2 * n
        if self.fac[p] == HALFLINGS:
            d[VP] += n

    def _pay_teleport(self, p: int, cell: int) -> None:
        d = self.pd[p]
        tw, tp = self._tele_payment(p)
        d[W] -= tw
        d[P] -= tp
        d[VP] += 4
        self.ctx[X_TELE] = cell

    def _start_action(self, p: int) -> None:
        """Use one of the turn's main actions; a new action clears the previous one's leftovers."""
        x = self.ctx
        x[X_ACTIONS] -= 1
        x[X_TF] = 0
        x[X_BUILD] = 0
        x[X_DIG] = 0
        x[X_HOME] = 0
        x[X_NODECL] = 0
        self.build_locs = ()

    def _place_building(self, p: int, cell: int, kind: int) -> None:
        self.bld = _put(self.bld, cell, kind)
        self.own = _put(self.own, cell, p)
        self.mine = _put(self.mine, p, self.mine[p] | 1 << cell)
        self.pd[p][NB + kind] += 1

    def _build_dwelling(self, p: int, cell: int, free: bool) -> None:
        d = self.pd[p]
        self._offer_leech(p, cell)
        if not free:
            cw, cc = self.F[p].costs[1]
            d[W] -= cw
            d[C] -= cc
        if d[FAVS] >> 10 & 1:
            d[VP] += 2
        self._score_build(p, "D")
        self._place_building(p, cell, 1)
        detect_town(self, p, cell)

    def _score_build(self, p: int, kind: str) -> None:
        if not self.round:
            return
        tile = SCORING[self.score_tiles[self.round - 1]]
        if tile.kind == kind or (tile.kind == "SHSA" and kind in ("SH", "SA")):
            self.pd[p][VP] += tile.vp

    def _upgrade(self, p: int, cell: int, kind: int, free: bool) -> None:
        d = self.pd[p]
        f = self.F[p]
        x = self.ctx
        fid = self.fac[p]
        lonely = kind == 2 and not opponent_adjacent(self, p, cell)
        self._offer_leech(p, cell)
        if not free:
            cw, cc = f.costs[kind]
            if lonely:
                cc *= 2
            d[W] -= cw
            d[C] -= cc
        old = self.bld[cell]
        d[NB + old] -= 1
        d[NB + kind] += 1
        self.bld = _put(self.bld, cell, kind)
        if kind in (3, 5):
            x[X_FAV] += f.favors_per_temple
        elif kind == 4:
            if fid == ALCHEMISTS:
                gain_power(d, 12)
            elif fid == AUREN:
                x[X_FAV] += 1
            elif fid == CULTISTS:
                d[VP] += 7
            elif fid == DARKLINGS:
                x[X_WP] = 1
            elif fid == DWARVES:
                d[TELE] = 1
            elif fid == FAKIRS:
                d[TELE] = 1
                d[CARPET] += 1
            elif fid == HALFLINGS:
                x[X_TF] = 3
                x[X_BUILD] = 1
                x[X_DIG] = 0
                x[X_HOME] = 0
                self.build_locs = ()
                self._gain_spades(p, 3)
            elif fid == MERMAIDS:
                self._gain_ship(p)
        if kind == 2 and d[FAVS] >> 9 & 1:
            d[VP] += 3
        self._score_build(p, BUILDING_NAMES[kind])
        detect_town(self, p, cell)

    def _gain_ship(self, p: int) -> None:
        d = self.pd[p]
        f = self.F[p]
        if d[SHIP] < f.ship_max:
            d[VP] += f.ship_vp[d[SHIP]]
            d[SHIP] += 1

    def _offer_leech(self, p: int, cell: int) -> None:
        if not self.round:
            return
        offers = leech_offers(self, p, cell)
        if self.dropped:  # a player who left is offered nothing
            offers = [o for o in offers if o[0] not in self.dropped]
        if offers:
            self.lid += 1
            self.leech = self.leech + tuple((q, p, amount, self.lid) for q, amount in offers)

    # ----------------------------------------------------------------- other main actions
    def _do_main(self, p: int, a: int) -> None:
        d = self.pd[p]
        f = self.F[p]
        x = self.ctx
        fid = self.fac[p]
        if a >= A.A_PASS or a == A.X_PASS_NONE:
            self._start_action(p)
            tile = -1 if a == A.X_PASS_NONE else (9 if a == A.X_PASS_BON10 else a - A.A_PASS)
            self._pass(p, tile)
            return
        self._start_action(p)
        if a == A.A_SHIP:
            d[C] -= 4
            d[P] -= 1
            self._gain_ship(p)
        elif a == A.A_DIG:
            aw, ac, ap = f.dig_advance
            d[W] -= aw
            d[C] -= ac
            d[P] -= ap
            d[DIG] += 1
            d[VP] += 6
        elif a < A.A_POWER:
            i = a - A.A_PRIEST
            track, j = divmod(i, 3)
            steps = 1
            if j < 2:
                slots = (0,) if j == 0 else (1, 2, 3)
                for s in slots:
                    if self.cult_spaces[4 * track + s] < 0:
                        self.cult_spaces = _put(self.cult_spaces, 4 * track + s, p)
                        steps = ORDER_SPACE_STEPS[s]
                        d[MAXP] -= 1
                        d[CULTP] += 1
                        break
            advance_cult(self.pd, p, track, steps)
            d[P] -= 1
        elif a < A.A_BON1:
            i = a - A.A_POWER
            d[P3] -= POWER_ACTION_COST[i]
            d[P1] += POWER_ACTION_COST[i]
            self.act_used |= 1 << i
            if i == 0:
                x[X_BRIDGE] = 1
            elif i == 1:
                gain_priests(d, 1)
            elif i == 2:
                d[W] += 2
            elif i == 3:
                d[C] += 7
            else:
                self._spade_context(p, 1 if i == 4 else 2, 1 if i == 4 else 2)
        elif a == A.A_BON1:
            d[BON_USED] = 1
            self._spade_context(p, 1, 1)
        elif a == A.A_CULTACT:
            if d[BON] == 1 and not d[BON_USED]:
                d[BON_USED] = 1
            else:
                d[FAV6_USED] = 1
            x[X_CULT] = 1
            x[X_CSTEPS] = 1
        elif a == A.A_FACTION:
            if fid == ENGINEERS:
                d[W] -= 2
                x[X_BRIDGE] = 1
                return
            d[SH_USED] = 1
            if fid == AUREN:
                x[X_CULT] = 1
                x[X_CSTEPS] = 2
            elif fid == CHAOSMAGICIANS:
                x[X_ACTIONS] += 2
            elif fid == GIANTS:
                self._spade_context(p, 2, 1)
            elif fid == NOMADS:
                x[X_FREE_TF] = 1
                x[X_BUILD] = 1
            elif fid == SWARMLINGS:
                x[X_FREE_TP] = 1
            elif fid == WITCHES:
                x[X_FREE_D] = 1

    def _spade_context(self, p: int, spades: int, transforms: int) -> None:
        x = self.ctx
        x[X_TF] = transforms
        x[X_BUILD] = 1
        x[X_DIG] = 1
        x[X_HOME] = 0
        self.build_locs = ()
        self._gain_spades(p, spades)

    def _do_conversion(self, p: int, a: int) -> None:
        d = self.pd[p]
        if a == A.X_BURN:
            burn(d, 1)
            return
        i = a - A.X_CONV
        if i == 0:
            d[P3] -= 1
            d[P1] += 1
            d[C] += 1
        elif i == 1:
            d[P3] -= 3
            d[P1] += 3
            d[W] += 1
        elif i == 2:
            d[P3] -= 5
            d[P1] += 5
            gain_priests(d, 1)
        elif i == 3:
            d[P] -= 1
            d[W] += 1
        elif i == 4:
            d[P] -= 1
            d[C] += 1
        elif i == 5:
            d[W] -= 1
            d[C] += 1
        elif i == 6:
            d[C] -= 2 if self.fac[p] == ALCHEMISTS else 3
            d[VP] += 1
        else:
            d[VP] -= 1
            d[C] += 1

    def _do_connect(self, p: int, river: int) -> None:
        from stratagem.envs.terra_mystica.map import RIVER_LAND

        self.mriv |= 1 << river
        for cell in RIVER_LAND[river]:
            detect_town(self, p, cell)

    def _place_bridge(self, p: int, slot: int) -> None:
        self.ctx[X_BRIDGE] = 0
        self.bmask |= 1 << slot
        self.bown = _put(self.bown, slot, p)
        self.pd[p][BRIDGES] += 1
        a, b = BRIDGE_SLOTS[slot]
        detect_town(self, p, a)
        detect_town(self, p, b)

    def _take_favor(self, p: int, i: int) -> None:
        d = self.pd[p]
        self.ctx[X_FAV] -= 1
        self.fav_supply = _put(self.fav_supply, i, self.fav_supply[i] - 1)
        d[FAVS] |= 1 << i
        tile = FAVORS[i]
        advance_cult(self.pd, p, tile.cult, tile.steps)
        if i == 4:
            d[TOWN_SIZE] = 6
            for cell in iter_bits(self.mine[p]):
                detect_town(self, p, cell)

    def _take_town(self, p: int, i: int) -> None:
        d = self.pd[p]
        self.ctx[X_TW] -= 1
        self.tw_supply = _put(self.tw_supply, i, self.tw_supply[i] - 1)
        d[TW + i] += 1
        t = TOWNS[i]
        gain_keys(self.pd, p, t.keys)
        d[VP] += t.vp
        d[C] += t.coins
        d[W] += t.workers
        if t.priests:
            gain_priests(d, t.priests)
        if t.power:
            gain_power(d, t.power)
        if t.cult_steps:
            self._town_cult(p, t.cult_steps)
        if t.ship:
            self._gain_ship(p)
            if self.fac[p] == FAKIRS and d[CARPET] < 4:
                d[CARPET] += 1
        if self.round and SCORING[self.score_tiles[self.round - 1]].kind == "town":
            d[VP] += 5
        if self.fac[p] == WITCHES:
            d[VP] += 5
        elif self.fac[p] == SWARMLINGS:
            d[W] += 3

    def _town_cult(self, p: int, steps: int) -> None:
        """A town tile's steps on every track (TW5, TW6); the player decides the ones to 10.

        A step that would reach 10 spends a key, and the player may decline it: the engine lets
        a player lower a track at 8 or 9 before taking the tile (``-WATER. +TW5``, the
        ``command_adjust_resources`` exception "needed to work around the TW5 issue"), which
        leaves it at 9 with the key kept, or the key for another track when there are fewer
        keys than tracks at the top. So each such track becomes a decision (lowest track
        first): ``+TRACK`` takes it to 10, ``decline`` leaves it at 9. The other tracks move
        at once.
        """
        pd = self.pd
        mask = 0
        for track in range(4):
            pos = pd[p][CULT + track]
            if pos < 10 <= pos + steps and not any(
                q != p and e[CULT + track] == 10 for q, e in enumerate(pd)
            ):
                mask |= 1 << track
            else:
                advance_cult(pd, p, track, steps)
        self.ctx[X_TCULT] = mask
        self.ctx[X_TSTEPS] = steps
        self._settle_town_cult(p)

    def _settle_town_cult(self, p: int) -> None:
        """Move on the tracks left without a choice: with no key the marker stops at 9.

        It stops *blocked* there, as any step to 10 without a key does (a key won later in
        the turn still takes it up).
        """
        x = self.ctx
        while x[X_TCULT] and self.pd[p][KEY] < 1:
            track = (x[X_TCULT] & -x[X_TCULT]).bit_length() - 1
            x[X_TCULT] &= x[X_TCULT] - 1
            advance_cult(self.pd, p, track, x[X_TSTEPS])
        if not x[X_TCULT]:
            x[X_TSTEPS] = 0

    def _town_top(self, p: int, take: bool) -> None:
        """Decide the lowest undecided track of a town tile: to 10, or stay at 9."""
        x = self.ctx
        track = (x[X_TCULT] & -x[X_TCULT]).bit_length() - 1
        x[X_TCULT] &= x[X_TCULT] - 1
        pos = self.pd[p][CULT + track]
        advance_cult(self.pd, p, track, x[X_TSTEPS] if take else 9 - pos)
        self._settle_town_cult(p)

    def _take_bonus(self, p: int, tile: int) -> None:
        d = self.pd[p]
        if d[BON] >= 0:
            self.bon_supply = _put(self.bon_supply, d[BON], 1)
        d[BON] = tile
        if tile >= 0:
            self.bon_supply = _put(self.bon_supply, tile, 0)
            d[C] += self.bon_coins[tile]
            self.bon_coins = _put(self.bon_coins, tile, 0)

    def _pass(self, p: int, tile: int) -> None:
        d = self.pd[p]
        d[VP] += pass_vp(self, p)
        d[PASSED] = 1
        self.pass_order = (*self.pass_order, p)
        self._take_bonus(p, tile)
        self.ctx[X_ACTIONS] = 0
        self._end_turn()

    # ----------------------------------------------------------------- turn flow
    def _start_turn(self, p: int) -> None:
        self.act = p
        self.current_player = p
        self.phase = ACTION
        x = self.ctx
        for i in range(CTX_SIZE):
            x[i] = 0
        x[X_ACTIONS] = 1
        x[X_TELE] = -1
        self.build_locs = ()
        self.pd[p][BLOCKED] = 0

    def _end_turn(self) -> None:
        self.pd[self.act][BLOCKED] = 0  # a key can no longer come this turn
        self._trace_row(self.act, "turn over")
        x = self.ctx
        for i in range(CTX_SIZE):
            x[i] = 0
        x[X_TELE] = -1
        self.build_locs = ()
        self._resolve()

    def _resolve(self) -> None:
        """After a turn or an out-of-turn decision: the next decision in the engine's order."""
        while True:
            if self.cpend:
                self.phase = CULTIST
                self.current_player = self.fac.index(CULTISTS)
                return
            if not self.leech:
                break
            q, _, amount, _ = self.leech[0]
            if leech_amount(self.pd[q], amount) > 0:
                self.phase = LEECH
                self.current_player = q
                return
            self._trace_row(q, "nothing to leech")
            self._pop_offer(None)
        self._next_turn()

    def _decide_leech(self, accept: bool) -> None:
        q, frm, amount, lid = self.leech[0]
        d = self.pd[q]
        if accept:
            n = amount if amount <= d[VP] else d[VP] + 1
            got = gain_power(d, n)
            if got:
                d[VP] -= got - 1
            self._trace_row(q, "leech")
            first = not self._answers(lid)[0]
            if self.fac[frm] == CULTISTS and first:
                self.cpend += 1
                self._trace_row(frm, "[opponent accepted power]")
        else:
            self._trace_row(q, "decline")
        self._pop_offer(accept)

    def _answers(self, lid: int) -> tuple[int, int]:
        """(accepted, declined) so far of the offers of build ``lid``, postponed ones included."""
        if self.lstat[0] == lid:
            return self.lstat[1], self.lstat[2]
        for lst, acc, dec in self.lstats:
            if lst == lid:
                return acc, dec
        return 0, 0

    def _pop_offer(self, accepted: bool | None) -> None:
        _, frm, _, lid = self.leech[0]
        self.leech = self.leech[1:]
        acc, dec = self._answers(lid)
        if accepted is True:
            acc = 1
        elif accepted is False:
            dec = 1
        self.lstat = (lid, acc, dec)
        self.lstats = tuple(o for o in self.lstats if o[0] != lid)
        if self.leech and self.leech[0][3] == lid:
            return
        if any(o[3] == lid for o in self.late):
            # a postponed answer is still to come: the build's outcome waits for it
            self.lstats = (*self.lstats, self.lstat)
            return
        if self.fac[frm] == CULTISTS and self.game.cultists_errata and dec and not acc:
            gain_power(self.pd[frm], 1)
            self._trace_row(frm, "[all opponents declined power]")

    # ----------------------------------------------------------------- postponed offers
    def postpone_leech(self) -> None:
        """Leave the offer being decided unanswered for now (replays of real games only).

        The online engine lets a receiver answer an offer any time before its own next action,
        and applies what follows from the answers (the Cultists' cult step or power) when the
        last one arrives, which may be after the builder's next turn; our game asks right after
        the builder's turn. A replay postpones an offer that the ledger answers that late, and
        brings it back with :meth:`resume_leech` where the ledger answers it, so that the
        Cultists' bowls and tracks follow the same order as in the real game. No agent action
        does this: the game's own rules stay "every offer is decided after the turn".

        Raises:
            ValueError: Outside the leech phase.
        """
        if self.phase != LEECH:
            raise ValueError("terra_mystica: only an offer being decided can be postponed")
        offer = self.leech[0]
        lid = offer[3]
        self.leech = self.leech[1:]
        self.late = (*self.late, offer)
        acc, dec = self._answers(lid)
        self.lstat = (lid, acc, dec)
        if not (self.leech and self.leech[0][3] == lid):
            self.lstats = (*(o for o in self.lstats if o[0] != lid), self.lstat)
        self._legal = None
        self._resolve()

    def resume_leech(self, index: int) -> None:
        """Bring back postponed offer ``index`` of :attr:`late`: decided right after this turn.

        It goes before the offers made by this turn (it is older), and its answer then
        finishes its build's outcome as if it had been given in time.

        Raises:
            ValueError: Outside a turn's action phase, or for no such postponed offer.
        """
        if self.phase != ACTION:
            raise ValueError("terra_mystica: a postponed offer comes back during a turn only")
        if not 0 <= index < len(self.late):
            raise ValueError(f"terra_mystica: no postponed offer {index}")
        offer = self.late[index]
        self.late = self.late[:index] + self.late[index + 1 :]
        k = 0
        while k < len(self.leech) and self.leech[k][3] <= offer[3]:
            k += 1
        self.leech = (*self.leech[:k], offer, *self.leech[k:])
        self._legal = None

    def drop_player(self) -> None:
        """The player to move leaves the game (replays of real games only).

        The online engine can drop a player (``X dropped from the game``): its bonus tile goes
        back to the supply, it has no more turns and is offered no power, but it keeps its
        buildings, still takes income and still scores the final cult tracks, network and
        resources. A replay drops the player at the start of the first turn the ledger no
        longer has for it. No agent action does this.

        Raises:
            ValueError: Outside the start of a turn of the rounds.
        """
        p = self.current_player
        if self.phase != ACTION or self.act != p or not self.ctx[X_ACTIONS] or self.round < 1:
            raise ValueError("terra_mystica: a player can leave only at the start of its turn")
        if any(o[0] == p for o in self.late):
            raise ValueError("terra_mystica: a player with postponed offers cannot leave")
        self.dropped = (*self.dropped, p)
        self._take_bonus(p, -1)
        self.pd[p][PASSED] = 1
        self.ctx[X_ACTIONS] = 0
        self._legal = None
        self._end_turn()

    def _next_turn(self) -> None:
        if all(d[PASSED] for d in self.pd):
            self._end_round()
            return
        order = self.order
        i = order.index(self.act)
        for k in range(1, self.n + 1):
            q = order[(i + k) % self.n]
            if not self.pd[q][PASSED]:
                self._start_turn(q)
                return

    def _end_round(self) -> None:
        if self.round == 6:
            self._final_scoring()
            return
        if self.game.turn_order == "variable":
            # players who left never pass: they come last
            self.order = (*self.pass_order, *(q for q in self.order if q not in self.pass_order))
        else:
            first = self.pass_order[0]
            self.order = tuple((first + k) % self.n for k in range(self.n))
        tile = self.score_tiles[self.round - 1]
        for p in self.order:
            spades = cult_reward(self, p, tile)
            if spades and p not in self.dropped:  # a player who left places no spades
                self.inc_spades = _put(self.inc_spades, p, spades)
                self._score_spades(p, spades)
                if self.fac[p] == ALCHEMISTS and self.pd[p][NB + 4]:
                    gain_power(self.pd[p], 2 * spades)
            self._trace_row(p, "cult_income_for_faction")
        self.inc_queue = tuple(p for p in self.order if self.inc_spades[p])
        self._next_income_spades()

    def _next_income_spades(self) -> None:
        if self.inc_queue:
            p = self.inc_queue[0]
            self.phase = INCOME_SPADES
            self.act = p
            self.current_player = p
            x = self.ctx
            for i in range(CTX_SIZE):
                x[i] = 0
            x[X_TELE] = -1
            x[X_SPADES] = self.inc_spades[p]
            x[X_TF] = -1
            x[X_INCOME] = 1
            self.build_locs = ()
            return
        self.ctx[X_INCOME] = 0
        self._other_income()

    def _other_income(self) -> None:
        for p in self.order:
            take_income(self, p)
            self._trace_row(p, "other_income_for_faction")
        self._start_round()

    def _start_round(self) -> None:
        self.round += 1
        for d in self.pd:
            d[PASSED] = 0
            d[BON_USED] = 0
            d[FAV6_USED] = 0
            d[SH_USED] = 0
        self.act_used = 0
        self.pass_order = ()
        self.bon_coins = tuple(
            c + 1 if self.bon_supply[i] else c for i, c in enumerate(self.bon_coins)
        )
        for q in self.dropped:
            self.pd[q][PASSED] = 1
        self._start_turn(next(q for q in self.order if not self.pd[q][PASSED]))

    def _final_scoring(self) -> None:
        pd = self.pd
        for track in range(4):
            pts = rank_points([d[CULT + track] for d in pd], CULT_POINTS)
            for p in range(self.n):
                if pts[p]:
                    pd[p][VP] += pts[p]
                    self._trace_row(
                        p, f"+{pts[p]}vp for {('FIRE', 'WATER', 'EARTH', 'AIR')[track]}"
                    )
        sizes = [network_size(self, p) for p in range(self.n)]
        pts = rank_points(sizes, NETWORK_POINTS)
        for p in range(self.n):
            if pts[p]:
                pd[p][VP] += pts[p]
                self._trace_row(p, f"+{pts[p]}vp for network")
        for p in range(self.n):
            resource_vp(self, p)
            self._trace_row(p, "score_resources")
        self.final = [d[VP] for d in pd]
        self.phase = OVER
        self.act = -1
        self.current_player = 0

    def _trace_row(self, p: int, what: str) -> None:
        if self._trace is not None:
            self._trace(self, p, what)

    # ================================================================= helpers for agents
    def network_sizes(self) -> list[int]:
        """Largest connected network of every player (as final scoring counts it)."""
        return [network_size(self, p) for p in range(self.n)]

    def end_statistics(self) -> dict[str, Any]:
        """Per-player facts of a finished game, for tournament tables (VP, network, buildings)."""
        return {
            "vp": [float(d[VP]) for d in self.pd],
            "network": [float(x) for x in self.network_sizes()],
            "buildings": [float(sum(d[NB + 1 : NB + 6])) for d in self.pd],
        }

    def score_tile(self, round_: int | None = None) -> str:
        """Name of the scoring tile of a round (the current one by default)."""
        r = self.round if round_ is None else round_
        if not 1 <= r <= 6:
            raise ValueError(f"terra_mystica: round {r} has no scoring tile")
        return SCORING_NAMES[self.score_tiles[r - 1]]
