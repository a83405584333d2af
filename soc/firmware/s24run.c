// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the network firmware of `sparse24 run --backend soc` (SPEC §9). The job
// (lib/s24_soc_job.h) names a .tflite, a batch of inputs and room for the outputs in the host area;
// the project's runtime (runtime/, freestanding) loads the model into an arena of the main RAM
// the firmware does not use (constants read in place, activations planned by lifetime, on the IP
// each array layer's weights packed once), then runs every inference, the array layers either on
// the CPU (the C golden model: the CPU-only baseline) or on the IP through the driver over the
// SoC's seam (s24_soc_seam.h; the CPU polls for results: no interrupt). Every operator is timed
// with the SoC's cycle counter around it. Exit 0 with the job's status in the struct; 1 when there
// is no valid job.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "s24_drv.h"
#include "s24_engine.h"
#include "s24_net.h"
#include "s24_soc_seam.h"
#include "s24_soc_job.h"
#include "soc_rt.h"

extern uint8_t __heap_start[], __heap_end[];  // picolibc.ld: main RAM between .bss and the stack
extern uint8_t __data_source[];               // the end of code and read-only data

static void *host(uint32_t off) { return (void *)(uintptr_t)(SOC_HOST_BASE + off); }

static int in_host(uint32_t off, uint64_t len) {
  return off >= sizeof(soc_net_job_t) && off <= SOC_HOST_SIZE && len <= SOC_HOST_SIZE - off;
}

// What the per-operator hook keeps: the operator's start, and on the IP the seam's and the
// device's counters before it
typedef struct {
  soc_net_op_t *ops;
  uint32_t room;
  s24_soc_t *soc;   // NULL on the CPU engine
  s24_dev_t *dev;
  uint64_t t0, wait0;
  uint64_t stall[3];  // the IP's stream stalls (W, A, R), summed
} timing_t;

// the CPU's polls for the IP: for the array's results, and for the ADD unit
static uint64_t seam_wait(const s24_soc_t *soc) {
  return soc->stats.wait[S24_PORT_R] + soc->stats.unit_wait;
}

static void plat_hook(void *ctx, size_t op, int end) {
  timing_t *t = ctx;
  if (!end) {
    t->wait0 = t->soc != NULL ? seam_wait(t->soc) : 0;
    if (t->dev != NULL) memset(&t->dev->counters, 0, sizeof t->dev->counters);
    t->t0 = soc_cycles();
    return;
  }
  const uint64_t now = soc_cycles();
  if (op >= t->room) return;
  soc_net_op_t *o = &t->ops[op];
  o->cycles += now - t->t0;
  if (t->soc != NULL) o->wait_cycles += seam_wait(t->soc) - t->wait0;
  if (t->dev != NULL) {
    o->ip_cycles += t->dev->counters.cycles;
    t->stall[0] += t->dev->counters.stall_w;
    t->stall[1] += t->dev->counters.stall_a;
    t->stall[2] += t->dev->counters.stall_r;
  }
}

static s24_status_t fail(soc_net_job_t *job, s24_status_t st, const char *what) {
  if (job->err[0] == '\0') snprintf(job->err, sizeof job->err, "%s: %s", what, s24_strerror(st));
  return st;
}

