#!/usr/bin/env bash
# The Home Assistant core virtualenv for Tests/ha, cached by version:
#   bash Tests/ha/venv.sh CACHE_DIR VERSION PYTHON   -> prints the venv's python
#
# Home Assistant 2026.2 requires Python 3.13.2 or later (its package metadata
# and a check at start-up); the newest interpreter here is pyenv's 3.13.0,
# which runs it: pip is told to ignore the patch level, and the start-up
# check is relaxed to 3.13.0 in the venv's copy of homeassistant/const.py.
set -euo pipefail
cache=$1 version=$2 python=$3
venv="$cache/ha/$version"
if [ -f "$venv/.complete" ]; then echo "$venv/bin/python"; exit 0; fi
[ -x "$python" ] || { echo "ha-test: no interpreter at $python (pyenv install 3.13.0, or HA_PYTHON=...)" >&2; exit 1; }
rm -rf "$venv"
"$python" -m venv "$venv" >&2
# The integrations the test loads (mqtt, recorder, history, config, onboarding,
# automation) and their requirements, pinned as Home Assistant's manifests pin them.
"$venv/bin/pip" install -q --ignore-requires-python "homeassistant==$version" -r "$(dirname "$0")/requirements.txt" >&2
const="$("$venv/bin/python" -c 'import homeassistant, os; print(os.path.dirname(homeassistant.__file__))')/const.py"
sed -i -E 's/^(REQUIRED_PYTHON_VER: Final\[tuple\[int, int, int\]\] = )\(3, 13, [0-9]+\)/\1(3, 13, 0)/' "$const"
grep -q 'REQUIRED_PYTHON_VER: Final\[tuple\[int, int, int\]\] = (3, 13, 0)' "$const" || { echo "ha-test: could not relax $const" >&2; exit 1; }
touch "$venv/.complete"
echo "$venv/bin/python"
