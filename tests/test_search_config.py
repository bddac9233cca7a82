"""The planners' shared configuration (SearchConfig) and the optional State/evaluator hooks."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from stratagem.baselines import make_agent
from stratagem.baselines.agent import EvaluatorFastValues, EvaluatorRoot
from stratagem.baselines.search import (
    MCAgent,
    MCTSAgent,
    MCTSUnitAgent,
    OSLAAgent,
    RHEAAgent,
)
from stratagem.baselines.search.abstraction import ElasticMCTSAgent, RGMCTSAgent, SCSAAgent
from stratagem.baselines.search.config import SearchConfig
from stratagem.envs.core import (
    ActionGroups,
    ActionKinds,
    ActionUnits,
    UnitTypeNames,
    UnitViews,
    optional_hook,
)
from stratagem.envs.kill_the_king import KillTheKingGame
from stratagem.envs.registry import make_game

PLANNERS = [
    OSLAAgent,
    MCAgent,
    MCTSAgent,
    MCTSUnitAgent,
    RHEAAgent,
    SCSAAgent,
    RGMCTSAgent,
    ElasticMCTSAgent,
]


@pytest.fixture(scope="module")
def game() -> KillTheKingGame:
    return KillTheKingGame(map="kwah:1")


@pytest.mark.parametrize("cls", PLANNERS, ids=lambda c: c.name)
def test_unknown_keyword_is_a_type_error_naming_it(cls: type, game: KillTheKingGame) -> None:
    with pytest.raises(TypeError, match=r"'budgte' \(it accepts: ") as caught:
        cls(game, budgte=5)
    # the list names what the planner takes, every name of it and no other
    accepts = str(caught.value).split("(it accepts: ")[1].rstrip(")").split(", ")
    assert "budget" in accepts
    for name in accepts:
        try:
            cls(game, **{name: None})
        except (TypeError, ValueError) as exc:
            assert "unexpected keyword" not in str(exc), (name, exc)


@pytest.mark.parametrize(
    ("cls", "keyword", "value"),
    [
        (OSLAAgent, "c", 1.0),
        (OSLAAgent, "force_end_turn", 2),
        (MCAgent, "iterations", 5),
        (MCTSUnitAgent, "prioritize_root", True),
        (RHEAAgent, "prioritize_root", True),
        (RHEAAgent, "rollout_length", 5),
        (SCSAAgent, "rollouts", False),
        (SCSAAgent, "opponent", "tree"),
    ],
)
def test_options_a_planner_does_not_take_stay_unknown(
    cls: type, keyword: str, value: Any, game: KillTheKingGame
) -> None:
    with pytest.raises(TypeError, match=keyword):
        cls(game, **{keyword: value})


@pytest.mark.parametrize(
    ("keyword", "value"),
    [
        ("budget", 0),
        ("budget", True),
        ("budget", 2.5),
        ("time_limit", -1),
        ("time_limit", False),
        ("iterations", 0),
        ("c", -0.1),
        ("c", "big"),
        ("rollout_length", 0),
        ("rollouts", 1),
        ("normalize", "yes"),
        ("opponent", "smart"),
        ("open_loop", "maybe"),
        ("force_end_turn", -1),
        ("prioritize_root", 1),
    ],
)
def test_bad_values_are_value_errors_naming_the_option(keyword: str, value: Any) -> None:
    with pytest.raises(ValueError, match=keyword):
        SearchConfig(**{keyword: value})
    with pytest.raises(ValueError, match=f"mcts: {keyword}"):
        MCTSAgent(KillTheKingGame(map="kwah:1"), **{keyword: value})


def test_config_is_frozen_and_normalises_its_values() -> None:
    config = SearchConfig(budget=10, time_limit=1, c=1, exclude_kinds="move| attack")
    assert config.time_limit == 1.0 and isinstance(config.time_limit, float)
    assert config.c == 1.0 and isinstance(config.c, float)
    assert config.exclude_kinds == frozenset({"move", "attack"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.budget = 5  # type: ignore[misc]
    assert not SearchConfig(budget=None).bounded()


def test_planner_defaults_are_the_papers(game: KillTheKingGame) -> None:
    mcts_u = MCTSUnitAgent(game)
    assert (mcts_u.budget, mcts_u.c, mcts_u.rollout_length) == (5000, 1.0, 10)
    assert mcts_u.rollouts and not mcts_u.normalize and mcts_u.opponent == "random"
    scsa = SCSAAgent(game, budget=100)
    assert (scsa.budget, scsa.c, scsa.rollouts, scsa.open_loop) == (100, 0.1, True, False)
    assert MCTSAgent(game).config == SearchConfig()
    assert make_agent("rhea:budget=30,length=5", game).config.budget == 30


def test_nothing_bounding_the_search_is_refused(game: KillTheKingGame) -> None:
    with pytest.raises(ValueError, match="mcts: give budget, time_limit or iterations"):
        MCTSAgent(game, budget=None)
    with pytest.raises(ValueError, match="mc: give budget or time_limit"):
        MCAgent(game, budget=None)
    assert OSLAAgent(game, budget=None).budget is None


def test_a_config_object_plays_like_its_keywords(game: KillTheKingGame) -> None:
    state = game.new_initial_state()
    by_keywords = MCTSAgent(game, budget=300, c=0.5, rollouts=True)
    by_config = MCTSAgent(game, SearchConfig(budget=300, c=0.5, rollouts=True))
    assert by_config.config == by_keywords.config
    for seed in range(3):
        a = by_keywords.act(state.clone(), rng=np.random.default_rng(seed))
        b = by_config.act(state.clone(), rng=np.random.default_rng(seed))
        assert a == b
    # A whole config is taken as it is; the options SCSA does not take stay SCSA's own.
    scsa = SCSAAgent(game, SearchConfig(budget=100))
    assert scsa.rollouts and scsa.config.rollouts and scsa.c == SearchConfig().c
    scsa = SCSAAgent(game, dataclasses.replace(SCSAAgent.defaults, budget=100))
    assert scsa.config == SCSAAgent(game, budget=100).config
    with pytest.raises(TypeError, match="not both"):
        MCTSAgent(game, SearchConfig(budget=10), c=1.0)
    with pytest.raises(ValueError, match="does not take the option prioritize_root"):
        MCTSUnitAgent(game, SearchConfig(prioritize_root=True))


def test_state_hooks_are_declared_protocols() -> None:
    ktk = KillTheKingGame(map="kwah:1").new_initial_state()
    assert isinstance(ktk, ActionUnits) and isinstance(ktk, UnitViews)
    assert not isinstance(ktk, ActionKinds) and not isinstance(ktk, ActionGroups)
    assert optional_hook(ktk, ActionUnits.action_unit) == ktk.action_unit
    assert optional_hook(ktk, ActionGroups.action_group) is None
    tribes = make_game("tribes").new_initial_state()
    assert isinstance(tribes, ActionKinds) and isinstance(tribes, ActionGroups)
    two_kingdoms = make_game("two_kingdoms").new_initial_state()
    assert isinstance(two_kingdoms, UnitTypeNames)


def test_hooks_are_found_through_a_forwarding_wrapper() -> None:
    """A wrapper forwarding through __getattr__ keeps the hooks on every Python version."""

    class Wrapper:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    ktk = KillTheKingGame(map="kwah:1").new_initial_state()
    hook = optional_hook(Wrapper(ktk), ActionUnits.action_unit)
    assert hook is not None and hook(0) == ktk.action_unit(0)


def test_evaluator_hooks_are_declared_protocols(game: KillTheKingGame) -> None:
    evaluator = MCTSAgent(game).evaluator
    assert isinstance(evaluator, EvaluatorFastValues)
    assert optional_hook(evaluator, EvaluatorRoot.set_root) is None


def test_cotg_and_prismata_searches_share_the_config() -> None:
    """The CotG and Prismata searches take the shared options through SearchConfig too."""
    from stratagem.baselines.cotg_combat import PGSAgent, ScriptMCTSAgent
    from stratagem.baselines.ntbea import SearchSpace, ntbea
    from stratagem.baselines.prismata import default_config

    cotg = make_game("cotg_combat", units=2)
    for cls in (PGSAgent, ScriptMCTSAgent):
        with pytest.raises(TypeError, match="budgte"):
            cls(cotg, budgte=5)
        with pytest.raises(TypeError, match="rollouts"):
            cls(cotg, rollouts=True)
        with pytest.raises(ValueError, match=f"{cls.name}: budget must be .* got True"):
            cls(cotg, budget=True)
    mcts = ScriptMCTSAgent(cotg, SearchConfig(budget=50, time_limit=None, c=0.5))
    assert (mcts.budget, mcts.time_limit, mcts.c) == (50, None, 0.5)
    assert PGSAgent(cotg).config == PGSAgent.defaults
    with pytest.raises(ValueError, match="cotg_mcts: give budget, time_limit or iterations"):
        ScriptMCTSAgent(cotg, time_limit=None)
    master = default_config().player("Master", time_limit_ms=500, max_playouts=7)
    assert (master.time_limit, master.budget, master.time_limit_ms) == (0.5, 7, 500.0)
    assert (master.max_traversals, master.c) == (100000, 2.0)
    with pytest.raises(ValueError, match="prismata Master: max_playouts must be .* got -1"):
        default_config().player("Master", max_playouts=-1)
    with pytest.raises(ValueError, match="prismata Expert: max_depth must be .* got 0"):
        default_config().player("Expert", max_depth=0)
    with pytest.raises(ValueError, match="ntbea: neighbours must be .* got 0"):
        ntbea(SearchSpace(("a",), ((1, 2),)), lambda params: 0.0, neighbours=0)
