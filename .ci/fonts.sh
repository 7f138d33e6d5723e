#!/usr/bin/env bash
# Installs (from Debian's packages, if missing) the CJK font the battle map picture
# draws names with (bot/kits/field_picture.py): WenQuanYi Micro Hei, 1.6 MB.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if [ ! -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; then
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends fonts-wqy-microhei >&2
fi
