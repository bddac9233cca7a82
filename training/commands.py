"""``stratagem train alphazero|ppo <game>``: a command line built by tyro from the config classes.

Every field of :class:`~stratagem.training.config.AlphaZeroConfig` and
:class:`~stratagem.training.config.PPOConfig` is an option (``--games-per-iteration 64``,
``--progress``/``--no-progress``), documented by the string under the field and shown with its
real default; game options are ``-c key=value``; ``--config run.toml`` loads a saved
configuration (command-line options win) and ``--save-config run.toml`` writes the resolved one
and exits. Configurations are checked before any work starts.

`tyro <https://brentyi.github.io/tyro/>`_ (in the ``train`` extra) turns the fields into
options. The code here only adds what tyro has no notion of: the TOML file, whose values
become the defaults of the parse (so ``--help`` with ``--config`` shows them too), the game and
its ``-c`` options, and agent-spec lists written with commas (``"mcts:budget=500,c=1,random"``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import typing
from collections.abc import Sequence
from typing import Annotated, Any

from stratagem.training.config import AlphaZeroConfig, PPOConfig

__all__ = ["parse_train_args", "register"]

_ALGORITHMS = {"alphazero": AlphaZeroConfig, "ppo": PPOConfig}

#: Fields set by the positional game and the ``-c`` options rather than by options of their own.
_GAME_FIELDS = ("game", "game_config")

_TRAIN_EXTRA = "pip install 'stratagem[train]'"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``train`` with one sub-subcommand per algorithm.

    argparse only routes ``train <algorithm>`` here: everything after the algorithm's name
    (``--help`` included) goes to tyro untouched. A prefix character that no argument uses
    keeps argparse from reading any of it as an option of its own.
    """
    train = subparsers.add_parser("train", help="train AlphaZero or masked PPO on a game")
    algos = train.add_subparsers(dest="algorithm", metavar="ALGORITHM")
    for algo, cls in _ALGORITHMS.items():
        parser = algos.add_parser(
            algo,
            help=f"{algo} training ('stratagem train {algo} --help' lists every option)",
            add_help=False,
            prefix_chars="\x00",
        )
        parser.add_argument("train_args", nargs=argparse.REMAINDER)
        parser.set_defaults(func=_cmd_train, config_class=cls, algo=algo)
    train.set_defaults(func=lambda args: train.print_help() or 2)


@dataclasses.dataclass
class TrainArgs:
    """A parsed ``stratagem train`` command line."""

    config: Any
    """The resolved configuration (not yet validated)."""
    save_config: str | None
    """Where to write ``config`` as TOML instead of training, if anywhere."""


def parse_train_args(algo: str, argv: Sequence[str]) -> TrainArgs:
    """Parse the arguments of ``stratagem train <algo>``: TOML file first, options win.

    Raises:
        ValueError: For a missing or malformed config file, an unknown key in it, or a value of
            the wrong type.
        SystemExit: From tyro, for ``--help`` and for a malformed command line.
    """
    try:
        import docstring_parser
        import tyro

        from stratagem.training.common import config_from_mapping, load_toml
    except ImportError as exc:
        raise ValueError(f"training needs the train extra ({_TRAIN_EXTRA}): {exc}") from exc

    cls = _ALGORITHMS[algo]
    # tyro has no config files: read --config first, and its values become the parse's defaults
    pre = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    pre.add_argument("--config")
    config_file = pre.parse_known_args(list(argv))[0].config
    values: dict[str, Any] = load_toml(config_file) if config_file else {}
    defaults = config_from_mapping(cls, values)
    options = _options_class(cls, defaults, docstring_parser, tyro, game_given="game" in values)
    parsed = tyro.cli(
        options, args=list(argv), prog=f"stratagem train {algo}", registry=_registry(tyro)
    )

    from stratagem.envs.cli_options import parse_config

    game_config = dict(defaults.game_config)
    game_config.update(parse_config(list(parsed.game_option)))
    resolved: dict[str, Any] = {"game": parsed.game, "game_config": game_config}
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if f.name in _GAME_FIELDS:
            continue
        value = getattr(parsed, f.name)
        if value is not None and _is_list(hints[f.name]):
            value = _agent_specs(value)
        resolved[f.name] = value
    return TrainArgs(config=config_from_mapping(cls, resolved), save_config=parsed.save_config)


