#!/usr/bin/env bash
# A sweep as a Slurm array job: array task I (0, 1, ..., N-1) runs shard I+1
# of N, each into its own database; then merge them.
#
#   sbatch --array=0-7 examples/sweeps/slurm_array.sh examples/sweeps/procrustes.yaml results/procrustes
#   # when all shards are done (or as a dependent job: sbatch --dependency=afterok:JOBID ...):
#   build/trainloop db merge results/procrustes.db results/procrustes.shard-*.db
#
# A shard that is killed (preempted, out of time) resumes where it stopped
# when resubmitted alone; then give the number of shards as a third argument
# (a one-task array cannot know it): `sbatch --array=3 ... SWEEP PREFIX 8`
# reruns only shard 4 of 8.
#
# The job runs build/trainloop in the directory it was submitted from: submit
# from the repository's root, or name the binary in TRAINLOOP (sbatch passes
# the environment on), e.g. `TRAINLOOP=$PWD/build-rel/trainloop sbatch ...`.
# tests/slurm/run_slurm_sweep.sh runs this script on a one-node Slurm.
#SBATCH --job-name=trainloop-sweep
#SBATCH --cpus-per-task=4
#SBATCH --time=12:00:00
#SBATCH --output=trainloop-sweep-%A_%a.log
set -euo pipefail

usage="usage: sbatch --array=0-N slurm_array.sh SWEEP.yaml OUT_PREFIX [SHARDS]"
sweep=${1:?$usage}
prefix=${2:?$usage}
task=${SLURM_ARRAY_TASK_ID:?run as an array job: $usage}
shards=${3:-${SLURM_ARRAY_TASK_COUNT:?run as an array job: $usage}}
index=$((task + 1)) # 1-based shard number
if ((index > shards)); then
  echo "slurm_array.sh: array task $task is past the last of $shards shards" \
    "(array indexes run from 0 to SHARDS-1)" >&2
  exit 2
fi

mkdir -p "$(dirname "$prefix")"
# Not a terminal: progress is a plain line every 10 s in the job's log.
"${TRAINLOOP:-build/trainloop}" sweep "$sweep" --db "$prefix.shard-$index.db" \
  --shard "$index/$shards" --threads "${SLURM_CPUS_PER_TASK:-0}"
