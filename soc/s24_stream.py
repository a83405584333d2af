# SPDX-License-Identifier: Apache-2.0
# sparse24 edge SoC: the stream buffers next to s24_top (docs/soc.md, "Memory").
#
# Each AXI4-Stream port of s24_top has a block-RAM ring of whole beats beside it:
#   - the ring's wide port is the IP's: one beat per cycle (W 160 bits, A 256, R 256 + TLAST);
#   - its narrow port is a 32-bit Wishbone window on the SoC bus (uncached I/O region): word `w` of
#     ring beat `b` at byte offset (b << lane_bits | w) * 4, lane_bits = ceil(log2(words)) (the R
#     ring has one more word, its TLAST flag, at w = 8);
#   - an engine with CSRs moves beats between the ring and the port: for W and A a reader that emits
#     the beats of queued descriptors {start beat, count, TLAST on the last}, gapless, one a cycle;
#     for R a writer that stores every beat s24_top offers while the ring has room.
# Counters are monotonic 32-bit beat counts (the ring position is the count modulo the depth), so
# the firmware computes room and fill from one CSR read; a descriptor may replay any resident range
# (a weight tile used by several column tiles is written once).
from migen import *

from litex.gen import LiteXModule
from litex.soc.interconnect import stream, wishbone
from litex.soc.interconnect.csr import CSR, CSRStatus, CSRStorage, CSRField, AutoCSR


def _reset_csr(m, description):
    """m.reset: a 1-bit CSR whose write of 1 resets the port; returns that pulse (one cycle)."""
    m.reset = CSR(1)
    m.reset.description = description
    rst = Signal()
    m.comb += rst.eq(m.reset.re & m.reset.r[0])
    return rst


def _log2(n):
    return max(1, (n - 1).bit_length())


class RingWindow(LiteXModule):
    """A 32-bit Wishbone window on a ring `mem` of beats of `words` 32-bit words (+ `extra` words
    read-only, taken from `extra_r`, e.g. the R ring's TLAST). Writes go to the named word of the
    beat with byte enables; reads take one wait state (the block RAM's read register)."""

    def __init__(self, mem, words, writable, extra=0):
        self.bus = bus = wishbone.Interface(data_width=32, address_width=32, addressing="word")
        # a second writer of the narrow port (RingFill): while fill_active it owns the port
        self.fill_active = Signal()
        self.fill_adr = Signal(_log2(mem.depth))
        self.fill_we = Signal(4 * words)
        self.fill_dat = Signal(32)
        self.lane_bits = lane_bits = _log2(words + extra)
        depth_bits = _log2(mem.depth)
        port = mem.get_port(write_capable=writable, we_granularity=8 if writable else 0)
        self.specials += port
        self.port = port

        lane = Signal(lane_bits)
        beat = Signal(depth_bits)
        self.comb += [
            lane.eq(bus.adr[:lane_bits]),
            beat.eq(bus.adr[lane_bits:lane_bits + depth_bits]),
            port.adr.eq(Mux(self.fill_active, self.fill_adr, beat)),
        ]
        if writable:
            self.comb += port.dat_w.eq(Replicate(Mux(self.fill_active, self.fill_dat, bus.dat_w), words))
            for w in range(words):
                self.comb += If(self.fill_active,
                                port.we[4 * w:4 * w + 4].eq(self.fill_we[4 * w:4 * w + 4])
                                ).Elif(bus.cyc & bus.stb & bus.we & ~bus.ack & (lane == w),
                                       port.we[4 * w:4 * w + 4].eq(bus.sel))
        cases = {w: bus.dat_r.eq(port.dat_r[32 * w:32 * w + 32]) for w in range(words)}
        for e in range(extra):
            cases[words + e] = bus.dat_r.eq(port.dat_r[32 * (words + e):32 * (words + e + 1)]
                                           if len(port.dat_r) >= 32 * (words + e + 1)
                                           else port.dat_r[32 * (words + e):])
        cases["default"] = bus.dat_r.eq(0)
        self.comb += Case(lane, cases)
        self.sync += [bus.ack.eq(0), If(bus.cyc & bus.stb & ~bus.ack, bus.ack.eq(1))]


