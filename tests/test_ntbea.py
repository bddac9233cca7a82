"""NTBEA (``stratagem.baselines.ntbea``): the landscape model, the search, files and ``tune``.

Checked against the reference's ``src/stratega/src/ntbea`` (branch ``scsa_tk``): 1- and
2-tuples, the UCB exploration term with ε = 0.5, mutation with at least one flip, and the best
sampled point by mean estimate.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from stratagem.baselines import ntbea as nt


def test_landscape_estimates():
    model = nt.NTupleLandscape(2)
    assert model.tuples == [(0,), (1,), (0, 1)]
    assert model.mean((0, 0)) == 0.0
    unseen = math.sqrt(math.log(1) / 0.5)
    assert model.exploration((0, 0)) == pytest.approx(unseen)
    model.add((0, 1), 1.0)
    model.add((0, 0), 0.0)
    # tuple (0,): value 0 seen twice, mean 0.5; tuple (1,): value 1 once, mean 1;
    # tuple (0, 1): (0, 1) once, mean 1
    assert model.mean((0, 1)) == pytest.approx((0.5 + 1.0 + 1.0) / 3)
    # (1, 1): only tuple (1,) has seen value 1
    assert model.mean((1, 1)) == pytest.approx(1.0)
    seen_once = math.sqrt(math.log(2) / 1.5)
    seen_twice = math.sqrt(math.log(3) / 2.5)
    assert model.exploration((0, 1)) == pytest.approx((seen_twice + seen_once + seen_once) / 3)
    assert model.best_sampled()[0] == (0, 1)


def test_ntbea_finds_the_optimum_of_a_noisy_function():
    space = nt.SearchSpace(("a", "b", "c"), ((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2)))
    rng = np.random.default_rng(0)

    def fitness(params):
        score = (params["a"] == 2) + (params["b"] == 1) + (params["c"] == 0)
        return score / 3 + rng.normal(0, 0.05)

    result = nt.ntbea(space, fitness, iterations=60, neighbours=20, seed=1)
    assert result.best == {"a": 2, "b": 1, "c": 0}
    assert len(result.history) == 60


def test_space_file_and_preset_round_trip(tmp_path):
    from stratagem.baselines.search.presets import load_agent_file

    path = tmp_path / "space.toml"
    path.write_text(
        'agent = "scsa"\n[fixed]\nbudget = 200\n[space]\nc = [0.1, 1.0]\nrollout_length = [5, 10]\n'
    )
    space, fixed, options = nt.load_space(path)
    assert space.names == ("c", "rollout_length") and space.size == 4
    assert fixed == {"budget": 200} and options == {"agent": "scsa"}
    out = tmp_path / "tuned.toml"
    nt.write_preset(out, "tuned_scsa", "scsa", {"budget": 200, "c": 1.0}, "test")
    nt.write_preset(out, "tuned_other", "mcts_u", {"c": 0.5, "rollouts": True}, "test")
    presets = load_agent_file(out)
    assert presets["tuned_scsa"] == "scsa:budget=200,c=1.0"
    assert presets["tuned_other"] == "mcts_u:c=0.5,rollouts=true"


def test_a_preset_name_is_written_once(tmp_path):
    # Regression: a second preset of the same name was appended, and the file stopped being TOML.
    out = tmp_path / "tuned.toml"
    nt.write_preset(out, "tuned_scsa", "scsa", {"c": 1.0}, "test")
    with pytest.raises(ValueError, match=r"already has a preset \[tuned_scsa\]; .* --name"):
        nt.write_preset(out, "tuned_scsa", "scsa", {"c": 2.0}, "test")
    assert out.read_text().count("[tuned_scsa]") == 1
    (tmp_path / "bad.toml").write_text("[x\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        nt.check_preset_free(tmp_path / "bad.toml", "tuned_scsa")


def test_tune_cli_keeps_the_spec_parameters_and_checks_the_name_first(tmp_path, capsys):
    from stratagem.baselines.search.presets import load_agent_file
    from stratagem.cli import main

    (tmp_path / "space.toml").write_text("[space]\nc = [0.5, 1.0]\n")
    out = tmp_path / "tuned.toml"
    argv = ["tune", "push_them_all", "-c", "map=pta", "-c", "max_rounds=3", "--space"]
    argv += [str(tmp_path / "space.toml"), "--games", "2", "--iterations", "1"]
    argv += ["--neighbours", "1", "--quiet", "--out", str(out)]
    assert main([*argv, "--agent", "mcts:budget=20,rollout_length=3"]) == 0
    spec = load_agent_file(out)["tuned_mcts"]
    assert spec.startswith("mcts:budget=20,rollout_length=3,c=")  # played at budget 20
    capsys.readouterr()
    assert main([*argv, "--agent", "mcts:budget=20"]) == 2  # before any game is played
    assert "already has a preset [tuned_mcts]" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[space]\n", "needs a \\[space\\]"),
        ("[space]\nc = []\n", "non-empty list"),
        ("[space]\nc = [1]\n[fixed]\nc = 2\n", "both fixed and tuned"),
        ("colour = 1\n[space]\nc = [1]\n", "unknown key"),
        ("[space\n", "not valid TOML"),
    ],
)
def test_bad_space_files(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        nt.load_space(path)


def test_tune_a_planner_end_to_end(tmp_path):
    import stratagem.baselines.search.abstraction  # noqa: F401

    space = nt.SearchSpace(("c",), ((0.1, 10.0),))
    result = nt.tune(
        "push_them_all",
        "scsa",
        space,
        fixed={"budget": 60},
        games=2,
        iterations=2,
        neighbours=1,
        config={"map": "pta", "max_rounds": 5},
    )
    assert result.best["c"] in (0.1, 10.0)
    assert all(0.0 <= h["fitness"] <= 1.0 for h in result.history)
    with pytest.raises(ValueError):
        nt.tune("push_them_all", "scsa", nt.SearchSpace(("bogus",), ((1,),)), games=2)
