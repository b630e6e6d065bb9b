// The content rules on the model (validate.h): one place for what the loader checks after parsing and what the
// instructor's editor checks while the module is edited. Pointers and wording are those of the content files.
#include "modules/course/validate.h"

#include "modules/course/detail/activities.h"
#include "modules/course/detail/json_file.h"
#include "modules/course/detail/markdown.h"

#include <algorithm>
#include <map>
#include <set>

namespace tkm::course {

namespace detail {

namespace {

const std::set<std::string, std::less<>> kLanguages{"python", "cuda", "cpp", "text", "shell"};

bool isId(const std::string& id)
{
    return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}

bool blank(const std::string& text)
{
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

// The fields of one object: `what` names it as the loader's messages do ("quiz question", "choice", …).
class Fields
{
public:
    Fields(Reporter& out, std::string pointer, std::string what)
        : m_out(out), m_pointer(std::move(pointer)), m_what(std::move(what))
    {
    }
    std::string at(std::string_view key) const { return pointerAppend(m_pointer, key); }
    std::string at(std::string_view key, std::size_t index) const { return pointerAppend(at(key), index); }
    Reporter& out() { return m_out; }

    /// A required text: not blank.
    void text(const char* key, const std::string& value)
    {
        if (blank(value)) {
            m_out.error(at(key), "\"" + std::string(key) + "\" in " + m_what + " must not be empty");
        }
    }
    /// A required list: not empty.
    void list(const char* key, std::size_t size)
    {
        if (size == 0) {
            m_out.error(at(key), "\"" + std::string(key) + "\" in " + m_what + " must not be empty");
        }
    }
    /// An integer in [minValue, maxValue].
    void range(const char* key, long long value, long long minValue, long long maxValue)
    {
        if (value < minValue || value > maxValue) {
            m_out.error(at(key), "\"" + std::string(key) + "\" in " + m_what + " is " + std::to_string(value) +
                                     "; it must lie between " + std::to_string(minValue) + " and " +
                                     std::to_string(maxValue));
        }
    }
    /// A listing language (python, cuda, cpp, text, shell).
    void language(const std::string& value)
    {
        if (kLanguages.count(value) == 0) {
            m_out.error(at("language"),
                        "unknown language \"" + value + "\"; use one of python, cuda, cpp, text, shell");
        }
    }

private:
    Reporter& m_out;
    std::string m_pointer;
    std::string m_what;
};

// Ids unique within one list: the second use is reported and names the item that had it first.
class IdSet
{
public:
    IdSet(Reporter& out, std::string what) : m_out(out), m_what(std::move(what)) {}
    /// Checks `id` of item `index` [0-based] at `pointer`; true when it is well formed (even if taken).
    bool add(const std::string& id, std::size_t index, const std::string& pointer)
    {
        if (!isId(id)) {
            m_out.error(pointer, "the id \"" + id + "\" may only use lower-case letters, digits and '-'");
            return false;
        }
        if (const auto [it, inserted] = m_first.emplace(id, index); !inserted) {
            m_out.error(pointer, "duplicate " + m_what + " id \"" + id + "\": " + m_what + " " +
                                     std::to_string(it->second + 1) + " has it already; ids must be unique");
        }
        return true;
    }
    bool contains(const std::string& id) const { return m_first.count(id) > 0; }

private:
    Reporter& m_out;
    std::string m_what;
    std::map<std::string, std::size_t> m_first;
};

void checkWalkthrough(const Walkthrough& w, Fields& top)
{
    top.list("panes", w.panes.size());
    for (std::size_t i = 0; i < w.panes.size(); ++i) {
        const WalkthroughPane& pane = w.panes[i];
        Fields f(top.out(), top.at("panes", i), "walkthrough pane");
        f.text("label", pane.label);
        f.language(pane.language);
        f.text("code", pane.code);
        const int lines = listingLineCount(pane.code);
        for (const auto& [line, note] : pane.notes) {
            const std::string pointer = pointerAppend(f.at("notes"), std::to_string(line));
            if (line < 1) {
                f.out().error(pointer,
                              "note keys are 1-based line numbers such as \"4\", not \"" + std::to_string(line) + "\"",
                              true);
            } else if (!pane.code.empty() && line > lines) {
                f.out().error(pointer,
                              "note for line " + std::to_string(line) + ", but the listing of pane \"" + pane.label +
                                  "\" has " + std::to_string(lines) + " lines",
                              true);
            } else if (blank(note)) {
                f.out().error(pointer, "the note for line " + std::to_string(line) + " must be a non-empty string");
            }
        }
    }
}

void checkQuestion(const Question& q, Fields& f)
{
    f.text("prompt", q.prompt);
    if (!q.code.empty()) {
        f.language(q.language);
    } else if (!q.language.empty()) {
        f.out().error(f.at("language"), "\"language\" belongs to a \"code\" listing, and this question has none",
                      true);
    }
    if (!blank(q.followup) && blank(q.followupAnswer)) {
        f.out().error(f.at("followup"),
                      "a \"followup\" needs its \"followup_answer\" (the answer a senior interviewer expects)", true);
    }
    if (blank(q.followup) && !blank(q.followupAnswer)) {
        f.out().error(f.at("followup_answer"), "\"followup_answer\" without a \"followup\" question", true);
    }
    if (q.choices.size() < 2) {
        f.out().error(f.at("choices"), "a question needs at least two choices");
    }
    for (std::size_t c = 0; c < q.choices.size(); ++c) {
        Fields choice(f.out(), f.at("choices", c), "choice");
        choice.text("text", q.choices[c].text);
        choice.text("explanation", q.choices[c].explanation);
    }
    const auto correct = std::count_if(q.choices.begin(), q.choices.end(), [](const Choice& c) { return c.correct; });
    if (correct == 0) {
        f.out().error(f.at("choices"),
                      "question \"" + q.id + "\" has no correct choice: mark the right answer \"correct\": true");
    } else if (!q.multiple && correct > 1) {
        f.out().error(f.at("choices"),
                      "question \"" + q.id + "\" has " + std::to_string(correct) +
                          " correct choices but \"multiple\" is false: mark exactly one, or set \"multiple\": true");
    }
}

void checkQuiz(const Quiz& quiz, Fields& top)
{
    top.list("questions", quiz.questions.size());
    IdSet ids(top.out(), "question");
    for (std::size_t i = 0; i < quiz.questions.size(); ++i) {
        Fields f(top.out(), top.at("questions", i), "quiz question");
        ids.add(quiz.questions[i].id, i, f.at("id"));
        checkQuestion(quiz.questions[i], f);
    }
}

void checkSpotTheBug(const SpotTheBug& s, Fields& top)
{
    top.language(s.language);
    top.text("code", s.code);
    top.list("bug_lines", s.bugLines.size());
    const int lines = listingLineCount(s.code);
    std::set<int> seen;
    for (std::size_t i = 0; i < s.bugLines.size(); ++i) {
        const int line = s.bugLines[i];
        if (!s.code.empty() && (line < 1 || line > lines)) {
            top.out().error(top.at("bug_lines", i), "bug line " + std::to_string(line) +
                                                        " is outside the listing, which has lines 1 to " +
                                                        std::to_string(lines));
        } else if (!seen.insert(line).second) {
            top.out().error(top.at("bug_lines", i), "bug line " + std::to_string(line) + " is listed twice");
        }
    }
    top.text("why", s.why);
    top.text("fix", s.fix);
}

void checkDragMatch(const DragMatch& d, Fields& top)
{
    top.text("prompt", d.prompt);
    top.list("targets", d.targets.size());
    IdSet targets(top.out(), "target");
    for (std::size_t i = 0; i < d.targets.size(); ++i) {
        Fields f(top.out(), top.at("targets", i), "drag-match target");
        targets.add(d.targets[i].id, i, f.at("id"));
        f.text("text", d.targets[i].text);
    }
    if (d.targets.size() > kMaxDragTargets) {
        top.out().error(top.at("targets", kMaxDragTargets),
                        "a drag-match has at most " + std::to_string(kMaxDragTargets) +
                            " targets (the learner places items with the number keys 1-9); this one has " +
                            std::to_string(d.targets.size()) + ": split it into two activities");
    }
    top.list("items", d.items.size());
    IdSet items(top.out(), "item");
    for (std::size_t i = 0; i < d.items.size(); ++i) {
        const DragItem& item = d.items[i];
        Fields f(top.out(), top.at("items", i), "drag-match item");
        items.add(item.id, i, f.at("id"));
        f.text("text", item.text);
        if (!targets.contains(item.target)) {
            f.out().error(f.at("target"), "item \"" + item.id + "\" names the target \"" + item.target +
                                              "\", which is not among this activity's targets");
        }
        f.text("explanation", item.explanation);
    }
}

void checkStepThrough(const StepThrough& s, Fields& top)
{
    top.list("steps", s.steps.size());
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        Fields f(top.out(), top.at("steps", i), "step");
        f.text("title", s.steps[i].title);
        f.text("text", s.steps[i].text);
        checkDiagramState(s.diagram, s.steps[i].state, top.out(), f.at("state"));
    }
}

void checkLesson(const Lesson& lesson, Reporter& out)
{
    if (blank(lesson.title)) {
        out.error("/title", "the front matter \"title\" is empty; give the page a title");
    }
    if (lesson.minutes && (*lesson.minutes < 1 || *lesson.minutes > 600)) {
        out.error("/minutes", "\"minutes\" must be a whole number of minutes between 1 and 600, not \"" +
                                  std::to_string(*lesson.minutes) + "\"");
    }
}

} // namespace

void checkActivity(const Activity& activity, Reporter& out)
{
    Fields top(out, "", std::string(activityKindName(activity.kind)) + " file");
    if (activity.kind != ActivityKind::Lesson && activity.kind != ActivityKind::Exercise) {
        top.text("title", activity.title);
    }
    std::visit(
        [&](const auto& payload) {
            using T = std::decay_t<decltype(payload)>;
            if constexpr (std::is_same_v<T, Lesson>) {
                checkLesson(payload, out);
            } else if constexpr (std::is_same_v<T, Walkthrough>) {
                checkWalkthrough(payload, top);
            } else if constexpr (std::is_same_v<T, Quiz>) {
                checkQuiz(payload, top);
            } else if constexpr (std::is_same_v<T, SpotTheBug>) {
                checkSpotTheBug(payload, top);
            } else if constexpr (std::is_same_v<T, DragMatch>) {
                checkDragMatch(payload, top);
            } else if constexpr (std::is_same_v<T, StepThrough>) {
                checkStepThrough(payload, top);
            }
        },
        activity.payload);
}

void checkModuleFields(const Module& module, Reporter& out)
{
    Fields top(out, "", "module.json");
    if (!isId(module.id)) {
        out.error("/id", "the module id \"" + module.id + "\" may only use lower-case letters, digits and '-'");
    }
    top.text("title", module.title);
    top.text("summary", module.summary);
    top.range("order", module.order, 1, 1000);
    top.range("estimated_minutes", module.estimatedMinutes, 1, 100000);
    for (std::size_t i = 0; i < module.prerequisites.size(); ++i) {
        const std::string& id = module.prerequisites[i];
        const std::string pointer = top.at("prerequisites", i);
        if (!isId(id)) {
            out.error(pointer, "a prerequisite is a module id (lower-case letters, digits and '-')");
        } else if (id == module.id) {
            out.error(pointer, "a module cannot be its own prerequisite");
        } else if (std::find(module.prerequisites.begin(), module.prerequisites.begin() + static_cast<long>(i), id) !=
                   module.prerequisites.begin() + static_cast<long>(i)) {
            out.error(pointer, "prerequisite \"" + id + "\" is listed twice");
        }
    }
    top.list("activities", module.activities.size());
    std::map<std::string, std::size_t> ids;
    for (std::size_t i = 0; i < module.activities.size(); ++i) {
        const std::string& id = module.activities[i].id;
        const std::string pointer = pointerAppend(top.at("activities", i), "id");
        if (!isId(id)) {
            out.error(pointer, "the activity id \"" + id + "\" may only use lower-case letters, digits and '-'");
        } else if (const auto [it, inserted] = ids.emplace(id, i); !inserted) {
            out.error(pointer, "duplicate activity id \"" + id + "\": activity " + std::to_string(it->second + 1) +
                                   " has it already; activity ids must be unique within the module");
        }
    }
}

void ModelRulesInto::add(const std::string& pointer, Severity severity, std::string message, bool atKey)
{
    if (!m_file.covered(pointer)) {
        m_file.add(pointer, severity, std::move(message), atKey);
    }
}

void ModelRulesInto::missing(const std::string& object, const std::string& field, std::string message)
{
    if (!m_file.covered(field)) {
        m_file.missing(object, field, std::move(message));
    }
}

} // namespace detail

namespace {

// Collects findings for one file of the module (module.json or one activity's file).
class Collect : public detail::Reporter
{
public:
    Collect(std::vector<FieldDiagnostic>& out, int activity) : m_out(out), m_activity(activity) {}
    void add(const std::string& pointer, Severity severity, std::string message, bool atKey) override
    {
        m_out.push_back({m_activity, pointer, 0, atKey, severity, std::move(message)});
    }

private:
    std::vector<FieldDiagnostic>& m_out;
    int m_activity;
};

} // namespace

std::vector<FieldDiagnostic> validate(const Module& module)
{
    std::vector<FieldDiagnostic> out;
    Collect moduleFile(out, -1);
    detail::checkModuleFields(module, moduleFile);
    for (std::size_t i = 0; i < module.activities.size(); ++i) {
        const int index = static_cast<int>(i);
        Collect activityFile(out, index);
        detail::checkActivity(module.activities[i], activityFile);
        if (const Lesson* lesson = module.activities[i].as<Lesson>()) {
            // The loader's Markdown parser checks callouts as it reads a page; here the body is checked alone.
            std::vector<Callout> callouts;
            std::vector<Diagnostic> found;
            detail::scanLessonBody(lesson->markdown, 1, callouts, found);
            for (Diagnostic& d : found) {
                out.push_back({index, "/markdown/" + std::to_string(d.line), d.column, false, d.severity,
                               std::move(d.message)});
            }
        }
    }
    return out;
}

std::vector<Callout> lessonCallouts(const std::string& markdown, int bodyFirstLine)
{
    std::vector<Callout> callouts;
    std::vector<Diagnostic> ignored;
    detail::scanLessonBody(markdown, bodyFirstLine, callouts, ignored);
    return callouts;
}

} // namespace tkm::course
