// Loading of the JSON activity kinds: walkthrough, quiz, spot-the-bug, drag-match, step-through.
#include "modules/course/detail/activities.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace tkm::course::detail {

namespace fs = std::filesystem;

namespace {

const std::set<std::string> kLanguages{"python", "cuda", "cpp", "text", "shell"};

std::string folderName(const fs::path& folder)
{
    fs::path p = folder.lexically_normal();
    if (p.filename().empty()) {
        p = p.parent_path();
    }
    return p.filename().generic_string();
}

std::optional<std::string> readLanguage(ObjectReader& r, JsonFile& file, bool required)
{
    std::optional<std::string> language = r.string("language", required);
    if (language && kLanguages.count(*language) == 0) {
        file.error(r.fieldPointer("language"),
                   "unknown language \"" + *language + "\"; use one of python, cuda, cpp, text, shell");
        return std::nullopt;
    }
    return language;
}

// A listing given inline (`code`) or as a file (`code_file`): exactly one of the two.
std::optional<std::string> readListing(ObjectReader& r, JsonFile& file, const fs::path& moduleFolder,
                                       const char* inlineKey, const char* fileKey, bool required)
{
    const bool hasInline = r.has(inlineKey);
    const bool hasFile = r.has(fileKey);
    if (hasInline && hasFile) {
        file.error(r.fieldPointer(fileKey),
                   "give either \"" + std::string(inlineKey) + "\" or \"" + fileKey + "\", not both", true);
        return std::nullopt;
    }
    if (hasInline) {
        return r.string(inlineKey, true);
    }
    if (hasFile) {
        const std::optional<std::string> rel = r.string(fileKey, true);
        if (!rel) {
            return std::nullopt;
        }
        const auto path = resolveModulePath(moduleFolder, file, r.fieldPointer(fileKey), *rel, false);
        if (!path) {
            return std::nullopt;
        }
        std::string text;
        if (!readTextFile(*path, text)) {
            file.error(r.fieldPointer(fileKey), "cannot read \"" + *rel + "\"");
            return std::nullopt;
        }
        if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
            file.error(r.fieldPointer(fileKey), "the listing \"" + *rel + "\" is empty");
            return std::nullopt;
        }
        return text;
    }
    if (required) {
        file.error(r.pointer(), "missing the listing: give \"" + std::string(inlineKey) + "\" (inline) or \"" +
                                    fileKey + "\" (a file of this module)");
    }
    return std::nullopt;
}

bool checkId(JsonFile& file, const std::string& pointer, const std::string& id)
{
    const bool ok = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
    if (!ok) {
        file.error(pointer, "the id \"" + id + "\" may only use lower-case letters, digits and '-'");
    }
    return ok;
}

// Ids unique within one list: reports the second occurrence and names the first one's line.
class IdSet
{
public:
    IdSet(JsonFile& file, std::string what) : m_file(file), m_what(std::move(what)) {}
    bool add(const std::string& id, const std::string& pointer)
    {
        if (!checkId(m_file, pointer, id)) {
            return false;
        }
        const auto [it, inserted] = m_first.emplace(id, pointer);
        if (!inserted) {
            m_file.error(pointer, "duplicate " + m_what + " id \"" + id + "\" (first used on line " +
                                      std::to_string(m_file.position(it->second).line) + "); ids must be unique");
        }
        return inserted;
    }
    bool contains(const std::string& id) const { return m_first.count(id) > 0; }

private:
    JsonFile& m_file;
    std::string m_what;
    std::map<std::string, std::string> m_first;
};

bool loadWalkthrough(JsonFile& file, ObjectReader& top, const fs::path& moduleFolder, Walkthrough& out)
{
    const nlohmann::json* panes = top.array("panes", true);
    if (!panes) {
        return false;
    }
    for (std::size_t i = 0; i < panes->size(); ++i) {
        const std::string pointer = pointerAppend(top.fieldPointer("panes"), i);
        ObjectReader r(file, (*panes)[i], pointer, "walkthrough pane");
        WalkthroughPane pane;
        pane.label = r.string("label", true).value_or("");
        pane.language = readLanguage(r, file, true).value_or("");
        pane.code = readListing(r, file, moduleFolder, "code", "code_file", true).value_or("");
        const int lines = listingLineCount(pane.code);
        if (const nlohmann::json* notes = r.object("notes", false)) {
            for (const auto& [key, value] : notes->items()) {
                const std::string notePointer = pointerAppend(r.fieldPointer("notes"), key);
                int line = 0;
                const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), line);
                if (ec != std::errc{} || end != key.data() + key.size() || line < 1) {
                    file.error(notePointer, "note keys are 1-based line numbers such as \"4\", not \"" + key + "\"",
                               true);
                    continue;
                }
                if (!pane.code.empty() && line > lines) {
                    file.error(notePointer,
                               "note for line " + key + ", but the listing of pane \"" + pane.label + "\" has " +
                                   std::to_string(lines) + " lines",
                               true);
                    continue;
                }
                if (!value.is_string() || value.get<std::string>().empty()) {
                    file.error(notePointer, "the note for line " + key + " must be a non-empty string");
                    continue;
                }
                pane.notes.emplace(line, value.get<std::string>());
            }
        }
        r.finish();
        out.panes.push_back(std::move(pane));
    }
    return true;
}

