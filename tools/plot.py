#!/usr/bin/python3
"""Figures from rsoc's CSV results: crossover curves, coupling comparisons, parameter sweeps, heatmaps and
sensitivity tornados.

Run it with /usr/bin/python3 (Debian's interpreter, which has python3-matplotlib; tools/setup.sh installs
it): another python3 on PATH may not see Debian's packages.

  plot.py crossover DIR_OR_CSV [--functionality NAME]... [--[no-]logx] [--[no-]logy] [--out OUTDIR]
      From `rsoc crossover --out DIR`: crossover.csv, and crossover_summary.csv beside it when present
      (otherwise the simulated crossover is computed from the rows). For each functionality F writes
      crossover_F_latency.png/.svg (latency of one request against its block count) and
      crossover_F_throughput.png/.svg, each with software, hardware with reconfiguration and hardware with
      the core cached, and the crossover marked and labelled (the label placed where it covers no curve
      and not the legend). The y axes are logarithmic by default: latency spans about 0.04 ms to 800 ms
      and throughput 0.1 to 500 kB/s in the reference scenario, so on a linear axis the cached curve and
      the crossover region would be flattened against zero; the block count is linear by default. When the
      scenario has an energy model (crossover.csv's sw_uj, hw_cold_uj, hw_cached_uj hold values), also
      crossover_F_energy.png/.svg: the energy of one request in each mode, with the energy crossover marked
      (crossover_summary.csv's energy_crossover_blocks, or computed from the rows).
      A crossover outside the blocks drawn is said in the legend. Beyond the search: rsoc searches for the
      crossover up to a bound (crossover_summary.csv's searched_to_blocks: 262144 blocks in the reference
      scenario) that the table's rows (rsoc's --table, 200 by default) may stop well before; a crossover
      the summary leaves empty is said as "no crossover up to N blocks" (an energy one "no energy
      crossover up to N blocks"), N that bound, and an empty analytic estimate as "(estimate > N)".
      Without the summary, or with one from before searched_to_blocks, N is the largest block count drawn
      (without the summary the crossovers come from the rows). When the summary's crossings is above 1,
      the latency and throughput figures say "Software and hardware with reconfiguration cross K times
      among the block counts simulated; the crossover shown is the first". The block-count axis says the
      size of a block, crossover.csv's unit_bytes: "Blocks (4 KiB each)", "Blocks (16 bytes each)"; plain
      "Blocks" without the column or when its value varies.

  plot.py coupling DIR_OR_CSV [--functionality NAME]... [--[no-]logx] [--[no-]logy] [--out OUTDIR]
      From coupling.csv (in DIR, or the CSV given): the same requests run in software (`software`), on a
      CPU extension instruction (`extension`), on a bus-attached IP core configured at boot
      (`core_static`) and on the core in a reconfigurable slot configured on demand
      (`core_reconfigurable`), one row per functionality, implementation and block count, with columns
      functionality, implementation, blocks, latency_ms, throughput_kBps and cpu_left_pct (the share of
      the request's duration in which the CPU was free); further columns are ignored. For each
      functionality F writes coupling_F.png/.svg: latency, throughput and CPU left (linear, 0-100 %)
      side by side against the block count, one line per implementation in order of first appearance
      (the four above in fixed colours and markers, other names in further ones), with a shared legend.
      Block count, latency and throughput axes are logarithmic by default: from one block to thousands,
      latency spans several decades (under a microsecond on the extension, milliseconds in software or
      with a reconfiguration), which a linear axis would flatten against zero.
      Below the panels, the crossovers: software against every other implementation, then extension
      against every one but software (without either, the first implementation against the others),
      each as "B beats A from ≈ N blocks (between P and Q)", "B beats A always (first-last blocks)" or
      "B beats A never (up to N blocks)". B beats A from Q, the smallest block count of those measured
      for both from which B's latency stays at or below A's; P is the count measured before it, and N
      where the two curves cross between them as drawn (straight between the samples, on the panel's
      scales). On the latency and throughput panels such a crossover is a dot where the curves cross and a
      dotted vertical line in B's colour, labelled "≈ N" where the label covers no curve. Rows with a
      value that is not a number, a block count that is not a whole number from 1, a latency or
      throughput not above 0 or a CPU share outside 0-100 are left out as well; several rows for one point
      are averaged.

  plot.py sweep SWEEP_CSV --x COL --y COL [--group COL] [--[no-]logx] [--[no-]logy] [--out OUTDIR]
                          [--name NAME]
      From `rsoc sweep` (or `rsoc crossover --param`): metric Y against parameter X, one line per value of
      GROUP (hollow markers, smaller for each group, so that markers on one another all show; groups
      whose lines coincide are named in a note). Several rows at one X (another parameter varies) give
      the line their mean and are drawn as dots over it. Both axes linear by default; a logarithmic one
      leaves out the points at or below 0. Writes sweep_Y_by_X[_per_GROUP].png/.svg.
      A crossover beyond the search (Y a column ending in crossover_blocks, empty in a point that did not
      fail while F.searched_to_blocks, F the text before Y's first dot, holds N: hardware does not win up
      to N blocks) is drawn at N as a hollow arrow pointing up in its line's colour, with the legend entry
      "> N: no crossover up to N blocks (as far as searched)", and is not counted among the points not
      shown; it stays on a logarithmic axis (N > 0). The line is broken at such a point: it joins only
      neighbouring points with a value, as the value there is not known. A point whose several rows
      include one beyond the search is beyond it too, drawn at the mean with the bounds in place (which
      the real mean exceeds). An empty Y without such a bound is a point not shown, as before.

  plot.py heatmap SWEEP_CSV --x COL --y COL --z COL [--out OUTDIR] [--name NAME]
      From `rsoc sweep`: Z over the X x Y grid, a cell per value pair, each with its value (while cells are
      wide enough to hold it); a cell whose point failed says "failed", one without a value "n/a", both
      grey and hatched. A cell whose Z is a crossover beyond the search (empty, with N in
      F.searched_to_blocks, as for `sweep`) says "> N", pale orange and hatched the other way, outside the
      colour scale, with the legend entry "> N: no crossover up to N blocks (as far as searched)" below the
      figure; it is not counted among the points not shown. A cell whose several rows include one beyond
      the search is beyond it too: "> M", M the mean with the bounds in place. Writes
      heatmap_Z_by_X_and_Y.png/.svg.

  plot.py sensitivity DIR_OR_CSV [--metric NAME]... [--[no-]logx] [--out OUTDIR]
      From `rsoc sensitivity` (sensitivity.csv in DIR, or the CSV given): for each metric M (every one in
      the file, or those named) writes sensitivity_M.png/.svg, a tornado plot: one horizontal bar per
      assumption, from the metric's value at the assumption's low end to its value at the high end, drawn
      from the base value (a vertical line) in one colour towards the low end and in another towards the
      high end; the assumption that moves the metric most (largest |swing_pct|) on top. Each bar is labelled
      with its parameter, named as sweep figures name it (see Names; a compound one on several lines, one
      input a line), the low and high input value at the bar's ends, and its swing on the right. An end
      whose value is beyond the search (at_low empty while at_low_beyond holds N: no crossover up to N
      blocks; likewise at_high, at_base) is drawn to N, hatched, with an arrowhead past it, and labelled
      "VALUE: > N"; the legend adds "> N: no crossover up to N blocks (as far as searched)". Its swing is
      then a bound, computed with N in place: "> +X %" when the high end is beyond (the real swing is
      larger), "< -X %" when the low end is (smaller; the other way round for a base below 0), "n/a" when
      both ends are; such bars are ordered with the bound in place. A base beyond the search is drawn at
      its bound as a dashed line, "base: > N", and every swing is "n/a". An end without a value and
      without a bound (a point without that figure; every empty end of a file from before the *_beyond
      columns) is said as "VALUE: no value" at the base, its bar after those with both ends; rows without
      a base value (or bound) are left out. The metric axis is linear by default; --logx makes it
      logarithmic when every value is above 0.

Names. In sweep, heatmap and sensitivity figures a parameter (a scenario path such as
platform.buses.0.clock_mhz, or its JSON pointer) is named by the element it sets, as the scenario names
it: "plb clock (MHz)" (the scenario text and --set overrides come from the sweep.json that rsoc writes
beside sweep.csv, and beside sensitivity.csv too; without it, "bus 0 clock (MHz)"). A metric is named by
its words: aes128.crossover_blocks is "aes128 crossover (blocks)". Axis units come from the column names
(suffix _ms: ms, _us: µs, _kBps: kB/s, _per_s: 1/s, _mhz: MHz, _kib: KiB, _blocks: blocks, ...). Titles
wrap between words only.

Files. Each figure is COMMAND_WHAT.png (150 dpi) and .svg, the parts of its name joined by "_", the dots
and spaces within a part made "-": a metric by its column (aes128-crossover_blocks), a parameter by its
name (plb-clock), a functionality as it is. For example crossover_aes128_latency,
coupling_3des, sweep_aes128-crossover_blocks_by_plb-clock_per_slot-count,
heatmap_aes128-crossover_blocks_by_plb-clock_and_slot-count, sensitivity_aes128-crossover_blocks. sweep
and heatmap take --name NAME instead. Figures are written into --out OUTDIR (created when missing), by
default into the input's folder, and nowhere else; a folder that cannot be written is refused before
anything is drawn. Each file is written under a temporary name and renamed into place. The paths written
are printed, one per line. The folder's .rsoc-plots lists the figures drawn into it and the commands that drew
them: an rsoc result or sweep folder holding them is still replaced by a re-run of rsoc, the figures with the
results they show (rsoc names the commands that drew them); anything else rsoc did not write stops it.

Rows whose `status` is not `ok`, whose plotted columns are empty (a crossover beyond the search is not
empty: it has its bound), or that a figure cannot show are left out, and counted with the reason both on
stderr and on the figure itself ("Not shown: 2 of 12 points: 1 failed, 1 with an empty
aes128.crossover_blocks"). Numeric columns are ordered by value, other columns by
first appearance. Tick labels that would run into each other are slanted (text) or thinned (numbers),
their ticks kept.
Exit codes: 0 success, 2 usage, input or output error (one line on stderr: `plot.py: FILE: what is
wrong`).
"""

import argparse
import csv
import json
import math
import os
import re
import shlex
import sys
import tempfile
import textwrap

PROG = "plot.py"
DRAWN_BY = "tools/plot.py"  # the command line, for the folder's list of figures (main() sets it)
FIGURES_LIST = ".rsoc-plots"

try:
    import matplotlib
except ImportError:
    print(f"{PROG}: {sys.executable} has no matplotlib: run with /usr/bin/python3 "
          "(tools/setup.sh installs python3-matplotlib)", file=sys.stderr)
    sys.exit(2)
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen before pyplot is imported)
import numpy as np  # noqa: E402
import matplotlib.path  # noqa: E402
import matplotlib.text  # noqa: E402
import matplotlib.transforms  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter  # noqa: E402

DPI = 150
MATPLOTLIB_VERSION = tuple(int(n) for n in re.findall(r"\d+", matplotlib.__version__)[:2])
PROVENANCE = ("rsoc_version", "scenario_sha256", "seed")

plt.rcParams.update({
    "svg.fonttype": "none",  # SVG text stays text (searchable, and checked by the tests)
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.titleweight": "bold",
    "legend.fontsize": 9,
    "legend.framealpha": 0.9,
})

# Column-name suffix -> unit shown on the axis (the underscore keeps "_s" from matching "_ms").
UNITS = (("_kBps", "kB/s"), ("_per_s", "1/s"), ("_ms", "ms"), ("_us", "µs"), ("_ns", "ns"), ("_s", "s"),
         ("_mhz", "MHz"), ("_kib", "KiB"), ("_bytes", "bytes"), ("_blocks", "blocks"), ("_cycles", "cycles"),
         ("_bits", "bits"), ("_words", "words"))


class UserError(Exception):
    """A problem with the user's input or output: reported as `plot.py: WHERE: MESSAGE`, exit code 2."""

    def __init__(self, where, message):
        super().__init__(f"{where}: {message}")


def note(where, message):
    """A one-line remark on stderr that does not stop the run."""
    print(f"{PROG}: {where}: {message}", file=sys.stderr)


# ---------------------------------------------------------------------------------------------- input


