#!/usr/bin/env bash
# The fused int8 epilogue (rtl/s24_epilogue.v) alone on ECP5 (Yosys synth_ecp5), 8x8 tiles,
# 512 parameter rows, for several lane counts: its cost next to the core's (docs/results.md).
# usage: synth/epilogue.sh OUTDIR [LANES...]      (default lanes: 1 2 4 8)
set -eu
out=$1; shift
lanes=${*:-1 2 4 8}
mkdir -p "$out"
report=$out/epilogue.md
{
  echo "| EpiLanes | cycles per 8-lane row | LUTs (LUT4 + 2*CCU2C) | LUT4 | CCU2C | PFUMX+L6MUX | FFs | MULT18X18D | DP16KD | DPR16X4 |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$report.tmp"
for l in $lanes; do
  yosys -q -l "$out/lanes$l.log" -p "read_verilog -Irtl rtl/s24_fifo.v rtl/s24_epilogue.v; \
    chparam -set NumRows 8 -set NumCols 8 -set Lanes $l -set Depth 512 s24_epilogue; \
    synth_ecp5 -top s24_epilogue; tee -q -o $out/lanes$l.stat stat" >/dev/null
  cell() { awk -v c="$1" '$1 == c { print $2 }' "$out/lanes$l.stat" | tail -n 1; }
  lut4=$(cell LUT4); ccu=$(cell CCU2C); pf=$(cell PFUMX); l6=$(cell L6MUX21)
  echo "| $l | $((8 / l)) | $((lut4 + 2 * ccu)) | $lut4 | $ccu | $(( ${pf:-0} + ${l6:-0} )) | $(cell TRELLIS_FF) | $(cell MULT18X18D) | $(cell DP16KD) | $(cell TRELLIS_DPR16X4) |" >>"$report.tmp"
  echo "synth-epilogue: EpiLanes=$l done"
done
mv "$report.tmp" "$report"
cat "$report"
