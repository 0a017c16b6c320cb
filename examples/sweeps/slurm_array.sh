#!/usr/bin/env bash
# A sweep as a Slurm array job: N shards run in parallel, each into its own
# database; a last job merges them.
#
#   sbatch --array=0-7 examples/sweeps/slurm_array.sh examples/sweeps/procrustes.yaml results/procrustes
#   # when all shards are done (or as a dependent job: sbatch --dependency=afterok:JOBID ...):
#   build/trainloop db merge results/procrustes.db results/procrustes.shard-*.db
#
# A shard that is killed (preempted, out of time) resumes where it stopped
# when resubmitted: `sbatch --array=3 ...` reruns only that shard.
#SBATCH --job-name=trainloop-sweep
#SBATCH --cpus-per-task=4
#SBATCH --time=12:00:00
#SBATCH --output=trainloop-sweep-%A_%a.log
set -euo pipefail

sweep=${1:?usage: slurm_array.sh SWEEP.yaml OUT_PREFIX}
prefix=${2:?usage: slurm_array.sh SWEEP.yaml OUT_PREFIX}
shards=${SLURM_ARRAY_TASK_COUNT:?run as an array job: sbatch --array=0-N ...}
index=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0} + 1))   # 1-based shard number

mkdir -p "$(dirname "$prefix")"
# Not a terminal: progress is a plain line every 10 s in the job's log.
build/trainloop sweep "$sweep" --db "$prefix.shard-$index.db" \
  --shard "$index/$shards" --threads "${SLURM_CPUS_PER_TASK:-0}"
