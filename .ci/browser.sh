#!/usr/bin/env bash
# Installs (from Debian's packages, if missing) the headless browser the log page's
# story view is checked in (tests/bot/test_gamelog_story.py): Chromium.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends chromium >&2
fi
