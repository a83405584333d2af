# SPDX-License-Identifier: Apache-2.0
"""s24_top driven by a client written elsewhere: cocotbext-axi's AxiLiteMaster, AxiStreamSource and
AxiStreamSink (cocotb, Icarus), with random pauses on every channel (issue #51, "the IP as a bus
citizen"). 17 checks, each a cocotb test on a freshly reset block; `make test-cocotb` runs them on
8x8 2:4 and 2x2 2:4 (tests/cocotb.mk).

Environment: S24_CFG (R:C:n:m of the build, checked against HW_ARRAY), S24_SEED (the seed; a random
one when unset, printed either way: every test draws from Random("<seed>:<cfg>:<test>"), so
`make test-cocotb SEED=N` repeats a run and COCOTB_TESTCASE=<test> one test of it), S24_SPARSE24
(the command whose C golden model gives the expected results), S24_WORK (scratch folder).

Every test also checks, on every cycle, that m_axis_r never withdraws or changes a beat before it
is taken (AXI4-Stream) and that B and R stay stable while not accepted (AXI4-Lite).
"""
import functools
import logging
import os
import pathlib
import random
import sys
import time
import tomllib

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import (AxiLiteBus, AxiLiteMaster, AxiResp, AxiStreamBus, AxiStreamFrame,
                           AxiStreamSink, AxiStreamSource)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import s24_beats as sb  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
with open(ROOT / "regs" / "s24_regs.toml", "rb") as _f:
    TABLE = tomllib.load(_f)  # the one register table