bool loadQuiz(JsonFile& file, ObjectReader& top, const fs::path& moduleFolder, Quiz& out)
{
    const nlohmann::json* questions = top.array("questions", true);
    if (!questions) {
        return false;
    }
    IdSet ids(file, "question");
    for (std::size_t i = 0; i < questions->size(); ++i) {
        const std::string pointer = pointerAppend(top.fieldPointer("questions"), i);
        ObjectReader r(file, (*questions)[i], pointer, "quiz question");
        if (!r.valid()) {
            continue;
        }
        Question q;
        if (auto id = r.string("id", true)) {
            q.id = *id;
            ids.add(q.id, r.fieldPointer("id"));
        }
        q.prompt = r.string("prompt", true).value_or("");
        q.multiple = r.boolean("multiple", false).value_or(false);
        if (auto code = readListing(r, file, moduleFolder, "code", "code_file", false)) {
            q.code = *code;
            q.language = readLanguage(r, file, true).value_or("");
        } else if (r.has("language")) {
            file.error(r.fieldPointer("language"),
                       "\"language\" belongs to a \"code\" listing, and this question has none", true);
        }
        q.followup = r.string("followup", false).value_or("");
        q.followupAnswer = r.string("followup_answer", false).value_or("");
        if (!q.followup.empty() && q.followupAnswer.empty() && !r.has("followup_answer")) {
            file.error(r.fieldPointer("followup"),
                       "a \"followup\" needs its \"followup_answer\" (the answer a senior "
                       "interviewer expects)",
                       true);
        }
        if (q.followup.empty() && !q.followupAnswer.empty()) {
            file.error(r.fieldPointer("followup_answer"), "\"followup_answer\" without a \"followup\" question", true);
        }
        const nlohmann::json* choices = r.array("choices", true);
        if (choices) {
            if (choices->size() < 2) {
                file.error(r.fieldPointer("choices"), "a question needs at least two choices");
            }
            for (std::size_t c = 0; c < choices->size(); ++c) {
                ObjectReader cr(file, (*choices)[c], pointerAppend(r.fieldPointer("choices"), c), "choice");
                Choice choice;
                choice.text = cr.string("text", true).value_or("");
                choice.correct = cr.boolean("correct", true).value_or(false);
                choice.explanation = cr.string("explanation", true).value_or("");
                cr.finish();
                q.choices.push_back(std::move(choice));
            }
            const auto correct =
                std::count_if(q.choices.begin(), q.choices.end(), [](const Choice& c) { return c.correct; });
            if (correct == 0) {
                file.error(r.fieldPointer("choices"),
                           "question \"" + q.id + "\" has no correct choice: mark the right answer \"correct\": true");
            } else if (!q.multiple && correct > 1) {
                file.error(
                    r.fieldPointer("choices"),
                    "question \"" + q.id + "\" has " + std::to_string(correct) +
                        " correct choices but \"multiple\" is false: mark exactly one, or set \"multiple\": true");
            }
        }
        r.finish();
        out.questions.push_back(std::move(q));
    }
    return true;
}

