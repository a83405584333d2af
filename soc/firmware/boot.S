/* sparse24 edge SoC: the boot stub in the 4 KiB ROM (reset vector 0). Runs LiteDRAM's SDRAM
 * initialisation sequence through the DFII registers in software control (boot_seq.h, generated
 * by soc/soc.py from the SoC), hands the SDRAM back to the controller and jumps to main RAM,
 * where the firmware was loaded (in the simulation by the harness; on a board a loader would put
 * it there). Registers only: nothing to use as a stack before the SDRAM works. */
#include "boot_seq.h"

  .section .text.boot, "ax"
  .global _boot
_boot:
  li t0, DFII_CONTROL_ADDR
  li t1, DFII_CONTROL_SW
  sw t1, 0(t0)
  la a0, boot_seq
1:
  lw a1, 0(a0)              /* address; 0xffffffff ends the table */
  li t1, -1
  beq a1, t1, 4f
  li t0, DFII_ADDRESS_ADDR
  sw a1, 0(t0)
  lw a2, 4(a0)              /* bank address */
  li t0, DFII_BADDRESS_ADDR
  sw a2, 0(t0)
  lw a3, 8(a0)              /* 0: control write, 1: command */
  lw a4, 12(a0)             /* value */
  bnez a3, 2f
  li t0, DFII_CONTROL_ADDR
  sw a4, 0(t0)
  j 3f
2:
  li t0, DFII_COMMAND_ADDR
  sw a4, 0(t0)
  li t0, DFII_COMMAND_ISSUE_ADDR
  li t1, 1
  sw t1, 0(t0)
3:
  lw a5, 16(a0)             /* delay: loop iterations, as LiteX's cdelay() */
5:
  beqz a5, 6f
  addi a5, a5, -1
  j 5b
6:
  addi a0, a0, 20
  j 1b
4:
  li t0, DFII_CONTROL_ADDR
  li t1, DFII_CONTROL_HW
  sw t1, 0(t0)
  li t0, MAIN_RAM_BOOT
  jr t0

  .balign 4
boot_seq:
  BOOT_SEQ
