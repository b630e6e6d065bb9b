// Hostile content files (issue 14, items 6, 7, 9, 12 and the BOM): each input is generated here, and each must end
// in a located, one-sentence diagnostic rather than an abort, a hang or unbounded memory.
#include "engine/common/json_safe.h"
#include "modules/course/loader.h"
#include "tests/modules/test_data.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using tkm::course::Diagnostic;
using tkm::course::Severity;

class TempCopy
{
public:
    TempCopy()
    {
        std::random_device rd;
        m_root = fs::temp_directory_path() / ("tkm-hostile-content-" + std::to_string(rd()) + std::to_string(rd()));
        fs::copy(tkm::test::dataDir() / "content-good", m_root, fs::copy_options::recursive);
    }
    ~TempCopy()
    {
        std::error_code ec;
        fs::remove_all(m_root, ec);
    }
    TempCopy(const TempCopy&) = delete;
    TempCopy& operator=(const TempCopy&) = delete;
    const fs::path& root() const { return m_root; }
    fs::path alpha() const { return m_root / "01-alpha"; }
    fs::path exercise() const { return alpha() / "exercises" / "vector-add"; }

private:
    fs::path m_root;
};

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeAll(const fs::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

void replaceIn(const fs::path& p, const std::string& from, const std::string& to)
{
    std::string s = readAll(p);
    const auto at = s.find(from);
    ASSERT_NE(at, std::string::npos) << from << " not in " << p;
    s.replace(at, from.size(), to);
    writeAll(p, s);
}

std::string listAll(const std::vector<Diagnostic>& diags)
{
    std::string out;
    for (const Diagnostic& d : diags) {
        out += "  " + d.format() + "\n";
    }
    return out;
}

const Diagnostic* findError(const std::vector<Diagnostic>& diags, const std::string& text)
{
    for (const Diagnostic& d : diags) {
        if (d.severity == Severity::Error && d.message.find(text) != std::string::npos) {
            return &d;
        }
    }
    return nullptr;
}

} // namespace

// Item 6: nlohmann's out_of_range (a number too large for a double) is a syntax error with its position.
TEST(HostileContent, NumberOutOfRangeIsASyntaxErrorAtItsPosition)
{
    TempCopy tmp;
    replaceIn(tmp.alpha() / "module.json", "\"order\": 1,", "\"order\": 1e400,");
    const auto result = tkm::course::loadModule(tmp.alpha());
    EXPECT_FALSE(result.module);
    const Diagnostic* d = findError(result.diagnostics, "number overflow");
    ASSERT_NE(d, nullptr) << listAll(result.diagnostics);
    EXPECT_EQ(d->file.filename(), "module.json");
    EXPECT_EQ(d->line, 6);
    EXPECT_EQ(d->column, 12); // the '1' of 1e400
    EXPECT_NE(d->message.find("JSON syntax error"), std::string::npos);

    // The same number in exercise.json and in an activity file.
    TempCopy tmp2;
    replaceIn(tmp2.exercise() / "exercise.json", "\"format\": 1,", "\"format\": -1e400,");
    const auto r2 = tkm::course::loadCourse(tmp2.root());
    EXPECT_FALSE(r2.course);
    EXPECT_NE(findError(r2.diagnostics, "number overflow"), nullptr) << listAll(r2.diagnostics);
}

