// PackStore: create, copy a built-in module, edit it, the effective course, restore, enable/disable.
#include "modules/packs/store.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace tkm;
using tkm::test::TempDir;

namespace {

fs::path builtinRoot() { return test::dataDir() / "content-good"; }

} // namespace

TEST(PackStore, CreateListsAndRefusesDuplicatesAndBadIds)
{
    TempDir profile;
    packs::PackStore store(profile.path());
    EXPECT_TRUE(store.list().empty());
    auto created = store.create("my-pack", "My pack", "Ada", "2026-11-30");
    ASSERT_TRUE(created) << created.error().message;
    EXPECT_TRUE(fs::is_regular_file(profile.path() / "packs" / "my-pack" / "pack.json"));
    auto listed = store.list();
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].title, "My pack");
    EXPECT_EQ(listed[0].author, "Ada");
    EXPECT_TRUE(listed[0].modules.empty());

    auto again = store.create("my-pack", "Other", "", "");
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("already installed"), std::string::npos);
    auto bad = store.create("../evil", "Evil", "", "");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("not a pack id"), std::string::npos);
    EXPECT_FALSE(fs::exists(profile.path() / "evil"));

    ASSERT_TRUE(store.remove("my-pack"));
    EXPECT_TRUE(store.list().empty());
}

TEST(PackStore, CopyEditRestoreBuiltinModule)
{
    TempDir profile;
    const auto builtinBefore = test::snapshot(builtinRoot());
    packs::PackStore store(profile.path());
    ASSERT_TRUE(store.create("edits", "My edits", "", ""));

    auto copy = store.copyBuiltinModule(builtinRoot() / "01-alpha", "edits");
    ASSERT_TRUE(copy) << copy.error().message;
    EXPECT_EQ(*copy, profile.path() / "packs" / "edits" / "01-alpha");
    EXPECT_EQ(store.find("edits")->modules, std::vector<std::string>{"01-alpha"});
    ASSERT_TRUE(test::replaceInFile(*copy / "module.json", "\"Alpha module\"", "\"Alpha, edited\""));

    auto effective = store.effectiveCourse(builtinRoot());
    ASSERT_TRUE(effective.course) << (effective.diagnostics.empty() ? "" : effective.diagnostics[0].format());
    const auto* alpha = effective.course->findModule("alpha");
    ASSERT_NE(alpha, nullptr);
    EXPECT_EQ(alpha->title, "Alpha, edited");
    EXPECT_EQ(alpha->folder, *copy);
    EXPECT_EQ(alpha->order, 1); // the override keeps the built-in slot
    ASSERT_EQ(effective.origins.size(), effective.course->modules.size());
    EXPECT_EQ(effective.origins[0].packId, "edits");
    EXPECT_TRUE(effective.origins[0].overridesBuiltin);
    EXPECT_TRUE(effective.origins[1].packId.empty());

    // Disabling the pack shows the built-in module again; enabling brings the edit back.
    ASSERT_TRUE(store.setEnabled("edits", false));
    EXPECT_FALSE(store.isEnabled("edits"));
    EXPECT_EQ(store.effectiveCourse(builtinRoot()).course->findModule("alpha")->title, "Alpha module");
    ASSERT_TRUE(store.setEnabled("edits", true));
    EXPECT_EQ(store.effectiveCourse(builtinRoot()).course->findModule("alpha")->title, "Alpha, edited");

    // A second copy into the same pack is refused rather than overwritten.
    EXPECT_FALSE(store.copyBuiltinModule(builtinRoot() / "01-alpha", "edits"));

    auto restored = store.restoreBuiltin("alpha");
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_EQ(*restored, 1);
    EXPECT_FALSE(fs::exists(*copy));
    EXPECT_TRUE(store.find("edits")->modules.empty());
    auto after = store.effectiveCourse(builtinRoot());
    ASSERT_TRUE(after.course);
    EXPECT_EQ(after.course->findModule("alpha")->title, "Alpha module");
    EXPECT_EQ(after.course->findModule("alpha")->folder, builtinRoot() / "01-alpha");

    // The built-in content was never written.
    EXPECT_EQ(test::snapshot(builtinRoot()), builtinBefore);
}

TEST(PackStore, NewPackModuleExtendsTheCourseAndBrokenOnesAreSkipped)
{
    TempDir profile;
    packs::PackStore store(profile.path());
    ASSERT_TRUE(store.create("extra", "Extra", "", ""));
    auto copy = store.copyBuiltinModule(builtinRoot() / "02-beta", "extra");
    ASSERT_TRUE(copy);
    ASSERT_TRUE(test::replaceInFile(*copy / "module.json", "\"id\": \"beta\"", "\"id\": \"gamma\""));

    auto effective = store.effectiveCourse(builtinRoot());
    ASSERT_TRUE(effective.course);
    ASSERT_EQ(effective.course->modules.size(), 3u);
    EXPECT_EQ(effective.course->modules[2].id, "gamma");
    EXPECT_EQ(effective.course->modules[2].order, 3);
    EXPECT_EQ(effective.origins[2].packId, "extra");
    EXPECT_FALSE(effective.origins[2].overridesBuiltin);

    // Break the pack module: it is skipped with its diagnostics, the built-in course still loads.
    test::writeAll(*copy / "module.json", "{\"format\": 1, \"id\": \"gamma\"}");
    auto broken = store.effectiveCourse(builtinRoot());
    ASSERT_TRUE(broken.course);
    EXPECT_EQ(broken.course->modules.size(), 2u);
    EXPECT_TRUE(course::hasErrors(broken.diagnostics));
}
