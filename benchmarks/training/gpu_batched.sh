#!/bin/bash
# The batched engine on a CUDA machine (issues 13 and 20; docs/benchmarks.md, "Batched games"):
# random steps/s of both batched games, eager and compiled, at large batches, then batched
# self-play (games, Gumbel trees and network on the GPU) in positions and leaf evaluations per
# second, with nvidia-smi sampling the GPU's utilisation every second. Run from the repository
# root; writes its logs into ${OUT:-gpu_results}. About 8 minutes on one H100.
set -e
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
out=${OUT:-gpu_results}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader -l 1 \
  > "$out/batched_smi.csv" &
smi=$!
trap 'kill $smi' EXIT
python3 benchmarks/batched_speed.py --game all --device cuda --batch-sizes 1024,4096,16384,65536 \
  --seconds 2 --rounds 2 --compile | tee "$out/batched_speed.txt"
for parallel in 1024 4096; do
  python3 benchmarks/selfplay_engines.py --device cuda --engines batched --parallel $parallel \
    --games $parallel --rounds 1 --simulations 32 --network small \
    | tee "$out/selfplay_batched_$parallel.txt"
done
