// SPDX-License-Identifier: Apache-2.0
// sparse24 library: the edge SoC's network job, what `sparse24 run --backend soc` (lib/s24_soc.c) hands the
// simulated SoC's firmware s24run.elf (soc/firmware/s24run.c), SPEC §9. The host writes this struct
// and its blobs into the host area of main RAM (SOC_HOST_BASE, soc_rt.h; soc_sim --load), the
// firmware runs `batch` inferences of the .tflite with the project's runtime and writes the outputs,
// the counters and a per-operator record back (soc_sim --dump). Offsets are from SOC_HOST_BASE;
// everything is little endian; fixed-width fields only, no pointers (the firmware is RV32, the host
// 64-bit).
#ifndef S24_SOC_JOB_H_
#define S24_SOC_JOB_H_

#include <stdint.h>

#define SOC_NET_MAGIC 0x4e343253u  // "S24N"
#define SOC_NET_VERSION 1u
#define SOC_NET_ERR_LEN 256u       // the firmware's message, NUL-terminated

enum { SOC_NET_CPU = 0, SOC_NET_IP = 1 };          // engine: where the array layers run
enum { SOC_OP_CPU = 0, SOC_OP_IP = 1 };            // soc_net_op_t.where

/** One operator's figures, summed over the job's inferences. */
typedef struct {
  uint32_t where;          // SOC_OP_CPU or SOC_OP_IP
  uint32_t reserved;
  uint64_t cycles;         // SoC cycles from the operator's start to its end (s24_net_set_hook)
  uint64_t ip_cycles;      // on the IP: the array's busy cycles (CNT_CYCLES), else 0
  uint64_t wait_cycles;    // on the IP: cycles the CPU spent polling for the IP's results
} soc_net_op_t;

typedef struct {
  uint32_t magic, version;
  int32_t status;          // out: 0 ok, else an s24_status_t (err says why); 1 until it ran
  uint32_t engine;         // SOC_NET_CPU or SOC_NET_IP
  uint32_t model_off, model_len;   // the .tflite (read in place)
  uint32_t x_off, x_bytes;         // the inputs: batch x x_bytes (one inference's input tensor)
  uint32_t y_off, y_bytes;         // the outputs: batch x y_bytes
  uint32_t batch;                  // inferences
  uint32_t ops_off, ops_room;      // room for ops_room soc_net_op_t records
  // out
  uint32_t n_ops;                  // operators (records written: min(n_ops, ops_room))
  uint32_t arena_bytes;            // the network's arena (s24_net_arena_bytes), or with
                                   // S24_ERR_NOMEM the bytes it needs at least
  uint32_t arena_avail;            // the arena the firmware has (main RAM it does not use)
  uint32_t code_bytes;             // the firmware's code and read-only data
  uint32_t clock_hz;               // the SoC's nominal clock (cycle counts do not depend on it)
  uint32_t reserved[6];
  uint64_t load_cycles;            // s24_net_load (IP: the weights packed into the arena)
  uint64_t cycles_total;           // the inferences (s24_net_run), all of them
  uint64_t cycles_ip;              // the IP's busy cycles (CNT_CYCLES), all array layers
  uint64_t wait_cycles;            // the CPU polling for the IP's results
  uint64_t stall_w, stall_a, stall_r;  // the IP's stream stalls (CNT_STALL_*), summed
  uint64_t seam_bytes[3];          // what the seam moved per stream (W, A, R)
  uint64_t seam_cycles[3];         // and the cycles its calls took
  char err[SOC_NET_ERR_LEN];
} soc_net_job_t;

_Static_assert(sizeof(soc_net_op_t) == 32, "soc_net_op_t: the layout the host reads");
_Static_assert(sizeof(soc_net_job_t) == 4 * 24 + 8 * 13 + SOC_NET_ERR_LEN,
               "soc_net_job_t: the layout the host writes");

#endif  // S24_SOC_JOB_H_
