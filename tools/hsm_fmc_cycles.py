#!/usr/bin/env python3
"""ARM cycles of the HSM firmware's FMC accesses, from the code as it was built (scenarios/hsm_rsa2048.md).

The Cryptech Alpha's firmware of May 2018 (stm32 9c60306, libhal 99f01e9) reached the FPGA through
hal_io_read/hal_io_write -> fmc_read_32/fmc_write_32 -> _fmc_nwait_idle -> HAL_GPIO_ReadPin, compiled with
-Og and not inlined across files. This script transcribes those few functions (each with its file and line),
compiles each in its own translation unit with Debian's arm-none-eabi-gcc at the firmware's flags, runs the
paths on an emulated Cortex-M4 (Unicorn, python3-unicorn) to list the instructions they execute, and prices
each with the Cortex-M4 Technical Reference Manual's cycle counts (ARM DDI 0439B, table 3-1):

  data processing, MUL, MLA, IT, NOP ........ 1
  LDR/STR (any width) ....................... 2, or 1 when it follows another single load or store
  LDM/STM/PUSH/POP of N registers ........... 1 + N (+ P when it loads PC)
  B, BL, BX, BLX, taken CBZ/CBNZ/B<cond> .... 1 + P        not-taken branch ....... 1
  P, the pipeline refill ..................... --refill (1 to 3; 2 by default)

Instructions come from flash with 5 wait states at 180 MHz (system_stm32f4xx.c:575 FLASH_LATENCY_5) through
the ART accelerator with its instruction cache and prefetch on (stm32f4xx_hal_conf.h:150-152): paths this
short run from the cache, so no wait state is charged unless --flash-miss-cycles charges every taken branch
or call a miss (the pessimistic end).

Output: the CPU cycles the scenario takes as workload.hsm / platform.buses.fmc inputs, and how they were
counted. `--json` prints them for tests/platform/hsm_fmc_cycles_test.py.

  /usr/bin/python3 tools/hsm_fmc_cycles.py [--refill 2] [--flash-miss-cycles 0] [--json]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CFLAGS = ["-Og", "-mcpu=cortex-m4", "-mthumb", "-mlittle-endian", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16",
          "-std=c99", "-ffunction-sections", "-fdata-sections", "-ffreestanding", "-w"]  # stm32 Makefile:112-121

COMMON = r"""
#include <stdint.h>
#include <stddef.h>
typedef enum { HAL_OKAY = 0, HAL_ERROR_IO_TIMEOUT = 9, HAL_ERROR_IO_BAD_COUNT = 10,
               HAL_ERROR_CORE_NOT_FOUND = 11, HAL_ERROR_BAD_ARGUMENTS = 1, HAL_ERROR_IMPOSSIBLE = 2 } hal_error_t;
typedef long hal_addr_t;                                           /* libhal hal.h:191 (off_t) */
typedef struct { char name[8]; char version[4]; hal_addr_t base; } hal_core_info_t;
typedef struct hal_core hal_core_t;
hal_error_t hal_io_write(const hal_core_t *core, hal_addr_t offset, const uint8_t *buf, size_t len);
hal_error_t hal_io_read(const hal_core_t *core, hal_addr_t offset, uint8_t *buf, size_t len);
hal_error_t hal_io_wait(const hal_core_t *core, const uint8_t status, int *count);
hal_addr_t hal_core_base(const hal_core_t *core);
void hal_task_yield(void);
"""

SOURCES = {
    # stm32 libraries/mbed/.../stm32f4xx_hal_gpio.c:395-412 (assert_param off: stm32f4xx_hal_conf.h:159)
    "gpio.c": r"""
#include <stdint.h>
typedef struct { volatile uint32_t MODER, OTYPER, OSPEEDR, PUPDR, IDR, ODR, BSRR, LCKR, AFR[2]; } GPIO_TypeDef;
typedef enum { GPIO_PIN_RESET = 0, GPIO_PIN_SET } GPIO_PinState;
GPIO_PinState HAL_GPIO_ReadPin(GPIO_TypeDef *GPIOx, uint16_t GPIO_Pin)
{
  GPIO_PinState bitstatus;
  if ((GPIOx->IDR & GPIO_Pin) != (uint32_t)GPIO_PIN_RESET) bitstatus = GPIO_PIN_SET;
  else bitstatus = GPIO_PIN_RESET;
  return bitstatus;
}
""",
    # stm32 stm-fmc.c:169-223 and stm-fmc.h:40-47
    "fmc.c": r"""
