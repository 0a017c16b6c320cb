#!/usr/bin/env bash
# End-to-end test of the Slurm scale-out (examples/sweeps/slurm_array.sh):
# starts a one-node Slurm cluster on localhost in a temporary directory
# (its own MUNGE key and munged socket, its own slurm.conf, ports and spool),
# submits the script as an array job over examples/sweeps/tiny.yaml with a
# merge job that depends on it, drops one shard's database and resubmits only
# that shard (both as the script's comments tell a user to), merges the shards
# again with `trainloop db merge` and requires both merged databases to hold
# exactly what the same sweep run in one process holds.
#
#   tests/slurm/run_slurm_sweep.sh [TRAINLOOP_BINARY]     # default build/trainloop
#
# Needs the Debian packages slurm-wlm and munge (scripts/setup.sh --test). Nothing
# outside the temporary directory is changed: every daemon runs as the
# calling user with its files there, and runs under `timeout` so it cannot
# outlive the test even if the test itself is killed. SLURM_TEST_KEEP=1 keeps
# the directory (configuration, daemon and job logs, databases) for a look.
# ctest runs it as `slurm.array_sweep` (label slurm, tests/CMakeLists.txt).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
trainloop=$(realpath -m "${1:-build/trainloop}")
# Run from inside a Slurm job or with a cluster configured, the commands
# below must still talk to this test's cluster only: none of the caller's
# Slurm settings (SLURM_CONF, SLURM_* of an enclosing job, SBATCH_* options)
# may reach them.
keep=${SLURM_TEST_KEEP:-0}
while read -r name; do unset "$name"; done < <(compgen -e | grep -E '^(SLURM|SBATCH|SQUEUE|SCANCEL|SINFO)_')
sweep=examples/sweeps/tiny.yaml
shards=3
# The test fails by itself after `deadline` s (it takes about 20 s); the
# daemons end by themselves after `daemon_lifetime` s, before ctest's 300 s.
deadline=200
daemon_lifetime=280

say() { echo "slurm-test: $*"; }

missing=()
for tool in munged munge unmunge slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "slurm-test: FAILED: ${missing[*]} not found. This test needs Slurm and MUNGE" \
    "(Debian packages slurm-wlm and munge): run scripts/setup.sh --test." >&2
  exit 1
fi
if [ ! -x "$trainloop" ]; then
  echo "slurm-test: FAILED: no trainloop binary at $trainloop (build it, or pass its path)" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainloop-slurm.XXXXXX")
daemon_pids=()

