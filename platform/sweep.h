#pragma once
// Parameter sweeps. A sweep is the Cartesian grid of scenario parameters (`--param path=v1,v2,...` or
// `path=start:stop:step`) over one scenario — or an explicit list of points, each a list of overrides (a
// sensitivity study: the base, then each assumption at its low and its high end) — each point run in its own
// process (SystemC cannot be elaborated twice in one process) by `rsoc point DIR INDEX` — locally (`rsoc
// sweep --jobs N`), through GNU Parallel or as a Slurm job array. The sweep folder holds everything a point
// needs, so any host that sees the folder can run it:
//
//   DIR/sweep.json        what to run: command (run or crossover), the scenario text, overrides, the grid
//                         or the list of points
//   DIR/points/NNNN/      the point's result folder (as `rsoc run --out` or `rsoc crossover --out` writes it)
//   DIR/points/NNNN.json  the point's outcome: its index, the sweep's digest, status, error, parameter
//                         values, metrics, the digest of every file of its result folder and a checksum of
//                         it all (written last, atomically: a point is finished when this file exists and
//                         checks out, check_outcome)
//   DIR/logs/NNNN.log     what the point printed (local runs)
//   DIR/sweep.csv         the merged table (`rsoc merge DIR`, also at the end of a local sweep)
//   DIR/sensitivity.csv   a sensitivity study's table (platform/sensitivity.h), once every point has
//   succeeded
//
// Points are numbered in row-major order of the grid (the first parameter varies slowest), or in list order.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analysis/sweep_table.h"
#include "models/name_table.h"

