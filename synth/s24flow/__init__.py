# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow, the modules behind synth/s24_synth.py.
