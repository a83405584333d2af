#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Screenshot of GTKWave showing a dump with a save file, on a virtual display (Xvfb).
# Usage: scripts/wave_shot.sh DUMP.fst SAVE.gtkw OUT.png
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 DUMP.fst SAVE.gtkw OUT.png" >&2; exit 2; }
dump=$1 save=$2 out=$3
[ -f "$dump" ] || { echo "wave_shot: error: $dump: no such dump" >&2; exit 1; }
[ -f "$save" ] || { echo "wave_shot: error: $save: no such save file" >&2; exit 1; }
if [ -z "${WAVE_SHOT_INNER:-}" ]; then
  exec env WAVE_SHOT_INNER=1 timeout 120 xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi
gtkwave "$dump" "$save" >/dev/null 2>&1 &
pid=$!
sleep 6                                   # GTKWave loads the dump and draws the save file's signals
tmp=$(mktemp --suffix=.png)
import -window root "$tmp"
kill "$pid" 2>/dev/null || true
mv "$tmp" "$out"
echo "wave_shot: wrote $out"
