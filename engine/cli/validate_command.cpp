// `tkm-run validate <pack-or-folder>`: content and pack validation for an instructor's own CI.
// Built into tkm-run only when the course and pack libraries are part of the build (top-level CMakeLists.txt).

#include "engine/cli/commands.h"
#include "modules/packs/validate.h"

#include <iostream>
#include <memory>
#include <string>

namespace tkm::cli {

void registerValidate(CLI::App& app, int& exitCode)
{
    auto path = std::make_shared<std::string>();
    auto noCompile = std::make_shared<bool>(false);
    auto cc = std::make_shared<int>(90);
    CLI::App* cmd = app.add_subcommand(
        "validate", "check a .tkmpack, a pack folder, a content root or a module folder: schema and NVRTC compiles");
    cmd->add_option("path", *path, "what to check")->required();
    cmd->add_flag("--no-compile", *noCompile, "check the schema only; do not compile the exercise sources");
    cmd->add_option("--cc", *cc, "compute capability to compile for, major*10+minor (default 90 = sm_90)")
        ->check(CLI::Range(50, 120));
    cmd->callback([path, noCompile, cc, &exitCode] {
        packs::ValidateOptions options;
        options.compile = !*noCompile;
        options.computeCapability = *cc;
        const packs::ValidationResult result = packs::validatePackOrFolder(*path, options);
        int errors = 0;
        for (const course::Diagnostic& d : result.diagnostics) {
            errors += d.severity == course::Severity::Error ? 1 : 0;
            std::cout << d.format() << '\n';
        }
        std::cout << (errors == 0 ? "valid: " : "invalid: ") << result.modules << " module(s), "
                  << result.sourcesCompiled << " exercise source(s) compiled, " << errors << " error(s), "
                  << (result.diagnostics.size() - static_cast<std::size_t>(errors)) << " warning(s)\n";
        exitCode = result.exitCode;
    });
}

} // namespace tkm::cli