#include <stdint.h>
typedef struct { volatile uint32_t MODER, OTYPER, OSPEEDR, PUPDR, IDR, ODR, BSRR, LCKR, AFR[2]; } GPIO_TypeDef;
typedef enum { GPIO_PIN_RESET = 0, GPIO_PIN_SET } GPIO_PinState;
typedef enum { HAL_OK = 0, HAL_ERROR = 1 } HAL_StatusTypeDef;
GPIO_PinState HAL_GPIO_ReadPin(GPIO_TypeDef *GPIOx, uint16_t GPIO_Pin);
#define FMC_FPGA_BASE_ADDR 0x60000000
#define FMC_FPGA_ADDR_MASK 0x03FFFFFC
#define FMC_FPGA_NWAIT_MAX_POLL_TICKS 10
#define GPIOD ((GPIO_TypeDef *)0x40020C00)
static HAL_StatusTypeDef _fmc_nwait_idle(void)
{
  int cnt;
  for (cnt = 0; cnt < FMC_FPGA_NWAIT_MAX_POLL_TICKS; cnt++)
    if (HAL_GPIO_ReadPin(GPIOD, 0x0040) == GPIO_PIN_SET) return HAL_OK;
  return HAL_ERROR;
}
HAL_StatusTypeDef fmc_write_32(uint32_t addr, uint32_t *data)
{
  uint32_t *ptr = (uint32_t *)(FMC_FPGA_BASE_ADDR + (addr & FMC_FPGA_ADDR_MASK));
  *ptr = *data;
  return _fmc_nwait_idle();
}
HAL_StatusTypeDef fmc_read_32(uint32_t addr, uint32_t *data)
{
  uint32_t *ptr = (uint32_t *)(FMC_FPGA_BASE_ADDR + (addr & FMC_FPGA_ADDR_MASK));
  HAL_StatusTypeDef status;
  *data = *ptr;
  status = _fmc_nwait_idle();
  if (status != HAL_OK) return status;
  *data = *ptr;
  status = _fmc_nwait_idle();
  return status;
}
""",
    # libhal core.c:305-308 and the struct of core.c:57-62
    "core.c": COMMON + r"""
struct hal_core { hal_core_info_t info; uint32_t busy; uint32_t lru; struct hal_core *next; };
hal_addr_t hal_core_base(const hal_core_t *core) { return core == NULL ? 0 : core->info.base; }
""",
    # libhal hal_io_fmc.c:58-148 with hal_internal.h:66-82 (htonl in C shifts, C99 inline)
    "hal_io_fmc.c": COMMON + r"""
typedef enum { HAL_OK_ = 0 } HAL_StatusTypeDef;
HAL_StatusTypeDef fmc_write_32(uint32_t addr, uint32_t *data);
HAL_StatusTypeDef fmc_read_32(uint32_t addr, uint32_t *data);
void fmc_init(void);
#ifndef HARDWARE_SWAP
inline uint32_t htonl(uint32_t w)
{
  return ((w & 0x000000ff) << 24) + ((w & 0x0000ff00) << 8) + ((w & 0x00ff0000) >> 8) + ((w & 0xff000000) >> 24);
}
#else
#define htonl(x) (x)  /* hal_internal.h:79, the big-endian branch: what swapping in hardware would leave */
#endif
#define ntohl htonl
static int inited = 0;
static inline hal_error_t init(void) { if (!inited) { fmc_init(); inited = 1; } return HAL_OKAY; }
static inline hal_addr_t fmc_offset(hal_addr_t offset) { return offset << 2; }
hal_error_t hal_io_write(const hal_core_t *core, hal_addr_t offset, const uint8_t *buf, size_t len)
{
  hal_error_t err;
  if (core == NULL) return HAL_ERROR_CORE_NOT_FOUND;
  if (len % 4 != 0) return HAL_ERROR_IO_BAD_COUNT;
  if ((err = init()) != HAL_OKAY) return err;
  offset = fmc_offset(offset + hal_core_base(core));
  for (; len > 0; offset += 4, buf += 4, len -= 4) {
    uint32_t val;
    val = htonl(*(uint32_t *)buf);
    fmc_write_32(offset, &val);
  }
  return HAL_OKAY;
}
hal_error_t hal_io_read(const hal_core_t *core, hal_addr_t offset, uint8_t *buf, size_t len)
{
  uint8_t *rbuf = buf;
  int rlen = len;
  hal_error_t err;
  if (core == NULL) return HAL_ERROR_CORE_NOT_FOUND;
  if (len % 4 != 0) return HAL_ERROR_IO_BAD_COUNT;
  if ((err = init()) != HAL_OKAY) return err;
  offset = fmc_offset(offset + hal_core_base(core));
  for (; rlen > 0; offset += 4, rbuf += 4, rlen -= 4) {
    uint32_t val;
    fmc_read_32(offset, &val);
    *(uint32_t *)rbuf = ntohl(val);
  }
  return HAL_OKAY;
}
""",
    # the external definition of the C99 inline htonl, in case a call is not inlined
    "htonl.c": r"""
