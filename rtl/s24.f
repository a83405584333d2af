rtl/s24_fifo.v
rtl/s24_cnt2.v
rtl/s24_skew.v
rtl/s24_meta_check.v
rtl/s24_pe.v
rtl/s24_core.v
rtl/s24_axil_slave.v
rtl/s24_top.v
