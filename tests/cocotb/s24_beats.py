"""Beats of s24_top's streams for the cocotb testbench (docs/architecture.md section 2), a small
Python packer of 2:m weights (pruned, compressed as SPEC section 2) and the expected results from
the project's C golden model (`build/sparse24 gemm --backend model`), so the packer is checked
against the model through the RTL: a wrong beat gives a wrong C.

Layouts (bit i of a beat's TDATA is bit i % 8 of byte i // 8 of its cocotbext-axi frame):
  weights      R*n values of 8 bits, row r slot s at (r*n + s)*8, then R*n indices of log2(m)
               bits at R*n*8 + (r*n + s)*log2(m); zero-padded to WWords 32-bit words
  activations  C*m values, column c element e (k = g*m + e) at (c*m + e)*8; AWords words
  results      C int32, column c at c*32; one beat a tile row, TLAST on row R-1
The jobs here give every group of K one beat (any 2:m row fits one: at most n nonzeros), row tile
outer, column tile inner, the weight beats of a row tile sent again for each column tile.
"""
import pathlib
import subprocess
import tempfile

import numpy as np


class Geometry:
    """An s24_top build: R x C array, n:m (n = 2 here, the 2:m core's own mode)."""

    def __init__(self, rows, cols, n, m):
        if n != 2 or m not in (4, 8):
            raise ValueError(f"the testbench packs 2:m weights, not {n}:{m}")
        self.rows, self.cols, self.n, self.m = rows, cols, n, m
        self.idx_bits = m.bit_length() - 1
        self.w_words = (rows * n * (8 + self.idx_bits) + 31) // 32
        self.a_words = (cols * m * 8 + 31) // 32
        self.r_words = cols

    def w_beat(self, vals, idx):
        """vals, idx: R x n (int8 values, their indices in the group) -> the beat's bytes."""
        v = 0
        for r in range(self.rows):
            for s in range(self.n):
                slot = r * self.n + s
                v |= (int(vals[r][s]) & 0xFF) << (slot * 8)
                v |= int(idx[r][s]) << (self.rows * self.n * 8 + slot * self.idx_bits)
        return v.to_bytes(self.w_words * 4, "little")

    def a_beat(self, grp):
        """grp: m x C (rows g*m .. g*m+m-1 of a column tile of B) -> the beat's bytes."""
        v = 0
        for c in range(self.cols):
            for e in range(self.m):
                v |= (int(grp[e][c]) & 0xFF) << ((c * self.m + e) * 8)
        return v.to_bytes(self.a_words * 4, "little")

    def r_row(self, tdata):
        """A result beat's TDATA (int) -> C int32."""
        return [((tdata >> (32 * c)) & 0xFFFFFFFF) - ((tdata >> (32 * c + 31) & 1) << 32)
                for c in range(self.cols)]


def prune(rng, a, m, n=2):
    """Keeps the n largest magnitudes of every group of m (ties: the lower index), and drops a few
    more at random (groups with fewer than n nonzeros, all-zero groups)."""
    a = a.copy()
    rows, k = a.shape
    for r in range(rows):
        for g in range(k // m):
            grp = a[r, g * m:(g + 1) * m]
            order = sorted(range(m), key=lambda i: (-abs(int(grp[i])), i))
            keep = set(order[:n])
            for i in range(m):
                if i not in keep or rng.random() < 0.15:
                    grp[i] = 0
    return a


def compress_group(grp, n):
    """One group of a 2:m row -> (values, indices), canonical as SPEC section 2: the kept values
    in index order, padded with explicit zeros at the highest unused indices."""
    nz = [i for i, x in enumerate(grp) if x != 0]
    if len(nz) > n:
        raise ValueError("group has more than n nonzeros")
    unused = [i for i in range(len(grp)) if i not in nz]
    idx = sorted(nz + unused[len(unused) - (n - len(nz)):] if len(nz) < n else nz)
    return [int(grp[i]) for i in idx], idx


def gemm_job(geo, a, b):
    """A (M x K, 2:m) times B (K x N) as one job: (beats, tiles, weight frames, activation frames,
    tile list); each frame is one tile's beats, the tile list gives (row tile, column tile) in order."""
    m_rows, k = a.shape
    n_cols = b.shape[1]
    R, C, m = geo.rows, geo.cols, geo.m
    mt, nt, groups = -(-m_rows // R), -(-n_cols // C), k // m
    ap = np.zeros((mt * R, k), dtype=np.int8)
    ap[:m_rows] = a
    bp = np.zeros((k, nt * C), dtype=np.int8)
    bp[:, :n_cols] = b
    w_tiles = []
    for i in range(mt):
        beats = []
        for g in range(groups):
            vi = [compress_group(ap[i * R + r, g * m:(g + 1) * m], geo.n) for r in range(R)]
            beats.append(geo.w_beat([v for v, _ in vi], [x for _, x in vi]))
        w_tiles.append(b"".join(beats))
    a_tiles = [b"".join(geo.a_beat(bp[g * m:(g + 1) * m, j * C:(j + 1) * C]) for g in range(groups))
               for j in range(nt)]
    order = [(i, j) for i in range(mt) for j in range(nt)]
    return groups, len(order), [w_tiles[i] for i, _ in order], [a_tiles[j] for _, j in order], order


def expected_tiles(geo, c, order):
    """C (M x N int32) -> the result rows of every tile in stream order: [[C ints] * R] per tile."""
    R, C = geo.rows, geo.cols
    mt, nt = max(i for i, _ in order) + 1, max(j for _, j in order) + 1
    cp = np.zeros((mt * R, nt * C), dtype=np.int64)
    cp[:c.shape[0], :c.shape[1]] = c
    return [[[int(x) for x in cp[i * R + r, j * C:(j + 1) * C]] for r in range(R)] for i, j in order]


def model_gemm(sparse24, geo, a, b, workdir):
    """C = A * B by the C golden model: `sparse24 gemm A.npy B.npy -o C.npy --pattern 2:m
    --backend model`."""
    workdir = pathlib.Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=workdir) as d:
        pa, pb, pc = (pathlib.Path(d) / x for x in ("a.npy", "b.npy", "c.npy"))
        np.save(pa, a.astype(np.int8))
        np.save(pb, b.astype(np.int8))
        subprocess.run([str(sparse24), "gemm", str(pa), str(pb), "-o", str(pc), "--pattern", f"{geo.n}:{geo.m}",
                        "--backend", "model"], check=True, capture_output=True, text=True)
        return np.load(pc)
