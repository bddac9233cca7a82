"""``stratagem play``: stable action numbers and one coordinate convention (issue 14, defect 11)."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from stratagem.baselines.match import coordinate_order, display_name, play_game
from stratagem.baselines.play import HumanPlayer, legend
from stratagem.envs import list_games, make_game

LINE = re.compile(r"^\s*(\d+): (.+)$")


def _listed(text: str) -> dict[int, str]:
    """``number -> name`` of every legal action the player was shown (one per column cell)."""
    shown = {}
    for line in text.splitlines():
        for cell in re.split(r"\s{2,}(?=\d+: )", line):
            match = LINE.match(cell)
            if match:
                shown[int(match.group(1))] = match.group(2).strip()
    return shown


def _human(game, answers):
    replies = iter(answers)

    def read(prompt: str) -> str:
        try:
            return next(replies)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    return HumanPlayer(game, read=read, out=out), out


@pytest.mark.parametrize("name", ["kill_the_king", "tribes", "terra_mystica", "cotg_combat"])
def test_numbers_are_action_indices_and_names_parse_back(name):
    game = make_game(name)
    state = game.new_initial_state(0)
    legal = [int(a) for a in state.legal_actions()]
    human, out = _human(game, [str(legal[-1])])
    assert human.act(state.clone(), rng=np.random.default_rng(0)) == legal[-1]
    shown = _listed(out.getvalue())
    assert sorted(shown) == legal  # the number is the index in the action space
    for action, text in list(shown.items())[:40]:
        again, _ = _human(game, [text])
        assert again.act(state.clone(), rng=np.random.default_rng(0)) == action


def test_the_same_number_means_the_same_action_after_a_move():
    game = make_game("kill_the_king", map="k0 . .\n. . k1")
    state = game.new_initial_state(0)
    end_turn = game.string_to_action("end_turn")
    human, out = _human(game, [str(end_turn)])
    assert human.act(state.clone(), rng=np.random.default_rng(0)) == end_turn
    first = _listed(out.getvalue())
    state.apply(game.string_to_action("empty (0,0)"))
    human, out = _human(game, [str(end_turn)])
    assert human.act(state.clone(), rng=np.random.default_rng(0)) == end_turn
    assert _listed(out.getvalue())[end_turn] == first[end_turn] == "end_turn"


def test_one_coordinate_convention_in_every_game():
    """(x,y) = (column,row) everywhere; Tribes' own (row,col) names are shown and read so."""
    orders = {name: coordinate_order(make_game(name)) for name in list_games()}
    assert orders["tribes"] == "rowcol"  # its names follow the Java reference
    assert {orders[n] for n in ("kill_the_king", "push_them_all", "two_kingdoms")} == {"xy"}
    for name, order in orders.items():
        if order is None:
            continue
        game = make_game(name)
        layout = game.spec.action_layout
        state = game.new_initial_state(0)
        for action in state.legal_action_list():
            plane, x, y = layout.decode(action)
            text = display_name(game, action)
            if plane is not None and "(" in text:
                assert re.search(rf"\({x},{y}\)", text), (name, text, x, y)
    assert "Coordinates are (x,y): x = column" in legend(make_game("tribes"))
    assert "Coordinates" not in legend(make_game("prismata"))


def test_agents_moves_are_printed_in_the_same_convention():
    game = make_game("tribes")
    from stratagem.baselines import make_agent

    out = io.StringIO()
    state = game.new_initial_state(0)
    first = make_agent("random", game).act(state.clone(), rng=np.random.default_rng(0))
    play_game(game, [make_agent("random", game)] * 2, seed=0, out=out, verbose=True)
    assert f"player 0 (random): {display_name(game, first)}" in out.getvalue()