class RingReader(LiteXModule):
    """Ring -> AXI4-Stream source (`source`: data, last). Descriptors are written to CSR `desc`
    (start[0:16] beat in the ring, count[16:31] >= 1, last[31]: TLAST on the final beat) and queued
    (`desc_level` tells how many wait); `consumed` counts the beats the port took."""

    DESC_DEPTH = 16

    def __init__(self, mem, width):
        depth_bits = _log2(mem.depth)
        self.source = source = stream.Endpoint([("data", width)])
        self.desc = CSRStorage(32, description="Queue a descriptor: start beat [15:0], count [30:16] (>= 1), TLAST on the last beat [31].")
        self.desc_level = CSRStatus(8, description="Descriptors queued (including the one running).")
        self.consumed = CSRStatus(32, description="Beats the port has taken since the last reset (monotonic, wraps at 2^32).")
        rst = _reset_csr(self, "Write 1: drop every queued descriptor and beat, zero the counters.")

        # # #

        port = mem.get_port(has_re=False)
        self.specials += port

        dfifo = ResetInserter()(stream.SyncFIFO([("start", 16), ("count", 15), ("tlast", 1)], self.DESC_DEPTH))
        ofifo = ResetInserter()(stream.SyncFIFO([("data", width)], 4))
        self.submodules += dfifo, ofifo
        self.comb += [dfifo.reset.eq(rst), ofifo.reset.eq(rst)]
        self.comb += [
            dfifo.sink.valid.eq(self.desc.re),
            dfifo.sink.start.eq(self.desc.storage[0:16]),
            dfifo.sink.count.eq(self.desc.storage[16:31]),
            dfifo.sink.tlast.eq(self.desc.storage[31]),
        ]

        active = Signal()
        addr = Signal(depth_bits)
        left = Signal(15)
        last = Signal()
        issue = Signal()
        pend = Signal()      # a read issued last cycle: its beat enters ofifo this cycle
        pend_last = Signal()
        # room: ofifo.level counts what is stored; the pending read still has to enter
        self.comb += issue.eq(active & (ofifo.level + pend < 4))
        final = Signal()
        self.comb += final.eq(issue & (left == 1))
        load = Signal()
        self.comb += [
            load.eq(dfifo.source.valid & (~active | final)),
            dfifo.source.ready.eq(load),
            port.adr.eq(addr),
        ]
        self.sync += [
            pend.eq(issue),
            pend_last.eq(final & last),
            If(issue, addr.eq(addr + 1), left.eq(left - 1)),
            If(final, active.eq(0)),
            If(load,
                active.eq(1),
                addr.eq(dfifo.source.start[:depth_bits]),
                left.eq(dfifo.source.count),
                last.eq(dfifo.source.tlast)),
            If(rst, active.eq(0), pend.eq(0)),
        ]
        self.comb += [
            ofifo.sink.valid.eq(pend),
            ofifo.sink.data.eq(port.dat_r[:width]),
            ofifo.sink.last.eq(pend_last),
            source.valid.eq(ofifo.source.valid),
            source.data.eq(ofifo.source.data),
            source.last.eq(ofifo.source.last),
            ofifo.source.ready.eq(source.ready),
        ]
        consumed = Signal(32)
        self.sync += If(rst, consumed.eq(0)).Elif(source.valid & source.ready, consumed.eq(consumed + 1))
        self.comb += [
            self.consumed.status.eq(consumed),
            self.desc_level.status.eq(dfifo.level + active),
        ]


class RingWriter(LiteXModule):
    """AXI4-Stream sink (`sink`: data, last) -> ring; the ring stores {last, data}. `received`
    counts the beats stored; the firmware writes `consumed` (the beats it has read, monotonic):
    the port is ready while received - consumed < depth."""

    def __init__(self, mem, width):
        depth = mem.depth
        depth_bits = _log2(depth)
        self.sink = sink = stream.Endpoint([("data", width)])
        self.received = CSRStatus(32, description="Beats stored since the last reset (monotonic).")
        self.consumed = CSRStorage(32, description="Beats the firmware has read (monotonic); frees their slots.")
        rst = _reset_csr(self, "Write 1: forget every stored beat, zero the counters.")

        # # #

        port = mem.get_port(write_capable=True)
        self.specials += port
        received = Signal(32)
        fill = Signal(32)
        self.comb += [
            fill.eq(received - self.consumed.storage),
            sink.ready.eq(fill < depth),
            port.adr.eq(received[:depth_bits]),
            port.dat_w.eq(Cat(sink.data, sink.last)),
            port.we.eq(sink.valid & sink.ready),
            self.received.status.eq(received),
        ]
        self.sync += If(rst, received.eq(0)).Elif(sink.valid & sink.ready, received.eq(received + 1))
        # a reset also has to zero `consumed`: the firmware writes 0 to it after the reset pulse


