# SPDX-License-Identifier: Apache-2.0
"""Tests of the sparse24 NumPy bindings (python/sparse24) over build/lib/libsparse24.so.

Every result is checked bit-exactly against a NumPy reference of SPEC.md and against the
command (`build/sparse24 gemm/linear/prune/compress/run` on the same .npy files), on the model
and the rtl backends. Run from the repository: `make test-python`, or
    S24_LIB=build/lib/libsparse24.so ~/.cache/sparse24/venv/bin/python -m unittest discover -s python/tests
Environment: S24_CMD (the command, default build/sparse24), S24_MODELS (the MLPerf Tiny models,
default `scripts/deps.sh --models-path`), S24_SEED (default 29).
"""

import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import sparse24  # installed into the venv by `make python-install` (a path install of python/)

REPO = pathlib.Path(__file__).resolve().parents[2]

CMD = pathlib.Path(os.environ.get("S24_CMD", REPO / "build" / "sparse24"))
SEED = int(os.environ.get("S24_SEED", "29"))


def rtl_available():
    """False in a build without the Verilated model (make S24_RTL=no), where opening "rtl"
    fails with S24_ERR_UNSUPPORTED; the rtl checks are then skipped."""
    try:
        sparse24.Device("rtl").close()
        return True
    except sparse24.Error as e:
        if e.status != sparse24.S24_ERR_UNSUPPORTED:
            raise
        return False


BACKENDS = ("model", "rtl") if rtl_available() else ("model",)
needs_rtl = unittest.skipUnless("rtl" in BACKENDS, "this build has no rtl backend")


def models_dir():
    if os.environ.get("S24_MODELS"):
        return pathlib.Path(os.environ["S24_MODELS"])
    out = subprocess.run([str(REPO / "scripts" / "deps.sh"), "--models-path"], check=True,
                         capture_output=True, text=True)
    return pathlib.Path(out.stdout.strip())


def command(*args, ok=True):
    """Runs the command; returns (returncode, stdout, stderr)."""
    r = subprocess.run([str(CMD), *map(str, args)], capture_output=True, text=True)
    if ok and r.returncode != 0:
        raise AssertionError(f"sparse24 {' '.join(map(str, args))}: {r.stderr}")
    return r.returncode, r.stdout, r.stderr


def kv(text):
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def rand_i8(rng, shape):
    return rng.integers(-128, 128, shape, dtype=np.int8)


def prune_ref(a, n, m):
    """SPEC §3 in NumPy: per group keep the n largest |a| (ties: lower index)."""
    g = a.astype(np.int64).reshape(a.shape[0], -1, m)
    # stable sort on -|a|: equal magnitudes keep index order, so the lower index wins
    order = np.argsort(-np.abs(g), axis=2, kind="stable")
    keep = np.zeros_like(g, dtype=bool)
    np.put_along_axis(keep, order[:, :, :n], True, axis=2)
    return np.where(keep, g, 0).reshape(a.shape).astype(np.int8)


def gemm_ref(a, b, c0=None):
    c = a.astype(np.int64) @ b.astype(np.int64)
    if c0 is not None:
        c = c + c0
    return ((c + 2**31) % 2**32 - 2**31).astype(np.int32)


def linear_ref(x, w, bias, mult, shift, zi, zo, relu):
    """SPEC §7 in exact integers."""
    acc = (x.astype(np.int64) - zi) @ w.astype(np.int64).T + bias.astype(np.int64)
    acc = (acc + 2**31) % 2**32 - 2**31
    t = 31 - shift.astype(np.int64)
    r = (acc * mult.astype(np.int64) + (np.int64(1) << (t - 1))) >> t
    lo = max(-128, zo) if relu else -128
    return np.clip(r + zo, lo, 127).astype(np.int8)


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="s24py_")
        cls.dir = pathlib.Path(cls.tmp.name)
        cls.rng = np.random.default_rng(SEED)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def save(self, name, arr):
        p = self.dir / name
        np.save(p, arr)
        return p

    def assertError(self, status, fragment, fn, *args, **kw):
        """fn raises sparse24.Error with this status and a message containing fragment."""
        with self.assertRaises(sparse24.Error) as cm:
            fn(*args, **kw)
        self.assertEqual(cm.exception.status, status, cm.exception.message)
        self.assertIn(fragment, cm.exception.message)
        return cm.exception.message


