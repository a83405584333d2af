// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: runs the one job the host put in the host area (soc_job.h) through the
// project's host driver on the SoC's seam, writes its outputs and counters back, and exits with 0
// (the job's own status is in the struct) or 1 when there is no valid job.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_soc_seam.h"
#include "soc_job.h"
#include "soc_rt.h"

static void *host(uint32_t off) { return (void *)(uintptr_t)(SOC_HOST_BASE + off); }

static int in_host(uint32_t off, uint64_t len) {
  return off >= sizeof(soc_job_t) && off <= SOC_HOST_SIZE && len <= SOC_HOST_SIZE - off;
}

int main(void) {
  soc_job_t *job = host(0);
  if (job->magic != SOC_JOB_MAGIC || job->version != SOC_JOB_VERSION) {
    printf("s24job: no job at 0x%08" PRIx32 "\n", (uint32_t)SOC_HOST_BASE);
    return 1;
  }
  const uint32_t m = job->m, k = job->k, n = job->n;
  const int gemm = job->op == SOC_JOB_GEMM, lin = job->op == SOC_JOB_LINEAR;
  if ((!gemm && !lin) || m == 0 || k == 0 || n == 0 || !in_host(job->a_off, (uint64_t)m * k) ||
      !in_host(job->b_off, (uint64_t)k * n) ||
      !in_host(job->c_off, (uint64_t)m * n * (gemm ? 4u : 1u)) ||
      (lin && (!in_host(job->mult_off, 4ull * m) || !in_host(job->shift_off, 4ull * m) ||
               (job->bias_off != 0 && !in_host(job->bias_off, 4ull * m))))) {
    job->status = S24_ERR_ARG;
    printf("s24job: a bad job (op %" PRIu32 ", %" PRIu32 "x%" PRIu32 "x%" PRIu32 ")\n", job->op, m, k, n);
    return 0;
  }
  s24_soc_t soc;
  s24_seam_t seam;
  s24_dev_t dev;
  s24_status_t st = s24_soc_dev_open(&soc, &seam, &dev);
  if (st != S24_OK) {
    job->status = st;
    return 0;
  }
  dev.cycle_ns = s24_soc_cycle_ns();
  s24_weights_t w;
  memset(&w, 0, sizeof w);
  uint64_t t0 = soc_cycles();
  st = s24_weights_load_dense(&dev, host(job->a_off), m, k, &w);
  uint64_t t1 = soc_cycles();
  s24_soc_stats_clear(&soc);
  if (st == S24_OK && gemm) {
    st = s24_gemm(&dev, &w, host(job->b_off), n, NULL, host(job->c_off));
  } else if (st == S24_OK) {
    const s24_linear_params_t prm = {job->bias_off ? host(job->bias_off) : NULL,
                                     host(job->mult_off), host(job->shift_off), job->zi, job->zo,
                                     job->act_min, job->act_max, (s24_round_t)job->round};
    st = s24_linear(&dev, &w, host(job->b_off), n, &prm, host(job->c_off));
  }
  uint64_t t2 = soc_cycles();
  s24_weights_free(&w);
  const s24_counters_t *c = &dev.counters;
  job->load_cycles = t1 - t0;
  job->soc_cycles = t2 - t1;
  job->ip_cycles = c->cycles;
  job->ip_beats = c->beats;
  job->stall_w = c->stall_w;
  job->stall_a = c->stall_a;
  job->stall_r = c->stall_r;
  job->jobs = c->jobs;
  job->job_cycles = c->job_cycles;
  job->pair = c->pair;
  for (int p = 0; p < 3; p++) {
    job->seam_bytes[p] = soc.stats.bytes[p];
    job->seam_cycles[p] = soc.stats.cycles[p];
    job->seam_wait[p] = soc.stats.wait[p];
  }
  job->status = st;
  s24_dev_close(&dev);
  s24_soc_close(&soc);
  printf("s24job: %s %" PRIu32 "x%" PRIu32 "x%" PRIu32 ": %s\n", gemm ? "gemm" : "linear", m, k, n,
         s24_strerror(st));
  return 0;
}
