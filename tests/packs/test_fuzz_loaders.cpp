// Fuzz test of the content loader and the pack importer (issue 14, "Done when"): seeded random mutations of the
// built-in course's JSON files and of a valid pack (its files, its entry names and its zip bytes). Deterministic
// (fixed seed), bounded (a case count and a wall-clock budget well under the CI timeout). Every case must end in
// a result, never a crash, an exception or a hang, and nothing may be written outside the pack store.
// TKM_FUZZ_VERBOSE=1 prints each case before it runs, to find the one that crashed.
#include "engine/common/paths.h"
#include "modules/course/loader.h"
#include "modules/packs/archive.h"
#include "test_helpers.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <random>

namespace fs = std::filesystem;
using namespace tkm;
using tkm::test::TempDir;

namespace {

constexpr uint64_t kSeed = 20261201;
constexpr auto kBudget = std::chrono::seconds(20); // per test: both together stay under 60 s in CI

bool verbose()
{
    const char* v = std::getenv("TKM_FUZZ_VERBOSE");
    return v && *v == '1';
}

class Mutator
{
public:
    explicit Mutator(uint64_t seed) : m_rng(seed) {}

    std::size_t below(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(m_rng); }
    bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }

    // One to three edits of the kinds that broke the loaders before, plus plain byte noise.
    std::string mutate(std::string s)
    {
        const int edits = 1 + static_cast<int>(below(3));
        for (int i = 0; i < edits; ++i) {
            s = edit(std::move(s));
        }
        return s;
    }

private:
    std::string edit(std::string s)
    {
        static const std::vector<std::string> kTokens = {
            "1e400", "-1e400", "18446744073709551616", "4294967297", "-9223372036854775809", "0.0", "-0",
            "null", "true", "\"\"", "{}", "[]", "\"\\u0000\"", "\"\\ud800\"", "\xff\xfe", "\xEF\xBB\xBF", "\xc3",
            ",", ":", "\"", "{", "}", "[", "]", "\"id\": \"x\", \"id\": \"y\"", "\"../../../../etc/passwd\"",
            "\"/etc/passwd\"", "\"\\\\\"", "\n", "\t"};
        const std::size_t at = below(s.size() + 1);
        switch (below(9)) {
        case 0: // flip a byte
            if (!s.empty()) {
                s[below(s.size())] = static_cast<char>(below(256));
            }
            return s;
        case 1: // insert a token
            return s.insert(at, kTokens[below(kTokens.size())]);
        case 2: // delete a range
            return s.erase(at, 1 + below(64));
        case 3: // duplicate a range
            return s.insert(at, s.substr(below(s.size() + 1), 1 + below(200)));
        case 4: // truncate
            return s.substr(0, at);
        case 5: { // deep nesting
            const std::size_t depth = chance(50) ? 200 + below(400) : 5000 + below(100000);
            return s.insert(at, std::string(depth, chance(50) ? '[' : '{'));
        }
        case 6: // a long string value
            return s.insert(at, "\"" + std::string(1000 + below(300000), 'a') + "\"");
        case 7: { // replace a number with a hostile one
            const auto digit = s.find_first_of("0123456789", at);
            return digit == std::string::npos ? s : s.replace(digit, 1, kTokens[below(7)]);
        }
        default: { // swap two bytes far apart
            if (s.size() > 1) {
                std::swap(s[below(s.size())], s[below(s.size())]);
            }
            return s;
        }
        }
    }

    std::mt19937_64 m_rng;
};

// Every file's relative path and bytes under `root`, sorted by path.
std::vector<std::pair<std::string, std::string>> jsonFiles(const fs::path& root)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [rel, data] : test::snapshot(root)) {
        if (fs::path(rel).extension() == ".json") {
            out.emplace_back(rel, data);
        }
    }
    return out;
}

void checkDiagnostics(const std::vector<course::Diagnostic>& diagnostics, const std::string& what)
{
    for (const auto& d : diagnostics) {
        EXPECT_FALSE(d.message.empty()) << what;
        EXPECT_GE(d.line, 0) << what;
        EXPECT_GE(d.column, 0) << what;
    }
}

struct Entry
{
    std::string name;
    std::string data;
};

bool craftZip(const fs::path& file, const std::vector<Entry>& entries)
{
    int err = 0;
    zip_t* z = zip_open(file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!z) {
        return false;
    }
    for (const auto& e : entries) {
        zip_source_t* src = zip_source_buffer(z, e.data.data(), e.data.size(), 0);
        const zip_int64_t idx = zip_file_add(z, e.name.c_str(), src, ZIP_FL_ENC_RAW);
        if (idx < 0) {
            zip_source_free(src); // a name libzip itself refuses (a duplicate): leave it out
            continue;
        }
        zip_file_set_external_attributes(z, static_cast<zip_uint64_t>(idx), 0, ZIP_OPSYS_UNIX,
                                         static_cast<zip_uint32_t>(S_IFREG | 0644) << 16);
    }
    return zip_close(z) == 0;
}

