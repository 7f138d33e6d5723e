#!/usr/bin/env bash
# Mutation testing with mutmut 3, one area at a time (not run in CI: slow).
#
#   scripts/mutation.sh [rules|core|adapters|all] [--max-children N] [--fresh]
#
# Installs the `test` and `mutation` extras into .venv when they are missing,
# runs mutmut in mutants/area-<area>/ (kept between runs: unchanged functions
# are not tested again; --fresh throws that cache away) and prints the score
# per area: killed / total. See docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import mutmut, pytest, hypothesis' 2>/dev/null; then
    .venv/bin/pip install -q -e '.[test,mutation]'
fi
exec .venv/bin/python scripts/mutation.py "$@"
