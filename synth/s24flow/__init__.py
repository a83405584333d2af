# sparse24 synthesis flow, the modules behind synth/s24_synth.py.
