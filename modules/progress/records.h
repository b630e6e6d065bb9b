#pragma once
// The records of the progress store: one plain struct per kind of learner event. Every record names its module and
// activity by the ids of content/ (module.json `id`, activity `id`). Times are UTC milliseconds since the Unix
// epoch; a record given to the store with atMs == 0 is stamped with the current time.

#include "engine/report/run_report.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tkm::progress {

/// Where a record belongs: a module and one of its activities.
struct ActivityRef
{
    std::string moduleId;   ///< module.json `id`
    std::string activityId; ///< activity `id`, unique within the module
};

/// A filter for queries: empty moduleId = every module; empty activityId = every activity of the module.
struct Scope
{
    std::string moduleId;   ///< module to look at, or empty for all
    std::string activityId; ///< activity to look at, or empty for all of the module
};

/// One answer to one quiz question.
struct QuizAnswer
{
    int64_t id = 0;           ///< row id, set by the store
    ActivityRef where;        ///< the quiz activity
    std::string questionId;   ///< the question's `id` within the quiz
    std::vector<int> choices; ///< [0-based indices into the question's choices] the learner selected
    bool correct = false;     ///< graded by the app: exactly the right choices
    int64_t atMs = 0;         ///< [ms since epoch, UTC] when answered
};

/// One pick in a spot-the-bug activity.
struct SpotPick
{
    int64_t id = 0;         ///< row id, set by the store
    ActivityRef where;      ///< the spot-the-bug activity
    std::vector<int> lines; ///< [1-based lines of the listing] the learner marked
    bool correct = false;   ///< graded by the app: the marked lines are the bug lines
    int64_t atMs = 0;       ///< [ms since epoch, UTC] when submitted
};

/// One submitted placement of a drag-match activity.
struct DragAttempt
{
    int64_t id = 0;           ///< row id, set by the store
    ActivityRef where;        ///< the drag-match activity
    nlohmann::json placement; ///< object: item id → target id (the learner's drops; unplaced items absent)
    int correctCount = 0;     ///< items on their right target
    int itemCount = 0;        ///< items in the activity (a fully right attempt has correctCount == itemCount)
    int64_t atMs = 0;         ///< [ms since epoch, UTC] when submitted
};

/// A step-through watched to its last step.
struct StepCompletion
{
    int64_t id = 0;    ///< row id, set by the store
    ActivityRef where; ///< the step-through activity
    int stepCount = 0; ///< steps in the sequence when it was finished
    int64_t atMs = 0;  ///< [ms since epoch, UTC] when the last step was reached
};

/// Which kind of help an exercise showed.
enum class HelpKind { Hint, Solution };

/// A hint or the solution shown to the learner.
struct HelpView
{
    int64_t id = 0;                 ///< row id, set by the store
    ActivityRef where;              ///< the exercise activity
    HelpKind kind = HelpKind::Hint; ///< hint or solution
    int hintIndex = 0;              ///< [0-based] which hint (0 for the solution)
    int64_t atMs = 0;               ///< [ms since epoch, UTC] when shown
};

/// One kernel run of an exercise with its figures (docs/run-report.md); kernelRunFromReport() fills one.
struct KernelRun
{
    int64_t id = 0;                                 ///< row id, set by the store
    ActivityRef where;                              ///< the exercise activity
    std::string exerciseId;                         ///< exercise.json `id`
    std::string source;                             ///< the kernel source as run (empty in history listings)
    nlohmann::json meta = nlohmann::json::object(); ///< meta-parameters, e.g. {"BLOCK_SIZE": 1024}
    report::Verdict verdict = report::Verdict::Error; ///< run report `verdict`
    std::optional<double> medianMs;       ///< [ms] timing.median_ms
    std::optional<double> achievedGbps;   ///< [10⁹ B/s] timing.achieved_gbps
    std::optional<int64_t> dramReadBytes; ///< [bytes] traffic.dram_read_bytes
    std::optional<int64_t> storedBytes;   ///< [bytes] traffic.stored_bytes
    std::optional<int64_t> idealBytes;    ///< [bytes] traffic.ideal_bytes (schema v2)
    std::optional<double> ceilingGbps;    ///< [10⁹ B/s] ceilings.measured_copy_gbps, else theoretical (schema v2)
    std::string device;                   ///< device.name, e.g. "NVIDIA H200" (empty without a GPU)
    std::string track = "cuda";           ///< the exercise track the run used: report `language`, "triton" or "cuda"
    std::optional<report::RunReport> report; ///< the full run report (absent in history listings)
    int64_t atMs = 0;                     ///< [ms since epoch, UTC] when the run finished

    /// achievedGbps / ceilingGbps [fraction of the bandwidth ceiling], when both are known.
    std::optional<double> ceilingFraction() const;
    /// idealBytes / (dramReadBytes + storedBytes) [fraction, 1 = no excess traffic], when all are known.
    std::optional<double> dramEfficiency() const;
};

/// Reads the figures of a run report (docs/run-report.md, tkm-run-report/1) into a KernelRun;
/// fields the report lacks stay empty. The report is kept whole in KernelRun::report.
KernelRun kernelRunFromReport(ActivityRef where, std::string source, const report::RunReport& report);

/// One stretch of time spent in an activity (schema v2).
struct TimeSpan
{
    int64_t id = 0;      ///< row id, set by the store
    ActivityRef where;   ///< the activity
    int64_t startMs = 0; ///< [ms since epoch, UTC] when the activity was opened
    int64_t endMs = 0;   ///< [ms since epoch, UTC] last moment known to be spent (extended while open)
};

/// A named piece of the app's view state of one activity (schema v3): the navigator state, a quiz question's
/// "answered right" flag, the meta-parameters chosen, the number of hints shown. Not a record of study: exports and
/// recordedRange() leave these out; resets delete them with the activity's records.
struct ActivityValue
{
    ActivityRef where;    ///< the activity
    std::string key;      ///< e.g. "state", "q/q-mask/right", "meta/BLOCK_SIZE"
    nlohmann::json value; ///< any JSON value (the app stores booleans, integers and strings)
    int64_t atMs = 0;     ///< [ms since epoch, UTC] when last set
};

/// Where the learner was last: the course view reopens it on start.
struct Position
{
    ActivityRef where; ///< last module and activity shown
    int64_t atMs = 0;  ///< [ms since epoch, UTC] when it was shown
};

} // namespace tkm::progress
