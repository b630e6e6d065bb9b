#include "modules/course/writer.h"

#include "modules/course/detail/json_file.h"

#include "engine/common/paths.h"

#include <nlohmann/json.hpp>

#include <system_error>

namespace tkm::course {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// The path of `p` inside `folder` ("" when it is not inside), compared lexically.
fs::path insidePath(const fs::path& folder, const fs::path& p)
{
    if (folder.empty() || p.empty()) {
        return {};
    }
    const fs::path rel = p.lexically_normal().lexically_relative(folder.lexically_normal());
    if (rel.empty() || rel == "." || *rel.begin() == "..") {
        return {};
    }
    return rel;
}

std::string modulePathText(const Module& module, const fs::path& p)
{
    const fs::path rel = insidePath(module.folder, p);
    return (rel.empty() ? p : rel).generic_string();
}

Json ordered(const nlohmann::json& value)
{
    return Json::parse(value.dump());
}

std::string jsonText(const Json& doc)
{
    return doc.dump(2) + "\n";
}

Json headerOf(const Activity& activity)
{
    Json doc;
    doc["format"] = 1;
    doc["title"] = activity.title;
    return doc;
}

Json walkthroughJson(const Activity& activity, const Walkthrough& w)
{
    Json doc = headerOf(activity);
    Json panes = Json::array();
    for (const WalkthroughPane& pane : w.panes) {
        Json p;
        p["label"] = pane.label;
        p["language"] = pane.language;
        p["code"] = pane.code;
        if (!pane.notes.empty()) {
            Json notes = Json::object();
            for (const auto& [line, note] : pane.notes) {
                notes[std::to_string(line)] = note;
            }
            p["notes"] = std::move(notes);
        }
        panes.push_back(std::move(p));
    }
    doc["panes"] = std::move(panes);
    return doc;
}

Json quizJson(const Activity& activity, const Quiz& quiz)
{
    Json doc = headerOf(activity);
    Json questions = Json::array();
    for (const Question& q : quiz.questions) {
        Json j;
        j["id"] = q.id;
        j["prompt"] = q.prompt;
        j["multiple"] = q.multiple;
        if (!q.code.empty()) {
            j["code"] = q.code;
            j["language"] = q.language;
        }
        Json choices = Json::array();
        for (const Choice& c : q.choices) {
            choices.push_back(Json{{"text", c.text}, {"correct", c.correct}, {"explanation", c.explanation}});
        }
        j["choices"] = std::move(choices);
        if (!q.followup.empty() || !q.followupAnswer.empty()) {
            j["followup"] = q.followup;
            j["followup_answer"] = q.followupAnswer;
        }
        questions.push_back(std::move(j));
    }
    doc["questions"] = std::move(questions);
    return doc;
}

Json spotTheBugJson(const Module& module, const Activity& activity, const SpotTheBug& s)
{
    Json doc = headerOf(activity);
    doc["language"] = s.language;
    doc["code"] = s.code;
    doc["bug_lines"] = s.bugLines;
    doc["why"] = s.why;
    doc["fix"] = s.fix;
    if (!s.fixedCode.empty()) {
        doc["fixed_code"] = s.fixedCode;
    }
    if (s.run) {
        doc["run"] = Json{{"exercise", modulePathText(module, s.run->exerciseFolder)},
                          {"kernel", modulePathText(module, s.run->kernelFile)}};
    }
    return doc;
}

Json dragMatchJson(const Activity& activity, const DragMatch& d)
{
    Json doc = headerOf(activity);
    doc["prompt"] = d.prompt;
    Json targets = Json::array();
    for (const DragTarget& t : d.targets) {
        targets.push_back(Json{{"id", t.id}, {"text", t.text}});
    }
    doc["targets"] = std::move(targets);
    Json items = Json::array();
    for (const DragItem& i : d.items) {
        items.push_back(Json{{"id", i.id}, {"text", i.text}, {"target", i.target}, {"explanation", i.explanation}});
    }
    doc["items"] = std::move(items);
    return doc;
}

Json stepThroughJson(const Activity& activity, const StepThrough& s)
{
    Json doc = headerOf(activity);
    doc["diagram"] = std::string(diagramName(s.diagram));
    if (s.params.is_object() && !s.params.empty()) {
        doc["params"] = ordered(s.params);
    }
    Json steps = Json::array();
    for (const Step& step : s.steps) {
        steps.push_back(Json{{"title", step.title}, {"text", step.text}, {"state", ordered(step.state)}});
    }
    doc["steps"] = std::move(steps);
    return doc;
}

// A front matter value that reads back as written (the loader strips one pair of surrounding quotes).
std::string frontMatterValue(const std::string& value)
{
    const bool quoted =
        value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front();
    const bool padded = !value.empty() && (value.front() == ' ' || value.back() == ' ');
    return quoted || padded ? "\"" + value + "\"" : value;
}

std::string lessonText(const Lesson& lesson)
{
    std::string text = "---\ntitle: " + frontMatterValue(lesson.title) + "\n";
    if (lesson.minutes) {
        text += "minutes: " + std::to_string(*lesson.minutes) + "\n";
    }
    text += "---\n";
    text += lesson.markdown;
    return text;
}

std::string activityText(const Module& module, const Activity& activity)
{
    struct Visitor
    {
        const Module& module;
        const Activity& activity;
        std::string operator()(const Lesson& l) const { return lessonText(l); }
        std::string operator()(const Walkthrough& w) const { return jsonText(walkthroughJson(activity, w)); }
        std::string operator()(const Quiz& q) const { return jsonText(quizJson(activity, q)); }
        std::string operator()(const SpotTheBug& s) const { return jsonText(spotTheBugJson(module, activity, s)); }
        std::string operator()(const DragMatch& d) const { return jsonText(dragMatchJson(activity, d)); }
        std::string operator()(const StepThrough& s) const { return jsonText(stepThroughJson(activity, s)); }
        std::string operator()(const Exercise&) const { return {}; }
    };
    return std::visit(Visitor{module, activity}, activity.payload);
}

std::string moduleJsonText(const Module& module)
{
    Json doc;
    doc["format"] = 1;
    doc["id"] = module.id;
    doc["title"] = module.title;
    doc["summary"] = module.summary;
    doc["order"] = module.order;
    doc["estimated_minutes"] = module.estimatedMinutes;
    doc["prerequisites"] = module.prerequisites;
    Json activities = Json::array();
    for (const Activity& a : module.activities) {
        Json entry;
        entry["id"] = a.id;
        entry["kind"] = std::string(activityKindName(a.kind));
        entry[a.kind == ActivityKind::Exercise ? "folder" : "file"] =
            activityRelativePath(module, static_cast<std::size_t>(&a - module.activities.data())).generic_string();
        activities.push_back(std::move(entry));
    }
    doc["activities"] = std::move(activities);
    return jsonText(doc);
}

} // namespace

