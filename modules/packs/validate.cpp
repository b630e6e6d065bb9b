// validatePackOrFolder: schema through tkm_course, each exercise through checkExercise (NVRTC, weak cases, GPU).
#include "modules/packs/validate.h"

#include "modules/course/detail/json_file.h"

#include <algorithm>
#include <system_error>

namespace tkm::packs {

namespace fs = std::filesystem;
using course::Diagnostic;
using course::Severity;

namespace {

Diagnostic error(const fs::path& file, std::string message, int line = 0, int column = 0)
{
    return {file, line, column, Severity::Error, std::move(message)};
}

ExerciseCheckOptions checkOptions(const ValidateOptions& options, bool everything)
{
    ExerciseCheckOptions o;
    o.compile = options.compile;
    o.computeCapability = options.computeCapability;
    o.useCompileCache = options.useCompileCache;
    o.weakCases = everything && options.weakCases;
    o.gpu = everything ? options.gpu : nullptr;
    return o;
}

void checkOne(const fs::path& folder, const ValidateOptions& options, ValidationResult& result)
{
    ExerciseCheckOptions o = checkOptions(options, true);
    if (options.progress) {
        const std::string name = folder.filename().string();
        o.progress = [&options, name](const std::string& line) { options.progress(name + ": " + line); };
    }
    ExerciseCheck check = checkExercise(folder, o);
    result.sourcesCompiled += appendCheckDiagnostics(check, result.diagnostics);
    result.exercises.push_back(std::move(check));
}

void checkModuleExercises(const course::Module& module, const ValidateOptions& options, ValidationResult& result)
{
    for (const auto& activity : module.activities) {
        if (const auto* exercise = activity.as<course::Exercise>()) {
            checkOne(exercise->folder, options, result);
        }
    }
}

void validateModuleFolder(const fs::path& folder, const ValidateOptions& options, ValidationResult& result)
{
    auto loaded = course::loadModule(folder);
    ++result.modules;
    for (auto& d : loaded.diagnostics) {
        result.diagnostics.push_back(std::move(d));
    }
    if (loaded.module) {
        checkModuleExercises(*loaded.module, options, result);
    }
}

// Whether a folder is one of the kinds validate reads (else the path is unusable, exit code 2).
bool isValidatable(const fs::path& path)
{
    std::error_code ec;
    for (const char* marker : {"pack.json", "course.json", "module.json", "exercise.json"}) {
        if (fs::is_regular_file(path / marker, ec)) {
            return true;
        }
    }
    for (const auto& e : fs::directory_iterator(path, ec)) {
        if (e.is_directory() && fs::is_regular_file(e.path() / "module.json", ec)) {
            return true;
        }
    }
    return false;
}

void validateFolder(const fs::path& path, const ValidateOptions& options, ValidationResult& result)
{
    std::error_code ec;
    if (fs::is_regular_file(path / kManifestName, ec)) {
        auto pack = readPack(path);
        if (!pack) {
            result.diagnostics.push_back(error(path / kManifestName, pack.error().message));
            return;
        }
        for (const auto& m : pack->modules) {
            validateModuleFolder(path / m, options, result);
        }
        return;
    }
    if (fs::is_regular_file(path / "module.json", ec)) {
        validateModuleFolder(path, options, result);
        return;
    }
    if (fs::is_regular_file(path / "exercise.json", ec)) {
        checkOne(path, options, result);
        return;
    }
    // A content root: course-level rules from validateTree, then each module for its sources.
    const auto tree = course::validateTree(path);
    for (const auto& d : tree) {
        result.diagnostics.push_back(d);
    }
    std::vector<fs::path> modules;
    for (const auto& e : fs::directory_iterator(path, ec)) {
        if (e.is_directory() && fs::is_regular_file(e.path() / "module.json")) {
            modules.push_back(e.path());
        }
    }
    std::sort(modules.begin(), modules.end());
    for (const auto& m : modules) {
        auto loaded = course::loadModule(m);
        ++result.modules;
        if (loaded.module) { // else its problems are already in `tree`
            checkModuleExercises(*loaded.module, options, result);
        }
    }
}

} // namespace

int compileExerciseSources(const course::Exercise& exercise, const ValidateOptions& options,
                           std::vector<Diagnostic>& diagnostics)
{
    return appendCheckDiagnostics(checkExerciseSpec(*exercise.spec, checkOptions(options, false)), diagnostics);
}

int appendCheckDiagnostics(const ExerciseCheck& check, std::vector<Diagnostic>& diagnostics)
{
    const fs::path specFile = check.folder / "exercise.json";
    std::string text;
    course::detail::readTextFile(specFile, text);
    const course::detail::JsonPositionIndex index = check.specError.find("not valid JSON") == std::string::npos
                                                        ? course::detail::JsonPositionIndex(text)
                                                        : course::detail::JsonPositionIndex();
    auto onSpec = [&](Severity severity, const std::string& pointer, const std::string& message) {
        const auto pos = index.value(pointer);
        diagnostics.push_back(
            {specFile, pos.line, pos.column, severity, pointer == "/" ? message : pointer + ": " + message});
    };
    if (!check.specError.empty()) {
        onSpec(Severity::Error, check.specErrorPointer, check.specError);
        return 0;
    }
    int compiled = 0;
    for (const SourceCheck& s : check.sources) {
        const fs::path file = check.folder / s.file;
        compiled += s.compileRan ? 1 : 0;
        if (!s.compileProblem.empty()) {
            bool located = false;
            if (s.compileRan && !s.compiled) {
                for (const auto& d : s.diagnostics) {
                    if (d.severity == "error") {
                        diagnostics.push_back(error(file, "does not compile: " + d.message, d.line, d.column));
                        located = true;
                    }
                }
            }
            if (!located) {
                diagnostics.push_back(error(file, s.compileProblem));
            }
        }
        if (!s.runProblem.empty()) {
            diagnostics.push_back(
                error(file, std::string(s.triton ? "on the CPU interpreter" : "on the GPU") + ": expected " +
                                s.expected + ", got " + s.got + ": " + s.runProblem));
        }
    }
    for (const SpecWarning& w : check.warnings) {
        onSpec(Severity::Warning, w.pointer, w.message);
    }
    return compiled;
}

ValidationResult validatePackOrFolder(const fs::path& path, const ValidateOptions& options)
{
    ValidationResult result;
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        auto checked = checkArchive(path, options.limits);
        if (!checked) {
            result.diagnostics.push_back(error(path, checked.error().message));
            // docs/packs.md: a file that cannot be unpacked is unusable (2); a pack that breaks a rule fails (1).
            result.exitCode = checked.error().kind == engine::ErrorKind::Io ? kValidateUnusable : kValidateFailed;
            return result;
        }
        const fs::path parent = options.workDir.empty() ? fs::temp_directory_path() : options.workDir;
        fs::create_directories(parent, ec);
        const fs::path temp = uniqueTempPath(parent, "tkm-validate");
        if (auto st = extractArchive(path, *checked, temp); !st) {
            fs::remove_all(temp, ec);
            result.diagnostics.push_back(error(path, st.error().message));
            result.exitCode = kValidateUnusable;
            return result;
        }
        validateFolder(temp, options, result);
        // Name files as "<pack>.tkmpack/<entry>" rather than by the temporary folder.
        for (auto& d : result.diagnostics) {
            const auto rel = fs::relative(d.file, temp, ec);
            if (!ec && !rel.empty() && *rel.begin() != "..") {
                d.file = path / rel;
            }
        }
        for (auto& e : result.exercises) {
            const auto rel = fs::relative(e.folder, temp, ec);
            if (!ec && !rel.empty() && *rel.begin() != "..") {
                e.folder = path / rel;
            }
        }
        fs::remove_all(temp, ec);
    } else if (fs::is_directory(path, ec)) {
        if (!isValidatable(path)) {
            result.diagnostics.push_back(error(path, "is not a pack, content, module or exercise folder: it has no "
                                                     "pack.json, course.json, module.json or exercise.json, and no "
                                                     "module sub-folders."));
            result.exitCode = kValidateUnusable;
            return result;
        }
        validateFolder(path, options, result);
    } else {
        result.diagnostics.push_back(error(path, "does not exist; give a .tkmpack file, a pack folder, a content "
                                                 "folder, a module folder or an exercise folder."));
        result.exitCode = kValidateUnusable;
        return result;
    }
    const bool warned = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                                    [](const Diagnostic& d) { return d.severity == Severity::Warning; });
    result.exitCode =
        course::hasErrors(result.diagnostics) || (options.strict && warned) ? kValidateFailed : kValidateOk;
    return result;
}

} // namespace tkm::packs
