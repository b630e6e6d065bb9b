// The Triton track's own words (issue 18): every built-in exercise with a "triton" block names a Triton prompt
// file that exists, starts with the kernel signature of its starter.py and ends with what the built-in solution
// reaches, and carries 2 to 4 Triton hints; neither prompt nor hints speak CUDA's thread vocabulary
// (blockIdx, threadIdx, …) except in a sentence that says "In CUDA" (module 01 contrasts the two models).
// Reads exercise.json directly, so the check does not depend on how the loader stores the fields.
#include "tests/content/content_files.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The words of CUDA's thread model that a Triton learner never writes.
constexpr std::array<std::string_view, 7> kCudaWords = {"blockIdx",  "threadIdx",      "blockDim",  "gridDim",
                                                        "__global__", "__syncthreads", "__shared__"};

// Start of the sentence holding text[pos]: after the last ". ", "? ", "! ", blank line or list item.
std::size_t sentenceStart(const std::string& text, std::size_t pos)
{
    std::size_t start = 0;
    for (std::string_view end : {". ", ".\n", "? ", "! ", "\n\n", "\n- "}) {
        const std::size_t at = text.rfind(end, pos);
        if (at != std::string::npos && at + end.size() > start) {
            start = at + end.size();
        }
    }
    return start;
}

// Each use of a CUDA word outside a sentence marked "In CUDA", as "word in «…sentence…»".
std::vector<std::string> cudaWordsOutsideComparison(const std::string& text)
{
    std::vector<std::string> out;
    for (std::string_view word : kCudaWords) {
        for (std::size_t pos = text.find(word); pos != std::string::npos; pos = text.find(word, pos + 1)) {
            const std::size_t start = sentenceStart(text, pos);
            const std::string sentence = text.substr(start, pos - start + word.size());
            if (sentence.find("In CUDA") == std::string::npos) {
                out.push_back(std::string(word) + " in «" + sentence + "»");
            }
        }
    }
    return out;
}

// "def name(…):" of `kernel` with white space folded to single spaces; empty when absent.
std::string signature(const std::string& source, const std::string& kernel)
{
    const std::size_t at = source.find("def " + kernel + "(");
    const std::size_t end = at == std::string::npos ? at : source.find("):", at);
    if (end == std::string::npos) {
        return {};
    }
    std::string out;
    for (char c : source.substr(at, end + 2 - at)) {
        const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
        if (!space) {
            out += c;
        } else if (!out.empty() && out.back() != ' ') {
            out += ' ';
        }
    }
    return out;
}

TEST(ContentTritonText, EveryTritonTrackHasItsOwnPromptAndHints)
{
    const fs::path root = tkm::test::contentRoot();
    int tracks = 0;
    for (const fs::path& folder : tkm::test::exerciseFolders(root)) {
        const std::string name = tkm::test::shortName(folder, root);
        const json spec = json::parse(readText(folder / "exercise.json"), nullptr, false);
        ASSERT_FALSE(spec.is_discarded()) << name << "/exercise.json is not JSON";
        if (!spec.contains("triton")) {
            continue;
        }
        ++tracks;
        const json& triton = spec["triton"];
        ASSERT_TRUE(triton.contains("prompt") && triton["prompt"].is_string()) << name << ": no Triton prompt";
        const fs::path prompt = folder / triton["prompt"].get<std::string>();
        ASSERT_TRUE(fs::is_regular_file(prompt)) << name << ": " << prompt << " does not exist";
        const std::string text = readText(prompt);

        const std::string kernel = triton.value("kernel", spec.value("kernel", std::string()));
        const std::string starterSig = signature(readText(folder / triton.value("starter", "starter.py")), kernel);
        ASSERT_FALSE(starterSig.empty()) << name << ": starter has no `def " << kernel << "(`";
        EXPECT_EQ(signature(text, kernel), starterSig) << name << ": the prompt's signature is not the starter's";
        EXPECT_NE(text.find("## What the built-in solution reaches"), std::string::npos) << name;
        for (const std::string& hit : cudaWordsOutsideComparison(text)) {
            ADD_FAILURE() << name << "/" << prompt.filename().string() << ": CUDA word " << hit;
        }

        ASSERT_TRUE(triton.contains("hints") && triton["hints"].is_array()) << name << ": no Triton hints";
        const json& hints = triton["hints"];
        EXPECT_GE(hints.size(), 2U) << name;
        EXPECT_LE(hints.size(), 4U) << name;
        for (const json& h : hints) {
            ASSERT_TRUE(h.is_string()) << name << ": a hint is not a string";
            EXPECT_FALSE(h.get<std::string>().empty()) << name << ": empty hint";
            for (const std::string& hit : cudaWordsOutsideComparison(h.get<std::string>())) {
                ADD_FAILURE() << name << " Triton hint: CUDA word " << hit;
            }
        }
    }
    EXPECT_GE(tracks, 16);
}

TEST(ContentTritonText, CudaWordsAreFoundOutsideAnInCudaSentence)
{
    EXPECT_TRUE(cudaWordsOutsideComparison("In CUDA, threads pick `threadIdx.x`. Triton has none.").empty());
    EXPECT_EQ(cudaWordsOutsideComparison("Start at `blockIdx.x * BLOCK_SIZE`.").size(), 1U);
    EXPECT_EQ(cudaWordsOutsideComparison("In CUDA it differs.\n\nUse `blockDim.x` here.").size(), 1U);
    EXPECT_EQ(signature("@triton.jit\ndef k(a,\n      b: tl.constexpr):\n    pass", "k"), "def k(a, b: tl.constexpr):");
}

} // namespace
