#!/usr/bin/env python3
"""Figures the docs quote from runs of rsoc, checked against real runs or written into the docs from them.

Each manifest (tests/docs/*.toml) names one doc, the rsoc commands whose results it quotes, and every figure
it quotes: the sentence or table row around it, as a Python format string whose fields are the figures, and
for each field an expression that computes it from the run's results.

    doc = "scenarios/microblaze_hwicap.md"

    [runs.run]                     # a run: its command line (without "rsoc"), {out} a fresh folder
    command = "run scenarios/microblaze_hwicap.json --out {out}"
    exit = 0                       # the exit code it must end with (default 0)

    [[figures]]
    run = "run"
    text = "busiest resource ({:.0f} %: the copy loop"
    values = ["100 * stat('cpu.mb.thread0', 'utilization')"]

Commands:
    tools/doc_figures.py check [--rsoc BIN] [--jobs N] MANIFEST...   # every figure as the doc quotes it?
    tools/doc_figures.py update [--rsoc BIN] [--jobs N] MANIFEST...  # write the figures the runs give
    tools/doc_figures.py show [--rsoc BIN] MANIFEST...               # each figure as the runs give it
    tests/docs/*.toml: the manifests; CTest runs `check` on each (Docs.Figures.<name>)

Runs are shared and kept (the run cache): a run is keyed by its command, the rsoc binary (less the names of
the tree's and the build's folders compiled into it), the software and libraries it loads and the files it can
read (every file under scenarios/, tests/data and tests/broken_scenarios
and each file its command names), and its results (output folder, stdout, stderr, exit code) are kept in
$RSOC_DOC_RUN_CACHE (default $XDG_CACHE_HOME/rsoc/doc-runs, else ~/.cache/rsoc/doc-runs; `off` turns it off).
Manifests that run the same command, at once or one after another, share one run (a lock per key: the second
waits for the first); a rebuilt rsoc or an edited scenario runs anew. Only runs that ended as their manifest
expects are kept; a new binary's runs displace the runs of all but the last few binaries.

`check` exits 1 naming every figure that drifted (the doc's line, what it says, what rsoc gives, and the
command), 2 when a manifest or a run is broken (a command that failed, an expression that raised, a text that
is nowhere in the doc). `update` replaces the figures in the doc where its text stands (whitespace, line
breaks included, may differ from the manifest's); the words around them must be found as they are.

The expressions see: `stdout`, `stderr` (the run's text), `out` (its output folder), `csv(name)` (the rows of
a CSV file of it, as dicts of strings), `row(name, **where)` (the one row whose columns equal `where`, values
compared as text), `col(name, column, **where)` (a column of that row, as a number), `stat(group, key)` (a
value of stats.json), `load(name)` (a JSON file of it), `grep(pattern, text=stdout)` (the first group, or the
match, of a regular expression in stdout or the text given, e.g. stderr), `table(header_word)` (stdout's
whitespace-separated table whose header line starts with that word: rows as dicts), `crossover(functionality,
kind="crossover", name="crossover_summary.csv")` (a crossover as rsoc prints it: its block count, or `> N` when
none was found up to N; kind `analytic_crossover` or `energy_crossover` for the others), `speed(functionality,
warmup=1)` (operations per second as `openssl speed -multi` adds them, from requests.csv: each application's
completed operations over its own window, its first `warmup` by issue left out, summed), `run(name)` (another run
of the manifest, its helpers as attributes: `run('base').col(...)`, for a figure that compares runs), and
Python's builtins. Every run of the manifest is run, once. A field's format spec is Python's (`{:,.0f}`,
`{:.1f}`); `{}` prints the value as str() does. Literal braces in the text are doubled.
"""

import argparse
import concurrent.futures
import csv as csv_module
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import string
import subprocess
import sys
import tempfile
import time
import tomllib
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repository
# The folders of the tree whose files a run may read (besides those its command names): part of a run's key.
INPUT_FOLDERS = ("scenarios", "tests/data", "tests/broken_scenarios")
KEPT_BINARIES = 3  # the run cache keeps the runs of this many rsoc binaries, the most recently used


