// sparse24 edge SoC: one inference of an int8 .tflite network, the project's runtime (runtime/,
// as it is: it allocates with malloc) running bare-metal on the SoC's CPU, its array layers
// (FULLY_CONNECTED, CONV_2D) either on the CPU in the C model (s24_linear_ref: the CPU-only
// baseline) or on the IP through the host driver and the SoC's seam. The job (soc_job.h,
// SOC_JOB_NET) names the model, the input and the room for the output in the host area; the
// firmware writes the output tensor and the cycles back and exits 0 (the job's own status is in it).
// On the IP each layer's weights are packed once, at their first use, and kept (as the runtime of
// issue 49 will keep them from load time): `zo` inferences run (at least 1), the counters are the
// last one's, so with zo >= 2 they are the steady state without the packing.
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_drv.h"
#include "s24_layout.h"
#include "s24_net.h"
#include "s24_soc_seam.h"
#include "soc_job.h"
#include "soc_rt.h"

static void *host(uint32_t off) { return (void *)(uintptr_t)(SOC_HOST_BASE + off); }

static int in_host(uint32_t off, uint64_t len) {
  return off >= sizeof(soc_job_t) && off <= SOC_HOST_SIZE && len <= SOC_HOST_SIZE - off;
}

typedef struct {
  s24_dev_t *dev;  // NULL: the C model on the CPU
  s24_soc_t *soc;
  uint64_t cycles, calls;
  s24_weights_t *packed;  // [n_ops]: each array layer's weights, packed at first use
  size_t n_ops;
} engine_ctx_t;

static s24_status_t soc_linear(void *ctx, const s24_net_layer_t *l, const int8_t *x, int8_t *y,
                               uint64_t *cycles, uint64_t *job_cycles, char *err, size_t errlen) {
  engine_ctx_t *e = ctx;
  const uint64_t t0 = soc_cycles();
  s24_status_t st;
  *cycles = *job_cycles = 0;
  if (e->dev == NULL) {
    st = s24_linear_ref(x, l->n, l->w, l->m, l->k, l->bias, l->mult, l->shift, l->zi, l->zo,
                        l->act_min, l->act_max, l->round, y);
  } else if (l->op >= e->n_ops) {
    st = S24_ERR_ARG;
  } else {
    s24_weights_t *w = &e->packed[l->op];
    st = w->beats != NULL ? S24_OK : s24_weights_load_dense(e->dev, l->w, l->m, l->k, w);
    const s24_linear_params_t prm = {l->bias, l->mult, l->shift, l->zi, l->zo,
                                     l->act_min, l->act_max, l->round};
    if (st == S24_OK) st = s24_linear(e->dev, w, x, l->n, &prm, y);
    *cycles = e->dev->counters.cycles;
    *job_cycles = e->dev->counters.job_cycles;
  }
  e->cycles += soc_cycles() - t0;
  e->calls++;
  if (st != S24_OK) snprintf(err, errlen, "operator %u: %s", (unsigned)l->op, s24_strerror(st));
  return st;
}

