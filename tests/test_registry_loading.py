"""What a game's registry entry names is what every process gets, whatever it imported first.

A game's planner evaluator, rule-based agent and named agents used to depend on import order
(CotG's heuristic existed only once something had imported its agent package), so the same
``MCTSAgent(game)`` searched with different values in a fresh process and in a tournament
worker. Each case here runs in a fresh interpreter: one per game and per "what is imported
first" order.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from stratagem.envs import game_entry, list_games

#: Each game's own heuristic: what its planners must search with by default.
HEURISTICS: dict[str, str] = {
    "cotg_combat": "stratagem.baselines.cotg_combat.evaluator:CotgHPEvaluator",
    "kill_the_king": "stratagem.baselines.kill_the_king:KillTheKingEvaluator",
    "prismata": "stratagem.baselines.prismata.evaluator:PrismataEvaluator",
    "push_them_all": "stratagem.baselines.push_them_all:PushThemAllEvaluator",
    "terra_mystica": "stratagem.baselines.terra_mystica:TerraMysticaEvaluator",
    "tribes": "stratagem.baselines.tribes:TribesDiffEvaluator",
    "two_kingdoms": "stratagem.baselines.two_kingdoms:TwoKingdomsEvaluator",
}

#: Named agents a game's entry provides (a sample of each table), which must exist everywhere.
NAMED_AGENTS: dict[str, tuple[str, ...]] = {
    "cotg_combat": ("cotg_nokav", "cotg_pgs", "cotg_mcts_hp"),
    "prismata": ("prismata_master", "prismata_playout", "prismata_bot"),
}

#: What the fresh process does before anything else, ``{game}`` and ``{module}`` filled in
#: (``module``: the game's agent module, ``stratagem.baselines.<game>``).
ORDERS: dict[str, str] = {
    "planner_first": "import stratagem.baselines.search.mcts",
    "envs_first": "import stratagem.envs",
    "game_agents_first": "import {module}",
    "make_agent_first": (
        "from stratagem.baselines import make_agent\n"
        "from stratagem.envs import make_game\n"
        "make_agent('random', make_game('{game}'))"
    ),
    "training_first": "import stratagem.training",
    "cli_first": "import stratagem.cli\nstratagem.cli.build_parser()",
}

#: Run after the order's prelude: the evaluators the planners pick, twice (before and after an
#: agent is built by name), the rule-based agent's class and the named agents known.
PROBE = """
import importlib
import json
from stratagem.baselines import MCTSAgent, OSLAAgent, agent_names, default_evaluator, make_agent
from stratagem.envs import game_entry, make_game

def name(obj):
    cls = type(obj)
    return f"{{cls.__module__}}:{{cls.__qualname__}}"

game = make_game({game!r})
before = [name(MCTSAgent(game, budget=10).evaluator), name(OSLAAgent(game, budget=10).evaluator),
          name(default_evaluator(game))]
after = [name(MCTSAgent(game, budget=10).evaluator), name(make_agent("mcts", game).evaluator)]
rule_based = type(make_agent("rule_based", game))
module, _, attr = game_entry({game!r}).rule_based_agent.partition(":")
rule_based_ok = rule_based is getattr(importlib.import_module(module), attr)
print(json.dumps({{"before": before, "after": after, "agents": sorted(agent_names()),
                  "rule_based": rule_based_ok}}))
"""

CASES = [(game, order) for game in sorted(HEURISTICS) for order in ORDERS]


def _run(case: tuple[str, str]) -> dict[str, Any]:
    """Run one case in a fresh interpreter and return what it printed (or its error)."""
    game, order = case
    prelude = ORDERS[order].format(game=game, module=f"stratagem.baselines.{game}")
    code = prelude + "\n" + PROBE.format(game=game)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env
    )
    if proc.returncode != 0:
        return {"error": proc.stderr[-3000:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def results() -> dict[tuple[str, str], dict[str, Any]]:
    """Every case's result; the fresh interpreters run two at a time."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(CASES, pool.map(_run, CASES), strict=True))


def test_every_game_is_covered() -> None:
    """A new game must say which heuristic its planners use (test-only games aside)."""
    assert sorted(HEURISTICS) == [g for g in list_games() if not g.endswith("_test")]


