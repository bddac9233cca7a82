"""A window that shows the games' pictures: the environments' ``render_mode="human"``.

Gymnasium's own environments draw their human mode with pygame; this project already draws every
picture with Pillow (:mod:`stratagem.envs.picture`) and has matplotlib as its ``plot`` extra, so
the window is a matplotlib figure showing the ``rgb_array`` frame at its true size (one picture
pixel per screen pixel at 100 dpi). It is updated in place on every frame and paced at the
environment's ``metadata["render_fps"]``, as Gymnasium's convention asks of human rendering.

matplotlib is imported only when a window is wanted, so the environments work without it. Where
no window can be shown, :class:`DisplayError` says what is missing: matplotlib itself (``pip
install 'stratagem[plot]'``), or a display (matplotlib then falls back to a backend that draws
no window, such as ``Agg`` on a server without ``DISPLAY``).

Tests and checkers that exercise human mode without a display (Gymnasium's ``check_env`` makes
the environment in every listed render mode) run it inside :func:`offscreen`, the counterpart of
pygame's ``SDL_VIDEODRIVER=dummy``: the same figure is drawn on an off-screen canvas, nothing
waits, and the frames come back as arrays. Where the code that makes the environment is not
yours (a library's checker, worker processes), the environment variable
``STRATAGEM_OFFSCREEN=1`` does the same for the whole process (nothing is shown, nothing
waits, no frame is kept).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from stratagem.envs.core import State

__all__ = [
    "NON_INTERACTIVE_BACKENDS",
    "OFFSCREEN_VARIABLE",
    "DisplayError",
    "PictureWindow",
    "offscreen",
    "render_state",
    "require_display",
]

#: matplotlib's built-in backends that draw files, not windows (lower case). A backend given as
#: ``module://...`` (ipympl in a notebook, say) is trusted to show something.
NON_INTERACTIVE_BACKENDS: frozenset[str] = frozenset(
    {"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"}
)
#: Dots per inch of the window's figure: 100 makes one picture pixel one screen pixel.
_DPI = 100
#: The frame lists of the :func:`offscreen` blocks now open, innermost last.
_OFFSCREEN: list[list[np.ndarray]] = []
#: The environment variable that makes every human window of the process draw off-screen.
OFFSCREEN_VARIABLE = "STRATAGEM_OFFSCREEN"


def _offscreen_now() -> bool:
    """Inside :func:`offscreen`, or ``STRATAGEM_OFFSCREEN`` set to anything but ``""``/``0``."""
    return bool(_OFFSCREEN) or os.environ.get(OFFSCREEN_VARIABLE, "") not in ("", "0")


class DisplayError(RuntimeError):
    """``render_mode="human"`` cannot show a window; the message names what is missing."""


def _matplotlib() -> ModuleType:
    try:
        import matplotlib
    except ImportError as exc:
        raise DisplayError(
            "render_mode='human' shows the pictures in a matplotlib window, and matplotlib is "
            "not installed: pip install 'stratagem[plot]' (or use render_mode='rgb_array' and "
            "show the frames yourself)"
        ) from exc
    return matplotlib


def require_display() -> ModuleType | None:
    """``matplotlib.pyplot``, once it is known that it can show a window.

    Returns:
        The ``matplotlib.pyplot`` module, or ``None`` inside :func:`offscreen` or with
        ``STRATAGEM_OFFSCREEN=1`` (where matplotlib is needed, and no display).

    Raises:
        DisplayError: If matplotlib is not installed, or (drawing on screen) its backend draws
            no window: no display, or a file backend chosen with ``MPLBACKEND`` or
            ``matplotlib.use``.
    """
    matplotlib = _matplotlib()
    if _offscreen_now():
        return None
    try:
        backend = str(matplotlib.get_backend())
        import matplotlib.pyplot as plt
    except (ImportError, RuntimeError) as exc:  # an interactive backend named, but no display
        raise DisplayError(
            f"render_mode='human' cannot open a window: matplotlib's backend failed to load "
            f"({exc}); run where a display is available, or use render_mode='rgb_array'"
        ) from exc
    if backend.lower() in NON_INTERACTIVE_BACKENDS:
        raise DisplayError(
            f"render_mode='human' needs a display, but matplotlib's backend is {backend!r}, "
            "which draws no window (matplotlib picks it where no display is available, e.g. "
            "DISPLAY is not set). Run where a display is available, choose an interactive "
            "backend (MPLBACKEND=TkAgg or QtAgg), or use render_mode='rgb_array' to get the "
            f"pictures as arrays; to run human mode without a display (checkers, tests), set "
            f"{OFFSCREEN_VARIABLE}=1 or use stratagem.envs.window.offscreen()"
        )
    return plt


@contextlib.contextmanager
def offscreen() -> Iterator[list[np.ndarray]]:
    """Within the block, human-mode windows draw off-screen and do not wait.

    For tests and checkers on machines without a display, as pygame's
    ``SDL_VIDEODRIVER=dummy`` is for Gymnasium's own environments: the window's figure is drawn
    on an ``Agg`` canvas (pyplot and its backend are left alone), and every frame shown, as the
    window's pixels, is appended to the list the block receives. matplotlib is still needed.

    Yields:
        The list of frames shown in the block (``H × W × 3`` uint8 arrays).
    """
    frames: list[np.ndarray] = []
    _OFFSCREEN.append(frames)
    try:
        yield frames
    finally:
        _OFFSCREEN.remove(frames)


class PictureWindow:
    """One matplotlib window showing the latest picture of an environment.

    Args:
        title: The window's title (the environment's name).
        fps: Frames per second: :meth:`show` waits ``1 / fps`` seconds, running the window's
            event loop so that it redraws and stays responsive.

    Attributes:
        figure: The matplotlib figure, ``None`` before the first frame or after :meth:`close`.

    Raises:
        ValueError: If ``fps`` is not positive.
    """

    def __init__(self, title: str, fps: float) -> None:
        if not fps > 0:
            raise ValueError(f"fps must be positive, got {fps!r}")
        self.title = title
        self.fps = float(fps)
        self.figure: Any = None
        self._image: Any = None
        self._offscreen = False

    def show(self, frame: np.ndarray) -> None:
        """Show ``frame`` (``H × W × 3`` uint8), opening the window if needed.

        A window the user closed is opened again on the next frame; a frame of another size
        (a game whose picture grows) gets a window of the new size.

        Raises:
            DisplayError: If no window can be shown (see :func:`require_display`).
        """
        plt = require_display()
        offscreen_now = plt is None
        fresh = (
            self.figure is None
            or self._offscreen != offscreen_now
            or (not offscreen_now and not plt.fignum_exists(self.figure.number))
            or self._image.get_array().shape != frame.shape
        )
        if fresh:
            self.close()
            height, width = frame.shape[:2]
            size = (width / _DPI, height / _DPI)
            if offscreen_now:
                from matplotlib.backends.backend_agg import FigureCanvasAgg
                from matplotlib.figure import Figure

                figure = Figure(figsize=size, dpi=_DPI)
                FigureCanvasAgg(figure)
            else:
                figure = plt.figure(self.title, figsize=size, dpi=_DPI)
                figure.clear()  # plt.figure(title) returns an open figure of that title as it is
            axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
            axes.set_axis_off()
            self._image = axes.imshow(frame, interpolation="nearest")
            self.figure, self._offscreen = figure, offscreen_now
        else:
            self._image.set_data(frame)
        if offscreen_now:
            if _OFFSCREEN:  # the innermost offscreen() block receives the window's pixels
                canvas = self.figure.canvas
                canvas.draw()
                _OFFSCREEN[-1].append(np.asarray(canvas.buffer_rgba())[..., :3].copy())
        else:
            self._present(fresh)

    def _present(self, opened: bool) -> None:
        """The calls that reach the screen: show a new window, redraw, wait ``1 / fps``."""
        canvas = self.figure.canvas
        if opened:
            canvas.manager.show()
        canvas.draw_idle()
        canvas.start_event_loop(1.0 / self.fps)

    def close(self) -> None:
        """Close the window, if one is open."""
        if self.figure is not None and not self._offscreen:
            import matplotlib.pyplot as plt

            plt.close(self.figure)
        self.figure = None
        self._image = None


def human_window(
    render_mode: str | None, title: str, fps: float, pictures: bool
) -> PictureWindow | None:
    """The window of an environment's ``render_mode="human"`` (``None`` for other modes).

    Args:
        render_mode: The environment's render mode.
        title: The window's title.
        fps: Its frame rate (``metadata["render_fps"]``).
        pictures: Whether the game draws pictures (else human mode prints text, no window).

    Raises:
        DisplayError: Now, at the environment's construction, rather than at its first step,
            where a game with pictures cannot show a window.
    """
    if render_mode != "human":
        return None
    if pictures:
        require_display()
    return PictureWindow(title, fps)


def render_state(
    render_mode: str | None, state: State, window: PictureWindow | None
) -> str | np.ndarray | None:
    """What an environment's ``render()`` returns for ``state``: one rule for every view.

    The PettingZoo and Gymnasium views render alike, as their conventions ask: ``None`` without
    a render mode, the picture for ``rgb_array``, ``None`` after showing it (or printing the text
    board of a game without pictures) for ``human``, and the text board for ``ansi``.

    Args:
        render_mode: The environment's render mode.
        state: The position to render.
        window: The environment's :func:`human_window` (made in human mode).
    """
    if render_mode is None:
        return None
    if render_mode == "rgb_array":
        return state.render_rgb()
    if render_mode == "human":
        if state.render_module is None:  # a game without pictures: its text board
            print(state)
        else:
            assert window is not None  # made with the env in human mode
            window.show(state.render_rgb())
        return None
    return str(state)
