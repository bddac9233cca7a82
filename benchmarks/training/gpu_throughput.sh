#!/bin/bash
# Self-play throughput on a CUDA machine: the network alone, then actor processes with the
# network on the GPU (docs/results/training.md, "GPU"). Run from the repository root; writes
# JSON into ${OUT:-gpu_results}. Games are cut at 30 decisions (--max-moves) so that each phase
# measures the steady state rather than the last games of a phase running alone.
set -e
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
out=${OUT:-gpu_results}
mkdir -p "$out"
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader -l 1 > "$out/smi.csv" &
smi=$!
trap 'kill $smi' EXIT
for game in "push_them_all -c map=pta" "kill_the_king -c map=small"; do
  name=$(echo "$game" | tr -c 'a-z' '_' | cut -c1-24)
  python3 benchmarks/alphazero_batching.py $game --device cuda --batches 1,16,64,256,1024,4096 \
    --seconds 2 --out "$out/net_$name.json"
done
bench="python3 benchmarks/alphazero_actors.py --simulations 32 --rounds 1 --device cuda --max-moves 30"
$bench push_them_all -c map=pta --parallel-games 32 --games 32 --actors 1 --out "$out/act_pta_1.json"
$bench push_them_all -c map=pta --parallel-games 960 --games 960 --actors 15 --out "$out/act_pta_15_64.json"
$bench push_them_all -c map=pta --parallel-games 1024 --games 1024 --actors 16:2 --out "$out/act_pta_16_2_64.json"
$bench kill_the_king -c map=small --parallel-games 960 --games 960 --actors 15 --out "$out/act_ktk_15_64.json"
