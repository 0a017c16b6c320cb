"""Numbers the database does not hold, computed by the model itself: the
report runs `trainloop eval --db FILE --point ID --layer L --phase P` on a
stored mapping (the point's architecture, network, batch, sparsity profile
and iteration, all read from the database) and reads its JSON. Used for the
per-wave imbalance histograms (a Monte-Carlo run per layer, too slow to
store for every result)."""

import json
import subprocess


class ModelError(Exception):
    pass


class Model:
    def __init__(self, trainloop, db_path, timeout=120):
        self.trainloop = trainloop
        self.db_path = db_path
        self.timeout = timeout

    def imbalance_histogram(self, point_id, layer, phase, seed=1):
        """The stored mapping's evaluation with the Monte-Carlo imbalance
        model: the `imbalance` object of `trainloop eval --format json`
        (waves, cycles, histogram, ...) with the evaluation's
        `imbalance_pct` added."""
        command = [self.trainloop, "eval", "--db", self.db_path, "--point", str(point_id),
                   "--layer", layer, "--phase", phase, "--imbalance", "monte-carlo",
                   "--imbalance-histogram", "--seed", str(seed), "--format", "json"]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=self.timeout,
                                 check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ModelError(f"could not run {self.trainloop}: {e}") from None
        try:
            answer = json.loads(run.stdout)
        except ValueError:
            raise ModelError(f"`trainloop eval` exited {run.returncode}: "
                             f"{run.stderr.strip() or run.stdout.strip()}") from None
        if run.returncode != 0:
            error = answer.get("error", {}) if isinstance(answer, dict) else {}
            raise ModelError(error.get("message", run.stderr.strip()))
        if "imbalance" not in answer:
            raise ModelError("the MACs of this layer's phase do not skip: no imbalance")
        return {**answer["imbalance"], "imbalance_pct": answer["imbalance_pct"]}
