"""Training curves from AlphaZero training logs: ``stratagem plot-training``.

``stratagem train alphazero`` writes one line per iteration to its log (stderr)::

    iteration 7/40: {'policy': 1.62, 'value': 0.55, ..., 'rule_based/score': 0.975,
                     'rule_based/se': 0.025, 'cpu_seconds': 531.1}

(the metric names without their ``loss/``, ``eval/``, ... prefix). :func:`read_training_log`
reads those lines back and :func:`plot_training_curves` draws, for one or more runs, the score
against each evaluation opponent (with its standard error as a band) and the policy and value
losses over training time (CPU minutes, actor processes included) or iterations, as one PNG.

Only the text log is read, so a log copied off a training machine can be plotted anywhere; the
plot needs matplotlib (the ``plot`` extra), imported only when drawing. This module sits with
the other evaluation plots (the tournament's heat map, :func:`~stratagem.baselines.tournament.
plot_heatmap`) and imports nothing from training.
"""

from __future__ import annotations

import argparse
import logging
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "LOSSES",
    "opponents_in",
    "plot_training_curves",
    "read_training_log",
    "register",
]

log = logging.getLogger(__name__)

#: The loss metrics drawn in the lower panel: ``loss/policy`` and ``loss/value`` in the log.
LOSSES: tuple[str, ...] = ("policy", "value")
#: One iteration line; anything before ``iteration`` (a progress bar's remains) is ignored.
_LINE = re.compile(r"iteration (\d+)/(\d+): \{(.*)\}\s*$")
#: One ``'name': number`` pair of the metrics dictionary (``nan`` and ``inf`` included).
_PAIR = re.compile(r"'([^']+)': ([-+\w.]+)")
_X_AXES = ("auto", "cpu", "iteration")


def read_training_log(path: str | Path) -> list[dict[str, float]]:
    """The metrics of every iteration in a training log, in iteration order.

    Each row is the line's metrics dictionary plus ``iteration`` (and ``iterations``, the
    run's planned total). Lines that are not iteration lines are skipped. An iteration logged
    twice (a run resumed from a checkpoint written before that iteration's line) keeps its last
    line.

    Args:
        path: The log file.

    Returns:
        One dictionary of floats per iteration.

    Raises:
        OSError: If the file cannot be read.
        ValueError: If the file holds no iteration line.
    """
    path = Path(path)
    rows: dict[int, dict[str, float]] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = _LINE.search(line)
        if match is None:
            continue
        row: dict[str, float] = {}
        for name, value in _PAIR.findall(match.group(3)):
            try:
                row[name] = float(value)
            except ValueError:
                continue  # not a number: no curve to draw from it
        row["iteration"] = float(match.group(1))
        row["iterations"] = float(match.group(2))
        rows[int(match.group(1))] = row
    if not rows:
        raise ValueError(
            f"{path}: no training iterations found; a training log has lines "
            "'iteration i/n: {...}', as 'stratagem train alphazero' writes to stderr"
        )
    return [rows[i] for i in sorted(rows)]


def opponents_in(rows: Sequence[dict[str, float]]) -> list[str]:
    """The evaluation opponents of a run (metrics ``<opponent>/score``), first seen first."""
    seen: dict[str, None] = {}
    for row in rows:
        for key in row:
            if key.endswith("/score"):
                seen.setdefault(key[: -len("/score")], None)
    return list(seen)


def _labels(paths: Sequence[Path]) -> list[str]:
    """Short names of the runs: the file names, with their folder where two would clash."""
    stems = [p.stem for p in paths]
    return [
        f"{p.parent.name}/{p.stem}" if stems.count(p.stem) > 1 and p.parent.name else p.stem
        for p in paths
    ]


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise RuntimeError(
            "plotting training curves needs matplotlib: pip install 'stratagem[plot]'"
        ) from exc
    return plt


