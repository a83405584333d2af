// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: s24_op_version_ok (s24_op_versions.h) over the generated table.
#include "s24_op_versions.h"

#include <stddef.h>

#include "s24_op_versions_table.h"

int s24_op_version_ok(int32_t opcode, int32_t version) {
  if (version < 0 || version > 31) return 0;
  for (size_t i = 0; i < sizeof kS24OpVersions / sizeof kS24OpVersions[0]; ++i)
    if (kS24OpVersions[i].opcode == opcode)
      return (int)((kS24OpVersions[i].versions >> version) & 1u);
  return 0;
}
