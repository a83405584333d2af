# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): constants of the device and the targets, and the flow's error.
import os
import shlex
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYNTH = os.path.join(REPO, "synth")

ECP5_DEVICE = ["--um-85k", "--package", "CABGA381", "--speed", "8"]
ECP5_DEVICE_NAME = "LFE5UM-85F-8BG381 (nextpnr-ecp5 --um-85k --package CABGA381 --speed 8)"
ECP5_DSPS = 156         # MULT18X18D on LFE5UM-85F (78 sysDSP slices x 2)
ECP5_LUTS = 83640       # LUT4s on LFE5UM-85F
UP5K_DSPS = 8           # SB_MAC16 on iCE40UP5K
UP5K_LUTS = 5280        # SB_LUT4 on iCE40UP5K
TARGET_MHZ = 150.0      # issue 5: 8x8 2:4 array on ECP5-85 (-8)
STRETCH_MHZ = 200.0     # issue 28: the same array, toward the block RAM's ceiling (make synth-bram-probe)
# issue 28: the largest array on the ECP5-85, the pair-mode 2:4 core (2 MULT18X18D per PE): 9x8 = 144 of
# the 156 MULT18X18D (the widest in whole rows of 8 columns)
ECP5_LARGEST = (9, 8)
# Lattice Nexus (issue 28): the largest device of nextpnr-nexus's chip database (LIFCL-17, LIFCL-40 and
# LFD2NX-40, the Certus-NX part on the same die); speed grade 9 is the fastest of 7/8/9
NEXUS_DEVICE = "LIFCL-40-9BG400C"
NEXUS_DEVICE_NAME = "CrossLink-NX LIFCL-40-9BG400C (nextpnr-nexus --device LIFCL-40-9BG400C)"
NEXUS_MULT9 = 112       # MULT9_CORE on LIFCL-40 (56 MULT18 = 112 9x9 multipliers; an 8x8 product uses one)
NEXUS_COMB = 32256      # OXIDE_COMB (LUT4 positions) on LIFCL-40

def venv_tool(name):
    """A tool of the venv that scripts/deps.sh --synth installs ($S24_VENV, else ~/.cache/sparse24/venv)."""
    return os.path.join(os.environ.get("S24_VENV", os.path.expanduser("~/.cache/sparse24/venv")), "bin", name)


def tool_cmd(arg, env_name):
    """A tool's command line: the environment variable env_name if set, else arg, split like a shell."""
    return shlex.split(os.environ.get(env_name, arg))


def script_main(main):
    """Exit with main()'s status; a reader that closes the pipe early (| head) is not an error."""
    try:
        sys.exit(main())
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)


YOSYS_TIMEOUT = 3600    # seconds per Yosys run
PNR_CPU = 3600          # CPU seconds per nextpnr run (RLIMIT_CPU): a seed that needs more did not route;
                        # CPU time, not wall time, so the verdict does not depend on the load of the machine
PNR_TIMEOUT = 3 * PNR_CPU   # wall-clock seconds per nextpnr run: only a backstop



class FlowError(Exception):
    """A tool failed or produced something unexpected; the message names the run and the log."""
