#!/usr/bin/python3
"""Tests of tools/plot.py: runs it on the fixtures beside this file and inspects the images it writes.

Run with /usr/bin/python3 (Debian's matplotlib); CTest runs it as Plot.Figures.
"""

import contextlib
import csv
import html
import importlib.util
import io
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PLOT = os.path.join(HERE, "..", "..", "tools", "plot.py")
FIXTURES = os.path.join(HERE, "fixtures")
SWEEP = os.path.join(FIXTURES, "sweep.csv")
SWEEP_POLICY = os.path.join(FIXTURES, "sweep_policy.csv")
COUPLING = os.path.join(FIXTURES, "coupling.csv")
SENSITIVITY = os.path.join(FIXTURES, "sensitivity.csv")
SENSITIVITY_CROSSOVER = os.path.join(FIXTURES, "sensitivity_crossover.csv")
# From `rsoc crossover --param ... --param ...` and `rsoc sensitivity` on the reference scenario with the bus
# at 1 MHz: crossovers beyond the search (empty, the bound in F.searched_to_blocks or at_*_beyond).
SWEEP_BEYOND = os.path.join(FIXTURES, "sweep_beyond.csv")
SENSITIVITY_BEYOND = os.path.join(FIXTURES, "sensitivity_beyond.csv")
BEYOND_LEGEND = "> 262144: no crossover up to 262144 blocks (as far as searched)"
SENSITIVITY_HEADER = ("parameter,low,high,metric,at_low,at_base,at_high,swing_pct,"
                      "rsoc_version,scenario_sha256,seed")
COUPLING_HEADER = "functionality,implementation,blocks,latency_ms,throughput_kBps,cpu_left_pct"
IMPLEMENTATIONS = ("software", "extension", "core_static", "core_reconfigurable")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(*args):
    # Run through its #!/usr/bin/python3 line, as a user would.
    return subprocess.run([PLOT, *args], capture_output=True, text=True, timeout=120)


def load_plot():
    """tools/plot.py as a module, for the functions behind the figures."""
    spec = importlib.util.spec_from_file_location("plot", PLOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def figures(*argv):
    """Runs a plot.py command in this process and returns {file name: matplotlib figure} for the figures it
    would write, laid out and drawn as they would be saved (nothing is written), and what it said on
    stderr."""
    plot = load_plot()
    drawn = {}

    def keep(fig, outdir, base):
        fig.canvas.draw()
        drawn[base] = fig

    plot.save = keep
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        code = plot.main(list(argv))
    if code != 0:
        raise AssertionError(f"plot.py {' '.join(argv)}: exit code {code}: {stderr.getvalue()}")
    return drawn, stderr.getvalue()


def panel(fig, title):
    return next(ax for ax in fig.axes if ax.get_title() == title)


def curve_pixels(ax):
    """For each data curve of `ax` (a line with a legend label): the pixels its line passes through, one
    every pixel along each segment, and its vertices, with how far from them line and markers paint."""
    for line in ax.get_lines():
        if line.get_label().startswith("_"):
            continue
        xy = line.get_transform().transform(list(zip(line.get_xdata(), line.get_ydata())))
        along = [xy[:1]]
        for p, q in zip(xy[:-1], xy[1:]):
            n = max(2, int(math.dist(p, q)) + 1)
            along.append([(p[0] + (q[0] - p[0]) * k / n, p[1] + (q[1] - p[1]) * k / n) for k in range(n + 1)])
        pixels = ax.figure.dpi / 72
        marker = line.get_marker() not in ("None", "none", "", " ", None)
        yield ([point for run in along for point in run], line.get_linewidth() / 2 * pixels,
               xy, (line.get_markersize() / 2 + line.get_markeredgewidth() / 2) * pixels if marker else 0)


def labels_over_curves(ax):
    """The texts in boxes (labels) of `ax` that cover part of a data curve: its line or a marker."""
    renderer = ax.figure.canvas.get_renderer()
    found = []
    for text in ax.texts:
        patch = text.get_bbox_patch()
        if patch is None or not text.get_visible():
            continue
        box = patch.get_window_extent(renderer)

        def hit(points, reach):
            return any(box.x0 - reach <= x <= box.x1 + reach and box.y0 - reach <= y <= box.y1 + reach
                       for x, y in points)
        for points, width, vertices, radius in curve_pixels(ax):
            if hit(points, width) or (radius and hit(vertices, radius)):
                found.append(text.get_text())
    return found


def write_sweep_json(folder, overrides=()):
    """A sweep.json in `folder` as rsoc writes it: the fixture's (the reference scenario) with `overrides`."""
    with open(os.path.join(FIXTURES, "sweep.json"), encoding="utf-8") as f:
        sweep = json.load(f)
    sweep["overrides"] = list(overrides)
    with open(os.path.join(folder, "sweep.json"), "w", encoding="utf-8") as f:
        json.dump(sweep, f)


def crowded_tick_labels(fig):
    """The neighbouring tick labels (shown, inside the view) of any axis of `fig` whose texts overlap, as
    (text, text) pairs. A label is the rectangle of its text turned by its rotation: its upright size is
    measured from a copy of it, its centre is that of its drawn extent."""
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        if not ax.axison:
            continue
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            locs = axis.get_majorticklocs()
            labels = [tick.label1 for loc, tick in zip(locs, axis.get_major_ticks(len(locs)))
                      if low <= loc <= high and tick.label1.get_visible() and tick.label1.get_text()]
            rects = []
            for label in labels:
                probe = fig.text(0, 0, label.get_text(), fontproperties=label.get_fontproperties())
                upright = probe.get_window_extent(renderer)
                probe.remove()
                box = label.get_window_extent(renderer)
                angle = math.radians(label.get_rotation())
                rects.append(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2, upright.width, upright.height,
                               angle, label.get_text()))
            rects.sort(key=lambda r: r[0] if axis is ax.xaxis else r[1])
            for a, b in zip(rects[:-1], rects[1:]):
                # Two rectangles turned alike overlap when they do along both of their own directions.
                u, v = (math.cos(a[4]), math.sin(a[4])), (-math.sin(a[4]), math.cos(a[4]))
                dx, dy = b[0] - a[0], b[1] - a[1]
                along, across = abs(dx * u[0] + dy * u[1]), abs(dx * v[0] + dy * v[1])
                if along < (a[2] + b[2]) / 2 and across < (a[3] + b[3]) / 2:
                    found.append((a[5], b[5]))
    return found


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def svg_texts(path):
    """The strings of the <text> elements of an SVG, in drawing order (svg.fonttype none keeps text)."""
    with open(path, encoding="utf-8") as f:
        return [html.unescape(t) for t in re.findall(r"<text\b[^>]*>([^<]*)</text>", f.read())]


class PlotTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="plot_test_")
        self.addCleanup(shutil.rmtree, self.tmp)

    def plot(self, *args):
        """Runs plot.py, expects success; returns the paths it printed, after checking the images."""
        result = run(*args)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        paths = result.stdout.split()
        for path in paths:
            self.assertTrue(os.path.isfile(path), path)
            if path.endswith(".png"):
                with open(path, "rb") as f:
                    self.assertEqual(f.read(8), PNG_SIGNATURE, path)
                self.assertGreater(os.path.getsize(path), 20_000, path)
            else:
                self.assertTrue(path.endswith(".svg"), path)
        # Images are written under temporary names and renamed: none may be left behind.
        for folder in {os.path.dirname(p) for p in paths}:
            self.assertEqual([n for n in os.listdir(folder) if n.endswith(".tmp")], [])
        self.last = result
        return paths

    def expect_error(self, args, message):
        """plot.py fails with exit code 2 and exactly one line on stderr, which starts with `message`."""
        result = run(*args, "--out", self.tmp)  # should anything be written, it goes nowhere it matters
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith(message), f"{lines[0]!r} does not start with {message!r}")
        self.assertEqual(result.stdout, "")
        return lines[0]

    # ------------------------------------------------------------------------------------ crossover

    def test_crossover_figures_for_every_functionality(self):
        paths = self.plot("crossover", FIXTURES, "--out", self.tmp)
        expected = [os.path.join(self.tmp, f"crossover_{f}_{kind}.{ext}") for f in ("aes128", "des")
                    for kind in ("latency", "throughput") for ext in ("png", "svg")]
        self.assertEqual(sorted(paths), sorted(expected))

        for f, crossover in (("aes128", 40), ("des", 80)):
            label = f"crossover: {crossover} blocks (estimate {crossover})"
            latency = svg_texts(os.path.join(self.tmp, f"crossover_{f}_latency.svg"))
            throughput = svg_texts(os.path.join(self.tmp, f"crossover_{f}_throughput.svg"))
            for texts in (latency, throughput):
                self.assertIn("Blocks", texts)
                self.assertIn(label, texts)
                for series in ("software", "hardware with reconfiguration", "hardware, core cached"):
                    self.assertIn(series, texts)
            self.assertIn("Latency (ms)", latency)
            self.assertIn("Throughput (kB/s)", throughput)
            self.assertIn(f"{f}: latency of one request", latency)

    def test_crossover_default_output_is_the_input_folder_and_csv_path_accepted(self):
        shutil.copy(os.path.join(FIXTURES, "crossover.csv"), self.tmp)
        shutil.copy(os.path.join(FIXTURES, "crossover_summary.csv"), self.tmp)
        paths = self.plot("crossover", os.path.join(self.tmp, "crossover.csv"), "--functionality", "des")
        names = sorted(os.path.basename(p) for p in paths)
        self.assertEqual(names, ["crossover_des_latency.png", "crossover_des_latency.svg",
                                 "crossover_des_throughput.png", "crossover_des_throughput.svg"])
        self.assertTrue(all(os.path.dirname(p) == self.tmp for p in paths))

    def test_the_folder_lists_the_figures_drawn_into_it_and_the_commands(self):
        # rsoc replaces a result holding only these figures (tests/cli: CliOutput.AReRun...).
        shutil.copy(os.path.join(FIXTURES, "crossover.csv"), self.tmp)
        first = self.plot("crossover", self.tmp, "-f", "aes128")
        second = self.plot("crossover", self.tmp, "-f", "des", "--logx")
        with open(os.path.join(self.tmp, ".rsoc-plots")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[:2], [f"# drawn by: tools/plot.py crossover {self.tmp} -f aes128",
                                     f"# drawn by: tools/plot.py crossover {self.tmp} -f des --logx"])
        self.assertEqual(sorted(lines[2:]), sorted(os.path.basename(p) for p in first + second))
        # Drawn again: listed once.
        self.plot("crossover", self.tmp, "-f", "aes128")
        with open(os.path.join(self.tmp, ".rsoc-plots")) as f:
            self.assertEqual(f.read().splitlines(), lines)

    def test_crossover_without_summary_is_computed_from_the_rows(self):
        shutil.copy(os.path.join(FIXTURES, "crossover.csv"), self.tmp)
        self.plot("crossover", self.tmp, "-f", "aes128")
        texts = svg_texts(os.path.join(self.tmp, "crossover_aes128_latency.svg"))
        self.assertIn("crossover: 40 blocks", texts)
        self.assertFalse(any("estimate" in t for t in texts))

    def test_crossover_of_one_block_is_singular(self):
        header = "functionality,blocks,sw_ms,hw_cold_ms,hw_cached_ms,sw_kBps,hw_cold_kBps,hw_cached_kBps\n"
        wins = os.path.join(self.tmp, "wins")
        loses = os.path.join(self.tmp, "loses")
        for folder, hw_cold in ((wins, 2.0), (loses, 9.0)):
            os.mkdir(folder)
            with open(os.path.join(folder, "crossover.csv"), "w") as f:
                # Hardware from the first block on, or never up to the only one measured.
                f.write(header + f"aes128,1,3.8,{hw_cold},0.04,4.2,0.1,435\n")
        with open(os.path.join(wins, "crossover_summary.csv"), "w") as f:
            f.write("functionality,crossover_blocks,analytic_crossover_blocks\naes128,1,1\n")
        for folder, label in ((wins, "crossover: 1 block (estimate 1)"),
                              (loses, "no crossover up to 1 block")):
            self.plot("crossover", folder)
            for name in os.listdir(folder):
                if name.endswith(".svg"):
                    self.assertIn(label, svg_texts(os.path.join(folder, name)), name)
        plot = load_plot()
        self.assertEqual([plot.count(n, "block") for n in (0, 1, 1.0, 2, 2.5)],
                         ["0 blocks", "1 block", "1 block", "2 blocks", "2.5 blocks"])

    def test_crossover_energy_figure_when_the_file_has_energy(self):
        header = ("functionality,blocks,unit_bytes,sw_ms,hw_cold_ms,hw_cached_ms,sw_kBps,hw_cold_kBps,"
                  "hw_cached_kBps,sw_uj,hw_cold_uj,hw_cached_uj\n")
        rows = "".join(f"aes128,{b},4096,{13.2 * b},{150 + 9.4 * b},{9.4 * b},310,{4096 * b / (150 + 9.4 * b)},435,"
                       f"{13300 * b},{140000 + 9500 * b},{9500 * b}\n" for b in range(1, 61))
        energy = os.path.join(self.tmp, "energy")
        os.mkdir(energy)
        with open(os.path.join(energy, "crossover.csv"), "w") as f:
            f.write(header + rows)
        # Without a summary the energy crossover comes from the rows: 140 mJ + 9.5 mJ/block < 13.3 mJ/block
        # from 37 blocks on; the latency's, 150 + 9.4 b < 13.2 b, from 40.
        paths = self.plot("crossover", energy)
        self.assertEqual(sorted(os.path.basename(p) for p in paths),
                         sorted(f"crossover_aes128_{k}.{e}" for k in ("latency", "throughput", "energy")
                                for e in ("png", "svg")))
        texts = svg_texts(os.path.join(energy, "crossover_aes128_energy.svg"))
        self.assertIn("energy crossover: 37 blocks", texts)
        self.assertIn("Energy (mJ)", texts)  # up to 798 mJ: drawn in mJ
        self.assertIn("aes128: energy of one request", texts)
        self.assertIn("crossover: 40 blocks", svg_texts(os.path.join(energy, "crossover_aes128_latency.svg")))
        # The summary's energy crossover is the one marked.
        with open(os.path.join(energy, "crossover_summary.csv"), "w") as f:
            f.write("functionality,crossover_blocks,analytic_crossover_blocks,energy_crossover_blocks\n"
                    "aes128,40,40,38\n")
        self.plot("crossover", energy)
        self.assertIn("energy crossover: 38 blocks", svg_texts(os.path.join(energy, "crossover_aes128_energy.svg")))
        # A scenario without an energy model leaves the columns empty: no energy figure.
        off = os.path.join(self.tmp, "off")
        os.mkdir(off)
        with open(os.path.join(off, "crossover.csv"), "w") as f:
            f.write(header + "".join(",".join(r.split(",")[:9]) + ",,,\n" for r in rows.splitlines()))
        self.assertFalse(any("energy" in p for p in self.plot("crossover", off)))
        # Energy in some rows only: the first empty cell is named.
        with open(os.path.join(off, "crossover.csv"), "w") as f:
            f.write(header + rows.splitlines()[0] + "\n" + ",".join(rows.splitlines()[1].split(",")[:9]) + ",,,\n")
        self.expect_error(["crossover", off], f"plot.py: {os.path.join(off, 'crossover.csv')}: line 3: sw_uj is empty")

    def test_crossover_beyond_the_search_several_crossings_and_block_size(self):
        # The summary says how far the search went: des has no crossover up to 262144 blocks, far beyond the
        # 20 rows drawn; aes128's curves cross 9 times. crossover.csv gives the block sizes.
        header = ("functionality,blocks,unit_bytes,sw_ms,hw_cold_ms,hw_cached_ms,sw_kBps,hw_cold_kBps,"
                  "hw_cached_kBps,sw_uj,hw_cold_uj,hw_cached_uj\n")
        rows = "".join(f"{f},{b},{unit},{3.8 * b},{150 + 3.7 * b},{0.04 * b},4.2,"
                       f"{unit / 1000 * b / (150 + 3.7 * b)},435,{3800 * b},{150000 + 3700 * b},{40 * b}\n"
                       for f, unit in (("aes128", 4096), ("des", 8)) for b in range(1, 21))
        # sha256's block size differs between rows: no size on its axis.
        rows += "".join(f"sha256,{b},{64 * b},{3.8 * b},{150 + 3.7 * b},{0.04 * b},4.2,0.1,435,1,2,3\n"
                        for b in (1, 2))
        folder = os.path.join(self.tmp, "beyond")
        os.mkdir(folder)
        with open(os.path.join(folder, "crossover.csv"), "w") as f:
            f.write(header + rows)
        with open(os.path.join(folder, "crossover_summary.csv"), "w") as f:
            f.write("functionality,crossover_blocks,analytic_crossover_blocks,energy_crossover_blocks,"
                    "searched_to_blocks,crossings,rsoc_version,scenario_sha256,seed\n"
                    "aes128,41,40,,100,9,0.1.0,abc,2008\n"
                    "des,,,,262144,0,0.1.0,abc,2008\n"
                    "sha256,,,,45,1,0.1.0,abc,2008\n")
        self.plot("crossover", folder)

        def texts(f, kind):
            return svg_texts(os.path.join(folder, f"crossover_{f}_{kind}.svg"))
        crossings = ("Software and hardware with reconfiguration cross 9 times among the block counts "
                     "simulated; the crossover shown is the first")
        for kind in ("latency", "throughput"):
            # Up to the bound searched, not to the last row drawn (20 blocks).
            self.assertIn("no crossover up to 262144 blocks (estimate > 262144)", texts("des", kind))
            self.assertIn("crossover: 41 blocks (estimate 40)", texts("aes128", kind))
            # The note, wrapped to the figure's width, on aes128's figures only (des: 0 crossings, sha256: 1).
            self.assertIn(crossings, " ".join(texts("aes128", kind)))  # wrapped: a text a line
            for f in ("des", "sha256"):
                self.assertNotIn(" times among", " ".join(texts(f, kind)), (f, kind))
        self.assertIn("no energy crossover up to 262144 blocks", texts("des", "energy"))
        self.assertIn("no energy crossover up to 100 blocks", texts("aes128", "energy"))
        self.assertNotIn(" times among", " ".join(texts("aes128", "energy")))
        # The block-count axis says the size of a block.
        for f, label in (("aes128", "Blocks (4 KiB each)"), ("des", "Blocks (8 bytes each)"),
                         ("sha256", "Blocks")):
            for kind in ("latency", "throughput", "energy"):
                self.assertIn(label, texts(f, kind), (f, kind))
        plot = load_plot()
        self.assertEqual([plot.size_text(n) for n in (4096, 16, 1, 1 << 20, 1536)],
                         ["4 KiB", "16 bytes", "1 byte", "1 MiB", "1536 bytes"])
        # A summary from before searched_to_blocks and crossings: as before, up to the last row drawn.
        with open(os.path.join(folder, "crossover_summary.csv"), "w") as f:
            f.write("functionality,crossover_blocks,analytic_crossover_blocks\n"
                    "aes128,41,40\ndes,,\nsha256,,\n")
        self.plot("crossover", folder, "-f", "des", "-f", "aes128")
        self.assertIn("no crossover up to 20 blocks", texts("des", "latency"))
        self.assertNotIn(" times among", " ".join(texts("aes128", "latency")))

    def test_crossover_errors(self):
        missing = os.path.join(self.tmp, "nothing")
        self.expect_error(["crossover", missing], f"plot.py: {missing}: no such file")
        os.mkdir(missing)
        csv_path = os.path.join(missing, "crossover.csv")
        self.expect_error(["crossover", missing], f"plot.py: {csv_path}: no such file")
        self.expect_error(["crossover", FIXTURES, "-f", "3des"],
                          f"plot.py: {os.path.join(FIXTURES, 'crossover.csv')}: no functionality 3des "
                          "(has: aes128, des)")
        line = self.expect_error(["crossover", SWEEP], f"plot.py: {SWEEP}: no columns functionality, blocks")
        self.assertIn("(columns: point, status, error, platform.slots.0.count", line)

    # ------------------------------------------------------------------------------------- coupling

    def test_coupling_figures_for_every_functionality(self):
        paths = self.plot("coupling", FIXTURES, "--out", self.tmp)
        expected = [os.path.join(self.tmp, f"coupling_{f}.{ext}")
                    for f in ("3des", "des") for ext in ("png", "svg")]
        self.assertEqual(sorted(paths), sorted(expected))
        # The fixture's last row (des, core_reconfigurable, 4096 blocks) has no latency.
        self.assertEqual(self.last.stderr,
                         f"plot.py: {COUPLING}: skipped 1 of 53 rows: 1 with an empty latency_ms\n")

        crossovers = {
            # Where the curves cross between two measured sizes (test_coupling_crossover_is_where_the_curves_
            # cross checks the numbers).
            "3des": ["extension beats software always (1–4096 blocks)",
                     "core_static beats software always (1–4096 blocks)",
                     "core_reconfigurable beats software from ≈ 217 blocks (between 64 and 256)",
                     "core_static beats extension from ≈ 18 blocks (between 16 and 64)",
                     "core_reconfigurable beats extension never (up to 4096 blocks)"],
            # Without the skipped row, des stops at 1024 blocks, where the reconfigured core just wins.
            "des": ["extension beats software always (1–1024 blocks)",
                    "core_static beats software always (1–1024 blocks)",
                    "core_reconfigurable beats software from ≈ 1002 blocks (between 256 and 1024)",
                    "core_static beats extension never (up to 1024 blocks)",
                    "core_reconfigurable beats extension never (up to 1024 blocks)"],
        }
        for f, lines in crossovers.items():
            texts = svg_texts(os.path.join(self.tmp, f"coupling_{f}.svg"))
            # The skipped row on the figure it is missing from, not on the other.
            self.assertEqual([t for t in texts if t.startswith("Not shown")],
                             ["Not shown: 1 of 25 rows: 1 with an empty latency_ms"] if f == "des" else [])
            self.assertIn(f"{f}: latency, throughput and free CPU against request size", texts)
            for text in ("Latency (ms)", "Throughput (kB/s)", "CPU left (% of the request's duration)",
                         "Latency of one request", "Throughput of one request",
                         "CPU left for other processes",
                         "Implementation", "rsoc 0.1.0 · scenario 7d3f1c9a0e5b · seed 2008"):
                self.assertIn(text, texts)
            self.assertEqual(texts.count("Request size (64-bit blocks)"), 3)
            # One shared legend, in the file's order.
            legend = [next(t for t in texts if t.startswith(f"{name}: ")) for name in IMPLEMENTATIONS]
            self.assertEqual(sorted(legend, key=texts.index), legend)
            # The crossover lines, in pair order: software against the others, then the extension against
            # the cores.
            self.assertTrue(any(texts[i:i + len(lines)] == lines for i in range(len(texts))), texts)
        # The crossovers' labels on the latency and throughput panels.
        texts = svg_texts(os.path.join(self.tmp, "coupling_3des.svg"))
        self.assertEqual((texts.count("≈ 217"), texts.count("≈ 18"), texts.count("256")), (2, 2, 3))

    def test_coupling_functionality_option_and_csv_path(self):
        shutil.copy(COUPLING, self.tmp)
        paths = self.plot("coupling", os.path.join(self.tmp, "coupling.csv"), "--functionality", "des")
        self.assertEqual(sorted(os.path.basename(p) for p in paths), ["coupling_des.png", "coupling_des.svg"])
        self.assertTrue(all(os.path.dirname(p) == self.tmp for p in paths))
        self.assertEqual(sorted(n for n in os.listdir(self.tmp) if n.startswith("coupling_")),
                         ["coupling_des.png", "coupling_des.svg"])

    def test_coupling_skips_unusable_rows_and_averages_repeated_ones(self):
        path = os.path.join(self.tmp, "coupling.csv")
        with open(COUPLING, encoding="utf-8") as f:
            fixture = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(fixture)
            f.write("des,software,64,n/a,1775,0,20,0.1.0,x,2008\n"
                    "des,software,0,0.0004,0,0,20,0.1.0,x,2008\n"
                    "des,core_static,64,0.034,15058.8,150,20,0.1.0,x,2008\n"
                    "des,core_static,64,0.036,14222.2,88,20,0.1.0,x,2008\n")
        self.plot("coupling", path, "-f", "des", "--out", self.tmp)
        self.assertEqual(self.last.stderr.splitlines(), [
            f"plot.py: {path}: skipped 4 of 29 rows: 1 with an empty latency_ms, 1 with a non-numeric "
            "latency_ms, 1 with blocks not a whole number ≥ 1, 1 with cpu_left_pct outside 0–100",
            f"plot.py: {path}: 1 point with several rows: plotting their mean"])

    def test_coupling_crossover_rule(self):
        plot = load_plot()

        def series(blocks, latency):
            return {"blocks": blocks, "latency_ms": latency}

        base = series([1, 4, 16, 64, 256], [1, 4, 16, 64, 256])
        # (kind, at, first, last, before): before is the count measured just below `at`.
        self.assertEqual(plot.beats_from(base, series([1, 4, 16, 64, 256], [0.5, 2, 8, 32, 128])),
                         ("always", 1, 1, 256, None))
        self.assertEqual(plot.beats_from(base, series([1, 4, 16, 64, 256], [9, 9, 17, 90, 300])),
                         ("never", 256, 1, 256, None))
        # Ahead at 4, behind at 16: the crossover is where it stays ahead. Equal latency counts as ahead.
        self.assertEqual(plot.beats_from(base, series([1, 4, 16, 64, 256], [9, 3, 20, 64, 100])),
                         ("from", 64, 1, 256, 16))
        # Only the block counts both have are compared.
        self.assertEqual(plot.beats_from(base, series([4, 8, 64, 1024], [5, 1, 60, 1])),
                         ("from", 64, 4, 64, 4))
        self.assertIsNone(plot.beats_from(base, series([2, 8], [0.1, 0.1])))
        self.assertEqual(plot.beats_text("core_static", "software", plot.Beats("always", 4, 4, 64)),
                         "core_static beats software always (4–64 blocks)")
        self.assertEqual(plot.beats_text("core_static", "software", plot.Beats("always", 1, 1, 1)),
                         "core_static beats software always (1 block)")
        self.assertEqual(plot.beats_text("core_static", "software", plot.Beats("never", 1, 1, 1)),
                         "core_static beats software never (up to 1 block)")
        self.assertEqual(plot.beats_text("core_static", "software", plot.Beats("from", 64, 1, 256, 16), 40.4),
                         "core_static beats software from ≈ 40 blocks (between 16 and 64)")

        # The crossing as drawn: straight between the samples on the axes' scales. Behind by a factor of 4
        # at 16, ahead by a factor of 4 at 64: on log-log axes half way, at 32 blocks; on linear ones where
        # 64 - 16 (behind by 48) and 16 - 64 (ahead by 48) meet, at 40 blocks.
        result = plot.Beats("from", 64, 16, 64, 16)
        challenger = series([16, 64], [64, 16])
        base = series([16, 64], [16, 64])
        self.assertAlmostEqual(plot.crossing(base, challenger, result, "latency_ms", True, True)[0], 32)
        self.assertAlmostEqual(plot.crossing(base, challenger, result, "latency_ms", False, False)[0], 40)
        self.assertEqual(plot.crossing(base, challenger, result, "latency_ms", False, False)[1], 40)

        self.assertEqual(plot.coupling_pairs(list(IMPLEMENTATIONS)), [
            ("software", "extension"), ("software", "core_static"), ("software", "core_reconfigurable"),
            ("extension", "core_static"), ("extension", "core_reconfigurable")])
        self.assertEqual(plot.coupling_pairs(["core_static", "extension", "gpu"]),
                         [("extension", "core_static"), ("extension", "gpu")])
        self.assertEqual(plot.coupling_pairs(["a", "b", "c"]), [("a", "b"), ("a", "c")])

    def test_coupling_crossover_is_where_the_curves_cross(self):
        # 3des: the reconfigurable core is behind software at 64 blocks and ahead at 256. The crossover is
        # marked where the two straight segments between those samples meet on the log-log latency panel,
        # not at the first sample past it.
        latency = {(row["implementation"], int(row["blocks"])): float(row["latency_ms"])
                   for row in read_rows(COUPLING) if row["functionality"] == "3des"}
        gap = [math.log(latency["core_reconfigurable", b] / latency["software", b]) for b in (64, 256)]
        expected = math.exp(math.log(64) + gap[0] / (gap[0] - gap[1]) * math.log(256 / 64))
        self.assertTrue(64 < expected < 256)
        self.assertEqual(round(expected), 217)
        drawn, _ = figures("coupling", FIXTURES, "-f", "3des")
        fig = drawn["coupling_3des"]
        for title in ("Latency of one request", "Throughput of one request"):
            ax = panel(fig, title)
            marks = [line.get_xdata()[0] for line in ax.get_lines()
                     if len(line.get_xdata()) == 2 and line.get_xdata()[0] == line.get_xdata()[1]
                     and line.get_color() == "tab:orange"]
            self.assertEqual(len(marks), 1, title)
            self.assertAlmostEqual(marks[0], expected, delta=1e-6 * expected)
            # Both curves as drawn pass through one point there.
            curves = {line.get_label().split(":")[0]: line for line in ax.get_lines()
                      if not line.get_label().startswith("_")}
            at = [10 ** float(np.interp(math.log10(marks[0]), np.log10(curves[name].get_xdata()),
                                        np.log10(curves[name].get_ydata())))
                  for name in ("software", "core_reconfigurable")]
            self.assertAlmostEqual(at[0] / at[1], 1, places=9)
            self.assertIn("≈ 217", [t.get_text() for t in ax.texts])

    def test_coupling_crossover_labels_cover_no_curve(self):
        # The extension runs flat along the foot of the latency panel, where a crossover label would go
        # first: the label moves up its line, clear of every curve and marker.
        path = os.path.join(self.tmp, "coupling.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write(COUPLING_HEADER + "\n")
            for blocks in (1, 4, 16, 64, 256, 1024, 4096):
                for name, ms in (("software", 0.02 * blocks), ("extension", 0.001),
                                 ("core_reconfigurable", 4 + 0.0005 * blocks)):
                    cpu_left = 99 if name == "core_reconfigurable" else 0
                    f.write(f"des,{name},{blocks},{ms},{8 * blocks / ms},{cpu_left}\n")
        drawn, _ = figures("coupling", path)
        fig = drawn["coupling_des"]
        for title in ("Latency of one request", "Throughput of one request"):
            ax = panel(fig, title)
            self.assertTrue([t for t in ax.texts if t.get_bbox_patch() is not None], title)  # labelled
            self.assertEqual(labels_over_curves(ax), [], title)

    def test_coupling_errors(self):
        missing = os.path.join(self.tmp, "nothing")
        os.mkdir(missing)
        csv_path = os.path.join(missing, "coupling.csv")
        self.expect_error(["coupling", missing], f"plot.py: {csv_path}: no such file")
        self.expect_error(["coupling", FIXTURES, "-f", "aes128"],
                          f"plot.py: {COUPLING}: no functionality aes128 (has: 3des, des)")
        no_cpu = os.path.join(self.tmp, "no_cpu.csv")
        with open(no_cpu, "w") as f:
            f.write(COUPLING_HEADER.rsplit(",", 1)[0] + "\ndes,software,1,0.0049,1632\n")
        self.expect_error(["coupling", no_cpu],
                          f"plot.py: {no_cpu}: no column cpu_left_pct (columns: functionality, "
                          "implementation, blocks, latency_ms, throughput_kBps)")
        empty = os.path.join(self.tmp, "empty.csv")
        with open(empty, "w") as f:
            f.write(f"{COUPLING_HEADER}\ndes,software,1,,,0\ndes,software,4,0.0184,1739,x\n")
        self.expect_error(["coupling", empty],
                          f"plot.py: {empty}: no rows to plot (2 rows: 1 with an empty latency_ms, "
                          "1 with a non-numeric cpu_left_pct)")
        self.assertEqual(sorted(os.listdir(self.tmp)), ["empty.csv", "no_cpu.csv", "nothing"])

    # ---------------------------------------------------------------------------------------- sweep

    def test_sweep_skips_the_failed_row(self):
        paths = self.plot("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz",
                          "--y", "aes128.latency_mean_ms", "--group", "platform.slots.0.count",
                          "--out", self.tmp, "--name", "latency")
        self.assertEqual(sorted(paths), [os.path.join(self.tmp, "latency.png"),
                                         os.path.join(self.tmp, "latency.svg")])
        self.assertEqual(self.last.stderr, f"plot.py: {SWEEP}: skipped 1 of 12 points: 1 failed\n")
        texts = svg_texts(os.path.join(self.tmp, "latency.svg"))
        # The figure says so too, not only stderr.
        self.assertIn("Not shown: 1 of 12 points: 1 failed", texts)
        for text in ("plb clock (MHz)", "aes128 latency mean (ms)", "slot count",
                     "aes128 latency mean against plb clock, per slot count",
                     "1", "2", "3", "4", "50", "100", "200"):
            self.assertIn(text, texts)

    def test_sweep_points_beyond_the_search_are_drawn_at_their_bound(self):
        drawn, stderr = figures("sweep", SWEEP_BEYOND, "--x", "platform.buses.plb.clock_mhz",
                                "--y", "aes128.crossover_blocks", "--group", "platform.slots.0.count",
                                "--logy")
        # Only the failed point and the one without a value or a bound are left out.
        reasons = "2 of 8 points: 1 failed, 1 with an empty aes128.crossover_blocks"
        self.assertEqual(stderr, f"plot.py: {SWEEP_BEYOND}: skipped {reasons}\n")
        (fig,) = drawn.values()
        ax = fig.axes[0]
        arrow = load_plot().BEYOND_MARKER.vertices
        lines = {line.get_label(): line for line in ax.get_lines() if not line.get_label().startswith("_")}
        beyond = [line for line in ax.get_lines()
                  if np.array_equal(getattr(line.get_marker(), "vertices", None), arrow)]
        self.assertEqual(len(beyond), 2)  # one per slot count, at 1 MHz
        for group, line in zip(("1", "2"), beyond):
            self.assertEqual(list(line.get_xdata()), [1])
            self.assertEqual(list(line.get_ydata()), [262144])
            self.assertEqual(line.get_linestyle(), "None")
            self.assertEqual(line.get_markerfacecolor(), "none")  # hollow, in the line's colour
            self.assertEqual(line.get_markeredgecolor(), lines[group].get_color())
            # The group's line is broken there: no value at 1 MHz.
            ys = dict(zip(lines[group].get_xdata(), lines[group].get_ydata()))
            self.assertTrue(math.isnan(ys[1]), ys)
            self.assertEqual(ys[2], 7009)
        self.assertEqual(ax.get_yscale(), "log")
        low, high = ax.get_ylim()
        self.assertTrue(low < 43 and 262144 < high, (low, high))
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertEqual(legend, ["1", "2", BEYOND_LEGEND])
        self.assertIn(f"Not shown: {reasons}", [t.get_text().replace("\n", " ") for t in fig.texts])
        # In the SVG too, without --group: the legend entry, the points not shown.
        self.plot("sweep", SWEEP_BEYOND, "--x", "platform.buses.plb.clock_mhz", "--y", "des.crossover_blocks",
                  "--out", self.tmp, "--name", "des")
        texts = svg_texts(os.path.join(self.tmp, "des.svg"))
        self.assertIn(BEYOND_LEGEND, texts)
        self.assertIn("Not shown: 1 of 8 points: 1 failed", texts)

    def test_sweep_rate_metric_is_per_second(self):
        # requests_per_s: "_per_s" is a rate, not a duration ("_s").
        self.plot("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz", "--y", "requests_per_s",
                  "--group", "platform.slots.0.count", "--out", self.tmp, "--name", "rate")
        texts = svg_texts(os.path.join(self.tmp, "rate.svg"))
        self.assertIn("Requests (1/s)", texts)
        self.assertIn("Requests against plb clock, per slot count", texts)

    def test_sweep_counts_rows_with_an_empty_metric(self):
        self.plot("sweep", SWEEP, "--x", "platform.slots.0.count", "--y", "aes128.crossover_blocks",
                  "--group", "platform.buses.0.clock_mhz", "--out", self.tmp)
        self.assertEqual(self.last.stderr, f"plot.py: {SWEEP}: skipped 2 of 12 points: 1 failed, "
                                           "1 with an empty aes128.crossover_blocks\n")
        name = "sweep_aes128-crossover_blocks_by_slot-count_per_plb-clock.svg"
        texts = svg_texts(os.path.join(self.tmp, name))
        self.assertIn("aes128 crossover (blocks)", texts)
        self.assertIn("Not shown: 2 of 12 points: 1 failed, 1 with an empty aes128.crossover_blocks", texts)

    def test_sweep_string_x_is_categorical_in_first_appearance_order(self):
        self.plot("sweep", SWEEP_POLICY, "--x", "runtime.policy", "--y", "aes128.throughput_kBps",
                  "--group", "platform.slots.0.count", "--out", self.tmp, "--name", "policy")
        self.assertEqual(self.last.stderr, "")
        texts = svg_texts(os.path.join(self.tmp, "policy.svg"))
        self.assertIn("aes128 throughput (kB/s)", texts)
        self.assertFalse([t for t in texts if t.startswith("Not shown")], texts)  # nothing was left out
        ticks = [t for t in texts if t in ("software", "hardware", "cost_model", "adaptive")]
        self.assertEqual(ticks, ["software", "hardware", "cost_model", "adaptive"])

    def test_parameters_named_by_the_scenario_elements(self):
        plot = load_plot()
        names = plot.Names.of_sweep(SWEEP)  # fixtures/sweep.json, the reference scenario
        cases = {
            "platform.buses.0.clock_mhz": "plb clock (MHz)",
            "/platform/buses/0/clock_mhz": "plb clock (MHz)",  # a JSON pointer names it too
            "platform.buses.plb.clock_mhz": "plb clock (MHz)",  # an element by its name, as rsoc takes it
            "workload.background.kernel_daemon.busy_us": "kernel_daemon busy (µs)",
            "platform.slots.0.count": "slot count",
            "platform.cores.1.bitstream.size_kib": "des_core bitstream size (KiB)",
            "platform.config_port.cpu_copy_cycles_per_word": "config port cpu copy cycles per word",
            "workload.apps.1.blocks_list": "des_app blocks list",
            "workload.background.0.busy_us": "kernel_daemon busy (µs)",
            "runtime.policy": "runtime policy",
            "software.aes128.cycles_per_byte": "software aes128 cycles per byte",
            "platform.buses.3.clock_mhz": "bus 3 clock (MHz)",  # no such bus in the scenario
            # Metrics by their own words.
            "aes128.hardware.latency_mean_ms": "aes128 hardware latency mean (ms)",
            "aes128.crossover_blocks": "aes128 crossover (blocks)",
            "requests_per_s": "Requests (1/s)",
        }
        self.assertEqual({c: names.label(c) for c in cases}, cases)
        # Without a sweep.json beside the table, elements are known by their list and place.
        unnamed = plot.Names.of_sweep(os.path.join(self.tmp, "sweep.csv"))
        columns = ("platform.buses.0.clock_mhz", "platform.memories.1.size_kib",
                   "workload.apps.0.blocks_list")
        self.assertEqual([unnamed.label(c) for c in columns],
                         ["bus 0 clock (MHz)", "memory 1 size (KiB)", "app 0 blocks list"])
        # The sweep's --set overrides count: a renamed bus, a DMA engine that only they add.
        write_sweep_json(self.tmp, overrides=[
            "platform.buses.plb.name=opb", 'platform.dmas=[{"name":"dma","bus":"plb","base":"0x40100000"}]'])
        overridden = plot.Names.of_sweep(os.path.join(self.tmp, "sweep.csv"))
        columns = ("platform.buses.0.clock_mhz", "platform.dmas.0.burst_words")
        self.assertEqual([overridden.label(c) for c in columns], ["opb clock (MHz)", "dma burst (words)"])

    def test_sweep_says_which_lines_coincide(self):
        # The DES estimate does not depend on the slot count: the lines of 1, 2 and 4 slots lie on one
        # another (3 slots lacks its failed point at 100 MHz, so its line differs).
        paths = self.plot("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz",
                          "--y", "des.analytic_crossover_blocks", "--group", "platform.slots.0.count",
                          "--out", self.tmp)
        note = "slot count 1, 2 and 4: one line, the same values (drawn over one another)"
        self.assertIn(note, svg_texts(next(p for p in paths if p.endswith(".svg"))))
        self.assertIn(f"plot.py: {SWEEP}: {note}\n", self.last.stderr)
        # Lines that differ somewhere are not said to coincide.
        self.plot("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz", "--y", "aes128.latency_mean_ms",
                  "--group", "platform.slots.0.count", "--out", self.tmp, "--name", "apart")
        self.assertFalse([t for t in svg_texts(os.path.join(self.tmp, "apart.svg")) if "one line" in t])

    def test_sweep_rows_are_drawn_over_their_means(self):
        # Without --group each clock has four rows (one per slot count): their mean is the line, the rows
        # dots that no mean marker covers.
        drawn, stderr = figures("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz", "--y", "requests")
        ax = next(iter(drawn.values())).axes[0]
        (mean,) = [line for line in ax.get_lines() if line.get_label() == "mean"]
        (rows,) = ax.collections
        self.assertEqual(len(rows.get_offsets()), 11)
        self.assertGreater(rows.get_zorder(), mean.get_zorder())
        self.assertEqual(mean.get_markerfacecolor(), "none")  # hollow: the dots show inside it
        self.assertIn("plotting their mean, with the rows as dots (try --group)", stderr)

    def test_tick_labels_never_run_into_each_other(self):
        # Clocks of 1, 2, 5, 10, 25 and 100 MHz on a linear axis: 1, 2 and 5 would print as "125".
        clocks = os.path.join(self.tmp, "clocks.csv")
        with open(clocks, "w") as f:
            f.write("point,status,error,platform.buses.0.clock_mhz,requests_per_s\n")
            f.writelines(f"{k},ok,,{c},{10 + c}\n" for k, c in enumerate((1, 2, 5, 10, 25, 100)))
        # 120 think times on a categorical heatmap axis, and long policy names along a sweep's x axis.
        many = os.path.join(self.tmp, "many.csv")
        policies = ["software_only", "hardware_always", "cost_model_with_history", "adaptive_threshold"]
        with open(many, "w") as f:
            f.write("point,status,error,workload.apps.0.think_us,runtime.policy,requests_per_s\n")
            f.writelines(f"{k},ok,,{k + 1},{policies[k % 4]},{k}\n" for k in range(120))
        for argv in (("sweep", clocks, "--x", "platform.buses.0.clock_mhz", "--y", "requests_per_s"),
                     ("heatmap", many, "--x", "workload.apps.0.think_us", "--y", "runtime.policy",
                      "--z", "requests_per_s"),
                     ("sweep", many, "--x", "runtime.policy", "--y", "requests_per_s"),
                     ("sweep", many, "--x", "workload.apps.0.think_us", "--y", "requests_per_s")):
            drawn, _ = figures(*argv)
            fig = next(iter(drawn.values()))
            self.assertEqual(crowded_tick_labels(fig), [], argv)
            ax = fig.axes[0]
            labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
            if argv[0] == "sweep" and argv[1] == clocks:
                self.assertEqual(len(ax.get_xticks()), 6)  # a tick at every clock, some without a label
                self.assertIn("1", labels)
                self.assertIn("100", labels)
            if "runtime.policy" in argv and argv[0] == "sweep":
                self.assertEqual(labels, policies)  # slanted, all of them

    def test_sweep_errors(self):
        line = self.expect_error(["sweep", SWEEP, "--x", "platform.slots.0.count", "--y", "nope"],
                                 f"plot.py: {SWEEP}: no column nope (columns: point, status, error, ")
        self.assertIn("aes128.latency_mean_ms", line)
        missing = os.path.join(self.tmp, "sweep.csv")
        self.expect_error(["sweep", missing, "--x", "a", "--y", "b"], f"plot.py: {missing}: no such file")
        self.expect_error(["sweep", SWEEP_POLICY, "--x", "platform.slots.0.count", "--y", "runtime.policy"],
                          f"plot.py: {SWEEP_POLICY}: line 2: runtime.policy is not a number: 'software'")
        failed = os.path.join(self.tmp, "failed.csv")
        with open(failed, "w") as f:
            f.write("point,status,error,a,b\n0,failed,boom,1,2\n")
        self.expect_error(["sweep", failed, "--x", "a", "--y", "b"],
                          f"plot.py: {failed}: no points to plot (1 point: 1 failed)")
        self.expect_error(["sweep", SWEEP, "--x", "platform.slots.0.count"],
                          "plot.py: the following arguments are required: --y")
        self.assertEqual(os.listdir(self.tmp), ["failed.csv"])  # no image, not even a temporary one

    # -------------------------------------------------------------------------------------- heatmap

    def test_heatmap_annotates_cells_and_marks_missing_ones(self):
        self.plot("heatmap", SWEEP, "--x", "platform.slots.0.count", "--y", "platform.buses.0.clock_mhz",
                  "--z", "aes128.crossover_blocks", "--out", self.tmp, "--name", "xo")
        texts = svg_texts(os.path.join(self.tmp, "xo.svg"))
        # Cells row by row from the lowest clock; (1 slot, 50 MHz) has no crossover, (3 slots, 100 MHz)
        # failed.
        cells = ["n/a", "68", "62", "57",
                 "52", "48", "failed", "40",
                 "37", "34", "31", "28"]
        self.assertTrue(any(texts[i:i + len(cells)] == cells for i in range(len(texts))), texts)
        self.assertIn("Not shown: 2 of 12 points: 1 failed, 1 with an empty aes128.crossover_blocks", texts)
        # Parameters named by the elements they set, as the scenario in sweep.json names them.
        for text in ("aes128 crossover (blocks)", "slot count", "plb clock (MHz)",
                     "aes128 crossover over slot count × plb clock"):
            self.assertIn(text, texts)
        self.assertFalse([t for t in texts if "platform" in t], texts)

    def test_heatmap_cells_beyond_the_search(self):
        self.plot("heatmap", SWEEP_BEYOND, "--x", "platform.buses.plb.clock_mhz",
                  "--y", "platform.slots.0.count", "--z", "aes128.crossover_blocks", "--out", self.tmp,
                  "--name", "beyond")
        texts = svg_texts(os.path.join(self.tmp, "beyond.svg"))
        # Row by row from 1 slot: at 1 MHz no crossover up to the search's bound; (25 MHz, 2 slots) failed;
        # (50 MHz, 2 slots) has neither a value nor a bound.
        cells = ["> 262144", "7009", "43", "40",
                 "> 262144", "7009", "failed", "n/a"]
        self.assertTrue(any(texts[i:i + len(cells)] == cells for i in range(len(texts))), texts)
        self.assertIn(BEYOND_LEGEND, texts)
        self.assertIn("Not shown: 2 of 8 points: 1 failed, 1 with an empty aes128.crossover_blocks", texts)
        self.assertEqual(self.last.stderr, f"plot.py: {SWEEP_BEYOND}: skipped 2 of 8 points: 1 failed, "
                                           "1 with an empty aes128.crossover_blocks\n")
        # Drawn apart from the colour scale and from the failed and n/a cells.
        drawn, _ = figures("heatmap", SWEEP_BEYOND, "--x", "platform.buses.plb.clock_mhz",
                           "--y", "platform.slots.0.count", "--z", "aes128.energy_crossover_blocks")
        (fig,) = drawn.values()
        ax = fig.axes[0]
        image = ax.images[0].get_array()
        self.assertTrue(image.mask[0, 0] and image.mask[1, 0])  # (1 MHz, 1 and 2 slots): not on the scale
        self.assertEqual(image[0, 1], 9098)
        patches = {}
        for patch in ax.patches:
            patches.setdefault((patch.get_hatch(), tuple(patch.get_facecolor())), []).append(
                (round(patch.get_x() + 0.5), round(patch.get_y() + 0.5)))
        self.assertEqual(len(patches), 2, patches)  # two kinds of hatched cell
        beyond = next(cells for (hatch, _), cells in patches.items() if hatch != "///")
        missing = next(cells for (hatch, _), cells in patches.items() if hatch == "///")
        self.assertEqual(sorted(beyond), [(0, 0), (0, 1)])
        self.assertEqual(sorted(missing), [(2, 1), (3, 1)])
        self.assertEqual([t.get_text() for t in fig.legends[0].get_texts()], [BEYOND_LEGEND])
        # A cell whose rows mix a value and a bound is beyond too, at their mean: 131122 = (100 + 262144) / 2.
        mixed = os.path.join(self.tmp, "mixed.csv")
        with open(mixed, "w") as f:
            f.write("point,status,error,a,b,des.crossover_blocks,des.searched_to_blocks\n"
                    "0,ok,,1,1,100,262144\n1,ok,,1,1,,262144\n2,ok,,2,1,80,262144\n")
        self.plot("heatmap", mixed, "--x", "a", "--y", "b", "--z", "des.crossover_blocks", "--out", self.tmp,
                  "--name", "mixed")
        texts = svg_texts(os.path.join(self.tmp, "mixed.svg"))
        self.assertIn("> 131122", texts)
        self.assertIn("80", texts)
        self.assertIn(BEYOND_LEGEND, texts)

    def test_heatmap_with_a_string_axis(self):
        self.plot("heatmap", SWEEP_POLICY, "--x", "runtime.policy", "--y", "platform.slots.0.count",
                  "--z", "aes128.latency_mean_ms", "--out", self.tmp, "--name", "policy")
        texts = svg_texts(os.path.join(self.tmp, "policy.svg"))
        cells = ["362", "151", "121", "106", "185", "77", "61.6", "53.9", "96", "40", "32", "28"]
        self.assertTrue(any(texts[i:i + len(cells)] == cells for i in range(len(texts))), texts)
        self.assertIn("aes128 latency mean (ms)", texts)
        self.assertIn("runtime policy", texts)

    def test_heatmap_titles_break_between_words_only(self):
        # A bus with a long name: the title wraps, at spaces only, never inside the name.
        sweep = os.path.join(self.tmp, "sweep")
        os.mkdir(sweep)
        shutil.copy(SWEEP, sweep)
        name = "processor_local_bus_of_the_reference_soc_at_its_nominal_clock"
        write_sweep_json(sweep, overrides=[f"platform.buses.0.name={name}"])
        drawn, _ = figures("heatmap", os.path.join(sweep, "sweep.csv"), "--x", "platform.buses.0.clock_mhz",
                           "--y", "platform.slots.0.count", "--z", "aes128.crossover_blocks")
        (fig,) = drawn.values()
        title = fig.axes[0].get_title()
        self.assertIn("\n", title)  # it did wrap
        self.assertEqual(title.replace("\n", " "), f"aes128 crossover over {name} clock × slot count")
        self.assertTrue([line for line in title.split("\n") if name in line], title)  # whole on one line
        plot = load_plot()
        path = "platform.config_port.cpu_copy_cycles_per_word"
        self.assertEqual(plot.fit(f"a figure of {path}-and-more", 1, 10).split("\n"),
                         ["a figure of", f"{path}-and-more"])

    def test_heatmap_errors(self):
        self.expect_error(["heatmap", SWEEP, "--x", "platform.slots.0.count", "--y", "clock",
                           "--z", "requests"],
                          f"plot.py: {SWEEP}: no column clock (columns: point, ")
        self.expect_error(["heatmap", SWEEP, "--x", "a", "--y", "b"],
                          "plot.py: the following arguments are required: --z")

    # ---------------------------------------------------------------------------------- sensitivity

    def test_sensitivity_tornado_per_metric_largest_swing_on_top(self):
        paths = self.plot("sensitivity", FIXTURES, "--out", self.tmp)
        metrics = ("aes128-hardware-latency_mean_ms", "requests_per_s", "aes128-software-count")
        self.assertEqual(paths, [os.path.join(self.tmp, f"sensitivity_{m}.{ext}")
                                 for m in metrics for ext in ("png", "svg")])
        self.assertEqual(self.last.stderr, "")
        texts = svg_texts(os.path.join(self.tmp, "sensitivity_aes128-hardware-latency_mean_ms.svg"))
        for text in ("aes128 hardware latency mean: how far each assumption moves it",
                     "aes128 hardware latency mean (ms)", "swing", "towards the low end",
                     "towards the high end",
                     "base: 39", "rsoc 0.1.0 · scenario 82f131840b04 · seed 2008"):
            self.assertIn(text, texts)
        # Bars from the largest |swing_pct| down (the file has them in --vary order); a compound assumption
        # one input a line; the swings beside them. Parameters are named as sweep figures name them, by the
        # scenario in the sweep.json beside the table (fixtures/sweep.json).
        parameters = ["slot count", "cpu clock (MHz)",
                      "config port cpu copy cycles per word", "cpu clock (MHz) +",
                      "config port cpu copy cycles per word", "runtime replacement",
                      "user_load busy (µs)"]
        swings = ["-684.5 %", "-152.3 %", "+106.8 %", "-48.0 %", "0 %", "0 %"]
        for sequence in (parameters, swings):
            self.assertTrue(any(texts[i:i + len(sequence)] == sequence for i in range(len(texts))), texts)
        # The input values at the ends of each bar, low then high.
        values = ["1", "4", "50", "200", "58", "234", "50+58", "200+234", "lru", "fifo", "2500", "7500"]
        self.assertTrue(any(texts[i:i + len(values)] == values for i in range(len(texts))), texts)
        rate = svg_texts(os.path.join(self.tmp, "sensitivity_requests_per_s.svg"))
        self.assertIn("Requests (1/s)", rate)
        self.assertIn("+148.4 %", rate)

    def test_sensitivity_end_without_a_value_and_metric_option(self):
        # Copying the bitstream at 234 cycles a word pushes the DES crossover beyond the study's largest
        # block count: that end has no value, its bar comes last.
        path = self.plot("sensitivity", SENSITIVITY_CROSSOVER, "--metric", "des.crossover_blocks",
                         "-m", "aes128.crossover_blocks", "--out", self.tmp)
        self.assertEqual(sorted(os.path.basename(p) for p in path),
                         [f"sensitivity_{f}-crossover_blocks.{ext}" for f in ("aes128", "des")
                          for ext in ("png", "svg")])
        texts = svg_texts(os.path.join(self.tmp, "sensitivity_des-crossover_blocks.svg"))
        self.assertIn("des crossover (blocks)", texts)
        self.assertIn("234: no value", texts)
        swings = ["0 %", "0 %", "n/a"]
        self.assertTrue(any(texts[i:i + 3] == swings for i in range(len(texts))), texts)
        self.assertEqual(texts.index("config port cpu copy cycles per word"),
                         texts.index("plb clock (MHz)") + 1)

    def test_sensitivity_ends_beyond_the_search(self):
        self.plot("sensitivity", SENSITIVITY_BEYOND, "--out", self.tmp)
        self.assertEqual(self.last.stderr, "")  # every row has a base value or bound
        texts = svg_texts(os.path.join(self.tmp, "sensitivity_aes128-crossover_blocks.svg"))
        # The low end at 1 MHz is beyond the search: drawn to its bound and labelled so, not "no value";
        # the swing, computed with the bound in place, is a bound (the real low end is higher: the swing
        # lower). cycles_per_block's high end is beyond: its swing is larger than +655160 %. Bars with a
        # bound are ordered with it in place. The copy cost's high end has neither value nor bound: "no
        # value", last.
        self.assertIn("1: > 262144", texts)
        self.assertIn("762000: > 262144", texts)
        self.assertIn("234: no value", texts)
        self.assertNotIn("1: no value", texts)
        swings = ["< -655252.5 %", "> +655160.0 %", "0 %", "n/a"]
        self.assertTrue(any(texts[i:i + 4] == swings for i in range(len(texts))), texts)
        # Named as sweep figures name them, from fixtures/sweep.json; the metric by its words.
        bars = ["plb clock (MHz)", "software aes128 cycles per block", "slot count",
                "config port cpu copy cycles per word"]
        self.assertTrue(any(texts[i:i + 4] == bars for i in range(len(texts))), texts)
        self.assertIn("aes128 crossover: how far each assumption moves it", texts)
        self.assertIn("aes128 crossover (blocks)", texts)
        self.assertIn(BEYOND_LEGEND, texts)
        self.assertFalse([t for t in texts if "platform." in t], texts)
        # The ends beyond the search: hatched bars, an arrowhead past them.
        drawn, _ = figures("sensitivity", SENSITIVITY_BEYOND, "-m", "aes128.crossover_blocks")
        ax = drawn["sensitivity_aes128-crossover_blocks"].axes[0]
        hatched = sorted(p.get_x() + p.get_width() for p in ax.patches if p.get_hatch())
        self.assertEqual(hatched, [262144, 262144])
        arrows = [(line.get_marker(), line.get_xdata()[0]) for line in ax.get_lines()
                  if line.get_marker() == ">"]
        self.assertEqual(arrows, [(">", 262144), (">", 262144)])
        # A base beyond the search: at its bound, every swing n/a.
        texts = svg_texts(os.path.join(self.tmp, "sensitivity_des-crossover_blocks.svg"))
        self.assertIn("base: > 262144", texts)
        self.assertEqual([t for t in texts if t.endswith("%") or t == "n/a"], ["n/a", "n/a"])
        self.assertIn("25", texts)
        # The names come from the sweep.json beside the table (rsoc writes one beside sensitivity.csv):
        # with the slot renamed by --set, so is the bar; without one, the names are the keys'.
        for overrides, name in ((["platform.slots.0.name=region"], "region count"), (None, "slot 0 count")):
            folder = tempfile.mkdtemp(dir=self.tmp)
            shutil.copy(SENSITIVITY_BEYOND, os.path.join(folder, "sensitivity.csv"))
            if overrides is not None:
                write_sweep_json(folder, overrides)
            self.plot("sensitivity", folder, "-m", "aes128.crossover_blocks")
            texts = svg_texts(os.path.join(folder, "sensitivity_aes128-crossover_blocks.svg"))
            self.assertIn(name, texts)
        # A file from before the *_beyond columns: those ends have no value.
        old = os.path.join(self.tmp, "old.csv")
        with open(SENSITIVITY_BEYOND, encoding="utf-8") as f:
            table = list(csv.reader(f))
        with open(old, "w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows([row[:8] + row[11:] for row in table])
        self.plot("sensitivity", old, "-m", "aes128.crossover_blocks")
        texts = svg_texts(os.path.join(self.tmp, "sensitivity_aes128-crossover_blocks.svg"))
        self.assertIn("1: no value", texts)
        self.assertNotIn(BEYOND_LEGEND, texts)

    def test_sensitivity_ends_on_one_side_and_long_values(self):
        # A figure that is not monotonic in the input: both ends above the base. A long JSON value is cut.
        path = os.path.join(self.tmp, "sensitivity.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write(SENSITIVITY_HEADER + "\n"
                    'workload.hsm.modexp_slots,"[""modexp0"",""modexp1"",""modexp2"",""modexp3""]",'
                    '"[""modexp0""]",requests_per_s,7.5,5.7,6.9,-10.53,0.1.0,abc,1\n'
                    "runtime.policy,software,hardware,requests_per_s,4.1,5.7,3.2,-15.79,0.1.0,abc,1\n"
                    "runtime.caching,false,true,requests_per_s,,5.7,6,,0.1.0,abc,1\n"
                    "runtime.replacement,lru,fifo,requests_per_s,5.7,,5.7,,0.1.0,abc,1\n")
        self.plot("sensitivity", self.tmp)
        self.assertEqual(self.last.stderr, f"plot.py: {path}: skipped 1 of 4 rows: 1 with an empty at_base\n")
        texts = svg_texts(os.path.join(self.tmp, "sensitivity_requests_per_s.svg"))
        self.assertIn("Not shown: 1 of 4 rows: 1 with an empty at_base", texts)
        order = ["runtime policy", "hsm modexp slots", "runtime caching"]  # no sweep.json: by their keys
        self.assertTrue(any(texts[i:i + 3] == order for i in range(len(texts))), texts)
        self.assertIn('["modexp0","modexp1","m…', texts)
        self.assertIn("false: no value", texts)
        self.assertIn("-15.8 %", texts)

    def test_sensitivity_errors(self):
        missing = os.path.join(self.tmp, "nothing")
        os.mkdir(missing)
        self.expect_error(["sensitivity", missing],
                          f"plot.py: {os.path.join(missing, 'sensitivity.csv')}: no such file")
        self.expect_error(["sensitivity", FIXTURES, "--metric", "requests_per_second"],
                          f"plot.py: {SENSITIVITY}: no metric requests_per_second (has: "
                          "aes128.hardware.latency_mean_ms, requests_per_s, aes128.software.count)")
        self.expect_error(["sensitivity", SWEEP],
                          f"plot.py: {SWEEP}: no columns parameter, low, high, metric, at_low, at_base, "
                          "at_high (columns: point, ")
        bad = os.path.join(self.tmp, "bad.csv")
        with open(bad, "w", encoding="utf-8") as f:
            f.write(SENSITIVITY_HEADER + "\np,1,2,m,x,3,4,,0.1.0,abc,1\n")
        self.expect_error(["sensitivity", bad], f"plot.py: {bad}: line 2: at_low is not a number: 'x'")
        empty = os.path.join(self.tmp, "empty.csv")
        with open(empty, "w", encoding="utf-8") as f:
            f.write(SENSITIVITY_HEADER + "\np,1,2,m,1,,4,,0.1.0,abc,1\n")
        self.expect_error(["sensitivity", empty],
                          f"plot.py: {empty}: no rows to plot (1 row: 1 with an empty at_base)")
        self.assertEqual(sorted(os.listdir(self.tmp)), ["bad.csv", "empty.csv", "nothing"])

    # --------------------------------------------------------------------------------------- output

    def test_an_output_folder_that_cannot_be_written_is_refused_before_anything_is_drawn(self):
        a_file = os.path.join(self.tmp, "figures")
        with open(a_file, "w") as f:
            f.write("not a folder")
        under_a_file = os.path.join(a_file, "sub")
        # /proc takes no new files, not even from root.
        cases = [(a_file, "not a folder: cannot write figures into it"),
                 (under_a_file, "cannot create the output folder: Not a directory"),
                 ("/proc", "cannot write into the output folder: ")]
        if os.geteuid() != 0:  # root writes into any folder whatever its mode
            read_only = os.path.join(self.tmp, "read_only")
            os.mkdir(read_only, 0o555)
            cases.append((read_only, "cannot write into the output folder: Permission denied"))
        commands = (["coupling", FIXTURES], ["crossover", FIXTURES], ["sensitivity", FIXTURES],
                    ["sweep", SWEEP, "--x", "platform.buses.0.clock_mhz", "--y", "requests"],
                    ["heatmap", SWEEP, "--x", "platform.buses.0.clock_mhz", "--y", "platform.slots.0.count",
                     "--z", "requests"])
        # Every case with one command, one case with every command (each run starts matplotlib).
        for command, (outdir, message) in [(commands[0], case) for case in cases[1:]] + \
                                          [(command, cases[0]) for command in commands]:
            with self.subTest(command=command[0], outdir=outdir):
                result = run(*command, "--out", outdir)
                self.assertEqual(result.returncode, 2, result.stderr)
                # One line: the refusal comes before the input's rows are looked at (and a note made).
                self.assertEqual(result.stderr.splitlines(), [result.stderr.strip()], result.stderr)
                self.assertTrue(result.stderr.startswith(f"plot.py: {outdir}: {message}"), result.stderr)
                self.assertEqual(result.stdout, "")
        self.assertEqual(sorted(os.listdir(self.tmp)),
                         ["figures"] + (["read_only"] if len(cases) > 3 else []))

    def test_every_command_writes_the_files_it_prints_named_as_documented(self):
        # Into an empty folder given with --out, or the input's own: nothing else, nowhere else.
        sweep = os.path.join(self.tmp, "sweep")
        os.mkdir(sweep)
        for name in ("sweep.csv", "sweep.json"):
            shutil.copy(os.path.join(FIXTURES, name), sweep)
        before = sorted(os.listdir(FIXTURES))
        commands = {
            ("crossover", FIXTURES, "-f", "des"): ["crossover_des_latency", "crossover_des_throughput"],
            ("coupling", FIXTURES): ["coupling_3des", "coupling_des"],
            ("sweep", os.path.join(sweep, "sweep.csv"), "--x", "platform.buses.0.clock_mhz",
             "--y", "aes128.crossover_blocks", "--group", "platform.slots.0.count"):
                ["sweep_aes128-crossover_blocks_by_plb-clock_per_slot-count"],
            ("sweep", os.path.join(sweep, "sweep.csv"), "--x", "platform.slots.0.count",
             "--y", "requests_per_s"): ["sweep_requests_per_s_by_slot-count"],
            ("heatmap", os.path.join(sweep, "sweep.csv"), "--x", "platform.buses.0.clock_mhz",
             "--y", "platform.slots.0.count", "--z", "aes128.latency_mean_ms"):
                ["heatmap_aes128-latency_mean_ms_by_plb-clock_and_slot-count"],
            ("sensitivity", SENSITIVITY_CROSSOVER, "-m", "des.crossover_blocks"):
                ["sensitivity_des-crossover_blocks"],
        }
        for k, (command, names) in enumerate(commands.items()):
            outdir = sweep if command[0] in ("sweep", "heatmap") else os.path.join(self.tmp, f"out{k}", "new")
            before_here = set(os.listdir(outdir)) if os.path.isdir(outdir) else set()
            args = list(command) + ([] if command[0] in ("sweep", "heatmap") else ["--out", outdir])
            paths = self.plot(*args)
            files = sorted(f"{n}.{ext}" for n in names for ext in ("png", "svg"))
            self.assertEqual(sorted(paths), [os.path.join(outdir, f) for f in files], command)
            # The figures and the folder's list of what was drawn into it (.rsoc-plots), nothing else.
            self.assertEqual(sorted(set(os.listdir(outdir)) - before_here - {".rsoc-plots"}), files, command)
            self.assertTrue(os.path.isfile(os.path.join(outdir, ".rsoc-plots")), command)
            for f in files + [".rsoc-plots"]:
                os.unlink(os.path.join(outdir, f))
        self.assertEqual(sorted(os.listdir(FIXTURES)), before)

    # ------------------------------------------------------------------------------------- scales

    def test_logarithmic_axes_by_default_where_they_help_and_on_request(self):
        def scales(ax):
            return ax.get_xscale(), ax.get_yscale()

        cases = [  # (arguments, {figure: [(panel title, (x scale, y scale))]})
            (("crossover", FIXTURES, "-f", "des"), {"crossover_des_latency": [(None, ("linear", "log"))]}),
            (("crossover", FIXTURES, "-f", "des", "--logx", "--no-logy"),
             {"crossover_des_throughput": [(None, ("log", "linear"))]}),
            (("coupling", FIXTURES, "-f", "des"),
             {"coupling_des": [("Latency of one request", ("log", "log")),
                               ("Throughput of one request", ("log", "log")),
                               ("CPU left for other processes", ("log", "linear"))]}),
            (("coupling", FIXTURES, "-f", "des", "--no-logx", "--no-logy"),
             {"coupling_des": [("Latency of one request", ("linear", "linear")),
                               ("CPU left for other processes", ("linear", "linear"))]}),
            (("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz", "--y", "requests_per_s", "--name", "s"),
             {"s": [(None, ("linear", "linear"))]}),
            (("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz", "--y", "requests_per_s", "--name", "s",
              "--logx", "--logy"), {"s": [(None, ("log", "log"))]}),
            (("sensitivity", FIXTURES, "-m", "requests_per_s"),
             {"sensitivity_requests_per_s": [(None, ("linear", "linear"))]}),
            (("sensitivity", FIXTURES, "-m", "requests_per_s", "--logx"),
             {"sensitivity_requests_per_s": [(None, ("log", "linear"))]}),
        ]
        for argv, expected in cases:
            drawn, _ = figures(*argv)
            for name, panels in expected.items():
                for title, scale in panels:
                    fig = drawn[name]
                    ax = panel(fig, title) if title else fig.axes[0]
                    self.assertEqual(scales(ax), scale, (argv, title))
                    self.assertEqual(crowded_tick_labels(fig), [], argv)
        # Every shown tick of a logarithmic sweep axis is labelled with a plain number.
        drawn, _ = figures("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz", "--y", "requests_per_s",
                           "--logx", "--logy")
        ax = next(iter(drawn.values())).axes[0]
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["50", "100", "200"])
        self.assertGreaterEqual(len([t for t in ax.get_yticklabels() if t.get_text()]), 2)
        self.assertTrue(all(re.fullmatch(r"[0-9.]+", t.get_text()) for t in ax.get_yticklabels()
                            if t.get_text()))
        # The heatmap's axes are categories: no such option.
        self.expect_error(["heatmap", SWEEP, "--x", "platform.buses.0.clock_mhz",
                           "--y", "platform.slots.0.count", "--z", "requests", "--logx"],
                          "plot.py: unrecognized arguments: --logx")

    def test_logarithmic_axes_leave_out_what_they_cannot_show(self):
        path = os.path.join(self.tmp, "sweep.csv")
        with open(path, "w") as f:
            f.write("point,status,error,platform.buses.0.clock_mhz,runtime.policy,requests_per_s\n"
                    "0,ok,,0,software,1\n1,ok,,50,software,0\n2,ok,,100,software,2\n3,ok,,200,hardware,4\n")
        drawn, stderr = figures("sweep", path, "--x", "platform.buses.0.clock_mhz", "--y", "requests_per_s",
                                "--logx", "--logy")
        reasons = ("2 of 4 points: 1 with platform.buses.0.clock_mhz ≤ 0 (log axis), "
                   "1 with requests_per_s ≤ 0 (log axis)")
        self.assertEqual(stderr, f"plot.py: {path}: skipped {reasons}\n")
        self.assertIn(f"Not shown: {reasons}",  # wrapped to the figure's width
                      [t.get_text().replace("\n", " ") for t in next(iter(drawn.values())).texts])
        self.expect_error(["sweep", path, "--x", "runtime.policy", "--y", "requests_per_s", "--logx"],
                          f"plot.py: {path}: --logx: runtime.policy is not a number in every row "
                          "(software, hardware)")
        # A tornado with a value at or below 0 stays linear, and says why.
        sensitivity = os.path.join(self.tmp, "sensitivity.csv")
        with open(sensitivity, "w") as f:
            f.write(SENSITIVITY_HEADER + "\nruntime.policy,software,hardware,failed,0,2,5,250,0.1.0,abc,1\n")
        drawn, _ = figures("sensitivity", sensitivity, "--logx")
        fig = drawn["sensitivity_failed"]
        self.assertEqual(fig.axes[0].get_xscale(), "linear")
        self.assertIn("Linear metric axis (--logx asked for): Failed has a value ≤ 0",
                      [t.get_text() for t in fig.texts])

    def test_crossover_labels_cover_no_curve_and_no_legend_on_any_scales(self):
        for scales in ((), ("--logx",), ("--logx", "--no-logy"), ("--no-logy",)):
            drawn, _ = figures("crossover", FIXTURES, *scales)
            for name, fig in drawn.items():
                ax = fig.axes[0]
                renderer = fig.canvas.get_renderer()
                (label,) = [t for t in ax.texts if t.get_text().startswith("crossover:")]
                box = label.get_bbox_patch().get_window_extent(renderer)
                self.assertEqual(labels_over_curves(ax), [], (name, scales))
                self.assertFalse(box.overlaps(ax.get_legend().get_window_extent(renderer)), (name, scales))
                inside = ax.get_window_extent(renderer)
                self.assertTrue(inside.x0 <= box.x0 and box.x1 <= inside.x1, (name, scales))
        # With linear scales a coupling crossover is interpolated on linear scales: 3des, software against
        # the reconfigurable core, between 64 and 256 blocks.
        latency = {(row["implementation"], int(row["blocks"])): float(row["latency_ms"])
                   for row in read_rows(COUPLING) if row["functionality"] == "3des"}
        gap = [latency["core_reconfigurable", b] - latency["software", b] for b in (64, 256)]
        expected = 64 + gap[0] / (gap[0] - gap[1]) * (256 - 64)
        drawn, _ = figures("coupling", FIXTURES, "-f", "3des", "--no-logx", "--no-logy")
        ax = panel(drawn["coupling_3des"], "Latency of one request")
        marks = [line.get_xdata()[0] for line in ax.get_lines() if line.get_color() == "tab:orange"
                 and len(line.get_xdata()) == 2 and line.get_xdata()[0] == line.get_xdata()[1]]
        self.assertEqual(len(marks), 1)
        self.assertAlmostEqual(marks[0], expected, delta=1e-6 * expected)

    def test_help(self):
        # Each command's help says what it writes and which scales it takes.
        beyond = "> N: no crossover up to N blocks (as far as searched)"
        says = {"crossover": ["crossover_F_latency.png/.svg", "crossover_F_throughput.png/.svg",
                              "crossover_F_energy.png/.svg", "energy model", "no crossover up to N blocks",
                              "searched_to_blocks", "Blocks (4 KiB each)", "--logx", "--no-logy"],
                "coupling": ["coupling_F.png/.svg", "--no-logx", "--no-logy"],
                "sweep": ["sweep_Y_by_X[_per_GROUP].png/.svg", "plb clock (MHz)", "--logx", "--logy",
                          "--name", beyond],
                "heatmap": ["heatmap_Z_by_X_and_Y.png/.svg", "--name", beyond],
                "sensitivity": ["sensitivity_M.png/.svg", "--logx", "plb clock (MHz)", "VALUE: > N",
                                "VALUE: no value"]}
        for command, texts in says.items():
            result = run(command, "--help")
            self.assertEqual(result.returncode, 0)
            self.assertIn(f"usage: plot.py {command}", result.stdout)
            help_text = " ".join(result.stdout.split())
            for text in texts + ["--out OUTDIR", "counted on the figure", "The paths written are printed"]:
                self.assertIn(text, help_text, command)


def shard(argv):
    """`--shard K/N` (1 <= K <= N) from argv: the K-th of N equal shares of the tests, for CTest to run side by
    side; the others' names, for unittest, stay in argv."""
    for i, arg in enumerate(argv):
        if arg == "--shard" and i + 1 < len(argv):
            k, n = (int(x) for x in argv[i + 1].split("/"))
            del argv[i:i + 2]
            names = sorted(unittest.TestLoader().getTestCaseNames(PlotTestCase))
            return [f"PlotTestCase.{name}" for j, name in enumerate(names) if j % n == k - 1]
    return []


class ShardTestCase(unittest.TestCase):
    def test_the_shards_run_every_test_once(self):
        every = sorted(f"PlotTestCase.{n}" for n in unittest.TestLoader().getTestCaseNames(PlotTestCase))
        shares = [shard(["plot_test.py", "--shard", f"{k}/4"]) for k in range(1, 5)]
        self.assertEqual(sorted(sum(shares, [])), every)
        self.assertTrue(all(shares))


if __name__ == "__main__":
    import sys
    chosen = shard(sys.argv)
    unittest.main(argv=sys.argv + chosen)