class Table:
    """A CSV file read whole: its path, its column names and its rows as (line number, dict)."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, newline="", encoding="utf-8") as f:
                reader = csv.DictReader(f)
                self.columns = reader.fieldnames or []
                self.rows = []
                for row in reader:
                    if None in row:  # DictReader's key for the fields beyond the header's
                        raise UserError(path, f"line {reader.line_num}: more fields than the "
                                              f"{len(self.columns)} columns of the header")
                    # Short rows give None for the missing fields: read them as empty.
                    self.rows.append((reader.line_num, {k: (v or "").strip() for k, v in row.items()}))
        except FileNotFoundError:
            raise UserError(path, "no such file") from None
        except IsADirectoryError:
            raise UserError(path, "is a folder, not a CSV file") from None
        except OSError as e:
            raise UserError(path, e.strerror) from None
        except UnicodeDecodeError:
            raise UserError(path, "not a UTF-8 text file") from None
        except csv.Error as e:
            raise UserError(path, f"not a valid CSV file ({e})") from None
        if not self.columns:
            raise UserError(path, "empty file (no header line)")

    def require(self, *columns):
        missing = [c for c in columns if c not in self.columns]
        if missing:
            plural = "s" if len(missing) > 1 else ""
            raise UserError(self.path, f"no column{plural} {', '.join(missing)} "
                                       f"(columns: {', '.join(self.columns)})")

    def number(self, line, row, column):
        """The value of `column` as a float; None when empty; a UserError when it is not a number."""
        text = row[column]
        if text == "":
            return None
        value = to_float(text)
        if value is None:
            raise UserError(self.path, f"line {line}: {column} is not a number: {text!r}")
        return value

    def provenance(self, rows):
        """'rsoc 0.1.0 · scenario 23af0416d550 · seed 2008' from the provenance columns, keeping only
        those with a single value over `rows` (a sweep changes the scenario, so its hash, at each point)."""
        parts = []
        for column, caption in zip(PROVENANCE, ("rsoc", "scenario", "seed")):
            values = {row.get(column, "") for _, row in rows}
            if len(values) == 1 and "" not in values:
                value = values.pop()
                parts.append(f"{caption} {value[:12] if column == 'scenario_sha256' else value}")
        return " · ".join(parts)


def count(n, noun):
    """'1 block', '40 blocks', '2.5 blocks': the noun in the plural unless n is one."""
    return f"{format_number(n)} {noun}{'' if n == 1 else 's'}"


def to_float(text):
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


class Categories:
    """The distinct values of a column, in plotting order: by value when every one is a number, otherwise
    by first appearance. `position(text)` maps a value to its place on a categorical axis."""

    def __init__(self, texts):
        numbers = [to_float(t) for t in texts]
        self.numeric = all(n is not None for n in numbers)
        if self.numeric:
            # Keyed by value, so "100" and "100.0" are one category.
            self.keys = sorted(set(numbers))
            self.labels = [format_number(k) for k in self.keys]
        else:
            self.keys = list(dict.fromkeys(texts))
            self.labels = self.keys
        self._index = {k: i for i, k in enumerate(self.keys)}

    def key(self, text):
        return to_float(text) if self.numeric else text

    def position(self, text):
        return self._index[self.key(text)]

    def __len__(self):
        return len(self.keys)


class Usable:
    """The rows of a table that a figure can show (`rows`), and those it cannot: `skipped`, a list of
    (line, row, why) where why sorts the reasons in a fixed order, and `noun` ("row", "point") for
    sentences."""

    def __init__(self, table, among, noun):
        self.table, self.among, self.noun = table, among, noun
        self.rows, self.skipped = [], []

    def summary(self, keep=None):
        """'2 of 12 points: 1 failed, 1 with an empty aes128.crossover_blocks' over the rows for which
        keep(row) is true (all when None); None when none of those was skipped."""
        keep = keep or (lambda row: True)
        skipped = [why for _, row, why in self.skipped if keep(row)]
        if not skipped:
            return None
        total = sum(1 for _, row in self.among if keep(row))
        reasons = [f"{skipped.count(why)} {why[-1]}" for why in sorted(set(skipped))]
        return f"{len(skipped)} of {count(total, self.noun)}: {', '.join(reasons)}"

    def figure_note(self, keep=None):
        """The line a figure shows when rows are missing from it (None when none is)."""
        summary = self.summary(keep)
        return f"Not shown: {summary}" if summary else None


def usable_rows(table, columns, checks=None, among=None, extra=(), noun="row", beyond=None):
    """The rows with status ok (when the table has a status column) and every one of `columns` filled,
    among the table's rows or those given. `checks` maps columns to (test, what): their value must also
    be a number that passes test(value), else the row is skipped as one 'with a non-numeric COLUMN' or
    'with COLUMN what'. `extra` holds further (keep(row), why) filters, applied last. beyond(row, column),
    when given, is the bound of a censored value (see searched_bound): an empty column it gives one for
    counts as filled. Reports the others on stderr; a UserError when none is left. Returns a Usable."""
    checks = checks or {}
    among = table.rows if among is None else among
    has_status = "status" in table.columns
    usable = Usable(table, among, noun)
    for line, row in among:
        why = None
        if has_status and row["status"] != "ok":
            why = (0, "failed")
        blank = [c for c in columns if row[c] == "" and (beyond is None or beyond(row, c) is None)]
        if why is None and blank:
            why = (1, columns.index(blank[0]), f"with an empty {blank[0]}")
        values = {c: to_float(row[c]) for c in checks}
        wrong = [c for c in checks if values[c] is None]
        if why is None and wrong:
            why = (2, list(checks).index(wrong[0]), f"with a non-numeric {wrong[0]}")
        wrong = [c for c, (test, _) in checks.items() if values[c] is not None and not test(values[c])]
        if why is None and wrong:
            why = (3, list(checks).index(wrong[0]), f"with {wrong[0]} {checks[wrong[0]][1]}")
        for k, (keep, text) in enumerate(extra):
            if why is None and not keep(row):
                why = (4, k, text)
        if why is None:
            usable.rows.append((line, row))
        else:
            usable.skipped.append((line, row, why))
    if not usable.rows:
        summary = usable.summary()
        detail = f": {summary.split(': ', 1)[1]}" if summary else ""
        raise UserError(table.path, f"no {noun}s to plot ({count(len(among), noun)}{detail})")
    if usable.skipped:
        note(table.path, f"skipped {usable.summary()}")
    return usable


# A crossover beyond the search ("censored"): rsoc searched up to N blocks and hardware did not win there. A
# sweep leaves F.crossover_blocks (F.analytic_crossover_blocks, F.energy_crossover_blocks) empty and gives N
# in F.searched_to_blocks; crossover_summary.csv in searched_to_blocks; sensitivity.csv in at_low_beyond,
# at_base_beyond and at_high_beyond.
CROSSOVER_SUFFIX = "crossover_blocks"
SEARCHED_SUFFIX = ".searched_to_blocks"


def searched_bound(table, row, column):
    """N when `column` (a crossover, F.…crossover_blocks) is empty in an ok row whose F.searched_to_blocks
    holds N: no crossover up to N blocks. None otherwise: a value, a failed point, no such bound (then the
    value is missing, not beyond)."""
    if row.get(column, "") != "" or row.get("status", "ok") != "ok" or "." not in column or \
            not column.endswith(CROSSOVER_SUFFIX):
        return None
    bound_column = column.split(".", 1)[0] + SEARCHED_SUFFIX
    if bound_column not in table.columns:
        return None
    bound = to_float(row[bound_column])
    return bound if bound is not None and bound > 0 else None


def beyond_text(bound):
    """'> 262144': a value beyond the search's bound, as rsoc's tables write it."""
    return f"> {format_number(bound)}"


def beyond_legend(bounds):
    """The legend entry of values beyond the search: '> 262144: no crossover up to 262144 blocks (as far as
    searched)', with N for the number when the bounds differ."""
    bounds = set(bounds)
    if len(bounds) == 1:
        bound = bounds.pop()
        return f"{beyond_text(bound)}: no crossover up to {count(bound, 'block')} (as far as searched)"
    return "> N: no crossover up to N blocks (as far as searched)"


# ------------------------------------------------------------------------------------- presentation


def split_unit(column):
    """'aes128.latency_mean_ms' -> ('aes128.latency_mean', 'ms'); (column, None) without a known unit."""
    leaf = column.rsplit(".", 1)[-1]
    for suffix, unit in UNITS:
        if leaf.endswith(suffix) and len(leaf) > len(suffix):
            return column[:-len(suffix)], unit
    return column, None


# The sections of a scenario, the first component of every scenario path (a sweep's parameters); other
# columns are metrics. The platform's and the workload's elements are known by their own names, so the
# section is left out of theirs.
SCENARIO_SECTIONS = ("platform", "software", "runtime", "workload", "outputs")
IMPLIED_SECTIONS = ("platform", "workload")


def path_parts(path):
    """'platform.buses.0.clock_mhz' or the JSON pointer '/platform/buses/0/clock_mhz' -> its components."""
    if path.startswith("/"):
        return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]
    return path.split(".")