namespace rsoc::platform {

class SweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SweepParameter {
  std::string path;                 // as given: dotted or a JSON pointer
  std::vector<std::string> values;  // value texts, each as --set takes it
};

// Parses `path=v1,v2,...` (values split at top-level commas: JSON arrays, objects and strings may contain
// commas) or `path=start:stop:step` (numbers, stop included). Throws SweepError.
SweepParameter parse_parameter(const std::string& text);
// Splits `text` at every `separator` outside JSON strings, arrays and objects ("[1,2],3" at ',': "[1,2]",
// "3").
std::vector<std::string> split_outside_json(const std::string& text, char separator);

// One override of a listed point: `path` (dotted or a JSON pointer) takes `value` (a value text as --set
// takes it).
struct Assignment {
  std::string path, value;
  bool operator==(const Assignment& other) const { return path == other.path && value == other.value; }
};

// A sensitivity study (`rsoc sensitivity`): its points are the base (no override), then the low and the high
// end of each assumption in turn; merging the points also writes sensitivity.csv.
struct SensitivitySpec {
  std::vector<std::string> metrics;  // the table's metrics, in order (empty: every metric of the base point)
};

struct SweepSpec {
  std::string command = "run";         // "run" or "crossover"
  std::string scenario_name;           // file name for messages ("os_aes_des.json")
  std::string scenario_text;           // the scenario as given
  std::string scenario_folder;         // where its relative paths start (LoadOptions::folder)
  std::vector<std::string> overrides;  // --set, applied before the point's values
  std::optional<std::uint64_t> seed;
  // The points: the Cartesian grid of `parameters`, or — when `parameters` is empty — the explicit list
  // `points`, each point's assignments applied after `overrides` (a point without any runs the scenario as
  // given). A sweep has one or the other.
  std::vector<SweepParameter> parameters;
  std::vector<std::vector<Assignment>> points;
  std::uint64_t max_blocks = 200;            // crossover: searched up to it
  std::uint64_t table_blocks = 200;          // crossover: every block count up to it
  std::vector<std::string> functionalities;  // crossover (empty: all)
  std::optional<SensitivitySpec> sensitivity;
};

// The largest sweep: points of a grid or of a list.
inline constexpr std::size_t kMaxPoints = 1000000;

// The number of points. The size of a grid is the product of its parameters' value counts, computed without
// wrapping: a grid of more than kMaxPoints points throws SweepError naming every --param and its count
// ("the grid of --param a (4 values) x --param b (5 values) x ... has 18446744073709551620 points; a sweep
// has at most 1000000").
std::size_t point_count(const SweepSpec& spec);
// Checks a grid before anything is done with it: at most kMaxPoints points, and no input swept by two
// --param (a dotted path and a JSON pointer naming the same input are the same). Throws SweepError.
void check_grid(const SweepSpec& spec);
// The columns that name a point in sweep.csv: the paths of the grid's parameters, or of a list, every path a
// point sets (in order of first appearance).
std::vector<std::string> parameter_paths(const SweepSpec& spec);
// The values of point `index`, one per parameter_paths() (empty where a listed point leaves that path at the
// scenario's value).
std::vector<std::string> point_values(const SweepSpec& spec, std::size_t index);
// The overrides of point `index` as --set takes them ("path=value"), applied after the sweep's own.
std::vector<std::string> point_overrides(const SweepSpec& spec, std::size_t index);
// "0007": the point's name in the sweep folder.
std::string point_name(const SweepSpec& spec, std::size_t index);

// Checks every value of every parameter of a grid, before any point runs: the scenario is loaded with the
// sweep's --set and that value, the other parameters at their first values. Throws one ScenarioError with
// every problem of a value itself (an unknown path, a value of the wrong type or out of range), each named
// "--param path=value"; a combination of values that cannot be built fails its points instead.
void validate_parameters(const SweepSpec& spec);

// Writes DIR/sweep.json. A folder that holds another sweep is replaced unless `resume`, in which case it must
// hold this same sweep (its finished points are kept; a sensitivity study may choose other metrics, and an
// earlier sensitivity.csv is removed until the table is written again). A sweep that holds files rsoc did not
// write (foreign_sweep_entries) is not replaced, and a folder that is not a sweep is never touched. Throws
// SweepError, analysis::OutputDirError (the folder cannot be written, or is refused).
void prepare_sweep(const SweepSpec& spec, const std::filesystem::path& dir, bool resume);
// The entries of the sweep folder `dir` that rsoc did not write, relative to it: anything but its own files,
// logs/ (the points' logs and the cluster's), and in points/ the outcomes, the point results (less what
// analysis::foreign_entries finds in them) and the temporary files of points that were stopped.
std::vector<std::string> foreign_sweep_entries(const std::filesystem::path& dir);
SweepSpec load_sweep(const std::filesystem::path& dir);
// What the outcome file of point `index` says, and whether it can be kept. An outcome is kept only when it is
// the one rsoc wrote for this point of this sweep: its checksum matches its content (it was not edited), it
// names this sweep, this point's index and this point's parameter values (it was not copied from another
// point), and the result folder it recorded is still there with every file as it was (not deleted, not
// changed). Anything else is rejected with the reason, and the point runs again when the sweep is resumed.
enum class OutcomeState { kMissing, kKept, kRejected };
struct RecordedOutcome {
  OutcomeState state = OutcomeState::kMissing;
  std::string problem;  // why a rejected outcome is not kept ("points/0001.json is the outcome of ...")
  analysis::SweepPoint point;  // the kept outcome; status "missing" otherwise (with the problem as its error)
};
RecordedOutcome check_outcome(const SweepSpec& spec, const std::filesystem::path& dir, std::size_t index);
// Whether point `index` has finished: it has an outcome that can be kept (check_outcome).
bool point_finished(const SweepSpec& spec, const std::filesystem::path& dir, std::size_t index);

// Runs point `index` in this process and records its outcome (also when it fails). Returns the outcome. An
// interrupt (Interrupted) or results that cannot be written (analysis::OutputDirError) record nothing: the
// point runs again when the sweep is resumed.
analysis::SweepPoint run_point(const std::filesystem::path& dir, std::size_t index);
// The recorded outcome of point `index` (status "missing" when it has none yet, or one that cannot be kept:
// then its error says why).
analysis::SweepPoint read_point(const SweepSpec& spec, const std::filesystem::path& dir, std::size_t index);

// Records point `index` as failed with `error` (a point process that ended without recording its outcome).
void record_point_failure(const std::filesystem::path& dir, std::size_t index, const std::string& error);

// Builds DIR/sweep.csv from the points' outcomes (points without one are listed as missing). Returns the
// number of missing points.
std::size_t merge_sweep(const std::filesystem::path& dir);

// The indices of the points of the sweep in `dir` that have no outcome to keep (check_outcome); a rejected
// one is said on stderr with the reason.
std::vector<std::size_t> points_to_run(const SweepSpec& spec, const std::filesystem::path& dir);

// Running a sweep's points elsewhere (rsoc sweep --emit): a job list for GNU Parallel (DIR/jobs.txt, one
// `rsoc point` command per line) or a Slurm array script (DIR/sweep.slurm, one array task per point).
enum class JobRunner { kParallel, kSlurm };
inline constexpr models::NameTable<JobRunner, 2> kJobRunnerNames{
    {{{JobRunner::kParallel, "parallel"}, {JobRunner::kSlurm, "slurm"}}}};
struct JobDescription {
  std::filesystem::path file;  // what was written
  std::string command;         // what runs it
};
// Writes what runs the points `todo` of the sweep in `dir` with `rsoc` (the executable): Parallel runs
// `parallel_jobs` at a time; a Slurm array runs at most `array_limit` at a time when given.
JobDescription write_job_description(JobRunner runner, const SweepSpec& spec,
                                     const std::filesystem::path& dir, const std::vector<std::size_t>& todo,
                                     const std::filesystem::path& rsoc, unsigned parallel_jobs,
                                     std::optional<std::uint64_t> array_limit);
// `s` quoted for a POSIX shell.
std::string shell_quote(const std::string& s);

}  // namespace rsoc::platform