int main(void) {
  soc_net_job_t *job = host(0);
  if (job->magic != SOC_NET_MAGIC || job->version != SOC_NET_VERSION) {
    printf("s24run: no network job at 0x%08" PRIx32 "\n", (uint32_t)SOC_HOST_BASE);
    return 1;
  }
  memset(job->err, 0, sizeof job->err);
  job->n_ops = job->arena_bytes = 0;
  job->arena_avail = (uint32_t)(__heap_end - __heap_start);
  job->code_bytes = (uint32_t)((uintptr_t)__data_source - 0x40000000u);
  job->clock_hz = soc_clk_hz();
  const uint64_t xs = (uint64_t)job->x_bytes * job->batch, ys = (uint64_t)job->y_bytes * job->batch;
  if (job->batch == 0 || !in_host(job->model_off, job->model_len) || !in_host(job->x_off, xs) ||
      !in_host(job->y_off, ys) ||
      !in_host(job->ops_off, (uint64_t)job->ops_room * sizeof(soc_net_op_t)) ||
      (job->engine != SOC_NET_CPU && job->engine != SOC_NET_IP)) {
    job->status = fail(job, S24_ERR_ARG, "the job");
    return 0;
  }
  soc_net_op_t *ops = host(job->ops_off);
  memset(ops, 0, job->ops_room * sizeof(soc_net_op_t));
  s24_status_t st = S24_OK;
  s24_engine_t eng;
  s24_engine_dev_t eng_dev;
  s24_soc_t soc;
  s24_seam_t seam;
  s24_dev_t dev;
  int dev_open = 0;
  timing_t tm = {ops, job->ops_room, NULL, NULL, 0, 0, {0, 0, 0}};
  if (job->engine == SOC_NET_IP) {
    st = s24_soc_dev_open(&soc, &seam, &dev);
    if (st == S24_OK) {
      dev_open = 1;
      dev.cycle_ns = s24_soc_cycle_ns();
      st = s24_engine_device(&eng, &eng_dev, &dev, "ip");
    }
    if (st != S24_OK) (void)fail(job, st, "the IP");
    tm.soc = &soc;
    tm.dev = &dev;
  } else {
    s24_engine_model(&eng);
  }
  s24_net_t *net = NULL;
  size_t needed = 0;
  const uint64_t t0 = soc_cycles();
  printf("s24run: loading a %" PRIu32 "-byte model, %s engine, arena %" PRIu32 " bytes\n",
         job->model_len, job->engine == SOC_NET_IP ? "ip" : "cpu", job->arena_avail);
  if (st == S24_OK) {
    st = s24_net_load(host(job->model_off), job->model_len, &eng, __heap_start,
                      (size_t)(__heap_end - __heap_start), &net, &needed, job->err,
                      sizeof job->err);
    job->arena_bytes = (uint32_t)needed;
  }
  job->load_cycles = soc_cycles() - t0;
  if (st == S24_OK) {
    const s24_tfl_tensor_t *in = s24_net_input(net), *out = s24_net_output(net);
    job->n_ops = (uint32_t)s24_net_model(net)->n_ops;
    if (in->bytes != job->x_bytes || out->bytes != job->y_bytes) {
      snprintf(job->err, sizeof job->err,
               "the job: %" PRIu32 " input and %" PRIu32 " output bytes, the model %u and %u",
               job->x_bytes, job->y_bytes, (unsigned)in->bytes, (unsigned)out->bytes);
      st = S24_ERR_ARG;
    }
  }
  if (st == S24_OK) {
    printf("s24run: loaded in %" PRIu64 " cycles, %" PRIu32 " arena bytes, %" PRIu32
           " operators\n", job->load_cycles, job->arena_bytes, job->n_ops);
    s24_net_set_hook(net, plat_hook, &tm);
    if (tm.soc != NULL) {
      // the weight beats, packed at load and constant from now on, reach the W ring by its fill
      // DMA (1.3 B/cycle against the CPU's 0.35: docs/soc.md), once written back to the SDRAM
      soc_flush_dcache();
      soc.dma = 1u << S24_PORT_W;
      s24_soc_stats_clear(&soc);
    }
    const uint8_t *x = host(job->x_off);
    uint8_t *y = host(job->y_off);
    const uint64_t t1 = soc_cycles();
    for (uint32_t b = 0; b < job->batch && st == S24_OK; b++) {
      st = s24_net_run(net, x + (size_t)b * job->x_bytes, y + (size_t)b * job->y_bytes, job->err,
                       sizeof job->err);
    }
    job->cycles_total = soc_cycles() - t1;
  }
  if (st == S24_OK) {
    for (uint32_t i = 0; i < job->n_ops && i < job->ops_room; i++) {
      s24_net_op_info_t info;
      if (s24_net_op_info(net, i, &info) != S24_OK) continue;
      ops[i].where =
          (info.on_array || info.on_engine) && job->engine == SOC_NET_IP ? SOC_OP_IP : SOC_OP_CPU;
      job->cycles_ip += ops[i].ip_cycles;
      job->wait_cycles += ops[i].wait_cycles;
    }
    job->stall_w = tm.stall[0];
    job->stall_a = tm.stall[1];
    job->stall_r = tm.stall[2];
    if (tm.soc != NULL) {
      for (int p = 0; p < 3; p++) {
        job->seam_bytes[p] = soc.stats.bytes[p];
        job->seam_cycles[p] = soc.stats.cycles[p];
      }
    }
  }
  if (dev_open) {
    s24_dev_close(&dev);
    s24_soc_close(&soc);
  }
  job->status = st;
  printf("s24run: %s, %" PRIu32 " inferences: %s%s%s\n", eng.name, job->batch, s24_strerror(st),
         job->err[0] ? ": " : "", job->err);
  return 0;  // _exit writes the caches back: the host dumps main RAM
}