REGS = {r["name"]: r for r in TABLE["reg"]}
OFF = {r["name"]: r["offset"] for r in TABLE["reg"]}
SPAN = TABLE["block"]["span"]
WINDOW = 1 << TABLE["block"]["addr_bits"]
CFG = os.environ.get("S24_CFG", "8:8:2:4")
GEO = sb.Geometry(*(int(x) for x in CFG.split(":")[:4]))
SEED = int(os.environ.get("S24_SEED") or (time.time_ns() // 1000) % 1000000007)
SPARSE24 = pathlib.Path(os.environ.get("S24_SPARSE24", ROOT / "build" / "sparse24"))
WORK = pathlib.Path(os.environ.get("S24_WORK", ROOT / "build" / "cocotb" / "work"))
LOG = logging.getLogger("cocotb.s24")
LOG.setLevel(logging.INFO)
LOG.info("test_s24_top: config %s, seed %d (repeat: make test-cocotb SEED=%d)", CFG, SEED, SEED)


def field(reg, name):
    for f in REGS[reg]["field"]:
        if f["name"] == name:
            return f
    raise KeyError(f"{reg}.{name}")


def mask(reg, name):
    f = field(reg, name)
    return ((1 << f["width"]) - 1) << f["lsb"]


def access_mask(reg, access):
    return sum(((1 << f["width"]) - 1) << f["lsb"] for f in REGS[reg]["field"] if f["access"] == access)


def param_values():
    """The s24_top parameters the build-parameter registers read (their `param` names)."""
    d = TABLE["defaults"]
    has_pair = d["PairMode"] == 1 and GEO.n == 2 and GEO.m > 2
    most = 2 * d["EpiLanes"] if has_pair else d["EpiLanes"]
    lanes = max(i for i in range(1, most + 1) if GEO.cols % i == 0)
    return {"NumRows": GEO.rows, "NumCols": GEO.cols, "SparseN": GEO.n, "SparseM": GEO.m,
            "DataWidth": 8, "AccWidth": 32, "IdxWidth": GEO.idx_bits, "WWords": GEO.w_words,
            "AWords": GEO.a_words, "RWords": GEO.r_words, "EpiDepth": d["EpiDepth"],
            "EpiLanesEff": lanes}


def reset_value(reg):
    prm = param_values()
    return sum((prm[f["param"]] if f["reset"] == "param" else f["reset"]) << f["lsb"]
               for f in REGS[reg]["field"])


def rw_regs():
    """Registers with a read/write field, and storage registers (whole words, no side effect)."""
    return [r["name"] for r in TABLE["reg"] if access_mask(r["name"], "rw")]


def store_regs():
    return [r["name"] for r in TABLE["reg"] if r.get("store")]


def pauses(rng, p):
    while True:
        yield rng.random() < p


class Tb:
    """The block with its clients: an AXI4-Lite master, two stream sources, a result sink, a
    monitor of every result handshake (self.beats: (TDATA, TLAST)) and the protocol checks."""

    def __init__(self, dut, name, axil_pause=0.3, stream_pause=0.3, sink_pause=0.3):
        self.dut = dut
        self.rng = random.Random(f"{SEED}:{CFG}:{name}")
        self.name = name
        logging.getLogger(f"cocotb.{dut._name}").setLevel(logging.WARNING)
        cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
        dut.rst_n.setimmediatevalue(0)
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst_n,
                                  reset_active_level=False)
        self.src_w = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_w"), dut.clk, dut.rst_n,
                                     reset_active_level=False)
        self.src_a = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_a"), dut.clk, dut.rst_n,
                                     reset_active_level=False)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_r"), dut.clk, dut.rst_n,
                                  reset_active_level=False)
        self.beats = []
        self.errors = []
        self.cycle = 0
        self.set_pauses(axil_pause, stream_pause, sink_pause)
        cocotb.start_soon(self._monitor())

    def set_pauses(self, axil, stream, sink):
        """Random pauses with these probabilities on every AXI4-Lite channel, both input streams
        (TVALID) and the result stream (TREADY: backpressure)."""
        for ch in (self.axil.write_if.aw_channel, self.axil.write_if.w_channel,
                   self.axil.write_if.b_channel, self.axil.read_if.ar_channel,
                   self.axil.read_if.r_channel):
            ch.set_pause_generator(pauses(self.rng, axil) if axil else None)
        for s, p in ((self.src_w, stream), (self.src_a, stream), (self.sink, sink)):
            s.set_pause_generator(pauses(self.rng, p) if p else None)
            s.pause = False

    async def _monitor(self):
        d = self.dut
        held = None  # (TDATA, TLAST) of a result beat presented and not taken
        b_held = r_held = None
        while True:
            await RisingEdge(d.clk)
            self.cycle += 1
            if not d.rst_n.value:
                held = b_held = r_held = None
                continue
            valid, ready = int(d.m_axis_r_tvalid.value), int(d.m_axis_r_tready.value)
            beat = (int(d.m_axis_r_tdata.value), int(d.m_axis_r_tlast.value)) if valid else None
            if held is not None and beat != held:
                self.errors.append(f"cycle {self.cycle}: m_axis_r withdrew or changed a beat "
                                   f"before it was taken ({held} -> {beat})")
            if valid and ready:
                self.beats.append(beat)
            held = beat if valid and not ready else None
            b = (int(d.s_axil_bresp.value),) if int(d.s_axil_bvalid.value) else None
            r = (int(d.s_axil_rdata.value), int(d.s_axil_rresp.value)) if int(d.s_axil_rvalid.value) else None
            if b_held is not None and b != b_held:
                self.errors.append(f"cycle {self.cycle}: B changed before it was accepted")
            if r_held is not None and r != r_held:
                self.errors.append(f"cycle {self.cycle}: R changed before it was accepted")
            b_held = b if b and not int(d.s_axil_bready.value) else None
            r_held = r if r and not int(d.s_axil_rready.value) else None

    async def reset(self):
        self.dut.rst_n.value = 0
        await ClockCycles(self.dut.clk, 4)
        self.dut.rst_n.value = 1
        await ClockCycles(self.dut.clk, 2)
        arr = await self.rd_ok(OFF["HW_ARRAY"])
        got = [arr >> (8 * i) & 0xFF for i in range(4)]
        assert got == [GEO.rows, GEO.cols, GEO.n, GEO.m], f"HW_ARRAY {got}, S24_CFG {CFG}"

    def finish(self):
        assert not self.errors, "protocol: " + "; ".join(self.errors[:5])
        self.sink.clear()

    # ------------------------------------------------------------------ registers
    async def rd(self, addr, length=4):
        r = await self.axil.read(addr, length)
        return int.from_bytes(r.data, "little"), r.resp

    async def rd_ok(self, addr, length=4):
        v, resp = await self.rd(addr, length)
        assert resp == AxiResp.OKAY, f"read 0x{addr:02X}: {resp!r}"
        return v

    async def wr(self, addr, value, length=4):
        r = await self.axil.write(addr, (value & ((1 << (8 * length)) - 1)).to_bytes(length, "little"))
        return r.resp

    async def wr_ok(self, addr, value, length=4):
        resp = await self.wr(addr, value, length)
        assert resp == AxiResp.OKAY, f"write 0x{addr:02X}: {resp!r}"

    async def reg(self, name):
        return await self.rd_ok(OFF[name])

    async def snapshot(self):
        return {r: await self.reg(r) for r in OFF}

    async def wait_done(self, limit=20000):
        busy, done = mask("STATUS", "BUSY"), mask("STATUS", "DONE")
        t0 = self.cycle
        while self.cycle - t0 < limit:
            st = await self.reg("STATUS")
            if st & done and not st & busy:
                return st
        raise AssertionError(f"{self.name}: the job did not complete in {limit} cycles")

    async def wait_beats(self, n, limit=40000):
        t0 = self.cycle
        while len(self.beats) < n:
            assert self.cycle - t0 < limit, f"{len(self.beats)} of {n} result beats after {limit} cycles"
            await RisingEdge(self.dut.clk)

    # ------------------------------------------------------------------ GEMMs
    def operands(self, m, k, n):
        a = np.array([[self.rng.randint(-128, 127) for _ in range(k)] for _ in range(m)], dtype=np.int8)
        b = np.array([[self.rng.randint(-128, 127) for _ in range(n)] for _ in range(k)], dtype=np.int8)
        return sb.prune(self.rng, a, GEO.m), b

    def shape(self):
        return (self.rng.randint(1, 2 * GEO.rows + 1), GEO.m * self.rng.randint(1, 6),
                self.rng.randint(1, 2 * GEO.cols + 1))

    async def start(self, beats, tiles):
        await self.wr_ok(OFF["CFG_BEATS"], beats)
        await self.wr_ok(OFF["CFG_TILES"], tiles)
        await self.wr_ok(OFF["CTRL"], mask("CTRL", "START"))

    async def send(self, wf, af):
        for f in wf:
            await self.src_w.send(AxiStreamFrame(f))
        for f in af:
            await self.src_a.send(AxiStreamFrame(f))

    async def inputs_taken(self):
        await self.src_w.wait()
        await self.src_a.wait()
        await ClockCycles(self.dut.clk, 2)

    def check_tiles(self, got, exp, what):
        R = GEO.rows
        assert len(got) == len(exp) * R, f"{what}: {len(got)} result beats, want {len(exp) * R}"
        for t, tile in enumerate(exp):
            for r, row in enumerate(tile):
                data, last = got[t * R + r]
                assert GEO.r_row(data) == row, f"{what}: tile {t} row {r}: {GEO.r_row(data)} != model {row}"
                assert last == (r == R - 1), f"{what}: tile {t} row {r}: TLAST {last}"

    async def gemm(self, m, k, n, before_start=None, a=None, b=None, split=None, start_busy=False):
        """One GEMM as one job, bit-exact against the C model; returns (beats, tiles, STATUS)."""
        if a is None:
            a, b = self.operands(m, k, n)
        c = sb.model_gemm(SPARSE24, GEO, a, b, WORK)
        beats, tiles, wf, af, order = sb.gemm_job(GEO, a, b)
        if split:
            wf, af = split(wf, af)
        exp = sb.expected_tiles(GEO, c, order)
        n0 = len(self.beats)
        queue_first = self.rng.random() < 0.5 if before_start is None else before_start
        if queue_first:
            await self.send(wf, af)
        await self.start(beats, tiles)
        if start_busy:
            await self.wr_ok(OFF["CTRL"], mask("CTRL", "START"))
        if not queue_first:
            await self.send(wf, af)
        await self.wait_beats(n0 + tiles * GEO.rows)
        st = await self.wait_done()
        self.check_tiles(self.beats[n0:], exp, f"GEMM {m}x{k}x{n}")
        assert await self.reg("CNT_BEATS") == beats * tiles, "CNT_BEATS"
        assert await self.reg("CNT_TILES_OUT") == tiles, "CNT_TILES_OUT"
        return beats, tiles, st


