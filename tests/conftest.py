"""Fixtures shared by the test files."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """Torch on one thread for the test, then as it was.

    Small networks run fastest on one thread, and it keeps runs reproducible.
    """
    torch = pytest.importorskip("torch")
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)
