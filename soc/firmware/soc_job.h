// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the job a host hands the simulated SoC (the runner's interface, docs/soc.md
// "Running a job"). The host loads this struct and its blobs into the host area of main RAM
// (SOC_HOST_BASE, 16 MiB; soc_sim --load), runs the firmware s24job.elf, and reads the struct back
// with the outputs (soc_sim --dump). Offsets are from SOC_HOST_BASE; everything is little endian.
// Shared by the firmware (C11, RV32) and host programs: fixed-width fields only, no pointers.
#ifndef SOC_JOB_H_
#define SOC_JOB_H_

#include <stdint.h>

#define SOC_JOB_MAGIC 0x4a343253u  // "S24J"
#define SOC_JOB_VERSION 1u

enum {
  SOC_JOB_GEMM = 1,    // C[m x n] int32 = A[m x k] int8 (any values: the driver packs its pattern) * B[k x n] int8
  SOC_JOB_LINEAR = 2,  // Y[n x m] int8 = SPEC 7's fused layer of X[n x k] int8 and W[m x k] int8 (A = W)
  // 3 was a network job of the retired s24net.elf: networks are lib/s24_soc_job.h's (s24run.elf)
};

typedef struct {
  uint32_t magic, version, op;
  int32_t status;            // written by the firmware: 0 ok, an s24_status_t; 1 until it ran
  uint32_t m, k, n;          // shapes (linear: n = batch)
  uint32_t a_off, b_off, c_off;          // gemm: A, B, C; linear: W, X, Y
  uint32_t bias_off, mult_off, shift_off;  // linear: int32 [m] each (bias_off 0: zeros)
  int32_t zi, zo, act_min, act_max, round;  // linear: zero points, clamp, s24_round_t
  uint32_t out_type, out_rank, out_dims[4], out_bytes;  // unused (the retired network job's)
  uint32_t reserved[7];  // zero
  // written by the firmware (SoC cycles; the IP's counters summed over the driver's jobs; what the
  // seam moved per stream W, A, R and the cycles its calls took)
  uint64_t soc_cycles, load_cycles, ip_cycles, ip_beats, stall_w, stall_a, stall_r, jobs,
      job_cycles, pair;
  uint64_t seam_bytes[3], seam_cycles[3], seam_wait[3];
  // unused (the retired network job's)
  uint64_t linear_cycles, linear_calls, heap_bytes;
} soc_job_t;

_Static_assert(sizeof(soc_job_t) == 4 * 32 + 8 * 22, "soc_job_t: the layout the host writes");

#endif  // SOC_JOB_H_
