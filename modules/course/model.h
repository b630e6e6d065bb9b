#pragma once
// The course model: what the loader (loader.h) builds from content/ and what the app shows.
// Plain value types, Qt-free. Every text field is UTF-8; Markdown fields are raw Markdown for the app to render.
// A model object only exists after validation passed (loader.h), so its invariants hold:
// ids are unique where stated, every quiz question has its correct choices, every line number is in range.

#include "engine/problem/spec.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tkm::course {

/// The seven activity kinds of docs/content-format.md, in the spelling of module.json's `kind`.
enum class ActivityKind { Lesson, Walkthrough, Quiz, SpotTheBug, DragMatch, StepThrough, Exercise };

/// `kind` spelling of an activity kind ("lesson", "spot-the-bug", …).
std::string_view activityKindName(ActivityKind kind);
/// Parses a module.json `kind`; nullopt for an unknown spelling.
std::optional<ActivityKind> parseActivityKind(std::string_view name);

/// Callout kinds of a lesson page (`> [!PROBE] title`).
enum class CalloutKind {
    Probe,   ///< what interviewers probe
    Gotcha,  ///< a trap
    Rule,    ///< a rule to remember
    Version, ///< a version note (Triton / CUDA / PyTorch release differences)
    Note     ///< anything else worth a box
};

/// Upper-case spelling used in Markdown ("PROBE", …).
std::string_view calloutKindName(CalloutKind kind);
/// Parses "PROBE", "GOTCHA", "RULE", "VERSION", "NOTE" (exact case); nullopt otherwise.
std::optional<CalloutKind> parseCalloutKind(std::string_view name);

/// One callout box found in a lesson page. The Markdown body keeps the callout too; this list is for
/// validation and for views that collect callouts (e.g. "all interviewer probes of this module").
struct Callout
{
    CalloutKind kind = CalloutKind::Note; ///< box kind
    std::string title;                    ///< text after `[!KIND]` on the first line (may be empty)
    std::string body;                     ///< the following `>` lines, markers stripped, joined by '\n'
    int line = 0;                         ///< [1-based line in the .md file] of the `> [!KIND]` line
};

/// A lesson page (`lessons/*.md`).
struct Lesson
{
    std::string title;             ///< front matter `title`
    std::optional<int> minutes;    ///< front matter `minutes` [min], when given
    std::string markdown;          ///< the page body after the front matter block
    int bodyFirstLine = 1;         ///< [1-based line in the .md file] of the body's first line
    std::vector<Callout> callouts; ///< callouts in page order (none inside fenced code blocks)
};

/// One pane of a code walkthrough, e.g. the Triton version or its CUDA mirror.
struct WalkthroughPane
{
    std::string label;                ///< tab label, e.g. "Triton"
    std::string language;             ///< "python", "cuda", "cpp", "text" or "shell"
    std::string code;                 ///< the listing (from `code` or `code_file`)
    std::map<int, std::string> notes; ///< [1-based line of `code`] → Markdown note; every line is inside the listing
};

/// A code walkthrough: one or more panes with per-line notes.
struct Walkthrough
{
    std::vector<WalkthroughPane> panes; ///< at least one
};

/// One answer choice of a quiz question.
struct Choice
{
    std::string text;        ///< Markdown
    bool correct = false;    ///< whether this choice is (one of) the right answer(s)
    std::string explanation; ///< Markdown; shown after answering, for every choice (never empty)
};

/// One multiple-choice question.
struct Question
{
    std::string id;              ///< unique within its quiz
    std::string prompt;          ///< Markdown
    bool multiple = false;       ///< true: check boxes, ≥1 correct; false: radio buttons, exactly 1 correct
    std::string code;            ///< optional listing shown above the choices (empty when none)
    std::string language;        ///< language of `code` (empty when no code)
    std::vector<Choice> choices; ///< at least two
    std::string followup;        ///< optional senior interviewer's next question (Markdown; may be empty)
    std::string followupAnswer;  ///< its answer (Markdown); non-empty exactly when `followup` is
};

/// A multiple-choice quiz.
struct Quiz
{
    std::vector<Question> questions; ///< at least one, ids unique
};

/// "Run it on my GPU" for a spot-the-bug item: an exercise of the same module and a kernel to run with it.
struct SpotTheBugRun
{
    std::filesystem::path
        exerciseFolder;               ///< absolute-or-root-relative path of the exercise folder (holds exercise.json)
    std::filesystem::path kernelFile; ///< the faulty kernel (.cu) to run through the engine
};

/// Spot the bug: a listing with its faulty line(s).
struct SpotTheBug
{
    std::string language;             ///< "python", "cuda", …
    std::string code;                 ///< the faulty listing
    std::vector<int> bugLines;        ///< [1-based lines of `code`], sorted, at least one, all inside the listing
    std::string why;                  ///< Markdown: why it is wrong
    std::string fix;                  ///< Markdown: how to fix it
    std::string fixedCode;            ///< optional corrected listing (empty when none)
    std::optional<SpotTheBugRun> run; ///< optional runnable demonstration
};

/// A drop target of a drag-match activity.
struct DragTarget
{
    std::string id;   ///< unique among the activity's targets
    std::string text; ///< label
};

