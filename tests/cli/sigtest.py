#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Signal test helper for faults.sh: runs CMD, waits until a staged temporary of the command
(a name containing '.tmp.') exists in the working directory with at least MIN_BYTES bytes,
sends SIGNAL to the command, and prints 'killed RC' (RC: the command's return code, negative
for a signal) or 'missed RC' if the command ended before that.

  sigtest.py SIGNAL MIN_BYTES DELAY_S CMD...
"""
import os
import signal
import subprocess
import sys
import time


def main(argv):
    sig = getattr(signal, argv[1])
    min_bytes = int(argv[2])
    delay = float(argv[3])
    cmd = argv[4:]

    def child_setup():  # default dispositions, whatever this script inherited (a shell without
        # job control starts background commands with SIGINT and SIGQUIT ignored, nohup SIGHUP)
        for s in {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, sig}:
            signal.signal(s, signal.SIG_DFL)

    p = subprocess.Popen(cmd, preexec_fn=child_setup, stdout=subprocess.DEVNULL,
                         stderr=open("sig_err.txt", "wb"))
    deadline = time.time() + 120
    while p.poll() is None and time.time() < deadline:
        for e in os.scandir("."):
            if ".tmp." not in e.name:
                continue
            try:
                size = e.stat().st_size
            except OSError:
                continue
            if size >= min_bytes:
                time.sleep(delay)
                if p.poll() is None:
                    p.send_signal(sig)
                    print("killed", p.wait())
                    return 0
        time.sleep(0.0005)
    if p.poll() is None:
        p.kill()
    print("missed", p.wait())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
