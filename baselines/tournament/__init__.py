"""Round-robin tournaments with the papers' protocol, and ``stratagem tournament``.

Protocol (Tribes paper section 4.1, SCSA paper section VI-B): every pairing of agents plays the
same games (the same levels or maps and the same seeds), in pairs with the seats switched, so
that an unbalanced level favours nobody. Game ``i`` of a pairing is the ``i // 2``-th level,
played with the row agent in seat 0 when ``i`` is even and in seat 1 when it is odd.

* Levels: with ``maps``, game pair ``p`` is played on ``maps[p % len(maps)]`` (the game's ``map``
  option); with ``levels = L``, the initial state's seed cycles over ``L`` values (the Tribes
  paper's 25 generated levels); with ``level_seeds``, over those seeds as given (the CotG
  paper's scenarios ``2018 + i``); otherwise each game pair has a level seed of its own. Agents'
  random generators are seeded per game pair and seat, identically for every pairing.
* Scores: 1 for the sole winner, ``1/m`` each for ``m`` players tied at the best return, 0
  otherwise (draws count half in two-player games). A win rate is the mean score; its standard
  error is the standard deviation of the scores over the square root of the number of games.
* Symmetric scoring (``symmetric=True``, the CotG paper's *sym-win*): the two games of a pair
  (one level, seats switched) are one battle, won by the agent that won more of them; a split
  pair (1:1, or two draws) goes to the agent with the larger sum of the ``tie_break`` end
  statistic over both games (the CotG paper: hit points left), and is halved when that is
  equal too. Win rates are then means over pairs.
* Results are appended to a JSON Lines file one game at a time, as games finish; rerunning the
  same command skips every game already in the file, so an interrupted tournament resumes where
  it stopped and loses no finished game. A line that is not a complete record (torn by a kill,
  edited, fields missing or of the wrong type) is reported with its line number and its game is
  played again.
* Games run in worker processes (``spawn``, so the same on every platform), with a progress bar.
  A worker ends as soon as the tournament process is gone, even after ``kill -9``. With
  ``backend="ray"`` they run as Ray tasks on a cluster instead
  (:mod:`~stratagem.baselines.ray_backend`): the same per-game function, file, resume, progress
  bar and tables, and the same records.

The printed tables are the papers': the row-against-column win-rate matrix with standard
errors, each agent's overall record, and the game's end-of-game statistics (Kill The King:
rounds played, own units left, own King's health).

The code is split by concept: :mod:`.schedule` (pairings, levels and seeds: the games),
:mod:`.playing` (one game and its record, what workers run), :mod:`.records` (the JSON Lines
results file), :mod:`.summary` (results, tables, heat map), :mod:`.runner` (the worker pool,
Ray, resume and progress) and :mod:`.cli` (``stratagem tournament``). Everything public is
importable from here, as ``stratagem.baselines.tournament.X``.
"""

from __future__ import annotations

from stratagem.baselines.tournament.cli import register
from stratagem.baselines.tournament.playing import end_statistics, play_task
from stratagem.baselines.tournament.records import read_results, record_problem
from stratagem.baselines.tournament.runner import run_tournament
from stratagem.baselines.tournament.schedule import (
    Task,
    expand_maps,
    make_tasks,
    split_agent_list,
)
from stratagem.baselines.tournament.summary import (
    TournamentResult,
    format_tables,
    pair_score,
    plot_heatmap,
)

__all__ = [
    "Task",
    "TournamentResult",
    "end_statistics",
    "expand_maps",
    "format_tables",
    "make_tasks",
    "pair_score",
    "play_task",
    "plot_heatmap",
    "read_results",
    "record_problem",
    "register",
    "run_tournament",
    "split_agent_list",
]
