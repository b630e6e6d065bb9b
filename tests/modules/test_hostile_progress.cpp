// Hostile progress databases (issue 14, item 14): another program's SQLite file whose user_version happens to be
// 1–3 or negative is refused and left as it was; refusing a database (newer or foreign) leaves no -wal or -shm.
#include "modules/progress/schema.h"
#include "modules/progress/store.h"
#include "tests/support/temp_dir.h"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;
using tkm::progress::ErrorKind;
using tkm::progress::Store;

using tkm::test::TempDir;

std::string readBytes(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<std::string> names(const fs::path& dir)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Another program's database: its own table, this user_version, in WAL mode (so a read-only open makes -shm).
void makeForeign(const fs::path& file, int userVersion)
{
    SQLite::Database db(file.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("CREATE TABLE invoices(id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES(1, 9.5)");
    db.exec("PRAGMA user_version = " + std::to_string(userVersion));
}

} // namespace

TEST(HostileProgress, ForeignDatabaseWithAnyUserVersionIsRefusedAndUnchanged)
{
    for (const int version : {1, 2, 3, -1, -2147483647}) {
        TempDir dir;
        const fs::path file = dir / "other.db";
        makeForeign(file, version);
        ASSERT_EQ(names(dir.path()), std::vector<std::string>{"other.db"}) << "the last close checkpoints";
        const std::string before = readBytes(file);
        auto refused = Store::open(file);
        ASSERT_FALSE(refused) << "user_version " << version;
        EXPECT_EQ(refused.error().kind, ErrorKind::BadInput);
        EXPECT_NE(refused.error().message.find("another program"), std::string::npos) << refused.error().message;
        EXPECT_EQ(readBytes(file), before) << "user_version " << version;
        EXPECT_EQ(names(dir.path()), std::vector<std::string>{"other.db"}) << "user_version " << version;
        SQLite::Database db(file.string(), SQLite::OPEN_READONLY);
        EXPECT_FALSE(db.tableExists("activity_values"));
        EXPECT_FALSE(db.tableExists("time_spans"));
    }
}

TEST(HostileProgress, RefusingANewerWalDatabaseLeavesNoSideFiles)
{
    TempDir dir;
    const fs::path file = dir / "future.db";
    {
        auto store = Store::open(file);
        ASSERT_TRUE(store) << store.error().message;
        ASSERT_TRUE(store->openReport().wal);
        store->database().exec("PRAGMA user_version = 99");
    }
    ASSERT_EQ(names(dir.path()), std::vector<std::string>{"future.db"});
    const std::string before = readBytes(file);
    for (int attempt = 0; attempt < 2; ++attempt) {
        auto refused = Store::open(file);
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.error().kind, ErrorKind::TooNew);
        EXPECT_EQ(readBytes(file), before);
        EXPECT_EQ(names(dir.path()), std::vector<std::string>{"future.db"});
    }
}

TEST(HostileProgress, RealDatabasesOfEveryVersionStillOpen)
{
    for (int v = 1; v <= tkm::progress::kSchemaVersion; ++v) {
        TempDir dir;
        {
            SQLite::Database db((dir / "p.db").string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            ASSERT_TRUE(tkm::progress::migrate(db, v));
        }
        auto store = Store::open(dir / "p.db");
        ASSERT_TRUE(store) << "version " << v << ": " << store.error().message;
        EXPECT_EQ(store->openReport().foundVersion, v);
    }
}

// Item 10 (store half): a value holding bytes that are not UTF-8 is stored with U+FFFD, not an exception.
TEST(HostileProgress, NonUtf8ValueIsStoredWithReplacement)
{
    TempDir dir;
    auto store = Store::open(dir / "p.db");
    ASSERT_TRUE(store) << store.error().message;
    const tkm::progress::ActivityRef at{"m", "a"};
    ASSERT_TRUE(store->setActivityValue(at, "note", nlohmann::json("bad \xff\xfe bytes")));
    auto values = store->activityValues();
    ASSERT_TRUE(values);
    ASSERT_EQ(values->size(), 1u);
    EXPECT_EQ(values->front().value, nlohmann::json("bad \xEF\xBF\xBD\xEF\xBF\xBD bytes"));
}
