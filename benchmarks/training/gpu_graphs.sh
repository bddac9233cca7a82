#!/bin/bash
# CUDA graphs for self-play's forward passes (training/cuda_graphs.py, --cuda-graphs), measured
# against the eager passes on a CUDA machine (issue 13's target: >= 60,000 leaf evaluations/s
# across actors on one H100): the network alone at the batches self-play makes, then actors
# (alternated off/on in one run), then the batched engine. Run from the repository root after
# `python3 -m pytest -m gpu tests/test_cuda_graphs.py`; writes its logs into ${OUT:-gpu_results}.
# About 7 minutes on one H100.
set -e
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
out=${OUT:-gpu_results}
mkdir -p "$out"
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader -l 1 \
  > "$out/graphs_smi.csv" &
smi=$!
trap 'kill $smi' EXIT
for graphs in "" --cuda-graphs; do
  python3 benchmarks/alphazero_batching.py push_them_all -c map=pta --device cuda \
    --batches 64,256,1024,4096 --seconds 2 $graphs --out "$out/net_pta${graphs:+_graphs}.json"
done
bench="python3 benchmarks/alphazero_actors.py --simulations 32 --rounds 1 --device cuda --max-moves 30"
$bench push_them_all -c map=pta --parallel-games 960 --games 960 --actors 15 --cuda-graphs off,on \
  --out "$out/act_pta_15_graphs.json"
$bench push_them_all -c map=pta --parallel-games 1024 --games 1024 --actors 16:2 \
  --cuda-graphs off,on --out "$out/act_pta_16_2_graphs.json"
$bench kill_the_king -c map=small --parallel-games 960 --games 960 --actors 15 --cuda-graphs on \
  --out "$out/act_ktk_15_graphs.json"
for graphs in "" --cuda-graphs; do
  python3 benchmarks/selfplay_engines.py --device cuda --engines batched --parallel 4096 \
    --games 4096 --rounds 1 --simulations 32 --network small $graphs \
    | tee "$out/selfplay_batched_4096${graphs:+_graphs}.txt"
done
