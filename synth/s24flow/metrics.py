# sparse24 synthesis flow (synth/s24_synth.py): the figures of each target from Yosys's cell counts.
import re


def ecp5_metrics(c):
    ffs = c.get("TRELLIS_FF", 0)
    return {"lut4": c.get("LUT4", 0), "ccu2c": c.get("CCU2C", 0),
            "luts": c.get("LUT4", 0) + 2 * c.get("CCU2C", 0),   # a CCU2C occupies the 2 LUT4s of a slice
            "mux": c.get("PFUMX", 0) + c.get("L6MUX21", 0), "ffs": ffs,
            "dsps": c.get("MULT18X18D", 0) + c.get("ALU54B", 0),
            "bram": c.get("DP16KD", 0) + c.get("PDPW16KD", 0),
            "lutram": c.get("TRELLIS_DPR16X4", 0)}


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


def generic_metrics(c):
    ffs = sum(v for k, v in c.items() if "DFF" in k or "SDFF" in k)
    return {"cells": sum(c.values()), "ffs": ffs, "gates": sum(c.values()) - ffs}


def macs(r):
    """Effective dense-equivalent MACs per cycle: one group of m k-values per PE per step."""
    return r["rows"] * r["cols"] * r["m"]
