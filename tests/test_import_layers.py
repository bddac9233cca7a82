"""Each layer imports only the layers below it: envs <- baselines <- wrappers <- training <- CLI.

The rule is read from the source, not from what happens to be in ``sys.modules`` after an
import: every ``import`` and ``from ... import`` statement of every module is parsed with
:mod:`ast`, those inside functions, methods and ``if TYPE_CHECKING:`` blocks included, because
a deferred import is still a dependency (it only fails later, in someone else's process).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Folder -> (subpackage under ``stratagem``, rank); a module may import ranks up to its own.
#: The CLI package (folder ``stratagem/``) is ``stratagem`` itself and the top layer.
LAYERS: dict[str, tuple[str, int]] = {
    "envs": ("envs", 0),
    "baselines": ("baselines", 1),
    "wrappers": ("wrappers", 2),
    "training": ("training", 3),
    "stratagem": ("", 4),
}
_RANK_OF_AREA = {area: rank for area, rank in LAYERS.values() if area}
_NAME_OF_RANK = {
    rank: f"stratagem.{area}" if area else "stratagem (CLI)" for area, rank in LAYERS.values()
}


def _module_name(folder: str, path: Path) -> str:
    """Dotted module name of ``path`` (a file under ``ROOT / folder``)."""
    area = LAYERS[folder][0]
    parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["stratagem", *([area] if area else []), *parts])


def _rank(module: str) -> int | None:
    """Layer rank of an absolute module name; ``None`` for modules outside stratagem."""
    parts = module.split(".")
    if parts[0] != "stratagem":
        return None
    if len(parts) == 1:  # ``import stratagem``: the CLI package's __init__
        return LAYERS["stratagem"][1]
    return _RANK_OF_AREA.get(parts[1], LAYERS["stratagem"][1])


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every module an import statement of ``source`` names, with its line, made absolute.

    ``from stratagem import baselines`` names ``stratagem.baselines`` (a submodule imported by
    name), so each name of a ``from`` import is checked as a possible submodule too.
    """
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return found


def _modules() -> list[tuple[str, Path, int]]:
    out = []
    for folder, (_, rank) in LAYERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            out.append((folder, path, rank))
    return out


def upward_imports() -> list[str]:
    """``path:line: module imports target (layer)`` for every import of a higher layer."""
    problems: dict[tuple[str, int], str] = {}
    for folder, path, rank in _modules():
        module = _module_name(folder, path)
        where = str(path.relative_to(ROOT))
        for line, target in imported_modules(
            path.read_text(encoding="utf-8"), module, path.name == "__init__.py"
        ):
            target_rank = _rank(target)
            if target_rank is not None and target_rank > rank:
                problems.setdefault(
                    (where, line),
                    f"{where}:{line}: {module} imports {target} "
                    f"({_NAME_OF_RANK[target_rank]} is above {_NAME_OF_RANK[rank]})",
                )
    return [problems[key] for key in sorted(problems)]


def test_every_layer_has_modules() -> None:
    """The scan sees every area (a renamed folder must not make the check vacuous)."""
    seen = {folder for folder, _, _ in _modules()}
    assert seen == set(LAYERS)
    assert sum(1 for _ in _modules()) > 50


def test_no_layer_imports_a_layer_above_it() -> None:
    """envs imports no baselines/wrappers/training/CLI, baselines no wrappers/training/CLI, ..."""
    problems = upward_imports()
    assert not problems, "upward imports:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("source", "module", "is_package", "expected"),
    [
        ("import stratagem", "stratagem.envs.testing", False, "stratagem"),
        ("from stratagem import baselines", "stratagem.envs.x", False, "stratagem.baselines"),
        (
            "def f():\n    from ..baselines import agent",
            "stratagem.envs.x",
            False,
            "stratagem.baselines",
        ),
        ("from ... import training", "stratagem.baselines.cotg_combat", True, "stratagem.training"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import stratagem.cli",
            "stratagem.training.common",
            False,
            "stratagem.cli",
        ),
    ],
)
def test_the_scan_sees_every_form_of_import(
    source: str, module: str, is_package: bool, expected: str
) -> None:
    """Deferred, relative and ``from package import submodule`` imports are all found."""
    assert expected in {target for _, target in imported_modules(source, module, is_package)}