fs::path activityRelativePath(const Module& module, std::size_t index)
{
    const Activity& activity = module.activities.at(index);
    fs::path rel = insidePath(module.folder, activity.source);
    if (!rel.empty()) {
        return rel;
    }
    const std::string dir = activity.kind == ActivityKind::Lesson     ? "lessons"
                            : activity.kind == ActivityKind::Exercise ? "exercises"
                                                                      : "activities";
    const std::string ext = activity.kind == ActivityKind::Lesson     ? ".md"
                            : activity.kind == ActivityKind::Exercise ? ""
                                                                      : ".json";
    // A new activity must not take the file of another one (e.g. a second quiz beside "activities/quiz.json").
    auto taken = [&](const fs::path& candidate) {
        for (std::size_t i = 0; i < module.activities.size(); ++i) {
            if (i == index) {
                continue;
            }
            const fs::path other = insidePath(module.folder, module.activities[i].source);
            if (other == candidate || (other.empty() && i < index && activityRelativePath(module, i) == candidate)) {
                return true;
            }
        }
        return false;
    };
    for (int n = 1;; ++n) {
        const fs::path candidate =
            fs::path(dir) / (activity.id + (n == 1 ? std::string() : "-" + std::to_string(n)) + ext);
        if (!taken(candidate)) {
            return candidate;
        }
    }
}

std::vector<ModuleFile> moduleFiles(const Module& module)
{
    std::vector<ModuleFile> files;
    files.push_back({"module.json", moduleJsonText(module), -1});
    for (std::size_t i = 0; i < module.activities.size(); ++i) {
        const Activity& a = module.activities[i];
        if (a.kind != ActivityKind::Exercise) {
            files.push_back({activityRelativePath(module, i), activityText(module, a), static_cast<int>(i)});
        }
    }
    return files;
}

engine::Status writeModule(const Module& module, const fs::path& destFolder)
{
    std::error_code ec;
    fs::create_directories(destFolder, ec);
    if (ec) {
        return engine::makeError(engine::ErrorKind::Io,
                                 "cannot create the module folder \"" + destFolder.string() + "\": " + ec.message());
    }
    for (const ModuleFile& f : moduleFiles(module)) {
        if (auto status = engine::writeFileAtomic(destFolder / f.relative, f.text); !status) {
            return status;
        }
    }
    // Exercise folders and spot-the-bug kernels are files of their own: copy them over when writing elsewhere.
    auto copyInto = [&](const fs::path& from, const fs::path& rel) -> engine::Status {
        const fs::path to = destFolder / rel;
        if (from.empty() || rel.empty() || fs::equivalent(from, to, ec)) {
            return {};
        }
        fs::create_directories(fs::is_directory(from) ? to : to.parent_path(), ec);
        fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
        if (ec) {
            return engine::makeError(engine::ErrorKind::Io, "cannot copy \"" + from.string() + "\" to \"" +
                                                                to.string() + "\": " + ec.message());
        }
        return {};
    };
    for (std::size_t i = 0; i < module.activities.size(); ++i) {
        const Activity& a = module.activities[i];
        engine::Status status;
        if (const Exercise* exercise = a.as<Exercise>()) {
            status = copyInto(exercise->folder.empty() ? a.source : exercise->folder, activityRelativePath(module, i));
        } else if (const SpotTheBug* s = a.as<SpotTheBug>(); s && s->run) {
            status = copyInto(s->run->exerciseFolder, insidePath(module.folder, s->run->exerciseFolder));
            if (status) {
                status = copyInto(s->run->kernelFile, insidePath(module.folder, s->run->kernelFile));
            }
        }
        if (!status) {
            return status;
        }
    }
    return {};
}

std::string jsonPointerAt(std::string_view text, int line, int column)
{
    if (!nlohmann::json::accept(text)) {
        return {};
    }
    return detail::JsonPositionIndex(text).pointerAt({line, column});
}

} // namespace tkm::course