int main(void) {
  soc_job_t *job = host(0);
  if (job->magic != SOC_JOB_MAGIC || job->version != SOC_JOB_VERSION || job->op != SOC_JOB_NET) {
    printf("s24net: no network job at 0x%08" PRIx32 "\n", (uint32_t)SOC_HOST_BASE);
    return 1;
  }
  if (!in_host(job->a_off, job->m) || !in_host(job->b_off, job->k) || !in_host(job->c_off, job->n)) {
    job->status = S24_ERR_ARG;
    return 0;
  }
  char err[256] = "";
  s24_net_t *net = NULL;
  uint64_t t0 = soc_cycles();
  s24_status_t st = s24_net_load(host(job->a_off), job->m, &net, err, sizeof err);
  job->load_cycles = soc_cycles() - t0;
  s24_soc_t soc;
  s24_seam_t seam;
  s24_dev_t dev;
  engine_ctx_t ectx = {NULL, &soc, 0, 0, NULL, 0};
  s24_engine_t eng = {&ectx, soc_linear, S24_DEFAULT_ARRAY, S24_DEFAULT_EPI_DEPTH,
                      S24_DEFAULT_HW_EPI_LANES, 0, "cpu"};
  if (st == S24_OK && job->zi == 1) {  // the IP
    st = s24_soc_open(&soc, &seam);
    if (st == S24_OK) st = s24_dev_open(&dev, &seam);
    if (st == S24_OK) {
      ectx.n_ops = s24_net_model(net)->n_ops;
      ectx.packed = calloc(ectx.n_ops, sizeof(s24_weights_t));
      if (ectx.packed == NULL) st = S24_ERR_NOMEM;
    }
    if (st == S24_OK) {
      dev.cycle_ns = s24_soc_cycle_ns();
      ectx.dev = &dev;
      eng.hw = s24_dev_array(&dev);
      eng.measures = 1;
      eng.name = "ip";
    } else {
      snprintf(err, sizeof err, "the IP: %s", s24_strerror(st));
    }
  }
  if (st == S24_OK) {
    const s24_tfl_tensor_t *in = s24_net_input(net), *out = s24_net_output(net);
    if (in->bytes != job->k || out->bytes > job->n) {
      snprintf(err, sizeof err, "input: %u bytes given, the model takes %u; output: room %u, needs %u",
               (unsigned)job->k, (unsigned)in->bytes, (unsigned)job->n, (unsigned)out->bytes);
      st = S24_ERR_ARG;
    } else {
      job->out_type = (uint32_t)out->type;
      job->out_rank = out->rank;
      for (uint32_t i = 0; i < 4; i++) job->out_dims[i] = i < out->rank ? (uint32_t)out->dims[i] : 0;
      job->out_bytes = (uint32_t)out->bytes;
      const uint32_t runs = job->zo > 1 ? (uint32_t)job->zo : 1u;
      for (uint32_t r = 0; r < runs && st == S24_OK; r++) {
        if (r > 0) {  // a fresh network each time: its statistics are then the last run's
          s24_net_free(net);
          net = NULL;
          st = s24_net_load(host(job->a_off), job->m, &net, err, sizeof err);
        }
        ectx.cycles = ectx.calls = 0;
        if (ectx.dev != NULL) s24_soc_stats_clear(&soc);
        t0 = soc_cycles();
        if (st == S24_OK) st = s24_net_run(net, &eng, host(job->b_off), host(job->c_off), err, sizeof err);
        job->soc_cycles = soc_cycles() - t0;
        if (r == 0) job->pair = job->soc_cycles;  // net: the first inference's cycles (packing included)
      }
    }
  }
  if (st == S24_OK) {
    s24_net_totals_t tot;
    if (s24_net_totals(net, &eng, &tot) == S24_OK) {
      job->ip_cycles = tot.cycles;
      job->job_cycles = tot.job_cycles;
      job->ip_beats = tot.predicted_cycles;  // the cycle model's busy cycles for the same layers
    }
    job->linear_cycles = ectx.cycles;
    job->linear_calls = ectx.calls;
    if (ectx.dev != NULL) {
      for (int p = 0; p < 3; p++) {
        job->seam_bytes[p] = soc.stats.bytes[p];
        job->seam_cycles[p] = soc.stats.cycles[p];
        job->seam_wait[p] = soc.stats.wait[p];
      }
    }
  }
  job->heap_bytes = (uint64_t)mallinfo().arena;
  job->status = st;
  printf("s24net: %s: %s%s%s\n", eng.name, s24_strerror(st), err[0] ? ": " : "", err);
  if (ectx.dev != NULL) {
    s24_dev_close(&dev);
    s24_soc_close(&soc);
  }
  if (ectx.packed != NULL) {
    for (size_t i = 0; i < ectx.n_ops; i++) s24_weights_free(&ectx.packed[i]);
    free(ectx.packed);
  }
  s24_net_free(net);
  return 0;
}