#include <stdint.h>
uint32_t htonl(uint32_t w)
{
  return ((w & 0x000000ff) << 24) + ((w & 0x0000ff00) << 8) + ((w & 0x00ff0000) >> 8) + ((w & 0xff000000) >> 24);
}
""",
    # libhal hal_io.c:46-106
    "hal_io.c": COMMON + r"""
#define HAL_IO_TIMEOUT 100000000
#define ADDR_STATUS 0x09
static inline hal_error_t test_status(const hal_core_t *core, const uint8_t status, int *done)
{
  if (done == NULL) return HAL_ERROR_IMPOSSIBLE;
  if (*done || core == NULL) return HAL_OKAY;
  uint8_t buf[4];
  const hal_error_t err = hal_io_read(core, ADDR_STATUS, buf, sizeof(buf));
  if (err == HAL_OKAY) *done = (buf[3] & status) != 0;
  return err;
}
hal_error_t hal_io_wait2(const hal_core_t *core1, const hal_core_t *core2, const uint8_t status, int *count)
{
  int done1 = 0, done2 = 0;
  hal_error_t err;
  if (core1 == NULL) return HAL_ERROR_BAD_ARGUMENTS;
  if (core2 == NULL) done2 = 1;
  if (count && *count == -1) *count = HAL_IO_TIMEOUT;
  for (int i = 1; ; ++i) {
    if (count && (*count > 0) && (i >= *count)) return HAL_ERROR_IO_TIMEOUT;
    hal_task_yield();
    if ((err = test_status(core1, status, &done1)) != HAL_OKAY ||
        (err = test_status(core2, status, &done2)) != HAL_OKAY)
      return err;
    if (done1 && done2) { if (count) *count = i; return HAL_OKAY; }
  }
}
hal_error_t hal_io_wait(const hal_core_t *core, const uint8_t status, int *count)
{
  return hal_io_wait2(core, NULL, status, count);
}
""",
    # libhal aes_keywrap.c:130-145 do_block and hal_internal.h:101-111 (hal_io_next, hal_io_wait_ready); the AES
    # core's register numbers (aes core: BLOCK0 0x20, BLOCK2 0x22, RESULT0 0x30, RESULT2 0x32, CTRL 0x08)
    "aes_keywrap.c": COMMON + r"""
#define ADDR_CTRL 0x08
#define CTRL_NEXT 2
#define STATUS_READY 1
static inline hal_error_t hal_io_next(const hal_core_t *core)
{
  const uint8_t buf[4] = { 0, 0, 0, CTRL_NEXT };
  return hal_io_write(core, ADDR_CTRL, buf, sizeof(buf));
}
static inline hal_error_t hal_io_wait_ready(const hal_core_t *core)
{
  int limit = -1;
  return hal_io_wait(core, STATUS_READY, &limit);
}
hal_error_t do_block(const hal_core_t *core, uint8_t *b1, uint8_t *b2)
{
  hal_error_t err;
  if ((err = hal_io_write(core, 0x20, b1, 8)) != HAL_OKAY ||
      (err = hal_io_write(core, 0x22, b2, 8)) != HAL_OKAY ||
      (err = hal_io_next(core)) != HAL_OKAY ||
      (err = hal_io_wait_ready(core)) != HAL_OKAY ||
      (err = hal_io_read(core, 0x30, b1, 8)) != HAL_OKAY ||
      (err = hal_io_read(core, 0x32, b2, 8)) != HAL_OKAY)
    return err;
  return HAL_OKAY;
}
""",
    # stand-ins the paths call but this script does not price: the tasker's yield (the scenario's
    # scheduler.yield_cycles) and fmc_init (run once, at start-up)
    "stubs.c": r"""
