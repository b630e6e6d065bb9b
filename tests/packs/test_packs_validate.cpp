// validatePackOrFolder: a good pack (folder and .tkmpack) passes with every exercise source compiled by NVRTC;
// a compile error, a bad schema and a missing path give their exit codes and located diagnostics. No GPU needed.
#include "modules/packs/validate.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace tkm;
using tkm::test::TempDir;

namespace {

std::string allMessages(const packs::ValidationResult& r)
{
    std::string s;
    for (const auto& d : r.diagnostics) {
        s += d.format() + "\n";
    }
    return s;
}

fs::path makePack(const fs::path& profile)
{
    packs::PackStore store(profile);
    EXPECT_TRUE(store.create("check", "Check", "", ""));
    EXPECT_TRUE(store.copyBuiltinModule(test::dataDir() / "content-good" / "01-alpha", "check"));
    return store.packFolder("check");
}

} // namespace

TEST(PackValidate, GoodPackFolderAndFilePassWithEverySourceCompiled)
{
    TempDir tmp;
    const fs::path pack = makePack(tmp.path());
    packs::ValidateOptions options;
    options.useCompileCache = false;
    auto folder = packs::validatePackOrFolder(pack, options);
    EXPECT_EQ(folder.exitCode, packs::kValidateOk) << allMessages(folder);
    EXPECT_EQ(folder.modules, 1);
    // vector-add: starter, solution, two bug variants and the reference.
    EXPECT_EQ(folder.sourcesCompiled, 5);

    const fs::path file = tmp.path() / "check.tkmpack";
    ASSERT_TRUE(packs::exportPack(pack, file));
    options.workDir = tmp.path() / "work";
    auto zipped = packs::validatePackOrFolder(file, options);
    EXPECT_EQ(zipped.exitCode, packs::kValidateOk) << allMessages(zipped);
    EXPECT_EQ(zipped.sourcesCompiled, 5);
    EXPECT_TRUE(fs::is_empty(tmp.path() / "work")); // the unpacked copy is gone

    auto content = packs::validatePackOrFolder(test::dataDir() / "content-good", options);
    EXPECT_EQ(content.exitCode, packs::kValidateOk) << allMessages(content);
    EXPECT_EQ(content.modules, 2);
}

TEST(PackValidate, CompileErrorInSolutionFailsWithItsLine)
{
    TempDir tmp;
    const fs::path pack = makePack(tmp.path());
    const fs::path solution = pack / "01-alpha" / "exercises" / "vector-add" / "solution.cu";
    test::writeAll(solution, test::readAll(solution) + "\nthis is not CUDA;\n");
    packs::ValidateOptions options;
    options.useCompileCache = false;
    auto r = packs::validatePackOrFolder(pack, options);
    EXPECT_EQ(r.exitCode, packs::kValidateFailed);
    bool found = false;
    for (const auto& d : r.diagnostics) {
        if (d.file == solution && d.severity == course::Severity::Error && d.line > 0) {
            found = true;
        }
    }
    EXPECT_TRUE(found) << allMessages(r);
}

TEST(PackValidate, SchemaErrorAndMissingPath)
{
    TempDir tmp;
    const fs::path pack = makePack(tmp.path());
    test::writeAll(pack / "01-alpha" / "module.json", "{\"format\": 1, \"id\": \"alpha\"");
    packs::ValidateOptions options;
    options.compile = false;
    auto r = packs::validatePackOrFolder(pack, options);
    EXPECT_EQ(r.exitCode, packs::kValidateFailed);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].file.filename(), "module.json");

    auto missing = packs::validatePackOrFolder(tmp.path() / "nope", options);
    EXPECT_EQ(missing.exitCode, packs::kValidateUnusable);
    EXPECT_NE(missing.diagnostics.at(0).message.find("does not exist"), std::string::npos);
}