class TestGemm(Base):
    def test_gemm_patterns_backends(self):
        """Dense-with-zeros A of every pattern: NumPy == bindings == command, model and rtl,
        and the rtl numbers are the command's --stats lines."""
        for pattern, (m, k, n) in (("2:4", (19, 64, 21)), ("1:4", (8, 32, 9)),
                                   ("2:8", (13, 48, 10))):
            pn, pm = map(int, pattern.split(":"))
            a = prune_ref(rand_i8(self.rng, (m, k)), pn, pm)
            b = rand_i8(self.rng, (k, n))
            ref = gemm_ref(a, b)
            pa, pb = self.save("a.npy", a), self.save("b.npy", b)
            for backend in BACKENDS:
                with self.subTest(pattern=pattern, backend=backend):
                    with sparse24.Device(backend) as dev:
                        c = dev.gemm(a, b, pattern=pattern)
                        text = sparse24._text(sparse24._load().s24_api_stats_text, dev._h)
                    np.testing.assert_array_equal(c, ref)
                    self.assertEqual(c.dtype, np.int32)
                    _, out, _ = command("gemm", pa, pb, "-o", self.dir / "c.npy", "--pattern",
                                        pattern, "--backend", backend, "--stats")
                    np.testing.assert_array_equal(np.load(self.dir / "c.npy"), c)
                    self.assertEqual(text, out)  # the same key: value lines, cycles included

    def test_gemm_c0_compressed_dense(self):
        m, k, n = 17, 40, 12
        a = prune_ref(rand_i8(self.rng, (m, k)), 2, 4)
        b = rand_i8(self.rng, (k, n))
        c0 = self.rng.integers(-2**31, 2**31, (m, n), dtype=np.int32)
        values, meta = sparse24.compress(a)
        pv, pm, pb = self.save("v.npy", values), self.save("md.npy", meta), self.save("b.npy", b)
        for backend in BACKENDS:
            with self.subTest(backend=backend):
                np.testing.assert_array_equal(
                    sparse24.gemm(a, b, c0=c0, backend=backend), gemm_ref(a, b, c0))
                c = sparse24.gemm_compressed(values, meta, k, b, backend=backend)
                command("gemm", "--values", pv, "--meta", pm, "--k", k, pb, "-o",
                        self.dir / "cc.npy", "--backend", backend)
                np.testing.assert_array_equal(c, np.load(self.dir / "cc.npy"))
                np.testing.assert_array_equal(c, gemm_ref(a, b))
                # any values, any K: dense A (pattern None)
                ad = rand_i8(self.rng, (m, 37))
                bd = rand_i8(self.rng, (37, n))
                np.testing.assert_array_equal(
                    sparse24.gemm(ad, bd, pattern=None, backend=backend), gemm_ref(ad, bd))

    def test_non_contiguous_inputs(self):
        a = prune_ref(rand_i8(self.rng, (16, 32)), 2, 4)
        bt = rand_i8(self.rng, (11, 32))  # B = bt.T is Fortran-ordered: copied, not refused
        np.testing.assert_array_equal(sparse24.gemm(a, bt.T), gemm_ref(a, bt.T))


