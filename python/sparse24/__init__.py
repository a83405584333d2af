# SPDX-License-Identifier: Apache-2.0
"""sparse24: NumPy bindings over libsparse24.so (include/sparse24.h).

The 2:4-sparse int8 GEMM IP on a backend -- "model" (the bit-exact C golden model) or "rtl"
(the Verilated RTL driven by the host driver) -- with the arithmetic and formats of SPEC.md:

    import numpy as np, sparse24
    a = sparse24.prune(np.random.randint(-128, 128, (16, 64), dtype=np.int8))   # 2:4
    c = sparse24.gemm(a, b, backend="rtl")                                      # int32
    y = sparse24.linear(x, w, mult, shift, bias=bias, zi=-3, zo=5, relu=True)   # int8
    net = sparse24.Network("kws.tflite"); y = net.run(x); net.stats()

Arrays go in as NumPy arrays of exactly the documented dtype and shape (checked here, before
the library is called; never converted) and are passed as C-contiguous copies; results come
back as new arrays. Every failure raises sparse24.Error carrying the library's one-line message
(what is wrong and where) and its status (s24_status_t).

Devices and networks may be shared between threads: the library serialises the calls on a
handle (it releases the GIL while it works), and close() waits for the calls in flight, after
which every call raises sparse24.Error.

The library is build/lib/libsparse24.so of the repository this package sits in (make lib), or
the file named by the environment variable S24_LIB.
"""

import ctypes
import os
import pathlib
import threading

import numpy as np

__all__ = [
    "Error", "Device", "Network", "gemm", "gemm_compressed", "linear", "linear_compressed",
    "prune", "prune_model", "compress", "decompress", "values_cols", "meta_cols", "library_path",
]

# s24_status_t (include/s24_base.h): the names the library gives (s24_status_name), set as module
# constants (S24_OK, S24_ERR_ARG, ...) the first time the library is loaded; the ones used before
# that (an Error raised while finding the library) are its fixed values
S24_OK = 0
S24_ERR_ARG = -1
S24_ERR_UNSUPPORTED = -9

_ERRLEN = 512  # S24_API_ERRLEN
_MAX_DIMS = 8  # S24_API_MAX_DIMS


class Error(ValueError):
    """A failure of the library (or of the checks before it): .status is the s24_status_t,
    .message the one-line description, which names what is wrong and where."""

    def __init__(self, message, status=S24_ERR_ARG):
        super().__init__(message)
        self.message = message
        self.status = status


# ------------------------------------------------------------------ the library

def library_path():
    """The libsparse24.so the package loads: $S24_LIB, else build/lib/ of this repository."""
    env = os.environ.get("S24_LIB")
    if env:
        return pathlib.Path(env)
    return pathlib.Path(__file__).resolve().parents[2] / "build" / "lib" / "libsparse24.so"


class _Pattern(ctypes.Structure):
    _fields_ = [("n", ctypes.c_uint32), ("m", ctypes.c_uint32)]


class _Stats(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "macs_dense", "cycles", "job_cycles", "beats", "stall_w", "stall_a", "stall_r",
        "hw_jobs", "tiles", "sim_cycles")] + [("utilization", ctypes.c_double)]


class _LinearParams(ctypes.Structure):
    _fields_ = [("bias", ctypes.c_void_p), ("mult", ctypes.c_void_p), ("shift", ctypes.c_void_p),
                ("zi", ctypes.c_int32), ("zo", ctypes.c_int32), ("act_min", ctypes.c_int32),
                ("act_max", ctypes.c_int32)]


class _Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_uint32),
                ("dims", ctypes.c_int64 * _MAX_DIMS), ("bytes", ctypes.c_size_t)]


class _NetTotals(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "inferences", "ip_macs", "host_macs", "cycles", "job_cycles", "predicted_cycles",
        "arena_bytes", "activation_bytes")]


