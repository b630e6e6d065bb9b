// Hostile packs (issue 14, items 6, 8, 9, 11 and 14): every archive is crafted here. Each is refused with its
// sentence (or, when the docs promise it, skipped), nothing is written outside the pack store, and nothing hangs.
#include "modules/packs/archive.h"
#include "modules/packs/validate.h"
#include "test_helpers.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <sys/stat.h>

#include <chrono>

namespace fs = std::filesystem;
using namespace tkm;
using tkm::test::TempDir;

namespace {

struct Entry
{
    std::string name;
    std::string data;
};

void craftZip(const fs::path& file, const std::vector<Entry>& entries)
{
    int err = 0;
    zip_t* z = zip_open(file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    ASSERT_NE(z, nullptr);
    for (const auto& e : entries) {
        zip_source_t* src = zip_source_buffer(z, e.data.data(), e.data.size(), 0);
        const zip_int64_t idx = zip_file_add(z, e.name.c_str(), src, ZIP_FL_ENC_RAW);
        ASSERT_GE(idx, 0) << e.name;
        zip_file_set_external_attributes(z, static_cast<zip_uint64_t>(idx), 0, ZIP_OPSYS_UNIX,
                                         static_cast<zip_uint32_t>(S_IFREG | 0644) << 16);
    }
    ASSERT_EQ(zip_close(z), 0);
}

std::string manifest(const std::string& id, const std::string& format = "1")
{
    return R"({"format": )" + format + R"(, "id": ")" + id +
           R"(", "title": "Hostile", "author": "", "created": "", "modules": ["alpha"]})";
}

std::vector<Entry> goodEntries(const std::string& packJson = manifest("hostile"))
{
    std::vector<Entry> out{{"pack.json", packJson}};
    for (const auto& [rel, data] : test::snapshot(test::dataDir() / "content-good" / "01-alpha")) {
        out.push_back({"alpha/" + rel, data});
    }
    return out;
}

Entry* entry(std::vector<Entry>& entries, const std::string& name)
{
    for (auto& e : entries) {
        if (e.name == name) {
            return &e;
        }
    }
    return nullptr;
}

// Everything under the profile folder (the pack store and its state), names and bytes.
std::map<std::string, std::string> profileState(const fs::path& profile)
{
    return fs::exists(profile) ? test::snapshot(profile) : std::map<std::string, std::string>{};
}

// Imports `entries` as a crafted file into a fresh profile; expects a refusal containing `text` and an unchanged
// profile (the .tkmpack sits outside it).
void expectRefused(const std::vector<Entry>& entries, const std::string& text)
{
    TempDir tmp;
    const fs::path file = tmp.path() / "hostile.tkmpack";
    craftZip(file, entries);
    const fs::path profile = tmp.path() / "profile";
    packs::PackStore store(profile);
    ASSERT_TRUE(store.create("installed", "Installed", "", ""));
    const auto before = profileState(profile);
    auto result = packs::importPack(file, store);
    ASSERT_FALSE(result) << text;
    EXPECT_NE(result.error().message.find(text), std::string::npos) << result.error().message;
    EXPECT_EQ(profileState(profile), before) << text;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(store.packsDir())) {
        names.push_back(e.path().filename().string());
    }
    EXPECT_EQ(names, std::vector<std::string>{"installed"}) << "a temporary folder was left";
}

} // namespace

// Item 6: a number out of range in pack.json or in a module file is a refusal with a position, not an abort.
TEST(HostilePacks, NumberOutOfRangeIsRefused)
{
    expectRefused(goodEntries(manifest("hostile", "1e400")), "pack.json: is not valid JSON (line 1, column 12: number");
    auto entries = goodEntries();
    std::string& module = entry(entries, "alpha/module.json")->data;
    module.replace(module.find("\"order\": 1"), 10, "\"order\": 1e400");
    expectRefused(entries, "a module fails validation: alpha/module.json:6:12: error: JSON syntax error");
}

// Item 6: an installed pack with such a number does not stop the app from starting; the module is skipped.
TEST(HostilePacks, InstalledPackWithOutOfRangeNumberIsSkipped)
{
    TempDir tmp;
    packs::PackStore store(tmp.path());
    ASSERT_TRUE(store.create("broken", "Broken", "", ""));
    ASSERT_TRUE(store.copyBuiltinModule(test::dataDir() / "content-good" / "02-beta", "broken"));
    ASSERT_TRUE(test::replaceInFile(store.packFolder("broken") / "02-beta" / "module.json", "\"order\": 2",
                                    "\"order\": 2e999"));
    ASSERT_TRUE(store.create("badmanifest", "Bad", "", ""));
    test::writeAll(store.packFolder("badmanifest") / "pack.json", manifest("badmanifest", "-1e400"));
    const auto effective = store.effectiveCourse(test::dataDir() / "content-good");
    ASSERT_TRUE(effective.course);
    EXPECT_EQ(effective.course->modules.size(), 2u);
    for (const auto& origin : effective.origins) {
        EXPECT_TRUE(origin.packId.empty()) << origin.moduleId;
    }
    bool moduleReported = false;
    bool manifestReported = false;
    for (const auto& d : effective.diagnostics) {
        moduleReported |= d.message.find("number overflow") != std::string::npos && d.line > 0;
        manifestReported |= d.message.find("badmanifest") != std::string::npos &&
                            d.message.find("not valid JSON") != std::string::npos;
    }
    EXPECT_TRUE(moduleReported);
    EXPECT_TRUE(manifestReported);
}

