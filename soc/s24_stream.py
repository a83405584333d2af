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
from functools import reduce
from operator import or_

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


def _drop_after_reset(m, rst, issued, returned):
    """Reads a LiteDRAM read port still owes after `rst`: they come back and are dropped (the
    returned signal; `drop` != 0 while some are owed). Returns drop."""
    outstanding, drop = Signal(8), Signal(8)
    m.sync += [
        outstanding.eq(outstanding + issued - returned),
        If(rst, drop.eq(outstanding + issued - returned)
        ).Elif((drop != 0) & returned, drop.eq(drop - 1)),
    ]
    return drop


class _WordWriter(LiteXModule):
    """32-bit words into main RAM through a LiteDRAM write port, LiteDRAMDMAWriter's scheme: a
    word's command goes out when asked (`valid`, `addr` the word address, `data`) and the queue has
    room, its data is queued when the port takes the command (`taken`) and sent as the port asks;
    `pending` while queued data has not gone yet."""

    def __init__(self, wport, depth=16):
        self.valid, self.addr, self.data = Signal(), Signal(len(wport.cmd.addr)), Signal(32)
        self.taken, self.pending = Signal(), Signal()
        wf = stream.SyncFIFO([("data", 32)], depth)
        self.submodules += wf
        self.comb += [
            wport.cmd.valid.eq(self.valid & wf.sink.ready),
            wport.cmd.we.eq(1),
            wport.cmd.addr.eq(self.addr),
            self.taken.eq(wport.cmd.valid & wport.cmd.ready),
            wf.sink.valid.eq(self.taken), wf.sink.data.eq(self.data),
            wport.wdata.valid.eq(wf.source.valid),
            wport.wdata.data.eq(wf.source.data),
            wport.wdata.we.eq(0xf),
            wf.source.ready.eq(wport.wdata.ready),
            self.pending.eq(wf.source.valid),
        ]


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
    (start[0:14] beat in the ring, rep[14:16]: each beat read rep + 1 times in a row, count[16:31]
    >= 1 beats of the ring, last[31]: TLAST on the final beat) and queued (`desc_level` tells how
    many wait); `consumed` counts the beats the port took (count * (rep + 1) a descriptor). The
    repeat is the A stream's: a group whose weights take r beats meets its activation beat r times,
    so a run of groups with the same r is one descriptor (a dense layer's groups take two beats each
    on a 2:4 core: one descriptor a run of them, not two a group)."""

    DESC_DEPTH = 16
    REP_SHIFT, REP_BITS = 14, 2   # the repeat field (firmware: S24_RING_DESC_REP_SHIFT, _BITS)

    def __init__(self, mem, width):
        depth_bits = _log2(mem.depth)
        assert depth_bits <= self.REP_SHIFT, "the ring's positions must fit below the repeat field"
        self.source = source = stream.Endpoint([("data", width)])
        self.desc = CSRStorage(32, description="Queue a descriptor: start beat [13:0], each beat read [15:14] + 1 times, count [30:16] (>= 1) beats of the ring, TLAST on the last beat read [31].")
        self.desc_level = CSRStatus(8, description="Descriptors queued (including the one running).")
        self.consumed = CSRStatus(32, description="Beats the port has taken since the last reset (monotonic, wraps at 2^32).")
        rst = _reset_csr(self, "Write 1: drop every queued descriptor and beat, zero the counters.")

        # # #

        port = mem.get_port(has_re=False)
        self.specials += port

        dfifo = ResetInserter()(stream.SyncFIFO([("start", self.REP_SHIFT), ("rep", self.REP_BITS),
                                                 ("count", 15), ("tlast", 1)], self.DESC_DEPTH))
        ofifo = ResetInserter()(stream.SyncFIFO([("data", width)], 4))
        self.submodules += dfifo, ofifo
        self.comb += [dfifo.reset.eq(rst), ofifo.reset.eq(rst)]
        # a second writer of the queue (JobSeq): its descriptor goes in when no CSR write does
        self.ext_valid, self.ext_ready, self.ext_desc = Signal(), Signal(), Signal(32)
        dw = Signal(32)
        self.comb += [
            dw.eq(Mux(self.desc.re, self.desc.storage, self.ext_desc)),
            dfifo.sink.valid.eq(self.desc.re | self.ext_valid),
            dfifo.sink.start.eq(dw[0:self.REP_SHIFT]),
            dfifo.sink.rep.eq(dw[self.REP_SHIFT:16]),
            dfifo.sink.count.eq(dw[16:31]),
            dfifo.sink.tlast.eq(dw[31]),
            self.ext_ready.eq(dfifo.sink.ready & ~self.desc.re),
        ]

        active = Signal()
        addr = Signal(depth_bits)
        left = Signal(15)
        rep, rc = Signal(self.REP_BITS), Signal(self.REP_BITS)   # reads of a beat: rep + 1; done
        last = Signal()
        issue = Signal()
        pend = Signal()      # a read issued last cycle: its beat enters ofifo this cycle
        pend_last = Signal()
        # room: ofifo.level counts what is stored; the pending read still has to enter
        self.comb += issue.eq(active & (ofifo.level + pend < 4))
        step, final = Signal(), Signal()   # the beat's last read (on to the next); the last one
        self.comb += [step.eq(issue & (rc == rep)), final.eq(step & (left == 1))]
        load = Signal()
        self.comb += [
            load.eq(dfifo.source.valid & (~active | final)),
            dfifo.source.ready.eq(load),
            port.adr.eq(addr),
        ]
        self.sync += [
            pend.eq(issue),
            pend_last.eq(final & last),
            If(step, addr.eq(addr + 1), left.eq(left - 1), rc.eq(0)).Elif(issue, rc.eq(rc + 1)),
            If(final, active.eq(0)),
            If(load,
                active.eq(1),
                addr.eq(dfifo.source.start[:depth_bits]),
                left.eq(dfifo.source.count),
                rep.eq(dfifo.source.rep), rc.eq(0),
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
        self.consumed_count = consumed = Signal(32)
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
        # while `auto` (JobSeq's), the drain's position frees the slots instead of the firmware
        self.auto, self.auto_consumed = Signal(), Signal(32)
        self.comb += [
            fill.eq(received - Mux(self.auto, self.auto_consumed, self.consumed.storage)),
            sink.ready.eq(fill < depth),
            port.adr.eq(received[:depth_bits]),
            port.dat_w.eq(Cat(sink.data, sink.last)),
            port.we.eq(sink.valid & sink.ready),
            self.received.status.eq(received),
        ]
        self.sync += If(rst, received.eq(0)).Elif(sink.valid & sink.ready, received.eq(received + 1))
        # a reset also has to zero `consumed`: the firmware writes 0 to it after the reset pulse


class _Filler:
    """One writer of a RingWindow's narrow port (RingFill, ConvFetch): while `active` it owns the
    port (S24Streams ORs the fillers of a window: the firmware runs one at a time)."""

    def __init__(self, adr_bits, words):
        self.active = Signal()
        self.adr = Signal(adr_bits)
        self.we = Signal(4 * words)
        self.dat = Signal(32)


def _lane_we(valid, lane, words):
    """Byte enables of 32-bit lane `lane` of a beat (one-hot; not `0xf << lane * 4`: Verilog sizes
    lane * 4 to lane's bits)."""
    return Cat(*[Replicate(valid & (lane == i), 4) for i in range(words)])


def _connect_fillers(m, win, fillers):
    m.comb += [
        win.fill_active.eq(reduce(or_, [f.active for f in fillers])),
        win.fill_adr.eq(reduce(or_, [Replicate(f.active, len(f.adr)) & f.adr for f in fillers])),
        win.fill_we.eq(reduce(or_, [Replicate(f.active, len(f.we)) & f.we for f in fillers])),
        win.fill_dat.eq(reduce(or_, [Replicate(f.active, 32) & f.dat for f in fillers])),
    ]


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
        self.filler = f = _Filler(depth_bits, words)
        self.comb += [
            dma.sink.valid.eq(active & (issued != total)),
            dma.sink.address.eq(base + issued),
            dma.source.ready.eq(1),
            f.active.eq(active),
            f.adr.eq(beat),
            f.dat.eq(dma.source.data),
            f.we.eq(_lane_we(dma.source.valid, lane, words)),
            self.done.status.eq(done),
        ]


class ConvFetch(LiteXModule):
    """The implicit GEMM in hardware: a convolution's activation beats for one column tile, read
    from its NHWC int8 input in main RAM (a LiteDRAM read port, 32-bit words) and written into the
    A ring, beat `start + g` holding group g (g < groups) of every column: the C model's
    s24_a_beats_conv (cmodel/s24_layout.c) on its word path (four channels of one tap a word:
    channels in fours, the input word-aligned; a tap outside the input reads as the `padw` word,
    four copies of the input zero point). Column by column (ox, then oy, then the image, stepped
    from the tile's first column), and along k group by group (channel word, then kx, then ky),
    so nothing multiplies (the device's MULT18X18D are taken): the firmware writes each layer's
    strides in bytes and each tile's first position, or sets GO's bit 24 (continue) to start from
    the column after the previous tile's last, where that tile's stepping left the column state
    (valid after a tile that finished, not after `reset`). Reads stay in flight while their ring
    position and lane wait in a tag FIFO (pads take their turn there too); `done` counts finished
    tiles. As with RingFill, the firmware writes the input back to the SDRAM first and keeps off
    the ring's window while a tile is fetched. Lanes at and above the tile's columns are not
    written (the C model's beats hold zeros there): their products go to result columns the
    driver drops. `reset` stops a fetch cut short: reads already issued then come back and are
    dropped (`drop` counts them) before the next tile's."""

    TAGS = 32

    def __init__(self, port, words, depth, ib_words=0):
        from litedram.frontend.dma import LiteDRAMDMAReader
        depth_bits = _log2(depth)

        def csr(name, desc):
            c = CSRStorage(32, name=name, description=desc)
            setattr(self, name, c)
            return c.storage

        hw = csr("hw", "Input height [15:0], width [31:16].")
        ohw = csr("ohw", "Output height [15:0], width [31:16].")
        strd = csr("strd", "Stride rows [15:0], columns [31:16].")
        dil = csr("dil", "Dilation rows [15:0], columns [31:16].")
        pad = csr("pad", "Leading padding rows [15:0], columns [31:16].")
        taps = csr("taps", "Filter width kw [15:0], words a tap cs / 4 [31:16].")
        step_x = csr("step_x", "Bytes from one output column's window to the next (sw * c).")
        step_y = csr("step_y", "Bytes from one output row's window to the next (sh * w * c).")
        step_img = csr("step_img", "From the last output row's first window to the next image's first (h*w*c - (oh - 1) * step_y).")
        tap_x = csr("tap_x", "Offset from a tap's last word to the next tap along x (dw * c - cs + 4).")
        tap_y = csr("tap_y", "Offset from a row's last tap's last word to the next row's first (dh * w * c - (kw - 1) * dw * c - cs + 4).")
        padw = csr("padw", "The word a tap outside the input reads as.")
        pos = csr("pos", "The tile's first column: ox [15:0], oy [31:16].")
        org = csr("org", "Its window's first input row oy*sh - ph [15:0] and column ox*sw - pw [31:16], signed.")
        addr0 = csr("addr0", "Byte address of its window's first tap (channel c0; modulo 2^32: may lie outside the input).")
        row0 = csr("row0", "Byte address of the window of output column 0 in its output row.")
        groups = csr("groups", "Groups (beats) a column tile.")
        self.go = CSRStorage(32, description="Write: fetch a tile into the A ring from beat [15:0], [23:16] columns (1 .. words); [24]: its first column is the one after the previous tile's last (pos, org, addr0, row0 not read).")
        self.done = CSRStatus(32, description="Tiles fetched since the SoC's reset (monotonic).")
        rst = _reset_csr(self, "Write 1: stop a fetch or a fill (reads still in flight are dropped as they return).")
        ibw = _log2(ib_words) if ib_words else 1
        if ib_words:
            self.ib = CSRStorage(1, description="1: taps are read from the input buffer, word (tap address >> 2), the addresses relative to the input filled there; 0: from main RAM.")
            self.ib_addr = CSRStorage(32, description="Byte address in main RAM of the words the next fill copies (32-bit aligned).")
            self.ib_go = CSRStorage(32, description=f"Write: fill the input buffer's words 0 .. [{ibw}:0] - 1 (<= {ib_words}) from ib_addr.")
            self.ib_done = CSRStatus(32, description="Fills finished since reset (monotonic).")

        # # #

        # GO from the CSR or from the job sequencer (JobSeq: ext_go a cycle, ext_go_val GO's value,
        # ext_off bytes added to addr0 and row0: its row tile's channel window)
        self.ext_go, self.ext_go_val, self.ext_off = Signal(), Signal(25), Signal(32)
        go_re, go_v = Signal(), Signal(25)
        self.comb += [go_re.eq(self.go.re | self.ext_go),
                      go_v.eq(Mux(self.go.re, self.go.storage[:25], self.ext_go_val))]

        self.dma = dma = LiteDRAMDMAReader(port, fifo_depth=16)
        aw = len(dma.sink.address)
        self.filler = f = _Filler(depth_bits, words)

        # the input buffer: filled from main RAM by the unit's own read port (between tiles), read
        # a word a cycle by the taps of the tiles that follow
        ib_on = Signal()
        filling = Signal()
        fill_n, fill_i, fill_w = Signal(ibw + 1), Signal(ibw + 1), Signal(ibw + 1)
        ib_done = Signal(32)
        if ib_words:
            ibuf = Memory(32, ib_words, name="s24_conv_ibuf")
            ib_wp = ibuf.get_port(write_capable=True)
            ib_rp = ibuf.get_port()
            self.specials += ibuf, ib_wp, ib_rp
            bq = ResetInserter()(stream.SyncFIFO([("data", 32)], 8))
            self.submodules += bq
            self.comb += ib_on.eq(self.ib.storage[0])

        def s16(v):
            return Cat(v[:16], Replicate(v[15], 16))  # sign-extended to 32 bits

        # the layer's constants
        h, w = hw[:16], hw[16:32]
        oh, ow = ohw[:16], ohw[16:32]
        kw, cs4 = taps[:16], taps[16:32]

        active = Signal()
        issuing = Signal()
        start = Signal(depth_bits)
        ncols = Signal(8)
        # column state
        col = Signal(8)
        ox, oy = Signal(16), Signal(16)
        y0, x0 = Signal((32, True)), Signal((32, True))
        a0, rs = Signal(32), Signal(32)
        # tap state along k
        g = Signal(16)
        ic4, kx = Signal(16), Signal(16)
        dy, dx = Signal((32, True)), Signal((32, True))
        off = Signal(32)

        iy, ix = Signal((32, True)), Signal((32, True))
        inside = Signal()
        self.comb += [
            iy.eq(y0 + dy), ix.eq(x0 + dx),
            inside.eq((iy >= 0) & (iy < h) & (ix >= 0) & (ix < w)),
        ]

        tags = ResetInserter()(stream.SyncFIFO([("pad", 1), ("beat", depth_bits), ("lane", 8)], self.TAGS))
        self.submodules += tags
        addr = Signal(32)
        self.comb += addr.eq(a0 + off)
        fire = Signal()
        rd_ready = Signal()     # a tap inside the input can be read this cycle
        bfire = Signal()        # ... from the input buffer
        pv = Signal()           # the buffer's word read in the last cycle, due into bq
        if ib_words:
            self.comb += [
                rd_ready.eq(Mux(ib_on, bq.level + pv < 6, dma.sink.ready)),
                bfire.eq(issuing & tags.sink.ready & inside & ib_on & rd_ready),
                ib_rp.adr.eq(addr[2:2 + ibw]),
                bq.sink.valid.eq(pv), bq.sink.data.eq(ib_rp.dat_r),
                bq.reset.eq(go_re | rst),
            ]
            self.sync += pv.eq(bfire & ~rst)
        else:
            self.comb += rd_ready.eq(dma.sink.ready)
        self.comb += [
            fire.eq(issuing & tags.sink.ready & (~inside | rd_ready)),
            dma.sink.valid.eq(Mux(filling, fill_i != fill_n, issuing & tags.sink.ready & inside & ~ib_on)),
            dma.sink.address.eq(Mux(filling, self.ib_addr.storage[2:2 + aw] + fill_i if ib_words else 0,
                                    addr[2:2 + aw])),
            tags.sink.valid.eq(fire),
            tags.sink.pad.eq(~inside),
            tags.sink.beat.eq(start + g),
            tags.sink.lane.eq(col),
        ]
        last_g = Signal()
        last_col = Signal()
        self.comb += [last_g.eq(g == groups[:16] - 1), last_col.eq(col == ncols - 1)]
        self.sync += [
            If(go_re,
                active.eq(1), issuing.eq(1),
                start.eq(go_v[:depth_bits]), ncols.eq(go_v[16:24]),
                col.eq(0), g.eq(0), ic4.eq(0), kx.eq(0), dy.eq(0), dx.eq(0), off.eq(0),
                # the tile's first column: given, or (continue) where the last tile's stepping
                # left the column state, on the column after its last
                If(~go_v[24],
                    ox.eq(pos[:16]), oy.eq(pos[16:32]),
                    y0.eq(s16(org[:16])), x0.eq(s16(org[16:32])),
                    a0.eq(addr0 + Mux(self.go.re, 0, self.ext_off)),
                    rs.eq(row0 + Mux(self.go.re, 0, self.ext_off))),
            ).Elif(fire,
                If(last_g,
                    # the next column: its window, the taps from the first
                    col.eq(col + 1),
                    g.eq(0), ic4.eq(0), kx.eq(0), dy.eq(0), dx.eq(0), off.eq(0),
                    If(last_col, issuing.eq(0)),
                    If(ox == ow - 1,
                        ox.eq(0), x0.eq(-s16(pad[16:32])),
                        If(oy == oh - 1,
                            oy.eq(0), y0.eq(-s16(pad[:16])),
                            a0.eq(rs + step_img), rs.eq(rs + step_img),
                        ).Else(
                            oy.eq(oy + 1), y0.eq(y0 + strd[:16]),
                            a0.eq(rs + step_y), rs.eq(rs + step_y),
                        ),
                    ).Else(
                        ox.eq(ox + 1), x0.eq(x0 + strd[16:32]), a0.eq(a0 + step_x),
                    ),
                ).Else(
                    g.eq(g + 1),
                    If(ic4 == cs4 - 1,
                        ic4.eq(0),
                        If(kx == kw - 1,
                            kx.eq(0), dx.eq(0), dy.eq(dy + dil[:16]), off.eq(off + tap_y),
                        ).Else(
                            kx.eq(kx + 1), dx.eq(dx + dil[16:32]), off.eq(off + tap_x),
                        ),
                    ).Else(
                        ic4.eq(ic4 + 1), off.eq(off + 4),
                    ),
                ),
            ),
        ]
        # the writer: tags in order, a pad at once, a read when its word is back; after a reset
        # the reads still in flight are dropped first (`drop` of them)
        wr = Signal()
        issued = Signal()
        returned = Signal()
        drop = _drop_after_reset(self, rst, issued, returned)
        rd_valid = Signal()
        rd_data = Signal(32)
        if ib_words:
            self.comb += [
                rd_valid.eq(Mux(ib_on, bq.source.valid, dma.source.valid)),
                rd_data.eq(Mux(ib_on, bq.source.data, dma.source.data)),
                bq.source.ready.eq(ib_on & wr & ~tags.source.pad),
            ]
        else:
            self.comb += [rd_valid.eq(dma.source.valid), rd_data.eq(dma.source.data)]
        self.comb += [
            wr.eq(tags.source.valid & (tags.source.pad | rd_valid) & (drop == 0)),
            tags.source.ready.eq(wr),
            dma.source.ready.eq((drop != 0) | filling | (tags.source.valid & ~tags.source.pad & ~ib_on)),
            issued.eq(dma.sink.valid & dma.sink.ready),
            returned.eq(dma.source.valid & dma.source.ready),
            f.active.eq(active),
            f.adr.eq(tags.source.beat),
            f.dat.eq(Mux(tags.source.pad, padw, rd_data)),
            f.we.eq(_lane_we(wr, tags.source.lane, words)),
        ]
        if ib_words:
            ib_we = Signal()
            # the buffer's second writer (RingDrain's write-through: a layer's results, the next
            # layer's input): never while a fill runs (the firmware fills before a job, the drain
            # writes within one); the fill's word would win
            self.ib_ext_we, self.ib_ext_adr, self.ib_ext_dat = Signal(), Signal(ibw), Signal(32)
            self.comb += [
                ib_we.eq(filling & dma.source.valid & (drop == 0)),
                ib_wp.adr.eq(Mux(ib_we, fill_w, self.ib_ext_adr)),
                ib_wp.dat_w.eq(Mux(ib_we, dma.source.data, self.ib_ext_dat)),
                ib_wp.we.eq(ib_we | self.ib_ext_we),
                self.ib_done.status.eq(ib_done),
            ]
            self.sync += [
                If(filling & dma.sink.valid & dma.sink.ready, fill_i.eq(fill_i + 1)),
                If(ib_we, fill_w.eq(fill_w + 1)),
                If(filling & (fill_w == fill_n), filling.eq(0), ib_done.eq(ib_done + 1)),
                If(self.ib_go.re,
                    filling.eq(1), fill_n.eq(self.ib_go.storage[0:ibw + 1]), fill_i.eq(0), fill_w.eq(0)),
                If(rst, filling.eq(0)),
            ]
        self.done_count = done = Signal(32)
        self.sync += [
            If(active & ~issuing & ~tags.source.valid & ~go_re,
                active.eq(0), done.eq(done + 1)),
            If(rst, active.eq(0), issuing.eq(0)),
        ]
        self.comb += [self.done.status.eq(done), tags.reset.eq(go_re | rst)]


class RingDrain(LiteXModule):
    """R ring -> main RAM: a fused layer's int8 result tiles written into Y (NHWC) through a
    LiteDRAM write port, so the CPU neither reads the ring nor scatters the bytes. A tile is
    queued as a descriptor: `base` (the byte address of its first column's first row,
    word-aligned), then `go` = columns [3:0] (1 .. cols), beats [6:4] (the tile's result beats,
    1 .. 4), written beats [9:7] (0 .. beats: the rows Y has, four a beat; the firmware drains
    only layers whose rows come in fours); `ldy` (bytes from one column's rows to the next's) is
    set per layer. Result beat b of a tile holds rows 4b .. 4b+3, row k column c the byte at bit
    (k * cols + c) * 8 (docs/architecture.md §4), so column c's four bytes are one 32-bit word of
    Y at base + c * ldy + 4 * b: a beat is `cols` word writes, and nothing multiplies. Beats are
    taken in order from ring position `pos` (the firmware sets it to the beats the R writer has
    stored when the drain takes over) once the R writer has stored them; `done` counts the tiles
    whose write commands the port has taken (their beats have left the ring: the firmware frees
    their slots, the R writer's `consumed`; their data may still wait in the 16-word queue),
    `tlast` counts the tiles whose TLAST flags were not on their last beat alone (the IP's stream
    broken). The writes bypass the caches: the firmware writes Y's lines back and out of the L2
    first and drops the D$ after; LiteDRAM's bank machines take commands in order, so a later read
    of those addresses (the CPU's, through the L2, or a fetch) comes after the writes taken.
    With `ib` bit 0 set, every word written also goes into the fetch unit's input buffer (ConvFetch,
    `ib_words` > 0), at word (address - `ib` base) modulo its size, in the same cycle: the next
    layer then reads its input there without a fill (the firmware places it beside the job's own
    input in the buffer, and enables it only for a job that writes all of Y)."""

    DESC_DEPTH = 16

    def __init__(self, mem, port, cols, r_bits, ib_words=0):
        depth_bits = _log2(mem.depth)
        self.base = CSRStorage(32, description="Byte address of the next tile's first column, first row (32-bit aligned).")
        self.ldy = CSRStorage(32, description="Bytes from a column's first row to the next column's (a multiple of 4).")
        self.go = CSRStorage(32, description="Write: queue a tile: columns [3:0], beats [6:4], written beats [9:7].")
        self.pos = CSRStorage(32, description="Write: the ring position (the R writer's beat count) the next tile starts at.")
        self.level = CSRStatus(8, description="Tiles queued (including the one being written).")
        self.done = CSRStatus(32, description="Tiles written since reset (monotonic).")
        self.tlast = CSRStatus(32, description="Tiles whose TLAST was not on their last beat alone, since reset.")
        self.received = Signal(32)  # the R writer's stored beats (S24Streams connects it)
        rst = _reset_csr(self, "Write 1: drop the queued tiles, stop the one being written (its words already queued still go out).")
        if ib_words:
            self.ib = CSRStorage(32, description="Write-through into the fetch unit's input buffer: [0] on; [31:2] the byte address (a word's) of main RAM that the buffer's word 0 stands for: a word written at address a also goes into buffer word (a - base) / 4 modulo its size.")

        # # #

        rport = mem.get_port(has_re=False)
        self.specials += rport
        dfifo = ResetInserter()(stream.SyncFIFO(
            [("base", 32), ("ncols", 4), ("beats", 3), ("wbeats", 3)], self.DESC_DEPTH))
        self.writer = wr = _WordWriter(port)
        self.submodules += dfifo
        # a second writer of the queue (JobSeq): its tile goes in when no CSR write does
        self.ext_valid, self.ext_ready = Signal(), Signal()
        self.ext_base, self.ext_go = Signal(32), Signal(10)
        g = Signal(10)
        self.comb += [
            dfifo.reset.eq(rst),
            g.eq(Mux(self.go.re, self.go.storage[:10], self.ext_go)),
            dfifo.sink.valid.eq(self.go.re | self.ext_valid),
            dfifo.sink.base.eq(Mux(self.go.re, self.base.storage, self.ext_base)),
            dfifo.sink.ncols.eq(g[0:4]),
            dfifo.sink.beats.eq(g[4:7]), dfifo.sink.wbeats.eq(g[7:10]),
            self.ext_ready.eq(dfifo.sink.ready & ~self.go.re),
        ]

        active = Signal()
        self.pos_count = pos = Signal(32)   # beats taken from the ring (their slots may go)
        fresh = Signal()        # pos has not changed since the last edge
        had = Signal()          # beat `pos` was stored before the last edge
        b = Signal(3)           # the tile's beat
        c = Signal(4)           # the beat's column
        addr = Signal(32)       # column c's word of beat b
        row_addr = Signal(32)   # column 0's word of beat b
        d_ncols, d_beats, d_wbeats = Signal(4), Signal(3), Signal(3)
        bad = Signal()          # a TLAST out of place in this tile so far
        done = Signal(32)
        nbad = Signal(32)
        have = Signal()
        self.comb += [
            have.eq((self.received - pos) != 0),
            rport.adr.eq(pos[:depth_bits]),
            dfifo.source.ready.eq(~active),
        ]
        # column c of the beat: its four rows' bytes, row k at byte k
        word = Signal(32)
        data = rport.dat_r
        cases = {i: word.eq(Cat(*[data[(k * cols + i) * 8:(k * cols + i) * 8 + 8] for k in range(4)]))
                 for i in range(cols)}
        cases["default"] = word.eq(0)
        self.comb += Case(c, cases)
        tl = data[r_bits]

        ready = Signal()        # rport.dat_r is beat `pos`, stored
        writing = Signal()      # beat b is written (b < wbeats): column c of it now
        last_b = Signal()
        last_c = Signal()
        step = Signal()         # the column (a beat not written: the whole beat) is done
        aw = len(port.cmd.addr)
        self.comb += [
            ready.eq(active & fresh & had),
            writing.eq(b < d_wbeats),
            last_b.eq(b == d_beats - 1),
            last_c.eq(~writing | (c == d_ncols - 1)),
            wr.valid.eq(ready & writing), wr.addr.eq(addr[2:2 + aw]), wr.data.eq(word),
            step.eq(ready & (~writing | wr.taken)),
        ]
        self.sync += [
            fresh.eq(1),
            had.eq(have),
            If(dfifo.source.valid & ~active,
                active.eq(1), b.eq(0), c.eq(0), bad.eq(0),
                d_ncols.eq(dfifo.source.ncols), d_beats.eq(dfifo.source.beats),
                d_wbeats.eq(dfifo.source.wbeats),
                addr.eq(dfifo.source.base), row_addr.eq(dfifo.source.base)),
            If(step,
                If(last_c,
                    # the beat is done: the next one (its data a cycle after its address)
                    pos.eq(pos + 1), fresh.eq(0), c.eq(0), b.eq(b + 1),
                    addr.eq(row_addr + 4), row_addr.eq(row_addr + 4),
                    If(tl != last_b, bad.eq(1)),
                    If(last_b,
                        active.eq(0), done.eq(done + 1),
                        If(bad | (tl != last_b), nbad.eq(nbad + 1))),
                ).Else(
                    c.eq(c + 1), addr.eq(addr + self.ldy.storage),
                ),
            ),
            If(self.pos.re, pos.eq(self.pos.storage), fresh.eq(0)),
            If(rst, active.eq(0)),
        ]
        self.comb += [
            self.done.status.eq(done),
            self.tlast.status.eq(nbad),
            self.level.status.eq(dfifo.level + active),
        ]
        if ib_words:  # the word, as the port takes its command, into the input buffer as well
            ibw = _log2(ib_words)
            self.ib_we, self.ib_adr, self.ib_dat = Signal(), Signal(ibw), Signal(32)
            rel = Signal(32)
            self.comb += [
                rel.eq(addr - Cat(Replicate(0, 2), self.ib.storage[2:32])),
                self.ib_we.eq(self.ib.storage[0] & wr.taken),
                self.ib_adr.eq(rel[2:2 + ibw]),
                self.ib_dat.eq(word),
            ]


class EltAdd(LiteXModule):
    """The elementwise int8 ADD / SUB beside the IP (LiteRT's reference AddElementwise /
    SubElementwise, bit-exact): z = f(x, y) over `go` words (four elements a word, byte k of a
    word element k) of x and y in main RAM, written to z, through a LiteDRAM read port and a write
    port (32-bit). The arithmetic is the C model's s24_add_elem (cmodel/s24_model.h) on its
    tables s24_add_tab_t: each input's rescaled value times the output multiplier is a function
    of the int8 value alone, so the unit first reads the job's 2 x 256 int64 products (`tab`,
    1,024 words) into four block RAMs, then per element adds two of them (64 bits), rounds the
    sum's doubled high half (gemmlowp's SaturatingRoundingDoublingHighMul: (s + nudge) / 2^31,
    truncated), divides by 2^shift rounding half away from zero (RoundingDivideByPOT), adds the
    output zero point and clamps: nothing multiplies (the device's MULT18X18D are taken). One
    element a cycle, six stages; x and y are read in alternating blocks of BLOCK words (one
    SDRAM row open per block, not per word), several reads in flight, and z written WBURST words
    at a time. The reads and writes
    bypass the caches: the firmware writes x, y and the tables back to the SDRAM first, writes
    z's lines back and drops them from the L2 (so no dirty line lands on the unit's writes
    later), and drops the D$ after. `done` counts jobs whose last z word the port has taken;
    LiteDRAM's bank machines take commands in order, so a later read of z comes after it."""

    BLOCK = 16      # words read from x, then from y (one SDRAM row opened per block, not per word)
    DEPTH = 32      # x and y word FIFOs: the credits of each stream's reads in flight
    TAGS = 32
    PEND = 12       # words in the six stages and the output FIFO (16 deep)
    WBURST = 8      # z words written at once (the SDRAM turns from reading to writing per burst)

    def __init__(self, rport, wport):
        from litedram.frontend.dma import LiteDRAMDMAReader
        self.tab = CSRStorage(32, description="Byte address of the tables (s24_add_tab_t.p, 1,024 words; 32-bit aligned).")
        self.x = CSRStorage(32, description="Byte address of x (32-bit aligned).")
        self.y = CSRStorage(32, description="Byte address of y (32-bit aligned).")
        self.z = CSRStorage(32, description="Byte address of z (32-bit aligned).")
        self.cfg = CSRStorage(32, description="Output zero point [7:0], clamp low [15:8] and high [23:16] (int8), right shift [28:24].")
        self.go = CSRStorage(32, description="Write: start a job of [23:0] words (>= 1) of x, y and z.")
        self.done = CSRStatus(32, description="Jobs finished since reset (monotonic).")
        rst = _reset_csr(self, "Write 1: stop the job (its reads in flight are dropped as they return; z words the port has taken still go out).")

        # # #

        self.dma = dma = LiteDRAMDMAReader(rport, fifo_depth=16)
        aw = len(dma.sink.address)
        cfg = self.cfg.storage
        TABW = 1024

        active = Signal()
        n = Signal(24)
        ti, tw = Signal(11), Signal(11)     # table words issued, written
        xi, yi, zi = Signal(24), Signal(24), Signal(24)
        d = Signal()                        # the stream being read: x (0) or y (1)
        blk = Signal(max=self.BLOCK)
        xc, yc = Signal(max=self.DEPTH + 1), Signal(max=self.DEPTH + 1)  # reads not yet consumed
        tb, xb, yb, zb = Signal(aw), Signal(aw), Signal(aw), Signal(aw)  # word addresses

        tags = ResetInserter()(stream.SyncFIFO([("dest", 2)], self.TAGS))
        xf = ResetInserter()(stream.SyncFIFO([("data", 32)], self.DEPTH))
        yf = ResetInserter()(stream.SyncFIFO([("data", 32)], self.DEPTH))
        of = ResetInserter()(stream.SyncFIFO([("data", 32)], 16))
        self.writer = zw = _WordWriter(wport)
        self.submodules += tags, xf, yf, of

        # the reads: the tables, then x and y in alternating blocks
        want_t, want_x, want_y = Signal(), Signal(), Signal()
        issue = Signal()
        self.comb += [
            want_t.eq(active & (ti != TABW)),
            want_x.eq(active & (ti == TABW) & ~d & (xi != n) & (xc != self.DEPTH)),
            want_y.eq(active & (ti == TABW) & d & (yi != n) & (yc != self.DEPTH)),
            dma.sink.valid.eq((want_t | want_x | want_y) & tags.sink.ready),
            dma.sink.address.eq(Mux(want_t, tb + ti, Mux(d, yb + yi, xb + xi))),
            issue.eq(dma.sink.valid & dma.sink.ready),
            tags.sink.valid.eq(issue),
            tags.sink.dest.eq(Mux(want_t, 0, Mux(d, 2, 1))),
        ]
        switch = Signal()
        self.comb += switch.eq(
            (issue & ~want_t & (blk == self.BLOCK - 1)) |
            (~want_t & ~d & ((xi == n) | (issue & (xi + 1 == n)))) |
            (~want_t & d & ((yi == n) | (issue & (yi + 1 == n)))))

        # the returns, in order: table words into the RAMs, x and y words into their FIFOs
        mems = [Memory(32, 256, name=f"s24_add_tab{i}") for i in range(4)]  # p0 lo, hi, p1 lo, hi
        self.specials += mems
        wps = [m.get_port(write_capable=True) for m in mems]
        rps = [m.get_port() for m in mems]
        self.specials += wps + rps
        back = Signal()
        returned = Signal()
        drop = _drop_after_reset(self, rst, issue, returned)
        self.comb += [
            back.eq(dma.source.valid & tags.source.valid & (drop == 0)),
            tags.source.ready.eq(back),
            dma.source.ready.eq((drop != 0) | tags.source.valid),
            xf.sink.valid.eq(back & (tags.source.dest == 1)),
            yf.sink.valid.eq(back & (tags.source.dest == 2)),
            xf.sink.data.eq(dma.source.data), yf.sink.data.eq(dma.source.data),
        ]
        for i, wp in enumerate(wps):
            self.comb += [
                wp.adr.eq(tw[1:9]), wp.dat_w.eq(dma.source.data),
                wp.we.eq(back & (tags.source.dest == 0) & (tw[9] == i // 2) & (tw[0] == i % 2)),
            ]
        self.comb += returned.eq(dma.source.valid & dma.source.ready)

        # the elements: a word of x and of y, one byte lane a cycle, through six stages
        lane = Signal(2)
        pend = Signal(5)
        step = Signal()
        pop = Signal()
        self.comb += [
            step.eq(active & xf.source.valid & yf.source.valid & ((lane != 0) | (pend < self.PEND))),
            pop.eq(step & (lane == 3)),
            xf.source.ready.eq(pop), yf.source.ready.eq(pop),
        ]
        xq = Signal(8)
        yq = Signal(8)
        self.comb += [
            Case(lane, {k: [xq.eq(xf.source.data[8 * k:8 * k + 8]), yq.eq(yf.source.data[8 * k:8 * k + 8])]
                        for k in range(4)}),
            rps[0].adr.eq(xq ^ 0x80), rps[1].adr.eq(xq ^ 0x80),   # index q + 128
            rps[2].adr.eq(yq ^ 0x80), rps[3].adr.eq(yq ^ 0x80),
        ]
        v = [Signal() for _ in range(6)]
        ln = [Signal(2) for _ in range(6)]
        pa, pb = Signal((64, True)), Signal((64, True))
        self.comb += [pa.eq(Cat(rps[0].dat_r, rps[1].dat_r)), pb.eq(Cat(rps[2].dat_r, rps[3].dat_r))]
        s2 = Signal((64, True))     # p0[x] + p1[y]
        s3 = Signal((64, True))     # + the nudge
        h4 = Signal((32, True))     # / 2^31, truncated
        r5 = Signal((32, True))     # RoundingDivideByPOT
        e = cfg[24:29]
        mask = Signal(32)
        self.comb += mask.eq((1 << e) - 1)
        sh = Signal(64)
        rem = Signal(32)
        thr = Signal(33)
        self.comb += [
            sh.eq(Cat(h4, Replicate(h4[31], 32)) >> e),   # arithmetic shift of h4 (e <= 31)
            rem.eq(h4 & mask),
            thr.eq((mask >> 1) + h4[31]),
        ]
        off = Signal((8, True))
        lo = Signal((8, True))
        hi = Signal((8, True))
        self.comb += [off.eq(cfg[0:8]), lo.eq(cfg[8:16]), hi.eq(cfg[16:24])]
        r6 = Signal((33, True))
        q6 = Signal(8)
        self.comb += [
            r6.eq(r5 + off),
            If(r6 < lo, q6.eq(lo)).Elif(r6 > hi, q6.eq(hi)).Else(q6.eq(r6[0:8])),
        ]
        word = Signal(24)
        self.sync += [
            v[0].eq(step), ln[0].eq(lane),                          # the RAMs read
            v[1].eq(v[0]), ln[1].eq(ln[0]), s2.eq(pa + pb),
            v[2].eq(v[1]), ln[2].eq(ln[1]),
            s3.eq(s2 + (1 << 30) - Mux(s2[63], (1 << 31) - 1, 0)),  # nudge 2^30 or 1 - 2^30
            v[3].eq(v[2]), ln[3].eq(ln[2]),
            h4.eq((s3 + Mux(s3[63], (1 << 31) - 1, 0))[31:63]),
            v[4].eq(v[3]), ln[4].eq(ln[3]),
            r5.eq(sh[0:32] + (rem > thr)),
            If(v[4],
                Case(ln[4], {k: word[8 * k:8 * k + 8].eq(q6) for k in range(3)})),
            If(step, lane.eq(lane + 1)),
        ]
        self.comb += [
            of.sink.valid.eq(v[4] & (ln[4] == 3)),
            of.sink.data.eq(Cat(word, q6)),
        ]

        # the writes, WBURST words at a time
        taken = zw.taken
        ew = Signal(24)                     # words entered the stages
        burst = Signal(max=self.WBURST)     # words left of the burst being written
        last = Signal()                     # every word entered and through the stages
        self.comb += last.eq((ew == n) & ~(v[0] | v[1] | v[2] | v[3] | v[4]))
        self.comb += [
            zw.valid.eq(active & of.source.valid &
                        ((burst != 0) | (of.level >= self.WBURST) | last)),
            zw.addr.eq(zb + zi), zw.data.eq(of.source.data),
            of.source.ready.eq(taken),
        ]
        done = Signal(32)
        enter = Signal()
        self.comb += enter.eq(step & (lane == 0))
        self.sync += [
            pend.eq(pend + enter - taken),
            If(issue,
                If(want_t, ti.eq(ti + 1)
                ).Elif(d, yi.eq(yi + 1), yc.eq(yc + 1 - pop)
                ).Else(xi.eq(xi + 1), xc.eq(xc + 1 - pop)),
                If(~want_t, blk.eq(blk + 1)),
            ),
            If(pop & ~(issue & ~want_t & d), yc.eq(yc - 1)),
            If(pop & ~(issue & ~want_t & ~d), xc.eq(xc - 1)),
            If(switch, d.eq(~d), blk.eq(0)),
            If(back & (tags.source.dest == 0), tw.eq(tw + 1)),
            If(taken, zi.eq(zi + 1), If(burst == 0, burst.eq(self.WBURST - 1)).Else(burst.eq(burst - 1))),
            If(enter, ew.eq(ew + 1)),
            If(active & (zi == n) & ~zw.pending, active.eq(0), done.eq(done + 1)),
            If(self.go.re,
                active.eq(1), n.eq(self.go.storage[0:24]),
                ti.eq(0), tw.eq(0), xi.eq(0), yi.eq(0), zi.eq(0), d.eq(0), blk.eq(0),
                xc.eq(0), yc.eq(0), pend.eq(0), lane.eq(0), ew.eq(0), burst.eq(0),
                tb.eq(self.tab.storage[2:2 + aw]), xb.eq(self.x.storage[2:2 + aw]),
                yb.eq(self.y.storage[2:2 + aw]), zb.eq(self.z.storage[2:2 + aw])),
            If(rst, active.eq(0), lane.eq(0), pend.eq(0)),
        ]
        self.comb += [
            tags.reset.eq(self.go.re | rst), xf.reset.eq(self.go.re | rst),
            yf.reset.eq(self.go.re | rst), of.reset.eq(self.go.re | rst),
            self.done.status.eq(done),
        ]


class QuantIn(LiteXModule):
    """The float input's QUANTIZE beside the IP (LiteRT's reference AffineQuantize, FLOAT32 ->
    int8, bit-exact) by the runtime's table, as the C model's s24_quant_elem (cmodel/s24_model.h)
    searches it: for inputs whose magnitude is below `dom` the output is -128 plus the number of
    the 255 ascending
    thresholds at or below the input's key (its bits ordered like its value), so the unit reads
    the thresholds into a block RAM, then per element searches them, one threshold a cycle (eight
    cycles an element), through a LiteDRAM read port (the table, then x, one float a word) and a
    write port (y, four elements a word). Nothing divides or multiplies. An input at or beyond
    `dom` (NaN, infinities, |x| >= scale * 2^24) is not the table's: `first` gets the index of
    the first such element (else n) and the firmware computes the elements from there on itself.
    The reads and writes bypass the caches (as for EltAdd: the firmware writes x and the table
    back, y's lines back and out of the L2 first, and drops the D$ after). `done` counts jobs
    whose last y word the port has taken."""

    TABW = 255
    DEPTH = 16      # x words read ahead

    def __init__(self, rport, wport):
        from litedram.frontend.dma import LiteDRAMDMAReader
        self.tab = CSRStorage(32, description="Byte address of the 255 thresholds (s24_quant_job_t.thr; 32-bit aligned).")
        self.x = CSRStorage(32, description="Byte address of x (floats; 32-bit aligned).")
        self.y = CSRStorage(32, description="Byte address of y (32-bit aligned).")
        self.dom = CSRStorage(32, description="The table's domain: an input whose magnitude bits (bits & 0x7fffffff) are at or above this is not the table's.")
        self.go = CSRStorage(32, description="Write: start a job of [23:0] words (>= 1) of y (four elements each).")
        self.done = CSRStatus(32, description="Jobs finished since reset (monotonic).")
        self.first = CSRStatus(32, description="The last job's first element outside the table's domain (its elements: none).")
        rst = _reset_csr(self, "Write 1: stop the job (its reads in flight are dropped as they return; y words the port has taken still go out).")

        # # #

        self.dma = dma = LiteDRAMDMAReader(rport, fifo_depth=self.DEPTH)
        aw = len(dma.sink.address)
        TABW = self.TABW

        active = Signal()
        n = Signal(26)                      # elements
        ri = Signal(27)                     # reads issued: the table's words, then x's
        rb = Signal(27)                     # reads back
        tb, xb, yb = Signal(aw), Signal(aw), Signal(aw)
        issue, returned = Signal(), Signal()
        drop = _drop_after_reset(self, rst, issue, returned)
        self.comb += [
            dma.sink.valid.eq(active & (ri != TABW + n)),
            dma.sink.address.eq(Mux(ri < TABW, tb + ri, xb + (ri - TABW))),
            issue.eq(dma.sink.valid & dma.sink.ready),
            returned.eq(dma.source.valid & dma.source.ready),
        ]

        mem = Memory(32, 256, name="s24_quant_tab")
        wp = mem.get_port(write_capable=True)
        rp = mem.get_port()
        self.specials += mem, wp, rp
        tab_back = Signal()
        self.comb += [
            tab_back.eq(dma.source.valid & (drop == 0) & (rb < TABW)),
            wp.adr.eq(rb[:8]), wp.dat_w.eq(dma.source.data), wp.we.eq(tab_back),
        ]

        # the search: the element's key against threshold pos + 2^b - 1, b = 7 .. 0 (a step a
        # cycle, the RAM's address from the step's outcome: its word is there the next cycle)
        busy = Signal()
        b = Signal(3)
        pos = Signal(8)
        key = Signal((32, True))
        oob = Signal()                      # the element is outside the domain
        ei = Signal(26)                     # elements taken into the search
        first = Signal(26)
        bits = dma.source.data
        x_in = Signal()                     # an x word is there, the search may take it
        take = Signal()
        res = Signal(8)
        fin = Signal()                      # the element's last step is this cycle
        pw = Signal(8)
        bitv = Array([C(1 << i, 8) for i in range(8)])
        of = ResetInserter()(stream.SyncFIFO([("data", 32)], 4))
        self.writer = yw = _WordWriter(wport)
        self.submodules += of
        word = Signal(24)
        lane = Signal(2)
        t = Signal((32, True))
        self.comb += [
            t.eq(rp.dat_r),
            fin.eq(busy & (b == 0)),
            res.eq(pos + Mux(t <= key, bitv[b], 0)),
            x_in.eq(dma.source.valid & (drop == 0) & (rb >= TABW) & (~busy | fin) & (of.level < 3)),
            dma.source.ready.eq((drop != 0) | tab_back | x_in),
            # the next step's threshold: a new element's first (127), or pos' + 2^(b-1) - 1
            If(x_in, rp.adr.eq(127)
            ).Else(rp.adr.eq(res + bitv[b - 1] - 1)),
            pw.eq(Mux(oob, 0, res ^ 0x80)),    # -128 + the count
            of.sink.valid.eq(fin & (lane == 3)),
            of.sink.data.eq(Cat(word, pw)),
        ]
        key_in = Signal(32)
        self.comb += key_in.eq(bits ^ (Replicate(bits[31], 32) & 0x7FFFFFFF))
        self.sync += [
            If(busy & ~fin, pos.eq(res), b.eq(b - 1)),
            If(fin,
                busy.eq(0), lane.eq(lane + 1),
                Case(lane, {k: word[8 * k:8 * k + 8].eq(pw) for k in range(3)})),
            If(x_in,
                busy.eq(1), b.eq(7), pos.eq(0), key.eq(key_in), ei.eq(ei + 1),
                oob.eq(bits[:31] >= self.dom.storage[:31]),
                If((bits[:31] >= self.dom.storage[:31]) & (first == n), first.eq(ei))),
            If(returned & (drop == 0), rb.eq(rb + 1)),
            If(issue, ri.eq(ri + 1)),
        ]

        # the writes
        yi = Signal(24)
        taken = yw.taken
        self.comb += [
            yw.valid.eq(active & of.source.valid), yw.addr.eq(yb + yi), yw.data.eq(of.source.data),
            of.source.ready.eq(taken),
        ]
        done = Signal(32)
        self.sync += [
            If(taken, yi.eq(yi + 1)),
            If(active & (yi == n[2:]) & ~yw.pending, active.eq(0), done.eq(done + 1)),
            If(self.go.re,
                active.eq(1), n.eq(Cat(C(0, 2), self.go.storage[0:24])),
                first.eq(Cat(C(0, 2), self.go.storage[0:24])),
                ri.eq(0), rb.eq(0), yi.eq(0), ei.eq(0), lane.eq(0), busy.eq(0),
                tb.eq(self.tab.storage[2:2 + aw]), xb.eq(self.x.storage[2:2 + aw]),
                yb.eq(self.y.storage[2:2 + aw])),
            If(rst, active.eq(0), busy.eq(0), lane.eq(0)),
        ]
        self.comb += [
            of.reset.eq(self.go.re | rst),
            self.done.status.eq(done),
            self.first.status.eq(first),
        ]


class JobSeq(LiteXModule):
    """A job's tiles without the CPU: for each row tile the firmware queues (its weights already
    in their half of the W ring, its A descriptors in this unit's list), the sequencer walks the
    row tile's column tiles and, per tile, waits for A-ring room, starts the fetch unit on the
    tile's columns (the first from the position CSRs the firmware set for column 0, its addresses
    moved by the row tile's `row_x`: a depthwise layer's row tiles read channel windows of their
    own; the rest `continue`), and once it is done queues the W reader's descriptor of the row tile (replayed
    for every column tile), the tile's A descriptors (the list's, relative to the tile's first
    ring position) and the drain's tile (Y's address stepped 8 columns, ldy each, a tile). The
    firmware only fills the W ring and queues row tiles: what the C loop of plat_stream_job did a
    tile, this does in a few cycles. Tile k of a job takes ring positions k*G .. (mod depth) and
    the A reader's beats a0 + k*nb .. a0 + (k+1)*nb; a tile's positions are free once the reader
    has taken its beats. With `ctl` bit 9 (reuse) only the first row tile's column tiles are
    fetched: tile (i, j) then reads ring positions j*G .., which stay until the next job (the
    firmware sets it when every row tile reads the same columns, no `row_x`, and the column tiles
    fit the ring: the fetch unit builds a layer's input once, not once a row tile). While `ctl`
    bit 8 is set the R writer's slots are freed by the drain's position (the firmware writes the R
    writer's `consumed` before it clears the bit)."""

    DL_HALF = 256   # A descriptors a row tile (two halves: the next row tile's are written while
    ROWS = 2        # one runs); row tiles queued

    def __init__(self, conv, a_rd, w_rd, drain, r_wr, a_depth):
        ab = _log2(a_depth)
        self.job = CSRStorage(32, description="Write: a job starts (tile counters zeroed): A ring positions (groups) a tile [15:0], beats a tile [31:16].")
        self.cols = CSRStorage(32, description="The job's output columns: a row tile's column tiles take 8 each, its last the rest.")
        self.a0 = CSRStorage(32, description="The A reader's consumed count when the job starts (written before `job`).")
        self.ctl = CSRStorage(32, description="Result beats a tile [2:0] (the drain's beats); [8]: the drain frees the R ring's slots (the R writer's consumed follows the drain's position); [9]: reuse: the first row tile's column tiles are fetched once and stay in the ring, every later row tile reads them there (a job whose row tiles all read the same columns, and whose column tiles fit the ring).")
        self.dl_at = CSRStorage(9, description="Write: where the next `dl` word goes in the descriptor list (half h: h * 256 ..).")
        self.dl = CSRStorage(32, description="Write: a descriptor of the list at dl_at (then dl_at + 1): RingReader.desc's format, its start relative to the tile's first ring position.")
        self.row_w = CSRStorage(32, description="The W reader's descriptor of the next row tile (replayed for each of its tiles).")
        self.row_y = CSRStorage(32, description="Byte address in Y of the next row tile's first result (its first column, first row).")
        self.row_x = CSRStorage(32, description="Bytes the next row tile's input taps lie past the fetch unit's addr0 and row0 (its channel window: a depthwise layer's row tiles read channels of their own).")
        self.row_go = CSRStorage(32, description="Write: queue a row tile: column tiles [15:0] (>= 1), written result beats a tile [18:16], descriptor list half [19], descriptors a tile [28:20] (1 .. 256).")
        self.rows = CSRStatus(32, description="Row tiles whose tiles have all been issued since the last `job` write.")
        self.issued = CSRStatus(32, description="Tiles issued since the last `job` write.")
        rst = _reset_csr(self, "Write 1: stop, drop the queued row tiles (the engines it feeds are reset on their own).")

        # # #

        dl_mem = Memory(32, 2 * self.DL_HALF, name="s24_seq_dl")
        dl_wp = dl_mem.get_port(write_capable=True)
        dl_rp = dl_mem.get_port()
        self.specials += dl_mem, dl_wp, dl_rp
        wat = Signal(9)
        self.comb += [dl_wp.adr.eq(wat), dl_wp.dat_w.eq(self.dl.storage), dl_wp.we.eq(self.dl.re)]
        self.sync += If(self.dl_at.re, wat.eq(self.dl_at.storage)).Elif(self.dl.re, wat.eq(wat + 1))

        rowq = ResetInserter()(stream.SyncFIFO(
            [("ct", 16), ("wb", 3), ("half", 1), ("ndl", 9), ("w", 32), ("y", 32), ("x", 32)],
            self.ROWS))
        self.submodules += rowq
        rg = self.row_go.storage
        self.comb += [
            rowq.reset.eq(rst),
            rowq.sink.valid.eq(self.row_go.re),
            rowq.sink.ct.eq(rg[0:16]), rowq.sink.wb.eq(rg[16:19]), rowq.sink.half.eq(rg[19]),
            rowq.sink.ndl.eq(rg[20:29]), rowq.sink.w.eq(self.row_w.storage),
            rowq.sink.y.eq(self.row_y.storage), rowq.sink.x.eq(self.row_x.storage),
        ]

        G, nb = self.job.storage[0:16], self.job.storage[16:32]
        reuse = self.ctl.storage[9]
        first = Signal(reset=1)   # the job's first row tile (with reuse, the only one fetched)
        ct, j, wb, half, ndl = Signal(16), Signal(16), Signal(3), Signal(), Signal(9)
        wdesc, ybase, cleft, xoff = Signal(32), Signal(32), Signal(32), Signal(32)
        tpos = Signal(ab)
        d = Signal(9)
        inring = Signal(ab + 2)
        kiss, krel, rel_at, want, rows = Signal(32), Signal(32), Signal(32), Signal(32), Signal(32)
        ncols = Signal(4)
        self.comb += [
            ncols.eq(Mux(cleft < 8, cleft[:4], 8)),
            dl_rp.adr.eq(Cat(d[:8], half)),
            r_wr.auto.eq(self.ctl.storage[8]),
            r_wr.auto_consumed.eq(drain.pos_count),
            self.rows.status.eq(rows),
            self.issued.status.eq(kiss),
        ]

        # positions freed: the reader has taken every beat of the oldest tile issued
        rel, fire = Signal(), Signal()
        diff = Signal(32)
        self.comb += [diff.eq(a_rd.consumed_count - rel_at),
                      rel.eq((krel != kiss) & ~diff[31])]
        self.sync += [
            If(rel, krel.eq(krel + 1), rel_at.eq(rel_at + nb)),
            # (with reuse the fetched tiles stay: nothing is freed before the next job)
            inring.eq(inring + Mux(fire, G, 0) - Mux(rel & ~reuse, G, 0)),
            If(self.job.re,
                krel.eq(0), rel_at.eq(self.a0.storage + self.job.storage[16:32]), inring.eq(0)),
        ]

        self.fsm = fsm = ResetInserter()(FSM(reset_state="IDLE"))
        self.comb += fsm.reset.eq(rst | self.job.re)
        dl_v = dl_rp.dat_r
        a_start = Signal(16)
        self.comb += a_start.eq((dl_v[0:16] + tpos)[:ab])   # (ab <= the repeat field's shift)
        # (the FSM's reset, on `reset` and `job`, zeroes every register it sets: tpos, kiss, rows;
        # `first` goes back to 1)
        fsm.act("IDLE",
            rowq.source.ready.eq(1),
            If(rowq.source.valid,
                NextValue(ct, rowq.source.ct), NextValue(j, 0), NextValue(wb, rowq.source.wb),
                NextValue(half, rowq.source.half), NextValue(ndl, rowq.source.ndl),
                NextValue(wdesc, rowq.source.w), NextValue(ybase, rowq.source.y),
                NextValue(xoff, rowq.source.x),
                NextValue(cleft, self.cols.storage),
                NextState("ROOM")),
        )
        fsm.act("ROOM",
            If(reuse & ~first,
                NextState("W"),   # its column tile is in the ring already, at tpos
            ).Elif(inring + G <= a_depth,
                fire.eq(1),
                conv.ext_go.eq(1),
                NextValue(want, conv.done_count + 1),
                NextState("FETCH")),
        )
        self.comb += [conv.ext_go_val.eq(Cat(tpos, Replicate(0, 16 - ab), ncols, Replicate(0, 4), j != 0)),
                      conv.ext_off.eq(xoff)]
        fsm.act("FETCH",
            If(conv.done_count == want, NextState("W")),
        )
        fsm.act("W",
            w_rd.ext_valid.eq(1),
            If(w_rd.ext_ready, NextValue(d, 0), NextState("RD")),
        )
        self.comb += w_rd.ext_desc.eq(wdesc)
        fsm.act("RD", NextState("PUSH"))   # the list's word d, read (a cycle)
        fsm.act("PUSH",
            a_rd.ext_valid.eq(1),
            If(a_rd.ext_ready,
                NextValue(d, d + 1),
                If(d == ndl - 1, NextState("DRAIN")).Else(NextState("RD"))),
        )
        self.comb += a_rd.ext_desc.eq(Cat(a_start[:RingReader.REP_SHIFT], dl_v[RingReader.REP_SHIFT:32]))
        fsm.act("DRAIN",
            drain.ext_valid.eq(1),
            If(drain.ext_ready,
                NextValue(ybase, ybase + (drain.ldy.storage << 3)),
                NextValue(tpos, tpos + G[:ab]),
                NextValue(kiss, kiss + 1),
                NextValue(j, j + 1),
                NextValue(cleft, cleft - 8),
                If(j == ct - 1,
                    NextValue(rows, rows + 1), NextValue(first, 0), NextState("IDLE"),
                    If(reuse, NextValue(tpos, 0)),   # the next row tile reads column tile 0 again
                ).Else(NextState("ROOM"))),
        )
        self.comb += [drain.ext_base.eq(ybase),
                      drain.ext_go.eq(Cat(ncols, self.ctl.storage[0:3], wb))]


class S24Streams(LiteXModule):
    """The three rings and their engines. `w`, `a` are stream sources for s24_top's s_axis_w/a,
    `r` a sink for its m_axis_r; `windows` maps "w", "a", "r" to (Wishbone interface, size)."""

    def __init__(self, w_bits, a_bits, r_bits, w_depth=1024, a_depth=1024, r_depth=256,
                 w_port=None, a_port=None, conv_port=None, r_port=None, cols=8, ib_words=0):
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
        a_fillers = []
        if w_port is not None:
            self.w_fill = RingFill(w_port, self.w_win, w_words, w_depth)
            _connect_fillers(self, self.w_win, [self.w_fill.filler])
        if a_port is not None:
            self.a_fill = RingFill(a_port, self.a_win, a_words, a_depth)
            a_fillers.append(self.a_fill.filler)
        if conv_port is not None:
            self.a_conv = ConvFetch(conv_port, a_words, a_depth, ib_words)
            a_fillers.append(self.a_conv.filler)
        if a_fillers:
            _connect_fillers(self, self.a_win, a_fillers)
        if r_port is not None:
            through = conv_port is not None and ib_words
            self.r_drain = RingDrain(r_mem, r_port, cols, 32 * r_words, ib_words if through else 0)
            self.comb += self.r_drain.received.eq(self.r_wr.received.status)
        if conv_port is not None and r_port is not None:
            self.seq = JobSeq(self.a_conv, self.a_rd, self.w_rd, self.r_drain, self.r_wr, a_depth)
            if ib_words:
                self.comb += [self.a_conv.ib_ext_we.eq(self.r_drain.ib_we),
                              self.a_conv.ib_ext_adr.eq(self.r_drain.ib_adr),
                              self.a_conv.ib_ext_dat.eq(self.r_drain.ib_dat)]

        def size(mem, win):
            return mem.depth * (1 << win.lane_bits) * 4
        self.windows = {
            "w": (self.w_win.bus, size(w_mem, self.w_win), w_depth, self.w_win.lane_bits),
            "a": (self.a_win.bus, size(a_mem, self.a_win), a_depth, self.a_win.lane_bits),
            "r": (self.r_win.bus, size(r_mem, self.r_win), r_depth, self.r_win.lane_bits),
        }
