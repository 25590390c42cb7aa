#!/usr/bin/env python3
"""tools/doc_figures.py on a small tree: a doc, a stand-in for rsoc that prints a figure and writes a CSV, and
manifests. A drifted figure fails `check` with the doc's line and both texts; `update` writes it where it
stands (line breaks kept) and `check` then passes; broken manifests and failing runs are errors (exit 2). The
run cache: one run for one command, however many manifests and processes ask for it; a new run when the binary
or a scenario changes; failed runs not kept; `off` runs every time; old binaries' runs evicted."""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent.parent / "tools" / "doc_figures.py"
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def tool(root, *args, cache=None):
    env = dict(os.environ, RSOC_DOC_RUN_CACHE=str(cache or root / "cache"))
    done = subprocess.run([sys.executable, str(TOOL), *args, "--root", str(root), "--rsoc", str(root / "rsoc")],
                          capture_output=True, text=True, env=env)
    return done.returncode, done.stdout, done.stderr


def calls(root):
    """The stand-in's invocations so far."""
    path = root / "calls"
    return path.read_text().splitlines() if path.exists() else []


with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp)
    fake = root / "rsoc"
    # Prints "answer N" (N from the file `answer`), writes out/t.csv; "fail" exits 1.
    fake.write_text(textwrap.dedent("""\
        #!/bin/sh
        echo "$*" >> calls
        [ "$1" = fail ] && { echo "it broke" >&2; exit 1; }
        [ "$1" = slow ] && sleep 1
        if [ "$1" = speed ]; then  # a process's warm-up 0-500 ms, then 10 operations to 1,500 ms; one failed
          mkdir -p "$2" && { echo "app,functionality,ok,end_ms,latency_ms"; echo "p,f,true,500,500"
            for i in 1 2 3 4 5 6 7 8 9 10; do echo "p,f,true,$((500 + 100 * i)),100"; done
            echo "p,f,false,1600,100"; } > "$2/requests.csv"
          exit 0
        fi
        n=$(cat answer)
        echo "answer $n"
        mkdir -p "$2" && printf 'name,ms\\na,%s.25\\nb,7\\n' "$n" > "$2/t.csv"
        """))
    fake.chmod(0o755)
    (root / "answer").write_text("42\n")
    doc = root / "doc.md"
    doc.write_text("Intro.\n\nThe run gives an answer of 41\nblocks and a took 40.2 ms, which is fine.\n")
    manifest = root / "m.toml"
    manifest.write_text(textwrap.dedent("""\
        doc = "doc.md"
        [runs.r]
        command = "go {out}"
        [[figures]]
        run = "r"
        text = "an answer of {} blocks and a took {:.1f} ms, which"
        values = ["grep(r'answer (\\\\d+)')", "col('t.csv', 'ms', name='a')"]
        """))

    code, out, err = tool(root, "check", str(manifest))
    expect(code == 1, f"a drifted figure fails check: {code} {out} {err}")
    expect('doc.md:3: says "an answer of 41 blocks and a took 40.2 ms, which"; rsoc gives "an answer of 42 '
           'blocks and a took 42.2 ms, which"' in out, f"check names the line and both texts: {out}")

    code, out, err = tool(root, "update", str(manifest))
    expect(code == 0, f"update succeeds: {code} {err}")
    expect(doc.read_text() == "Intro.\n\nThe run gives an answer of 42\nblocks and a took 42.2 ms, which is fine.\n",
           f"update writes the figures where they stand, the line break kept: {doc.read_text()!r}")
    code, out, err = tool(root, "check", str(manifest))
    expect(code == 0 and out == "", f"after update, check passes: {code} {out} {err}")

    # A figure at the end of a sentence, a comprehension over a helper, another run through run().
    doc.write_text("It gives 40.2. Rows: 2 and a second run's 41.2 ms.\n")
    (root / "m2.toml").write_text(textwrap.dedent("""\
        doc = "doc.md"
        [runs.r]
        command = "go {out}"
        [runs.other]
        command = "go {out}"
        [[figures]]
        run = "r"
        text = "It gives {:.1f}. Rows: {} and a second run's {:.1f} ms."
        values = ["col('t.csv', 'ms', name='a')", "len([r for r in csv('t.csv')])",
                  "run('other').col('t.csv', 'ms', name='a') - 1"]
        """))
    code, out, err = tool(root, "update", str(root / "m2.toml"))
    expect(code == 0 and doc.read_text() == "It gives 42.2. Rows: 2 and a second run's 41.2 ms.\n",
           f"a number before a full stop is replaced whole: {code} {err} {doc.read_text()!r}")
    code, out, err = tool(root, "check", str(root / "m2.toml"))
    expect(code == 0, f"then it checks: {code} {out} {err}")
    doc.write_text("The run gives an answer of 42 blocks and a took 42.2 ms, which is fine.\n")

    # openssl speed's rate from requests.csv: the warm-up left out (10/s), or counted (11 in 1.5 s).
    doc.write_text("Measured 1.0/s, or 1.0/s with the warm-up.\n")
    (root / "m3.toml").write_text(textwrap.dedent("""\
        doc = "doc.md"
        [runs.s]
        command = "speed {out}"
        [[figures]]
        run = "s"
        text = "Measured {:.1f}/s, or {:.2f}/s with the warm-up."
        values = ["speed('f')", "speed('f', warmup=0)"]
        """))
    code, out, err = tool(root, "update", str(root / "m3.toml"))
    expect(code == 0 and doc.read_text() == "Measured 10.0/s, or 7.33/s with the warm-up.\n",
           f"speed() adds the rates as openssl speed does: {code} {err} {doc.read_text()!r}")

    # The words around the figure changed in the doc: the manifest is stale, an error, not a drift.
    doc.write_text("The run gives an answer of 42 blocks and a needed 42.2 ms, which is fine.\n")
    code, out, err = tool(root, "check", str(manifest))
    expect(code == 2 and "stand 0 times in doc.md, expected 1" in err, f"stale text: {code} {err}")

    # A run that fails, a field without a value, a text that begins with a field.
    for body, message in [
        ('doc = "doc.md"\n[runs.r]\ncommand = "fail"\n[[figures]]\nrun = "r"\ntext = "an answer of {} blocks"\n'
         'values = ["1"]\n', "`rsoc fail` exited 1, expected 0"),
        ('doc = "doc.md"\n[runs.r]\ncommand = "go {out}"\n[[figures]]\nrun = "r"\ntext = "answer of {} and {} ms"\n'
         'values = ["1"]\n', "fields and values do not fit"),
        ('doc = "doc.md"\n[runs.r]\ncommand = "go {out}"\n[[figures]]\nrun = "r"\ntext = "{} blocks"\n'
         'values = ["1"]\n', "begins and ends with words"),
        ('doc = "doc.md"\n[runs.r]\ncommand = "go {out}"\n[[figures]]\nrun = "q"\ntext = "a {} b"\n', "run 'q'"),
    ]:
        bad = root / "bad.toml"
        bad.write_text(body)
        code, out, err = tool(root, "check", str(bad))
        expect(code == 2 and message in err, f"{message}: {code} {err}")

    # The run cache. Two manifests with one command, checked one after the other: one run.
    (root / "calls").unlink()
    cache = root / "shared-cache"
    doc.write_text("The run gives an answer of 42 blocks and a took 42.2 ms, which is fine.\n")
    twin = root / "twin.toml"
    twin.write_text(manifest.read_text())
    for m in (manifest, twin, manifest):
        code, out, err = tool(root, "check", str(m), cache=cache)
        expect(code == 0, f"a kept run checks like a fresh one: {code} {out} {err}")
    expect(len(calls(root)) == 1, f"one run for one command: {calls(root)}")
    # A scenario changes, then the binary: the run runs again.
    (root / "scenarios").mkdir()
    (root / "scenarios" / "s.json").write_text("{}")
    tool(root, "check", str(manifest), cache=cache)
    expect(len(calls(root)) == 2, f"a new scenario, a new run: {calls(root)}")
    (root / "scenarios" / "s.json").write_text('{"a": 1}')
    tool(root, "check", str(manifest), cache=cache)
    expect(len(calls(root)) == 3, f"an edited scenario, a new run: {calls(root)}")
    fake.write_text(fake.read_text() + "# rebuilt\n")
    tool(root, "check", str(manifest), cache=cache)
    expect(len(calls(root)) == 4, f"a new binary, a new run: {calls(root)}")
    tool(root, "check", str(manifest), cache=cache)
    expect(len(calls(root)) == 4, f"then kept again: {calls(root)}")
    # The same tree elsewhere, each binary naming its own tree (as rsoc names where it finds the shipped
    # scenarios): the same runs.
    with tempfile.TemporaryDirectory() as other:
        elsewhere = Path(other) / "tree"
        shutil.copytree(root, elsewhere, ignore=shutil.ignore_patterns("*cache", "calls"))
        built = fake.read_text()
        for tree in (root, elsewhere):
            (tree / "rsoc").write_text(built + f"# built in {tree}\n")
        tool(root, "check", str(manifest), cache=cache)
        tool(elsewhere, "check", str(manifest), cache=cache)
        expect(len(calls(root)) == 5 and not calls(elsewhere),
               f"a binary that differs only by its tree's name keeps the runs: {calls(root)} {calls(elsewhere)}")
        fake.write_text(built)
    # A command with a word longer than a file's name can be (an override's JSON value) has its key too.
    long = root / "long.toml"
    long.write_text(manifest.read_text().replace('command = "go {out}"',
                                                 'command = "go {out} --set \'x=[' + "1," * 200 + '1]\'"'))
    code, out, err = tool(root, "check", str(long), cache=cache)
    expect(code == 0, f"a word too long to be a file's name: {code} {out} {err}")
    (root / "calls").write_text("\n".join(c for c in calls(root) if "--set" not in c) + "\n")
    # Off: every check runs.
    before = len(calls(root))
    tool(root, "check", str(manifest), cache="off")
    tool(root, "check", str(manifest), cache="off")
    expect(len(calls(root)) == before + 2, f"RSOC_DOC_RUN_CACHE=off runs every time: {calls(root)}")
    # A run that did not end as expected is not kept.
    failing = root / "failing.toml"
    failing.write_text('doc = "doc.md"\n[runs.r]\ncommand = "fail"\n[[figures]]\nrun = "r"\n'
                       'text = "an answer of {} blocks"\nvalues = ["1"]\n')
    for _ in range(2):
        code, out, err = tool(root, "check", str(failing), cache=cache)
        expect(code == 2 and "`rsoc fail` exited 1, expected 0" in err, f"a failed run is an error: {code} {err}")
    expect(calls(root).count("fail") == 2, f"a failed run is not kept: {calls(root)}")
    # Two processes at once that want one run: the second waits for the first's.
    slow = root / "slow.toml"
    slow.write_text(manifest.read_text().replace('command = "go {out}"', 'command = "slow {out}"'))
    env = dict(os.environ, RSOC_DOC_RUN_CACHE=str(cache))
    both = [subprocess.Popen([sys.executable, str(TOOL), "show", str(slow), "--root", str(root), "--rsoc",
                              str(root / "rsoc")], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(2)]
    shown = [p.communicate() for p in both]
    expect(all(p.returncode == 0 for p in both) and shown[0][0] == shown[1][0] != "",
           f"both processes show the run's figures: {shown}")
    expect(sum(c.startswith("slow") for c in calls(root)) == 1, f"one run for two processes: {calls(root)}")
    # The runs of all but the last three binaries used go, once unused for an hour.
    old = []
    for i in range(4):
        folder = cache / f"old{i}"
        folder.mkdir()
        os.utime(folder, (1e9 + i, 1e9 + i))
        old.append(folder)
    tool(root, "check", str(manifest), cache=cache)
    # (the three binaries above were used after every old one)
    kept = sorted(f.name for f in cache.iterdir())
    expect(len(kept) == 3 and not any(f.exists() for f in old),
           f"the three most recently used binaries' runs are kept: {kept}")

print(f"{len(failures)} failures" if failures else "ok")
sys.exit(1 if failures else 0)