def singular(key):
    """'buses' -> 'bus', 'memories' -> 'memory', 'slots' -> 'slot', 'background' stays."""
    for plural, one in (("ies", "y"), ("uses", "us"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"),
                        ("shes", "sh")):
        if key.endswith(plural):
            return key[:-len(plural)] + one
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def element_index(node, part):
    """The index in the list `node` that `part` designates: an index, or the name of an element (rsoc takes
    platform.buses.plb for platform.buses.0); None when it designates none."""
    if not isinstance(node, list):
        return None
    if part.isdigit():
        return int(part) if int(part) < len(node) else None
    for i, element in enumerate(node):
        if isinstance(element, dict) and element.get("name") == part:
            return i
    return None


def set_path(doc, path, value):
    """Sets `path` in the JSON document when its parent exists there; otherwise leaves it alone."""
    *parents, leaf = path_parts(path)
    node = doc
    for part in parents:
        if isinstance(node, dict):
            node = node.get(part)
        elif element_index(node, part) is not None:
            node = node[element_index(node, part)]
        else:
            return
    if isinstance(node, dict):
        node[leaf] = value
    elif element_index(node, leaf) is not None:
        node[element_index(node, leaf)] = value


class Names:
    """How figures name the columns of a sweep. A scenario path (a parameter: platform.buses.0.clock_mhz or
    /platform/buses/0/clock_mhz) is named by the element it designates, with the name the scenario gives it
    ("plb clock", in MHz; "bus 0 clock" without the scenario); a metric by its own words
    (aes128.hardware.latency_mean_ms: "aes128 hardware latency mean", in ms; requests_per_s: "Requests",
    in 1/s)."""

    def __init__(self, scenario=None):
        self.scenario = scenario

    @classmethod
    def of_sweep(cls, csv_path):
        """From the sweep.json that rsoc writes beside sweep.csv: its scenario text with the sweep's --set
        overrides applied. Without one, element names are not known."""
        path = os.path.join(os.path.dirname(csv_path), "sweep.json")
        if not os.path.exists(path):
            return cls()
        try:
            with open(path, encoding="utf-8") as f:
                sweep = json.load(f)
            scenario = json.loads(sweep["scenario_text"])
            overrides = list(sweep.get("overrides") or [])
        except (OSError, ValueError, KeyError, TypeError) as e:
            note(path, f"no scenario names from it ({type(e).__name__}: {e}): parameters named by their keys")
            return cls()
        for assignment in overrides:
            target, _, text = str(assignment).partition("=")
            try:
                value = json.loads(text)
            except ValueError:
                value = text  # --set takes a bare string too
            set_path(scenario, target, value)
        return cls(scenario)

    def describe(self, column):
        """(words, unit): the name of the column as a list of words, and its unit or None."""
        parts = path_parts(column)
        name, unit = split_unit(parts[-1])
        if parts[0] not in SCENARIO_SECTIONS or len(parts) < 2:  # a metric
            words = parts[:-1] + [name.replace("_", " ")]
            if len(words) == 1:
                words[0] = words[0][:1].upper() + words[0][1:]
            return words, unit
        node, words, key = self.scenario, [], None
        for k, part in enumerate(parts):
            index = element_index(node, part)
            if key is not None and (part.isdigit() or index is not None):  # an element of the list `key`
                element = node[index] if index is not None else None
                label = element.get("name") if isinstance(element, dict) else None
                words[-1] = label if isinstance(label, str) and label else f"{singular(key)} {part}"
                node, key = element, None
                continue
            word = (name if k == len(parts) - 1 else part).replace("_", " ")
            if not words or words[-1] != word:  # the bus named fmc's fmc settings: "fmc", not "fmc fmc"
                words.append(word)
            node, key = (node.get(part) if isinstance(node, dict) else None), part
        if parts[0] in IMPLIED_SECTIONS and len(words) > 1:
            words = words[1:]
        return words, unit

    def title(self, column):
        """'plb clock': the name without its unit."""
        return " ".join(self.describe(column)[0])

    def label(self, column):
        """'plb clock (MHz)': for an axis, with its unit."""
        words, unit = self.describe(column)
        return " ".join(words) + (f" ({unit})" if unit else "")

    def file_part(self, column):
        """The column in a file name: a parameter by its name ('plb-clock'), a metric by the column itself
        ('aes128-crossover_blocks')."""
        words = self.describe(column)[0] if path_parts(column)[0] in SCENARIO_SECTIONS else [column]
        return safe_name("-".join(words).replace(".", "-").replace(" ", "-"))


def format_number(value):
    """Three significant digits without exponent or trailing zeros: 40, 436, 12.3, 0.0367."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    magnitude = math.floor(math.log10(abs(value)))
    if not -5 <= magnitude < 15:
        return f"{value:.3g}"
    text = f"{value:.{max(0, 2 - magnitude)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def style_axes(ax, logx=False, logy=False):
    """Grid, and the logarithmic axes asked for, labelled with plain numbers (0.1, 1, 10) rather than
    powers of ten, which read slower; their minor ticks unlabelled (finish() labels more ticks when too few
    decades are shown)."""
    for log, axis, name in ((logx, ax.xaxis, "x"), (logy, ax.yaxis, "y")):
        if log:
            (ax.set_xscale if name == "x" else ax.set_yscale)("log")
            if not isinstance(axis.get_major_formatter(), FuncFormatter):  # exact ticks keep their labels
                axis.set_major_formatter(FuncFormatter(lambda v, _: format_number(v)))
            axis.set_minor_formatter(NullFormatter())
            ax.grid(True, which="minor", axis=name, alpha=0.15)
    ax.grid(True, which="major", alpha=0.4)
    ax.set_axisbelow(True)


def categorical_ticks(ax, axis, categories):
    """Ticks at 0..n-1 labelled with the categories (finish() slants or thins them when they would run
    into each other)."""
    (ax.set_xticks if axis == "x" else ax.set_yticks)(range(len(categories)), categories.labels)


def is_number(text):
    return to_float(text.replace("−", "-")) is not None


# Ticks within each decade of a logarithmic axis that shows too few decades to label: then 1, 2 and 5,
# then every one.
DENSER_LOG_TICKS = ((1.0, 2.0, 5.0), tuple(float(n) for n in range(1, 10)))


def shown_tick_labels(axis):
    """(position, label) of the major ticks of `axis` inside its view whose label shows text."""
    low, high = sorted(axis.get_view_interval())
    slack = 1e-9 * (high - low)
    locs = axis.get_majorticklocs()
    return [(loc, tick.label1) for loc, tick in zip(locs, axis.get_major_ticks(len(locs)))
            if low - slack <= loc <= high + slack and tick.label1.get_visible() and tick.label1.get_text()]


def labels_apart(axis, ticks, first, second, renderer):
    """Whether tick labels `first` and `second` (indexes into `ticks`) leave two points between them.
    Slanted labels are parallel strips: apart when the ticks' distance across the slant exceeds a line."""
    gap = 2 * axis.figure.dpi / 72
    (loc1, label1), (loc2, label2) = ticks[first], ticks[second]
    angle = math.radians(label1.get_rotation() % 180)
    if axis.axis_name == "x" and 0 < angle < math.pi:
        transform = axis.axes.transData
        distance = abs(transform.transform((loc2, 0))[0] - transform.transform((loc1, 0))[0])
        height = label1.get_fontsize() * axis.figure.dpi / 72 * 1.2
        return distance * math.sin(angle) >= height + gap
    a, b = label1.get_window_extent(renderer), label2.get_window_extent(renderer)
    if axis.axis_name == "x":
        return a.x1 + gap <= b.x0 or b.x1 + gap <= a.x0
    return a.y1 + gap <= b.y0 or b.y1 + gap <= a.y0


def legible_ticks(fig):
    """Makes the tick labels of every axis of `fig` readable on the layout as it stands. A logarithmic axis
    with fewer than two labels gets labels at 1, 2 and 5 of each decade (then at every minor tick). Where
    labels run into each other, those of a text axis along x are slanted (30°, then 90°); then labels are
    left out, their ticks kept: every n-th of evenly spaced ones, otherwise the first and each next one
    clear of the last kept. Returns whether anything changed (the layout is then to be made again)."""
    if hasattr(fig, "draw_without_rendering"):  # matplotlib 3.6
        fig.draw_without_rendering()
    else:
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        if not ax.axison:
            continue
        for axis in (ax.xaxis, ax.yaxis):
            ticks = shown_tick_labels(axis)
            locator = axis.get_major_locator()
            denser = getattr(locator, "denser", -1) + 1
            if axis.get_scale() == "log" and len(ticks) < 2 and denser < len(DENSER_LOG_TICKS) and \
                    not isinstance(locator, FixedLocator):
                locator = LogLocator(subs=DENSER_LOG_TICKS[denser])
                locator.denser = denser
                axis.set_major_locator(locator)
                changed = True
                continue
            if all(labels_apart(axis, ticks, k, k + 1, renderer) for k in range(len(ticks) - 1)):
                continue
            changed = True
            rotation = ticks[0][1].get_rotation()
            if axis.axis_name == "x" and rotation < 90 and not all(is_number(l.get_text()) for _, l in ticks):
                for _, label in ticks:
                    label.set_rotation(30 if rotation == 0 else 90)
                    label.set_horizontalalignment("right" if rotation == 0 else "center")
                    label.set_rotation_mode("anchor" if rotation == 0 else "default")
                continue
            steps = np.diff([loc for loc, _ in ticks])
            if len(steps) and np.allclose(steps, steps[0]):  # evenly spaced (categories): every n-th label
                kept = next(list(range(0, len(ticks), n)) for n in range(2, len(ticks) + 1)
                            if labels_apart(axis, ticks, 0, n, renderer) or n == len(ticks))
            else:
                kept = [0]
                for k in range(1, len(ticks)):
                    if labels_apart(axis, ticks, kept[-1], k, renderer):
                        kept.append(k)
            axis.set_ticks([loc for loc, _ in ticks],
                           [label.get_text() if k in kept else "" for k, (_, label) in enumerate(ticks)])
    return changed


def fit(text, inches, fontsize):
    """`text` wrapped at spaces to about `inches` wide at `fontsize` points (a glyph is ~0.6 em wide). A
    word, a name or a path longer than that stays whole on its own line: it is never broken, not even at
    its hyphens."""
    return textwrap.fill(text, max(20, int(inches * 72 / (0.6 * fontsize))), break_long_words=False,
                         break_on_hyphens=False)


def set_labels(fig, ax, title, xlabel, ylabel):
    """Title and axis labels, wrapped so that long column names stay inside the figure."""
    width, height = fig.get_size_inches()
    ax.set_title(fit(title, 0.8 * width, 1.1 * plt.rcParams["axes.titlesize"]))
    ax.set_xlabel(fit(xlabel, 0.75 * width, plt.rcParams["font.size"]))
    ax.set_ylabel(fit(ylabel, 0.75 * height, plt.rcParams["font.size"]))


NOTE_COLOUR = "#a01c1c"  # dark red: what the figure leaves out, or hides
NOTE_SIZE = 8.5


def finish(fig, footer, notes=(), legend=()):
    """The provenance footer in the bottom right corner; above it, on the left, the notes (None entries are
    left out) that the reader must see: rows not shown and why, lines hidden under others; above them the
    legend entries given as (handle, label), if any. Then the layout, leaving them room."""
    width, height = fig.get_size_inches()
    bottom = 0.0
    if footer:
        fig.text(0.995, 0.005, footer, ha="right", va="bottom", fontsize=7, color="0.45")
        bottom = 0.14 / height
    notes = [n for n in notes if n]
    if notes:
        text = "\n".join(fit(n, 0.95 * width, NOTE_SIZE) for n in notes)
        fig.text(0.006, bottom, text, ha="left", va="bottom", fontsize=NOTE_SIZE, color=NOTE_COLOUR,
                 linespacing=1.3)
        bottom += ((text.count("\n") + 1) * NOTE_SIZE * 1.3 / 72 + 0.06) / height
    if legend:
        handles, labels = zip(*legend)
        entries = fig.legend(handles, labels, loc="lower left", bbox_to_anchor=(0.012, bottom),
                             bbox_transform=fig.transFigure, frameon=False, borderaxespad=0, borderpad=0,
                             fontsize=NOTE_SIZE)
        bottom += (entries.get_window_extent(fig.canvas.get_renderer()).height / fig.dpi + 0.06) / height
    fig.tight_layout(rect=(0, bottom, 1, 1))
    for _ in range(4):  # each round may slant or thin labels, and the layout then changes
        if not legible_ticks(fig):
            break
        fig.tight_layout(rect=(0, bottom, 1, 1))


# Lines drawn to mark a place (a crossover's vertical line), not data: labels may sit on them.
GUIDE = "guide"


def data_curves(ax):
    """The data curves of `ax` in display coordinates, each as (points, reach): reach is how far from its
    path it paints, in pixels (half its width, or its markers' radius)."""
    to_pixels = ax.figure.dpi / 72
    curves = []
    for line in ax.get_lines():
        if line.get_gid() == GUIDE or len(line.get_xdata()) == 0:
            continue
        xy = line.get_transform().transform(np.column_stack([line.get_xdata(), line.get_ydata()]))
        marker = line.get_marker() not in (None, "None", "none", "", " ")
        radius = line.get_markersize() / 2 + line.get_markeredgewidth() / 2 if marker else 0
        curves.append((xy, max(line.get_linewidth() / 2, radius) * to_pixels))
    return curves


def segment_meets_box(p, q, box):
    """Whether the segment p-q passes through the box (x0, y0, x1, y1): Liang-Barsky clipping."""
    t0, t1 = 0.0, 1.0
    d = (q[0] - p[0], q[1] - p[1])
    for axis in (0, 1):
        for edge, sign in ((box[axis], -1), (box[axis + 2], 1)):
            num, den = sign * (edge - p[axis]), sign * d[axis]
            if den == 0:
                if num < 0:
                    return False
            elif den > 0:
                t1 = min(t1, num / den)
            else:
                t0 = max(t0, num / den)
    return t0 <= t1


def box_meets_curve(box, curve):
    points, reach = curve
    grown = (box.x0 - reach, box.y0 - reach, box.x1 + reach, box.y1 + reach)
    if len(points) == 1:
        return segment_meets_box(points[0], points[0], grown)
    return any(segment_meets_box(p, q, grown) for p, q in zip(points[:-1], points[1:]))


def label_box(label, renderer):
    """The display box a text covers, with its bbox patch when it has one."""
    if isinstance(label, matplotlib.text.Annotation):
        label.update_positions(renderer)  # otherwise only drawing moves the text to its new xy
    if label.get_bbox_patch() is not None:
        label.update_bbox_position_size(renderer)
        return label.get_bbox_patch().get_window_extent(renderer)
    return label.get_window_extent(renderer)


def pin_legend(ax):
    """Keeps the legend of `ax` where it is now: loc="best" would move it on every drawing, over labels
    placed since."""
    legend = ax.get_legend()
    if legend is not None:
        renderer = ax.figure.canvas.get_renderer()
        corner = ax.transAxes.inverted().transform(legend.get_window_extent(renderer).p0)
        if hasattr(legend, "set_loc"):  # matplotlib 3.8
            legend.set_loc(tuple(corner))
        else:
            legend._loc = tuple(corner)


def place_clear(ax, label, positions, taken):
    """Moves `label` to the first of `positions` (each a function that puts it somewhere) where its box
    meets no data curve of `ax`, not its legend and no box in `taken`, and stays inside the axes; where none
    does, to the one with the fewest such collisions. Adds its box to `taken`. Call it once the layout is
    final (the label out of it: label.set_in_layout(False))."""
    renderer = ax.figure.canvas.get_renderer()
    curves = data_curves(ax)
    avoid = list(taken)
    if ax.get_legend() is not None:
        pin_legend(ax)
        avoid.append(ax.get_legend().get_window_extent(renderer))
    inside = ax.get_window_extent(renderer)
    best = None
    for k, position in enumerate(positions):
        position(label)
        box = label_box(label, renderer)
        clashes = sum(box_meets_curve(box, c) for c in curves) + sum(box.overlaps(a) for a in avoid) + \
            (0 if inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1
             else 1)
        if best is None or clashes < best[0]:
            best = (clashes, k)
        if clashes == 0:
            break
    positions[best[1]](label)
    taken.append(label_box(label, renderer))


def safe_name(text):
    """`text` as part of a file name: every run of characters other than letters, digits, _ and - is one
    hyphen ('aes128.crossover_blocks' -> 'aes128-crossover_blocks', 'plb clock' -> 'plb-clock')."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "figure"


def figure_name(command, *parts):
    """The file name (without extension) of a figure: the command, then what it shows, joined by '_':
    figure_name('sweep', 'aes128-crossover_blocks', 'by', 'plb-clock') ->
    'sweep_aes128-crossover_blocks_by_plb-clock'."""
    return "_".join([command] + [safe_name(p) for p in parts])


def output_dir(requested, input_path):
    """The folder the figures go to: --out (created when missing), else the input's own folder. Checked
    before any figure is drawn: a UserError when it is not a folder or cannot be written."""
    outdir = requested if requested is not None else (os.path.dirname(input_path) or ".")
    if os.path.exists(outdir) and not os.path.isdir(outdir):
        raise UserError(outdir, "not a folder: cannot write figures into it")
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as e:
        raise UserError(outdir, f"cannot create the output folder: {e.strerror}") from None
    try:  # os.access says yes to root on a read-only file system: try the real thing
        fd, probe = tempfile.mkstemp(prefix=".plot-write-test.", suffix=".tmp", dir=outdir)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise UserError(outdir, f"cannot write into the output folder: {e.strerror}") from None
    return outdir


def list_figures(outdir, names):
    """Adds `names` (files drawn into outdir) and the command that drew them to outdir's list of figures,
    written anew under a temporary name and renamed into place."""
    path = os.path.join(outdir, FIGURES_LIST)
    try:
        with open(path) as fh:
            lines = fh.read().splitlines()
    except FileNotFoundError:
        lines = []
    except OSError as e:
        raise UserError(path, f"cannot read: {e.strerror}") from None
    by = f"# drawn by: {DRAWN_BY}"
    if by not in lines:
        lines.insert(sum(1 for line in lines if line.startswith("#")), by)
    lines += [n for n in names if n not in lines]
    fd, tmp = tempfile.mkstemp(prefix=f"{FIGURES_LIST}.", suffix=".tmp", dir=outdir)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        raise UserError(path, f"cannot write: {e.strerror}") from None


def save(fig, outdir, base):
    """Writes `base`.png and `base`.svg into outdir, each under a temporary name then renamed into place
    (an interrupted run leaves no half-written image), and prints their paths."""
    umask = os.umask(0)  # os.umask reads it only by setting it; mkstemp creates 0600, images get 0666 - umask
    os.umask(umask)
    try:
        for ext in ("png", "svg"):
            final = os.path.join(outdir, f"{base}.{ext}")
            fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=f".{ext}.tmp", dir=outdir)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fig.savefig(fh, format=ext, dpi=DPI)
                os.chmod(tmp, 0o666 & ~umask)
                os.replace(tmp, final)
            except BaseException:
                os.unlink(tmp)
                raise
            list_figures(outdir, [f"{base}.{ext}"])
            print(final, flush=True)
    except OSError as e:
        raise UserError(outdir, f"cannot write {base}: {e.strerror}") from None
    finally:
        plt.close(fig)


# ---------------------------------------------------------------------------------------- crossover

# (column prefix, legend label, colour) of the three ways of running a request.
MODES = (("sw", "software", "tab:blue"),
         ("hw_cold", "hardware with reconfiguration", "tab:orange"),
         ("hw_cached", "hardware, core cached", "tab:green"))
# (figure, column suffix, y label, title)
QUANTITIES = (("latency", "_ms", "Latency (ms)", "latency of one request"),
              ("throughput", "_kBps", "Throughput (kB/s)", "throughput of one request"))
# With an energy model: the platform's energy serving one request alone.
ENERGY = ("energy", "_uj", "Energy (µJ)", "energy of one request")


def has_energy(table):
    """Whether crossover.csv has energy columns with values (a scenario without an energy model leaves them
    empty in every row; a file from before them has none)."""
    columns = [prefix + ENERGY[1] for prefix, _, _ in MODES]
    if any(c not in table.columns for c in columns):
        return False
    return any(row[c] != "" for _, row in table.rows for c in columns)


def load_crossover(table):
    """{functionality: {"blocks": [...], "sw_ms": [...], ...}} sorted by block count (and "sw_uj", ... when
    the file has energy)."""
    suffixes = ("_ms", "_kBps") + ((ENERGY[1],) if has_energy(table) else ())
    value_columns = [prefix + suffix for suffix in suffixes for prefix, _, _ in MODES]
    table.require("functionality", "blocks", *value_columns)
    data = {}
    for line, row in table.rows:
        values = {}
        for column in ["blocks"] + value_columns:
            values[column] = table.number(line, row, column)
            if values[column] is None:
                raise UserError(table.path, f"line {line}: {column} is empty")
        data.setdefault(row["functionality"], []).append(values)
    if not data:
        raise UserError(table.path, "no rows to plot")
    series = {}
    for functionality, points in data.items():
        points.sort(key=lambda p: p["blocks"])
        series[functionality] = {c: [p[c] for p in points] for c in points[0]}
    return series


class Summary(tuple):
    """A functionality's line of crossover_summary.csv: crossover (simulated), estimate (analytic), energy
    (each None when empty: the energy crossover also when the file has no such column), searched_to (the
    block count searched up to: an empty crossover is beyond it; None in files from before the column) and
    crossings (how many times software and hardware with reconfiguration cross among the block counts
    simulated; None without the column)."""

    def __new__(cls, crossover, estimate, energy, searched_to=None, crossings=None):
        return super().__new__(cls, (crossover, estimate, energy, searched_to, crossings))

    crossover, estimate, energy, searched_to, crossings = (property(lambda self, i=i: self[i])
                                                           for i in range(5))


def load_summary(path):
    """{functionality: Summary}, and whether the file has energy crossovers (a column for them)."""
    table = Table(path)
    table.require("functionality", "crossover_blocks", "analytic_crossover_blocks")

    def number(line, row, column):
        return table.number(line, row, column) if column in table.columns else None
    columns = ("crossover_blocks", "analytic_crossover_blocks", "energy_crossover_blocks", "searched_to_blocks",
               "crossings")
    return ({row["functionality"]: Summary(*(number(line, row, c) for c in columns)) for line, row in table.rows},
            "energy_crossover_blocks" in table.columns)


def simulated_crossover(s, suffix="_ms"):
    """The smallest block count at which hardware with reconfiguration is faster than software (with
    suffix "_uj": costs less energy)."""
    return next((b for b, sw, hw in zip(s["blocks"], s["sw" + suffix], s["hw_cold" + suffix]) if hw < sw),
                None)


def crossover_text(crossover, estimate, max_blocks, what="crossover", searched_to=None,
                   estimate_beyond=False):
    """'crossover: 40 blocks (estimate 40)'; without one, 'no crossover up to N blocks', N the block count
    searched up to (searched_to) when known, else the largest drawn (max_blocks). estimate_beyond: the
    estimate is beyond the search too ('(estimate > N)')."""
    bound = searched_to if searched_to is not None else max_blocks
    est = f" (estimate {format_number(estimate)})" if estimate is not None else \
        f" (estimate {beyond_text(searched_to)})" if estimate_beyond and searched_to is not None else ""
    if crossover is None:
        return f"no {what} up to {count(bound, 'block')}{est}"
    return f"{what}: {count(crossover, 'block')}{est}"


def size_text(n):
    """'4 KiB', '1 MiB', '16 bytes', '1 byte': a size in bytes, in KiB or MiB when a whole number of them."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{format_number(n / size)} {unit}"
    return count(n, "byte")


def blocks_label(unit_bytes):
    """The block-count axis label: 'Blocks (4 KiB each)' when the block size is known, else 'Blocks'."""
    return f"Blocks ({size_text(unit_bytes)} each)" if unit_bytes else "Blocks"


def unit_of(table, rows):
    """The block size in bytes of `rows` (crossover.csv's unit_bytes): None when the column is missing, or
    its value is empty, not a whole number above 0, or not the same in every row."""
    if "unit_bytes" not in table.columns:
        return None
    values = {to_float(row["unit_bytes"]) for _, row in rows}
    unit = values.pop() if len(values) == 1 else None
    return int(unit) if unit is not None and unit >= 1 and unit == int(unit) else None


def crossover_label_offsets(right_half):
    """Where the crossover's label may go, in offset points from the crossing, in order of preference:
    below it first (both figures leave room there: between the reconfiguration and the cached curve for
    latency, under the software curve for throughput), leaning away from the nearer side edge."""
    def offset(dx, dy):
        def position(label):
            label.xyann = (dx, dy)
            label.set_horizontalalignment("left" if dx > 0 else "right")
            label.set_verticalalignment("top" if dy < 0 else "bottom")
        return position
    lean = -20 if right_half else 20
    return [offset(dx, dy) for dy in (-45, -90, -135, 45, 90, 135) for dx in (lean, -lean)]


def energy_unit(values_uj):
    """(divisor, unit) that keeps the largest of `values_uj` (µJ) below a thousand units."""
    top = max(values_uj)
    return next(((d, u) for d, u in ((1, "µJ"), (1e3, "mJ")) if top < 1000 * d), (1e6, "J"))


def crossover_figure(functionality, s, crossover, estimate, quantity, footer, logx=False, logy=True,
                     searched_to=None, estimate_beyond=False, unit_bytes=None, notes=()):
    """One figure of a functionality: the three modes' `quantity` against the block count, the crossover
    marked (see crossover_text for searched_to and estimate_beyond), the axis saying the block size
    (unit_bytes, when known), `notes` below."""
    name, suffix, ylabel, title = quantity
    scale = 1
    if name == "energy":  # µJ in the file; drawn in the unit that suits its range
        scale, unit = energy_unit([v for prefix, _, _ in MODES for v in s[prefix + suffix]])
        ylabel = f"Energy ({unit})"
    fig, ax = plt.subplots(figsize=(8, 5))
    for prefix, label, colour in MODES:
        ax.plot(s["blocks"], [v / scale for v in s[prefix + suffix]], label=label, color=colour, linewidth=2)
    blocks = s["blocks"]
    what = "energy crossover" if name == "energy" else "crossover"
    text = crossover_text(crossover, estimate, blocks[-1], what, searched_to, estimate_beyond)
    in_range = blocks[0] <= crossover <= blocks[-1] if crossover is not None else False
    label = None
    if in_range:
        ax.axvline(crossover, color="tab:red", linestyle="--", linewidth=1, zorder=1, gid=GUIDE)
        y = float(np.interp(crossover, blocks, s["hw_cold" + suffix])) / scale
        ax.plot([crossover], [y], "o", color="tab:red", markersize=7, zorder=5)
        label = ax.annotate(text, xy=(crossover, y), xytext=(20, -45), textcoords="offset points",
                            ha="left", va="top", color="tab:red", fontweight="bold", zorder=6,
                            bbox={"boxstyle": "round,pad=0.3", "facecolor": "white", "edgecolor": "tab:red"},
                            arrowprops={"arrowstyle": "->", "color": "tab:red"})
        label.set_in_layout(False)  # placed once the layout is made
    else:  # nothing to point at: the text goes into the legend, where it cannot collide with a curve
        ax.plot([], [], " ", label=text)
    if estimate is not None and estimate != crossover and blocks[0] <= estimate <= blocks[-1]:
        ax.axvline(estimate, color="0.4", linestyle=":", linewidth=1.2, label="analytic estimate", gid=GUIDE)
    style_axes(ax, logx=logx, logy=logy)
    if logx:
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: format_number(v)))
    if blocks[-1] > blocks[0]:
        ax.set_xlim(blocks[0], blocks[-1])
    set_labels(fig, ax, f"{functionality}: {title}", blocks_label(unit_bytes), ylabel)
    # Lower right is empty on both figures with the default scales (under the curves that rise to the
    # right); with others, wherever covers least.
    ax.legend(loc="lower right" if not logx and logy else "best")
    finish(fig, footer, notes)
    if label is not None:
        left, right = (math.log(b) if logx else b for b in (blocks[0], blocks[-1]))
        at = math.log(crossover) if logx else crossover
        place_clear(ax, label, crossover_label_offsets(at > (left + right) / 2), [])
    return fig


