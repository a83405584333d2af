#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mutants.sh OUT_DIR [NAME_PREFIX]: proofs that can fail (only the mutants whose name starts with
# NAME_PREFIX, if given). Each mutant is a copy of rtl/ and formal/ under
# OUT_DIR/<name>/ with one edit (checked to apply); its proof task must FAIL. Prints one line a
# mutant and exits 1 if a mutation is not caught or no longer applies.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
only=${2:-}
mkdir -p "$out"
# name @ file @ sed expression @ .sby @ task
mutants='
meta_check_dropped@s24_meta_check.v@s/bad_o\[r\] = 1.b1;/bad_o[r] = bad_o[r];/@meta_check.sby@prove_2of4
fifo_full_check_dropped@s24_fifo.v@s/assign do_push = push_i \&\& !full_o;/assign do_push = push_i;/@fifo.sby@misuse_d2
fifo_empty_check_dropped@s24_fifo.v@s/assign do_pop  = pop_i \&\& !empty_o;/assign do_pop  = pop_i;/@fifo.sby@misuse_d2
w1c_clears_all_bits@s24_top.v@s/if (wr_err) err_d = err_d \& ~wr_bits\[4:0\];/if (wr_err) err_d = 5'"'"'d0;/@top.sby@bmc_2x2_2of4
w1c_inverted@s24_top.v@s/if (wr_err) err_d = err_d \& ~wr_bits\[4:0\];/if (wr_err) err_d = err_d \& wr_bits[4:0];/@top.sby@bmc_2x2_2of4
cfg_zero_stale@s24_top.v@s/      cfg_zero_q <= cfg_beats_d == 32'"'"'d0/      cfg_zero_q <= cfg_beats_q == 32'"'"'d0/@top.sby@bmc_2x2_2of4
start_go_undecided@s24_top.v@s/      start_go_q <= start_ok;/      start_go_q <= start_req_q;/@top.sby@bmc_2x2_2of4
soft_reset_drops_held_beat@s24_top.v@s/  wire r_keep_load = soft_reset \&\& !r_keep_q \&\& o_valid \&\& !m_axis_r_tready_i;/  wire r_keep_load = 1'"'"'b0;/@top.sby@bmc_2x2_2of4
hole_answers_slverr@s24_top.v@s/    .rd_ok_i          (reg_in_block(rd_addr))/    .rd_ok_i          (reg_mapped(rd_addr))/@top.sby@bmc_2x2_2of4
axil_byte_address_decoded@s24_axil_slave.v@s/  assign rd_addr_o = {s_axil_araddr_i\[AddrWidth-1:2\], 2'"'"'b00};/  assign rd_addr_o = s_axil_araddr_i;/@axil_slave.sby@bmc_a8
axil_b_overwritten@s24_axil_slave.v@s/wire do_write = aw_full_q \&\& w_full_q \&\& (!b_valid_q || s_axil_bready_i);/wire do_write = aw_full_q \&\& w_full_q;/@axil_slave.sby@bmc_a8
rbuf_output_overwritten@s24_rbuf.v@s/wire fetch = nonempty_q \&\& (!ram_v_q || !out_v_q || ready_i);  /wire fetch = nonempty_q;  /@rbuf.sby@bmc_d4
rbuf_data_fetch_unchecked@s24_rbuf.v@s/wire fetch_data = nonempty_r \&\& (!ram_v_r || !out_v_r || ready_i);/wire fetch_data = nonempty_r;/@rbuf.sby@bmc_d4
inq_ready_ignores_room@s24_inq.v@s/begin fill_d = fill_q + 1.b1; ready_d = (fill_q <= DepthM2); end/begin fill_d = fill_q + 1'"'"'b1; ready_d = 1'"'"'b1; end/@inq.sby@prove_small
epilogue_saturation_unchecked@s24_epilogue.v@s/      ok = ok6_q\[l\] \&\& (((w17\[16:9\] ^ {8{sgn6_q\[l\]}}) \& (8.hFF << t6_q)) == 8.d0);/      ok = ok6_q[l];/@epilogue.sby@bmc_r2c1_lane
epilogue_clear_keeps_rows@s24_epilogue.v@/u_in (/,/clear_i/s/\.clear_i (clear_i),/.clear_i (1'"'"'b0),/@epilogue.sby@bmc_r2c1_ctrl
epilogue_clamp_ignores_act_max@s24_epilogue.v@s/      hi_r_d = cfg_hi_r;/      hi_r_d = 11'"'"'sd127 - cfg_zo_s;/@epilogue.sby@bmc_r2c1_ctrl
epilogue_clamp_top_fixed@s24_epilogue.v@s/      if (over8_q\[l\]) y = act_max_q;/      if (over8_q[l]) y = 8'"'"'d127;/@epilogue.sby@bmc_r2c1_y9
epilogue_double_correction_dropped@s24_epilogue.v@s/      corr_d\[l\] = cen5_q \&\& (sgn ?/      corr_d[l] = 1'"'"'b0 \&\& (sgn ?/@epilogue.sby@bmc_r2c1_lane
epilogue_double_correction_sign_ignored@s24_epilogue.v@s/      corr_d\[l\] = cen5_q \&\& (sgn ?/      corr_d[l] = cen5_q \&\& (1'"'"'b0 ?/@epilogue.sby@bmc_r2c1_lane
epilogue_double_first_round_dropped@s24_epilogue.v@s/    if (dbl_q \&\& t2c_q\[5\]) cst_d = cst_d | (64.d1 << 30);/    if (dbl_q \&\& t2c_q[5]) cst_d = cst_d;/@epilogue.sby@bmc_r2c1_opcst
epilogue_double_shift_not_wrapped@s24_epilogue.v@s/  wire        dp1 = dbl_q \&\& /  wire        dp1 = 1'"'"'b0 \&\& /@epilogue.sby@bmc_r2c1_opcst
epilogue_karatsuba_ll_dropped@s24_epilogue.v@s/                                - {{2{pll3_q\[l\*34+33\]}}, pll3_q\[l\*34 +: 34\]};/                                - 36'"'"'d0;/@epilogue.sby@bmc_r2c1_rnd
epilogue_pair_base_advances_r_rows@s24_epilogue.v@s/  wire \[AddrWidth-1:0\] rows_a = pair_q ? RowsPW\[AddrWidth-1:0\] :/  wire [AddrWidth-1:0] rows_a = 1'"'"'b0 ? RowsPW[AddrWidth-1:0] :/@epilogue.sby@bmc_r3c1p_ctrl
epilogue_pair_last_row_early@s24_epilogue.v@s/  wire \[RowWidth-1:0\]  rows_m1 = pair_q ?/  wire [RowWidth-1:0]  rows_m1 = 1'"'"'b0 ?/@epilogue.sby@bmc_r3c1p_ctrl
cnt2_counts_after_done@s24_cnt2.v@s/if (inc_i \&\& !done_q) begin/if (inc_i) begin/@cnt2.sby@bmc_full
pair_rows_not_gated@s24_core.v@s/: cap\[sr\*NumCols + sc\] \&\& !pair_h\[sr\*(NumCols+1) + sc + 1\];/: cap[sr*NumCols + sc];/@core.sby@bmc_pair_2x2_2of4
pair_period_too_short@s24_core.v@s/localparam integer MinPeriodP = NumRows + MinPeriod;/localparam integer MinPeriodP = MinPeriod;/@core.sby@bmc_pair_2x2_2of4
pair_reserves_r_rows@s24_core.v@s/wire \[CredW-1:0\] cred_res        = cred_q - tile_rows;/wire [CredW-1:0] cred_res        = cred_q - CredRows;/@core.sby@bmc_pair_2x2_2of4
pair_last_row_early@s24_core.v@s/pz_last_col\[2\*NumRows-1\] : row_done/pz_last_col[2*NumRows-2] : row_done/@core.sby@bmc_pair_2x2_2of4
pe_restart_ignores_clear@s24_pe.v@s/(fa_d\[0\] \&\& fa_d\[1\]) || clear_i}),/(fa_d[0] \&\& fa_d[1])}),/@core.sby@bmc_2x2_2of4
'
IFS='
'
# one mutant ($1, a line of the list): prints its line; returns 0 caught, 1 not caught, 2 the
# mutation no longer applies
one() {
  m=$1
  name=$(echo "$m" | cut -d'@' -f1); file=$(echo "$m" | cut -d'@' -f2); expr=$(echo "$m" | cut -d'@' -f3)
  sby=$(echo "$m" | cut -d'@' -f4); task=$(echo "$m" | cut -d'@' -f5)
  d=$out/$name
  rm -rf "$d" && mkdir -p "$d" && cp -r "$root/rtl" "$root/formal" "$d/"
  sed -i "$expr" "$d/rtl/$file"
  if cmp -s "$root/rtl/$file" "$d/rtl/$file"; then
    echo "formal-mutants: $name: the mutation no longer applies to rtl/$file (update formal/mutants.sh)"
    return 2
  fi
  line=$("$root/formal/run_sby.sh" "$d/formal" "$sby" "$task" "$d/run")
  case $line in
  *": FAIL "*) ;;
  *)
    # ABC's bmc3 (core.sby): SymbiYosys reports ERROR after the engine's FAIL (its trace does not
    # convert, see formal/reach.sh); the engine's answer names the failing assertion
    bmc=$("$root/formal/bmc3_fail.sh" "$d/run" "$task")
    if [ -n "$bmc" ]; then
      line="$sby $task: FAIL (bmc3: failed assertion at ${bmc#* }) $(echo "$line" | grep -o '[0-9]* s$')"
    else
      echo "formal-mutants: $name: NOT caught (the proof must fail on an assertion): $line"
      return 1
    fi;;
  esac
  at=$(echo "$line" | grep -o 'at [^ ]*:[0-9]*' | head -n 1 | sed 's/^at //')
  msg=$("$root/formal/msg_at.sh" "$d/rtl" "$at")
  echo "formal-mutants: $name ($(diff "$root/rtl/$file" "$d/rtl/$file" | grep '^>' | sed 's/^> *//' | head -n 1)): caught by ${msg:-an assertion}: $line"
  return 0
}