bool loadSpotTheBug(JsonFile& file, ObjectReader& top, const fs::path& moduleFolder, SpotTheBug& out)
{
    out.language = readLanguage(top, file, true).value_or("");
    const std::optional<std::string> code = readListing(top, file, moduleFolder, "code", "code_file", true);
    out.code = code.value_or("");
    const int lines = listingLineCount(out.code);
    if (const nlohmann::json* bugLines = top.array("bug_lines", true)) {
        for (std::size_t i = 0; i < bugLines->size(); ++i) {
            const nlohmann::json& v = (*bugLines)[i];
            const std::string pointer = pointerAppend(top.fieldPointer("bug_lines"), i);
            if (!v.is_number_integer()) {
                file.error(pointer, "bug lines are 1-based line numbers, not " + jsonTypeName(v));
                continue;
            }
            const long long line = v.get<long long>();
            if (code && (line < 1 || line > lines)) {
                file.error(pointer, "bug line " + std::to_string(line) +
                                        " is outside the listing, which has lines 1 to " + std::to_string(lines));
                continue;
            }
            if (std::find(out.bugLines.begin(), out.bugLines.end(), line) != out.bugLines.end()) {
                file.error(pointer, "bug line " + std::to_string(line) + " is listed twice");
                continue;
            }
            out.bugLines.push_back(static_cast<int>(line));
        }
        std::sort(out.bugLines.begin(), out.bugLines.end());
    }
    out.why = top.string("why", true).value_or("");
    out.fix = top.string("fix", true).value_or("");
    out.fixedCode = readListing(top, file, moduleFolder, "fixed_code", "fixed_code_file", false).value_or("");
    if (const nlohmann::json* run = top.object("run", false)) {
        ObjectReader r(file, *run, top.fieldPointer("run"), "\"run\"");
        const auto exercise = r.string("exercise", true);
        const auto kernel = r.string("kernel", true);
        r.finish();
        if (exercise && kernel) {
            const auto folder = resolveModulePath(moduleFolder, file, r.fieldPointer("exercise"), *exercise, true);
            const auto kernelFile = resolveModulePath(moduleFolder, file, r.fieldPointer("kernel"), *kernel, false);
            if (folder && !fs::is_regular_file(*folder / "exercise.json")) {
                file.error(r.fieldPointer("exercise"),
                           "\"" + *exercise + "\" is not an exercise folder: it has no exercise.json");
            } else if (folder && kernelFile) {
                out.run = SpotTheBugRun{*folder, *kernelFile};
            }
        }
    }
    return true;
}

bool loadDragMatch(JsonFile& file, ObjectReader& top, DragMatch& out)
{
    out.prompt = top.string("prompt", true).value_or("");
    IdSet targetIds(file, "target");
    if (const nlohmann::json* targets = top.array("targets", true)) {
        for (std::size_t i = 0; i < targets->size(); ++i) {
            ObjectReader r(file, (*targets)[i], pointerAppend(top.fieldPointer("targets"), i), "drag-match target");
            DragTarget t;
            if (auto id = r.string("id", true)) {
                t.id = *id;
                targetIds.add(t.id, r.fieldPointer("id"));
            }
            t.text = r.string("text", true).value_or("");
            r.finish();
            out.targets.push_back(std::move(t));
        }
        if (targets->size() > kMaxDragTargets)
            file.error(pointerAppend(top.fieldPointer("targets"), kMaxDragTargets),
                       "a drag-match has at most " + std::to_string(kMaxDragTargets) + " targets (the learner places "
                       "items with the number keys 1-9); this one has " + std::to_string(targets->size()) +
                       ": split it into two activities");
    }
    IdSet itemIds(file, "item");
    if (const nlohmann::json* items = top.array("items", true)) {
        for (std::size_t i = 0; i < items->size(); ++i) {
            ObjectReader r(file, (*items)[i], pointerAppend(top.fieldPointer("items"), i), "drag-match item");
            DragItem item;
            if (auto id = r.string("id", true)) {
                item.id = *id;
                itemIds.add(item.id, r.fieldPointer("id"));
            }
            item.text = r.string("text", true).value_or("");
            if (auto target = r.string("target", true)) {
                item.target = *target;
                if (!targetIds.contains(item.target)) {
                    file.error(r.fieldPointer("target"), "item \"" + item.id + "\" names the target \"" + item.target +
                                                             "\", which is not among this activity's targets");
                }
            }
            item.explanation = r.string("explanation", true).value_or("");
            r.finish();
            out.items.push_back(std::move(item));
        }
    }
    return true;
}