std::vector<std::string> listing(const fs::path& dir)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST(FuzzLoaders, BuiltinCourseJsonMutationsNeverCrash)
{
    TempDir tmp;
    const fs::path root = tmp.path() / "content";
    fs::copy(engine::contentDir(), root, fs::copy_options::recursive);
    const auto files = jsonFiles(root);
    ASSERT_GT(files.size(), 20u);
    Mutator m(kSeed);
    const auto start = std::chrono::steady_clock::now();
    int cases = 0;
    int loaded = 0;
    for (; cases < 3000 && std::chrono::steady_clock::now() - start < kBudget; ++cases) {
        const auto& [rel, original] = files[m.below(files.size())];
        const fs::path file = root / rel;
        const std::string mutated = m.mutate(original);
        if (verbose()) {
            std::fprintf(stderr, "content case %d: %s (%zu bytes)\n", cases, rel.c_str(), mutated.size());
        }
        test::writeAll(file, mutated);
        // The module the file belongs to; course.json goes through the whole course now and then.
        const fs::path moduleFolder = root / *fs::path(rel).begin();
        std::vector<course::Diagnostic> diagnostics;
        if (rel == "course.json") {
            auto r = course::loadCourse(root);
            loaded += r.course ? 1 : 0;
            diagnostics = std::move(r.diagnostics);
        } else {
            auto r = course::loadModule(moduleFolder);
            loaded += r.module ? 1 : 0;
            diagnostics = std::move(r.diagnostics);
            EXPECT_EQ(r.module.has_value(), !course::hasErrors(diagnostics)) << rel;
        }
        checkDiagnostics(diagnostics, rel);
        test::writeAll(file, original);
    }
    EXPECT_GE(cases, 200) << "too few cases ran in the budget";
    std::printf("content: %d cases, %d still loaded\n", cases, loaded);
    // Loading never writes: the tree is the built-in course again, nothing added.
    EXPECT_EQ(test::snapshot(root), test::snapshot(engine::contentDir()));
}

TEST(FuzzLoaders, PackMutationsNeverCrashOrEscape)
{
    TempDir tmp;
    std::vector<Entry> base{{"pack.json", R"({"format": 1, "id": "fuzz", "title": "Fuzz", "author": "", )"
                                          R"("created": "", "modules": ["alpha"]})"}};
    for (const auto& [rel, data] : test::snapshot(test::dataDir() / "content-good" / "01-alpha")) {
        base.push_back({"alpha/" + rel, data});
    }
    const fs::path profile = tmp.path() / "profile";
    const fs::path file = tmp.path() / "fuzz.tkmpack";
    packs::PackStore store(profile);
    ASSERT_TRUE(store.create("fuzz", "Installed", "", "")); // every case clashes: Cancel, Replace or KeepBoth
    const auto installed = test::snapshot(store.packFolder("fuzz"));
    static const std::vector<std::string> kNames = {"../evil.md", "/abs.md", "alpha/../../x.md", "alpha\\win.md",
                                                    "alpha/a b.md", "alpha/", "stray.md", "alpha/run.sh",
                                                    "alpha/lessons/", "alpha//x.md", "pack.json", "alpha/module.json"};
    Mutator m(kSeed + 1);
    const auto start = std::chrono::steady_clock::now();
    int cases = 0;
    int imported = 0;
    for (; cases < 1500 && std::chrono::steady_clock::now() - start < kBudget; ++cases) {
        std::vector<Entry> entries = base;
        const std::size_t kind = m.below(4);
        if (kind == 0 || kind == 3) { // a file's bytes (pack.json half of the time)
            Entry& e = m.chance(50) ? entries[0] : entries[m.below(entries.size())];
            e.data = m.mutate(e.data);
        }
        if (kind == 1) { // an entry's name, or one more entry
            const std::string name = kNames[m.below(kNames.size())];
            if (m.chance(50)) {
                entries[1 + m.below(entries.size() - 1)].name = name;
            } else {
                entries.push_back({name, "x"});
            }
        }
        if (kind == 2 && m.chance(50)) { // an entry gone
            entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(m.below(entries.size())));
        }
        if (verbose()) {
            std::fprintf(stderr, "pack case %d: kind %zu\n", cases, kind);
        }
        if (!craftZip(file, entries)) {
            continue;
        }
        if (kind == 2 || kind == 3) { // the archive's own bytes
            std::string bytes = test::readAll(file);
            for (std::size_t i = 0, n = 1 + m.below(8); i < n && !bytes.empty(); ++i) {
                bytes[m.below(bytes.size())] = static_cast<char>(m.below(256));
            }
            test::writeAll(file, bytes);
        }
        packs::ImportOptions options;
        options.onClash = static_cast<packs::ClashChoice>(m.below(3));
        auto result = packs::importPack(file, store, options);
        if (result) {
            ++imported;
            EXPECT_TRUE(packs::isValidPackId(result->pack.id));
            EXPECT_EQ(result->pack.folder, store.packFolder(result->pack.id));
            if (result->pack.id != "fuzz") {
                ASSERT_TRUE(store.remove(result->pack.id));
            }
        } else {
            EXPECT_FALSE(result.error().message.empty());
        }
        // Nothing outside the store: the temp folder holds the archive and the profile only; the store holds the
        // installed pack (replaced or not) and no temporary folder.
        EXPECT_EQ(listing(tmp.path()), (std::vector<std::string>{"fuzz.tkmpack", "profile"})) << "case " << cases;
        EXPECT_EQ(listing(store.packsDir()), std::vector<std::string>{"fuzz"}) << "case " << cases;
        if (result && result->replaced) {
            fs::remove_all(store.packFolder("fuzz"));
            ASSERT_TRUE(store.create("fuzz", "Installed", "", ""));
        }
        EXPECT_EQ(test::snapshot(store.packFolder("fuzz")), installed) << "case " << cases;
    }
    EXPECT_GE(cases, 200) << "too few cases ran in the budget";
    std::printf("packs: %d cases, %d imported\n", cases, imported);
}