void hal_task_yield(void) {}
void fmc_init(void) {}
""",
}

CODE, RAM, GPIOD, FMC, STOP = 0x08000000, 0x20000000, 0x40020C00, 0x60000000, 0x08100000
IDR = GPIOD + 0x10
NWAIT_PIN = 0x40


def build(work, defines=()):
    cc = shutil.which("arm-none-eabi-gcc")
    if not cc:
        sys.exit("hsm_fmc_cycles.py: arm-none-eabi-gcc not found (Debian package gcc-arm-none-eabi)")
    objs = []
    for name, text in SOURCES.items():
        src = os.path.join(work, name)
        with open(src, "w") as f:
            f.write(text)
        obj = src[:-2] + ".o"
        subprocess.run([cc, *CFLAGS, *defines, "-c", src, "-o", obj], check=True)
        objs.append(obj)
    elf = os.path.join(work, "paths.elf")
    subprocess.run([cc, *CFLAGS, "-nostdlib", "-nostartfiles", f"-Wl,-Ttext=0x{CODE:x}", "-Wl,-e,do_block",
                    "-Wl,--gc-sections", "-Wl,--undefined=hal_io_wait2", *objs, "-o", elf], check=True)
    return elf


def disassemble(elf):
    """{address: (mnemonic, operands, size in bytes)} and {symbol: address} of the linked paths."""
    out = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", elf], check=True,
                         capture_output=True, text=True).stdout
    listed, symbols = [], {}
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:", line)
        if m:
            symbols[m.group(2)] = int(m.group(1), 16)
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            listed.append((int(m.group(1), 16), m.group(2), m.group(3).split(";")[0].strip()))
    insns = {}
    for i, (a, mnemonic, operands) in enumerate(listed):
        size = listed[i + 1][0] - a if i + 1 < len(listed) else 4
        insns[a] = (mnemonic, operands, 2 if size == 2 else 4)
    return insns, symbols


def load_store(mn):
    return re.match(r"^(ldr|str)(b|h|sb|sh|d)?(\.w|\.n)?$", mn) is not None


def price(trace, insns, refill, miss):
    """Cycles of an executed instruction trace [(address, next address)] under the TRM's table."""
    cycles = 0
    previous_ls = False
    for addr, nxt in trace:
        mn, ops, size = insns[addr]
        base = mn.split(".")[0]
        taken = nxt is not None and nxt != addr + size
        c = 1
        if load_store(base):
            c = 1 if previous_ls else 2
            if "pc" in ops.split(",")[0]:
                c += refill
        elif base in ("push", "pop", "ldmia", "stmia", "ldm", "stmdb", "stm"):
            regs = _register_count(ops)
            c = 1 + regs
            if base in ("pop", "ldmia", "ldm") and "pc" in ops:
                c += refill + miss
        elif re.match(r"^(b|bl|bx|blx|cbz|cbnz)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)?$", base):
            c = 1 + refill + miss if taken else 1
        cycles += c
        previous_ls = load_store(base)
    return cycles


def _register_count(ops):
    m = re.search(r"\{([^}]*)\}", ops)
    n = 0
    for part in m.group(1).split(","):
        part = part.strip()
        r = re.match(r"r(\d+)-r(\d+)", part)
        n += int(r.group(2)) - int(r.group(1)) + 1 if r else 1
    return n