class ManifestError(Exception):
    """A manifest, a run or an expression that is broken: not a drift."""


def execute(command, out, root, rsoc, timeout, name):
    """Runs `rsoc command` ({out} is `out`) in `root`; returns (stdout, stderr, exit code)."""
    args = [a.replace("{out}", str(out)) for a in shlex.split(command)]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1", COLUMNS="100")
    env.pop("RSOC_LOG", None)
    try:
        done = subprocess.run([rsoc, *args], cwd=root, env=env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ManifestError(f"runs.{name}: `rsoc {command}` ran past its timeout")
    return done.stdout, done.stderr, done.returncode


class RunCache:
    """Runs kept by key in a folder (module docstring): <folder>/<binary digest>/<run key>/ holds `out/`
    (the run's output folder), `command`, `stdout`, `stderr` and `code`; <run key>.lock serialises the processes that want
    the same run."""

    def __init__(self, folder, root, rsoc):
        self.root = root
        build = Path(rsoc).parent.parent
        self.binary = binary_digest(Path(rsoc), [root, build])[:24]
        self.folder = Path(folder) / self.binary
        # What the binary loads: its build's RV32 programs, the shared libraries the loader resolves.
        software = build / "software"
        self.loaded = digest_files(sorted(software.glob("*.elf")), software) + shared_libraries(rsoc)
        self.inputs = digest_files(sorted(f for d in INPUT_FOLDERS for f in (root / d).rglob("*") if f.is_file()),
                                   root)
        self.folder.mkdir(parents=True, exist_ok=True)
        os.utime(self.folder)  # its last use, for evict()
        self.evict()

    def key(self, command):
        named = [self.root / a for a in shlex.split(command) if "{out}" not in a and is_file(self.root / a)]
        text = json.dumps([command, self.loaded, self.inputs, digest_files(named, self.root)])
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def run(self, command, expected_exit, root, rsoc, timeout, name):
        """(output folder, stdout, stderr, exit code) of the command: kept, or run now and kept when it ended
        as expected."""
        key = self.key(command)
        entry = self.folder / key
        with open(self.folder / (key + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (entry / "code").is_file():
                fresh = Path(tempfile.mkdtemp(prefix=key + ".new-", dir=self.folder))
                try:
                    stdout, stderr, code = execute(command, fresh / "out", root, rsoc, timeout, name)
                    if code != expected_exit:  # not kept: reported by the caller
                        return str(fresh / "out"), stdout, stderr, code
                    (fresh / "command").write_text(command)  # (for whoever looks into the cache)
                    (fresh / "stdout").write_text(stdout)
                    (fresh / "stderr").write_text(stderr)
                    (fresh / "code").write_text(str(code))  # written last: an entry with it is complete
                    shutil.rmtree(entry, ignore_errors=True)  # (what an interrupted process left)
                    fresh.rename(entry)
                finally:
                    shutil.rmtree(fresh, ignore_errors=True)
        return str(entry / "out"), (entry / "stdout").read_text(), (entry / "stderr").read_text(), \
            int((entry / "code").read_text())

    def evict(self):
        """Removes the runs of all but the KEPT_BINARIES most recently used binaries (those not used for an
        hour: another process may be reading them)."""
        binaries = sorted((d for d in self.folder.parent.iterdir() if d.is_dir()), key=lambda d: d.stat().st_mtime,
                          reverse=True)
        for old in binaries[KEPT_BINARIES:]:
            if time.time() - old.stat().st_mtime > 3600:
                shutil.rmtree(old, ignore_errors=True)


def binary_digest(binary, folders):
    """SHA-256 of the binary with the names of `folders` (the tree, the build) taken out: rsoc has them compiled
    in, to find the shipped scenarios, the build's programs and the DES vectors, whose contents are in a run's key
    (INPUT_FOLDERS, the programs). So another clone of the same commit, built elsewhere, keeps its runs."""
    data = binary.read_bytes()
    for folder in sorted({str(f.resolve()) for f in folders}, key=len, reverse=True):
        data = data.replace(folder.encode(), b"<folder>")
    return hashlib.sha256(data).hexdigest()


def is_file(path):
    """Whether `path` is a file; False for what cannot be a file's name (a JSON value longer than a name)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def digest_files(paths, base):
    """SHA-256 of the files' names (relative to `base`) and contents."""
    h = hashlib.sha256()
    for p in paths:
        h.update(os.path.relpath(p, base).encode() + b"\0")
        with open(p, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        h.update(b"\0")
    return h.hexdigest()


def shared_libraries(binary):
    """The shared libraries the loader resolves for `binary`, each with its size and time (ldd), and the
    instruction-set CPU's emulator, which rsoc loads itself."""
    try:
        listed = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        listed = ""
    libraries = re.findall(r"=> (/\S+)", listed) + [str(p) for p in Path("/usr/lib").glob("*/libunicorn.so*")]
    stamps = []
    for lib in sorted(set(libraries)):
        try:
            st = os.stat(lib)
            stamps.append(f"{lib}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            pass
    return "\n".join(stamps)


def run_cache_folder():
    """The run cache's folder ($RSOC_DOC_RUN_CACHE, `off`: none), or None."""
    chosen = os.environ.get("RSOC_DOC_RUN_CACHE", "")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or (os.path.join(os.environ["HOME"], ".cache") if os.environ.get("HOME")
                                                else "")
    return Path(base) / "rsoc" / "doc-runs" if base else None


class Run:
    """One rsoc command and its results."""

    def __init__(self, name, spec, root, rsoc, scratch, cache=None):
        if "command" not in spec:
            raise ManifestError(f"runs.{name}: no command")
        self.name = name
        self.command = spec["command"]
        self.exit = spec.get("exit", 0)
        timeout = spec.get("timeout_s", 600)
        if cache is None:
            self.out = str(Path(scratch) / name)
            self.stdout, self.stderr, self.code = execute(self.command, self.out, root, rsoc, timeout, name)
        else:
            self.out, self.stdout, self.stderr, self.code = cache.run(self.command, self.exit, root, rsoc, timeout,
                                                                      name)
        if self.code != self.exit:
            raise ManifestError(f"runs.{name}: `rsoc {self.command}` exited {self.code}, expected {self.exit}:\n"
                                + self.stderr[-2000:])

    def namespace(self):
        out = Path(self.out)

        def csv(name):
            with open(out / name, newline="") as f:
                return list(csv_module.DictReader(f))

        def row(name, /, **where):
            rows = [r for r in csv(name) if all(r.get(k) == str(v) for k, v in where.items())]
            if len(rows) != 1:
                raise ManifestError(f"{name}: {len(rows)} rows where {where}, expected one")
            return rows[0]

        def col(name, column, /, **where):
            value = row(name, **where)[column]
            try:
                return float(value)
            except ValueError:
                return value

        def load(name):
            with open(out / name) as f:
                return json.load(f)

        def stat(group, key):
            groups = load("stats.json")["resources"]
            if group not in groups:
                raise ManifestError(f"runs.{self.name}: stats.json has no group {group!r}: {sorted(groups)}")
            if key not in groups[group]["stats"]:
                raise ManifestError(f"runs.{self.name}: {group} has no {key!r}: {sorted(groups[group]['stats'])}")
            return groups[group]["stats"][key]["value"]

        def grep(pattern, text=None):
            m = re.search(pattern, self.stdout if text is None else text, re.MULTILINE)
            if not m:
                raise ManifestError(f"runs.{self.name}: no match for {pattern!r} in its output")
            return m.group(1) if m.groups() else m.group(0)

        def table(first_word):
            lines = self.stdout.splitlines()
            for i, line in enumerate(lines):
                if line.split()[:1] == [first_word]:
                    header = line.split()
                    rows = []
                    for body in lines[i + 1:]:
                        cells = body.split()
                        if len(cells) != len(header):
                            break
                        rows.append(dict(zip(header, cells)))
                    return rows
            raise ManifestError(f"runs.{self.name}: no table headed {first_word!r} in its output")

        def crossover(functionality, kind="crossover", name="crossover_summary.csv"):
            found = row(name, functionality=functionality)
            value = found[kind + "_blocks"]
            return value if value else "> " + found["searched_to_blocks"]

        def speed(functionality, warmup=1):
            ops = {}
            for r in csv("requests.csv"):
                if r["ok"] == "true" and r["functionality"] == functionality:
                    end = float(r["end_ms"])
                    ops.setdefault(r["app"], []).append((end - float(r["latency_ms"]), end))
            total = 0.0
            for timed in (sorted(v)[warmup:] for v in ops.values()):
                if timed:
                    total += len(timed) / ((max(e for _, e in timed) - timed[0][0]) / 1e3)
            return total

        return {"stdout": self.stdout, "stderr": self.stderr, "out": self.out, "csv": csv, "row": row,
                "col": col, "load": load, "stat": stat, "grep": grep, "table": table, "crossover": crossover,
                "speed": speed}


def _no_run(name, namespaces):
    raise ManifestError(f"run({name!r}): no such run; the manifest's runs are {sorted(namespaces)}")


def squash(text):
    return re.sub(r"\s+", " ", text)


def pattern_of(text):
    """A regular expression for `text` as a doc may hold it: its words exact, any whitespace between them
    (line breaks too), each field a group of one line's characters."""
    parts = []
    for literal, field, spec, conversion in string.Formatter().parse(text):
        words = re.split(r"(\s+)", literal)
        parts.append("".join(r"\s+" if w.isspace() else re.escape(w) for w in words if w))
        if field is not None:  # a number whole (a full stop after it is the sentence's), else any text
            parts.append(r"([-+]?(?:\d[\d,]*)?\.?\d+(?:[eE][-+]?\d+)?|[^\n]+?)")
    return re.compile("".join(parts))


def render(figure, namespace, where):
    """The figure's text with its values, and each field's text."""
    values = []
    for expression in figure.get("values", []):
        try:
            # The helpers as globals: comprehensions and lambdas in the expression see them too.
            values.append(eval(expression, dict(namespace, __builtins__=__builtins__)))
        except ManifestError:
            raise
        except Exception as e:  # noqa: BLE001 - the manifest's own expression
            raise ManifestError(f"{where}: {expression!r}: {type(e).__name__}: {e}")
    pieces, fields = [], []
    formatter = string.Formatter()
    for literal, field, spec, conversion in formatter.parse(figure["text"]):
        pieces.append(literal)
        if field is None:
            continue
        if field != "" or len(fields) >= len(values):
            raise ManifestError(f"{where}: the text's fields and values do not fit: a field {{{field}}} "
                                f"beyond its {len(values)} values (fields are {{}} or {{:spec}})")
        try:
            text = format(formatter.convert_field(values[len(fields)], conversion), spec)
        except (ValueError, TypeError) as e:
            raise ManifestError(f"{where}: value {values[len(fields)]!r} in {{:{spec}}}: {e}")
        fields.append(text)
        pieces.append(text)
    if len(fields) != len(values):
        raise ManifestError(f"{where}: {len(values)} values for {len(fields)} fields")
    return "".join(pieces), fields


def line_of(doc_text, offset):
    return doc_text.count("\n", 0, offset) + 1


def load_manifest(path):
    try:
        with open(path, "rb") as f:
            m = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ManifestError(f"{path}: {e}")
    for key in ("doc", "runs", "figures"):
        if key not in m:
            raise ManifestError(f"{path}: no {key!r}")
    unknown = set(m) - {"doc", "runs", "figures"}
    if unknown:
        raise ManifestError(f"{path}: unknown keys {sorted(unknown)}")
    for i, figure in enumerate(m["figures"]):
        if figure.get("run") not in m["runs"]:
            raise ManifestError(f"{path}: figures[{i}]: run {figure.get('run')!r} is not one of {sorted(m['runs'])}")
        if "text" not in figure:
            raise ManifestError(f"{path}: figures[{i}]: no text")
        parsed = list(string.Formatter().parse(figure["text"]))
        if not parsed or not parsed[0][0] or parsed[-1][1] is not None:
            raise ManifestError(f"{path}: figures[{i}]: the text begins and ends with words, not with a field, "
                                f"so that the figures can be found in the doc: {figure['text']!r}")
    return m


def run_all(manifest, root, rsoc, scratch, jobs, cache):
    runs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {name: pool.submit(Run, name, spec, root, rsoc, scratch, cache)
                   for name, spec in manifest["runs"].items()}
        for name, future in futures.items():
            runs[name] = future.result()
    return runs


def process(path, root, rsoc, jobs, mode, cache):
    """Checks, updates or shows the figures of one manifest; returns the number of drifted figures."""
    manifest = load_manifest(path)
    doc_path = root / manifest["doc"]
    doc = doc_path.read_text()
    scratch = tempfile.mkdtemp(prefix="rsoc-doc-figures-")
    try:
        runs = run_all(manifest, root, rsoc, scratch, jobs, cache)
        namespaces = {name: run.namespace() for name, run in runs.items()}
        for ns in namespaces.values():  # run(name): another run's helpers, as attributes
            ns["run"] = lambda name: types.SimpleNamespace(**namespaces[name]) if name in namespaces else \
                _no_run(name, namespaces)
        drifted = 0
        for i, figure in enumerate(manifest["figures"]):
            where = f"{path}: figures[{i}]"
            run = runs[figure["run"]]
            rendered, fields = render(figure, namespaces[figure["run"]], where)
            if mode == "show":
                print(f"{manifest['doc']}: {rendered}")
                continue
            matches = list(pattern_of(figure["text"]).finditer(doc))
            expected = figure.get("occurrences", 1)
            if len(matches) != expected:
                raise ManifestError(f"{where}: the words of {figure['text']!r} stand {len(matches)} times in "
                                    f"{manifest['doc']}, expected {expected} (edit the manifest with the doc)")
            for m in matches:
                if squash(m.group(0)) == squash(rendered):
                    continue
                drifted += 1
                if mode == "check":
                    print(f"{manifest['doc']}:{line_of(doc, m.start())}: says \"{squash(m.group(0))}\"; "
                          f"rsoc gives \"{squash(rendered)}\" (rsoc {run.command})")
            if mode == "update" and matches:
                pieces, last = [], 0
                for m in matches:
                    for g, value in enumerate(fields, start=1):
                        pieces.append(doc[last:m.start(g)])
                        pieces.append(value)
                        last = m.end(g)
                pieces.append(doc[last:])
                doc = "".join(pieces)
        if mode == "update" and drifted:
            tmp = doc_path.with_suffix(doc_path.suffix + ".new")
            tmp.write_text(doc)
            tmp.replace(doc_path)
            print(f"{manifest['doc']}: {drifted} figures written")
        return drifted
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["check", "update", "show"])
    parser.add_argument("manifests", nargs="+")
    parser.add_argument("--rsoc", default=str(ROOT / "build" / "tools" / "rsoc"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--root", default=str(ROOT),
                        help="the tree the docs are in and the commands run in (default: this repository)")
    args = parser.parse_args()
    root = Path(args.root).resolve()
    if not Path(args.rsoc).is_file():
        print(f"doc_figures: {args.rsoc}: no such rsoc binary (--rsoc)", file=sys.stderr)
        return 2
    rsoc = os.path.abspath(args.rsoc)
    cache, folder = None, run_cache_folder()
    if folder is not None:
        try:
            cache = RunCache(folder, root, rsoc)
        except OSError as e:  # an accelerator only: without it every run runs
            print(f"doc_figures: no run cache ({e}); every run runs", file=sys.stderr)
    drifted, broken = 0, 0
    for path in args.manifests:  # every manifest, whatever another one gave
        try:
            drifted += process(path, root, rsoc, max(1, args.jobs), args.mode, cache)
        except ManifestError as e:
            print(f"doc_figures: {e}", file=sys.stderr)
            broken += 1
    if broken:
        return 2
    if args.mode == "check" and drifted:
        print(f"doc_figures: {drifted} figures differ from what rsoc gives; after checking the new figures, "
              f"`tools/doc_figures.py update {' '.join(args.manifests)}` writes them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