class Ports:
    """s24_top itself (the cocotb toplevel) as cocotbext-axi looks its buses up: every port by its name
    without the _i/_o/_ni suffix (s_axil_awaddr for s_axil_awaddr_i, clk, rst_n, irq), so no
    hand-written wrapper stands between the bench and the IP's port list."""

    def __init__(self, dut):
        self._dut, self._log, self._name = dut, dut._log, dut._name
        self._ports = {}
        for n in dir(dut):
            for suffix in ("_ni", "_i", "_o"):
                if n.endswith(suffix):
                    self._ports[n[:-len(suffix)] + ("_n" if suffix == "_ni" else "")] = n
                    break
        assert {"clk", "rst_n", "irq", "s_axil_awaddr", "m_axis_r_tdata"} <= self._ports.keys(), \
            f"s24_top's ports: {sorted(self._ports)}"

    def __dir__(self):
        return list(self._ports)

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._ports:
            raise AttributeError(name)
        return getattr(self._dut, self._ports[name])


def test(**kw):
    """A cocotb test on s24_top, handed its Ports."""
    def wrap(f):
        @functools.wraps(f)
        async def run(dut):
            return await f(Ports(dut))
        return cocotb.test(timeout_time=20, timeout_unit="ms", **kw)(run)
    return wrap


# ---------------------------------------------------------------------- the 17 checks
@test()
async def reset_values(dut):
    """1. Every register's reset value, as the table gives it (params from the build)."""
    tb = Tb(dut, "reset_values")
    await tb.reset()
    for name, off in OFF.items():
        got = await tb.rd_ok(off)
        assert got == reset_value(name), f"{name} reset 0x{got:08X}, table 0x{reset_value(name):08X}"
    ver = await tb.reg("VERSION")
    assert (ver >> 16, ver & 0xFFFF) == (TABLE["block"]["version_major"], TABLE["block"]["version_minor"])
    tb.finish()