def input_path(path, file_name):
    """The CSV a command reads: `path` itself, or `file_name` inside it when it is a folder."""
    return os.path.join(path, file_name) if os.path.isdir(path) else path


def cmd_crossover(args):
    path = input_path(args.input, "crossover.csv")
    table = Table(path)
    outdir = output_dir(args.out, path)
    series = load_crossover(table)
    wanted = args.functionality or list(series)
    unknown = [f for f in wanted if f not in series]
    if unknown:
        raise UserError(path, f"no functionality {', '.join(unknown)} (has: {', '.join(series)})")
    summary_path = os.path.join(os.path.dirname(path), "crossover_summary.csv")
    summary, summary_energy = load_summary(summary_path) if os.path.exists(summary_path) else ({}, False)
    energy = has_energy(table)
    for functionality in dict.fromkeys(wanted):
        s = series[functionality]
        if functionality in summary:
            known = summary[functionality]
        else:  # computed from the rows, up to the largest block count they hold
            known = Summary(simulated_crossover(s), None, None)
        energy_crossover = known.energy
        if energy and (functionality not in summary or not summary_energy):
            energy_crossover = simulated_crossover(s, ENERGY[1])
        # A summary that says how far the search went: an empty crossover or estimate is beyond it.
        searched_to = known.searched_to
        rows = [r for r in table.rows if r[1]["functionality"] == functionality]
        footer = table.provenance(rows)
        unit = unit_of(table, rows)
        notes = []
        if known.crossings is not None and known.crossings > 1:
            notes.append(f"Software and hardware with reconfiguration cross {format_number(known.crossings)} "
                         "times among the block counts simulated; the crossover shown is the first")
        for quantity in QUANTITIES:
            fig = crossover_figure(functionality, s, known.crossover, known.estimate, quantity, footer,
                                   args.logx, args.logy, searched_to, searched_to is not None, unit, notes)
            save(fig, outdir, figure_name("crossover", functionality, quantity[0]))
        if energy:  # the energy crossover beside the latency's
            fig = crossover_figure(functionality, s, energy_crossover, None, ENERGY, footer, args.logx,
                                   args.logy, searched_to if summary_energy else None, False, unit)
            save(fig, outdir, figure_name("crossover", functionality, ENERGY[0]))


