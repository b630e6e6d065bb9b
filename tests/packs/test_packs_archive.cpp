// .tkmpack export/import: round trip byte-identical, deterministic export, id clash, malicious archives refused
// with their message and nothing written.
#include "modules/packs/archive.h"
#include "test_helpers.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <sys/stat.h>

#include <cctype>

namespace fs = std::filesystem;
using namespace tkm;
using tkm::test::TempDir;

namespace {

const char* kManifest = R"({"format": 1, "id": "evil", "title": "Evil", "author": "", "created": "", "modules": ["alpha"]})";

/// One entry of a crafted archive.
struct Entry
{
    std::string name;
    std::string data;
    uint32_t unixMode = S_IFREG | 0644;
};

/// Writes a zip with exactly these entries (libzip, as an attacker could).
void craftZip(const fs::path& file, const std::vector<Entry>& entries)
{
    int err = 0;
    zip_t* z = zip_open(file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    ASSERT_NE(z, nullptr);
    for (const auto& e : entries) {
        zip_source_t* src = zip_source_buffer(z, e.data.data(), e.data.size(), 0);
        const zip_int64_t idx = zip_file_add(z, e.name.c_str(), src, ZIP_FL_ENC_RAW);
        ASSERT_GE(idx, 0) << e.name;
        zip_file_set_external_attributes(z, static_cast<zip_uint64_t>(idx), 0, ZIP_OPSYS_UNIX, e.unixMode << 16);
    }
    ASSERT_EQ(zip_close(z), 0);
}

/// A real pack folder with the good fixture module in it.
fs::path makePack(packs::PackStore& store, const std::string& id)
{
    EXPECT_TRUE(store.create(id, "Pack " + id, "Ada Lovelace", "2026-11-30"));
    auto copy = store.copyBuiltinModule(test::dataDir() / "content-good" / "01-alpha", id);
    EXPECT_TRUE(copy);
    return store.packFolder(id);
}

/// Every module file of the good fixture as archive entries under "alpha/".
std::vector<Entry> goodEntries()
{
    std::vector<Entry> out{{"pack.json", kManifest}};
    for (const auto& [rel, data] : test::snapshot(test::dataDir() / "content-good" / "01-alpha")) {
        out.push_back({"alpha/" + rel, data});
    }
    return out;
}

bool nothingInstalled(const packs::PackStore& store)
{
    return !fs::exists(store.packsDir()) || fs::is_empty(store.packsDir());
}

} // namespace

TEST(PackArchive, ExportImportRoundTripIsByteIdentical)
{
    TempDir author;
    TempDir learner;
    packs::PackStore authorStore(author.path());
    const fs::path pack = makePack(authorStore, "shared");
    const fs::path file = author.path() / "shared.tkmpack";
    auto exported = packs::exportPack(pack, file);
    ASSERT_TRUE(exported) << exported.error().message;

    // Deterministic: a second export is the same bytes, and pack.json is the first entry.
    const fs::path again = author.path() / "again.tkmpack";
    ASSERT_TRUE(packs::exportPack(pack, again));
    EXPECT_EQ(test::readAll(file), test::readAll(again));
    int err = 0;
    zip_t* z = zip_open(file.c_str(), ZIP_RDONLY, &err);
    ASSERT_NE(z, nullptr);
    EXPECT_STREQ(zip_get_name(z, 0, 0), "pack.json");
    zip_discard(z);

    packs::PackStore learnerStore(learner.path());
    auto imported = packs::importPack(file, learnerStore);
    ASSERT_TRUE(imported) << imported.error().message << "\n" << imported.error().detail;
    EXPECT_EQ(imported->pack.id, "shared");
    EXPECT_FALSE(imported->replaced);
    EXPECT_FALSE(imported->renamed);
    EXPECT_EQ(test::snapshot(learnerStore.packFolder("shared")), test::snapshot(pack));
    // No temporary folder is left beside the pack.
    EXPECT_EQ(std::distance(fs::directory_iterator(learnerStore.packsDir()), fs::directory_iterator()), 1);
    auto effective = learnerStore.effectiveCourse(test::dataDir() / "content-good");
    ASSERT_TRUE(effective.course);
    EXPECT_EQ(effective.origins[0].packId, "shared");
}

TEST(PackArchive, IdClashReplaceOrKeepBoth)
{
    TempDir author;
    TempDir learner;
    packs::PackStore authorStore(author.path());
    const fs::path pack = makePack(authorStore, "shared");
    const fs::path file = author.path() / "shared.tkmpack";
    ASSERT_TRUE(packs::exportPack(pack, file));

    packs::PackStore store(learner.path());
    ASSERT_TRUE(store.create("shared", "Installed earlier", "", ""));

    auto cancelled = packs::importPack(file, store);
    ASSERT_FALSE(cancelled);
    EXPECT_NE(cancelled.error().message.find("already installed"), std::string::npos);
    EXPECT_EQ(store.find("shared")->title, "Installed earlier");

    packs::ImportOptions keepBoth;
    std::string askedAbout;
    keepBoth.ask = [&](const packs::PackInfo& installed, const packs::PackInfo& incoming) {
        askedAbout = installed.title + " vs " + incoming.title;
        return packs::ClashChoice::KeepBoth;
    };
    auto both = packs::importPack(file, store, keepBoth);
    ASSERT_TRUE(both) << both.error().message;
    EXPECT_EQ(askedAbout, "Installed earlier vs Pack shared");
    EXPECT_TRUE(both->renamed);
    EXPECT_EQ(both->pack.id, "shared-2");
    EXPECT_EQ(store.list().size(), 2u);
    EXPECT_EQ(store.find("shared")->title, "Installed earlier");
    EXPECT_EQ(store.find("shared-2")->title, "Pack shared");
    EXPECT_EQ(store.find("shared-2")->modules, std::vector<std::string>{"01-alpha"});

    packs::ImportOptions replace;
    replace.onClash = packs::ClashChoice::Replace;
    auto replaced = packs::importPack(file, store, replace);
    ASSERT_TRUE(replaced) << replaced.error().message;
    EXPECT_TRUE(replaced->replaced);
    EXPECT_EQ(store.list().size(), 2u);
    EXPECT_EQ(test::snapshot(store.packFolder("shared")), test::snapshot(pack));
    // Only the two packs remain: no temporary or replaced folder is left.
    EXPECT_EQ(std::distance(fs::directory_iterator(store.packsDir()), fs::directory_iterator()), 2);
}

TEST(PackArchive, CraftedGoodArchiveImports)
{
    TempDir tmp;
    const fs::path file = tmp.path() / "good.tkmpack";
    craftZip(file, goodEntries());
    packs::PackStore store(tmp.path() / "profile");
    auto imported = packs::importPack(file, store);
    ASSERT_TRUE(imported) << imported.error().message << "\n" << imported.error().detail;
    EXPECT_EQ(imported->pack.id, "evil");
}

struct Malicious
{
    std::string label;
    std::vector<Entry> entries;
    std::string expected; ///< part of the refusal message
};

class MaliciousPack : public ::testing::TestWithParam<Malicious>
{};

TEST_P(MaliciousPack, IsRefusedAndNothingIsWritten)
{
    TempDir tmp;
    const fs::path file = tmp.path() / "bad.tkmpack";
    craftZip(file, GetParam().entries);
    packs::PackStore store(tmp.path() / "profile");
    auto imported = packs::importPack(file, store);
    ASSERT_FALSE(imported) << GetParam().label;
    EXPECT_NE(imported.error().message.find(GetParam().expected), std::string::npos)
        << "message: " << imported.error().message;
    EXPECT_NE(imported.error().message.find("bad.tkmpack"), std::string::npos) << imported.error().message;
    EXPECT_TRUE(nothingInstalled(store)) << GetParam().label;
    EXPECT_FALSE(fs::exists(tmp.path() / "evil.md"));
    EXPECT_FALSE(fs::exists(tmp.path() / "profile" / "evil.md"));
}

namespace {

std::vector<Entry> with(Entry extra)
{
    auto e = goodEntries();
    e.push_back(std::move(extra));
    return e;
}

std::vector<Entry> withManifest(std::string manifest)
{
    auto e = goodEntries();
    e[0].data = std::move(manifest);
    return e;
}

std::vector<Entry> withoutManifest()
{
    auto e = goodEntries();
    e.erase(e.begin());
    return e;
}

std::vector<Entry> badModule()
{
    auto e = goodEntries();
    for (auto& entry : e) {
        if (entry.name == "alpha/module.json") {
            entry.data = R"({"format": 1, "id": "alpha", "title": "Alpha"})";
        }
    }
    return e;
}

std::vector<Malicious> maliciousCases()
{
    return {
        {"path traversal", with({"../evil.md", "# evil"}), "entry \"../evil.md\" has a '..' component"},
        {"nested traversal", with({"alpha/../../evil.md", "# evil"}), "has a '..' component"},
        {"absolute path", with({"/tmp/evil.md", "# evil"}), "entry \"/tmp/evil.md\" has an absolute path"},
        {"backslash", with({"alpha\\..\\evil.md", "# evil"}), "has a backslash"},
        {"symlink", with({"alpha/link.md", "/etc/passwd", S_IFLNK | 0777}), "entry \"alpha/link.md\" is a symbolic link"},
        {"huge entry", with({"alpha/big.txt", std::string(9u << 20, '\0')}), "entry \"alpha/big.txt\" is 9.0 MiB"},
        {"unknown kind", with({"alpha/run.sh", "rm -rf ~"}), "entry \"alpha/run.sh\" is a kind of file a pack may not carry"},
        {"outside modules", with({"stray.md", "x"}), "entry \"stray.md\" is not inside a module folder"},
        {"bad JSON", withManifest("{\"format\": 1, \"id\": "), "pack.json: is not valid JSON"},
        {"newer format", withManifest(R"({"format": 2, "id": "evil", "title": "E", "modules": ["alpha"]})"),
         "this pack was made by a newer version of Triton Kernel Mastery (format 2); update the app"},
        {"missing pack.json", withoutManifest(), "has no pack.json"},
        {"module fails validation", badModule(), "a module fails validation: alpha/module.json"},
    };
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Refused, MaliciousPack, ::testing::ValuesIn(maliciousCases()),
                         [](const auto& info) {
                             std::string n = info.param.label;
                             for (auto& c : n) {
                                 if (!std::isalnum(static_cast<unsigned char>(c))) {
                                     c = '_';
                                 }
                             }
                             return n;
                         });

TEST(PackArchive, TooManyEntriesAndTotalSizeAreRefused)
{
    TempDir tmp;
    const fs::path file = tmp.path() / "many.tkmpack";
    auto entries = goodEntries();
    for (int i = 0; i < 30; ++i) {
        entries.push_back({"alpha/extra" + std::to_string(i) + ".txt", std::string(1u << 20, 'a')});
    }
    craftZip(file, entries);
    packs::PackStore store(tmp.path() / "profile");
    packs::ImportOptions few;
    few.limits.maxEntries = 10;
    auto a = packs::importPack(file, store, few);
    ASSERT_FALSE(a);
    EXPECT_NE(a.error().message.find("a pack may hold at most 10"), std::string::npos) << a.error().message;
    packs::ImportOptions small;
    small.limits.maxTotalBytes = 16u << 20;
    auto b = packs::importPack(file, store, small);
    ASSERT_FALSE(b);
    EXPECT_NE(b.error().message.find("unpacks to more than 16.0 MiB"), std::string::npos) << b.error().message;
    EXPECT_TRUE(nothingInstalled(store));
}