/// A draggable item and its right target.
struct DragItem
{
    std::string id;          ///< unique among the activity's items
    std::string text;        ///< label
    std::string target;      ///< id of an existing DragTarget
    std::string explanation; ///< Markdown; why it belongs there (never empty)
};

/// Most targets a drag-match may have: the app places items with the number keys 1-9.
inline constexpr std::size_t kMaxDragTargets = 9;

/// Drag each item onto its target; a target may take several items.
struct DragMatch
{
    std::string prompt;              ///< Markdown instruction
    std::vector<DragTarget> targets; ///< 1 to kMaxDragTargets
    std::vector<DragItem> items;     ///< at least one
};

/// The pictures the app can animate (docs/content-format.md, step-through table).
enum class Diagram { Traffic, OnlineSoftmax, TileGrid, Pipeline, Table };

/// `diagram` spelling ("traffic", "online-softmax", "tile-grid", "pipeline", "table").
std::string_view diagramName(Diagram diagram);
/// Parses a `diagram` spelling; nullopt for an unknown one.
std::optional<Diagram> parseDiagram(std::string_view name);

/// One step of a step-through.
struct Step
{
    std::string title;    ///< short heading
    std::string text;     ///< Markdown
    nlohmann::json state; ///< the diagram's state after this step; has every field the diagram needs
};

/// An ordered, animated sequence of states.
struct StepThrough
{
    Diagram diagram = Diagram::Table; ///< which picture
    nlohmann::json params;            ///< free-form parameters of the picture (an object; empty object when absent)
    std::vector<Step> steps;          ///< at least one
};

/// A meta-parameter of an exercise (copied from the spec for the app's controls).
struct ExerciseMeta
{
    std::string name;               ///< e.g. "BLOCK_SIZE"
    long long defaultValue = 0;     ///< value used when the learner sets none
    std::vector<long long> allowed; ///< allowed values; empty when any value is allowed
};

/// A coding exercise: an engine exercise folder (docs/exercise-spec.md).
struct Exercise
{
    std::filesystem::path folder;       ///< the exercise folder (holds exercise.json)
    std::string specId;                 ///< exercise.json `id`
    std::string kernel;                 ///< entry point the learner writes
    std::string prompt;                 ///< Markdown task statement (contents of the prompt file)
    std::string starter;                ///< starter source (what the editor opens with)
    std::string solution;               ///< solution source (shown on request)
    std::filesystem::path starterFile;  ///< path of the starter source
    std::filesystem::path solutionFile; ///< path of the solution source
    std::vector<std::string> hints;     ///< Markdown, shown one at a time (the CUDA track's)
    std::string tritonPrompt;           ///< Markdown of the Triton track's prompt ("triton"/"prompt"); empty: none
    std::vector<std::string> tritonHints; ///< the Triton track's hints ("triton"/"hints"), shown one at a time
    std::vector<ExerciseMeta> meta;     ///< meta-parameters in spec order
    bool autotune = false;              ///< the spec has an `autotune` block (learner lists configurations)
    std::shared_ptr<const problem::ExerciseSpec> spec; ///< the full parsed spec (engine/problem/spec.h), never null
};

/// Kind-specific content of an activity; the alternative matches Activity::kind.
using ActivityPayload = std::variant<Lesson, Walkthrough, Quiz, SpotTheBug, DragMatch, StepThrough, Exercise>;

/// One entry of a module's activity list.
struct Activity
{
    std::string id;                           ///< unique within the module
    ActivityKind kind = ActivityKind::Lesson; ///< which payload alternative is held
    std::string title;                        ///< lesson front matter title, activity file `title`, or exercise title
    std::filesystem::path source;             ///< the .md / .json file, or the exercise folder
    ActivityPayload payload;                  ///< kind-specific content

    /// The payload as T (e.g. `activity.as<Quiz>()`); nullptr when the activity holds another kind.
    template <class T> const T* as() const { return std::get_if<T>(&payload); }
};

/// One module folder (`content/NN-name/module.json`).
struct Module
{
    std::string id;                         ///< unique in the course
    std::string title;                      ///< shown in the course list
    std::string summary;                    ///< one or two sentences (Markdown)
    int order = 0;                          ///< position in the course (1-based, unique)
    int estimatedMinutes = 0;               ///< [min] expected study time
    std::vector<std::string> prerequisites; ///< ids of modules to do first (in a course: existing, earlier modules)
    std::filesystem::path folder;           ///< the module folder
    std::vector<Activity> activities;       ///< in the order shown

    /// The activity with this id, or nullptr.
    const Activity* findActivity(std::string_view activityId) const;
};

/// The whole course (`content/course.json` plus every module folder).
struct Course
{
    std::string title;           ///< course title
    std::string summary;         ///< Markdown of the closing summary page (front matter stripped)
    std::string summaryTitle;    ///< front matter title of the closing summary
    std::string throughLine;     ///< one or two sentences: the idea that connects the modules
    std::filesystem::path root;  ///< the content root folder
    std::vector<Module> modules; ///< sorted by Module::order

    /// The module with this id, or nullptr.
    const Module* findModule(std::string_view moduleId) const;
};

} // namespace tkm::course
