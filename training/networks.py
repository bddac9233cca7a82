"""Policy-value networks built from a game's spec alone.

The network reads the game's ``H × W × C`` observation (permuted to ``C × H × W`` for the
convolutions), runs a residual tower, and has two heads:

* a policy head over the flat action space. When the game declares a spatial action layout
  on the observation's board (``spec.action_layout`` with the same ``H × W``), the head is a
  1×1 convolution with one output channel per action plane, flattened in the layout's
  ``plane × H × W`` order, plus a linear head for the global actions (end turn, ...) on pooled
  features: this is the AlphaZero convention and keeps the head small on large boards. Otherwise
  it is a dense layer over the flattened features.
* a value head predicting the outcome for every player, in ``[-1, 1]``, **relative to the player
  to move** (index 0 is the mover, 1 the next seat, ...). Search code rotates it back to seats,
  which is what lets multi-player games and multi-action turns back up per-player values.

Two options (on by default for new runs, off for checkpoints written before they existed):

* ``global_pooling``: every residual block adds a per-channel bias computed from the mean and
  max of its features over the whole board, the policy head gets the same bias and the value
  head reads pooled features (KataGo's global pooling). Every tile then sees the whole board in
  one layer, and, with a spatial policy head, the network has no weight tied to the board's
  size: one network plays every board of a game.
* ``symmetric_value``: in two-player games the head predicts one number ``v`` for the mover and
  returns ``(v, −v)``. Our two-player games are zero-sum, and a second free output lets an
  untrained network's offset between the two outputs alone decide how a turn-ending move (the
  only move valued from the other output) compares with the rest.
"""

from __future__ import annotations

import copy
import dataclasses
import warnings
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from stratagem.envs.core import GameSpec

__all__ = ["PRESETS", "NetworkPreset", "PolicyValueNet", "build_network", "frozen_for_inference"]


@dataclass(frozen=True)
class NetworkPreset:
    """Size of the residual tower.

    Attributes:
        blocks: Number of residual blocks.
        filters: Convolution channels in the tower.
        value_hidden: Width of the value head's hidden layer.
        value_channels: Channels of the value head's 1×1 convolution (AlphaZero: 1).
        policy_channels: Channels of an extra 3×3 convolution + batch norm + ReLU at the start
            of the spatial policy head (0: none, the per-plane 1×1 convolution reads the tower
            directly).
    """

    blocks: int
    filters: int
    value_hidden: int = 64
    value_channels: int = 1
    policy_channels: int = 0


#: ``alphatm`` is the Terra Mystica paper's network (section 2.5.5): 19 residual blocks of 256
#: filters; a policy head that first reduces the tower to 64 channels (the paper's 2×2 stride-2
#: convolution is specific to its 9 × 26 board; a 3×3 convolution keeps any board's size so that
#: the per-plane outputs stay aligned with the action layout); a value head of a 32-filter 1×1
#: convolution, a 264-unit layer and tanh.
PRESETS: dict[str, NetworkPreset] = {
    "tiny": NetworkPreset(blocks=2, filters=32, value_hidden=32),
    "small": NetworkPreset(blocks=4, filters=64),
    "default": NetworkPreset(blocks=8, filters=128, value_hidden=128),
    "alphatm": NetworkPreset(
        blocks=19, filters=256, value_hidden=264, value_channels=32, policy_channels=64
    ),
}


class _ResidualBlock(nn.Module):
    def __init__(self, filters: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(filters)
        self.conv2 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(filters)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


class _PooledResidualBlock(_ResidualBlock):
    """Residual block whose middle features get a bias from their global mean and max."""

    def __init__(self, filters: int) -> None:
        super().__init__(filters)
        self.pool_fc = nn.Linear(2 * filters, filters)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.bn1(self.conv1(x)))
        y = y + self.pool_fc(_pool(y))[:, :, None, None]
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


def _pool(x: torch.Tensor) -> torch.Tensor:
    """``(B, C, H, W)`` -> ``(B, 2C)``: mean and max of every channel over the board."""
    return torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)


