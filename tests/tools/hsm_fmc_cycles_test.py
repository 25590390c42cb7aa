#!/usr/bin/env python3
"""tools/hsm_fmc_cycles.py: the paths it counts and the scenario inputs it gives, against the scenario.

The FMC inputs of scenarios/hsm_rsa2048.json are the script's output at its default pricing (the Cortex-M4's
pipeline refill of 2, ART cache hits): a scenario edited by hand, or a compiler that compiles the paths
differently, fails here with the figure that moved. The pricing itself is checked on fmc_write_32's listing,
counted by hand.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(ROOT, "tools", "hsm_fmc_cycles.py")


def run(*args):
    out = subprocess.run([sys.executable, SCRIPT, "--json", *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    failures = []

    def check(what, got, expected):
        if got != expected:
            failures.append(f"{what}: {got}, expected {expected}")

    base = run()
    with open(os.path.join(ROOT, "scenarios", "hsm_rsa2048.json")) as f:
        scenario = json.load(f)
    fmc = next(b for b in scenario["platform"]["buses"] if b["kind"] == "fmc")["fmc"]
    inputs = base["inputs"]
    for key in ("poll_cycles", "byteswap_cycles", "write_software_cycles", "read_software_cycles"):
        check(f"platform.buses.fmc.fmc.{key}", fmc[key], inputs[f"platform.buses.fmc.fmc.{key}"])
    check("runtime.driver.poll_loop_cycles", scenario["runtime"]["driver"]["poll_loop_cycles"],
          inputs["runtime.driver.poll_loop_cycles"])
    per_block = next(v for k, v in inputs.items() if k.startswith("do_block"))
    unwrap_loop = 60  # the keyunwrap loop around do_block, estimated (hsm_rsa2048.md)
    check("workload.hsm.cycles.unwrap_per_block", scenario["workload"]["hsm"]["cycles"]["unwrap_per_block"],
          per_block + unwrap_loop)

    # fmc_write_32 with one poll, by hand from its -Og listing, at P = 2:
    #   fmc_write_32      push {r3, lr} 3, bic 1, bic 1, add 1, ldr 2, str 1 (after a load), bl 3      = 12
    #   _fmc_nwait_idle   push {r4, lr} 3, movs 1, cmp 1, bgt not taken 1, movs 1, ldr 2, bl 3         = 12
    #   HAL_GPIO_ReadPin  ldr 2, tst 1, beq not taken 1, movs 1, bx lr 3                               =  8
    #   _fmc_nwait_idle   cmp 1, beq taken 3, movs 1, b 3, pop {r4, pc} 5                              = 13
    #   fmc_write_32      pop {r3, pc} 5                                                               =  5
    # 50 cycles in 25 instructions, 7 of them taken branches, calls or returns.
    check("fmc_write_32 (one poll)", base["paths"]["fmc_write_32 (one poll)"], [25, 50])
    # Each of the 7 one cycle cheaper at P = 1; each 5 cycles dearer with a flash miss of 5 wait states.
    check("fmc_write_32 at P = 1", run("--refill", "1")["paths"]["fmc_write_32 (one poll)"], [25, 43])
    check("fmc_write_32 with 5 wait states per miss",
          run("--flash-miss-cycles", "5")["paths"]["fmc_write_32 (one poll)"], [25, 85])
    # Swapping bytes in hardware leaves each word's software without the swap's instructions.
    check("byte swap", inputs["platform.buses.fmc.fmc.byteswap_cycles"] > 0, True)
    bad = subprocess.run([sys.executable, SCRIPT, "--refill", "7"], capture_output=True, text=True)
    check("--refill 7 refused", (bad.returncode, "1 to 3" in bad.stderr), (2, True))

    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("hsm_fmc_cycles: the scenario's FMC inputs are the script's; the pricing checks by hand")


if __name__ == "__main__":
    main()