class TestLinear(Base):
    def layer(self, m, k, batch, relu, zi, zo):
        w = prune_ref(rand_i8(self.rng, (m, k)), 2, 4)
        x = rand_i8(self.rng, (batch, k))
        bias = self.rng.integers(-20000, 20000, m, dtype=np.int32)
        mult = self.rng.integers(2**30, 2**31, m, dtype=np.int32)
        shift = self.rng.integers(-12, -6, m, dtype=np.int32)
        return w, x, bias, mult, shift

    def test_linear_backends_command(self):
        """The fused layer: NumPy (SPEC §7) == bindings == command, model and rtl, dense and
        compressed W."""
        for (m, k, batch, relu, zi, zo) in ((24, 64, 5, True, -3, 5), (10, 36, 9, False, 7, -20)):
            w, x, bias, mult, shift = self.layer(m, k, batch, relu, zi, zo)
            ref = linear_ref(x, w, bias, mult, shift, zi, zo, relu)
            self.assertGreater(len(np.unique(ref)), 10)  # not saturated: a real check
            files = {name: self.save(f"{name}.npy", arr) for name, arr in
                     (("x", x), ("w", w), ("bias", bias), ("mult", mult), ("shift", shift))}
            values, meta = sparse24.compress(w)
            pv, pm = self.save("v.npy", values), self.save("md.npy", meta)
            for backend in BACKENDS:
                with self.subTest(m=m, backend=backend):
                    y = sparse24.linear(x, w, mult, shift, bias=bias, zi=zi, zo=zo, relu=relu,
                                        backend=backend)
                    np.testing.assert_array_equal(y, ref)
                    args = ["--bias", files["bias"], "--mult", files["mult"], "--shift",
                            files["shift"], "--zp-in", zi, "--zp-out", zo, "--backend", backend]
                    args += ["--relu"] if relu else []
                    command("linear", files["x"], files["w"], "-o", self.dir / "y.npy", *args)
                    np.testing.assert_array_equal(np.load(self.dir / "y.npy"), y)
                    yc = sparse24.linear_compressed(x, values, meta, k, mult, shift, bias=bias,
                                                    zi=zi, zo=zo, relu=relu, backend=backend)
                    command("linear", files["x"], "--values", pv, "--meta", pm, "--k", k, "-o",
                            self.dir / "yc.npy", *args)
                    np.testing.assert_array_equal(np.load(self.dir / "yc.npy"), yc)
                    np.testing.assert_array_equal(yc, ref)

    @needs_rtl
    def test_linear_stats_rtl(self):
        w, x, bias, mult, shift = self.layer(16, 64, 4, False, 0, 0)
        with sparse24.Device("rtl") as dev:
            dev.linear(x, w, mult, shift, bias=bias)
            s = dev.stats()
        files = [self.save(f"{n}.npy", a) for n, a in (("x", x), ("w", w), ("b", bias),
                                                       ("mu", mult), ("sh", shift))]
        _, out, _ = command("linear", files[0], files[1], "-o", self.dir / "y.npy", "--bias",
                            files[2], "--mult", files[3], "--shift", files[4], "--backend", "rtl",
                            "--stats")
        cs = kv(out)
        self.assertEqual(s["job_cycles"], int(cs["cycles"]))
        self.assertEqual(s["cycles"], int(cs["array_cycles"]))
        self.assertEqual(s["sim_cycles"], int(cs["sim_cycles"]))
        self.assertEqual(s["macs_dense"], int(cs["macs_dense"]))


