// validatePackOrFolder: schema through tkm_course, sources through the engine's NVRTC compiler.
#include "modules/packs/validate.h"

#include "engine/compile/compiler.h"
#include "engine/problem/instance.h"

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

// Compiles one source; returns whether it compiled and adds the compiler's errors when `expectOk`.
bool compileOne(const compile::CompileRequest& request, const fs::path& file, bool expectOk,
                std::vector<Diagnostic>& out)
{
    auto result = compile::compileKernel(request);
    if (!result) {
        out.push_back(error(file, "NVRTC could not be used: " + result.error().message));
        return false;
    }
    if (!result->ok && expectOk) {
        bool any = false;
        for (const auto& d : result->diagnostics) {
            if (d.severity == "error") {
                out.push_back(error(file, "does not compile: " + d.message, d.line, d.column));
                any = true;
            }
        }
        if (!any) {
            out.push_back(error(file, "does not compile (" + result->firstError() + "); see the compiler log."));
        }
    }
    return result->ok;
}

void validateModuleFolder(const fs::path& folder, const ValidateOptions& options, ValidationResult& result)
{
    auto loaded = course::loadModule(folder);
    ++result.modules;
    for (auto& d : loaded.diagnostics) {
        result.diagnostics.push_back(std::move(d));
    }
    if (!loaded.module || !options.compile) {
        return;
    }
    for (const auto& activity : loaded.module->activities) {
        if (const auto* exercise = activity.as<course::Exercise>()) {
            result.sourcesCompiled += compileExerciseSources(*exercise, options, result.diagnostics);
        }
    }
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
    // A content root: course-level rules from validateTree, then each module for its sources.
    const auto tree = course::validateTree(path);
    for (const auto& d : tree) {
        result.diagnostics.push_back(d);
    }
    if (!options.compile) {
        return;
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
        if (!loaded.module) {
            continue; // its problems are already in `tree`
        }
        for (const auto& activity : loaded.module->activities) {
            if (const auto* exercise = activity.as<course::Exercise>()) {
                result.sourcesCompiled += compileExerciseSources(*exercise, options, result.diagnostics);
            }
        }
    }
}

} // namespace

int compileExerciseSources(const course::Exercise& exercise, const ValidateOptions& options,
                           std::vector<Diagnostic>& diagnostics)
{
    const auto& spec = *exercise.spec;
    auto meta = problem::resolveMeta(spec);
    if (!meta) {
        diagnostics.push_back(error(exercise.folder / "exercise.json", meta.error().message));
        return 0;
    }
    int compiled = 0;
    auto learner = [&](const std::string& rel, bool expectOk) {
        const fs::path file = spec.path(rel);
        auto text = readFileText(file);
        if (!text) {
            diagnostics.push_back(error(file, text.error().message));
            return false;
        }
        auto request = compile::learnerRequest(spec, *meta, *text, fs::path(rel).filename().string(),
                                               options.computeCapability);
        request.useCache = options.useCompileCache;
        ++compiled;
        return compileOne(request, file, expectOk, diagnostics);
    };
    learner(spec.starter, true);
    learner(spec.solution, true);
    for (const auto& bug : spec.bugs) {
        const bool expectCompileError = bug.expect.verdict == "compile_error";
        const bool ok = learner(bug.file, !expectCompileError);
        if (ok && expectCompileError) {
            diagnostics.push_back(error(spec.path(bug.file), "is declared compile_error but compiles; make it fail to "
                                                             "compile or change its expected verdict."));
        }
    }
    auto ref = compile::referenceRequest(spec, options.computeCapability);
    if (!ref) {
        diagnostics.push_back(error(spec.path(spec.reference.file), ref.error().message));
    } else {
        ref->useCache = options.useCompileCache;
        ++compiled;
        compileOne(*ref, spec.path(spec.reference.file), true, diagnostics);
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
            result.exitCode = kValidateFailed;
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
        fs::remove_all(temp, ec);
    } else if (fs::is_directory(path, ec)) {
        validateFolder(path, options, result);
    } else {
        result.diagnostics.push_back(error(path, "does not exist; give a .tkmpack file, a pack folder, a content "
                                                 "folder or a module folder."));
        result.exitCode = kValidateUnusable;
        return result;
    }
    result.exitCode = course::hasErrors(result.diagnostics) ? kValidateFailed : kValidateOk;
    return result;
}

} // namespace tkm::packs