def plot_training_curves(
    logs: Sequence[str | Path],
    out: str | Path,
    *,
    opponents: Sequence[str] | None = None,
    x: str = "auto",
    losses: bool = True,
    title: str | None = None,
) -> Path:
    """Draw the training curves of one or more runs as a PNG.

    The upper panel is the score (win 1, draw ½) against each evaluation opponent, with a band
    of ± one standard error where the log has it (``<opponent>/se``); the lower panel, unless
    ``losses`` is false, the policy and value losses. Each run has its colour, each opponent
    (and each loss) its line style.

    Args:
        logs: Training logs, one per run.
        out: The PNG to write.
        opponents: Opponents to draw; by default every one found in the logs.
        x: ``"cpu"`` (training CPU minutes: self-play, training and evaluation, actor
            processes included), ``"iteration"``, or ``"auto"``: CPU minutes where every line
            has them, else iterations.
        losses: Draw the loss panel.
        title: Figure title; by default none.

    Returns:
        The path written.

    Raises:
        ValueError: For a log without iterations, an unknown ``x``, an opponent no log has,
            ``x="cpu"`` on a log without ``cpu_seconds``, or nothing to draw.
        RuntimeError: If matplotlib is not installed.
        OSError: If a log cannot be read or the PNG cannot be written.
    """
    if x not in _X_AXES:
        raise ValueError(f"x must be one of {', '.join(_X_AXES)}, got {x!r}")
    if not logs:
        raise ValueError("no training log given")
    paths = [Path(p) for p in logs]
    runs = [read_training_log(p) for p in paths]
    labels = _labels(paths)
    has_cpu = all("cpu_seconds" in row for rows in runs for row in rows)
    if x == "cpu" and not has_cpu:
        raise ValueError("some iterations of the logs have no cpu_seconds; use x='iteration'")
    use_cpu = x == "cpu" or (x == "auto" and has_cpu)
    found = list(dict.fromkeys(o for rows in runs for o in opponents_in(rows)))
    if opponents is None:
        chosen = found
    else:
        chosen = list(dict.fromkeys(opponents))
        unknown = [o for o in chosen if o not in found]
        if unknown:
            raise ValueError(
                f"no evaluation against {', '.join(unknown)} in the logs; they have: "
                f"{', '.join(found) or 'none (train with --eval-opponents and --eval-every)'}"
            )
    loss_names = [n for n in LOSSES if losses and any(n in row for r in runs for row in r)]
    if not chosen and not loss_names:
        raise ValueError(
            "nothing to draw: the logs have no evaluation scores ('<opponent>/score'; train "
            "with --eval-opponents) and no losses were asked for"
        )
    plt = _pyplot()
    panels = int(bool(chosen)) + int(bool(loss_names))
    fig, axes = plt.subplots(panels, 1, figsize=(9, 3.6 * panels + 0.4), sharex=True, squeeze=False)
    axes = [a[0] for a in axes]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    styles = [("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"), ("-", "v"), ("--", "P")]

    def xs(rows: list[dict[str, float]]) -> list[float]:
        return [r["cpu_seconds"] / 60 if use_cpu else r["iteration"] for r in rows]

    def label(run: str, what: str, whats: int) -> str:
        if len(runs) == 1:
            return what
        return run if whats == 1 else f"{run}: {what}"

    if chosen:
        ax = axes[0]
        for k, (rows, run) in enumerate(zip(runs, labels, strict=True)):
            colour = colours[k % len(colours)]
            for j, opponent in enumerate(chosen):
                points = [r for r in rows if f"{opponent}/score" in r]
                if not points:
                    continue
                score = [r[f"{opponent}/score"] for r in points]
                line, marker = styles[j % len(styles)]
                ax.plot(
                    xs(points),
                    score,
                    linestyle=line,
                    marker=marker,
                    markersize=4,
                    color=colour,
                    label=label(run, opponent, len(chosen)),
                )
                se = [r.get(f"{opponent}/se", math.nan) for r in points]
                if not all(math.isnan(s) for s in se):
                    low = [s - (0 if math.isnan(e) else e) for s, e in zip(score, se, strict=True)]
                    high = [s + (0 if math.isnan(e) else e) for s, e in zip(score, se, strict=True)]
                    ax.fill_between(xs(points), low, high, color=colour, alpha=0.12, linewidth=0)
        ax.set_ylim(-0.03, 1.03)
        ax.set_ylabel("score (win 1, draw ½)")
        against = chosen[0] if len(chosen) == 1 else "each evaluation opponent"
        ax.set_title(f"score against {against} (band: ± 1 standard error)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    if loss_names:
        ax = axes[-1]
        for k, (rows, run) in enumerate(zip(runs, labels, strict=True)):
            colour = colours[k % len(colours)]
            for j, name in enumerate(loss_names):
                points = [r for r in rows if name in r and math.isfinite(r[name])]
                line, marker = styles[j % len(styles)]
                ax.plot(
                    xs(points),
                    [r[name] for r in points],
                    linestyle=line,
                    marker=marker,
                    markersize=3,
                    color=colour,
                    label=label(run, f"{name} loss", 2),
                )
        ax.set_ylabel("loss")
        ax.set_title("training losses")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    axes[-1].set_xlabel(
        "training CPU minutes (self-play, training and evaluation)" if use_cpu else "iteration"
    )
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    out = Path(out)
    try:
        fig.savefig(out, dpi=110)
    finally:
        plt.close(fig)
    return out


def _cmd_plot_training(args: argparse.Namespace) -> int:
    opponents = None
    if args.opponents:
        opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    try:
        import matplotlib  # noqa: F401
    except ImportError:  # the command's one clear line, not a traceback
        raise ValueError("plot-training needs matplotlib: pip install 'stratagem[plot]'") from None
    path = plot_training_curves(
        args.logs,
        args.out,
        opponents=opponents,
        x=args.x,
        losses=not args.no_losses,
        title=args.title,
    )
    print(f"wrote {path} ({len(args.logs)} run{'s' if len(args.logs) > 1 else ''})")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``plot-training``."""
    p = subparsers.add_parser(
        "plot-training",
        help="draw training curves (scores against the baselines, losses) from training logs",
        description=(
            "Read the 'iteration i/n: {...}' lines that 'stratagem train alphazero' writes to "
            "stderr (save them with 2> run.log) and draw, for every run, the score against each "
            "evaluation opponent with its standard error and the policy and value losses, over "
            "training CPU minutes (or iterations), as one PNG. Needs matplotlib: "
            "pip install 'stratagem[plot]'."
        ),
    )
    p.add_argument("logs", nargs="+", help="training logs, one per run")
    p.add_argument(
        "--out", "-o", default="training_curves.png", help="PNG to write (training_curves.png)"
    )
    p.add_argument(
        "--opponents",
        default=None,
        help="comma-separated evaluation opponents to draw (default: every one in the logs)",
    )
    p.add_argument(
        "--x",
        choices=_X_AXES,
        default="auto",
        help="x axis: training CPU minutes, iterations, or auto (CPU minutes where logged)",
    )
    p.add_argument("--no-losses", action="store_true", help="draw the scores only")
    p.add_argument("--title", default=None, help="figure title")
    p.set_defaults(func=_cmd_plot_training)