@test()
async def register_sweep(dut):
    """2. Every register written with ones, zeros and a pattern: rw bits keep what was written,
    ro bits their value, w1c bits (none set) and w1p bits read 0; EPI_SHIFT's write moves
    EPI_ADDR on; every register read again at the end."""
    tb = Tb(dut, "register_sweep")
    await tb.reset()
    model = {r: reset_value(r) for r in OFF}
    start = mask("CTRL", "START")
    for name, off in sorted(OFF.items(), key=lambda x: x[1]):
        rw, ro = access_mask(name, "rw"), access_mask(name, "ro")
        for v in (0xFFFFFFFF, 0, tb.rng.getrandbits(32)):
            if name == "CTRL" and not v & mask("CTRL", "SOFT_RESET"):
                v &= ~start  # START is its own test (a START here would flag BAD_CFG)
            await tb.wr_ok(off, v)
            model[name] = (v & rw) | (model[name] & ro)
            if name == "EPI_SHIFT":
                model["EPI_ADDR"] = (model["EPI_ADDR"] + 1) & 0xFFFF
            got = await tb.rd_ok(off)
            assert got == model[name], f"{name} after writing 0x{v:08X}: 0x{got:08X}, want 0x{model[name]:08X}"
    for name, off in OFF.items():
        got = await tb.rd_ok(off)
        assert got == model[name], f"{name} at the end: 0x{got:08X}, want 0x{model[name]:08X}"
    tb.finish()


@test()
async def err_irq_causes_w1c(dut):
    """3. Every ERR cause (BAD_CFG, META, W_LAST, A_LAST, START_BUSY) with IRQ.ERROR/DONE and
    irq; then write-1-to-clear bit by bit: a 0 keeps a bit, a 1 outside the strobed bytes keeps
    it, a strobed 1 clears it alone."""
    tb = Tb(dut, "err_irq_causes_w1c")
    await tb.reset()
    await tb.wr_ok(OFF["CTRL"], mask("CTRL", "IRQ_EN"))
    await tb.wr_ok(OFF["CTRL"], mask("CTRL", "IRQ_EN") | mask("CTRL", "START"))  # CFG_BEATS = 0
    assert await tb.reg("ERR") == mask("ERR", "BAD_CFG")
    assert dut.irq.value == 1
    # a 2-beat job: weights with invalid metadata and TLAST on beat 0, activations TLAST on beat 0
    a, b = tb.operands(GEO.rows, 2 * GEO.m, GEO.cols)
    beats, tiles, wf, af, order = sb.gemm_job(GEO, a, b)
    bad = bytearray(wf[0])
    bad[: GEO.w_words * 4] = GEO.w_beat([[1] * GEO.n] * GEO.rows, [[1] * GEO.n] * GEO.rows)
    lanes = GEO.w_words * 4
    await tb.wr_ok(OFF["CFG_BEATS"], beats)
    await tb.wr_ok(OFF["CFG_TILES"], tiles)
    await tb.wr_ok(OFF["CTRL"], mask("CTRL", "IRQ_EN") | mask("CTRL", "START"))
    await tb.wr_ok(OFF["CTRL"], mask("CTRL", "IRQ_EN") | mask("CTRL", "START"))  # busy
    await tb.send([bytes(bad[:lanes]), bytes(bad[lanes:])],
                  [af[0][: GEO.a_words * 4], af[0][GEO.a_words * 4:]])
    await tb.wait_beats(GEO.rows)
    await tb.wait_done()
    assert await tb.reg("ERR") == access_mask("ERR", "w1c"), f"ERR 0x{await tb.reg('ERR'):X}"
    assert await tb.reg("IRQ") == access_mask("IRQ", "w1c")
    for reg, status_bit in (("ERR", mask("STATUS", "ERROR")), ("IRQ", None)):
        bits = [f["name"] for f in REGS[reg]["field"]]
        tb.rng.shuffle(bits)
        left = access_mask(reg, "w1c")
        for bit in bits:
            m = mask(reg, bit)
            await tb.wr_ok(OFF[reg], 0)
            assert await tb.reg(reg) == left, f"{reg}: a written 0 cleared something"
            await tb.wr_ok(OFF[reg] + 1, 0xFFFFFF, length=3)  # ones in bytes 1-3 only
            assert await tb.reg(reg) == left, f"{reg}: ones outside the strobed byte cleared something"
            await tb.wr_ok(OFF[reg], m)
            left &= ~m
            assert await tb.reg(reg) == left, f"{reg}.{bit}: W1C left 0x{await tb.reg(reg):X}"
            if status_bit is not None:
                assert bool(await tb.reg("STATUS") & status_bit) == bool(left), "STATUS.ERROR"
    assert dut.irq.value == 0, "irq with every IRQ bit cleared"
    tb.finish()


@test()
async def outstanding_writes(dut):
    """4. 48 writes issued at once (random pauses on AW, W, B): all OKAY, several in flight,
    each register ends with its last write."""
    tb = Tb(dut, "outstanding_writes")
    await tb.reset()
    inflight = {"now": 0, "max": 0}

    async def count():
        d = dut
        while True:
            await RisingEdge(d.clk)
            aw = int(d.s_axil_awvalid.value) and int(d.s_axil_awready.value)
            b = int(d.s_axil_bvalid.value) and int(d.s_axil_bready.value)
            inflight["now"] += aw - b
            inflight["max"] = max(inflight["max"], inflight["now"] + int(int(d.s_axil_awvalid.value) and not aw))
    cocotb.start_soon(count())
    regs = store_regs()
    last = {}
    events = []
    for _ in range(48):
        r = tb.rng.choice(regs)
        v = tb.rng.getrandbits(32)
        last[r] = v & access_mask(r, "rw")
        events.append(tb.axil.init_write(OFF[r], v.to_bytes(4, "little")))
    for e in events:
        await e.wait()
        assert e.data.resp == AxiResp.OKAY
    for r, v in last.items():
        assert await tb.reg(r) == v, f"{r}: 0x{await tb.reg(r):08X}, last write 0x{v:08X}"
    assert inflight["max"] >= 2, f"at most {inflight['max']} write in flight"
    tb.finish()


