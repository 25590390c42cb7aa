# Self-checking RV32IMC functions for the instruction-set CPU's tests (tests/models/riscv_hart_test.cpp).
# Each function's comment gives what it returns and its instructions by timing class, which the test turns
# into exact cycles under a profile. The assembler compresses what it can (-march=rv32imc): a compressed
# instruction has the class of its expansion.
  .text
  .option norelax

# arith(x, y): every ALU, shift, multiply and divide class once or more.
# alu 5, shift 2, mul 2, div 2, jalr 1
  .globl arith
arith:
  add   t0, a0, a1
  slli  t0, t0, 3
  mul   t1, a0, a1
  xor   t0, t0, t1
  divu  t2, a0, a1
  add   t0, t0, t2
  remu  t3, a0, a1
  sub   t0, t0, t3
  sra   t4, t0, a1
  mulh  t5, a0, a0
  add   a0, t4, t5
  ret

# widths(p): stores 0x12345678 as a word at p, its low half at p+4 and its low byte at p+6, loads them back
# with every width and returns a checksum (the test computes it from the same loads).
# alu 2 (li) + 5, store 3, load 5, jalr 1
  .globl widths
widths:
  li    t0, 0x12345678
  sw    t0, 0(a0)
  sh    t0, 4(a0)
  sb    t0, 6(a0)
  lw    t1, 0(a0)
  lh    t2, 2(a0)
  lhu   t3, 4(a0)
  lb    t4, 3(a0)
  lbu   t5, 6(a0)
  add   a0, t1, t2
  xor   a0, a0, t3
  add   a0, a0, t4
  sub   a0, a0, t5
  c.addi a0, 1
  ret

# sum(n), n >= 1: 1 + 2 + ... + n by a loop and a call.
# alu 2n + 4, branch taken n - 1, not taken 1, jal 1, jalr 2
  .globl sum
sum:
  mv    t6, ra
  li    t0, 0
1:
  add   t0, t0, a0
  addi  a0, a0, -1
  bnez  a0, 1b
  mv    a0, t0
  jal   ra, plus_zero
  mv    ra, t6
  ret
plus_zero:
  ret

# device(p): a word stored to p and loaded back (p outside the local memory: two bus transactions), plus one.
# store 1, load 1, alu 1, jalr 1
  .globl device
device:
  sw    a0, 0(a0)
  lw    a0, 0(a0)
  addi  a0, a0, 1
  ret

# extension(c, d, l, r, out): one DES pass on the CPU's desrnd unit (two rounds an instruction): the
# extension registers C, D, L, R written, eight desrnd (encryption, IP on the first, FP on the last), L and R
# read back and stored at out and out + 4.
# alu 4 (xwr) + 2 (xrd), extension 8, store 2, jalr 1
  .globl extension
extension:
  .insn i 0x0b, 1, x0, a0, 0
  .insn i 0x0b, 1, x0, a1, 1
  .insn i 0x0b, 1, x0, a2, 2
  .insn i 0x0b, 1, x0, a3, 3
  .insn i 0x0b, 0, x0, x0, 0x20
  .insn i 0x0b, 0, x0, x0, 0x04
  .insn i 0x0b, 0, x0, x0, 0x08
  .insn i 0x0b, 0, x0, x0, 0x0c
  .insn i 0x0b, 0, x0, x0, 0x10
  .insn i 0x0b, 0, x0, x0, 0x14
  .insn i 0x0b, 0, x0, x0, 0x18
  .insn i 0x0b, 0, x0, x0, 0x5c
  .insn i 0x0b, 2, t0, x0, 2
  .insn i 0x0b, 2, t1, x0, 3
  sw    t0, 0(a4)
  sw    t1, 4(a4)
  ret

# What must stop the hart with an error.
  .globl unknown_instruction
unknown_instruction:
  .word 0x00000053          # fadd.s ft0, ft0, ft0: F is not part of RV32IMC
  ret
  .globl environment_call
environment_call:
  ecall
  ret
  .globl load_nowhere
load_nowhere:
  lw    a0, 0(a0)           # a0: an address no device answers
  ret
  .globl jump_away
jump_away:
  jr    a0                  # a0: outside the local memory
  .globl forever
forever:
  j     forever
  .globl bad_extension_operand
bad_extension_operand:
  .insn i 0x0b, 0, x0, x0, 0x80   # a reserved bit of the desrnd operand
  ret
