"""The AI configuration file: players, partial players, portfolios and searches by name.

The HPS paper builds its difficulty bots "simply by creating new combinations of Partial Players
within the AI settings file". ``bots.toml`` (next to this module) is that file for stratagem;
:func:`load_config` reads it, or a file of the same form, and :meth:`BotConfig.player` builds a
named player. Tables:

``[filters.NAME]``
    ``cards``, ``conditions``, ``state_conditions``, ``allow_resonate``
    (:class:`~stratagem.baselines.prismata.partial.CardFilter`).
``[limits]``
    ``NAME = { Card = n, ... }``: buy limits (units owned).
``[[opening_books.NAME]]``
    one table per line: ``self``, ``enemy``, ``buyable``, ``buy``.
``[partial]``
    ``NAME = { type = "...", ... }``; every type takes ``limits = "NAME"``:

    ===========================  ===================================================  =======
    type                         parameters                                           phase
    ===========================  ===================================================  =======
    ``defense_solver``           (loss: will score)                                   defense
    ``defense_greedy``           (value: will score)                                  defense
    ``defense_default``, ``defense_random``                                           defense
    ``economy``                                                                       ability
    ``attack``, ``utility``      ``filter``                                           ability
    ``frontline``, ``snipe``, ``chill_greedy``                                        ability
    ``chill_solver``             ``max_iterations``                                   ability
    ``avoid_attack_waste``, ``avoid_economy_waste``, ``untap_avoid_breach``          ability
    ``avoid_breach_solver``      ``max_untap_drones``, ``chill`` (none, solver,       ability
                                 heuristic), ``max_chill_iterations``
    ``ability_default``, ``dont_attack``, ``ability_random``                          ability
    ``ability_combination``      ``combination`` (names, run in order)                ability
    ``buy_greedy``               ``heuristic`` (will, attack, block), ``filter``      buy
    ``buy_tech``                 ``heuristic`` (elyot, elyot_balanced, elyot_playout) buy
    ``buy_sequence``             ``sequence`` ([card, per-turn cap or 0], ...)         buy
    ``buy_opening_book``         ``book``                                             buy
    ``buy_engineer``, ``buy_avoid_breach``, ``buy_random``, ``buy_nothing``,          buy
    ``buy_default``
    ``buy_combination``          ``combination``                                      buy
    ``breach_greedy``            ``low_tech_priority``                                breach
    ``breach_default``, ``breach_random``                                             breach
    ===========================  ===================================================  =======

``[portfolios.NAME]``
    ``defense``, ``ability``, ``buy``, ``breach`` (lists of partial players), ``include``
    (another portfolio whose non-empty phases are used unless given here), ``limits``.
``[players.NAME]``
    ``type = "sequence"`` (``partial``: four names), ``"random_portfolio"`` (``portfolio``),
    ``"alphabeta"`` or ``"uct"`` (``root_portfolio``, ``portfolio``, ``playout``,
    ``time_limit_ms``, ``max_playouts``, ``max_children``, ``max_depth`` / ``max_traversals``,
    ``c``, ``evaluation``); ``description`` is free text. ``time_limit_ms`` (0: none),
    ``max_playouts`` (0: none), ``max_traversals`` and ``c`` are the reference's names of the
    options every search planner shares: they become the search's
    :class:`~stratagem.baselines.search.config.SearchConfig` (``time_limit`` in seconds,
    ``budget``, ``iterations``, ``c``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata import partial as P
from stratagem.baselines.prismata.portfolio import PartialSequence, Portfolio
from stratagem.baselines.prismata.search import (
    AlphaBetaPlayer,
    RandomPortfolioPlayer,
    SequencePlayer,
    TurnPlayer,
    UCTPlayer,
)
from stratagem.baselines.search.config import SearchConfig, check_int, check_number
from stratagem.envs.cli_options import load_toml
from stratagem.envs.prismata.cards import CardSetError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["BotConfig", "default_config", "load_config"]

_SEARCH_KEYS = {
    "alphabeta": {"max_depth"},
    "uct": {"max_traversals", "c"},
}
_COMMON_SEARCH_KEYS = {
    "type",
    "description",
    "root_portfolio",
    "portfolio",
    "playout",
    "time_limit_ms",
    "max_playouts",
    "max_children",
    "evaluation",
}


class BotConfig:
    """A parsed AI configuration.

    Args:
        data: The parsed TOML document.
        where: Where it came from (for error messages).

    Raises:
        ValueError: For a malformed table (the message names it).
    """

    def __init__(self, data: Mapping[str, Any], where: str = "config") -> None:
        self.where = where
        unknown = set(data) - {
            "filters",
            "limits",
            "opening_books",
            "partial",
            "portfolios",
            "players",
        }
        if unknown:
            raise ValueError(f"{where}: unknown top-level tables {sorted(unknown)}")
        self.filters_data = dict(data.get("filters", {}))
        self.limits_data = dict(data.get("limits", {}))
        self.books = dict(data.get("opening_books", {}))
        self.partial_data = dict(data.get("partial", {}))
        self.portfolio_data = dict(data.get("portfolios", {}))
        self.player_data = dict(data.get("players", {}))
        self._filters: dict[str, P.CardFilter] = {}
        for name in self.player_data:
            self._check_player(name)

    # ------------------------------------------------------------------ queries
    def player_names(self) -> list[str]:
        """Names of the configured players."""
        return list(self.player_data)

    def description(self, name: str) -> str:
        """The player's description line."""
        table = self.player_data.get(name, {})
        return str(table.get("description", f"{table.get('type', '?')} player"))

    # ------------------------------------------------------------------ building
    def player(self, name: str, **overrides: Any) -> TurnPlayer:
        """Build the player ``name``; ``overrides`` replace its parameters (searches).

        Raises:
            ValueError: For an unknown player or parameter.
        """
        if name not in self.player_data:
            raise ValueError(
                f"{self.where}: unknown Prismata player {name!r}; players: "
                f"{', '.join(self.player_data)}"
            )
        table = {**self.player_data[name], **overrides}
        kind = table.get("type")
        if kind == "sequence":
            if overrides:
                raise ValueError(f"player {name!r} (a scripted sequence) takes no parameters")
            return SequencePlayer(self.sequence(table["partial"], name), name)
        if kind == "random_portfolio":
            if overrides:
                raise ValueError(f"player {name!r} (a random portfolio move) takes no parameters")
            return RandomPortfolioPlayer(self.portfolio(table["portfolio"]), name)
        allowed = _COMMON_SEARCH_KEYS | _SEARCH_KEYS[kind]
        bad = set(table) - allowed
        if bad:
            raise ValueError(
                f"player {name!r} ({kind}): unknown parameters {sorted(bad)}; "
                f"valid: {sorted(allowed - {'type', 'description'})}"
            )
        playout = table.get("playout")
        playout_player = None
        if playout is not None:
            built = self.player(str(playout))
            if not isinstance(built, SequencePlayer):
                raise ValueError(f"player {name!r}: playout player {playout!r} is not a sequence")
            playout_player = built
        config = _search_config(name, kind, table)
        kwargs: dict[str, Any] = {
            "evaluation": table.get("evaluation", "playout"),
            "max_children": table.get("max_children", 40),
            "name": name,
        }
        root = self.portfolio(table.get("root_portfolio", table["portfolio"]))
        inner = self.portfolio(table["portfolio"])
        if kind == "alphabeta":
            return AlphaBetaPlayer(
                root, inner, playout_player, config, max_depth=table.get("max_depth", 20), **kwargs
            )
        return UCTPlayer(root, inner, playout_player, config, **kwargs)

    def sequence(self, names: Any, where: str = "") -> PartialSequence:
        """A sequence of four named partial players."""
        if not isinstance(names, list) or len(names) != 4:
            raise ValueError(f"{self.where}: player {where!r} needs 'partial' = four names")
        return PartialSequence([self.partial_player(n) for n in names], where)

    def portfolio(self, name: str, limits: P.BuyLimits | None = None) -> Portfolio:
        """The portfolio ``name`` (with ``include`` resolved)."""
        table = self._table(self.portfolio_data, name, "portfolio")
        phases: list[list[str]] = [[], [], [], []]
        own_limits = table.get("limits")
        if "include" in table:
            base = self._table(self.portfolio_data, str(table["include"]), "portfolio")
            for i, key in enumerate(P.PHASES):
                phases[i] = list(base.get(key, []))
            if own_limits is None and "limits" in base:
                own_limits = base["limits"]
        for i, key in enumerate(P.PHASES):
            given = table.get(key)
            if given:
                phases[i] = list(given)
        built: list[list[P.PartialPlayer]] = []
        lim = self.limits(own_limits) if own_limits else None
        for i, names in enumerate(phases):
            players = []
            for n in names:
                pp = self.partial_player(n)
                if lim is not None:
                    pp.set_limits(lim)
                if pp.phase != i and not (i == P.ABILITY and pp.phase == P.BUY):
                    raise ValueError(
                        f"{self.where}: portfolio {name!r} lists {n!r} ({P.PHASES[pp.phase]}) "
                        f"in its {P.PHASES[i]} phase"
                    )
                players.append(pp)
            built.append(players)
        return Portfolio(built, name)

    def limits(self, name: str) -> P.BuyLimits:
        """The buy limits ``name``."""
        table = self._table(self.limits_data, name, "buy limits")
        try:
            return P.BuyLimits(table)
        except CardSetError as exc:
            raise ValueError(f"{self.where}: buy limits {name!r}: {exc}") from None

    def card_filter(self, name: str) -> P.CardFilter:
        """The card filter ``name``."""
        if name not in self._filters:
            table = self._table(self.filters_data, name, "filter")
            try:
                self._filters[name] = P.CardFilter(
                    cards=table.get("cards", []),
                    conditions=table.get("conditions", []),
                    state_conditions=table.get("state_conditions", []),
                    allow_resonate=bool(table.get("allow_resonate", False)),
                )
            except (CardSetError, ValueError) as exc:
                raise ValueError(f"{self.where}: filter {name!r}: {exc}") from None
        return self._filters[name]

    def partial_player(self, name: str) -> P.PartialPlayer:
        """A fresh instance of the partial player ``name``."""
        table = dict(self._table(self.partial_data, name, "partial player"))
        kind = table.pop("type", None)
        limits_name = table.pop("limits", None)
        limits = self.limits(limits_name) if limits_name else None
        filt = self.card_filter(table.pop("filter")) if "filter" in table else None
        try:
            pp = self._build(kind, name, table, filt)
        except (CardSetError, TypeError) as exc:
            raise ValueError(f"{self.where}: partial player {name!r}: {exc}") from None
        if limits is not None:
            pp.set_limits(limits)
        return pp

    # ------------------------------------------------------------------ internals
    def _build(
        self, kind: Any, name: str, table: dict[str, Any], filt: P.CardFilter | None
    ) -> P.PartialPlayer:
        def no_params() -> None:
            if table:
                raise ValueError(
                    f"{self.where}: partial player {name!r} ({kind}) takes no parameters "
                    f"{sorted(table)}"
                )

        simple = {
            "defense_solver": P.DefenseSolver,
            "defense_default": P.DefenseDefault,
            "defense_random": P.DefenseRandom,
            "economy": P.EconomyDefault,
            "frontline": P.FrontlineGreedy,
            "snipe": P.SnipeGreedy,
            "chill_greedy": P.ChillGreedy,
            "avoid_attack_waste": P.AvoidAttackWaste,
            "avoid_economy_waste": P.AvoidEconomyWaste,
            "untap_avoid_breach": P.UntapAvoidBreach,
            "ability_default": P.AbilityDefault,
            "dont_attack": P.DontAttack,
            "ability_random": P.AbilityRandom,
            "buy_engineer": P.BuyEngineer,
            "buy_avoid_breach": P.BuyAvoidBreach,
            "buy_random": P.BuyRandom,
            "buy_nothing": P.BuyNothing,
            "buy_default": P.BuyDefault,
            "breach_default": P.BreachDefault,
            "breach_random": P.BreachRandom,
        }
        if kind in simple:
            no_params()
            return simple[kind](name)
        if kind == "defense_greedy":
            no_params()
            return P.DefenseGreedy(name)
        if kind == "attack":
            no_params()
            return P.AttackDefault(name, filter=filt)
        if kind == "utility":
            no_params()
            return P.ActivateUtility(name, filter=filt)
        if kind == "chill_solver":
            return P.ChillSolver(name, **table)
        if kind == "avoid_breach_solver":
            return P.AvoidBreachSolver(name, **table)
        if kind in ("ability_combination", "buy_combination"):
            combo = table.pop("combination", None)
            no_params()
            if not isinstance(combo, list) or not combo:
                raise ValueError(
                    f"{self.where}: partial player {name!r} needs a 'combination' list"
                )
            phase = P.ABILITY if kind == "ability_combination" else P.BUY
            return P.Combination(name, [self.partial_player(str(n)) for n in combo], phase=phase)
        if kind == "buy_greedy":
            heuristic = table.pop("heuristic", "will")
            no_params()
            fn = {
                "will": H.buy_highest_cost,
                "attack": H.buy_attack_value,
                "block": H.buy_block_value,
            }
            if heuristic not in fn:
                raise ValueError(
                    f"{self.where}: partial player {name!r}: heuristic must be will, attack "
                    f"or block"
                )
            return P.BuyGreedy(name, heuristic=fn[heuristic], filter=filt)
        if kind == "buy_tech":
            heuristic = table.pop("heuristic", "elyot")
            no_params()
            if heuristic not in ("elyot", "elyot_balanced", "elyot_playout"):
                raise ValueError(
                    f"{self.where}: partial player {name!r}: unknown tech heuristic {heuristic!r}"
                )
            return P.BuyTechElyot(
                name, balanced=heuristic == "elyot_balanced", playout=heuristic == "elyot_playout"
            )
        if kind == "buy_sequence":
            seq = table.pop("sequence", None)
            no_params()
            if not isinstance(seq, list):
                raise ValueError(f"{self.where}: partial player {name!r} needs a 'sequence' list")
            return P.BuySequence(name, sequence=[(str(a), int(b)) for a, b in seq])
        if kind == "buy_opening_book":
            book = table.pop("book", None)
            no_params()
            if book not in self.books:
                raise ValueError(
                    f"{self.where}: partial player {name!r}: unknown opening book {book!r}"
                )
            return P.BuyOpeningBook(name, book=self.books[book])
        if kind == "breach_greedy":
            low = table.pop("low_tech_priority", True)
            no_params()
            return P.BreachGreedy(name, low_tech_priority=bool(low))
        raise ValueError(f"{self.where}: partial player {name!r} has unknown type {kind!r}")

    def _table(self, tables: Mapping[str, Any], name: str, what: str) -> Mapping[str, Any]:
        if name not in tables:
            raise ValueError(
                f"{self.where}: unknown {what} {name!r}; "
                f"known: {', '.join(sorted(tables)) or 'none'}"
            )
        table = tables[name]
        if not isinstance(table, (dict, list)):
            raise ValueError(f"{self.where}: {what} {name!r} must be a table")
        return table

    def _check_player(self, name: str) -> None:
        table = self.player_data[name]
        if not isinstance(table, dict):
            raise ValueError(f"{self.where}: player {name!r} must be a table")
        kind = table.get("type")
        if kind not in ("sequence", "random_portfolio", "alphabeta", "uct"):
            raise ValueError(
                f"{self.where}: player {name!r} has type {kind!r}; use sequence, "
                f"random_portfolio, alphabeta or uct"
            )
        if kind in ("alphabeta", "uct") and "portfolio" not in table:
            raise ValueError(f"{self.where}: search player {name!r} needs a 'portfolio'")