@test()
async def outstanding_reads(dut):
    """5. 64 reads issued at once, interleaved with writes (random pauses on AR, R): in order,
    OKAY, each returning its register's value."""
    tb = Tb(dut, "outstanding_reads")
    await tb.reset()
    inflight = {"max": 0}

    async def count():
        d, n = dut, 0
        while True:
            await RisingEdge(d.clk)
            ar = int(d.s_axil_arvalid.value) and int(d.s_axil_arready.value)
            r = int(d.s_axil_rvalid.value) and int(d.s_axil_rready.value)
            n += ar - r
            inflight["max"] = max(inflight["max"], n + int(int(d.s_axil_arvalid.value) and not ar))
    cocotb.start_soon(count())
    consts = ["ID", "VERSION", "HW_ARRAY", "HW_WIDTH", "HW_BEAT", "HW_EPI"]
    for rnd in range(2):
        vals = {r: tb.rng.getrandbits(32) & access_mask(r, "rw") for r in store_regs()}
        for r, v in vals.items():
            await tb.wr_ok(OFF[r], v)
        names = [tb.rng.choice(consts + list(vals)) for _ in range(32)]
        events = [tb.axil.init_read(OFF[r], 4) for r in names]
        for r, e in zip(names, events):
            await e.wait()
            want = reset_value(r) if r in consts else vals[r]
            got = int.from_bytes(e.data.data, "little")
            assert e.data.resp == AxiResp.OKAY and got == want, f"{r}: 0x{got:08X} {e.data.resp!r}"
    assert inflight["max"] >= 2, f"at most {inflight['max']} read in flight"
    tb.finish()


@test()
async def strobes(dut):
    """6. Every contiguous byte range (byte, halfword, 3 bytes, word) at every offset of every
    read/write register: only the strobed bytes change, rw bits only."""
    tb = Tb(dut, "strobes")
    await tb.reset()
    for name in rw_regs():
        if name in ("CTRL", "EPI_SHIFT"):
            continue  # fields that act: byte_stores
        off, rw = OFF[name], access_mask(name, "rw")
        cur = await tb.reg(name)
        for lo in range(4):
            for hi in range(lo + 1, 5):
                v = tb.rng.getrandbits(32)
                await tb.wr_ok(off + lo, v >> (8 * lo), length=hi - lo)
                m = sum(0xFF << (8 * i) for i in range(lo, hi))
                cur = (cur & ~(m & rw)) | (v & m & rw)
                got = await tb.reg(name)
                assert got == cur, f"{name} bytes {lo}..{hi - 1}: 0x{got:08X}, want 0x{cur:08X}"
    tb.finish()


@test()
async def byte_stores(dut):
    """7. Byte stores and loads at every byte lane of every read/write register, as a CPU issues
    them (AWADDR = the byte's address, one strobe; ARADDR = the byte's): a store changes its byte
    only; CTRL acts only through byte 0 (START there starts, START in another byte is no START);
    EPI_SHIFT stores a parameter row (EPI_ADDR moves on) only through byte 0."""
    tb = Tb(dut, "byte_stores")
    await tb.reset()
    for name in rw_regs():
        off, rw = OFF[name], access_mask(name, "rw")
        for lane in tb.rng.sample(range(4), 4):
            cur = await tb.reg(name)
            epi_addr = await tb.reg("EPI_ADDR")
            byte = tb.rng.getrandbits(8)
            if name == "CTRL":
                byte &= ~(mask("CTRL", "START") | mask("CTRL", "SOFT_RESET")) if lane == 0 else 0xFF
            await tb.wr_ok(off + lane, byte, length=1)
            want = (cur & ~(rw & (0xFF << 8 * lane))) | (rw & (byte << 8 * lane))
            got = await tb.reg(name)
            assert got == want, f"{name} byte {lane} <- 0x{byte:02X}: 0x{got:08X}, want 0x{want:08X}"
            loaded = await tb.rd_ok(off + lane, 1)
            assert loaded == want >> (8 * lane) & 0xFF, f"{name} byte load {lane}: 0x{loaded:02X}"
            if name == "EPI_SHIFT":
                want_addr = (epi_addr + (lane == 0)) & 0xFFFF
                assert await tb.reg("EPI_ADDR") == want_addr, f"EPI_SHIFT byte {lane}: EPI_ADDR"
            if name == "CTRL":
                st = await tb.reg("STATUS")
                assert st == 0 and await tb.reg("ERR") == 0, f"CTRL byte {lane}: STATUS 0x{st:X}"
    # START as a byte store: in byte 0 it is one (BAD_CFG: CFG_BEATS = 0), in byte 1 not
    await tb.wr_ok(OFF["CFG_BEATS"], 0)
    await tb.wr_ok(OFF["CTRL"] + 1, mask("CTRL", "START"), length=1)
    assert await tb.reg("ERR") == 0, "a START bit in byte 1 acted"
    await tb.wr_ok(OFF["CTRL"], mask("CTRL", "START"), length=1)
    assert await tb.reg("ERR") == mask("ERR", "BAD_CFG"), "START by a byte store to 0x20"
    tb.finish()