# ----------------------------------------------------------------------------------------- coupling

COUPLING_COLUMNS = ("functionality", "implementation", "blocks",
                    "latency_ms", "throughput_kBps", "cpu_left_pct")
COUPLING_CHECKS = {
    "blocks": (lambda v: v >= 1 and v == int(v), "not a whole number ≥ 1"),
    "latency_ms": (lambda v: v > 0, "≤ 0"),  # both on a logarithmic axis
    "throughput_kBps": (lambda v: v > 0, "≤ 0"),
    "cpu_left_pct": (lambda v: 0 <= v <= 100, "outside 0–100"),
}
# The four ways rsoc runs a request: legend text, colour, marker, line style. The colours of software,
# the core configured on demand and the core in place match the crossover figures. The extension's line
# is dashed: like software it leaves no CPU, and software shows through the gaps where the two coincide.
IMPLEMENTATIONS = {
    "software": ("plain code on the CPU", "tab:blue", "o", "-"),
    "extension": ("a CPU extension instruction", "tab:purple", "D", (0, (4, 2))),
    "core_static": ("bus-attached IP core, configured at boot", "tab:green", "s", "-"),
    "core_reconfigurable": ("IP core in a reconfigurable slot, configured on demand", "tab:orange", "^", "-"),
}
# Colours, markers and line styles for other implementations, by first appearance.
OTHER_STYLES = tuple(zip(("tab:red", "tab:brown", "tab:pink", "tab:gray", "tab:olive", "tab:cyan"),
                         ("v", "P", "X", "<", ">", "*"), ("-", (0, (1, 1.5))) * 3))
# Each one, when present, is compared with every implementation that is neither it nor an earlier one.
BASELINES = ("software", "extension")
# (column, panel title, y label, logarithmic y)
COUPLING_PANELS = (
    ("latency_ms", "Latency of one request", "Latency (ms)", True),
    ("throughput_kBps", "Throughput of one request", "Throughput (kB/s)", True),
    ("cpu_left_pct", "CPU left for other processes", "CPU left (% of the request's duration)", False))


def load_coupling(table, wanted):
    """({functionality: {implementation: {"blocks": [...], "latency_ms": [...], ...}}}, implementations in
    first-appearance order, usable rows) for the functionalities wanted (None: all), each series sorted
    by block count."""
    table.require(*COUPLING_COLUMNS)
    present = list(dict.fromkeys(row["functionality"] for _, row in table.rows if row["functionality"]))
    unknown = [f for f in wanted or () if f not in present]
    if unknown:
        raise UserError(table.path, f"no functionality {', '.join(unknown)} (has: {', '.join(present)})")
    among = [(line, row) for line, row in table.rows if wanted is None or row["functionality"] in wanted]
    usable = usable_rows(table, COUPLING_COLUMNS, COUPLING_CHECKS, among)
    rows = usable.rows
    values = COUPLING_COLUMNS[3:]
    points = {}
    for line, row in rows:
        by_blocks = points.setdefault(row["functionality"], {}).setdefault(row["implementation"], {})
        by_blocks.setdefault(int(float(row["blocks"])), []).append([float(row[c]) for c in values])
    averaged = 0
    series = {}
    for functionality, implementations in points.items():
        series[functionality] = {}
        for implementation, by_blocks in implementations.items():
            blocks = sorted(by_blocks)
            averaged += sum(len(by_blocks[b]) > 1 for b in blocks)
            means = [np.mean(by_blocks[b], axis=0) for b in blocks]
            s = {"blocks": blocks}
            s.update({c: [float(m[i]) for m in means] for i, c in enumerate(values)})
            series[functionality][implementation] = s
    if averaged:
        note(table.path, f"{count(averaged, 'point')} with several rows: plotting their mean")
    for functionality in wanted or present:
        if functionality not in series:
            note(table.path, f"no figure for {functionality}: none of its rows is usable")
    order = list(dict.fromkeys(row["implementation"] for _, row in rows))
    return series, order, usable


def implementation_styles(order):
    """{implementation: (legend label, colour, marker, line style)}: fixed for the four known ones."""
    styles, others = {}, 0
    for name in order:
        if name in IMPLEMENTATIONS:
            description, *style = IMPLEMENTATIONS[name]
            styles[name] = (f"{name}: {description}", *style)
        else:
            styles[name] = (name, *OTHER_STYLES[others % len(OTHER_STYLES)])
            others += 1
    return styles


def coupling_pairs(implementations):
    """(baseline, challenger) pairs: software against every other implementation, then the extension
    against every one but software (without either, the first implementation against the others)."""
    baselines = [b for b in BASELINES if b in implementations] or implementations[:1]
    return [(base, other) for k, base in enumerate(baselines)
            for other in implementations if other not in baselines[:k + 1]]


class Beats(tuple):
    """The outcome of beats_from: kind ("from", "always" or "never"), at, first, last, before."""

    def __new__(cls, kind, at, first, last, before=None):
        return super().__new__(cls, (kind, at, first, last, before))

    kind, at, first, last, before = (property(lambda self, i=i: self[i]) for i in range(5))


def beats_from(baseline, challenger):
    """Where the challenger's latency is at or below the baseline's, over the block counts both have:
    Beats(kind, at, first, last, before) with kind "from", `at` the smallest count from which it stays so up
    to the largest and `before` the count measured just below it (where it was behind); "always" when `at`
    is the first count, "never" when it does not hold at the largest (`at` is then the largest); first and
    last are the smallest and largest counts compared. None when no count is shared."""
    base = dict(zip(baseline["blocks"], baseline["latency_ms"]))
    other = dict(zip(challenger["blocks"], challenger["latency_ms"]))
    shared = sorted(set(base) & set(other))
    if not shared:
        return None
    start = None
    for k in range(len(shared) - 1, -1, -1):
        if other[shared[k]] > base[shared[k]]:
            break
        start = k
    if start is None:
        return Beats("never", shared[-1], shared[0], shared[-1])
    if start == 0:
        return Beats("always", shared[0], shared[0], shared[-1])
    return Beats("from", shared[start], shared[0], shared[-1], shared[start - 1])


def crossing(baseline, challenger, result, column, logx, logy):
    """(blocks, value) where the challenger's and the baseline's `column` curves cross between
    result.before and result.at, as the figure draws them: straight between the samples on its scales
    (logarithmic x and y when logx, logy)."""
    fx = math.log if logx else float
    fy = math.log if logy else float
    left, right = result.before, result.at
    base = dict(zip(baseline["blocks"], baseline[column]))
    other = dict(zip(challenger["blocks"], challenger[column]))
    gap0, gap1 = (fy(other[b]) - fy(base[b]) for b in (left, right))
    t = gap0 / (gap0 - gap1) if gap0 != gap1 else 1.0
    x = fx(left) + t * (fx(right) - fx(left))
    y = fy(base[left]) + t * (fy(base[right]) - fy(base[left]))
    return (math.exp(x) if logx else x), (math.exp(y) if logy else y)


def beats_text(challenger, baseline, result, at=None):
    """'core_reconfigurable beats software from ≈ 713 blocks (between 256 and 1024)' (`at`: where the curves
    cross between those two measured counts), '... always (1–4096 blocks)' or '... never (up to 4096
    blocks)'."""
    if result is None:
        return f"{challenger} and {baseline} share no block count"
    if result.kind == "from":
        where = f"≈ {count(round(at), 'block')}" if at is not None else count(result.at, "block")
        return (f"{challenger} beats {baseline} from {where} "
                f"(between {format_number(result.before)} and {format_number(result.at)})")
    if result.kind == "always":
        span = count(result.last, "block") if result.first == result.last else \
            f"{format_number(result.first)}–{count(result.last, 'block')}"
        return f"{challenger} beats {baseline} always ({span})"
    return f"{challenger} beats {baseline} never (up to {count(result.at, 'block')})"


def blocks_axis(ax, blocks, logx):
    """The block-count axis: logarithmic (ticked at the counts measured when they are few) or linear."""
    if logx:
        ax.set_xscale("log")
        ax.set_xlim(blocks[0] / 1.4, blocks[-1] * 1.4)  # markers at both ends stay whole
        if len(blocks) <= 12:
            ax.set_xticks(blocks, [format_number(b) for b in blocks])
            ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
            return
    else:
        ax.set_xlim(0, blocks[-1] * 1.03)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: format_number(v)))


def crossover_label_positions(x):
    """Where a crossover's label may go, in order of preference: on its vertical line at `x`, from the foot
    of the panel upwards, centred on the line or beside it."""
    def at(height, dx, ha):
        def position(label):
            label.xy = (x, height)
            label.xyann = (dx, 0)
            label.set_horizontalalignment(ha)
        return position
    return [at(height, dx, ha) for height in np.arange(0.01, 0.95, 0.03)
            for dx, ha in ((0, "center"), (5, "left"), (-5, "right"))]


