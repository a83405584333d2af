// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: memset, memcpy and memmove a word at a time, in place of picolibc's (built
// for size, a byte at a time). VexRiscv's data cache is write-through: every store is a bus write
// to the L2 (docs/soc.md, "What the memory system delivers"), so a byte loop costs a bus write per
// byte where these cost one per word. Built with -fno-builtin -fno-tree-loop-distribute-patterns
// (soc/soc.mk) so that the compiler does not turn the loops back into calls to themselves.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *memset(void *dst, int c, size_t n) {
  uint8_t *d = dst;
  const uint8_t b = (uint8_t)c;
  for (; n > 0 && ((uintptr_t)d & 3u) != 0; n--) *d++ = b;  // bytes up to a word boundary
  const uint32_t w = 0x01010101u * b;
  for (; n >= 16; n -= 16, d += 16) {
    ((uint32_t *)(void *)d)[0] = w;
    ((uint32_t *)(void *)d)[1] = w;
    ((uint32_t *)(void *)d)[2] = w;
    ((uint32_t *)(void *)d)[3] = w;
  }
  for (; n >= 4; n -= 4, d += 4) *(uint32_t *)(void *)d = w;
  for (; n > 0; n--) *d++ = b;
  return dst;
}

// (no restrict: memmove calls it for a forward copy of overlapping bytes, which this loop keeps right:
// every word is loaded before the stores of its chunk, and stores stay below the loads to come)
void *memcpy(void *dst, const void *src, size_t n) {
  uint8_t *d = dst;
  const uint8_t *s = src;
  if ((((uintptr_t)d ^ (uintptr_t)s) & 3u) == 0) {  // same alignment: words in the middle
    while (n > 0 && ((uintptr_t)d & 3u) != 0) {
      *d++ = *s++;
      n--;
    }
    for (; n >= 16; n -= 16, d += 16, s += 16) {
      const uint32_t *sw = (const uint32_t *)(const void *)s;
      uint32_t *dw = (uint32_t *)(void *)d;
      const uint32_t a = sw[0], b = sw[1], e = sw[2], f = sw[3];
      dw[0] = a;
      dw[1] = b;
      dw[2] = e;
      dw[3] = f;
    }
    for (; n >= 4; n -= 4, d += 4, s += 4) {
      *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
    }
  } else if ((((uintptr_t)d ^ (uintptr_t)s) & 1u) == 0) {  // halfwords
    if (n > 0 && ((uintptr_t)d & 1u) != 0) {
      *d++ = *s++;
      n--;
    }
    for (; n >= 2; n -= 2, d += 2, s += 2) {
      *(uint16_t *)(void *)d = *(const uint16_t *)(const void *)s;
    }
  } else if (((uintptr_t)d & 3u) == 0) {  // words stored, bytes loaded (loads hit the cache)
    for (; n >= 4; n -= 4, d += 4, s += 4) {
      *(uint32_t *)(void *)d = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 |
                               (uint32_t)s[3] << 24;
    }
  }
  while (n > 0) {
    *d++ = *s++;
    n--;
  }
  return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
  uint8_t *d = dst;
  const uint8_t *s = src;
  if (d <= s || d >= s + n) return memcpy(dst, src, n);  // no overlap a forward copy would break
  while (n > 0) {  // overlapping, destination above: backwards
    n--;
    d[n] = s[n];
  }
  return dst;
}
