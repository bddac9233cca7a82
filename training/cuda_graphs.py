"""The network's inference forward pass replayed from CUDA graphs, one graph per batch bucket.

Self-play evaluates leaves with the tiny network in batches of a few hundred to a few thousand
positions. On a GPU each such pass is bound by launching its ~30 modules' kernels from Python
(measured on an H100: 4.9 s of 9.8 s of forward passes in a 35 s self-play phase, see
docs/results/training.md), not by the arithmetic. A CUDA graph records the kernels of one
forward pass once and replays them with one launch; batches are padded up to the next power
of two so that a handful of graphs serve every batch size.

Why replay stays correct while the network trains between self-play phases: a graph reads the
parameters and buffers at the addresses it recorded, and the optimizer and
``load_state_dict`` update them in place. A forward pass checks those addresses and records
again if any has moved (a network moved to another device, parameters replaced). The rows
that pad a batch hold stale inputs; in eval mode every row's outputs depend on that row alone
(batch norm uses its running statistics, global pooling pools within a position), so they do
not leak into the answered rows.
"""

from __future__ import annotations

from typing import Any

import torch

__all__ = ["CudaGraphForward", "bucket_rows"]

#: The smallest bucket: below it, padding costs nothing measurable and saves graphs.
MIN_ROWS = 8


def bucket_rows(n: int, max_rows: int) -> int:
    """The rows of the graph that serves a batch of ``n`` positions.

    Args:
        n: Positions in the batch, at least 1.
        max_rows: The largest graph; larger batches are cut into parts of this size.

    Returns:
        The next power of two ``>= n`` (at least :data:`MIN_ROWS`), capped at ``max_rows``.
    """
    if n < 1:
        raise ValueError(f"a batch needs at least one position, got {n}")
    rows = MIN_ROWS
    while rows < n:
        rows *= 2
    return min(rows, max_rows)


class CudaGraphForward:
    """``observations -> (logits, values)`` on CUDA, replayed from captured graphs.

    Outputs are float32 tensors on the device, fresh for each call (the graph's own output
    buffers are overwritten by the next replay). Autocast to bfloat16 is recorded into the
    graphs, as the eager self-play forward runs it.

    Args:
        net: The policy-value network, already on ``device``; it is switched to eval mode
            for every capture and left in eval mode.
        device: A CUDA device.
        max_rows: The largest batch one replay covers (a power of two).

    Raises:
        ValueError: For a device that is not CUDA or a ``max_rows`` that is not a power of
            two of at least :data:`MIN_ROWS`.
    """

    def __init__(self, net: torch.nn.Module, device: torch.device | str, max_rows: int = 4096):
        if max_rows < MIN_ROWS or max_rows & (max_rows - 1):
            raise ValueError(f"max_rows must be a power of two >= {MIN_ROWS}, got {max_rows}")
        device = torch.device(device)
        if device.type != "cuda":
            raise ValueError(f"CUDA graphs need a CUDA device, got {device}")
        self.net, self.device, self.max_rows = net, device, max_rows
        self._graphs: dict[int, tuple[Any, torch.Tensor, torch.Tensor, torch.Tensor]] = {}
        self._pool: Any = None
        self._addresses: tuple[int, ...] = ()

    def _tensor_addresses(self) -> tuple[int, ...]:
        return tuple(t.data_ptr() for t in (*self.net.parameters(), *self.net.buffers()))

    def _capture(self, rows: int, shape: tuple[int, ...]) -> tuple[Any, ...]:
        """Record one forward pass of ``rows`` positions (after warm-up passes on a side stream)."""
        self.net.eval()
        static_in = torch.zeros((rows, *shape), dtype=torch.float32, device=self.device)

        def run() -> tuple[torch.Tensor, torch.Tensor]:
            # The autocast weight cache must be off inside a graph (torch's CUDA graph notes).
            with torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False):
                logits, values = self.net(static_in)
            return logits.float(), values.float()

        side = torch.cuda.Stream(self.device)
        side.wait_stream(torch.cuda.current_stream(self.device))
        with torch.cuda.stream(side), torch.no_grad():
            for _ in range(3):  # cuDNN picks its algorithms before capture
                run()
        torch.cuda.current_stream(self.device).wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.no_grad(), torch.cuda.graph(graph, pool=self._pool):
            logits, values = run()
        self._pool = graph.pool()
        return graph, static_in, logits, values

    @torch.no_grad()
    def __call__(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Evaluate ``observations`` ``(n, H, W, C)`` (any device; copied to the graph's input)."""
        if len(observations) == 0:  # nothing to replay; the eager pass gives the empty shapes
            with torch.autocast("cuda", dtype=torch.bfloat16):
                logits, values = self.net(observations.to(self.device))
            return logits.float(), values.float()
        addresses = self._tensor_addresses()
        if addresses != self._addresses:  # parameters moved or replaced: record afresh
            self._graphs.clear()
            self._pool = None
            self._addresses = addresses
        shape = tuple(observations.shape[1:])
        logits_parts, values_parts = [], []
        for start in range(0, len(observations), self.max_rows):
            part = observations[start : start + self.max_rows]
            n = len(part)
            rows = bucket_rows(n, self.max_rows)
            entry = self._graphs.get(rows)
            if entry is None or tuple(entry[1].shape[1:]) != shape:
                entry = self._graphs[rows] = self._capture(rows, shape)
            graph, static_in, logits, values = entry
            static_in[:n].copy_(part, non_blocking=True)
            graph.replay()
            logits_parts.append(logits[:n].clone())
            values_parts.append(values[:n].clone())
        if len(logits_parts) == 1:
            return logits_parts[0], values_parts[0]
        return torch.cat(logits_parts), torch.cat(values_parts)