def coupling_figure(functionality, series, styles, footer, notes=(), logx=True, logy=True):
    """The three panels, the shared legend and the crossovers of one functionality. logx and logy choose the
    scales of the block count and of the latency and throughput (the CPU share is always linear)."""
    implementations = list(series)
    blocks = sorted({b for s in series.values() for b in s["blocks"]})
    crossovers = [(challenger, baseline, beats_from(series[baseline], series[challenger]))
                  for baseline, challenger in coupling_pairs(implementations)]

    # The strip below the panels holds a heading and a line per implementation or crossover.
    strip_height = 0.22 * (1 + max(len(implementations), len(crossovers)))
    fig = plt.figure(figsize=(15, 6.2 + strip_height))
    grid = fig.add_gridspec(2, 3, height_ratios=(4.6, strip_height))
    panels = [fig.add_subplot(grid[0, i]) for i in range(3)]
    for ax, (column, title, ylabel, log_panel) in zip(panels, COUPLING_PANELS):
        for name in implementations:
            label, colour, marker, linestyle = styles[name]
            s = series[name]
            # Hollow markers: where two lines coincide, both shapes show.
            ax.plot(s["blocks"], s[column], label=label, color=colour, marker=marker, linestyle=linestyle,
                    linewidth=2, markersize=7, markerfacecolor="none", markeredgewidth=1.6, clip_on=False,
                    zorder=3)
        blocks_axis(ax, blocks, logx)
        ax.set_title(title)
        ax.set_xlabel("Request size (64-bit blocks)")
        ax.set_ylabel(ylabel)
        style_axes(ax, logy=logy and log_panel)
        if column == "cpu_left_pct":
            ax.set_ylim(-4, 104)
            ax.set_yticks(range(0, 101, 20))

    # A crossover inside the measured range, on the latency and throughput panels: where the two curves
    # cross as drawn (straight between the samples on the panel's scales), a dot and a dotted vertical
    # line in the challenger's colour, and the block count on that line where its label covers no curve.
    labels = [[], []]
    at_latency = {}
    for challenger, baseline, result in crossovers:
        if result is None or result.kind != "from":
            continue
        colour = styles[challenger][1]
        for k, (column, _, _, log_panel) in enumerate(COUPLING_PANELS[:2]):
            x, y = crossing(series[baseline], series[challenger], result, column, logx, logy and log_panel)
            if k == 0:
                at_latency[(challenger, baseline)] = x
            ax = panels[k]
            ax.axvline(x, color=colour, linestyle=":", linewidth=1.6, zorder=2, gid=GUIDE)
            ax.plot([x], [y], "o", color=colour, markersize=5, zorder=4, clip_on=False)
            labels[k].append(ax.annotate(
                f"≈ {format_number(round(x))}", xy=(x, 0), xycoords=("data", "axes fraction"),
                xytext=(0, 0), textcoords="offset points", ha="center", va="bottom", fontsize=8,
                fontweight="bold", color=colour, zorder=5, in_layout=False,  # placed once the layout is made
                bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": colour}))

    # Below the panels: the shared legend on the left, the crossovers on the right.
    strip = fig.add_subplot(grid[1, :])
    strip.axis("off")
    handles, legend_labels = panels[0].get_legend_handles_labels()
    left = {"alignment": "left"} if MATPLOTLIB_VERSION >= (3, 6) else {}  # the title over the entries
    legend = strip.legend(handles, legend_labels, loc="upper left", bbox_to_anchor=(0, 1),
                          title="Implementation", frameon=False, borderaxespad=0, borderpad=0, **left)
    legend.get_title().set_fontweight("bold")
    right_column = 0.45  # the crossovers' column, right of the legend's longest entry
    strip.text(right_column, 1,
               "Crossovers (latency at or below from there on; ≈: between two measured sizes)",
               transform=strip.transAxes, ha="left", va="top", fontweight="bold")
    if not crossovers:
        strip.annotate("none: a single implementation", xy=(right_column, 1), xycoords="axes fraction",
                       xytext=(0, -15), textcoords="offset points", ha="left", va="top", color="0.15")
    for k, (challenger, baseline, result) in enumerate(crossovers):
        text = beats_text(challenger, baseline, result, at_latency.get((challenger, baseline)))
        marked_here = result is not None and result.kind == "from"
        strip.annotate(text, xy=(right_column, 1), xycoords="axes fraction", xytext=(0, -15 * (k + 1)),
                       textcoords="offset points", ha="left", va="top",
                       color=styles[challenger][1] if marked_here else "0.15",
                       fontweight="bold" if marked_here else "normal")
    fig.suptitle(f"{functionality}: latency, throughput and free CPU against request size",
                 fontsize=13, fontweight="bold")
    finish(fig, footer, notes)
    for ax, panel_labels in zip(panels, labels):
        taken = []
        for label in panel_labels:
            place_clear(ax, label, crossover_label_positions(label.xy[0]), taken)
    return fig


def cmd_coupling(args):
    path = input_path(args.input, "coupling.csv")
    table = Table(path)
    outdir = output_dir(args.out, path)
    series, order, usable = load_coupling(table, args.functionality)
    styles = implementation_styles(order)
    for functionality in series:  # those with rows left to plot
        def this_one(row):
            return row["functionality"] == functionality
        footer = table.provenance([r for r in usable.rows if this_one(r[1])])
        fig = coupling_figure(functionality, series[functionality], styles, footer,
                              [usable.figure_note(this_one)], args.logx, args.logy)
        save(fig, outdir, figure_name("coupling", functionality))


# -------------------------------------------------------------------------------------------- sweep


def mean_by_key(pairs):
    """{key: mean of its values} from (key, value) pairs, and how many keys had more than one value."""
    sums = {}
    for key, value in pairs:
        sums.setdefault(key, []).append(value)
    return {k: sum(v) / len(v) for k, v in sums.items()}, sum(len(v) > 1 for v in sums.values())


# One marker shape per group besides the colour, so lines stay apart in grey print and where they touch.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
# A point beyond the search, at its bound: an arrow pointing up (the value is above), its outline only.
BEYOND_MARKER = matplotlib.path.Path(
    [(0, 1), (0.6, 0.25), (0.2, 0.25), (0.2, -1), (-0.2, -1), (-0.2, 0.25), (-0.6, 0.25), (0, 1)],
    [matplotlib.path.Path.MOVETO] + [matplotlib.path.Path.LINETO] * 6 + [matplotlib.path.Path.CLOSEPOLY])


def coinciding(lines, logy=False):
    """The groups of lines (each {x: y}) that lie on one another: the same x values, and y values that
    differ by less than 0.2 % of the y range shown (on a logarithmic axis, of the log range). A list of
    lists of line indexes, in order."""
    def scale(y):
        return math.log10(y) if logy else y
    values = [scale(y) for line in lines for y in line.values() if not logy or y > 0]
    tolerance = 0.002 * (max(values) - min(values)) if values else 0
    groups, placed = [], set()
    for i, line in enumerate(lines):
        if i in placed:
            continue
        same = [i] + [j for j in range(i + 1, len(lines))
                      if j not in placed and lines[j].keys() == line.keys()
                      and all(abs(scale(lines[j][x]) - scale(y)) <= tolerance for x, y in line.items())]
        if len(same) > 1:
            groups.append(same)
            placed.update(same)
    return groups


def cmd_sweep(args):
    table = Table(args.input)
    columns = [args.x, args.y] + ([args.group] if args.group else [])
    table.require(*columns)
    outdir = output_dir(args.out, args.input)
    names = Names.of_sweep(args.input)
    # A logarithmic axis shows no value at or below zero: those points are left out (non-numeric ones are
    # errors below, or categories).
    extra = [(lambda row, c=c: to_float(row[c]) is None or to_float(row[c]) > 0, f"with {c} ≤ 0 (log axis)")
             for c, log in ((args.x, args.logx), (args.y, args.logy)) if log]
    # A crossover beyond the search (empty, with the bound in F.searched_to_blocks) is drawn at its bound.
    def bound(row, column):
        return searched_bound(table, row, column) if column == args.y else None
    usable = usable_rows(table, columns, extra=extra, noun="point", beyond=bound)
    rows = usable.rows
    ys = [table.number(line, row, args.y) for line, row in rows]
    beyond = [y is None for y in ys]  # ys[k] is then the bound
    ys = [bound(row, args.y) if y is None else y for (_, row), y in zip(rows, ys)]
    xcat = Categories([row[args.x] for _, row in rows])
    if args.logx and not xcat.numeric:
        values = ", ".join(short(t) for t in xcat.labels[:5]) + (", …" if len(xcat) > 5 else "")
        raise UserError(table.path, f"--logx: {args.x} is not a number in every row ({values})")
    gcat = Categories([row[args.group] for _, row in rows]) if args.group else None

    # Numeric x on a value axis; string x at 0..n-1 with the strings as ticks.
    place = xcat.key if xcat.numeric else xcat.position
    fig, ax = plt.subplots(figsize=(8, 5))
    averaged = 0
    groups = range(len(gcat) if gcat else 1)
    lines = []
    bounds = []  # of the rows beyond the search
    for g in groups:
        members = [(row, y, is_bound) for (_, row), y, is_bound in zip(rows, ys, beyond)
                   if gcat is None or gcat.position(row[args.group]) == g]
        means, several = mean_by_key((place(row[args.x]), y) for row, y, _ in members)
        averaged += several
        # A point with a row beyond the search is beyond it too: the mean with the bounds in place, which
        # the real mean exceeds.
        outside = {place(row[args.x]) for row, _, is_bound in members if is_bound}
        bounds += [y for _, y, is_bound in members if is_bound]
        xs = sorted(means)
        lines.append({(x, x in outside): means[x] for x in xs})
        # Hollow markers, each group's smaller than the one before: where lines meet, every marker shows
        # around the next. The line is broken at a point beyond the search (its value is not known).
        line, = ax.plot(xs, [np.nan if x in outside else means[x] for x in xs],
                        marker=MARKERS[g % len(MARKERS)], linewidth=2, markersize=max(4.0, 10 - 1.5 * g),
                        markerfacecolor="none", markeredgewidth=1.6, zorder=2,
                        label=gcat.labels[g] if gcat else "mean")
        if outside:  # at the bound, a hollow arrow pointing up in the line's colour
            ax.plot([x for x in xs if x in outside], [means[x] for x in xs if x in outside], linestyle="none",
                    marker=BEYOND_MARKER, markersize=max(7.0, 13 - 1.5 * g), markerfacecolor="none",
                    markeredgecolor=line.get_color(), markeredgewidth=1.6, zorder=2)
        if several:  # the rows behind each mean, as dots over the lines (the means' markers are hollow)
            ax.scatter([place(row[args.x]) for row, _, _ in members], [y for _, y, _ in members], s=14,
                       color=line.get_color(), alpha=0.6, linewidths=0, zorder=3,
                       label=None if gcat else "rows")
    if averaged:
        hint = "" if args.group else " (try --group)"
        note(table.path, f"{count(averaged, 'point')} with several rows (another column varies): "
                         f"plotting their mean, with the rows as dots{hint}")
    hidden = coinciding(lines, args.logy) if gcat else []

    style_axes(ax, logx=args.logx, logy=args.logy)  # before the ticks: a change of scale resets them
    if not xcat.numeric:
        categorical_ticks(ax, "x", xcat)
    elif len(xcat) <= 12:  # few values (slot counts, clocks): tick exactly at them
        ax.set_xticks(xcat.keys, xcat.labels)
    per = f", per {names.title(args.group)}" if args.group else ""
    set_labels(fig, ax, f"{names.title(args.y)} against {names.title(args.x)}{per}",
               names.label(args.x), names.label(args.y))
    handles, labels = ax.get_legend_handles_labels()
    if bounds:
        handles.append(plt.Line2D([], [], linestyle="none", marker=BEYOND_MARKER, markersize=11,
                                  markerfacecolor="none", markeredgecolor="0.25", markeredgewidth=1.6))
        labels.append(beyond_legend(bounds))
    if gcat:
        ax.legend(handles, labels, title=names.label(args.group))
    elif averaged or bounds:
        ax.legend(handles, labels)
    notes = [usable.figure_note()]
    for same in hidden:
        listed = [gcat.labels[g] for g in same]
        notes.append(f"{names.title(args.group)} {', '.join(listed[:-1])} and {listed[-1]}: one line, the "
                     f"same values (drawn over one another)")
        note(table.path, notes[-1])
    finish(fig, table.provenance(rows), notes)
    per = ["per", names.file_part(args.group)] if args.group else []
    name = figure_name("sweep", names.file_part(args.y), "by", names.file_part(args.x), *per)
    save(fig, outdir, args.name or name)


# ------------------------------------------------------------------------------------------ heatmap


# A cell beyond the search: pale orange, hatched the other way from the grey of failed and n/a cells.
BEYOND_CELL = {"facecolor": "#fde3cf", "edgecolor": "#e0803a", "hatch": "\\\\\\", "linewidth": 0}
BEYOND_TEXT = "#7a3208"


def cmd_heatmap(args):
    table = Table(args.input)
    table.require(args.x, args.y, args.z)
    outdir = output_dir(args.out, args.input)
    names = Names.of_sweep(args.input)
    # Failed rows and empty z still place their x and y on the grid, so their cell shows as failed or n/a.
    placed = [(line, row) for line, row in table.rows if row[args.x] != "" and row[args.y] != ""]
    if not placed:
        raise UserError(table.path, f"no points to plot (no row has both {args.x} and {args.y})")
    # A crossover beyond the search (empty, with the bound in F.searched_to_blocks) is a value: "> N".
    def bound(row, column):
        return searched_bound(table, row, column) if column == args.z else None
    usable = usable_rows(table, [args.x, args.y, args.z], noun="point", beyond=bound)
    rows = usable.rows
    xcat = Categories([row[args.x] for _, row in placed])
    ycat = Categories([row[args.y] for _, row in placed])
    # A cell whose every point failed says so; one without a value otherwise (or without a point) is n/a.
    failed = {(ycat.position(row[args.y]), xcat.position(row[args.x])) for _, row in placed
              if row.get("status", "ok") != "ok"}
    failed -= {(ycat.position(row[args.y]), xcat.position(row[args.x])) for _, row in placed
               if row.get("status", "ok") == "ok"}
    cells = {}  # (row, column) of the grid -> [(value or bound, whether it is a bound)]
    for line, row in rows:
        value = table.number(line, row, args.z)
        cells.setdefault((ycat.position(row[args.y]), xcat.position(row[args.x])), []).append(
            (bound(row, args.z), True) if value is None else (value, False))
    averaged = sum(len(values) > 1 for values in cells.values())
    if averaged:
        note(table.path,
             f"{count(averaged, 'cell')} with several rows (another column varies): showing their mean")
    grid = np.full((len(ycat), len(xcat)), np.nan)
    # A cell with a bound among its rows is beyond too: the mean with the bounds in place, which the real
    # mean exceeds.
    beyond = {}
    bounds = [bound for values in cells.values() for bound, is_bound in values if is_bound]
    for key, values in cells.items():
        mean = sum(v for v, _ in values) / len(values)
        if any(is_bound for _, is_bound in values):
            beyond[key] = mean
        else:
            grid[key] = mean

    nx, ny = len(xcat), len(ycat)
    fig, ax = plt.subplots(figsize=(min(4 + 0.9 * nx, 20), min(3 + 0.55 * ny, 14)))
    image = ax.imshow(np.ma.masked_invalid(grid), origin="lower", aspect="auto", cmap="viridis")
    if np.isnan(grid).all():  # every cell beyond the search (or without a value): nothing on the scale
        ax.set_xlim(-0.5, nx - 0.5)
        ax.set_ylim(-0.5, ny - 0.5)
    else:
        colorbar = fig.colorbar(image, ax=ax)
        colorbar.set_label(fit(names.label(args.z), 0.75 * fig.get_size_inches()[1],
                               plt.rcParams["font.size"]))
    fontsize = 9 if nx * ny <= 100 else 7
    # A value is written in its cell while cells are at least ~0.4 inch wide (six glyphs at 7 points).
    written = nx <= 40 and ny <= 60
    notes = [usable.figure_note()]
    if not written:
        beyond_note = "; orange hatched ones are beyond the search (see the legend)" if beyond else ""
        notes.append("Too many cells to write their values in: the colour scale gives them; grey hatched "
                     f"cells failed or have no value{beyond_note}")
    for j in range(ny):
        for i in range(nx):
            value = grid[j, i]
            if (j, i) in beyond:
                ax.add_patch(Rectangle((i - 0.5, j - 0.5), 1, 1, **BEYOND_CELL))
                if written:
                    ax.text(i, j, beyond_text(beyond[j, i]), ha="center", va="center", fontsize=fontsize,
                            color=BEYOND_TEXT, fontweight="bold",
                            bbox={"facecolor": BEYOND_CELL["facecolor"], "edgecolor": "none", "pad": 1})
            elif np.isnan(value):
                ax.add_patch(Rectangle((i - 0.5, j - 0.5), 1, 1, facecolor="0.93", edgecolor="0.6",
                                       hatch="///", linewidth=0))
                if written:
                    ax.text(i, j, "failed" if (j, i) in failed else "n/a", ha="center", va="center",
                            fontsize=fontsize, color="0.3",
                            bbox={"facecolor": "0.93", "edgecolor": "none", "pad": 1})
            elif written:
                r, g, b, _ = image.cmap(image.norm(value))
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                ax.text(i, j, format_number(value), ha="center", va="center", fontsize=fontsize,
                        color="white" if dark else "black")
    categorical_ticks(ax, "x", xcat)
    categorical_ticks(ax, "y", ycat)
    set_labels(fig, ax, f"{names.title(args.z)} over {names.title(args.x)} × {names.title(args.y)}",
               names.label(args.x), names.label(args.y))
    legend = [(Rectangle((0, 0), 1, 1, **BEYOND_CELL), beyond_legend(bounds))] if beyond else []
    finish(fig, table.provenance(rows), notes, legend)
    name = figure_name("heatmap", names.file_part(args.z), "by", names.file_part(args.x), "and",
                       names.file_part(args.y))
    save(fig, outdir, args.name or name)


# -------------------------------------------------------------------------------------- sensitivity

SENSITIVITY_COLUMNS = ("parameter", "low", "high", "metric", "at_low", "at_base", "at_high")
LOW_COLOUR, HIGH_COLOUR = "tab:blue", "tab:orange"
BEYOND_HATCH = "///"  # the part of a bar that runs to the search's bound


def short(text, limit=24):
    """A value text for a label: long JSON values are cut with an ellipsis."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Bar(tuple):
    """One assumption of a tornado: parameter, low, high (the input values, text), at_low, at_base, at_high
    (the metric there, None without a value) and beyond: the ends ("low", "base", "high") whose value is
    beyond the search, the search's bound then standing in for it."""

    def __new__(cls, parameter, low, high, at_low, at_base, at_high, beyond=frozenset()):
        return super().__new__(cls, (parameter, low, high, at_low, at_base, at_high, frozenset(beyond)))

    parameter, low, high, at_low, at_base, at_high, beyond = (property(lambda self, i=i: self[i])
                                                              for i in range(7))


def swing_key(bar):
    """Larger swings first, then bars with an end without a value (their swing is unknown), in file order.
    at_base is the same for every row of a metric, so |at_high - at_low| orders the bars as |swing_pct|
    does, also when at_base is 0. An end beyond the search counts with its bound in place."""
    if bar.at_low is None or bar.at_high is None:
        return (1, 0)
    return (0, -abs(bar.at_high - bar.at_low))


def swing_text(bar):
    """The swing of a bar, (at_high - at_low) / at_base: '+148.4 %', '0 %'; with one end beyond the search
    a bound, computed with the search's bound in place: '> +X %' (the high end beyond, the base above 0:
    the swing is larger) or '< -X %' (the low end beyond); 'n/a' without a value at an end, with both ends
    or the base beyond, or with a base of 0."""
    at_low, base, at_high = bar.at_low, bar.at_base, bar.at_high
    if at_low is None or at_high is None or base == 0 or "base" in bar.beyond or \
            {"low", "high"} <= bar.beyond:
        return "n/a"
    if at_high == at_low and not bar.beyond:
        return "0 %"
    swing = f"{(at_high - at_low) / base * 100:+.1f} %"
    if not bar.beyond:
        return swing
    # The real high end is above its bound (the swing's numerator larger); the real low end likewise
    # (smaller); dividing by a negative base turns the inequality.
    larger = ("high" in bar.beyond) == (base > 0)
    return f"{'>' if larger else '<'} {swing}"


def load_sensitivity(table, wanted):
    """({metric: [Bar, ...]}, usable rows) for the wanted metrics (None: every one in the file), each sorted
    by swing_key. An end whose metric is empty is beyond the search when its *_beyond column (at_low_beyond,
    at_base_beyond, at_high_beyond; files from before them have none) gives the bound, which then stands in
    for the value; otherwise it has no value (None). Rows without a base value are skipped."""
    table.require(*SENSITIVITY_COLUMNS)
    metrics = list(dict.fromkeys(row["metric"] for _, row in table.rows))
    unknown = [m for m in wanted or [] if m not in metrics]
    if unknown:
        raise UserError(table.path, f"no metric {', '.join(unknown)} (has: {', '.join(metrics)})")
    wanted = wanted or metrics

    def bound(row, column):
        text = row.get(column + "_beyond", "")
        value = to_float(text) if row[column] == "" and text else None
        return value if value is not None and value > 0 else None
    usable = usable_rows(table, ["at_base"], among=[(n, r) for n, r in table.rows if r["metric"] in wanted],
                         beyond=bound)
    rows = usable.rows
    bars = {}
    for line, row in rows:
        values, beyond = [], set()
        for end in ("low", "base", "high"):
            value = table.number(line, row, f"at_{end}")
            if value is None and bound(row, f"at_{end}") is not None:
                value = bound(row, f"at_{end}")
                beyond.add(end)
            values.append(value)
        bars.setdefault(row["metric"], []).append(
            Bar(row["parameter"], row["low"], row["high"], *values, beyond))
    for metric in wanted:
        if metric not in bars:
            note(table.path, f"{metric}: no row with a base value: not drawn")
    return {m: sorted(bars[m], key=swing_key) for m in wanted if m in bars}, usable


def end_text(text, value, is_beyond):
    """The label at a bar's end: its input value; '1: > 262144' beyond the search; '1: no value'."""
    if value is None:
        return f"{short(text)}: no value"
    return f"{short(text)}: {beyond_text(value)}" if is_beyond else short(text)


def tornado_figure(metric, bars, footer, notes=(), logx=False, names=None):
    """The tornado of one metric; logx: a logarithmic metric axis, which needs every value above 0 (else
    the axis stays linear and a note says why); names: the Names of the parameters (Names() when None)."""
    names = names or Names()
    notes = list(notes)
    # A compound assumption's inputs one a line, each named as sweep figures name it: its bar gets the
    # height of its label.
    labels = [" +\n".join(names.label(p) for p in bar.parameter.split("+")) for bar in bars]
    heights = [max(1.0, 0.45 * (label.count("\n") + 1) + 0.3) for label in labels]
    centres, top = [], 0.0
    for h in heights:  # the largest swing on top
        centres.append(-(top + h / 2))
        top += h
    fig, ax = plt.subplots(figsize=(10, 2.2 + 0.5 * top))
    base = bars[0].at_base
    base_beyond = "base" in bars[0].beyond
    values = [base] + [v for b in bars for v in (b.at_low, b.at_high) if v is not None]
    if logx and min(values) <= 0:
        logx = False
        notes.append(f"Linear metric axis (--logx asked for): {names.title(metric)} has a value ≤ 0")
    # Distances along a logarithmic axis are those of the logarithms.
    scale, unscale = (math.log10, lambda v: 10 ** v) if logx else (float, float)
    low_x, high_x = scale(min(values)), scale(max(values))
    bounds = [base] if base_beyond else []
    for y, bar in zip(centres, bars):
        at_low, at_high = bar.at_low, bar.at_high
        ends = [(at_low, bar.low, LOW_COLOUR, "low" in bar.beyond),
                (at_high, bar.high, HIGH_COLOUR, "high" in bar.beyond)]
        # Both ends on the same side of the base (the figure is not monotonic in the input): each its own
        # half of the bar, the low end above, so that neither hides the other.
        same_side = at_low is not None and at_high is not None and (at_low - base) * (at_high - base) > 0
        for k, (value, text, colour, is_beyond) in enumerate(ends):
            dy = (-0.15 if k else 0.15) if same_side else 0
            height = 0.3 if same_side else 0.6
            if value is not None:
                # An end beyond the search: drawn to the bound, hatched, an arrowhead past its end.
                ax.barh(y + dy, value - base, left=base, height=height, color=colour, edgecolor="white",
                        hatch=BEYOND_HATCH if is_beyond else None, zorder=3)
                if is_beyond and value != base:
                    ax.plot([value], [y + dy], marker=">" if value > base else "<", markersize=9,
                            color=colour, markeredgecolor="white", markeredgewidth=0.8, linestyle="none",
                            zorder=3.5, clip_on=False)
                    bounds.append(value)
            # The input value beyond the bar's end, on the side it points to; an end at the base or
            # without a value, on the side away from the other end.
            other = ends[1 - k][0]
            if value is None or value == base:
                right = other < base if other is not None and other != base else k == 1
            else:
                right = value > base
            gap = 4 + (7 if is_beyond and value != base else 0)  # clear of the arrowhead
            ax.annotate(end_text(text, value, is_beyond),
                        xy=(base if value is None else value, y + dy), xytext=(gap if right else -gap, 0),
                        textcoords="offset points", ha="left" if right else "right", va="center",
                        fontsize=8, color=colour, fontweight="bold" if value is not None else "normal",
                        fontstyle="normal" if value is not None else "italic", zorder=4)
        ax.annotate(swing_text(bar), xy=(1, y), xycoords=("axes fraction", "data"), xytext=(6, 0),
                    textcoords="offset points", ha="left", va="center", fontsize=8, color="0.25")
    ax.annotate("swing", xy=(1, 1), xycoords="axes fraction", xytext=(6, 4), textcoords="offset points",
                ha="left", va="bottom", fontsize=8, fontweight="bold", color="0.25")
    ax.axvline(base, color="0.15", linewidth=1.4, linestyle="--" if base_beyond else "-", zorder=5)
    ax.set_yticks(centres, labels, fontsize=8)
    ax.set_ylim(-top, 0)
    # Room beyond the bars for the value labels: the longest at 8 points (a glyph ~0.6 em) on an axis about
    # 6 inches wide, at most a third of it on each side.
    longest = max(len(end_text(text, value, "low" in b.beyond if k == 0 else "high" in b.beyond)) +
                  (2 if k == 0 and "low" in b.beyond or k == 1 and "high" in b.beyond else 0)  # the arrowhead
                  for b in bars for k, (text, value) in enumerate(((b.low, b.at_low), (b.high, b.at_high))))
    share = min(0.3, (6 + 4.8 * longest) / (6 * 72))
    span = high_x - low_x if high_x > low_x else max(abs(scale(base)), 1)
    room = span * share / (1 - 2 * share)
    style_axes(ax, logx=logx)
    ax.set_xlim(unscale(low_x - room), unscale(high_x + room))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: format_number(v)))
    ax.grid(False, axis="y")
    set_labels(fig, ax, f"{names.title(metric)}: how far each assumption moves it", names.label(metric), "")
    # Below the axis label, where no bar or value label can be.
    handles = [Rectangle((0, 0), 1, 1, color=LOW_COLOUR), Rectangle((0, 0), 1, 1, color=HIGH_COLOUR),
               plt.Line2D([], [], color="0.15", linewidth=1.4, linestyle="--" if base_beyond else "-")]
    entries = ["towards the low end", "towards the high end",
               f"base: {beyond_text(base) if base_beyond else format_number(base)}"]
    if bounds:
        handles.append(Rectangle((0, 0), 1, 1, facecolor="0.55", edgecolor="white", hatch=BEYOND_HATCH))
        entries.append(beyond_legend(bounds))
    below = matplotlib.transforms.offset_copy(ax.transAxes, fig=fig, y=-36, units="points")
    ax.legend(handles, entries, loc="upper center", bbox_to_anchor=(0.5, 0), bbox_transform=below, ncol=3,
              fontsize=8, frameon=False)
    finish(fig, footer, notes)
    return fig