bool loadStepThrough(JsonFile& file, ObjectReader& top, StepThrough& out)
{
    const std::optional<std::string> diagramName = top.string("diagram", true);
    std::optional<Diagram> diagram;
    if (diagramName) {
        diagram = parseDiagram(*diagramName);
        if (!diagram) {
            file.error(top.fieldPointer("diagram"),
                       "unknown diagram \"" + *diagramName +
                           "\"; use one of traffic, online-softmax, tile-grid, pipeline, table");
        } else {
            out.diagram = *diagram;
        }
    }
    const nlohmann::json* params = top.object("params", false);
    out.params = params ? *params : nlohmann::json::object();
    if (const nlohmann::json* steps = top.array("steps", true)) {
        for (std::size_t i = 0; i < steps->size(); ++i) {
            ObjectReader r(file, (*steps)[i], pointerAppend(top.fieldPointer("steps"), i), "step");
            Step step;
            step.title = r.string("title", true).value_or("");
            step.text = r.string("text", true).value_or("");
            if (const nlohmann::json* state = r.object("state", true)) {
                step.state = *state;
                if (diagram) {
                    checkDiagramState(*diagram, *state, file, r.fieldPointer("state"));
                }
            }
            r.finish();
            out.steps.push_back(std::move(step));
        }
    }
    return true;
}

} // namespace

int listingLineCount(const std::string& code)
{
    if (code.empty()) {
        return 0;
    }
    const auto newlines = std::count(code.begin(), code.end(), '\n');
    return static_cast<int>(newlines) + (code.back() == '\n' ? 0 : 1);
}

std::optional<fs::path> resolveModulePath(const fs::path& moduleFolder, JsonFile& file, const std::string& pointer,
                                          const std::string& rel, bool wantFolder)
{
    const fs::path relPath(rel);
    if (rel.empty() || relPath.is_absolute() || relPath.has_root_name()) {
        file.error(pointer, "\"" + rel + "\" must be a path relative to the module folder");
        return std::nullopt;
    }
    const fs::path normal = relPath.lexically_normal();
    if (normal.empty() || *normal.begin() == "..") {
        file.error(pointer, "\"" + rel + "\" leaves the module folder; every file of a module stays inside its folder");
        return std::nullopt;
    }
    const fs::path full = moduleFolder / normal;
    std::error_code ec;
    const bool exists = wantFolder ? fs::is_directory(full, ec) : fs::is_regular_file(full, ec);
    if (!exists) {
        file.error(pointer, std::string(wantFolder ? "folder" : "file") + " \"" + rel + "\" does not exist in " +
                                folderName(moduleFolder) + "/ (paths are relative to that folder)");
        return std::nullopt;
    }
    // A symbolic link may still point outside: compare the resolved paths.
    const fs::path canonicalRoot = fs::weakly_canonical(moduleFolder, ec);
    const fs::path canonicalFull = fs::weakly_canonical(full, ec);
    const auto mismatch =
        std::mismatch(canonicalRoot.begin(), canonicalRoot.end(), canonicalFull.begin(), canonicalFull.end());
    if (!ec && mismatch.first != canonicalRoot.end()) {
        file.error(pointer, "\"" + rel + "\" resolves outside the module folder (a symbolic link?)");
        return std::nullopt;
    }
    return full;
}

bool loadActivityFile(const fs::path& moduleFolder, const fs::path& path, Activity& activity,
                      std::vector<Diagnostic>& diagnostics)
{
    const std::size_t before = diagnostics.size();
    JsonFile file(path, diagnostics);
    if (!file.ok()) {
        return false;
    }
    const std::string what = std::string(activityKindName(activity.kind)) + " file";
    ObjectReader top(file, file.root(), "", what);
    if (!top.valid()) {
        return false;
    }
    top.format();
    activity.title = top.string("title", true).value_or("");
    switch (activity.kind) {
    case ActivityKind::Walkthrough: {
        Walkthrough w;
        loadWalkthrough(file, top, moduleFolder, w);
        activity.payload = std::move(w);
        break;
    }
    case ActivityKind::Quiz: {
        Quiz q;
        loadQuiz(file, top, moduleFolder, q);
        activity.payload = std::move(q);
        break;
    }
    case ActivityKind::SpotTheBug: {
        SpotTheBug s;
        loadSpotTheBug(file, top, moduleFolder, s);
        activity.payload = std::move(s);
        break;
    }
    case ActivityKind::DragMatch: {
        DragMatch d;
        loadDragMatch(file, top, d);
        activity.payload = std::move(d);
        break;
    }
    case ActivityKind::StepThrough: {
        StepThrough s;
        loadStepThrough(file, top, s);
        activity.payload = std::move(s);
        break;
    }
    case ActivityKind::Lesson:
    case ActivityKind::Exercise:
        break;
    }
    top.finish();
    return !hasErrors({diagnostics.begin() + static_cast<std::ptrdiff_t>(before), diagnostics.end()});
}

} // namespace tkm::course::detail
