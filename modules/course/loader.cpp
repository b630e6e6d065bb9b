// Module and course loading: module.json, course.json, folder discovery, cross-module checks.
#include "modules/course/loader.h"

#include "modules/course/detail/activities.h"
#include "modules/course/detail/json_file.h"
#include "modules/course/detail/markdown.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace tkm::course {

namespace fs = std::filesystem;
using detail::JsonFile;
using detail::ObjectReader;
using detail::pointerAppend;

namespace {

bool errorsSince(const std::vector<Diagnostic>& diagnostics, std::size_t before)
{
    return std::any_of(diagnostics.begin() + static_cast<std::ptrdiff_t>(before), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

void loadActivityEntry(const fs::path& folder, JsonFile& file, ObjectReader& r, Activity& activity,
                       std::vector<Diagnostic>& diagnostics)
{
    const std::optional<std::string> kindName = r.string("kind", true);
    std::optional<ActivityKind> kind = kindName ? parseActivityKind(*kindName) : std::nullopt;
    if (kindName && !kind) {
        file.error(r.fieldPointer("kind"), "unknown activity kind \"" + *kindName +
                                               "\"; use one of lesson, walkthrough, quiz, spot-the-bug, drag-match, "
                                               "step-through, exercise");
    }
    if (!kind) {
        r.has("file");
        r.has("folder");
        return;
    }
    activity.kind = *kind;
    if (*kind == ActivityKind::Exercise) {
        const std::optional<std::string> rel = r.string("folder", true);
        if (!rel) {
            return;
        }
        const auto path = detail::resolveModulePath(folder, file, r.fieldPointer("folder"), *rel, true);
        if (!path) {
            return;
        }
        activity.source = *path;
        if (!fs::is_regular_file(*path / "exercise.json")) {
            file.error(r.fieldPointer("folder"),
                       "the exercise folder \"" + *rel + "\" has no exercise.json (docs/exercise-spec.md)");
            return;
        }
        if (std::optional<Exercise> exercise = detail::loadExerciseFolder(*path, diagnostics)) {
            activity.title = exercise->spec->title;
            activity.payload = std::move(*exercise);
        }
        return;
    }
    const std::optional<std::string> rel = r.string("file", true);
    if (!rel) {
        return;
    }
    const auto path = detail::resolveModulePath(folder, file, r.fieldPointer("file"), *rel, false);
    if (!path) {
        return;
    }
    activity.source = *path;
    const bool markdown = path->extension() == ".md";
    if ((*kind == ActivityKind::Lesson) != markdown) {
        file.error(r.fieldPointer("file"), *kind == ActivityKind::Lesson
                                               ? "a lesson is a Markdown page (.md), not \"" + *rel + "\""
                                               : "a " + *kindName + " activity is a JSON file, not \"" + *rel + "\"");
        return;
    }
    if (*kind == ActivityKind::Lesson) {
        if (std::optional<Lesson> lesson = detail::loadLessonFile(*path, diagnostics)) {
            activity.title = lesson->title;
            activity.payload = std::move(*lesson);
        }
        return;
    }
    detail::loadActivityFile(folder, *path, activity, diagnostics);
}

// Loads one module; `file` receives module.json (for later cross-module checks).
std::optional<Module> loadModuleImpl(const fs::path& folder, std::vector<Diagnostic>& diagnostics,
                                     std::unique_ptr<JsonFile>& file)
{
    const std::size_t before = diagnostics.size();
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
        diagnostics.push_back({folder, 0, 0, Severity::Error, "this module folder does not exist"});
        return std::nullopt;
    }
    if (!fs::is_regular_file(folder / "module.json", ec)) {
        diagnostics.push_back({folder / "module.json", 0, 0, Severity::Error,
                               "a module folder needs a module.json (docs/content-format.md)"});
        return std::nullopt;
    }
    file = std::make_unique<JsonFile>(folder / "module.json", diagnostics);
    if (!file->ok()) {
        return std::nullopt;
    }
    ObjectReader top(*file, file->root(), "", "module.json");
    if (!top.valid()) {
        return std::nullopt;
    }
    Module module;
    module.folder = folder;
    top.format();
    // Values are read as they are; validate.cpp's rules check them once the module is built.
    module.id = top.string("id", true, false).value_or("");
    module.title = top.string("title", true, false).value_or("");
    module.summary = top.string("summary", true, false).value_or("");
    constexpr long long kAnyInt = 1'000'000'000;
    module.order = static_cast<int>(top.integer("order", true, -kAnyInt, kAnyInt).value_or(1));
    module.estimatedMinutes =
        static_cast<int>(top.integer("estimated_minutes", true, -kAnyInt, kAnyInt).value_or(1));
    if (const nlohmann::json* prereqs = top.array("prerequisites", false, false)) {
        for (std::size_t i = 0; i < prereqs->size(); ++i) {
            const nlohmann::json& v = (*prereqs)[i];
            if (!v.is_string()) {
                file->error(pointerAppend(top.fieldPointer("prerequisites"), i),
                            "a prerequisite is a module id (lower-case letters, digits and '-')");
            }
            module.prerequisites.push_back(v.is_string() ? v.get<std::string>() : std::string());
        }
    }
    if (const nlohmann::json* activities = top.array("activities", true, false)) {
        for (std::size_t i = 0; i < activities->size(); ++i) {
            const std::string pointer = pointerAppend(top.fieldPointer("activities"), i);
            ObjectReader r(*file, (*activities)[i], pointer, "activity entry");
            Activity activity;
            if (r.valid()) {
                activity.id = r.string("id", true, false).value_or("");
                loadActivityEntry(folder, *file, r, activity, diagnostics);
                r.finish();
            }
            module.activities.push_back(std::move(activity)); // even a broken entry: indices stay the file's
        }
    }
    detail::ModelRulesInto rules(*file);
    detail::checkModuleFields(module, rules);
    top.finish();
    if (errorsSince(diagnostics, before)) {
        return std::nullopt;
    }
    return module;
}

std::optional<std::string> loadCourseFile(const fs::path& root, Course& course, std::vector<Diagnostic>& diagnostics)
{
    const fs::path path = root / "course.json";
    if (!fs::is_regular_file(path)) {
        diagnostics.push_back({path, 0, 0, Severity::Error,
                               "the content root needs a course.json with the course title, summary_file and "
                               "through_line (docs/content-format.md)"});
        return std::nullopt;
    }
    JsonFile file(path, diagnostics);
    if (!file.ok()) {
        return std::nullopt;
    }
    ObjectReader top(file, file.root(), "", "course.json");
    if (!top.valid()) {
        return std::nullopt;
    }
    top.format();
    course.title = top.string("title", true).value_or("");
    course.throughLine = top.string("through_line", true).value_or("");
    if (auto rel = top.string("summary_file", true)) {
        if (auto summaryPath = detail::resolveModulePath(root, file, top.fieldPointer("summary_file"), *rel, false)) {
            if (std::optional<Lesson> page = detail::loadLessonFile(*summaryPath, diagnostics)) {
                course.summary = page->markdown;
                course.summaryTitle = page->title;
            }
        }
    }
    top.finish();
    return course.title;
}

} // namespace

std::string Diagnostic::format(const fs::path& base) const
{
    std::string name = file.generic_string();
    if (!base.empty()) {
        const fs::path rel = file.lexically_relative(base);
        if (!rel.empty() && *rel.begin() != "..") {
            name = rel.generic_string();
        }
    }
    std::string out = name;
    if (line > 0) {
        out += ":" + std::to_string(line);
        if (column > 0) {
            out += ":" + std::to_string(column);
        }
    }
    out += severity == Severity::Error ? ": error: " : ": warning: ";
    return out + message;
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics)
{
    return errorsSince(diagnostics, 0);
}

ModuleLoadResult loadModule(const fs::path& moduleFolder)
{
    ModuleLoadResult result;
    std::unique_ptr<JsonFile> file;
    result.module = loadModuleImpl(moduleFolder, result.diagnostics, file);
    if (hasErrors(result.diagnostics)) {
        result.module.reset();
    }
    return result;
}

CourseLoadResult loadCourse(const fs::path& contentRoot)
{
    CourseLoadResult result;
    std::vector<Diagnostic>& diags = result.diagnostics;
    std::error_code ec;
    if (!fs::is_directory(contentRoot, ec)) {
        diags.push_back({contentRoot, 0, 0, Severity::Error, "the content folder does not exist"});
        return result;
    }
    Course course;
    course.root = contentRoot;
    loadCourseFile(contentRoot, course, diags);

    std::vector<fs::path> folders;
    for (const fs::directory_entry& entry : fs::directory_iterator(contentRoot, ec)) {
        if (!entry.is_directory()) {
            continue;
        }
        if (fs::is_regular_file(entry.path() / "module.json")) {
            folders.push_back(entry.path());
        } else {
            const std::string name = entry.path().filename().string();
            if (!name.empty() && name[0] >= '0' && name[0] <= '9') {
                diags.push_back({entry.path(), 0, 0, Severity::Warning,
                                 "this folder looks like a module but has no module.json, so it is not loaded"});
            }
        }
    }
    std::sort(folders.begin(), folders.end());
    if (folders.empty()) {
        diags.push_back(
            {contentRoot, 0, 0, Severity::Error, "no module folders (sub-folders with a module.json) found"});
    }

    struct Loaded
    {
        Module module;
        std::unique_ptr<JsonFile> file;
    };
    std::vector<Loaded> loaded;
    for (const fs::path& folder : folders) {
        std::unique_ptr<JsonFile> file;
        if (std::optional<Module> module = loadModuleImpl(folder, diags, file)) {
            loaded.push_back({std::move(*module), std::move(file)});
        }
    }
    // Cross-module checks over the modules that loaded.
    std::map<std::string, const Loaded*> byId;
    std::map<int, const Loaded*> byOrder;
    for (const Loaded& l : loaded) {
        if (const auto [it, inserted] = byId.emplace(l.module.id, &l); !inserted) {
            l.file->error("/id", "module id \"" + l.module.id + "\" is already used by " +
                                     it->second->module.folder.filename().string() + "; module ids must be unique");
        }
        if (const auto [it, inserted] = byOrder.emplace(l.module.order, &l); !inserted) {
            l.file->error("/order", "order " + std::to_string(l.module.order) + " is already taken by " +
                                        it->second->module.folder.filename().string() +
                                        "; give each module its own place");
        }
    }
    for (const Loaded& l : loaded) {
        for (std::size_t i = 0; i < l.module.prerequisites.size(); ++i) {
            const std::string& id = l.module.prerequisites[i];
            const std::string pointer = pointerAppend("/prerequisites", i);
            const auto it = byId.find(id);
            if (it == byId.end()) {
                l.file->error(pointer, "prerequisite \"" + id + "\" is not a module of this course");
            } else if (it->second->module.order >= l.module.order) {
                l.file->error(pointer, "prerequisite \"" + id + "\" comes at order " +
                                           std::to_string(it->second->module.order) +
                                           ", not before this module (order " + std::to_string(l.module.order) +
                                           "); a module can only require earlier ones");
            }
        }
    }
    if (hasErrors(diags)) {
        return result;
    }
    for (Loaded& l : loaded) {
        course.modules.push_back(std::move(l.module));
    }
    std::sort(course.modules.begin(), course.modules.end(),
              [](const Module& a, const Module& b) { return a.order < b.order; });
    result.course = std::move(course);
    return result;
}

ExerciseLoadResult loadExercise(const fs::path& exerciseFolder)
{
    ExerciseLoadResult result;
    result.exercise = detail::loadExerciseFolder(exerciseFolder, result.diagnostics);
    if (hasErrors(result.diagnostics)) {
        result.exercise.reset();
    }
    return result;
}

std::vector<Diagnostic> validateTree(const fs::path& path)
{
    std::error_code ec;
    if (fs::is_regular_file(path / "module.json", ec)) {
        return loadModule(path).diagnostics;
    }
    return loadCourse(path).diagnostics;
}

int quizQuestionCount(const Module& module)
{
    int count = 0;
    for (const Activity& a : module.activities) {
        if (const Quiz* quiz = a.as<Quiz>()) {
            count += static_cast<int>(quiz->questions.size());
        }
    }
    return count;
}

} // namespace tkm::course
