// Exercise activities: the engine's spec parser (engine/problem/spec.h) does the checking; this maps its errors
// onto line and column of exercise.json and reads the texts the app shows.
#include "modules/course/detail/activities.h"

#include "engine/problem/spec.h"

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

bool readExerciseText(JsonFile& file, const problem::ExerciseSpec& spec, const std::string& rel, const char* field,
                      std::string& out)
{
    if (!readTextFile(spec.path(rel), out)) {
        file.error(std::string("/") + field, "cannot read the " + std::string(field) + " file \"" + rel + "\"");
        return false;
    }
    return true;
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
    if (!ok) {
        return std::nullopt;
    }
    exercise.spec = std::make_shared<const problem::ExerciseSpec>(std::move(spec).value());
    return exercise;
}

} // namespace tkm::course::detail
