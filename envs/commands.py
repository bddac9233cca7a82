"""``stratagem games``: the registered games with their facts and options."""

from __future__ import annotations

import argparse
import json

from stratagem.envs.registry import game_entry, list_games, make_game

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``games``."""
    games = subparsers.add_parser("games", help="list the games with their facts and options")
    games.add_argument("--json", action="store_true", help="print JSON instead of text")
    games.set_defaults(func=_cmd_games)


def _cmd_games(args: argparse.Namespace) -> int:
    rows = []
    for name in list_games():
        entry = game_entry(name)
        spec = make_game(name).spec
        rows.append(
            {
                "name": name,
                "description": entry.description,
                "players": spec.num_players,
                "action_size": spec.action_size,
                "observation_shape": list(spec.observation_shape),
                "max_game_length": spec.max_game_length,
                "deterministic": spec.deterministic,
                "perfect_information": spec.perfect_information,
                "options": dict(entry.defaults),
                "gymnasium_id": entry.env_id,
                "pettingzoo_module": f"stratagem.envs.{name}_v0",
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        print(f"{row['name']}: {row['description']}")
        for key in (
            "players",
            "action_size",
            "observation_shape",
            "max_game_length",
            "deterministic",
            "perfect_information",
            "options",
            "gymnasium_id",
            "pettingzoo_module",
        ):
            print(f"  {key:<20} {row[key]}")
    return 0
