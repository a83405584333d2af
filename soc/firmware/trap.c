// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: a firmware that crashes on purpose (make soc-test checks that soc_sim reports
// it as a crash, exit status 4, with the trap's cause): an illegal instruction.
#include <stdio.h>

int main(void) {
  printf("trap: executing an illegal instruction\n");
  __asm__ volatile(".word 0");
  return 0;
}