# the selected mutants, run S24_MUTANT_JOBS at a time (default 2: the tail of make test's
# formal-quick would otherwise leave a core idle), mutant i in lane i mod jobs; the lines are
# printed in the list's order once all have run
sel=
for m in $mutants; do
  [ -n "$m" ] || continue
  case $(echo "$m" | cut -d'@' -f1) in "$only"*) sel="$sel$m
";; esac
done
jobs=${S24_MUTANT_JOBS:-2}
lane=0
while [ $lane -lt "$jobs" ]; do
  (
    i=0
    for m in $sel; do
      if [ $((i % jobs)) -eq $lane ]; then
        name=$(echo "$m" | cut -d'@' -f1)
        one "$m" > "$out/$name.line"
        echo $? > "$out/$name.rc"
      fi
      i=$((i + 1))
    done
  ) &
  lane=$((lane + 1))
done
wait
fail=0
n=0
for m in $sel; do
  name=$(echo "$m" | cut -d'@' -f1)
  cat "$out/$name.line"
  rc=$(cat "$out/$name.rc" 2>/dev/null || echo 1)
  [ "$rc" = 2 ] || n=$((n + 1))
  [ "$rc" = 0 ] || fail=1
done
[ $fail -eq 0 ] && echo "formal-mutants: $n of $n mutants caught"
exit $fail
