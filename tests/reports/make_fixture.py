"""The report tests' database: report_sweep.yaml run afresh by the real
`trainloop sweep` (ctest fixture reports.fixture_db)."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
db = os.environ["REPORT_DB"]
os.makedirs(os.path.dirname(db), exist_ok=True)
for suffix in ("", "-wal", "-shm"):
    if os.path.exists(db + suffix):
        os.remove(db + suffix)
run = subprocess.run([os.environ["TRAINLOOP_BINARY"], "sweep",
                      os.path.join(HERE, "report_sweep.yaml"), "--db", db, "--quiet"],
                     capture_output=True, text=True, check=False)
print(run.stdout, run.stderr)
if run.returncode != 0:
    sys.exit(f"sweep exited {run.returncode}")
print("1 passed, 0 failed")