def cmd_sensitivity(args):
    path = input_path(args.input, "sensitivity.csv")
    table = Table(path)
    outdir = output_dir(args.out, path)
    bars, usable = load_sensitivity(table, args.metric)
    names = Names.of_sweep(path)  # rsoc writes a sweep.json beside sensitivity.csv too
    for metric, metric_bars in bars.items():
        def this_one(row):
            return row["metric"] == metric
        footer = table.provenance([r for r in usable.rows if this_one(r[1])])
        fig = tornado_figure(metric, metric_bars, footer, [usable.figure_note(this_one)], args.logx, names)
        save(fig, outdir, figure_name("sensitivity", names.file_part(metric)))


# --------------------------------------------------------------------------------------------- main


class Parser(argparse.ArgumentParser):
    """Usage errors as one line, like input errors (argparse would print the whole usage first)."""

    def error(self, message):
        self.exit(2, f"{PROG}: {message} (see {self.prog} --help)\n")


def base_name(text):
    if not text or os.sep in text or text in (".", ".."):
        raise argparse.ArgumentTypeError(f"not a file name without folder: {text!r}")
    return text


def add_out(parser, name=False):
    parser.add_argument("--out", "-o", metavar="OUTDIR",
                        help="folder to write the figures into, created when missing (default: the input's "
                             "folder); refused (exit 2) when it cannot be written")
    if name:
        parser.add_argument("--name", type=base_name, metavar="NAME",
                            help="file name of the figure, without folder or extension (default: from the "
                                 "columns, see above)")


