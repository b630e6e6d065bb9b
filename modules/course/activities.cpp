// Loading of the JSON activity kinds: walkthrough, quiz, spot-the-bug, drag-match, step-through.
#include "modules/course/detail/activities.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace tkm::course::detail {

namespace fs = std::filesystem;

namespace {

std::string folderName(const fs::path& folder)
{
    fs::path p = folder.lexically_normal();
    if (p.filename().empty()) {
        p = p.parent_path();
    }
    return p.filename().generic_string();
}

// The listing file named by `fileKey`: inside the module, readable, not blank.
std::optional<std::string> readListingFile(ObjectReader& r, JsonFile& file, const fs::path& moduleFolder,
                                           const char* fileKey)
{
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

// A listing given inline (`code`) or as a file (`code_file`): exactly one of the two.
std::optional<std::string> readListing(ObjectReader& r, JsonFile& file, const fs::path& moduleFolder,
                                       const char* inlineKey, const char* fileKey, bool required)
{
    const bool hasInline = r.has(inlineKey);
    const bool hasFile = r.has(fileKey);
    if (hasInline && hasFile) {
        file.error(r.fieldPointer(fileKey),
                   "give either \"" + std::string(inlineKey) + "\" or \"" + fileKey + "\", not both", true);
        file.cover(r.fieldPointer(inlineKey));
        return std::nullopt;
    }
    if (hasInline) {
        return r.string(inlineKey, true);
    }
    if (hasFile) {
        std::optional<std::string> text = readListingFile(r, file, moduleFolder, fileKey);
        if (!text) {
            file.cover(r.fieldPointer(inlineKey)); // the listing is missing for a reason already given
        }
        return text;
    }
    if (required) {
        file.missing(r.pointer(), r.fieldPointer(inlineKey),
                     "missing the listing: give \"" + std::string(inlineKey) + "\" (inline) or \"" + fileKey +
                         "\" (a file of this module)");
    }
    return std::nullopt;
}

// The loaders below read types, presence and files; the rules on the values they build (ids, counts, ranges,
// cross references, non-empty text) are validate.cpp's, run by loadActivityFile on the finished payload. Every
// array element gets a model entry, even a broken one, so that model indices stay the file's.

bool loadWalkthrough(JsonFile& file, ObjectReader& top, const fs::path& moduleFolder, Walkthrough& out)
{
    const nlohmann::json* panes = top.array("panes", true, false);
    if (!panes) {
        return false;
    }
    for (std::size_t i = 0; i < panes->size(); ++i) {
        const std::string pointer = pointerAppend(top.fieldPointer("panes"), i);
        ObjectReader r(file, (*panes)[i], pointer, "walkthrough pane");
        WalkthroughPane pane;
        pane.label = r.string("label", true, false).value_or("");
        pane.language = r.string("language", true).value_or("");
        pane.code = readListing(r, file, moduleFolder, "code", "code_file", true).value_or("");
        if (const nlohmann::json* notes = r.object("notes", false)) {
            for (const auto& [key, value] : notes->items()) {
                const std::string notePointer = pointerAppend(r.fieldPointer("notes"), key);
                int line = 0;
                const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), line);
                if (ec != std::errc{} || end != key.data() + key.size()) {
                    file.error(notePointer, "note keys are 1-based line numbers such as \"4\", not \"" + key + "\"",
                               true);
                    continue;
                }
                if (!value.is_string()) {
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

Question loadQuestion(JsonFile& file, ObjectReader& r, const fs::path& moduleFolder)
{
    Question q;
    q.id = r.string("id", true, false).value_or("");
    q.prompt = r.string("prompt", true, false).value_or("");
    q.multiple = r.boolean("multiple", false).value_or(false);
    if (auto code = readListing(r, file, moduleFolder, "code", "code_file", false)) {
        q.code = *code;
        q.language = r.string("language", true).value_or("");
    } else {
        q.language = r.string("language", false, false).value_or("");
    }
    q.followup = r.string("followup", false).value_or("");
    q.followupAnswer = r.string("followup_answer", false).value_or("");
    if (const nlohmann::json* choices = r.array("choices", true, false)) {
        for (std::size_t c = 0; c < choices->size(); ++c) {
            ObjectReader cr(file, (*choices)[c], pointerAppend(r.fieldPointer("choices"), c), "choice");
            Choice choice;
            choice.text = cr.string("text", true, false).value_or("");
            choice.correct = cr.boolean("correct", true).value_or(false);
            choice.explanation = cr.string("explanation", true, false).value_or("");
            cr.finish();
            q.choices.push_back(std::move(choice));
        }
    }
    return q;
}

bool loadQuiz(JsonFile& file, ObjectReader& top, const fs::path& moduleFolder, Quiz& out)
{
    const nlohmann::json* questions = top.array("questions", true, false);
    if (!questions) {
        return false;
    }
    for (std::size_t i = 0; i < questions->size(); ++i) {
        ObjectReader r(file, (*questions)[i], pointerAppend(top.fieldPointer("questions"), i), "quiz question");
        out.questions.push_back(r.valid() ? loadQuestion(file, r, moduleFolder) : Question{});
        r.finish();
    }
    return true;
}

bool loadSpotTheBug(JsonFile& file, ObjectReader& top, const fs::path& moduleFolder, SpotTheBug& out)
{
    out.language = top.string("language", true).value_or("");
    out.code = readListing(top, file, moduleFolder, "code", "code_file", true).value_or("");
    if (const nlohmann::json* bugLines = top.array("bug_lines", true, false)) {
        for (std::size_t i = 0; i < bugLines->size(); ++i) {
            const nlohmann::json& v = (*bugLines)[i];
            if (!v.is_number_integer()) {
                file.error(pointerAppend(top.fieldPointer("bug_lines"), i),
                           "bug lines are 1-based line numbers, not " + jsonTypeName(v));
            }
            const long long line = v.is_number_integer() ? v.get<long long>() : 0;
            out.bugLines.push_back(static_cast<int>(std::clamp<long long>(line, -1, 1LL << 30)));
        }
    }
    out.why = top.string("why", true, false).value_or("");
    out.fix = top.string("fix", true, false).value_or("");
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
    out.prompt = top.string("prompt", true, false).value_or("");
    if (const nlohmann::json* targets = top.array("targets", true, false)) {
        for (std::size_t i = 0; i < targets->size(); ++i) {
            ObjectReader r(file, (*targets)[i], pointerAppend(top.fieldPointer("targets"), i), "drag-match target");
            DragTarget t;
            t.id = r.string("id", true, false).value_or("");
            t.text = r.string("text", true, false).value_or("");
            r.finish();
            out.targets.push_back(std::move(t));
        }
    }
    if (const nlohmann::json* items = top.array("items", true, false)) {
        for (std::size_t i = 0; i < items->size(); ++i) {
            ObjectReader r(file, (*items)[i], pointerAppend(top.fieldPointer("items"), i), "drag-match item");
            DragItem item;
            item.id = r.string("id", true, false).value_or("");
            item.text = r.string("text", true, false).value_or("");
            item.target = r.string("target", true, false).value_or("");
            item.explanation = r.string("explanation", true, false).value_or("");
            r.finish();
            out.items.push_back(std::move(item));
        }
    }
    return true;
}

bool loadStepThrough(JsonFile& file, ObjectReader& top, StepThrough& out)
{
    if (const std::optional<std::string> diagramName = top.string("diagram", true)) {
        if (const std::optional<Diagram> diagram = parseDiagram(*diagramName)) {
            out.diagram = *diagram;
        } else {
            file.error(top.fieldPointer("diagram"),
                       "unknown diagram \"" + *diagramName +
                           "\"; use one of traffic, online-softmax, tile-grid, pipeline, table");
            file.cover(top.fieldPointer("steps")); // no states to check against an unknown picture
        }
    }
    const nlohmann::json* params = top.object("params", false);
    out.params = params ? *params : nlohmann::json::object();
    if (const nlohmann::json* steps = top.array("steps", true, false)) {
        for (std::size_t i = 0; i < steps->size(); ++i) {
            ObjectReader r(file, (*steps)[i], pointerAppend(top.fieldPointer("steps"), i), "step");
            Step step;
            step.title = r.string("title", true, false).value_or("");
            step.text = r.string("text", true, false).value_or("");
            if (const nlohmann::json* state = r.object("state", true)) {
                step.state = *state;
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
    activity.title = top.string("title", true, false).value_or("");
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
    ModelRulesInto rules(file);
    checkActivity(activity, rules);
    if (auto* bug = std::get_if<SpotTheBug>(&activity.payload)) {
        std::sort(bug->bugLines.begin(), bug->bugLines.end()); // the model keeps them sorted
    }
    return !hasErrors({diagnostics.begin() + static_cast<std::ptrdiff_t>(before), diagnostics.end()});
}

} // namespace tkm::course::detail
