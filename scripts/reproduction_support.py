"""What every scripts/reproduce_*.py needs: the repository root, the commit
a report was generated at, the CPU time of the trainloop runs, and loading a
profile generator from workloads/tools/ as a module."""

import importlib.util
import os
import resource
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git_commit():
    """The short hash of HEAD, or "unknown" outside a git checkout."""
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def children_cpu_seconds():
    """User + system seconds of the finished child processes (the trainloop runs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load_module(name, path):
    """A Python file (a profile generator) imported as module `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
