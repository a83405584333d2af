#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# msg_at.sh RTL_DIR FILE.v:LINE [PREFIX]: the message of the property at that line of
# RTL_DIR/FILE.v (its first "quoted" string starting with PREFIX, quotes kept); empty if none.
# Used by mutants.sh and reach.sh to name the assertion a solver reports by file and line.
set -u
at=$2
[ -n "$at" ] || exit 0
sed -n "${at#*:}p" "$1/${at%%:*}" | grep -o "\"${3:-}[^\"]*\"" | head -n 1