def _options_class(
    cls: type, defaults: Any, docstring_parser: Any, tyro: Any, *, game_given: bool = False
) -> type:
    """The dataclass tyro parses: ``cls``'s fields with ``defaults``, plus game and file options.

    GAME is required unless the config file names the game (``game_given``), which a saved
    configuration does: ``stratagem train alphazero --config run.toml`` then trains it.

    The help of each field is the string written under it, read by ``docstring_parser`` (the
    library tyro itself uses) with its line breaks joined: tyro's own reading keeps the breaks
    of an indented multi-line attribute docstring, which ragged the help text.
    """
    arg = tyro.conf.arg
    docs = {
        p.arg_name: " ".join((p.description or "").split())
        for p in docstring_parser.parse_from_object(cls).params
    }
    hints = typing.get_type_hints(cls)
    game = Annotated[str, tyro.conf.Positional, arg(metavar="GAME", help=_GAME_HELP)]
    fields: list[tuple[str, Any, Any]] = [
        ("game", game, dataclasses.field(default=defaults.game)) if game_given else ("game", game),
        (
            "game_option",
            Annotated[
                tuple[str, ...],
                tyro.conf.UseAppendAction,
                arg(aliases=("-c",), metavar="KEY=VALUE", help=_GAME_OPTION_HELP),
            ],
            dataclasses.field(default=()),
        ),
        (
            "config_file",
            Annotated[str | None, arg(name="config", metavar="PATH", help=_CONFIG_HELP)],
            dataclasses.field(default=None),
        ),
        (
            "save_config",
            Annotated[str | None, arg(metavar="PATH", help=_SAVE_CONFIG_HELP)],
            dataclasses.field(default=None),
        ),
    ]
    for f in dataclasses.fields(cls):
        if f.name in _GAME_FIELDS:
            continue
        value = getattr(defaults, f.name)
        default = (
            dataclasses.field(default_factory=lambda v=value: list(v))
            if isinstance(value, list)
            else dataclasses.field(default=value)
        )
        hint = Annotated[hints[f.name], arg(help=docs.get(f.name, ""))]
        fields.append((f.name, hint, default))
    return dataclasses.make_dataclass(
        f"{cls.__name__}Options", fields, namespace={"__doc__": cls.__doc__}
    )


def _registry(tyro: Any) -> Any:
    """The types tyro knows, with ``none`` and ``null`` read as ``None`` as well as ``None``.

    The command line read them so before it was built with tyro (``--threads none``), and
    scripts may still write them.
    """
    registry = tyro.constructors.ConstructorRegistry()

    @registry.primitive_rule
    def _none(type_info: Any) -> Any:
        if type_info.type is not type(None):
            return None
        return tyro.constructors.PrimitiveConstructorSpec(
            nargs=1,
            metavar="{None}",
            choices=("None", "none", "null"),
            instance_from_str=lambda args: None,
            is_instance=lambda x: x is None,
            str_from_instance=lambda instance: ["None"],
        )

    return registry


_GAME_HELP = (
    "Game name (see 'stratagem games'); replaces the config file's game, and may be left out "
    "when that file names one."
)
_GAME_OPTION_HELP = (
    "Game option, repeatable (e.g. -c map=kwah); added to the config file's game_config."
)
_CONFIG_HELP = (
    "TOML file of options (as --save-config writes it); options given on the command line win, "
    "and --help after it shows its values as the defaults."
)
_SAVE_CONFIG_HELP = "Write the resolved options as TOML to this file and exit without training."


def _is_list(hint: Any) -> bool:
    """Whether a field's type is a list (``list[str]`` or ``list[str] | None``)."""
    if typing.get_origin(hint) is list:
        return True
    return any(typing.get_origin(a) is list for a in typing.get_args(hint))


def _agent_specs(items: Sequence[str]) -> list[str]:
    """Agent specs given apart (``random rule_based``) or comma-joined (``mcts:c=1,random``).

    A comma before ``key=value`` continues the previous spec's parameters, as everywhere else
    agent lists are written.
    """
    from stratagem.baselines.tournament import split_agent_list

    return [spec for item in items for spec in split_agent_list(item)]


def _cmd_train(args: argparse.Namespace) -> int:
    from stratagem.training.common import to_toml

    parsed = parse_train_args(args.algo, args.train_args)
    config = parsed.config
    config.validate()
    if parsed.save_config:
        with open(parsed.save_config, "w", encoding="utf-8") as fh:
            fh.write(to_toml(dataclasses.asdict(config)))
        print(f"configuration written to {parsed.save_config}")
        return 0
    try:
        if args.algo == "alphazero":
            from stratagem.training.alphazero import completed_run, train
        else:
            from stratagem.training.ppo import completed_run, train
    except ImportError as exc:
        raise ValueError(f"training needs the train extra ({_TRAIN_EXTRA}): {exc}") from exc
    finished = completed_run(config)
    if finished is not None:  # a rerun of a finished command: say so, not "{}"
        print(finished)
        return 0
    import logging

    if not logging.getLogger().handlers:  # the per-iteration log line of long runs
        logging.basicConfig(level=logging.INFO, format="%(message)s")
    result = train(config)
    print(json.dumps(result, indent=2, default=str))
    return 0