// Item 8: keep-both with a 63- or 64-character id ends, with an id that is valid and free.
TEST(HostilePacks, KeepBothWithALongIdEnds)
{
    for (const std::size_t length : {62u, 63u, 64u}) {
        TempDir tmp;
        const std::string id(length, 'a');
        const fs::path file = tmp.path() / "long.tkmpack";
        auto entries = goodEntries(manifest(id));
        craftZip(file, entries);
        packs::PackStore store(tmp.path() / "profile");
        ASSERT_TRUE(store.create(id, "Installed", "", ""));
        packs::ImportOptions options;
        options.onClash = packs::ClashChoice::KeepBoth;
        const auto start = std::chrono::steady_clock::now();
        auto first = packs::importPack(file, store, options);
        ASSERT_TRUE(first) << first.error().message;
        auto second = packs::importPack(file, store, options);
        ASSERT_TRUE(second) << second.error().message;
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
        EXPECT_TRUE(packs::isValidPackId(first->pack.id));
        EXPECT_LE(first->pack.id.size(), 64u);
        EXPECT_TRUE(first->pack.id.ends_with("-2")) << first->pack.id;
        EXPECT_TRUE(second->pack.id.ends_with("-3")) << second->pack.id;
        EXPECT_EQ(store.find(first->pack.id)->id, first->pack.id) << "pack.json id rewritten";
        EXPECT_EQ(store.list().size(), 3u);
    }
}

// Item 14: a pack format that does not fit an int is not truncated (4294967297 was read as 1).
TEST(HostilePacks, HugeFormatIsNewerNotOne)
{
    expectRefused(goodEntries(manifest("hostile", "4294967297")),
                  "this pack was made by a newer version of Triton Kernel Mastery (format 4294967297)");
    expectRefused(goodEntries(manifest("hostile", "18446744073709551615")), "(format 18446744073709551615)");
    expectRefused(goodEntries(manifest("hostile", "-4294967295")), "\"format\" -4294967295 is not a pack format");
    auto info = packs::parseManifest(manifest("x", "1"));
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(info->format, 1);
}

// Item 14: duplicate keys in pack.json are refused (nlohmann silently kept the last one).
TEST(HostilePacks, DuplicateKeysInManifestAreRefused)
{
    const std::string twice =
        R"({"format": 1, "id": "hostile", "title": "A", "id": "other", "author": "", "created": "", "modules": ["alpha"]})";
    expectRefused(goodEntries(twice), "pack.json: the key \"id\" appears twice in the same object; keep one.");
}

// Item 14: an archive with one name written twice says so, naming the entry (not "damaged").
TEST(HostilePacks, DuplicateZipEntriesAreNamed)
{
    TempDir tmp;
    auto entries = goodEntries();
    entries.push_back({"alpha/lessons/dupA.md", "# A\n"});
    entries.push_back({"alpha/lessons/dupB.md", "# B\n"});
    const fs::path file = tmp.path() / "dup.tkmpack";
    craftZip(file, entries);
    // Rename the second entry to the first one's name in the local and central headers (same length).
    std::string bytes = test::readAll(file);
    for (std::size_t at = bytes.find("dupB.md"); at != std::string::npos; at = bytes.find("dupB.md", at)) {
        bytes[at + 3] = 'A';
    }
    test::writeAll(file, bytes);
    auto checked = packs::checkArchive(file);
    ASSERT_FALSE(checked);
    EXPECT_EQ(checked.error().message,
              "dup.tkmpack: entry \"alpha/lessons/dupA.md\" appears twice. The pack was refused and nothing was "
              "written.");
}

