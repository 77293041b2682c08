#!/usr/bin/env bash
# The wheel as a user meets it: installed with its notebook extra into a fresh virtual
# environment outside the clone (dependencies from the package registry), then tried from
# another directory by .ci/smoke_wheel.py (claims, solve, shortest, a 50-deal survey,
# notebook 02 executed, the app's page).  Usage: .ci/smoke.sh WHEEL
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo ".ci/smoke.sh: give the wheel to try (make wheel builds it in build/wheel/), not '${1:-}'" >&2
  exit 2
fi
wheel=$(realpath "$1")
script=$(realpath "$(dirname "$0")/smoke_wheel.py")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$SECONDS
echo "smoke: installing $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB) with [notebooks] into $work/venv …"
${PYTHON:-python3} -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-warn-script-location "$wheel[notebooks]" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
echo "smoke: installed in $((SECONDS - start)) s"
cd "$work"
# nothing of the clone may leak in: no PYTHONPATH, no data directory from the environment
env -u PYTHONPATH -u BAKERS_LAB_DATA "$work/venv/bin/python" "$script"
echo "smoke: install and smoke test took $((SECONDS - start)) s"
