#!/usr/bin/env bash
# Captures what a trainloop binary prints and stores for a fixed set of runs,
# so that a refactoring that promises unchanged behaviour can prove it:
#
#   tools/behaviour_snapshot.sh OLD_BINARY /tmp/before
#   tools/behaviour_snapshot.sh build/trainloop /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
#
# It covers every shipped example mapping (text and JSON, each phase), a
# network mapped with a fixed budget (text, JSON, and every table of the
# results database it writes), the tiny sweep's database and its canned
# queries, a sparse training run's cost, the Cartesian-product evaluator,
# train-cost and whole-run sweeps with each evaluator (and what each refuses)
# and the Timeloop export. Runs are single-threaded where a thread count could
# show, and the database dump leaves out only what is not a result (the tool
# version and absolute paths). Development only: not run by CI.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 TRAINLOOP_BINARY OUT_DIR" >&2
  exit 2
fi
tl=$(realpath "$1")
out=$2
# The tree whose examples and shipped specs the binary reads (its data
# directory): by default the one this script is in. Its path is replaced by
# <root> in every output, so binaries built in different worktrees compare.
root=${SNAPSHOT_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"

# run NAME ARGS...: stdout, stderr and the exit code of one command, kept.
run() {
  local name=$1
  shift
  local rc=0
  "$tl" "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
  # Paths (the binary's too: --help shows it), and the wall times and rates a
  # run prints, are not behaviour.
  sed -i -E "s#$tl#<trainloop>#g; s#$root#<root>#g; s#$work#<work>#g; s#[0-9][0-9.]* s([ ),]|\$)#<t> s\1#g;
    s#[0-9][0-9,]* evaluations/s#<rate> evaluations/s#g" "$out/$name.out" "$out/$name.err"
  # Progress lines carry timings: keep only the error text.
  grep -v -E '^\s*(\[|progress|searching|mapping|eta|ETA)|[0-9]+(\.[0-9]+)? ?s( |$|\))' \
    "$out/$name.err" >"$out/$name.err.kept" || true
  rm "$out/$name.err"
  echo "$rc" >"$out/$name.rc"
}

# Every table of a results database, rows in a stable order, less the build's
# version and the sweep's absolute paths.
dump_db() {
  local db=$1 name=$2
  python3 - "$db" >"$out/$name.sql.txt" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tables = [r[0] for r in db.execute(
    "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') "
    "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
for t in tables:
    cols = [r[1] for r in db.execute(f"PRAGMA table_info({t})")]
    print(f"== {t} ({', '.join(cols)})")
    for row in sorted(db.execute(f"SELECT * FROM {t}").fetchall(), key=repr):
        if t == "meta" and row[0] == "tool_version":
            continue
        print(repr(row))
EOF
  sed -i "s#$root#<root>#g; s#$work#<work>#g" "$out/$name.sql.txt"
}

for m in examples/mappings/*.yaml; do
  base=$(basename "$m" .yaml)
  run "eval_$base" eval --mapping "$m"
  run "eval_${base}_json" eval --mapping "$m" --format json
done

run workload_resnet18 workload show resnet18 --batch 16 --format json
run map_mlp_text map --arch procrustes_sparse_16x16 --workload mlp_mnist --batch 16 \
  --sparsity procrustes --budget 3000 --threads 1 --quiet
run map_mlp_json map --arch procrustes_baseline_16x16 --workload mlp_mnist --batch 16 \
  --budget 3000 --threads 1 --quiet --format json --db "$work/map.db"
dump_db "$work/map.db" map_db
run map_pareto_json map --arch procrustes_baseline_16x16 --workload mlp_mnist --batch 16 \
  --objective pareto --budget 2000 --threads 1 --quiet --format json

run sweep_tiny sweep examples/sweeps/tiny.yaml --db "$work/tiny.db" --threads 1 --quiet
dump_db "$work/tiny.db" tiny_db
queries=(
  "summary"
  "best --arch procrustes_baseline_16x16 --network mlp_mnist --dataflow K,N"
  "pareto --network mlp_mnist"
  "compare-archs --baseline procrustes_baseline_16x16"
  "compare-dataflows --network mlp_mnist"
)
for q in "${queries[@]}"; do
  name=${q%% *}
  # shellcheck disable=SC2086 # the query's words are its arguments
  run "query_$name" query --db "$work/tiny.db" $q
  # shellcheck disable=SC2086
  run "query_${name}_json" query --db "$work/tiny.db" $q --format json
done
run quickstart_sweep sweep examples/sweeps/quickstart.yaml --db "$work/quickstart.db" --quiet
dump_db "$work/quickstart.db" quickstart_db
run merge db merge "$work/merged.db" "$work/tiny.db" "$work/quickstart.db"
dump_db "$work/merged.db" merged_db
run map_resnet18_sparse_json map --arch procrustes_sparse_16x16 --workload resnet18 --batch 16 \
  --sparsity procrustes --budget 2000 --threads 1 --quiet --format json --db "$work/sparse.db"
dump_db "$work/sparse.db" sparse_db
run eval_sparse eval --mapping examples/mappings/resnet18_3x3_KN_fw.yaml \
  --arch procrustes_sparse_16x16 --sparsity procrustes --format json

run train_cost_json train-cost --arch procrustes_sparse_16x16 --workload mlp_mnist --batch 16 \
  --sparsity procrustes --iterations 1000 --samples 3 --budget 2000 --threads 1 --quiet \
  --format json
run cartesian_text cartesian --workload resnet18 --phase all --batch 4
run cartesian_json cartesian --workload resnet18 --phase all --batch 4 --format json

# train-cost with each evaluator (text, JSON, the database it writes), the
# options and architectures each refuses, and sweeps with each evaluator over
# whole training runs (their databases, --check, and the keys each refuses).
run train_cost_text train-cost --arch procrustes_sparse_16x16 --workload mlp_mnist --batch 16 \
  --sparsity procrustes --iterations 1000 --samples 3 --budget 2000 --threads 1 --quiet \
  --db "$work/train_cost.db"
dump_db "$work/train_cost.db" train_cost_db
for zeros in expected random; do
  run "train_cost_cartesian_${zeros}_text" train-cost --arch gscn_4x64 --workload lenet \
    --batch 8 --sparsity procrustes --iterations 10 --evaluator cartesian --zeros "$zeros" \
    --quiet --db "$work/train_cost_cartesian.db"
  run "train_cost_cartesian_${zeros}_json" train-cost --arch gscn_4x64 --workload lenet \
    --batch 8 --sparsity procrustes --iterations 10 --evaluator cartesian --zeros "$zeros" \
    --quiet --format json
done
dump_db "$work/train_cost_cartesian.db" train_cost_cartesian_db
run train_cost_zeros_loop_nest train-cost --arch procrustes_sparse_16x16 --workload mlp_mnist \
  --sparsity procrustes --iterations 10 --zeros random --quiet
run train_cost_cartesian_no_array train-cost --arch procrustes_sparse_16x16 \
  --workload mlp_mnist --sparsity procrustes --iterations 10 --evaluator cartesian --quiet
run train_cost_cartesian_no_array_json train-cost --arch procrustes_sparse_16x16 \
  --workload mlp_mnist --sparsity procrustes --iterations 10 --evaluator cartesian --quiet \
  --format json
run train_cost_evaluator_typo train-cost --arch gscn_4x64 --workload lenet \
  --sparsity procrustes --iterations 10 --evaluator cartesain --quiet
run train_cost_help train-cost --help
cat >"$work/cartesian_sweep.yaml" <<'EOF2'
sweep: cartesian_runs
networks: [lenet]
architectures: [gscn_4x64]
batches: [4, 8]
sparsity: [procrustes, dense]
evaluator: cartesian
iterations: [10, 100]
EOF2
run sweep_cartesian sweep "$work/cartesian_sweep.yaml" --db "$work/cartesian_sweep.db" \
  --threads 1 --quiet
dump_db "$work/cartesian_sweep.db" cartesian_sweep_db
run sweep_cartesian_check sweep "$work/cartesian_sweep.yaml" --check
cat >"$work/loop_nest_runs.yaml" <<'EOF2'
sweep: loop_nest_runs
networks: [mlp_mnist]
architectures: [procrustes_sparse_16x16]
sparsity: [procrustes]
dataflows: ["K,N", any]
evaluator: loop-nest
iterations: [100]
samples: 2
search: {budget: 1000}
EOF2
run sweep_loop_nest_runs sweep "$work/loop_nest_runs.yaml" --db "$work/loop_nest_runs.db" \
  --threads 1 --quiet
dump_db "$work/loop_nest_runs.db" loop_nest_runs_db
run sweep_loop_nest_runs_check sweep "$work/loop_nest_runs.yaml" --check
# Each refused: a searching key with the cartesian evaluator, zeros without
# it, no run length, an architecture without the array, a misspelt name.
head="sweep: s
networks: [lenet]
architectures: [gscn_4x64]"
bad=(
  "evaluator: cartesian
iterations: [1]
dataflows: [any]"
  "evaluator: cartesian
iterations: [1]
search: {seed: 2}"
  "iterations: [1]
zeros: random"
  "evaluator: cartesian"
  "evaluator: cartesain
iterations: [1]"
)
for i in "${!bad[@]}"; do
  printf '%s\n%s\n' "$head" "${bad[$i]}" >"$work/bad_$i.yaml"
  run "sweep_bad_$i" sweep "$work/bad_$i.yaml" --check
done
printf 'sweep: s\nnetworks: [lenet]\narchitectures: [procrustes_sparse_16x16]\n%s\n' \
  "evaluator: cartesian
iterations: [1]" >"$work/bad_no_array.yaml"
run sweep_bad_no_array sweep "$work/bad_no_array.yaml" --check

run export_timeloop export timeloop --mapping examples/mappings/resnet18_3x3_KN_fw.yaml \
  --out "$work/timeloop_export"
if [ -d "$work/timeloop_export" ]; then
  (cd "$work/timeloop_export" && find . -type f | sort | xargs cat) >"$out/export_timeloop.files"
fi
echo "snapshot in $out ($(ls "$out" | wc -l) files)"
