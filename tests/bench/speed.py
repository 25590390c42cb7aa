#!/usr/bin/env python3
"""The wall-clock benchmarks of README "Speed", side by side with their targets. Prints figures; asserts
nothing (speed is not a unit test: this machine is shared). Standard library only.

  tests/bench/speed.py [--build DIR] [--requests N] [--points N] [CASE...]

Cases (all by default):
  cached     build/tests/bench_cached on 4 KiB and on 16-byte blocks: cipher blocks/s, kernel waits per block
  crossover  build/tests/bench_crossover: the reference crossover table, beside the kernel rate
  million    `rsoc run` of the reference workload with 16-byte AES and 8-byte DES blocks (one cipher block a
             block), N requests (default 1,000,000) split between its two applications: wall time, requests/s
             and peak resident memory (of that process alone)
  reproduce  `rsoc reproduce --jobs 2`: wall time
  sweep      what a sweep adds per point: `rsoc sweep` of N points (default 40, one job) of smoke_aes over its
             seed, against N separate `rsoc run`s of the same points
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd, out=subprocess.DEVNULL):
    """Runs cmd; returns (wall seconds, peak resident MiB of that process). Fails loudly on a non-zero exit."""
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: a chatty child cannot block on it
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak memory
        wall = time.monotonic() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        if code != 0:
            err.seek(0)
            sys.exit(f"speed: {' '.join(cmd)} exited {code}:\n{err.read().decode(errors='replace')}")
    return wall, usage.ru_maxrss / 1024.0


def case_cached(args, tmp):
    bench = os.path.join(args.build, "tests", "bench_cached")
    for label, cmd in (("4 KiB blocks (the reference)", [bench]),
                       ("16-byte blocks (smoke_aes)", [bench, os.path.join(ROOT, "scenarios", "smoke_aes.json"),
                                                       "aes128", "4000", "64"])):
        print(f"cached path, {label}:", flush=True)
        subprocess.run(cmd, check=True, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    print("target: >= 3 M cipher blocks/s, <= 2 kernel waits per cipher block")


def case_crossover(args, tmp):
    print("reference crossover table:", flush=True)
    subprocess.run([os.path.join(args.build, "tests", "bench_crossover")], check=True,
                   env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    print("target: half the wall time of the table before issue 16 (7.04-7.11 s)")


def case_million(args, tmp):
    n = args.requests
    out = os.path.join(tmp, "million")
    cmd = [args.rsoc, "run", os.path.join(ROOT, "scenarios", "os_aes_des.json"), "-q", "--out", out,
           "--set", 'runtime.unit_bytes={"aes128":16,"des":8}',
           "--set", f"workload.apps.0.requests={n // 2}", "--set", f"workload.apps.1.requests={n - n // 2}"]
    wall, rss = run(cmd)
    blocks = requests = 0
    with open(os.path.join(out, "summary.csv"), newline="") as f:
        for row in csv.DictReader(f):
            blocks += int(row["blocks"])
            requests += int(row["count"])
    print(f"{requests:,} requests of the reference workload (16-byte AES, 8-byte DES blocks): {wall:.1f} s, "
          f"{requests / wall:,.0f} requests/s, {blocks / wall / 1e6:.2f} M cipher blocks/s, "
          f"peak memory {rss:.1f} MiB")
    print("target: 1,000,000 requests under 60 s on one core, under 64 MB")
    shutil.rmtree(out, ignore_errors=True)


def case_reproduce(args, tmp):
    out = os.path.join(tmp, "reproduce")
    wall, _ = run([args.rsoc, "reproduce", "--jobs", "2", "-q", "--out", out])
    print(f"rsoc reproduce --jobs 2: {wall:.1f} s (target: under 20 s on 2 cores)")
    shutil.rmtree(out, ignore_errors=True)


def case_sweep(args, tmp):
    n = args.points
    scenario = os.path.join(ROOT, "scenarios", "smoke_aes.json")
    alone = 0.0
    for seed in range(1, n + 1):
        out = os.path.join(tmp, "alone")
        wall, _ = run([args.rsoc, "run", scenario, "-q", "--seed", str(seed), "--out", out])
        alone += wall
        shutil.rmtree(out, ignore_errors=True)
    out = os.path.join(tmp, "sweep")
    wall, _ = run([args.rsoc, "sweep", scenario, "-q", "--param", f"seed=1:{n}:1", "--jobs", "1",
                   "--out", out])
    per_point = (wall - alone) / n * 1e3
    print(f"sweep of {n} points: {wall:.2f} s; the same points as separate runs: {alone:.2f} s; "
          f"the sweep adds {per_point:.1f} ms per point (target: at most 10 ms)")
    shutil.rmtree(out, ignore_errors=True)


CASES = {"cached": case_cached, "crossover": case_crossover, "million": case_million,
         "reproduce": case_reproduce, "sweep": case_sweep}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--requests", type=int, default=1_000_000)
    p.add_argument("--points", type=int, default=40)
    p.add_argument("cases", nargs="*", choices=[[]] + list(CASES), default=[])
    args = p.parse_args()
    if args.requests < 2 or args.points < 1:
        p.error("--requests needs at least 2, --points at least 1")
    args.rsoc = os.path.join(args.build, "tools", "rsoc")
    if not os.access(args.rsoc, os.X_OK):
        p.error(f"no rsoc at {args.rsoc}: build first (tools/setup.sh)")
    with tempfile.TemporaryDirectory(prefix="rsoc-speed-") as tmp:
        for name in args.cases or list(CASES):
            CASES[name](args, tmp)
            print(flush=True)


if __name__ == "__main__":
    main()