def _search_config(name: str, kind: str, table: Mapping[str, Any]) -> SearchConfig:
    """The shared search options of a player table, from the AI file's (the reference's) names.

    ``time_limit_ms`` (0: none) becomes ``time_limit`` in seconds, ``max_playouts`` (0: none)
    ``budget``, and for UCT ``max_traversals`` (0 counts as 1) ``iterations``, and ``c``.

    Raises:
        ValueError: For a bad value, naming the player, the option as the file names it and
            the value.
    """
    who = f"prismata {name}"
    ms = table.get("time_limit_ms", 0)
    check_number(who, "time_limit_ms", ms)
    playouts = table.get("max_playouts", 0)
    check_int(who, "max_playouts", playouts, 0)
    fields: dict[str, Any] = {
        "time_limit": ms / 1000.0 if ms > 0 else None,
        "budget": playouts or None,
    }
    if kind == "uct":
        traversals = table.get("max_traversals", 100000)
        check_int(who, "max_traversals", traversals, 0)
        fields["iterations"] = max(1, traversals)
        fields["c"] = table.get("c", 2.0)
    return SearchConfig(planner=who, **fields)


_DEFAULT: BotConfig | None = None


def default_config() -> BotConfig:
    """The packaged ``bots.toml``."""
    global _DEFAULT
    if _DEFAULT is None:
        text = (
            resources.files("stratagem.baselines.prismata")
            .joinpath("bots.toml")
            .read_text(encoding="utf-8")
        )
        _DEFAULT = BotConfig(tomllib.loads(text), "bots.toml")
    return _DEFAULT


def load_config(path: str | Path | None = None) -> BotConfig:
    """The configuration in ``path``, or the packaged one.

    Raises:
        ValueError: For a missing file, invalid TOML or a malformed table.
    """
    if path is None:
        return default_config()
    path = Path(path)
    return BotConfig(load_toml(path, "Prismata AI config"), str(path))