class TestPrune(Base):
    def test_spec_examples(self):
        """SPEC §2's worked examples."""
        v, m = sparse24.compress(np.array([[0, 5, 0, -3, 7, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0]],
                                          np.int8))
        self.assertEqual(v.tolist(), [[5, -3, 7, 0, 0, 0, 1, 2]])
        self.assertEqual(m.tolist(), [[0xCD, 0x4E]])
        v, m = sparse24.compress(np.array([[0, 0, 9, 0, 0, 0, 0, 0]], np.int8), "1:4")
        self.assertEqual((v.tolist(), m.tolist()), ([[9, 0]], [[0x0E]]))
        v, m = sparse24.compress(np.array([[0, 0, 0, 0, 0, 6, 0, 1]], np.int8), (2, 8))
        self.assertEqual((v.tolist(), m.tolist()), ([[6, 1]], [[0x3D]]))

    def test_round_trip_and_command(self):
        for pattern in ("2:4", "1:4", "2:8"):
            with self.subTest(pattern=pattern):
                n, mm = map(int, pattern.split(":"))
                a = rand_i8(self.rng, (23, 96))
                a[0, :8] = [-128, 127, -128, 5, 3, -3, 3, -3]  # ties on |-128| and |3|
                p = sparse24.prune(a, pattern)
                np.testing.assert_array_equal(p, prune_ref(a, n, mm))
                values, meta = sparse24.compress(p, pattern)
                self.assertEqual(values.shape, (23, 96 // mm * n))
                self.assertEqual(meta.shape, (23, sparse24.meta_cols(96, pattern)))
                np.testing.assert_array_equal(sparse24.decompress(values, meta, 96, pattern), p)
                pa = self.save("a.npy", a)
                command("prune", pa, "-o", self.dir / "p.npy", "--pattern", pattern)
                np.testing.assert_array_equal(np.load(self.dir / "p.npy"), p)
                command("compress", self.dir / "p.npy", "--values", self.dir / "v.npy", "--meta",
                        self.dir / "m.npy", "--pattern", pattern)
                np.testing.assert_array_equal(np.load(self.dir / "v.npy"), values)
                np.testing.assert_array_equal(np.load(self.dir / "m.npy"), meta)


class TestNetwork(Base):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.models = models_dir()

    def run_both(self, model, x, backend):
        """(bindings' Y, stats text; command's Y, stdout) for X on backend."""
        net = sparse24.Network(model, backend=backend)
        y = net.run(x)
        px = self.save("x.npy", x)
        _, out, _ = command("run", model, px, "-o", self.dir / "y.npy", "--backend", backend,
                            "--stats")
        return y, net.stats_text(), np.load(self.dir / "y.npy"), out, net

    def test_kws_model(self):
        """MLPerf Tiny kws (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ...) on the model
        backend: a batch of 3 byte for byte with `sparse24 run`, the same --stats lines."""
        model = self.models / "kws.tflite"
        net = sparse24.Network(model.read_bytes())  # from bytes
        self.assertEqual((net.input_shape, net.input_dtype), ((1, 50, 10, 1), np.float32))
        x = self.rng.normal(0, 3, (3,) + net.input_shape[1:]).astype(np.float32)
        y, text, ycmd, out, net = self.run_both(model, x, "model")
        self.assertEqual((y.shape, y.dtype), ((3, 12), np.float32))
        np.testing.assert_array_equal(y.view(np.uint32), ycmd.view(np.uint32))  # bit-exact
        self.assertEqual(text, out)
        self.assertEqual(net.stats()["inferences"], 3)
        self.assertEqual(net.totals()["inferences"], 3)
        # one inference at a time gives the same bytes
        np.testing.assert_array_equal(net.run(x[1:2]), y[1:2])
        self.assertEqual(net.stats()["inferences"], 4)  # the statistics add up the runs
        self.assertGreater(net.totals()["arena_bytes"], net.totals()["activation_bytes"])

    @needs_rtl
    def test_kws_rtl_like_command(self):
        """kws on rtl (its CONV_2D layers with the epilogue's double rounding): the bindings'
        bytes equal the command's and the model backend's, and so do the cycle lines."""
        model = self.models / "kws.tflite"
        x = self.rng.normal(0, 3, (2, 50, 10, 1)).astype(np.float32)
        px = self.save("x.npy", x)
        _, out, _ = command("run", model, px, "-o", self.dir / "y.npy", "--backend", "rtl",
                            "--stats")
        net = sparse24.Network(model, backend="rtl")
        y = net.run(x)
        np.testing.assert_array_equal(y, np.load(self.dir / "y.npy"))
        np.testing.assert_array_equal(y, sparse24.Network(model).run(x))
        totals = net.totals()
        self.assertEqual(totals["cycles"], totals["predicted_cycles"])
        self.assertEqual(kv(out)["cycles"], str(totals["cycles"]))

    @needs_rtl
    def test_ad_rtl(self):
        """MLPerf Tiny ad (FULLY_CONNECTED layers) on the Verilated RTL: byte for byte and the
        measured cycles as `sparse24 run --backend rtl --stats`."""
        model = self.models / "ad.tflite"
        x = self.rng.normal(0, 1, (1, 5, 128, 1)).astype(np.float32)
        y, text, ycmd, out, net = self.run_both(model, x, "rtl")
        np.testing.assert_array_equal(y.view(np.uint32), ycmd.view(np.uint32))
        self.assertEqual(text, out)
        t = net.totals()
        self.assertGreater(t["cycles"], 0)
        self.assertEqual(t["cycles"], net.stats()["cycles"])
        layers = net.layers()
        self.assertEqual({v["name"] for v in layers.values()}, {"FULLY_CONNECTED"})
        self.assertEqual(sum(v["cycles"] for v in layers.values()), t["cycles"])

    def test_prune_info(self):
        model = self.models / "kws.tflite"
        net = sparse24.Network(model)
        pruned = net.prune("2:4")
        command("prune", model, "-o", self.dir / "kws24.tflite")
        self.assertEqual(pruned, (self.dir / "kws24.tflite").read_bytes())
        _, out, _ = command("info", model)
        self.assertEqual(net.info(), out)
        self.assertIn("2:4", sparse24.Network(pruned).info())


class TestErrors(Base):
    def test_arrays(self):
        a = np.zeros((8, 16), np.int8)
        b = np.zeros((16, 4), np.int8)
        self.assertError(-1, "A: dtype float32, expected int8", sparse24.gemm,
                         a.astype(np.float32), b)
        self.assertError(-1, "B: shape (15, 4): B needs K = 16 rows", sparse24.gemm, a, b[:15])
        self.assertError(-1, "A: shape (16,) has 1 dimensions, expected 2", sparse24.gemm,
                         a[0], b)
        self.assertError(-1, "expected a NumPy array", sparse24.prune, [[1, 2, 3, 4]])
        self.assertError(-1, "C0: shape (8, 3), expected (8, 4)", sparse24.gemm, a, b,
                         c0=np.zeros((8, 3), np.int32))

    def test_library_messages(self):
        a = np.zeros((8, 16), np.int8)
        a[3, 4:7] = 1  # row 3, group 1: 3 nonzeros
        b = np.zeros((16, 4), np.int8)
        for backend in BACKENDS:
            self.assertError(-2, "A: row 3, group 1 (columns 4..7) has 3 nonzeros, pattern 2:4 "
                             "allows 2", sparse24.gemm, a, b, backend=backend)
        self.assertError(-1, "A: K = 18 is not a multiple of m = 4", sparse24.prune,
                         np.zeros((2, 18), np.int8))
        self.assertError(-1, "invalid pattern '3:5'", sparse24.prune, a, "3:5")
        self.assertError(-1, "unknown backend 'gpu' (model, rtl, soc or soc-cpu)", sparse24.Device, "gpu")
        # metadata: group 2 of row 1 holds indices (3, 1)
        values, meta = sparse24.compress(sparse24.prune(rand_i8(self.rng, (4, 16))))
        meta[1, 1] = 0x7  # group 2: low index 3, high index 1
        self.assertError(-3, "A metadata: row 1, group 2: invalid metadata, index 1 follows "
                         "index 3", sparse24.gemm_compressed, values, meta, 16, b)
        self.assertError(-3, "metadata: row 1, group 2", sparse24.decompress, values, meta, 16)

    def test_linear_parameters(self):
        w = np.zeros((4, 8), np.int8)
        x = np.zeros((2, 8), np.int8)
        mult = np.full(4, 2**30, np.int32)
        shift = np.zeros(4, np.int32)
        bad = shift.copy()
        bad[2] = 31
        self.assertError(-1, "SHIFT[2] = 31 is outside [-31, 30]", sparse24.linear, x, w, mult,
                         bad)
        bad = mult.copy()
        bad[1] = -5
        self.assertError(-1, "MULT[1] = -5 is outside [0, 2^31)", sparse24.linear, x, w, bad,
                         shift)
        self.assertError(-1, "ZO = 200 is not an integer in [-128, 127]", sparse24.linear, x, w,
                         mult, shift, zo=200)
        self.assertError(-1, "MULT: shape (3,), expected (4,)", sparse24.linear, x, w, mult[:3],
                         shift)
        self.assertError(-1, "X: shape (2, 8): X needs K = 12 columns", sparse24.linear, x,
                         np.zeros((4, 12), np.int8), mult, shift)

    def test_networks(self):
        self.assertError(-5, "<bytes>: not a TFLite model (no TFL3 identifier)",
                         sparse24.Network, b"\0" * 64)
        model = models_dir() / "kws.tflite"
        data = model.read_bytes()
        msg = self.assertError(-5, "<bytes>: ", sparse24.Network, data[: len(data) // 2])
        self.assertNotEqual(msg, "<bytes>: ")
        net = sparse24.Network(model)
        self.assertError(-1, "X: dtype int8, the model's input needs float32", net.run,
                         np.zeros((1, 50, 10, 1), np.int8))
        self.assertError(-1, "X: shape (1, 49, 10, 1), the model's input needs (1, 50, 10, 1) "
                         "(or a batch B in place of the leading 1)", net.run,
                         np.zeros((1, 49, 10, 1), np.float32))
        self.assertError(-4, "cannot read", sparse24.Network, self.dir / "missing.tflite")


class TestThreads(Base):
    """Handles shared between threads (issue 50: two threads on one Network aborted the
    interpreter): 8 threads x 200 calls on one network and on one device, bit-exact, and close()
    while other threads run: they finish or raise sparse24.Error, nothing aborts."""

    THREADS, CALLS = 8, 200

    def test_network_and_device_shared(self):
        import threading
        model = models_dir() / "kws.tflite"
        net = sparse24.Network(model)
        dev = sparse24.Device("model")
        xs = [self.rng.normal(0, 3, (1, 50, 10, 1)).astype(np.float32) for _ in range(4)]
        ys = [sparse24.Network(model).run(x) for x in xs]
        a = prune_ref(rand_i8(self.rng, (16, 32)), 2, 4)
        b = rand_i8(self.rng, (32, 8))
        c = a.astype(np.int32) @ b.astype(np.int32)
        bad = []

        def work(t):
            for i in range(self.CALLS):
                j = (t + i) % len(xs)
                if not np.array_equal(net.run(xs[j]).view(np.uint32), ys[j].view(np.uint32)):
                    bad.append(("net", t, i))
                if not np.array_equal(dev.gemm(a, b), c):
                    bad.append(("dev", t, i))

        threads = [threading.Thread(target=work, args=(t,)) for t in range(self.THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        self.assertEqual(bad, [])
        self.assertEqual(net.totals()["inferences"], self.THREADS * self.CALLS)
        net.close()
        dev.close()

    def test_close_during_run(self):
        import threading
        model = models_dir() / "kws.tflite"
        for _ in range(3):
            net = sparse24.Network(model)
            x = np.zeros((1, 50, 10, 1), np.float32)
            outcomes = []

            def work():
                try:
                    for _ in range(50):
                        net.run(x)
                    outcomes.append("done")
                except sparse24.Error as e:
                    outcomes.append("closed" if "closed" in e.message else e.message)

            threads = [threading.Thread(target=work) for _ in range(4)]
            for th in threads:
                th.start()
            net.close()  # waits for the calls in flight; later calls raise
            for th in threads:
                th.join()
            self.assertEqual(len(outcomes), 4)
            self.assertTrue(all(o in ("done", "closed") for o in outcomes), outcomes)
            self.assertError(-1, "the network is closed", net.run, x)


if __name__ == "__main__":
    unittest.main()
