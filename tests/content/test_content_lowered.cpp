// The "what the compiler made of it" lessons of modules 02, 04 and 06 stay true: each lesson's exercise
// solution is bound at the performance case, checked and lowered (lower::lower, no GPU, no NVRTC), and every
// layout fact the lesson states is asserted both in the lesson's text and in the lowering's layout notes. When
// the lowering changes a layout, this test names the lesson to rewrite.
// With TKM_PRINT_LOWERED=1 it also prints each kernel's layout notes and generated source (the tool the
// lessons were written from).
#include "tests/content/content_files.h"

#include "engine/problem/instance.h"
#include "engine/problem/spec.h"
#include "engine/runner/triton_binding.h"
#include "engine/triton/check/checker.h"
#include "engine/triton/lower/lower.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    EXPECT_TRUE(in.good()) << "cannot read " << p;
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// One lesson: the exercise whose solution it walks through, and the layout phrases it quotes.
struct Walkthrough
{
    std::string exercise;             ///< folder under content/
    std::string lesson;               ///< Markdown file under content/
    std::string caseName;             ///< the case to bind (empty: the performance case)
    std::vector<std::string> layouts; ///< each must occur in the lesson and in Lowered::layoutNotes
    tkm::problem::MetaValues meta = {}; ///< meta-parameters the lesson names, where they are not the defaults
};

/// Lowers the exercise's Triton solution at case `caseName` (empty: the performance case) and the default meta
/// with `overrides`.
tkm::triton::lower::Lowered lowerSolution(const fs::path& folder, const std::string& caseName,
                                          const tkm::problem::MetaValues& overrides)
{
    auto spec = tkm::problem::loadSpec(folder);
    EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message);
    if (!spec.ok() || !spec->triton) {
        return {};
    }
    auto meta = tkm::problem::resolveMeta(*spec, overrides);
    EXPECT_TRUE(meta.ok());
    const tkm::problem::Case* chosen = spec->performance ? &*spec->performance : nullptr;
    for (const tkm::problem::Case& c : spec->cases) {
        if (c.name == caseName) {
            chosen = &c;
        }
    }
    EXPECT_TRUE(chosen != nullptr && (caseName.empty() || chosen->name == caseName)) << caseName;
    if (chosen == nullptr) {
        return {};
    }
    auto inst = tkm::problem::instantiate(*spec, *chosen, *meta, -1);
    EXPECT_TRUE(inst.ok()) << (inst.ok() ? "" : inst.error().message);
    if (!meta.ok() || !inst.ok()) {
        return {};
    }
    const std::string file = spec->triton->solution;
    auto src = tkm::runner::parseTritonSource(file, readFile(folder / file));
    std::vector<tkm::triton::Diagnostic> diags;
    auto b = tkm::runner::bindTriton(*src, tkm::runner::learnerTarget(*spec->triton), *spec, *inst, diags);
    EXPECT_TRUE(b.ok() && b->has_value()) << folder;
    if (!b.ok() || !b->has_value()) {
        return {};
    }
    const auto checked = tkm::triton::check((*b)->input);
    EXPECT_TRUE(checked.function.has_value()) << folder;
    if (!checked.function) {
        return {};
    }
    tkm::triton::lower::LowerOptions o;
    o.fileName = file;
    return tkm::triton::lower::lower(*checked.function, o);
}

TEST(ContentLowered, WalkthroughLayoutsMatchTheLowering)
{
    const std::vector<Walkthrough> lessons = {
        {"02-vector-add/exercises/vector-add", "02-vector-add/lessons/03-what-it-became.md", "",
         {"1024 int32s, 4 per thread, 128 threads, 2 repetitions",
          "1024 fp32s, 4 per thread, 128 threads, 2 repetitions"}},
        {"04-fused-softmax/exercises/fused-softmax", "04-fused-softmax/lessons/04-what-it-became.md", "",
         {"4096 fp32s, 4 per thread, 256 threads, 4 repetitions"}},
        {"04-fused-softmax/exercises/fused-softmax", "04-fused-softmax/lessons/04-what-it-became.md",
         "64 x 1000, ragged rows", {"1024 fp32s, 4 per thread, 256 threads, 1 repetition"}},
        {"06-blocked-matmul/exercises/matmul-fp16", "06-blocked-matmul/lessons/04-what-it-became.md", "",
         {"4096 fp32s, 4 per thread, 128 threads, 8 repetitions",
          "64 int32s, 1 per thread, 128 threads, 1 repetition (replicated: 64 < 128)",
          "2048 pointers, 4 per thread, 128 threads, 4 repetitions"},
         // The lesson's tile; the exercise's defaults are 128 x 128 with 8 warps (the tensor-core solution's).
         {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 32}, {"NUM_WARPS", 4}}},
    };
    const fs::path root = tkm::test::contentRoot();
    const bool print = std::getenv("TKM_PRINT_LOWERED") != nullptr;
    for (const Walkthrough& w : lessons) {
        SCOPED_TRACE(w.lesson);
        const auto l = lowerSolution(root / w.exercise, w.caseName, w.meta);
        EXPECT_TRUE(l.diagnostics.empty()) << (l.diagnostics.empty() ? "" : l.diagnostics[0].message);
        if (print) {
            std::cout << "==== " << w.exercise << " " << w.caseName << "\n" << l.layoutNotes << "\n" << l.source << "\n";
        }
        const std::string text = readFile(root / w.lesson);
        for (const std::string& phrase : w.layouts) {
            EXPECT_NE(text.find(phrase), std::string::npos) << w.lesson << " no longer quotes \"" << phrase << "\"";
            EXPECT_NE(l.layoutNotes.find(phrase), std::string::npos)
                << "the lowering no longer gives \"" << phrase << "\": rewrite " << w.lesson
                << " from these layout notes:\n"
                << l.layoutNotes;
        }
    }
}

} // namespace