class RingFill(LiteXModule):
    """Main RAM -> ring by DMA: `go` = start beat [15:0] | beats [30:16] reads beats x words 32-bit
    words, packed one after the other from byte address `addr` of the SDRAM, through a LiteDRAM
    read port (several reads in flight: the SDRAM's own rate), into the ring's narrow port from
    that beat on; `done` counts finished fills. The data bypasses the CPU's caches: the firmware
    writes back (soc_flush_dcache) what it wrote itself before a fill, and keeps off the ring's
    window while one runs. No multiplier: beats x words is shifts and adds (the device's 156
    MULT18X18D are all taken)."""

    def __init__(self, port, win, words, depth):
        from litedram.frontend.dma import LiteDRAMDMAReader
        depth_bits = _log2(depth)
        self.addr = CSRStorage(32, description="Byte address in main RAM of the first word (32-bit aligned).")
        self.go = CSRStorage(32, description="Write: fill from ring beat [15:0], [30:16] beats.")
        self.done = CSRStatus(32, description="Fills completed since reset (monotonic).")

        # # #

        self.dma = dma = LiteDRAMDMAReader(port, fifo_depth=16)
        aw = len(dma.sink.address)
        active = Signal()
        base = Signal(aw)
        total = Signal(20)      # words of the fill
        issued = Signal(20)
        got = Signal(20)
        lane = Signal(max=max(2, words))
        beat = Signal(depth_bits)
        done = Signal(32)
        nbeats = Signal(15)
        self.comb += nbeats.eq(self.go.storage[16:31])
        if words == 5:
            words_of = (nbeats << 2) + nbeats
        elif words & (words - 1) == 0:
            words_of = nbeats << (words.bit_length() - 1)
        else:
            raise ValueError("RingFill: words must be 5 or a power of two")
        self.sync += [
            If(self.go.re,
                active.eq(1), base.eq(self.addr.storage[2:2 + aw]), total.eq(words_of),
                issued.eq(0), got.eq(0), lane.eq(0), beat.eq(self.go.storage[0:depth_bits])),
            If(dma.sink.valid & dma.sink.ready, issued.eq(issued + 1)),
            If(dma.source.valid,
                got.eq(got + 1),
                If(lane == words - 1, lane.eq(0), beat.eq(beat + 1)).Else(lane.eq(lane + 1))),
            If(active & (got == total) & ~self.go.re, active.eq(0), done.eq(done + 1)),
        ]
        self.comb += [
            dma.sink.valid.eq(active & (issued != total)),
            dma.sink.address.eq(base + issued),
            dma.source.ready.eq(1),
            win.fill_active.eq(active),
            win.fill_adr.eq(beat),
            win.fill_dat.eq(dma.source.data),
            # one-hot lane decode (not `0xf << lane * 4`: Verilog sizes lane * 4 to lane's 3 bits)
            win.fill_we.eq(Cat(*[Replicate(dma.source.valid & (lane == i), 4) for i in range(words)])),
            self.done.status.eq(done),
        ]


class S24Streams(LiteXModule):
    """The three rings and their engines. `w`, `a` are stream sources for s24_top's s_axis_w/a,
    `r` a sink for its m_axis_r; `windows` maps "w", "a", "r" to (Wishbone interface, size)."""

    def __init__(self, w_bits, a_bits, r_bits, w_depth=1024, a_depth=1024, r_depth=256,
                 w_port=None, a_port=None):
        w_words, a_words, r_words = (w_bits + 31) // 32, (a_bits + 31) // 32, (r_bits + 31) // 32
        w_mem = Memory(32 * w_words, w_depth, name="s24_ring_w")
        a_mem = Memory(32 * a_words, a_depth, name="s24_ring_a")
        r_mem = Memory(32 * r_words + 1, r_depth, name="s24_ring_r")
        self.specials += w_mem, a_mem, r_mem

        self.w_win = RingWindow(w_mem, w_words, writable=True)
        self.a_win = RingWindow(a_mem, a_words, writable=True)
        self.r_win = RingWindow(r_mem, r_words, writable=False, extra=1)
        self.w_rd = RingReader(w_mem, 32 * w_words)
        self.a_rd = RingReader(a_mem, 32 * a_words)
        self.r_wr = RingWriter(r_mem, 32 * r_words)
        self.w, self.a, self.r = self.w_rd.source, self.a_rd.source, self.r_wr.sink
        if w_port is not None:
            self.w_fill = RingFill(w_port, self.w_win, w_words, w_depth)
        if a_port is not None:
            self.a_fill = RingFill(a_port, self.a_win, a_words, a_depth)

        def size(mem, win):
            return mem.depth * (1 << win.lane_bits) * 4
        self.windows = {
            "w": (self.w_win.bus, size(w_mem, self.w_win), w_depth, self.w_win.lane_bits),
            "a": (self.a_win.bus, size(a_mem, self.a_win), a_depth, self.a_win.lane_bits),
            "r": (self.r_win.bus, size(r_mem, self.r_win), r_depth, self.r_win.lane_bits),
        }