def add_scales(parser, logx, logy, x_what, y_what):
    """--logx/--no-logx and --logy/--no-logy, defaulting to logx and logy (None: no such flag)."""
    for flag, default, what in (("--logx", logx, x_what), ("--logy", logy, y_what)):
        if default is not None:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default,
                                help=f"logarithmic {what} (default: {'on' if default else 'off'})")


def command(commands, name, summary, description, run):
    p = commands.add_parser(name, help=summary,
                            description=textwrap.dedent(description).strip() + "\n\n" + NOTES_HELP.strip(),
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(run=run)
    return p


NOTES_HELP = """
Rows left out (failed points, empty or unusable values) are counted on the figure, with why, and on
stderr. The paths written are printed, one per line."""


def parse_args(argv):
    parser = Parser(prog=PROG, description="Figures (PNG and SVG) from rsoc's CSV results. "
                                           "Run with /usr/bin/python3.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = command(commands, "crossover", "latency and throughput against block count, per functionality", """
        From `rsoc crossover --out DIR`: crossover.csv, and crossover_summary.csv beside it when present.
        For each functionality F writes crossover_F_latency.png/.svg (latency of one request against its
        block count) and crossover_F_throughput.png/.svg, each with software, hardware with
        reconfiguration and hardware with the core cached, and the crossover marked and labelled. When
        the scenario has an energy model (crossover.csv's sw_uj, hw_cold_uj, hw_cached_uj hold values),
        also crossover_F_energy.png/.svg: the energy of one request, the energy crossover marked.
        A crossover the summary leaves empty is "no crossover up to N blocks", N the block count the
        search went to (searched_to_blocks), which the rows may stop well before; when the curves cross
        more than once (crossings) a note says so. The block-count axis gives a block's size (unit_bytes):
        "Blocks (4 KiB each)". The y axis is logarithmic by default (latencies span four decades), the
        block count linear.
        """, cmd_crossover)
    p.add_argument("input", metavar="DIR_OR_CSV", help="folder holding crossover.csv, or the CSV itself")
    p.add_argument("--functionality", "-f", action="append", metavar="NAME",
                   help="only this functionality (repeatable; default: every one in the file)")
    add_scales(p, False, True, "block-count axis", "latency and throughput axis")
    add_out(p)

    p = command(commands, "coupling", "software, extension and IP cores against block count", """
        From coupling.csv (`rsoc reproduce --system desrnd`: OUT/desrnd): for each functionality F writes
        coupling_F.png/.svg: latency, throughput and CPU left against the block count, one line per
        implementation, and below them where one beats another. A crossover is marked where the two
        curves cross as drawn (between two measured sizes, on the panels' scales), labelled where the
        label covers no curve. Block count, latency and throughput are logarithmic by default; the CPU
        share is always linear (0-100 %).
        """, cmd_coupling)
    p.add_argument("input", metavar="DIR_OR_CSV", help="folder holding coupling.csv, or the CSV itself")
    p.add_argument("--functionality", "-f", action="append", metavar="NAME",
                   help="only this functionality (repeatable; default: every one in the file)")
    add_scales(p, True, True, "block-count axis", "latency and throughput axes")
    add_out(p)

    p = command(commands, "sweep", "a metric against one parameter of a sweep", """
        Y against X from a sweep.csv (`rsoc sweep` or `rsoc crossover --param`); with --group, one line
        per value of GROUP. Several rows at one X (another parameter varies) are drawn as dots with their
        mean as the line. Parameters are named by the element they set, as the sweep's scenario (sweep.json
        beside the table) names it: platform.buses.0.clock_mhz is "plb clock (MHz)". Groups whose lines
        coincide are named in a note. Writes sweep_Y_by_X[_per_GROUP].png/.svg, e.g.
        sweep_aes128-crossover_blocks_by_plb-clock_per_slot-count: a metric by its column (dots made
        hyphens), a parameter by its name. A crossover beyond the search (empty, with N in
        F.searched_to_blocks) is drawn at N as a hollow arrow pointing up, "> N: no crossover up to N
        blocks (as far as searched)" in the legend; the line is broken there.
        """, cmd_sweep)
    p.add_argument("input", metavar="SWEEP_CSV")
    p.add_argument("--x", required=True, metavar="COL", help="column on the x axis (usually a parameter)")
    p.add_argument("--y", required=True, metavar="COL", help="column on the y axis (a numeric metric)")
    p.add_argument("--group", metavar="COL", help="one line per value of this column")
    add_scales(p, False, False, "x axis (a numeric X; points at X <= 0 left out)",
               "y axis (points at Y <= 0 left out)")
    add_out(p, name=True)

    p = command(commands, "heatmap", "a metric over a grid of two parameters", """
        Z over the X x Y grid of a sweep.csv, one cell per value pair (the axes are categories: no
        logarithmic scale), each cell with its value; a cell whose point failed says "failed", one without
        a value "n/a", both hatched grey. A crossover beyond the search (empty, with N in
        F.searched_to_blocks) says "> N", hatched pale orange, with a legend entry "> N: no crossover up to
        N blocks (as far as searched)". Parameters are named as by `sweep`. Writes
        heatmap_Z_by_X_and_Y.png/.svg, e.g. heatmap_aes128-crossover_blocks_by_plb-clock_and_slot-count.
        """, cmd_heatmap)
    p.add_argument("input", metavar="SWEEP_CSV")
    p.add_argument("--x", required=True, metavar="COL", help="column along the x axis")
    p.add_argument("--y", required=True, metavar="COL", help="column along the y axis")
    p.add_argument("--z", required=True, metavar="COL", help="numeric column shown as colour")
    add_out(p, name=True)

    p = command(commands, "sensitivity", "how far each assumption moves each metric (tornado)", """
        From sensitivity.csv (`rsoc sensitivity`): for each metric M writes sensitivity_M.png/.svg
        (e.g. sensitivity_aes128-crossover_blocks), one bar per assumption from the metric at its low to
        its high end around the base value, the largest swing on top. Assumptions are named as by `sweep`
        (from the sweep.json beside the table): "plb clock (MHz)". An end beyond the search (at_low empty,
        at_low_beyond N; likewise high and base) is drawn to N, hatched, labelled "VALUE: > N", its swing
        a bound ("> +X %", "< -X %") or "n/a"; an end without a value or bound says "VALUE: no value".
        """, cmd_sensitivity)
    p.add_argument("input", metavar="DIR_OR_CSV", help="folder holding sensitivity.csv, or the CSV itself")
    p.add_argument("--metric", "-m", action="append", metavar="NAME",
                   help="only this metric (repeatable; default: every one in the file)")
    add_scales(p, False, None, "metric axis (a metric with a value <= 0 is drawn linear, with a note)", None)
    add_out(p)

    return parser.parse_args(argv)


def main(argv=None):
    global DRAWN_BY
    args = parse_args(argv)
    DRAWN_BY = " ".join(["tools/plot.py"] + [shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv)])
    try:
        args.run(args)
    except UserError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
