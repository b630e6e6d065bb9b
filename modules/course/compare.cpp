// contentDifference (writer.h): field-by-field comparison of two modules' content.
#include "modules/course/writer.h"

#include <sstream>

namespace tkm::course {

namespace {

// Collects the first difference; every check after it is skipped.
class Diff
{
public:
    bool found() const { return !m_text.empty(); }
    const std::string& text() const { return m_text; }

    template <class T> void field(const std::string& where, const char* name, const T& a, const T& b)
    {
        if (!found() && !(a == b)) {
            m_text = where + (where.empty() ? "" : ": ") + name + " differs";
        }
    }
    void size(const std::string& where, const char* name, std::size_t a, std::size_t b)
    {
        if (!found() && a != b) {
            std::ostringstream out;
            out << where << (where.empty() ? "" : ": ") << "number of " << name << " differs (" << a << " vs " << b
                << ")";
            m_text = out.str();
        }
    }

private:
    std::string m_text;
};

std::string at(const std::string& where, const char* what, std::size_t index)
{
    return where + ", " + what + " " + std::to_string(index + 1);
}

void compare(Diff& d, const std::string& w, const Lesson& a, const Lesson& b)
{
    d.field(w, "lesson title", a.title, b.title);
    d.field(w, "minutes", a.minutes, b.minutes);
    d.field(w, "Markdown", a.markdown, b.markdown); // callouts are parsed from it: not compared on their own
}

void compare(Diff& d, const std::string& w, const Walkthrough& a, const Walkthrough& b)
{
    d.size(w, "panes", a.panes.size(), b.panes.size());
    for (std::size_t i = 0; !d.found() && i < a.panes.size(); ++i) {
        const std::string p = at(w, "pane", i);
        d.field(p, "label", a.panes[i].label, b.panes[i].label);
        d.field(p, "language", a.panes[i].language, b.panes[i].language);
        d.field(p, "code", a.panes[i].code, b.panes[i].code);
        d.field(p, "notes", a.panes[i].notes, b.panes[i].notes);
    }
}

void compare(Diff& d, const std::string& w, const Quiz& a, const Quiz& b)
{
    d.size(w, "questions", a.questions.size(), b.questions.size());
    for (std::size_t i = 0; !d.found() && i < a.questions.size(); ++i) {
        const Question& x = a.questions[i];
        const Question& y = b.questions[i];
        const std::string q = at(w, "question", i);
        d.field(q, "id", x.id, y.id);
        d.field(q, "prompt", x.prompt, y.prompt);
        d.field(q, "multiple", x.multiple, y.multiple);
        d.field(q, "code", x.code, y.code);
        d.field(q, "language", x.language, y.language);
        d.field(q, "follow-up", x.followup, y.followup);
        d.field(q, "follow-up answer", x.followupAnswer, y.followupAnswer);
        d.size(q, "choices", x.choices.size(), y.choices.size());
        for (std::size_t c = 0; !d.found() && c < x.choices.size(); ++c) {
            const std::string ch = at(q, "choice", c);
            d.field(ch, "text", x.choices[c].text, y.choices[c].text);
            d.field(ch, "correct", x.choices[c].correct, y.choices[c].correct);
            d.field(ch, "explanation", x.choices[c].explanation, y.choices[c].explanation);
        }
    }
}

void compare(Diff& d, const std::string& w, const SpotTheBug& a, const SpotTheBug& b)
{
    d.field(w, "language", a.language, b.language);
    d.field(w, "code", a.code, b.code);
    d.field(w, "bug lines", a.bugLines, b.bugLines);
    d.field(w, "why", a.why, b.why);
    d.field(w, "fix", a.fix, b.fix);
    d.field(w, "fixed code", a.fixedCode, b.fixedCode);
    d.field(w, "run", a.run.has_value(), b.run.has_value());
    if (a.run && b.run) {
        d.field(w, "run exercise", a.run->exerciseFolder.filename(), b.run->exerciseFolder.filename());
        d.field(w, "run kernel", a.run->kernelFile.filename(), b.run->kernelFile.filename());
    }
}

void compare(Diff& d, const std::string& w, const DragMatch& a, const DragMatch& b)
{
    d.field(w, "prompt", a.prompt, b.prompt);
    d.size(w, "targets", a.targets.size(), b.targets.size());
    for (std::size_t i = 0; !d.found() && i < a.targets.size(); ++i) {
        d.field(at(w, "target", i), "id", a.targets[i].id, b.targets[i].id);
        d.field(at(w, "target", i), "text", a.targets[i].text, b.targets[i].text);
    }
    d.size(w, "items", a.items.size(), b.items.size());
    for (std::size_t i = 0; !d.found() && i < a.items.size(); ++i) {
        const std::string it = at(w, "item", i);
        d.field(it, "id", a.items[i].id, b.items[i].id);
        d.field(it, "text", a.items[i].text, b.items[i].text);
        d.field(it, "target", a.items[i].target, b.items[i].target);
        d.field(it, "explanation", a.items[i].explanation, b.items[i].explanation);
    }
}

void compare(Diff& d, const std::string& w, const StepThrough& a, const StepThrough& b)
{
    d.field(w, "diagram", a.diagram, b.diagram);
    d.field(w, "params", a.params, b.params);
    d.size(w, "steps", a.steps.size(), b.steps.size());
    for (std::size_t i = 0; !d.found() && i < a.steps.size(); ++i) {
        const std::string s = at(w, "step", i);
        d.field(s, "title", a.steps[i].title, b.steps[i].title);
        d.field(s, "text", a.steps[i].text, b.steps[i].text);
        d.field(s, "state", a.steps[i].state, b.steps[i].state);
    }
}

void compare(Diff& d, const std::string& w, const Exercise& a, const Exercise& b)
{
    d.field(w, "exercise id", a.specId, b.specId);
    d.field(w, "kernel", a.kernel, b.kernel);
    d.field(w, "prompt", a.prompt, b.prompt);
    d.field(w, "starter", a.starter, b.starter);
    d.field(w, "solution", a.solution, b.solution);
    d.field(w, "hints", a.hints, b.hints);
    d.field(w, "Triton prompt", a.tritonPrompt, b.tritonPrompt);
    d.field(w, "Triton hints", a.tritonHints, b.tritonHints);
}

} // namespace

std::string contentDifference(const Module& a, const Module& b)
{
    Diff d;
    d.field("", "module id", a.id, b.id);
    d.field("", "module title", a.title, b.title);
    d.field("", "summary", a.summary, b.summary);
    d.field("", "order", a.order, b.order);
    d.field("", "estimated minutes", a.estimatedMinutes, b.estimatedMinutes);
    d.field("", "prerequisites", a.prerequisites, b.prerequisites);
    d.size("", "activities", a.activities.size(), b.activities.size());
    for (std::size_t i = 0; !d.found() && i < a.activities.size(); ++i) {
        const Activity& x = a.activities[i];
        const Activity& y = b.activities[i];
        const std::string w = "activity \"" + x.id + "\"";
        d.field(w, "id", x.id, y.id);
        d.field(w, "kind", x.kind, y.kind);
        d.field(w, "title", x.title, y.title);
        if (d.found() || x.payload.index() != y.payload.index()) {
            d.field(w, "content kind", x.payload.index(), y.payload.index());
            continue;
        }
        std::visit([&](const auto& p) { compare(d, w, p, std::get<std::decay_t<decltype(p)>>(y.payload)); }, x.payload);
    }
    return d.text();
}

} // namespace tkm::course
