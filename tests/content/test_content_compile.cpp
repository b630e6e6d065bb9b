// Every starter, solution, reference, bug variant and "kernels" baseline of every built-in exercise compiles
// with NVRTC (no GPU needed: compiled for the default architecture, sm_90). A bug variant whose expected
// diagnosis is compile_error must fail to compile instead.
#include "engine/common/paths.h"
#include "engine/compile/compiler.h"
#include "engine/problem/instance.h"
#include "engine/problem/spec.h"
#include "tests/content/content_files.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>

namespace report = tkm::report;

namespace {

namespace fs = std::filesystem;

std::string diagnosticsText(const tkm::compile::CompileResult& r)
{
    std::string out;
    for (const auto& d : r.diagnostics) {
        out += "    " + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.severity +
               ": " + d.message + "\n";
    }
    return out.empty() ? "    " + r.log + "\n" : out;
}

class ContentCompile : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_root = tkm::test::contentRoot();
        m_folders = tkm::test::exerciseFolders(m_root);
        ASSERT_FALSE(m_folders.empty()) << "no exercise folders under " << m_root;
    }

    // Compiles `rel` of `spec` as a learner-style source; returns "" or a failure description.
    std::string compileLearnerSource(const tkm::problem::ExerciseSpec& spec, const std::string& rel,
                                     bool expectFailure = false)
    {
        const auto meta = tkm::problem::resolveMeta(spec);
        if (!meta) {
            return "meta-parameters: " + meta.error().message;
        }
        const auto source = tkm::engine::readTextFile(spec.path(rel));
        if (!source) {
            return source.error().message;
        }
        auto request = tkm::compile::learnerRequest(spec, *meta, *source, fs::path(rel).filename().string());
        request.useCache = false;
        const auto result = tkm::compile::compileKernel(request);
        if (!result) {
            return "NVRTC unusable: " + result.error().message;
        }
        ++m_compiled;
        if (expectFailure) {
            return result->ok ? rel + " compiled, but its expected diagnosis is compile_error\n" : "";
        }
        return result->ok ? "" : rel + " does not compile:\n" + diagnosticsText(*result);
    }

    fs::path m_root;
    std::vector<fs::path> m_folders;
    int m_compiled = 0;
};

TEST_F(ContentCompile, EverySourceOfEveryExerciseCompiles)
{
    for (const fs::path& folder : m_folders) {
        const std::string name = tkm::test::shortName(folder, m_root);
        SCOPED_TRACE(name);
        const auto spec = tkm::problem::loadSpec(folder);
        if (!spec) {
            ADD_FAILURE() << name << ": exercise.json does not parse: " << spec.error().message;
            continue;
        }
        EXPECT_EQ(compileLearnerSource(*spec, spec->starter), "");
        EXPECT_EQ(compileLearnerSource(*spec, spec->solution), "");
        for (const auto& bug : spec->bugs) {
            EXPECT_EQ(compileLearnerSource(*spec, bug.file, bug.expect.verdict == report::Verdict::CompileError), "");
        }

        auto reference = tkm::compile::referenceRequest(*spec);
        if (!reference) {
            ADD_FAILURE() << "reference: " << reference.error().message;
        } else {
            reference->useCache = false;
            const auto result = tkm::compile::compileKernel(*reference);
            ASSERT_TRUE(result.ok()) << result.error().message;
            ++m_compiled;
            EXPECT_TRUE(result->ok) << spec->reference.file << " does not compile:\n" << diagnosticsText(*result);
        }

        for (const auto& baseline : spec->baselines) {
            if (baseline.kind != "kernels") {
                continue;
            }
            std::set<std::string> kernels;
            for (const auto& launch : baseline.launches) {
                kernels.insert(launch.kernel);
            }
            const auto meta = tkm::problem::resolveMeta(*spec);
            const auto source = tkm::engine::readTextFile(spec->path(baseline.file));
            ASSERT_TRUE(meta.ok() && source.ok()) << baseline.file;
            for (const std::string& kernel : kernels) {
                auto request =
                    tkm::compile::learnerRequest(*spec, *meta, *source, fs::path(baseline.file).filename().string());
                request.kernel = kernel;
                request.signature.clear(); // baseline kernels have their own parameter lists
                request.useCache = false;
                const auto result = tkm::compile::compileKernel(request);
                ASSERT_TRUE(result.ok()) << result.error().message;
                ++m_compiled;
                EXPECT_TRUE(result->ok) << baseline.file << " (kernel " << kernel << ") does not compile:\n"
                                        << diagnosticsText(*result);
            }
        }
    }
    std::printf("compiled %d sources of %zu exercises\n", m_compiled, m_folders.size());
}

} // namespace