class Cpu:
    """The linked paths on an emulated Cortex-M4: calls a function and lists the instructions it runs."""

    def __init__(self, elf):
        try:
            import unicorn
            import unicorn.arm_const as arm
        except ImportError:
            sys.exit("hsm_fmc_cycles.py: the unicorn module is missing (Debian package python3-unicorn; run the "
                     "script with /usr/bin/python3)")
        self.arm = arm
        uc = unicorn.Uc(unicorn.UC_ARCH_ARM, unicorn.UC_MODE_THUMB | unicorn.UC_MODE_MCLASS)
        uc.mem_map(CODE, 0x200000)
        uc.mem_map(RAM, 0x20000)
        uc.mem_map(GPIOD & ~0xFFF, 0x1000)
        uc.mem_map(FMC, 0x100000)
        with open(elf, "rb") as f:
            self._load(uc, f.read())
        uc.mem_write(STOP, b"\x00\xbe")  # bkpt: where every call returns to
        self.uc = uc
        self.nwait_busy_polls = 0  # the next access's polls that see NWAIT busy
        self._busy_left = 0
        self.trace = []
        uc.hook_add(unicorn.UC_HOOK_CODE, self._on_code)
        uc.hook_add(unicorn.UC_HOOK_MEM_READ, self._on_read, begin=IDR, end=IDR + 3)
        uc.hook_add(unicorn.UC_HOOK_MEM_WRITE | unicorn.UC_HOOK_MEM_READ, self._on_fmc, begin=FMC,
                    end=FMC + 0xFFFFF)

    @staticmethod
    def _load(uc, image):
        import struct
        phoff, = struct.unpack_from("<I", image, 28)
        phentsize, phnum = struct.unpack_from("<HH", image, 42)
        for i in range(phnum):
            p_type, offset, vaddr, _, filesz, _, _, _ = struct.unpack_from("<8I", image, phoff + i * phentsize)
            if p_type == 1 and filesz:
                uc.mem_write(vaddr, image[offset:offset + filesz])

    def _on_code(self, uc, address, size, _):
        if self.trace:
            self.trace[-1][1] = address
        if address != STOP:
            self.trace.append([address, None])

    def _on_fmc(self, uc, access, address, size, value, _):
        self._busy_left = self.nwait_busy_polls

    def _on_read(self, uc, access, address, size, value, _):
        busy = self._busy_left > 0
        if busy:
            self._busy_left -= 1
        uc.mem_write(IDR, (0 if busy else NWAIT_PIN).to_bytes(4, "little"))

    def call(self, address, *args):
        arm = self.arm
        uc = self.uc
        for reg, v in zip((arm.UC_ARM_REG_R0, arm.UC_ARM_REG_R1, arm.UC_ARM_REG_R2, arm.UC_ARM_REG_R3), args):
            uc.reg_write(reg, v)
        uc.reg_write(arm.UC_ARM_REG_SP, RAM + 0x1F000)
        uc.reg_write(arm.UC_ARM_REG_LR, STOP | 1)
        self.trace = []
        uc.emu_start(address | 1, STOP, count=100000)
        if not self.trace or uc.reg_read(arm.UC_ARM_REG_PC) != STOP:
            raise RuntimeError(f"the call at 0x{address:x} did not return")
        self.trace[-1][1] = STOP
        return [(a, n) for a, n in self.trace]


def measure(refill, miss):
    work = tempfile.mkdtemp(prefix="hsm_fmc_")
    try:
        r = run_paths(build(work), refill, miss)
        hw = run_paths(build(work, ["-DHARDWARE_SWAP"]), refill, miss)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return report(r, hw, refill, miss)


def run_paths(elf, refill, miss):
    """[instructions, cycles] of each path of the linked firmware functions."""
    insns, sym = disassemble(elf)
    cpu = Cpu(elf)
    core = RAM + 0x100
    cpu.uc.mem_write(core + 12, (0x10000).to_bytes(4, "little"))  # info.base: some core's base
    buf = RAM + 0x200
    status = FMC + (0x10009 << 2)  # the core's STATUS register: ready, whichever byte order is read
    cpu.uc.mem_write(status, (0x01000001).to_bytes(4, "little"))

    def run(name, *args):
        cpu.nwait_busy_polls = 0
        t = cpu.call(sym[name], *args)
        return len(t), price(t, insns, refill, miss)

    yield_stub = run("hal_task_yield")
    write = {n: run("hal_io_write", core, 0x20, buf, 4 * n) for n in (1, 2, 4)}
    read = {n: run("hal_io_read", core, 0x30, buf, 4 * n) for n in (1, 2, 4)}
    wait = run("hal_io_wait", core, 1, 0)
    block = run("do_block", core, buf, buf + 8)
    # one more poll that finds NWAIT busy: the write path with its first poll busy, against none
    cpu.nwait_busy_polls = 1
    t_busy = cpu.call(sym["fmc_write_32"], 0x40, buf)
    cpu.nwait_busy_polls = 0
    t_idle = cpu.call(sym["fmc_write_32"], 0x40, buf)
    extra_poll = (len(t_busy) - len(t_idle),
                  price(t_busy, insns, refill, miss) - price(t_idle, insns, refill, miss))
    fmc_read = run("fmc_read_32", 0x40, buf)
    fmc_write = run("fmc_write_32", 0x40, buf)
    return dict(yield_stub=yield_stub, write=write, read=read, wait=wait, block=block, extra_poll=extra_poll,
                fmc_read=fmc_read, fmc_write=fmc_write)


