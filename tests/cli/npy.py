#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tiny .npy helper for the CLI tests (python3 stdlib only; numpy is not needed).

  npy.py write FILE DTYPE ROWS COLS V0 V1 ...   write a rank-2 array (DTYPE |i1, |u1 or <i4)
  npy.py dump FILE                              print 'dtype rows cols' then the values
  npy.py raw FILE HEADER_DICT [HEX_DATA] [--version 1|2]   write a file with any header text
  npy.py bytes FILE HEX                         write raw bytes
  npy.py rand FILE DTYPE ROWS COLS SEED [ZERO_PCT]   random values (ZERO_PCT percent zeros)
  npy.py matmul A.npy B.npy [C0.npy]            print A*B (+C0) mod 2^32 in `dump` format
  npy.py vrand FILE DTYPE N SEED LO HI          a 1-D vector of N random values in [LO, HI]
  npy.py set FILE INDEX VALUE                   set one element (flat index) of a file in place
"""
import random
import struct
import sys

FMT = {"|i1": "b", "<i1": "b", "|u1": "B", "<u1": "B", "<i4": "<i"}


def header(text, version=1):
    text = text + " " * ((64 - (len(text) + 1 + (10 if version == 1 else 12)) % 64) % 64) + "\n"
    raw = text.encode("latin1")
    if version == 1:
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(raw)) + raw
    return b"\x93NUMPY\x02\x00" + struct.pack("<I", len(raw)) + raw


def write(path, dtype, rows, cols, values):
    if len(values) != rows * cols:
        sys.exit("npy.py: %d values for shape (%d, %d)" % (len(values), rows, cols))
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (dtype, rows, cols)
    fmt = FMT[dtype]
    data = b"".join(struct.pack(fmt if fmt.startswith("<") else "<" + fmt, v) for v in values)
    with open(path, "wb") as f:
        f.write(header(hdr) + data)


def load(path):
    with open(path, "rb") as f:
        blob = f.read()
    assert blob[:6] == b"\x93NUMPY", "bad magic"
    if blob[6] == 1:
        hlen, off = struct.unpack("<H", blob[8:10])[0], 10
    else:
        hlen, off = struct.unpack("<I", blob[8:12])[0], 12
    hdr = eval(blob[off:off + hlen].decode("latin1"))  # trusted: files made by the tests
    assert not hdr["fortran_order"]
    rows, cols = hdr["shape"]
    fmt = FMT[hdr["descr"]]
    size = struct.calcsize(fmt)
    data = blob[off + hlen:]
    assert len(data) == rows * cols * size, "size mismatch"
    vals = [struct.unpack_from("<" + fmt.lstrip("<"), data, i * size)[0] for i in range(rows * cols)]
    return hdr["descr"], rows, cols, vals


def dump(path):
    descr, rows, cols, vals = load(path)
    print(descr, rows, cols)
    print(" ".join(str(v) for v in vals))


def matmul(pa, pb, pc0=None):
    _, m, k, a = load(pa)
    _, k2, n, b = load(pb)
    assert k == k2, "inner dimensions differ"
    c0 = load(pc0)[3] if pc0 else [0] * (m * n)
    out = []
    for i in range(m):
        for j in range(n):
            s = c0[i * n + j] + sum(a[i * k + t] * b[t * n + j] for t in range(k))
            s &= 0xFFFFFFFF
            out.append(s - (1 << 32) if s >= (1 << 31) else s)
    print("<i4", m, n)
    print(" ".join(str(v) for v in out))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, path = argv[1], argv[2]
    if cmd == "write":
        dtype, rows, cols = argv[3], int(argv[4]), int(argv[5])
        write(path, dtype, rows, cols, [int(v) for v in argv[6:]])
    elif cmd == "dump":
        dump(path)
    elif cmd == "raw":
        args = argv[3:]
        version = 1
        if "--version" in args:
            i = args.index("--version")
            version = int(args[i + 1])
            del args[i:i + 2]
        data = bytes.fromhex(args[1]) if len(args) > 1 else b""
        with open(path, "wb") as f:
            f.write(header(args[0], version) + data)
    elif cmd == "rand":
        dtype, rows, cols, seed = argv[3], int(argv[4]), int(argv[5]), int(argv[6])
        zero_pct = int(argv[7]) if len(argv) > 7 else 0
        rng = random.Random(seed)
        lo, hi = {"|i1": (-128, 127), "|u1": (0, 255), "<i4": (-2**31, 2**31 - 1)}[dtype]
        vals = [0 if rng.randrange(100) < zero_pct else rng.randint(lo, hi) for _ in range(rows * cols)]
        write(path, dtype, rows, cols, vals)
    elif cmd == "vrand":
        dtype, n, seed, lo, hi = argv[3], int(argv[4]), int(argv[5]), int(argv[6]), int(argv[7])
        rng = random.Random(seed)
        fmt = FMT[dtype]
        hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (dtype, n)
        data = b"".join(struct.pack("<" + fmt.lstrip("<"), rng.randint(lo, hi)) for _ in range(n))
        with open(path, "wb") as f:
            f.write(header(hdr) + data)
    elif cmd == "set":
        index, value = int(argv[3]), int(argv[4])
        with open(path, "rb") as f:
            blob = bytearray(f.read())
        hlen, off = ((struct.unpack("<H", blob[8:10])[0], 10) if blob[6] == 1
                     else (struct.unpack("<I", blob[8:12])[0], 12))
        hdr = eval(blob[off:off + hlen].decode("latin1"))  # trusted: files made by the tests
        fmt = "<" + FMT[hdr["descr"]].lstrip("<")
        struct.pack_into(fmt, blob, off + hlen + index * struct.calcsize(fmt), value)
        with open(path, "wb") as f:
            f.write(blob)
    elif cmd == "matmul":
        matmul(path, argv[3], argv[4] if len(argv) > 4 else None)
    elif cmd == "bytes":
        with open(path, "wb") as f:
            f.write(bytes.fromhex(argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
