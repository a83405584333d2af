// SPDX-License-Identifier: Apache-2.0
// cmocka_run.h: runs a test binary's cmocka group and ends with the line every sparse24 test
// binary prints, "N passed, M failed" (tests/model/test_model.c, test_npy.c,
// tests/driver/test_drv.c). Include after <cmocka.h>.
#ifndef S24_TESTS_CMOCKA_RUN_H_
#define S24_TESTS_CMOCKA_RUN_H_

#include <stdio.h>

static inline int s24_tests_report(int n, int failed) {
  printf("%d passed, %d failed\n", n - failed, failed);
  return failed != 0;
}

// main's result: 0 when every test of the group `tests` (an array) passed
#define S24_RUN_TESTS(name, tests, setup, teardown)                 \
  s24_tests_report((int)(sizeof(tests) / sizeof((tests)[0])),       \
                   cmocka_run_group_tests_name(name, tests, setup, teardown))

#endif  // S24_TESTS_CMOCKA_RUN_H_