@test()
async def line_reads(dut):
    """8. Every 32-byte line of the register block read as a 256-bit bus's down-converter does it
    (eight word reads, issued at once) and as one 32-byte read: every word OKAY, the holes 0,
    the registers their values."""
    tb = Tb(dut, "line_reads")
    await tb.reset()
    by_off = {off: name for name, off in OFF.items()}
    want = {off: await tb.rd_ok(off) for off in by_off}
    for line in range(0, SPAN, 32):
        events = [tb.axil.init_read(line + 4 * i, 4) for i in range(8)]
        for i, e in enumerate(events):
            await e.wait()
            off = line + 4 * i
            got = int.from_bytes(e.data.data, "little")
            assert e.data.resp == AxiResp.OKAY, f"line 0x{line:02X}: word 0x{off:02X} {e.data.resp!r}"
            assert got == want.get(off, 0), f"word 0x{off:02X} ({by_off.get(off, 'hole')}): 0x{got:08X}"
        r = await tb.axil.read(line, 32)
        assert r.resp == AxiResp.OKAY, f"32-byte read of line 0x{line:02X}: {r.resp!r}"
        for i in range(8):
            got = int.from_bytes(r.data[4 * i:4 * i + 4], "little")
            assert got == want.get(line + 4 * i, 0), f"line read word 0x{line + 4 * i:02X}"
    tb.finish()


@test()
async def holes_and_beyond(dut):
    """9. Writes to every hole of the block answer OKAY and change nothing (holes still read 0,
    every register unchanged); every word beyond the block (to the end of the 256-byte window)
    answers SLVERR both ways and changes nothing."""
    tb = Tb(dut, "holes_and_beyond")
    await tb.reset()
    before = await tb.snapshot()
    holes = [o for o in range(0, SPAN, 4) if o not in OFF.values()]
    assert holes, "the table has no hole"
    for o in holes:
        assert await tb.wr(o, 0xFFFFFFFF) == AxiResp.OKAY, f"write of hole 0x{o:02X}"
        assert await tb.wr(o + tb.rng.randrange(4), 0xFF, length=1) == AxiResp.OKAY
        v, resp = await tb.rd(o)
        assert resp == AxiResp.OKAY and v == 0, f"hole 0x{o:02X}: 0x{v:08X} {resp!r}"
    for o in range(SPAN, WINDOW, 4):
        assert await tb.wr(o, 0xFFFFFFFF) == AxiResp.SLVERR, f"write beyond the block 0x{o:02X}"
        v, resp = await tb.rd(o)
        assert resp == AxiResp.SLVERR and v == 0, f"read beyond the block 0x{o:02X}: {resp!r}"
    assert await tb.snapshot() == before, "a write to a hole or beyond the block changed a register"
    tb.finish()


@test()
async def gemm_backpressure(dut):
    """10. Random GEMMs (ragged M and N, several tiles), 80 % pauses on both input streams and
    80 % backpressure on the results, bit-exact against the C golden model, TLAST on every
    tile's last row, counters, DONE and IRQ.DONE."""
    tb = Tb(dut, "gemm_backpressure", stream_pause=0.8, sink_pause=0.8)
    await tb.reset()
    for _ in range(3):
        await tb.gemm(*tb.shape())
        assert await tb.reg("IRQ") == mask("IRQ", "DONE") and await tb.reg("ERR") == 0
        await tb.wr_ok(OFF["IRQ"], mask("IRQ", "DONE"))
    tb.finish()


@test()
async def gemm_cycle_formula(dut):
    """11. GEMMs with ideal streams (inputs queued before START, no pauses, no backpressure):
    bit-exact, and CNT_CYCLES equals the cycle formula (T-1)*max(G,R,C) + G + R + C + 13."""
    tb = Tb(dut, "gemm_cycle_formula", stream_pause=0, sink_pause=0)
    await tb.reset()
    for _ in range(2):
        beats, tiles, _ = await tb.gemm(*tb.shape(), before_start=True)
        R, C = GEO.rows, GEO.cols
        want = (tiles - 1) * max(beats, R, C) + beats + R + C + 13
        got = await tb.reg("CNT_CYCLES")
        assert got == want, f"CNT_CYCLES {got}, formula {want} (G {beats}, T {tiles})"
        assert await tb.reg("CNT_STALL_R") == 0
    tb.finish()