# Everything that helps to see why a step failed: the daemons' and the jobs'
# logs (last lines) and what slurmctld knows of the jobs.
show_logs() {
  for log in "$tmp"/{munged,slurmctld,slurmd}.{out,log} "$tmp"/jobs/*.log; do
    [ -f "$log" ] || continue
    echo "----- last lines of $log"
    tail -n 25 "$log"
  done
  if [ -n "${SLURM_CONF:-}" ] && [ -S "$tmp/munge.socket" ]; then
    echo "----- scontrol show job"
    timeout 10 scontrol -o show job 2>&1 | tail -n 20 || true
    echo "----- sinfo"
    timeout 10 sinfo -N -l 2>&1 || true
  fi
}

fail() {
  echo "slurm-test: FAILED: $*" >&2
  show_logs >&2
  exit 1
}

cleanup() {
  local status=$?
  set +e
  # Jobs first (their steps are not children of slurmd), then the daemons.
  if [ -n "${SLURM_CONF:-}" ] && [ ${#daemon_pids[@]} -gt 0 ]; then
    timeout 10 scancel --full --user "$(id -un)" 2>/dev/null
    for _ in $(seq 20); do
      [ -z "$(timeout 5 squeue -h 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  # Each daemon runs in the foreground under `timeout`, which passes the
  # signal on; reversed: slurmd, slurmctld, then munged.
  for ((i = ${#daemon_pids[@]} - 1; i >= 0; i--)); do
    kill "${daemon_pids[i]}" 2>/dev/null
    wait "${daemon_pids[i]}" 2>/dev/null
  done
  if [ "$keep" = 1 ]; then
    say "kept $tmp"
  else
    rm -rf "$tmp"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Two free TCP ports on localhost (for slurmctld and slurmd), chosen by the
# kernel so that parallel runs and a system Slurm do not collide.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')

cpus=$(nproc)
user=$(id -un)
mkdir -p "$tmp"/{state,spool,jobs,out}
chmod 755 "$tmp" # munged requires everyone may reach its socket

# MUNGE: a fresh key (only this test's daemons and commands share it) and a
# socket in the temporary directory instead of the system's /run/munge.
head -c 1024 /dev/urandom >"$tmp/munge.key"
chmod 400 "$tmp/munge.key"
timeout "$daemon_lifetime" munged --foreground --key-file="$tmp/munge.key" \
  --socket="$tmp/munge.socket" --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" \
  --seed-file="$tmp/munged.seed" >"$tmp/munged.out" 2>&1 &
daemon_pids+=($!)
for _ in $(seq 100); do
  [ -S "$tmp/munge.socket" ] || ! kill -0 "${daemon_pids[0]}" 2>/dev/null && break
  sleep 0.1
done
munge -n -S "$tmp/munge.socket" | unmunge -S "$tmp/munge.socket" >/dev/null 2>&1 ||
  fail "munged did not start (a credential made through $tmp/munge.socket does not decode):
$(cat "$tmp/munged.out")"

cat >"$tmp/slurm.conf" <<EOF
# A one-node cluster for tests/slurm/run_slurm_sweep.sh.
ClusterName=trainloop-test
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups, no accounting database: nothing the test would have to set up
# on the host. Finished jobs stay visible to scontrol for MinJobAge seconds.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf

timeout "$daemon_lifetime" slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
daemon_pids+=($!)
timeout "$daemon_lifetime" slurmd -D -f "$SLURM_CONF" -N localhost >"$tmp/slurmd.out" 2>&1 &
daemon_pids+=($!)

started=$SECONDS
until [ "$(timeout 5 sinfo -h -N -o %T 2>/dev/null)" = idle ]; do
  if ((SECONDS - started > 30)); then
    fail "the node did not come up idle within 30 s"
  fi
  sleep 0.5
done
say "Slurm up on localhost ($cpus CPUs, ports $ctld_port/$slurmd_port) in $((SECONDS - started)) s"

# Waits until every job listed has left the queue, then requires each of
# them (each task of an array) to have completed with exit code 0.
wait_for_jobs() {
  local what=$1
  shift
  local start=$SECONDS job
  for job in "$@"; do
    while [ -n "$(timeout 10 squeue -h -j "$job" 2>/dev/null)" ]; do
      ((SECONDS < deadline)) ||
        fail "$what: job $job still queued or running after $((SECONDS - start)) s" \
          "(the test's bound is $deadline s)"
      sleep 0.5
    done
    local states
    states=$(timeout 10 scontrol -o show job "$job" | awk '{
      line = ""
      for (i = 1; i <= NF; i++) if ($i ~ /^(JobId|ArrayTaskId|JobState|ExitCode)=/) line = line " " $i
      print substr(line, 2) }')
    [ -n "$states" ] || fail "$what: slurmctld knows nothing of job $job"
    if grep -qv 'JobState=COMPLETED ExitCode=0:0$' <<<"$states"; then
      fail "$what: job $job's tasks did not all complete:"$'\n'"$states"
    fi
  done
  say "$what: done in $((SECONDS - start)) s"
}

# The array job as a user submits it (from the repository, so the script's
# default build/trainloop resolves), except the resources: at most the
# node's CPUs per task, logs in the temporary directory, the binary under test.
prefix=$tmp/out/tiny
submit() {
  TRAINLOOP=$trainloop sbatch --parsable --cpus-per-task=1 --chdir="$repo" \
    --output="$tmp/jobs/%A_%a.log" "$@"
}
job=$(submit --array=0-$((shards - 1)) examples/sweeps/slurm_array.sh "$sweep" "$prefix") ||
  fail "sbatch refused the array job"
job=${job%%;*}
# The merge as the script's comments suggest: a job that starts when every
# shard has succeeded (the shell in the job expands the shards' names).
merge_job=$(sbatch --parsable --dependency=afterok:"$job" --chdir="$repo" \
  --output="$tmp/jobs/merge-%j.log" \
  --wrap="'$trainloop' db merge '$tmp/merged-by-job.db' '$prefix'.shard-*.db") ||
  fail "sbatch refused the merge job"
merge_job=${merge_job%%;*}
wait_for_jobs "array job $job (shards 1-$shards) and merge job $merge_job" "$job" "$merge_job"
# Each shard holds its points and no others: points are numbered from 0 and
# shard I of N runs those whose number is I-1 modulo N.
check_shards() {
  local i count stray
  for i in $(seq "$shards"); do
    local db=$prefix.shard-$i.db
    [ -f "$db" ] || fail "shard $i wrote no $db"
    count=$("$trainloop" query --db "$db" --format csv --sql "SELECT count(*) FROM points" |
      tail -n 1)
    stray=$("$trainloop" query --db "$db" --format csv \
      --sql "SELECT count(*) FROM points WHERE idx % $shards != $i - 1" | tail -n 1)
    if ! { [ "$count" -gt 0 ] && [ "$stray" -eq 0 ]; }; then
      fail "$db holds $count points, $stray of them not of shard $i/$shards"
    fi
  done
}
check_shards

# A lost shard is rerun alone: array index 1 is shard 2 of $shards.
rm -f "$prefix.shard-2.db" "$prefix.shard-2.db-wal" "$prefix.shard-2.db-shm"
rerun=$(submit --array=1 examples/sweeps/slurm_array.sh "$sweep" "$prefix" "$shards") ||
  fail "sbatch refused the rerun of shard 2"
rerun=${rerun%%;*}
wait_for_jobs "rerun of shard 2 (job $rerun)" "$rerun"
check_shards

"$trainloop" db merge "$tmp/merged.db" "$prefix".shard-*.db >"$tmp/merge.out" 2>&1 ||
  fail "db merge: $(cat "$tmp/merge.out")"
for merged in merged merged-by-job; do
  "$trainloop" db check "$tmp/$merged.db" >"$tmp/check.out" 2>&1 ||
    fail "db check of $merged.db: $(cat "$tmp/check.out")"
done
start=$SECONDS
timeout $((deadline > SECONDS ? deadline - SECONDS : 1)) \
  "$trainloop" sweep "$sweep" --db "$tmp/single.db" --threads 1 --quiet >"$tmp/single.out" 2>&1 ||
  fail "the one-process sweep (exit $?; the test's bound is $deadline s): $(cat "$tmp/single.out")"
say "one-process sweep: done in $((SECONDS - start)) s"

# What the databases must share: every column of what a sweep writes but row
# ids (tests/store/test_sweep_resume.cpp compares fewer).
results_sql="SELECT s.hash, p.idx, r.layer, r.phase, r.choice, m.text, r.macs, r.cycles,
  r.energy_pj, r.utilization, r.effectual_macs, r.imbalance_cycles, r.imbalance_pct,
  r.workload_stddev, r.energy_breakdown, r.reused,
  r.pareto_arch, r.pareto_layer, r.performed_macs, r.energy_by_class, r.converged,
  r.lower_bound_cycles, r.lower_bound_energy_pj
  FROM results r JOIN points p ON p.id = r.point_id JOIN sweeps s ON s.id = p.sweep_id
  JOIN mappings m ON m.id = r.mapping_id ORDER BY s.hash, p.idx, r.layer_index, r.phase, r.choice"
points_sql="SELECT s.hash, s.points, p.idx, a.hash, n.hash, p.batch, z.hash, p.dataflow,
  p.objective, p.search, p.budget, p.seed, p.phases, p.status, p.failure, p.evaluations,
  p.layer_phases, p.pareto_step, p.iteration, a.clock_ghz, a.summary, t.phase, t.cycles,
  t.energy_pj, t.macs, t.performed_macs, t.effectual_macs, t.imbalance_cycles
  FROM points p JOIN sweeps s ON s.id = p.sweep_id JOIN architectures a ON a.id = p.arch_id
  JOIN networks n ON n.id = p.network_id JOIN sparsity_profiles z ON z.id = p.sparsity_id
  LEFT JOIN phase_totals t ON t.point_id = p.id ORDER BY s.hash, p.idx, t.phase"
dump() {
  local db=$1 name=$2
  "$trainloop" query --db "$db" summary --format csv >"$tmp/$name.summary.csv"
  "$trainloop" query --db "$db" --format csv --sql "$results_sql" >"$tmp/$name.results.csv"
  "$trainloop" query --db "$db" --format csv --sql "$points_sql" >"$tmp/$name.points.csv"
}
for db in single merged merged-by-job; do
  dump "$tmp/$db.db" "$db" 2>"$tmp/query.err" || fail "query on $db.db: $(cat "$tmp/query.err")"
done

[ "$(wc -l <"$tmp/single.results.csv")" -gt 1 ] || fail "the one-process sweep recorded nothing"
for merged in merged-by-job merged; do
  for part in summary results points; do
    if ! diff -u "$tmp/single.$part.csv" "$tmp/$merged.$part.csv" >"$tmp/$part.diff"; then
      fail "$merged.db differs from the one-process sweep in $part (- one process, + merged):
$(head -n 40 "$tmp/$part.diff")"
    fi
  done
done
say "PASSED: $shards shards merged by a dependent job, and again with one shard rerun alone," \
  "equal the one-process sweep ($(($(wc -l <"$tmp/single.results.csv") - 1)) results;" \
  "$SECONDS s in all)"
