#!/usr/bin/env python3
"""results.py RESULTS.xml LOG CFG: the summary of one cocotb run (tests/cocotb.mk): a line per test,
the seed and how to repeat it, the failures' messages from the log, and 'N passed, N failed'.
Exits 1 when a test failed or the run wrote no results (the log's tail is shown then)."""
import re
import sys
import xml.etree.ElementTree as ET


def main(results, log, cfg):
    text = open(log, errors="replace").read()
    seed = re.search(r"config \S+, seed (\d+)", text)
    seed = seed.group(1) if seed else "?"
    try:
        cases = ET.parse(results).getroot().iter("testcase")
    except (OSError, ET.ParseError) as e:
        print(f"test-cocotb {cfg}: no results ({e}); the end of {log}:")
        print("\n".join(text.splitlines()[-30:]))
        return 1
    passed = failed = 0
    for c in cases:
        bad = c.find("failure") is not None or c.find("error") is not None
        t = float(c.get("time", "0"))
        print(f"  {cfg} {c.get('name')}: {'FAIL' if bad else 'ok'} ({t:.1f} s)")
        failed += bad
        passed += not bad
    if failed:
        for line in text.splitlines():
            if "AssertionError" in line or "protocol:" in line or "Error" in line and "FAIL" in line:
                print("   ", line.strip())
        print(f"test-cocotb {cfg}: seed {seed}; repeat: make test-cocotb COCOTB_CFGS={cfg} SEED={seed}"
              f" [COCOTB_TESTCASE=name]; log {log}")
    else:
        print(f"test-cocotb {cfg}: seed {seed} (make test-cocotb SEED={seed} repeats it)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
