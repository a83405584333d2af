# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): the figures of each target from Yosys's cell counts.
import collections
import json
import re


def ecp5_metrics(c):
    ffs = c.get("TRELLIS_FF", 0)
    return {"lut4": c.get("LUT4", 0), "ccu2c": c.get("CCU2C", 0),
            "luts": c.get("LUT4", 0) + 2 * c.get("CCU2C", 0),   # a CCU2C occupies the 2 LUT4s of a slice
            "mux": c.get("PFUMX", 0) + c.get("L6MUX21", 0), "ffs": ffs,
            "dsps": c.get("MULT18X18D", 0) + c.get("ALU54B", 0),
            "bram": c.get("DP16KD", 0) + c.get("PDPW16KD", 0),
            "lutram": c.get("TRELLIS_DPR16X4", 0)}


def ecp5_reset_lut_copies(netlist, top):
    """LUT4s of a mapped ECP5 netlist (Yosys JSON) that only drive flop resets (TRELLIS_FF LSR) and
    repeat another such LUT4: the same INIT on the same inputs. Yosys 0.23's synth_ecp5 gives every
    flop with an active-low reset an inverter of its own (synth/ecp5_ffs.ys maps those flops onto
    their own reset inverter instead); returns (reset LUT4s, copies)."""
    with open(netlist) as f:
        m = json.load(f)["modules"][top]
    loads = collections.defaultdict(list)
    for c in m["cells"].values():
        for port, bits in c["connections"].items():
            if c["port_directions"].get(port) != "output":
                for b in bits:
                    loads[b].append((c["type"], port))
    seen = collections.Counter()
    for c in m["cells"].values():
        if c["type"] != "LUT4":
            continue
        ls = loads[c["connections"]["Z"][0]]
        if ls and all(ld == ("TRELLIS_FF", "LSR") for ld in ls):
            seen[(c["parameters"]["INIT"],) + tuple(str(c["connections"][p]) for p in "ABCD")] += 1
    return sum(seen.values()), sum(n - 1 for n in seen.values())


def xilinx_metrics(c):
    luts = sum(v for k, v in c.items() if re.fullmatch(r"LUT[1-6]", k))
    srl = sum(v for k, v in c.items() if k.startswith("SRL"))
    lutram = sum(v for k, v in c.items() if k.startswith("RAM") and not k.startswith("RAMB"))
    return {"luts": luts, "srl": srl, "lutram": lutram,
            "ffs": sum(v for k, v in c.items() if re.fullmatch(r"FD[CPRS]E", k)),
            "carry": c.get("CARRY4", 0), "dsps": c.get("DSP48E1", 0),
            "bram": c.get("RAMB18E1", 0) + 2 * c.get("RAMB36E1", 0),
            "mux": c.get("MUXF7", 0) + c.get("MUXF8", 0)}


def ice40_metrics(c):
    return {"luts": c.get("SB_LUT4", 0), "carry": c.get("SB_CARRY", 0),
            "ffs": sum(v for k, v in c.items() if k.startswith("SB_DFF")),
            "dsps": c.get("SB_MAC16", 0),
            "bram": c.get("SB_RAM40_4K", 0) + c.get("SB_SPRAM256KA", 0)}


def nexus_metrics(c):
    """Lattice Nexus (synth_nexus) cells. luts counts LUT4 positions as Yosys left them: LUT4 + INV
    + 2 per CCU2 (a carry cell is two LUT4s) + 2 per WIDEFN9 (a 5-input function is two LUT4s and a
    mux); nextpnr absorbs some INVs, so the placed OXIDE_COMB count can be lower."""
    ffs = sum(v for k, v in c.items() if re.fullmatch(r"FD1[PS]3[A-Z]X", k))
    return {"lut4": c.get("LUT4", 0), "inv": c.get("INV", 0), "ccu2": c.get("CCU2", 0),
            "widefn9": c.get("WIDEFN9", 0),
            "luts": c.get("LUT4", 0) + c.get("INV", 0) + 2 * c.get("CCU2", 0) + 2 * c.get("WIDEFN9", 0),
            "ffs": ffs, "lutram": c.get("DPR16X4", 0),
            "dsps": sum(c.get(k, 0) for k in ("MULT9X9", "MULT18X18", "MULT18X36", "MULT36X36", "MULTADDSUB18X18",
                                             "MULTADDSUB9X9WIDE", "MULTPREADD9X9", "MULTPREADD18X18")),
            "mult9": c.get("MULT9X9", 0),
            "bram": sum(v for k, v in c.items() if re.fullmatch(r"(DP|PDP|PDPSC|SP)16K(_MODE)?", k)),
            "lram": sum(v for k, v in c.items() if re.fullmatch(r"(SP|DPSC|PDPSC)512K(_MODE)?", k))}


def intel_metrics(c):
    """Intel Cyclone V (synth_intel_alm) cells. ALUTs = MISTRAL_ALUT2..6 + MISTRAL_ALUT_ARITH (one adder bit
    each) + MISTRAL_NOT. Yosys does not pack ALUTs into ALMs (Quartus does): alms_min is the lower bound
    ALUT6 + ceil(rest / 2) (an ALM holds one 6-input ALUT or two smaller ones, or two adder bits)."""
    alut = {k: v for k, v in c.items() if re.fullmatch(r"MISTRAL_ALUT(\d|_ARITH)", k)}
    aluts = sum(alut.values()) + c.get("MISTRAL_NOT", 0)
    six = c.get("MISTRAL_ALUT6", 0)
    return {"aluts": aluts, "alut6": six, "arith": c.get("MISTRAL_ALUT_ARITH", 0),
            "alms_min": six + (aluts - six + 1) // 2,
            "ffs": c.get("MISTRAL_FF", 0),
            "dsps": sum(v for k, v in c.items() if k.startswith("MISTRAL_MUL")),
            "mul9": c.get("MISTRAL_MUL9X9", 0), "mul18": c.get("MISTRAL_MUL18X18", 0),
            "mul27": c.get("MISTRAL_MUL27X27", 0),
            "m10k": c.get("MISTRAL_M10K", 0), "mlab": c.get("MISTRAL_MLAB", 0)}


def generic_metrics(c):
    ffs = sum(v for k, v in c.items() if "DFF" in k or "SDFF" in k)
    return {"cells": sum(c.values()), "ffs": ffs, "gates": sum(c.values()) - ffs}


def macs(r):
    """Effective dense-equivalent MACs per cycle: one group of m k-values per PE per step."""
    return r["rows"] * r["cols"] * r["m"]
