// sparse24 golden model: the cycle formula of s24_core (docs/architecture.md §3, ideal streams).
#include "s24_model.h"

s24_status_t s24_core_cycles(uint32_t rows, uint32_t cols, uint64_t beats, uint64_t tiles,
                             s24_cycles_t *out) {
  if (rows == 0 || cols == 0 || beats == 0 || tiles == 0 || out == NULL) return S24_ERR_ARG;
  uint64_t p = beats;
  if (p < rows) p = rows;
  if (p < cols) p = cols;
  const uint64_t fill = beats + (uint64_t)rows + (uint64_t)cols + 5u;  // no overflow: < 2^64
  if (fill < beats || (tiles - 1) > (UINT64_MAX - fill) / p || tiles > UINT64_MAX / beats) {
    return S24_ERR_NOMEM;
  }
  out->period = p;
  out->busy_cycles = (tiles - 1) * p + fill;
  out->mac_beats = tiles * beats;
  return S24_OK;
}