@test()
async def wrong_tlast(dut):
    """12. TLAST in the wrong place: the weights' first tile split early (TLAST inside the tile),
    the activations' first two tiles merged (no TLAST at the first's end): ERR.W_LAST and
    ERR.A_LAST, IRQ.ERROR, and the job still completes bit-exact (no hang)."""
    tb = Tb(dut, "wrong_tlast")
    await tb.reset()
    lw = GEO.w_words * 4

    def split(wf, af):
        cut = tb.rng.randrange(1, len(wf[0]) // lw)
        wf = [wf[0][:cut * lw], wf[0][cut * lw:]] + wf[1:]
        af = [af[0] + af[1]] + af[2:]
        return wf, af
    m, k, n = GEO.rows, GEO.m * tb.rng.randint(2, 5), GEO.cols + 1  # two tiles, two beats or more
    await tb.gemm(m, k, n, split=split)
    want = mask("ERR", "W_LAST") | mask("ERR", "A_LAST")
    assert await tb.reg("ERR") == want, f"ERR 0x{await tb.reg('ERR'):X}"
    assert await tb.reg("IRQ") & mask("IRQ", "ERROR")
    tb.finish()


@test()
async def invalid_metadata(dut):
    """13. A weight beat with a repeated index in some rows: ERR.META, and those rows' group
    counts as zero (the result equals the model's with that group zeroed)."""
    tb = Tb(dut, "invalid_metadata")
    await tb.reset()
    m, k, n = GEO.rows, GEO.m * 3, GEO.cols
    a, b = tb.operands(m, k, n)
    g = tb.rng.randrange(3)
    rows = sorted(tb.rng.sample(range(GEO.rows), tb.rng.randint(1, GEO.rows)))

    def corrupt(wf, af):
        vals, idx = [], []
        for r in range(GEO.rows):
            v, i = sb.compress_group(a[r, g * GEO.m:(g + 1) * GEO.m], GEO.n)
            vals.append([1] * GEO.n if r in rows else v)
            idx.append([1] * GEO.n if r in rows else i)  # repeated index: invalid
        lw = GEO.w_words * 4
        return [wf[0][:g * lw] + GEO.w_beat(vals, idx) + wf[0][(g + 1) * lw:]], af
    az = a.copy()
    az[rows, g * GEO.m:(g + 1) * GEO.m] = 0
    c = sb.model_gemm(SPARSE24, GEO, az, b, WORK)
    beats, tiles, wf, af, order = sb.gemm_job(GEO, a, b)
    wf, af = corrupt(wf, af)
    n0 = len(tb.beats)
    await tb.start(beats, tiles)
    await tb.send(wf, af)
    await tb.wait_beats(n0 + GEO.rows)
    await tb.wait_done()
    tb.check_tiles(tb.beats[n0:], sb.expected_tiles(GEO, c, order), "invalid metadata")
    assert await tb.reg("ERR") == mask("ERR", "META")
    tb.finish()


@test()
async def bad_cfg(dut):
    """14. START with CFG_BEATS = 0, with CFG_TILES = 0, and with CFG_EPI.EN and CFG_COL_TILES
    = 0: ERR.BAD_CFG, IRQ.ERROR and irq, no job (idle, input streams not ready)."""
    tb = Tb(dut, "bad_cfg")
    await tb.reset()
    await tb.wr_ok(OFF["CTRL"], mask("CTRL", "IRQ_EN"))
    for beats, tiles, epi in ((0, 3, 0), (5, 0, 0), (5, 3, mask("CFG_EPI", "EN"))):
        await tb.wr_ok(OFF["CFG_EPI"], epi)
        await tb.wr_ok(OFF["CFG_BEATS"], beats)
        await tb.wr_ok(OFF["CFG_TILES"], tiles)
        await tb.wr_ok(OFF["CTRL"], mask("CTRL", "IRQ_EN") | mask("CTRL", "START"))
        assert await tb.reg("ERR") == mask("ERR", "BAD_CFG"), f"beats {beats} tiles {tiles} epi {epi}"
        assert await tb.reg("STATUS") == mask("STATUS", "ERROR"), "idle with ERROR"
        assert await tb.reg("IRQ") == mask("IRQ", "ERROR") and dut.irq.value == 1
        assert dut.s_axis_w_tready.value == 0 and dut.s_axis_a_tready.value == 0
        await tb.wr_ok(OFF["ERR"], mask("ERR", "BAD_CFG"))
        await tb.wr_ok(OFF["IRQ"], mask("IRQ", "ERROR"))
        assert dut.irq.value == 0
    tb.finish()


@test()
async def start_while_busy(dut):
    """15. START during a job: ERR.START_BUSY, ignored (the job runs on, bit-exact, with its own
    counts), IRQ.ERROR beside IRQ.DONE."""
    tb = Tb(dut, "start_while_busy", stream_pause=0.5, sink_pause=0.5)
    await tb.reset()
    await tb.gemm(*tb.shape(), before_start=False, start_busy=True)
    assert await tb.reg("ERR") == mask("ERR", "START_BUSY")
    assert await tb.reg("IRQ") == mask("IRQ", "ERROR") | mask("IRQ", "DONE")
    tb.finish()


@test()
async def soft_reset_mid_job(dut):
    """16. SOFT_RESET in the middle of a job (weights sent, activations half a tile): idle, STATUS,
    ERR, IRQ and counters cleared, no result beat, the inputs not ready; the next GEMM is
    bit-exact (nothing of the dropped job left)."""
    tb = Tb(dut, "soft_reset_mid_job")
    await tb.reset()
    a, b = tb.operands(GEO.rows, GEO.m * 4, GEO.cols)
    beats, tiles, wf, af, _ = sb.gemm_job(GEO, a, b)
    await tb.start(beats, tiles)
    await tb.wr_ok(OFF["CTRL"], mask("CTRL", "START"))  # START_BUSY, cleared by the reset
    await tb.send(wf, [af[0][:2 * GEO.a_words * 4]])
    await tb.inputs_taken()
    assert await tb.reg("STATUS") & mask("STATUS", "BUSY")
    await tb.wr_ok(OFF["CTRL"], mask("CTRL", "SOFT_RESET"))
    for r in ("STATUS", "ERR", "IRQ", "CNT_CYCLES", "CNT_BEATS", "CNT_TILES_OUT", "CNT_JOB_CYCLES"):
        assert await tb.reg(r) == 0, f"{r} after SOFT_RESET: 0x{await tb.reg(r):X}"
    await ClockCycles(dut.clk, 50)
    assert not tb.beats, "a result beat of the dropped job"
    assert dut.s_axis_w_tready.value == 0 and dut.s_axis_a_tready.value == 0
    await tb.gemm(*tb.shape())
    assert await tb.reg("ERR") == 0
    tb.finish()


@test()
async def soft_reset_held_beat(dut):
    """17. SOFT_RESET while the sink holds a result beat (TVALID high, TREADY low), once on a
    tile's first row and once wherever 80 % backpressure left it: the beat stays, unchanged
    (checked every cycle), STATUS.R_HELD, START refused (ERR.START_BUSY); once taken it is the
    model's row, then nothing stale comes, and the next GEMM is bit-exact."""
    tb = Tb(dut, "soft_reset_held_beat")
    await tb.reset()
    for rnd in range(2):
        a, b = tb.operands(GEO.rows, GEO.m * tb.rng.randint(1, 4), GEO.cols * 2)
        c = sb.model_gemm(SPARSE24, GEO, a, b, WORK)
        beats, tiles, wf, af, order = sb.gemm_job(GEO, a, b)
        rows = [row for tile in sb.expected_tiles(GEO, c, order) for row in tile]
        n0 = len(tb.beats)
        tb.sink.set_pause_generator(None)
        tb.sink.pause = True
        await tb.start(beats, tiles)
        await tb.send(wf, af)
        await tb.inputs_taken()  # every input beat taken: nothing left to send after the reset
        if rnd == 1:  # the sink takes some rows under 80 % backpressure, then holds one
            tb.sink.set_pause_generator(pauses(tb.rng, 0.8))
            await tb.wait_beats(n0 + tb.rng.randrange(tiles * GEO.rows - 1))
            tb.sink.set_pause_generator(None)
            tb.sink.pause = True
        await ClockCycles(dut.clk, 3)
        while not dut.m_axis_r_tvalid.value:
            await RisingEdge(dut.clk)
        await RisingEdge(dut.clk)
        taken = len(tb.beats) - n0
        held = (int(dut.m_axis_r_tdata.value), int(dut.m_axis_r_tlast.value))
        assert GEO.r_row(held[0]) == rows[taken] and held[1] == (taken % GEO.rows == GEO.rows - 1)
        await tb.wr_ok(OFF["CTRL"], mask("CTRL", "SOFT_RESET"))
        assert await tb.reg("STATUS") == mask("STATUS", "R_HELD"), f"STATUS 0x{await tb.reg('STATUS'):X}"
        await tb.wr_ok(OFF["CTRL"], mask("CTRL", "START"))
        assert await tb.reg("ERR") == mask("ERR", "START_BUSY"), "START while a beat is kept"
        assert not await tb.reg("STATUS") & mask("STATUS", "BUSY"), "START taken with a kept beat"
        await ClockCycles(dut.clk, 20)
        assert dut.m_axis_r_tvalid.value == 1
        assert (int(dut.m_axis_r_tdata.value), int(dut.m_axis_r_tlast.value)) == held
        tb.sink.set_pause_generator(pauses(tb.rng, 0.8))
        await tb.wait_beats(n0 + taken + 1)
        assert tb.beats[n0 + taken] == held, "the kept beat changed"
        await ClockCycles(dut.clk, 100)
        assert len(tb.beats) == n0 + taken + 1, "a result beat behind the kept one survived the reset"
        assert await tb.reg("STATUS") == mask("STATUS", "ERROR"), "R_HELD after the beat was taken"
        await tb.wr_ok(OFF["ERR"], mask("ERR", "START_BUSY"))
        await tb.wr_ok(OFF["IRQ"], mask("IRQ", "ERROR"))
        await tb.gemm(*tb.shape())
    tb.finish()