// Item 7: 100 000 levels of nesting are refused with a clear error, within a memory limit, in a child process so
// that a regression shows as a failed child rather than a machine out of memory.
TEST(HostileContent, DeepNestingIsRefusedUnderAMemoryLimit)
{
    TempCopy tmp;
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    writeAll(tmp.alpha() / "activities" / "quiz.json", deep);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        // 1 GiB of address space more than this process has now (the old index took 5.6 GB here).
        std::ifstream statm("/proc/self/statm");
        long pages = 0;
        statm >> pages;
        const rlim_t limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (1ull << 30);
        rlimit rl{limit, limit};
        setrlimit(RLIMIT_AS, &rl);
        const auto result = tkm::course::loadModule(tmp.alpha());
        const Diagnostic* d = findError(result.diagnostics, "nest deeper than");
        _exit(!result.module && d && d->line == 1 && d->column == tkm::engine::kMaxJsonDepth + 1 ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "the child died (signal " << WTERMSIG(status) << ")";
    EXPECT_EQ(WEXITSTATUS(status), 0);

    // In-process, the message itself.
    const auto result = tkm::course::loadModule(tmp.alpha());
    const Diagnostic* d = findError(result.diagnostics, "nest deeper than 256 levels");
    ASSERT_NE(d, nullptr) << listAll(result.diagnostics);
    EXPECT_EQ(d->file.filename(), "quiz.json");
}

// A UTF-8 byte order mark neither moves every error to 1:1 nor invents duplicate keys.
TEST(HostileContent, ByteOrderMarkKeepsPositionsAndInventsNoDuplicates)
{
    TempCopy tmp;
    const fs::path module = tmp.alpha() / "module.json";
    writeAll(module, "\xEF\xBB\xBF" + readAll(module));
    auto good = tkm::course::loadModule(tmp.alpha());
    EXPECT_TRUE(good.module) << listAll(good.diagnostics);
    EXPECT_TRUE(good.diagnostics.empty()) << listAll(good.diagnostics);

    replaceIn(module, "\"order\": 1,", "\"order\": 0,");
    auto bad = tkm::course::loadModule(tmp.alpha());
    const Diagnostic* d = findError(bad.diagnostics, "\"order\"");
    ASSERT_NE(d, nullptr) << listAll(bad.diagnostics);
    EXPECT_EQ(d->line, 6);
    EXPECT_EQ(d->column, 12);
    EXPECT_EQ(findError(bad.diagnostics, "appears twice"), nullptr) << listAll(bad.diagnostics);

    // A BOM in front of a syntax error on line 1: the column does not count the invisible mark.
    writeAll(module, "\xEF\xBB\xBF{,}");
    auto syntax = tkm::course::loadModule(tmp.alpha());
    const Diagnostic* s = findError(syntax.diagnostics, "JSON syntax error");
    ASSERT_NE(s, nullptr) << listAll(syntax.diagnostics);
    EXPECT_EQ(s->line, 1);
    EXPECT_EQ(s->column, 2);
}

// Item 9 (loader half): an oversized lesson page is refused with its size and the limit.
TEST(HostileContent, OversizedLessonIsRefused)
{
    TempCopy tmp;
    const fs::path lesson = tmp.alpha() / "lessons" / "01-intro.md";
    std::string page = readAll(lesson) + "\n";
    page += std::string(300 * 1024, 'a') + "\n"; // one 300 KiB paragraph
    writeAll(lesson, page);
    const auto result = tkm::course::loadModule(tmp.alpha());
    EXPECT_FALSE(result.module);
    const Diagnostic* d = findError(result.diagnostics, "may be at most 256 KiB");
    ASSERT_NE(d, nullptr) << listAll(result.diagnostics);
    EXPECT_EQ(d->file, lesson);

    // The exercise prompt is a Markdown page too.
    TempCopy tmp2;
    writeAll(tmp2.exercise() / "prompt.md", "# Prompt\n" + std::string(257 * 1024, 'b'));
    const auto r2 = tkm::course::loadModule(tmp2.alpha());
    EXPECT_FALSE(r2.module);
    EXPECT_NE(findError(r2.diagnostics, "may be at most 256 KiB"), nullptr) << listAll(r2.diagnostics);
}

// Item 12: prompt, starter, solution, reference and bug files may not be symbolic links out of the exercise folder.
TEST(HostileContent, ExerciseFilesThatLinkOutsideAreRefused)
{
    for (const std::string& name : std::vector<std::string>{"prompt.md", "starter.cu", "solution.cu", "reference.cu", "bugs/no-mask.cu"}) {
        TempCopy tmp;
        const fs::path outside = tmp.root() / ("outside-" + fs::path(name).filename().string());
        fs::copy_file(tmp.exercise() / name, outside);
        fs::remove(tmp.exercise() / name);
        fs::create_symlink(outside, tmp.exercise() / name);
        const auto result = tkm::course::loadModule(tmp.alpha());
        EXPECT_FALSE(result.module) << name;
        const Diagnostic* d = findError(result.diagnostics, "resolves outside the exercise folder");
        ASSERT_NE(d, nullptr) << name << "\n" << listAll(result.diagnostics);
        EXPECT_EQ(d->file.filename(), "exercise.json");
        EXPECT_GT(d->line, 0);
    }
    // A link that stays inside the folder is fine.
    TempCopy tmp;
    fs::rename(tmp.exercise() / "prompt.md", tmp.exercise() / "prompt-real.md");
    fs::create_symlink("prompt-real.md", tmp.exercise() / "prompt.md");
    const auto ok = tkm::course::loadModule(tmp.alpha());
    EXPECT_TRUE(ok.module) << listAll(ok.diagnostics);
}

// Item 11 (loader half): a source that #includes a host file is refused at load time, on its own line.
TEST(HostileContent, SourceIncludingAHostFileIsRefused)
{
    TempCopy tmp;
    const fs::path solution = tmp.exercise() / "solution.cu";
    writeAll(solution, "// solution\n#include \"/etc/passwd\"\n" + readAll(solution));
    const auto result = tkm::course::loadModule(tmp.alpha());
    EXPECT_FALSE(result.module);
    const Diagnostic* d = findError(result.diagnostics, "is not allowed");
    ASSERT_NE(d, nullptr) << listAll(result.diagnostics);
    EXPECT_EQ(d->file, solution);
    EXPECT_EQ(d->line, 2);
    EXPECT_EQ(d->column, 1);
}

// parseJson itself: never throws, on any of these.
TEST(HostileContent, ParseJsonReportsEveryFailureAsAValue)
{
    for (const std::string& text : std::vector<std::string>{"1e400", "[1e400]", "{\"a\": -1e999}", "\"\xff\"", "[", "", "{\"a\":1,}",
                                   std::string(1000, '{'), "[\"\\ud800\"]"}) {
        const auto r = tkm::engine::parseJson(text);
        EXPECT_FALSE(r.ok()) << text.substr(0, 40);
        EXPECT_FALSE(r.error->message.empty());
    }
    const auto dup = tkm::engine::parseJson(R"({"a": {"b": 1, "b": 2}, "c": [{"d": 0, "d": 1}]})");
    ASSERT_TRUE(dup.ok());
    ASSERT_EQ(dup.duplicates.size(), 2u);
    EXPECT_EQ(dup.duplicates[0].pointer, "/a/b");
    EXPECT_EQ(dup.duplicates[1].pointer, "/c/0/d");
    EXPECT_EQ(tkm::engine::dumpJson(nlohmann::json("a\xff" "b")), "\"a\xEF\xBF\xBD" "b\"");
}
