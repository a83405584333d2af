#!/usr/bin/env python3
"""Writes a random int8 or int32 .npy (format 1.0, C order) without numpy.
Usage: mknpy.py OUT.npy ROWS COLS SEED [i1|i4]"""
import random
import struct
import sys


def main():
    out, rows, cols, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    dt = sys.argv[5] if len(sys.argv) > 5 else "i1"
    rng = random.Random(seed)
    if dt == "i1":
        descr, data = "|i1", struct.pack(f"{rows * cols}b", *(rng.randint(-128, 127) for _ in range(rows * cols)))
    else:
        descr, data = "<i4", struct.pack(f"<{rows * cols}i", *(rng.randint(-2**31, 2**31 - 1) for _ in range(rows * cols)))
    hdr = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({rows}, {cols}), }}"
    hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
    with open(out, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + data)


if __name__ == "__main__":
    main()
