"""Terra Mystica (base game) rules: the game configuration and the forward model.

Source: ``specs/terra_mystica_rules.md``, written from the online engine
(jsnell/terra-mystica), which also decides every point the spec leaves open; the engine's
behaviour is followed where it differs from the printed rules, because the real game logs we
replay (``tests/data/terra_mystica/snellman_league/``) were produced by it and replay exactly
(see ``replay.py``).

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

This module holds the game (its options and the initial position) and the state's data,
copy and contract (``apply``, ``returns``, ...). :class:`TerraMysticaState` composes the
mixins of the other parts: its JSON (``state_json``), queries (``queries``), legal actions
(``legal``), decisions carried out (``decisions``, with ``board_actions`` and
``tile_actions``), leech offers (``leech``) and the turn and round flow with the final
scoring (``turns``). The phases and the turn context they share are in ``context``,
re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stratagem.envs.core import Game, GameSpec, State, check_seed
from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.board_actions import BoardActions
from stratagem.envs.terra_mystica.context import (
    ACTION,
    CTX_SIZE,
    CULTIST,
    INCOME_SPADES,
    LEECH,
    OVER,
    PHASE_NAMES,
    RESET_CTX,
    SETUP_BONUS,
    SETUP_DWELLING,
    X_ACTIONS,
    X_BRIDGE,
    X_BUILD,
    X_CSTEPS,
    X_CULT,
    X_DIG,
    X_FAV,
    X_FREE_D,
    X_FREE_TF,
    X_FREE_TP,
    X_HOME,
    X_INCOME,
    X_NODECL,
    X_SPADES,
    X_TCULT,
    X_TELE,
    X_TF,
    X_TSTEPS,
    X_TW,
    X_WP,
)
from stratagem.envs.terra_mystica.decisions import Decisions
from stratagem.envs.terra_mystica.factions import CHAOSMAGICIANS, FACTIONS, NOMADS, faction_id
from stratagem.envs.terra_mystica.fields import (
    BON,
    CARPET,
    CULT,
    MAXP,
    P1,
    P2,
    PLAYER_SIZE,
    SHIP,
    TOWN_SIZE,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.leech import LeechOffers
from stratagem.envs.terra_mystica.legal import LegalActions
from stratagem.envs.terra_mystica.map import BRIDGE_SLOTS, NUM_CELLS, TERRAIN0
from stratagem.envs.terra_mystica.power import POWER_ACTION_COST
from stratagem.envs.terra_mystica.queries import StateQueries
from stratagem.envs.terra_mystica.state_json import StateJson
from stratagem.envs.terra_mystica.tile_actions import TileActions
from stratagem.envs.terra_mystica.tiles import BONUS_NAMES, FAVORS, SCORING_NAMES, TOWNS
from stratagem.envs.terra_mystica.turns import TurnFlow

__all__ = [
    "PHASE_NAMES",
    "TerraMysticaGame",
    "TerraMysticaState",
]
# Imported from here by the other modules, tests and agents, as before the rules were split:
# the phases and turn-context indices of ``context`` and the power actions' costs.
__all__ += [
    "ACTION",
    "CTX_SIZE",
    "CULTIST",
    "INCOME_SPADES",
    "LEECH",
    "OVER",
    "PHASE_NAMES",
    "POWER_ACTION_COST",
    "SETUP_BONUS",
    "SETUP_DWELLING",
    "X_ACTIONS",
    "X_BRIDGE",
    "X_BUILD",
    "X_CSTEPS",
    "X_CULT",
    "X_DIG",
    "X_FAV",
    "X_FREE_D",
    "X_FREE_TF",
    "X_FREE_TP",
    "X_HOME",
    "X_INCOME",
    "X_NODECL",
    "X_SPADES",
    "X_TCULT",
    "X_TELE",
    "X_TF",
    "X_TSTEPS",
    "X_TW",
    "X_WP",
]

GAME_NAME = "terra_mystica"
RULES_VERSION = 0  # the v0 of stratagem/<Game>-v0 and <game>_v0: bump them together

_DEFAULT_FACTIONS = ("halflings", "engineers", "witches", "nomads", "mermaids")


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
                ids = tuple(faction_id(x) for x in names)  # an unknown name is the first error
                if len(names) != n:
                    raise ValueError(
                        f"terra_mystica: {len(names)} factions given for {n} players "
                        f"({', '.join(names)}); give one per player, comma-separated"
                    )
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
        fac, score, bonus = self._draw(check_seed(seed, "terra_mystica"))
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
        st.ctx = list(RESET_CTX)
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


def _setup_order(fac: list[int]) -> tuple[tuple[int, int], ...]:
    """Initial dwellings in snake order, Nomads' third, Chaos Magicians last; bonus picks."""
    n = len(fac)
    normal = [p for p in range(n) if fac[p] != CHAOSMAGICIANS]
    order = [(p, 0) for p in normal] + [(p, 0) for p in reversed(normal)]
    order += [(p, 0) for p in range(n) if fac[p] == NOMADS]
    order += [(p, 0) for p in range(n) if fac[p] == CHAOSMAGICIANS]
    order += [(p, 1) for p in reversed(range(n))]
    return tuple(order)


class TerraMysticaState(
    StateJson,
    StateQueries,
    LegalActions,
    Decisions,
    BoardActions,
    TileActions,
    LeechOffers,
    TurnFlow,
    State,
):
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
