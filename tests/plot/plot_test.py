#!/usr/bin/python3
"""Tests of tools/plot.py: runs it on the fixtures beside this file and inspects the images it writes.

Run with /usr/bin/python3 (Debian's matplotlib); CTest runs it as Plot.Figures.
"""

import html
import os
import re
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOT = os.path.join(HERE, "..", "..", "tools", "plot.py")
FIXTURES = os.path.join(HERE, "fixtures")
SWEEP = os.path.join(FIXTURES, "sweep.csv")
SWEEP_POLICY = os.path.join(FIXTURES, "sweep_policy.csv")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(*args):
    # Run through its #!/usr/bin/python3 line, as a user would.
    return subprocess.run([PLOT, *args], capture_output=True, text=True, timeout=120)


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
        expected = [os.path.join(self.tmp, f"{kind}_{f}.{ext}") for f in ("aes128", "des")
                    for kind in ("crossover", "throughput") for ext in ("png", "svg")]
        self.assertEqual(sorted(paths), sorted(expected))

        for f, crossover in (("aes128", 40), ("des", 80)):
            label = f"crossover: {crossover} blocks (estimate {crossover})"
            latency = svg_texts(os.path.join(self.tmp, f"crossover_{f}.svg"))
            throughput = svg_texts(os.path.join(self.tmp, f"throughput_{f}.svg"))
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
        self.assertEqual(names, ["crossover_des.png", "crossover_des.svg",
                                 "throughput_des.png", "throughput_des.svg"])
        self.assertTrue(all(os.path.dirname(p) == self.tmp for p in paths))

    def test_crossover_without_summary_is_computed_from_the_rows(self):
        shutil.copy(os.path.join(FIXTURES, "crossover.csv"), self.tmp)
        self.plot("crossover", self.tmp, "-f", "aes128")
        texts = svg_texts(os.path.join(self.tmp, "crossover_aes128.svg"))
        self.assertIn("crossover: 40 blocks", texts)
        self.assertFalse(any("estimate" in t for t in texts))

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
        self.assertIn("(columns: point, status, error, platform.slots_count", line)

    # ---------------------------------------------------------------------------------------- sweep

    def test_sweep_skips_the_failed_row(self):
        paths = self.plot("sweep", SWEEP, "--x", "platform.buses.0.clock_mhz",
                          "--y", "aes128.latency_mean_ms", "--group", "platform.slots_count",
                          "--out", self.tmp, "--name", "latency")
        self.assertEqual(sorted(paths), [os.path.join(self.tmp, "latency.png"),
                                         os.path.join(self.tmp, "latency.svg")])
        self.assertEqual(self.last.stderr, f"plot.py: {SWEEP}: skipped 1 of 12 rows: 1 failed\n")
        texts = svg_texts(os.path.join(self.tmp, "latency.svg"))
        for text in ("platform.buses.0 clock (MHz)", "aes128 latency mean (ms)", "platform slots count",
                     "1", "2", "3", "4", "50", "100", "200"):
            self.assertIn(text, texts)

    def test_sweep_counts_rows_with_an_empty_metric(self):
        self.plot("sweep", SWEEP, "--x", "platform.slots_count", "--y", "aes128.crossover_blocks",
                  "--group", "platform.buses.0.clock_mhz", "--out", self.tmp)
        self.assertEqual(self.last.stderr, f"plot.py: {SWEEP}: skipped 2 of 12 rows: 1 failed, "
                                           "1 with an empty aes128.crossover_blocks\n")
        name = "sweep_aes128-crossover_blocks_vs_platform-slots_count_by_platform-buses-0-clock_mhz.svg"
        self.assertIn("aes128 crossover (blocks)", svg_texts(os.path.join(self.tmp, name)))

    def test_sweep_string_x_is_categorical_in_first_appearance_order(self):
        self.plot("sweep", SWEEP_POLICY, "--x", "runtime.policy", "--y", "aes128.throughput_kBps",
                  "--group", "platform.slots_count", "--out", self.tmp, "--name", "policy")
        self.assertEqual(self.last.stderr, "")
        texts = svg_texts(os.path.join(self.tmp, "policy.svg"))
        self.assertIn("aes128 throughput (kB/s)", texts)
        ticks = [t for t in texts if t in ("software", "hardware", "cost_model", "adaptive")]
        self.assertEqual(ticks, ["software", "hardware", "cost_model", "adaptive"])

    def test_sweep_errors(self):
        line = self.expect_error(["sweep", SWEEP, "--x", "platform.slots_count", "--y", "nope"],
                                 f"plot.py: {SWEEP}: no column nope (columns: point, status, error, ")
        self.assertIn("aes128.latency_mean_ms", line)
        missing = os.path.join(self.tmp, "sweep.csv")
        self.expect_error(["sweep", missing, "--x", "a", "--y", "b"], f"plot.py: {missing}: no such file")
        self.expect_error(["sweep", SWEEP_POLICY, "--x", "platform.slots_count", "--y", "runtime.policy"],
                          f"plot.py: {SWEEP_POLICY}: line 2: runtime.policy is not a number: 'software'")
        failed = os.path.join(self.tmp, "failed.csv")
        with open(failed, "w") as f:
            f.write("point,status,error,a,b\n0,failed,boom,1,2\n")
        self.expect_error(["sweep", failed, "--x", "a", "--y", "b"],
                          f"plot.py: {failed}: no rows to plot (1 row: 1 failed)")
        self.expect_error(["sweep", SWEEP, "--x", "platform.slots_count"],
                          "plot.py: the following arguments are required: --y")
        self.assertEqual(os.listdir(self.tmp), ["failed.csv"])  # no image, not even a temporary one

    # -------------------------------------------------------------------------------------- heatmap

    def test_heatmap_annotates_cells_and_marks_missing_ones(self):
        self.plot("heatmap", SWEEP, "--x", "platform.slots_count", "--y", "platform.buses.0.clock_mhz",
                  "--z", "aes128.crossover_blocks", "--out", self.tmp, "--name", "xo")
        texts = svg_texts(os.path.join(self.tmp, "xo.svg"))
        # Cells row by row from the lowest clock; (1 slot, 50 MHz) has no crossover, (3 slots, 100 MHz)
        # failed.
        cells = ["n/a", "68", "62", "57",
                 "52", "48", "n/a", "40",
                 "37", "34", "31", "28"]
        self.assertTrue(any(texts[i:i + len(cells)] == cells for i in range(len(texts))), texts)
        for text in ("aes128 crossover (blocks)", "platform slots count", "platform.buses.0 clock (MHz)"):
            self.assertIn(text, texts)

    def test_heatmap_with_a_string_axis(self):
        self.plot("heatmap", SWEEP_POLICY, "--x", "runtime.policy", "--y", "platform.slots_count",
                  "--z", "aes128.latency_mean_ms", "--out", self.tmp, "--name", "policy")
        texts = svg_texts(os.path.join(self.tmp, "policy.svg"))
        cells = ["362", "151", "121", "106", "185", "77", "61.6", "53.9", "96", "40", "32", "28"]
        self.assertTrue(any(texts[i:i + len(cells)] == cells for i in range(len(texts))), texts)
        self.assertIn("aes128 latency mean (ms)", texts)

    def test_heatmap_errors(self):
        self.expect_error(["heatmap", SWEEP, "--x", "platform.slots_count", "--y", "clock",
                           "--z", "requests"],
                          f"plot.py: {SWEEP}: no column clock (columns: point, ")
        self.expect_error(["heatmap", SWEEP, "--x", "a", "--y", "b"],
                          "plot.py: the following arguments are required: --z")

    def test_help(self):
        for command in ("crossover", "sweep", "heatmap"):
            result = run(command, "--help")
            self.assertEqual(result.returncode, 0)
            self.assertIn(f"usage: plot.py {command}", result.stdout)


if __name__ == "__main__":
    unittest.main()