@pytest.mark.parametrize("game", sorted(HEURISTICS))
def test_registry_entry_names_the_heuristic(game: str) -> None:
    """The registry entry is where the game names its evaluator."""
    assert game_entry(game).evaluator == HEURISTICS[game]


@pytest.mark.parametrize(("game", "order"), CASES)
def test_planner_evaluator_is_the_heuristic_whatever_is_imported_first(
    results: dict[tuple[str, str], dict[str, Any]], game: str, order: str
) -> None:
    """MCTSAgent(game).evaluator is the game's heuristic in a fresh process, in any order."""
    result = results[(game, order)]
    assert "error" not in result, result.get("error")
    expected = HEURISTICS[game]
    assert result["before"] == [expected] * 3, f"{game} after {order}: {result['before']}"
    assert result["after"] == [expected] * 2, f"{game} after {order}: {result['after']}"
    assert result["rule_based"], f"{game} after {order}: rule_based is not the entry's class"
    missing = set(NAMED_AGENTS.get(game, ())) - set(result["agents"])
    assert not missing, f"{game} after {order}: named agents missing: {sorted(missing)}"
    assert {"alphazero", "ppo", "mcts", "tribes_mcts"} <= set(result["agents"])


def test_register_refuses_a_malformed_target() -> None:
    """A registry entry's agent knowledge must be written ``module:attribute``, checked at once."""
    from stratagem.envs.registry import register

    def factory(*, size: int = 1) -> Any:
        raise AssertionError("never built")

    with pytest.raises(ValueError, match="toy: evaluator must be written 'module:attribute'"):
        register("toy", factory, description="", env_id="x/Toy-v0", evaluator="no_colon")
    assert "toy" not in list_games()


def test_load_target_names_what_failed() -> None:
    """An unimportable target is a ValueError naming the entry and the target."""
    from stratagem.envs.registry import load_target

    assert load_target("stratagem.baselines.evaluators:TerminalEvaluator").__name__ == (
        "TerminalEvaluator"
    )
    with pytest.raises(ValueError, match=r"chess: evaluator: cannot load 'no\.such:Thing'"):
        load_target("no.such:Thing", "chess: evaluator")
    with pytest.raises(ValueError, match="cannot load 'stratagem.baselines:Nothing'"):
        load_target("stratagem.baselines:Nothing")


# A fresh process with a game whose registry entry names an agent table; the table maps names to
# (factory, description). ``{table}`` is the table's source.
_TOY_GAME = """
import dataclasses, sys, types
from stratagem.baselines import agent_names, make_agent, register_agent_table
from stratagem.baselines.simple import RandomAgent
from stratagem.envs import make_game
from stratagem.envs.registry import register

module = types.ModuleType("toy_agents")
module.AGENTS = {table}
sys.modules["toy_agents"] = module
make_agent("random", make_game("kill_the_king"))  # every table loaded: the toy game comes later

def toy(*, map="default"):
    game = make_game("kill_the_king", map=map)
    game.spec = dataclasses.replace(game.spec, name="toy")  # a game's own agents play it only
    return game

register("toy", toy, description="toy", env_id="x/Toy-v0", agents="toy_agents:AGENTS")
try:
    make_agent("toy_random", make_game("toy"))
    print("ok", "toy_random" in agent_names())
except ValueError as exc:
    print("error", exc)
"""


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("{'toy_random': (RandomAgent, 'random, by the toy table')}", "ok True"),
        (
            "{'mcts': (RandomAgent, 'clashes')}",
            "error toy: agents: agent 'mcts' is already registered",
        ),
        ("{'toy_random': RandomAgent}", "error toy: agents: agent 'toy_random' must be"),
        ("[1, 2]", "error toy: agents: 'toy_agents:AGENTS' is not a mapping"),
    ],
)
def test_a_game_registered_later_gets_its_agents_or_a_clear_error(
    table: str, expected: str
) -> None:
    """Tables load at the next lookup, all or none; a bad table says which entry is wrong."""
    proc = subprocess.run(
        [sys.executable, "-c", _TOY_GAME.format(table=table)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().startswith(expected), proc.stdout