class PolicyValueNet(nn.Module):
    """Residual policy-value network for one game configuration.

    Args:
        spec: The game's spec (observation shape, action size and layout, players).
        preset: Tower size.
        global_pooling: KataGo-style global pooling in the tower and heads (see the module
            docstring).
        symmetric_value: One value output ``v`` and its negation in two-player games.
    """

    def __init__(
        self,
        spec: GameSpec,
        preset: NetworkPreset,
        *,
        global_pooling: bool = False,
        symmetric_value: bool = False,
    ) -> None:
        super().__init__()
        self.global_pooling = global_pooling
        self.symmetric_value = symmetric_value and spec.num_players == 2
        height, width, channels = spec.observation_shape
        self.spec_shape = (height, width, channels)
        self.action_size = spec.action_size
        self.num_players = spec.num_players
        filters = preset.filters
        self.stem = nn.Sequential(
            nn.Conv2d(channels, filters, 3, padding=1, bias=False),
            nn.BatchNorm2d(filters),
            nn.ReLU(),
        )
        block = _PooledResidualBlock if global_pooling else _ResidualBlock
        self.tower = nn.Sequential(*[block(filters) for _ in range(preset.blocks)])
        layout = spec.action_layout
        self.spatial = layout is not None and layout.height == height and layout.width == width
        if self.spatial:
            assert layout is not None
            head_in = filters
            self.policy_stem: nn.Module | None = None
            if preset.policy_channels:
                head_in = preset.policy_channels
                self.policy_stem = nn.Sequential(
                    nn.Conv2d(filters, head_in, 3, padding=1, bias=False),
                    nn.BatchNorm2d(head_in),
                    nn.ReLU(),
                )
            self.policy_conv = nn.Conv2d(head_in, len(layout.planes), 1)
            self.num_global = len(layout.global_actions)
            pooled = 2 * head_in if global_pooling else head_in
            self.policy_global = nn.Linear(pooled, self.num_global) if self.num_global else None
            self.policy_pool = nn.Linear(2 * head_in, head_in) if global_pooling else None
        else:
            self.policy_conv = nn.Sequential(
                nn.Conv2d(filters, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU()
            )
            self.policy_fc = nn.Linear(2 * height * width, spec.action_size)
        vch = preset.value_channels
        if global_pooling:  # a single pooled channel says too little: give it a few
            vch = max(vch, min(32, filters))
        self.value_conv = nn.Sequential(
            nn.Conv2d(filters, vch, 1, bias=False), nn.BatchNorm2d(vch), nn.ReLU()
        )
        value_in = 2 * vch if global_pooling else vch * height * width
        self.value_fc = nn.Sequential(
            nn.Linear(value_in, preset.value_hidden),
            nn.ReLU(),
            nn.Linear(preset.value_hidden, 1 if self.symmetric_value else spec.num_players),
            nn.Tanh(),
        )

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits over the flat action space and per-player values (relative to the mover).

        Args:
            obs: ``(B, H, W, C)`` float observations of the player to move.

        Returns:
            ``(B, action_size)`` logits and ``(B, num_players)`` values in ``[-1, 1]``.
        """
        x = self.tower(self.stem(obs.permute(0, 3, 1, 2)))
        batch = x.shape[0]
        if self.spatial:
            head = x if self.policy_stem is None else self.policy_stem(x)
            if self.policy_pool is not None:
                pooled = _pool(head)
                head = head + self.policy_pool(pooled)[:, :, None, None]
            else:
                pooled = head.mean(dim=(2, 3))
            logits = self.policy_conv(head).reshape(batch, -1)
            if self.policy_global is not None:
                logits = torch.cat([logits, self.policy_global(pooled)], dim=1)
        else:
            logits = self.policy_fc(self.policy_conv(x).reshape(batch, -1))
        v = self.value_conv(x)
        values = self.value_fc(_pool(v) if self.global_pooling else v.reshape(batch, -1))
        if self.symmetric_value:
            values = torch.cat([values, -values], dim=1)
        return logits, values


def build_network(
    spec: GameSpec,
    preset: str = "tiny",
    blocks: int | None = None,
    filters: int | None = None,
    *,
    global_pooling: bool = False,
    symmetric_value: bool = False,
) -> PolicyValueNet:
    """The network for ``spec`` from a preset name, optionally overriding its size.

    The two architecture options default to off so that a caller naming only a preset gets the
    network of the checkpoints written before they existed; training configs turn them on.

    Raises:
        ValueError: For an unknown preset or a non-positive size.
    """
    if preset not in PRESETS:
        raise ValueError(f"unknown network preset {preset!r}; presets: {', '.join(PRESETS)}")
    base = PRESETS[preset]
    size = dataclasses.replace(
        base,
        blocks=base.blocks if blocks is None else blocks,
        filters=base.filters if filters is None else filters,
    )
    if size.blocks < 0 or size.filters < 1:
        raise ValueError(f"network size must be blocks >= 0 and filters >= 1, got {size}")
    return PolicyValueNet(
        spec, size, global_pooling=global_pooling, symmetric_value=symmetric_value
    )


def frozen_for_inference(net: PolicyValueNet) -> nn.Module:
    """A traced and frozen copy of ``net`` for inference on the CPU.

    An agent evaluates one position per simulation, and at batch 1 the tiny network spends more
    time in Python's module dispatch and in separate batch-norm calls than in its convolutions:
    the frozen TorchScript copy folds each batch norm into its convolution and runs the graph
    without Python, about 1.6 times faster per position (the eager network with folded batch
    norms gains only 1.15 times). The copy holds the weights of the moment, so it suits a
    network that no longer trains (a loaded checkpoint); the caller's network is left as it
    was. Outputs match the eager network to float rounding, at any batch size.

    TorchScript is deprecated in favour of ``torch.compile``, which compiles for tens of
    seconds per process and shape here; its deprecation warnings are silenced for this one use
    (the project pins ``torch<2.14``, which has it).
    """
    model = copy.deepcopy(net).cpu().eval()
    height, width, channels = net.spec_shape
    example = torch.zeros(1, height, width, channels)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return torch.jit.freeze(torch.jit.trace(model, example))