// Item 14: validate's exit codes are those of docs/packs.md: 2 for a path that cannot be used or unpacked.
TEST(HostilePacks, ValidateExitCodesFollowTheDocs)
{
    TempDir tmp;
    packs::ValidateOptions options;
    options.compile = false;
    test::writeAll(tmp.path() / "junk.tkmpack", std::string(4096, '\x7f'));
    EXPECT_EQ(packs::validatePackOrFolder(tmp.path() / "junk.tkmpack", options).exitCode, packs::kValidateUnusable);
    test::writeAll(tmp.path() / "notes.txt", "not a pack");
    EXPECT_EQ(packs::validatePackOrFolder(tmp.path() / "notes.txt", options).exitCode, packs::kValidateUnusable);
    fs::create_directories(tmp.path() / "empty-folder");
    const auto empty = packs::validatePackOrFolder(tmp.path() / "empty-folder", options);
    EXPECT_EQ(empty.exitCode, packs::kValidateUnusable);
    ASSERT_FALSE(empty.diagnostics.empty());
    EXPECT_NE(empty.diagnostics[0].message.find("is not a pack, content, module or exercise folder"),
              std::string::npos);
    EXPECT_EQ(packs::validatePackOrFolder(tmp.path() / "missing", options).exitCode, packs::kValidateUnusable);
    // A real archive that breaks a rule is a pack with an error: 1.
    auto evil = goodEntries();
    evil.push_back({"../evil.md", "x"});
    craftZip(tmp.path() / "evil.tkmpack", evil);
    EXPECT_EQ(packs::validatePackOrFolder(tmp.path() / "evil.tkmpack", options).exitCode, packs::kValidateFailed);
    // A good one: 0.
    craftZip(tmp.path() / "good.tkmpack", goodEntries());
    options.workDir = tmp.path() / "work";
    const auto good = packs::validatePackOrFolder(tmp.path() / "good.tkmpack", options);
    EXPECT_EQ(good.exitCode, packs::kValidateOk) << (good.diagnostics.empty() ? "" : good.diagnostics[0].format());
    EXPECT_TRUE(!fs::exists(options.workDir) || fs::is_empty(options.workDir)) << "unpacked copy left behind";
}

// Item 14: what a crashed import left (.import-…, .replaced-…) is cleaned once old; a replaced pack whose slot is
// empty is put back; a young folder (an import running in another process) is kept.
TEST(HostilePacks, AbandonedImportFoldersAreCleaned)
{
    TempDir tmp;
    packs::PackStore store(tmp.path());
    ASSERT_TRUE(store.create("kept", "Kept", "", ""));
    ASSERT_TRUE(store.create("moved", "Moved", "", ""));
    const fs::path oldImport = store.packsDir() / ".import-0123456789ab";
    const fs::path youngImport = store.packsDir() / ".import-ba9876543210";
    const fs::path replaced = store.packsDir() / ".replaced-00000000aaaa";
    test::writeAll(oldImport / "alpha" / "module.json", "{}");
    test::writeAll(youngImport / "pack.json", "{}");
    fs::rename(store.packFolder("moved"), replaced); // the crash came between the two renames
    const auto old = fs::file_time_type::clock::now() - std::chrono::hours(3);
    fs::last_write_time(oldImport, old);
    fs::last_write_time(replaced, old);

    const auto effective = store.effectiveCourse(test::dataDir() / "content-good");
    ASSERT_TRUE(effective.course);
    EXPECT_FALSE(fs::exists(oldImport));
    EXPECT_TRUE(fs::exists(youngImport));
    EXPECT_FALSE(fs::exists(replaced));
    ASSERT_TRUE(store.find("moved")) << "the replaced pack was put back";
    EXPECT_EQ(store.find("moved")->title, "Moved");
    EXPECT_EQ(store.list().size(), 2u);

    // An old .replaced-… whose pack is installed again is deleted.
    ASSERT_TRUE(fs::create_directory(replaced));
    test::writeAll(replaced / "pack.json", manifest("moved"));
    fs::last_write_time(replaced, old);
    EXPECT_EQ(store.cleanAbandoned(), 1);
    EXPECT_FALSE(fs::exists(replaced));
    EXPECT_TRUE(fs::exists(youngImport));
    EXPECT_EQ(store.cleanAbandoned(std::chrono::seconds(0)), 1);
    EXPECT_FALSE(fs::exists(youngImport));
}

// Item 11: a pack whose kernel sources #include host files is refused at import, naming the file and line.
TEST(HostilePacks, SourcesIncludingHostFilesAreRefused)
{
    for (const std::string& include : std::vector<std::string>{"#include \"/etc/passwd\"", "#include </etc/passwd>", "%:include <../../x.h>",
                                      "#  include \\\n \"/etc/hostname\"", "#define F </etc/passwd>\n#include F"}) {
        auto entries = goodEntries();
        std::string& starter = entry(entries, "alpha/exercises/vector-add/starter.cu")->data;
        starter = include + "\n" + starter;
        expectRefused(entries, "alpha/exercises/vector-add/starter.cu:");
    }
    // The toolkit headers the engine provides stay allowed.
    TempDir tmp;
    auto entries = goodEntries();
    std::string& starter = entry(entries, "alpha/exercises/vector-add/starter.cu")->data;
    starter = "#include <cuda_fp16.h>\n#include <cooperative_groups.h>\n" + starter;
    craftZip(tmp.path() / "ok.tkmpack", entries);
    packs::PackStore store(tmp.path() / "profile");
    auto ok = packs::importPack(tmp.path() / "ok.tkmpack", store);
    EXPECT_TRUE(ok) << ok.error().message;
}

// Item 9 (pack half): a lesson over the Markdown limit is refused at import with the limit.
TEST(HostilePacks, OversizedLessonIsRefusedAtImport)
{
    auto entries = goodEntries();
    entry(entries, "alpha/lessons/01-intro.md")->data += "\n" + std::string(300 * 1024, 'x') + "\n";
    expectRefused(entries, "a Markdown page may be at most 256 KiB");
}
