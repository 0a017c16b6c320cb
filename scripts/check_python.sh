#!/usr/bin/env bash
# Fails (exit 1) when pyflakes finds a problem in a tracked Python file: an
# unused import or variable, a name used but never defined, a redefinition.
# These scripts render the reproduction documents and write shipped profiles,
# so a dead variable there is as suspect as one in C++ (where -Werror catches
# it). Run by ctest (label `lint`), so CI checks it.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${TRAINLOOP_PYTHON:-/usr/bin/python3}"   # the Debian Python `setup.sh --test` gives pyflakes
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.py' 2>/dev/null || find . -path ./build -prune -o -name '*.py' -print)
if "$python" -m pyflakes "${files[@]}"; then
  echo "pyflakes: ${#files[@]} files clean"
else
  exit 1
fi
