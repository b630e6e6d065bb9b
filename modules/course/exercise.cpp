// Exercise activities: the engine's spec parser (engine/problem/spec.h) does the checking; this maps its errors
// onto line and column of exercise.json and reads the texts the app shows.
#include "modules/course/detail/activities.h"

#include "engine/compile/compiler.h"
#include "engine/problem/spec.h"

#include <algorithm>

namespace tkm::course::detail {

namespace fs = std::filesystem;

namespace {

// parseSpec's message is "exercise.json: /json/pointer: what is wrong" (or without a pointer).
void reportSpecError(JsonFile& file, const std::string& message)
{
    std::string rest = message;
    const std::string label = "exercise.json: ";
    if (rest.rfind(label, 0) == 0) {
        rest = rest.substr(label.size());
    }
    std::string pointer;
    if (!rest.empty() && rest.front() == '/') {
        const auto colon = rest.find(": ");
        if (colon != std::string::npos) {
            pointer = rest.substr(0, colon);
            rest = rest.substr(colon + 2);
        }
    }
    file.error(pointer, pointer.empty() ? rest : pointer + ": " + rest);
}

// `field` is the JSON pointer of the path without its leading '/' ("prompt", "triton/prompt").
bool readExerciseText(JsonFile& file, const problem::ExerciseSpec& spec, const std::string& rel, const char* field,
                      std::string& out)
{
    if (!readTextFile(spec.path(rel), out)) {
        file.error(std::string("/") + field, "cannot read the " + std::string(field) + " file \"" + rel + "\"");
        return false;
    }
    return true;
}

// One file exercise.json names, with the pointer of its field and whether it is a kernel source.
struct SpecFile
{
    std::string rel;
    std::string pointer;
    bool source = true;
};

std::vector<SpecFile> specFiles(const problem::ExerciseSpec& spec)
{
    std::vector<SpecFile> files = {{spec.prompt, "/prompt", false},
                                   {spec.starter, "/starter"},
                                   {spec.solution, "/solution"},
                                   {spec.reference.file, "/reference/file"}};
    if (spec.triton && !spec.triton->prompt.empty()) {
        files.push_back({spec.triton->prompt, "/triton/prompt", false});
    }
    if (spec.firstStep) {
        files.push_back({spec.firstStep->file, "/first_step/file"});
    }
    for (std::size_t i = 0; i < spec.bugs.size(); ++i) {
        files.push_back({spec.bugs[i].file, "/bugs/" + std::to_string(i) + "/file"});
    }
    for (std::size_t i = 0; i < spec.baselines.size(); ++i) {
        if (!spec.baselines[i].file.empty()) {
            files.push_back({spec.baselines[i].file, "/baselines/" + std::to_string(i) + "/file"});
        }
    }
    return files;
}

// Every file of the exercise stays inside its folder once symbolic links are resolved, as lessons and activities
// do; kernel sources pass compile::checkSource (toolkit #includes only, UTF-8, bounded size) and the prompt the
// Markdown size limit. Problems are reported on the file itself (sources) or at the field (links).
bool checkSpecFiles(JsonFile& file, const fs::path& folder, const problem::ExerciseSpec& spec,
                    std::vector<Diagnostic>& diagnostics)
{
    bool ok = true;
    std::error_code ec;
    const fs::path root = fs::weakly_canonical(fs::absolute(folder), ec);
    for (const SpecFile& f : specFiles(spec)) {
        const fs::path full = spec.path(f.rel);
        const fs::path resolved = fs::weakly_canonical(full, ec);
        const auto mismatch = std::mismatch(root.begin(), root.end(), resolved.begin(), resolved.end());
        if (ec || mismatch.first != root.end()) {
            file.error(f.pointer, "\"" + f.rel + "\" resolves outside the exercise folder (a symbolic link?); every "
                                  "file of an exercise stays inside its folder");
            ok = false;
            continue;
        }
        std::string text;
        if (!readTextFile(full, text)) {
            continue; // reported where the text is read
        }
        const std::string ext = full.extension().string();
        if (f.source && ext != ".cu" && ext != ".cuh") {
            continue; // only CUDA sources go to NVRTC
        }
        if (!f.source) {
            if (text.size() > kMaxMarkdownBytes) {
                file.error(f.pointer, "the prompt \"" + f.rel + "\" is " + std::to_string(text.size() / 1024) +
                                          " KiB; a Markdown page may be at most " +
                                          std::to_string(kMaxMarkdownBytes / 1024) + " KiB");
                ok = false;
            }
            continue;
        }
        for (const compile::Diagnostic& d : compile::checkSource(text, f.rel)) {
            diagnostics.push_back({full, d.line, d.column, Severity::Error, d.message});
            ok = false;
        }
    }
    return ok;
}

} // namespace

std::optional<Exercise> loadExerciseFolder(const fs::path& folder, std::vector<Diagnostic>& diagnostics)
{
    JsonFile file(folder / "exercise.json", diagnostics);
    if (!file.ok()) {
        return std::nullopt;
    }
    engine::Expected<problem::ExerciseSpec> spec = problem::parseSpec(file.text(), fs::absolute(folder));
    if (!spec) {
        reportSpecError(file, spec.error().message);
        return std::nullopt;
    }
    if (!checkSpecFiles(file, folder, *spec, diagnostics)) {
        return std::nullopt;
    }
    Exercise exercise;
    exercise.folder = folder;
    exercise.specId = spec->id;
    exercise.kernel = spec->kernel;
    exercise.hints = spec->hints;
    exercise.autotune = spec->autotune.has_value();
    for (const problem::Meta& m : spec->meta) {
        exercise.meta.push_back(ExerciseMeta{m.name, m.defaultValue, {m.allowed.begin(), m.allowed.end()}});
    }
    exercise.starterFile = spec->path(spec->starter);
    exercise.solutionFile = spec->path(spec->solution);
    bool ok = readExerciseText(file, *spec, spec->prompt, "prompt", exercise.prompt);
    ok = readExerciseText(file, *spec, spec->starter, "starter", exercise.starter) && ok;
    ok = readExerciseText(file, *spec, spec->solution, "solution", exercise.solution) && ok;
    if (spec->triton) {
        exercise.tritonHints = spec->triton->hints;
        if (!spec->triton->prompt.empty()) {
            ok = readExerciseText(file, *spec, spec->triton->prompt, "triton/prompt", exercise.tritonPrompt) && ok;
        }
    }
    if (!ok) {
        return std::nullopt;
    }
    exercise.spec = std::make_shared<const problem::ExerciseSpec>(std::move(spec).value());
    return exercise;
}

} // namespace tkm::course::detail