_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    path = library_path()
    if not path.exists():
        raise Error(f"{path}: no such library (run `make lib` in the repository, or set S24_LIB)",
                    S24_ERR_UNSUPPORTED)
    lib = ctypes.CDLL(str(path))
    P, S, I, Z = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_char_p
    st = ctypes.c_int
    sigs = {
        "s24_strerror": (Z, [I]),
        "s24_status_name": (Z, [I]),
        "s24_api_version": (ctypes.c_uint32, []),
        "s24_api_open": (st, [Z, ctypes.POINTER(P), Z, S]),
        "s24_api_close": (None, [P]),
        "s24_api_backend": (Z, [P]),
        "s24_api_relu_min": (ctypes.c_int32, [ctypes.c_int32]),
        "s24_api_stats": (st, [P, ctypes.POINTER(_Stats)]),
        "s24_api_stats_text": (st, [P, Z, S, ctypes.POINTER(S)]),
        "s24_api_gemm": (st, [P, ctypes.POINTER(_Pattern), P, S, S, P, S, P, P, Z, S]),
        "s24_api_gemm_compressed": (st, [P, _Pattern, P, P, S, S, P, S, P, P, Z, S]),
        "s24_api_linear": (st, [P, ctypes.POINTER(_Pattern), P, S, P, S, S,
                                ctypes.POINTER(_LinearParams), P, Z, S]),
        "s24_api_linear_compressed": (st, [P, _Pattern, P, S, P, P, S, S,
                                           ctypes.POINTER(_LinearParams), P, Z, S]),
        "s24_api_pattern": (st, [Z, ctypes.POINTER(_Pattern), Z, S]),
        "s24_api_values_cols": (S, [_Pattern, S]),
        "s24_api_meta_cols": (S, [_Pattern, S]),
        "s24_api_prune": (st, [_Pattern, P, S, S, P, Z, S]),
        "s24_api_compress": (st, [_Pattern, P, S, S, P, P, Z, S]),
        "s24_api_decompress": (st, [_Pattern, P, P, S, S, P, Z, S]),
        "s24_api_net_load": (st, [P, P, S, ctypes.POINTER(P), Z, S]),
        "s24_api_net_free": (None, [P]),
        "s24_api_net_io": (st, [P, ctypes.POINTER(_Tensor), ctypes.POINTER(_Tensor)]),
        "s24_api_net_run": (st, [P, P, S, S, P, S, Z, S]),
        "s24_api_net_totals": (st, [P, ctypes.POINTER(_NetTotals)]),
        "s24_api_net_stats": (st, [P, Z, S, ctypes.POINTER(S)]),
        "s24_api_net_info": (st, [P, Z, S, ctypes.POINTER(S)]),
        "s24_api_net_prune": (st, [P, S, _Pattern, P, S, ctypes.POINTER(S), Z, S]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    # the status codes, by the library's own names (one source: include/s24_base.h)
    code = 0
    while True:
        name = lib.s24_status_name(code)
        if not name:
            break
        globals()[name.decode()] = code
        code -= 1
    _lib = lib
    return lib


def _call(fn, *args):
    """Calls fn(*args, err, errlen); raises Error with the library's message on failure."""
    err = ctypes.create_string_buffer(_ERRLEN)
    status = fn(*args, err, _ERRLEN)
    if status != S24_OK:
        msg = err.value.decode(errors="replace") or _load().s24_strerror(status).decode()
        raise Error(msg, status)


def _text(fn, handle):
    """A text of the library (s24_api_stats_text and friends)."""
    needed = ctypes.c_size_t(0)
    if fn(handle, None, 0, ctypes.byref(needed)) != S24_OK:
        raise Error("cannot read the library's text", S24_ERR_ARG)
    buf = ctypes.create_string_buffer(needed.value + 1)
    if fn(handle, buf, needed.value + 1, None) != S24_OK:
        raise Error("cannot read the library's text", S24_ERR_ARG)
    return buf.value.decode()


def _kv(text):
    """`key: value` lines -> dict (ints and floats converted)."""
    out = {}
    for line in text.splitlines():
        key, sep, value = line.partition(": ")
        if not sep:
            continue
        for conv in (int, float):
            try:
                out[key] = conv(value)
                break
            except ValueError:
                pass
        else:
            out[key] = value
    return out


# ------------------------------------------------------------------ argument checks

_NAMES = {np.dtype(np.int8): "int8", np.dtype(np.uint8): "uint8", np.dtype(np.int32): "int32",
          np.dtype(np.float32): "float32"}


def _array(what, a, dtype, ndim):
    """a as a C-contiguous array of exactly dtype and ndim (never converted), else Error."""
    if not isinstance(a, np.ndarray):
        raise Error(f"{what}: expected a NumPy array of {_NAMES[np.dtype(dtype)]}, "
                    f"got {type(a).__name__}")
    if a.dtype != np.dtype(dtype):
        raise Error(f"{what}: dtype {a.dtype}, expected {_NAMES[np.dtype(dtype)]}")
    if a.ndim != ndim:
        raise Error(f"{what}: shape {a.shape} has {a.ndim} dimensions, expected {ndim}")
    if a.size == 0:
        raise Error(f"{what}: shape {a.shape} is empty")
    return np.ascontiguousarray(a)


def _ptr(a):
    return None if a is None else a.ctypes.data_as(ctypes.c_void_p)


def _pattern(p):
    """"N:M", (n, m) or an existing _Pattern -> _Pattern."""
    lib = _load()
    if isinstance(p, _Pattern):
        return p
    if isinstance(p, (tuple, list)) and len(p) == 2:
        p = f"{p[0]}:{p[1]}"
    if not isinstance(p, str):
        raise Error(f"pattern {p!r}: expected 'N:M', e.g. '2:4'")
    out = _Pattern()
    _call(lib.s24_api_pattern, p.encode(), ctypes.byref(out))
    return out


def values_cols(k, pattern="2:4"):
    """Columns of the values matrix for reduction length k (SPEC §2)."""
    return _load().s24_api_values_cols(_pattern(pattern), k)


def meta_cols(k, pattern="2:4"):
    """Bytes of one metadata row for reduction length k (SPEC §2)."""
    return _load().s24_api_meta_cols(_pattern(pattern), k)


def _compressed(what, values, meta, k, pattern):
    """Checks a compressed operand (values int8, meta uint8) for reduction length k."""
    p = _pattern(pattern)
    values = _array(f"{what} values", values, np.int8, 2)
    meta = _array(f"{what} metadata", meta, np.uint8, 2)
    if not isinstance(k, (int, np.integer)) or k < 1 or k % p.m:
        raise Error(f"k = {k!r} is not a positive multiple of m = {p.m} (pattern {p.n}:{p.m})")
    vcols, mcols = values_cols(int(k), p), meta_cols(int(k), p)
    if values.shape[1] != vcols:
        raise Error(f"{what} values: shape {values.shape}: K = {k} with pattern {p.n}:{p.m} needs "
                    f"{vcols} value columns")
    if meta.shape != (values.shape[0], mcols):
        raise Error(f"{what} metadata: shape {meta.shape}, expected {(values.shape[0], mcols)} for "
                    f"K = {k}")
    return p, values, meta


def _channel(what, v, m, dtype=np.int32):
    v = _array(what, v, dtype, 1)
    if v.shape[0] != m:
        raise Error(f"{what}: shape {v.shape}, expected ({m},) (one per output channel)")
    return v


def _zero_point(what, z):
    if not isinstance(z, (int, np.integer)) or not -128 <= z <= 127:
        raise Error(f"{what} = {z!r} is not an integer in [-128, 127]")
    return int(z)


# ------------------------------------------------------------------ handles

class _Handle:
    """A library object (self._h) freed by close(), on leaving a with block, or when
    collected; _free(h) is the library's call and _what names the object in messages.
    Shared between threads: every call holds the handle for its duration (_use), close() marks
    it closed, waits for the calls in flight, then frees it; a call after close() raises."""

    _h = None
    _what = "handle"
    _cond = None
    _busy = 0

    def _init_handle(self, h):
        self._cond = threading.Condition()
        self._busy = 0
        self._h = h

    def _free(self, h):
        raise NotImplementedError

    def close(self):
        cond = self._cond
        if cond is None:
            return
        with cond:
            h, self._h = self._h, None
            while self._busy:
                cond.wait()
        if h:
            self._free(h)

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    class _Use:
        def __init__(self, owner):
            self.owner = owner

        def __enter__(self):
            o = self.owner
            if o._cond is None:
                raise Error(f"the {o._what} is closed")
            with o._cond:
                if not o._h:
                    raise Error(f"the {o._what} is closed")
                o._busy += 1
                return o._h

        def __exit__(self, *exc):
            o = self.owner
            with o._cond:
                o._busy -= 1
                if not o._busy:
                    o._cond.notify_all()

    def _use(self):
        """with self._use() as h: a call on the handle (Error if it is closed)."""
        return _Handle._Use(self)


# ------------------------------------------------------------------ devices

class Device(_Handle):
    """An open device on a backend: "model" (the C golden model) or "rtl" (the Verilated RTL
    through the host driver). Usable as a context manager; close() frees it."""

    def __init__(self, backend="model"):
        lib = _load()
        if not isinstance(backend, str):
            raise Error(f"backend {backend!r}: expected 'model' or 'rtl'")
        h = ctypes.c_void_p()
        _call(lib.s24_api_open, backend.encode(), ctypes.byref(h))
        self._init_handle(h)
        self.backend = backend

    _what = "device"

    def _free(self, h):
        _load().s24_api_close(h)

    def stats(self):
        """Numbers of the last gemm/linear: the `key: value` lines of `sparse24 gemm --stats` /
        `sparse24 linear --stats`, and the s24_api_stats_t fields."""
        lib = _load()
        s = _Stats()
        with self._use() as h:
            if lib.s24_api_stats(h, ctypes.byref(s)) != S24_OK:
                raise Error("no statistics")
            out = _kv(_text(lib.s24_api_stats_text, h))
            # the numbers of s24_api_stats_t win over the text's lines of the same name (a
            # linear's text calls its job_cycles "cycles")
            out.update({name: getattr(s, name) for name, _ in _Stats._fields_})
        return out

    def gemm(self, a, b, pattern="2:4", c0=None):
        """C = A @ B (+ C0): A int8 (M, K), N:M sparse along K for pattern "N:M" (None: any
        values, run dense), B int8 (K, N), C0 int32 (M, N) or None -> C int32 (M, N)."""
        a = _array("A", a, np.int8, 2)
        b = _array("B", b, np.int8, 2)
        m, k = a.shape
        if b.shape[0] != k:
            raise Error(f"B: shape {b.shape}: B needs K = {k} rows to match A {a.shape}")
        n = b.shape[1]
        c0 = self._c0(c0, m, n)
        c = np.empty((m, n), np.int32)
        p = None if pattern is None else ctypes.byref(_pattern(pattern))
        with self._use() as h:
            _call(_load().s24_api_gemm, h, p, _ptr(a), m, k, _ptr(b), n, _ptr(c0), _ptr(c))
        return c

    def gemm_compressed(self, values, meta, k, b, pattern="2:4", c0=None):
        """C = A @ B (+ C0) with A compressed (SPEC §2: values int8, meta uint8, K = k)."""
        p, values, meta = _compressed("A", values, meta, k, pattern)
        b = _array("B", b, np.int8, 2)
        m = values.shape[0]
        if b.shape[0] != k:
            raise Error(f"B: shape {b.shape}: B needs K = {k} rows")
        n = b.shape[1]
        c0 = self._c0(c0, m, n)
        c = np.empty((m, n), np.int32)
        with self._use() as h:
            _call(_load().s24_api_gemm_compressed, h, p, _ptr(values), _ptr(meta), m, int(k),
                  _ptr(b), n, _ptr(c0), _ptr(c))
        return c

    @staticmethod
    def _c0(c0, m, n):
        if c0 is None:
            return None
        c0 = _array("C0", c0, np.int32, 2)
        if c0.shape != (m, n):
            raise Error(f"C0: shape {c0.shape}, expected {(m, n)} = M x N")
        return c0

    @staticmethod
    def _params(m, mult, shift, bias, zi, zo, relu, act_min, act_max):
        mult = _channel("MULT", mult, m)
        shift = _channel("SHIFT", shift, m)
        bias = None if bias is None else _channel("BIAS", bias, m)
        zi, zo = _zero_point("ZI", zi), _zero_point("ZO", zo)
        if relu and act_min is not None:
            raise Error("relu and act_min exclude each other")
        lo = _zero_point("act_min", act_min) if act_min is not None else \
            (_load().s24_api_relu_min(zo) if relu else -128)
        hi = _zero_point("act_max", act_max) if act_max is not None else 127
        prm = _LinearParams(_ptr(bias), _ptr(mult), _ptr(shift), zi, zo, lo, hi)
        return prm, (mult, shift, bias)  # the arrays stay alive for the call

    def linear(self, x, w, mult, shift, bias=None, zi=0, zo=0, relu=False, pattern="2:4",
               act_min=None, act_max=None):
        """The fused int8 layer of SPEC §7: X int8 (B, K), W int8 (M, K) (N:M sparse for
        pattern, None: any values), MULT, SHIFT, BIAS int32 (M,) -> Y int8 (B, M). The clamp:
        [act_min, act_max] (default -128, 127; relu: max(-128, zo), 127), the fused
        activation's int8 range (RELU6, RELU_N1_TO_1 as TFLite computes it)."""
        x = _array("X", x, np.int8, 2)
        w = _array("W", w, np.int8, 2)
        m, k = w.shape
        if x.shape[1] != k:
            raise Error(f"X: shape {x.shape}: X needs K = {k} columns to match W {w.shape}")
        prm, keep = self._params(m, mult, shift, bias, zi, zo, relu, act_min, act_max)
        y = np.empty((x.shape[0], m), np.int8)
        p = None if pattern is None else ctypes.byref(_pattern(pattern))
        with self._use() as h:
            _call(_load().s24_api_linear, h, p, _ptr(x), x.shape[0], _ptr(w), m, k,
                  ctypes.byref(prm), _ptr(y))
        del keep
        return y

    def linear_compressed(self, x, values, meta, k, mult, shift, bias=None, zi=0, zo=0,
                          relu=False, pattern="2:4", act_min=None, act_max=None):
        """The fused int8 layer with W compressed (values, meta, K = k)."""
        p, values, meta = _compressed("W", values, meta, k, pattern)
        x = _array("X", x, np.int8, 2)
        m = values.shape[0]
        if x.shape[1] != k:
            raise Error(f"X: shape {x.shape}: X needs K = {k} columns")
        prm, keep = self._params(m, mult, shift, bias, zi, zo, relu, act_min, act_max)
        y = np.empty((x.shape[0], m), np.int8)
        with self._use() as h:
            _call(_load().s24_api_linear_compressed, h, p, _ptr(x), x.shape[0], _ptr(values),
                  _ptr(meta), m, int(k), ctypes.byref(prm), _ptr(y))
        del keep
        return y


def _on(backend, method, *args, **kw):
    with Device(backend) as dev:
        return getattr(dev, method)(*args, **kw)


def gemm(a, b, pattern="2:4", c0=None, backend="model"):
    """C = A @ B (+ C0) on a backend; see Device.gemm."""
    return _on(backend, "gemm", a, b, pattern=pattern, c0=c0)


def gemm_compressed(values, meta, k, b, pattern="2:4", c0=None, backend="model"):
    """C = A @ B (+ C0) with A compressed; see Device.gemm_compressed."""
    return _on(backend, "gemm_compressed", values, meta, k, b, pattern=pattern, c0=c0)


def linear(x, w, mult, shift, bias=None, zi=0, zo=0, relu=False, pattern="2:4",
           backend="model", act_min=None, act_max=None):
    """The fused int8 layer of SPEC §7 on a backend; see Device.linear."""
    return _on(backend, "linear", x, w, mult, shift, bias=bias, zi=zi, zo=zo, relu=relu,
               pattern=pattern, act_min=act_min, act_max=act_max)


def linear_compressed(x, values, meta, k, mult, shift, bias=None, zi=0, zo=0, relu=False,
                      pattern="2:4", backend="model", act_min=None, act_max=None):
    """The fused int8 layer with W compressed; see Device.linear_compressed."""
    return _on(backend, "linear_compressed", x, values, meta, k, mult, shift, bias=bias, zi=zi,
               zo=zo, relu=relu, pattern=pattern, act_min=act_min, act_max=act_max)


# ------------------------------------------------------------------ prune / compress

def prune(a, pattern="2:4"):
    """SPEC §3: A int8 (rows, K) with all but the n largest magnitudes of each group of m
    zeroed (ties: the lower index)."""
    p = _pattern(pattern)
    a = _array("A", a, np.int8, 2)
    out = np.empty_like(a)
    _call(_load().s24_api_prune, p, _ptr(a), a.shape[0], a.shape[1], _ptr(out))
    return out


def compress(a, pattern="2:4"):
    """SPEC §2: (values int8 (rows, K/m*n), meta uint8 (rows, meta_cols)) of an N:M-sparse A."""
    p = _pattern(pattern)
    a = _array("A", a, np.int8, 2)
    rows, k = a.shape
    vcols, mcols = values_cols(k, p) or 1, meta_cols(k, p) or 1
    values = np.empty((rows, vcols), np.int8)
    meta = np.empty((rows, mcols), np.uint8)
    _call(_load().s24_api_compress, p, _ptr(a), rows, k, _ptr(values), _ptr(meta))
    return values, meta


def decompress(values, meta, k, pattern="2:4"):
    """The dense int8 (rows, k) matrix of a compressed one (metadata validated first)."""
    p, values, meta = _compressed("A", values, meta, k, pattern)
    out = np.empty((values.shape[0], int(k)), np.int8)
    _call(_load().s24_api_decompress, p, _ptr(values), _ptr(meta), values.shape[0], int(k),
          _ptr(out))
    return out


# ------------------------------------------------------------------ networks

_DTYPES = {0: np.dtype(np.int8), 1: np.dtype(np.float32)}


class Network(_Handle):
    """An int8 .tflite network (SPEC §8) loaded onto a device of its own: model is the file's
    bytes or a path. run(x) runs inferences with the array layers on the backend (the rest on
    the host) as `sparse24 run` does; the library plans the network's memory once, at load."""

    def __init__(self, model, backend="model"):
        lib = _load()
        if isinstance(model, (bytes, bytearray, memoryview)):
            data = bytes(model)
            self.name = "<bytes>"
        else:
            self.name = os.fspath(model)
            try:
                data = pathlib.Path(self.name).read_bytes()
            except OSError as e:
                raise Error(f"{self.name}: cannot read: {e.strerror}", -4) from None
        self._data = data
        self.device = Device(backend)
        buf = ctypes.create_string_buffer(data, len(data))
        h = ctypes.c_void_p()
        try:
            with self.device._use() as dh:
                _call(lib.s24_api_net_load, dh, ctypes.cast(buf, ctypes.c_void_p), len(data),
                      ctypes.byref(h))
        except Error as e:
            self.device.close()
            raise Error(f"{self.name}: {e.message}", e.status) from None
        self._init_handle(h)
        tin, tout = _Tensor(), _Tensor()
        lib.s24_api_net_io(h, ctypes.byref(tin), ctypes.byref(tout))
        self.input_dtype = _DTYPES[tin.dtype]
        self.input_shape = tuple(tin.dims[i] for i in range(tin.rank))
        self.output_dtype = _DTYPES[tout.dtype]
        self.output_shape = tuple(tout.dims[i] for i in range(tout.rank))
        self._in_bytes, self._out_bytes = tin.bytes, tout.bytes

    _what = "network"
    device = None

    def _free(self, h):
        _load().s24_api_net_free(h)

    def close(self):
        super().close()  # the network first: it runs on the device
        if self.device is not None:
            self.device.close()

    def _batch(self, x):
        """The batch B of x: the input's shape, or that shape with B in place of a leading 1."""
        shp = self.input_shape
        if not isinstance(x, np.ndarray):
            raise Error(f"X: expected a NumPy array of {self.input_dtype}, got {type(x).__name__}")
        if x.dtype != self.input_dtype:
            raise Error(f"X: dtype {x.dtype}, the model's input needs {self.input_dtype}")
        ok = x.ndim == len(shp) and len(shp) >= 1 and x.shape[1:] == shp[1:] and \
            (x.shape[0] == shp[0] or shp[0] == 1)
        if not ok or x.size == 0:
            extra = " (or a batch B in place of the leading 1)" if shp and shp[0] == 1 else ""
            raise Error(f"X: shape {x.shape}, the model's input needs {shp}{extra}")
        return x.shape[0] if shp[0] == 1 else 1

    def run(self, x):
        """Y for X (the input's dtype; its shape, or with a batch B in place of a leading 1):
        the output's dtype and shape with the same B, as `sparse24 run` writes it."""
        batch = self._batch(x)
        x = np.ascontiguousarray(x)
        shp = self.output_shape
        if batch > 1 and not (shp and shp[0] == 1):
            oshape = (batch,) + shp
        elif shp:
            oshape = ((batch,) if shp[0] == 1 else (shp[0],)) + shp[1:]
        else:
            oshape = (batch,)
        y = np.empty(oshape, self.output_dtype)
        with self._use() as h:
            _call(_load().s24_api_net_run, h, _ptr(x), x.nbytes, batch, _ptr(y), y.nbytes)
        return y

    def stats(self):
        """The `sparse24 run --stats` lines of the runs so far as a dict (per layer opN_name,
        opN_gemm_mkn, opN_pattern, opN_cycles (rtl), opN_predicted_cycles; then the totals)."""
        return _kv(self.stats_text())

    def layers(self):
        """The array layers of the runs so far: {operator index: {"name", "gemm_mkn",
        "pattern", "cycles" (rtl), "predicted_cycles"}}, from the opN_* lines of stats()."""
        out = {}
        for key, value in self.stats().items():
            op, sep, field = key.partition("_")
            if sep and op.startswith("op") and op[2:].isdigit():
                out.setdefault(int(op[2:]), {})[field] = value
        return out

    def stats_text(self):
        with self._use() as h:
            return _text(_load().s24_api_net_stats, h)

    def totals(self):
        """Totals of the runs so far: inferences, ip_macs, host_macs, cycles, job_cycles (rtl),
        predicted_cycles; and the network's memory: arena_bytes, activation_bytes."""
        t = _NetTotals()
        with self._use() as h:
            _load().s24_api_net_totals(h, ctypes.byref(t))
        return {name: getattr(t, name) for name, _ in _NetTotals._fields_}

    def info(self):
        """The table of `sparse24 info`."""
        with self._use() as h:
            return _text(_load().s24_api_net_info, h)

    def prune(self, pattern="2:4"):
        """The .tflite bytes of `sparse24 prune`: every FULLY_CONNECTED and CONV_2D weight
        tensor pruned to pattern, every other byte unchanged."""
        return prune_model(self._data, pattern)


def prune_model(model, pattern="2:4"):
    """`sparse24 prune` of a .tflite model (its bytes or a path), whatever operators it holds:
    the bytes of a copy whose FULLY_CONNECTED and CONV_2D int8 weights are pruned to pattern."""
    lib = _load()
    if isinstance(model, (bytes, bytearray, memoryview)):
        data = bytes(model)
    else:
        try:
            data = pathlib.Path(os.fspath(model)).read_bytes()
        except OSError as e:
            raise Error(f"{os.fspath(model)}: cannot read: {e.strerror}", -4) from None
    buf = ctypes.create_string_buffer(data, len(data))
    out = ctypes.create_string_buffer(max(len(data), 1))
    pruned = ctypes.c_size_t(0)
    _call(lib.s24_api_net_prune, ctypes.cast(buf, ctypes.c_void_p), len(data), _pattern(pattern),
          ctypes.cast(out, ctypes.c_void_p), len(data), ctypes.byref(pruned))
    return out.raw[:len(data)]