def report(r, hw, refill, miss):
    yield_stub, write, read, wait, block, extra_poll, fmc_read, fmc_write = (
        r[k] for k in ("yield_stub", "write", "read", "wait", "block", "extra_poll", "fmc_read", "fmc_write"))

    def per_word(d):  # the loop's cost per word, from 2 and 4 words
        return ((d[4][0] - d[2][0]) // 2, (d[4][1] - d[2][1]) // 2)

    w_word, r_word = per_word(write), per_word(read)
    poll = extra_poll  # one GPIO poll iteration: the call of HAL_GPIO_ReadPin and the loop
    # The model charges per word: the bus's software cycles (below), plus poll_cycles per NWAIT poll (one per
    # write, two per read: the double read), plus the bus time.
    swap = per_word(write)[1] - per_word(hw["write"])[1]  # htonl in C shifts against none
    if swap != per_word(read)[1] - per_word(hw["read"])[1]:
        sys.exit("hsm_fmc_cycles.py: the byte swap costs a read and a write differently with this compiler; "
                 "the model takes one byteswap_cycles for both")
    software_write = w_word[1] - poll[1] - swap
    software_read = r_word[1] - 2 * poll[1] - swap
    call_write = write[1][1] - w_word[1]
    call_read = read[1][1] - r_word[1]
    status_round = wait[1] - yield_stub[1]  # one round of hal_io_wait, the yield not counted
    poll_loop = status_round - r_word[1]    # around the status read's word
    # do_block beyond its 5 words out and 5 in (4 data words and STATUS) and the status round's loop
    per_block = block[1] - yield_stub[1] - 5 * w_word[1] - 5 * r_word[1] - poll_loop
    return {
        "refill_cycles": refill,
        "flash_miss_cycles": miss,
        "compiler": subprocess.run(["arm-none-eabi-gcc", "-dumpfullversion"], capture_output=True,
                                   text=True).stdout.strip(),
        "paths": {  # [instructions, cycles]
            "HAL_GPIO_ReadPin poll iteration": list(poll),
            "fmc_write_32 (one poll)": list(fmc_write),
            "fmc_read_32 (one poll per read)": list(fmc_read),
            "hal_io_write per word": list(w_word),
            "hal_io_write per call": [write[1][0] - w_word[0], call_write],
            "hal_io_read per word": list(r_word),
            "hal_io_read per call": [read[1][0] - r_word[0], call_read],
            "hal_io_wait one round (no yield)": [wait[0] - yield_stub[0], status_round],
            "do_block (status ready at once, no yield)": [block[0] - yield_stub[0], block[1] - yield_stub[1]],
        },
        "inputs": {
            "platform.buses.fmc.fmc.poll_cycles": poll[1],
            "platform.buses.fmc.fmc.byteswap_cycles": swap,
            "platform.buses.fmc.fmc.write_software_cycles": software_write,
            "platform.buses.fmc.fmc.read_software_cycles": software_read,
            "runtime.driver.poll_loop_cycles": poll_loop,
            "do_block beyond its words and status round (workload.hsm.cycles.unwrap_per_block without "
            "the unwrap loop around it)": per_block,
        },
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--refill", type=int, default=2, help="pipeline refill P of a taken branch (1-3)")
    ap.add_argument("--flash-miss-cycles", type=int, default=0,
                    help="wait states charged on every taken branch, call and return (0: ART cache hits)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not 1 <= a.refill <= 3:
        ap.error("--refill: the Cortex-M4's pipeline refill is 1 to 3 cycles")
    if not 0 <= a.flash_miss_cycles <= 5:
        ap.error("--flash-miss-cycles: 0 to 5 (the flash's wait states at 180 MHz)")
    r = measure(a.refill, a.flash_miss_cycles)
    if a.json:
        print(json.dumps(r, indent=1))
        return
    print(f"arm-none-eabi-gcc {r['compiler']}, -Og, Cortex-M4; P = {a.refill}, "
          f"{a.flash_miss_cycles} wait states per taken branch")
    print(f"{'path':46} {'instructions':>12} {'cycles':>8}")
    for k, (n, c) in r["paths"].items():
        print(f"{k:46} {n:12g} {c:8g}")
    print("\nscenario inputs (CPU cycles):")
    for k, v in r["inputs"].items():
        print(f"  {k} = {v:g}")


if __name__ == "__main__":
    main()
