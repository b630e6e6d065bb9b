#pragma once
// The pack store: instructor packs installed under `<userDataDir>/packs/<pack-id>/`, and the effective course
// (built-in modules overridden or extended by the modules of enabled packs). docs/packs.md states the rules.
// Built-in content is only ever read: editing a built-in module means copying it into a pack first. Qt-free.

#include "engine/common/error.h"
#include "modules/course/loader.h"
#include "modules/course/model.h"
#include "modules/packs/pack.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tkm::packs {

/// Where a module of the effective course comes from.
struct ModuleOrigin
{
    std::string moduleId;          ///< module.json `id`
    std::string packId;            ///< the pack that supplies it; empty for a built-in module
    bool overridesBuiltin = false; ///< a pack module that replaces the built-in module of the same id
};

/// The course a learner sees: built-in modules with pack modules applied.
struct EffectiveCourse
{
    std::optional<course::Course> course;        ///< set exactly when the built-in course loaded
    std::vector<course::Diagnostic> diagnostics; ///< built-in errors, and pack problems (a broken pack module is skipped)
    std::vector<ModuleOrigin> origins;           ///< one per module of `course`, same order
};

/// Installed packs of one user profile.
class PackStore
{
public:
    /// `userDataDir` is the profile's data folder; packs live in `<userDataDir>/packs/`.
    explicit PackStore(std::filesystem::path userDataDir);

    /// `<userDataDir>/packs`.
    std::filesystem::path packsDir() const;
    /// `<userDataDir>/packs/<packId>` (whether or not it exists).
    std::filesystem::path packFolder(const std::string& packId) const;

    /// Installed packs sorted by id. Folders that are not valid packs are skipped; their messages go to `problems`.
    std::vector<PackInfo> list(std::vector<std::string>* problems = nullptr) const;
    /// The installed pack `packId`, or an Error (BadInput when not installed, BadSpec when broken).
    engine::Expected<PackInfo> find(const std::string& packId) const;
    /// Whether a pack folder named `packId` exists.
    bool contains(const std::string& packId) const;

    /// Creates an empty pack (no modules). Errors: bad id, id already installed, I/O.
    engine::Expected<PackInfo> create(const std::string& packId, const std::string& title, const std::string& author,
                                      const std::string& created);
    /// Deletes an installed pack and its enabled/disabled state.
    engine::Status remove(const std::string& packId);

    /// Copies a built-in module folder (read-only source, e.g. `content/02-vector-add`) into pack `packId` under the
    /// same folder name and appends it to pack.json. Returns the new, editable folder. Refuses an existing folder.
    engine::Expected<std::filesystem::path> copyBuiltinModule(const std::filesystem::path& builtinModuleFolder,
                                                              const std::string& packId);
    /// Removes module folder `folderName` from pack `packId` (folder and pack.json entry).
    engine::Status removeModule(const std::string& packId, const std::string& folderName);
    /// Restores the built-in module `moduleId`: removes every pack module whose module.json id is `moduleId`.
    /// Returns how many copies were removed (0 when none overrode it). Built-in content is not touched.
    engine::Expected<int> restoreBuiltin(const std::string& moduleId);

    /// Whether pack `packId` takes part in the effective course (packs are enabled unless disabled).
    bool isEnabled(const std::string& packId) const;
    /// Enables or disables a pack; kept in `<userDataDir>/packs-state.json`.
    engine::Status setEnabled(const std::string& packId, bool enabled);

    /// The built-in course at `builtinRoot` with enabled packs applied (rule in docs/packs.md). Cleans what
    /// crashed imports left first (cleanAbandoned()).
    EffectiveCourse effectiveCourse(const std::filesystem::path& builtinRoot) const;

    /// Removes the dot-folders under packs/ (".import-…", ".replaced-…") that an import which crashed left behind,
    /// when untouched for `minAge` (younger ones may belong to an import still running in another process). A
    /// ".replaced-…" pack whose own folder is missing (the crash came between the two renames) is put back.
    /// Returns how many folders were removed or put back.
    int cleanAbandoned(std::chrono::seconds minAge = std::chrono::hours(1)) const;

private:
    std::vector<std::string> disabledIds() const;
    engine::Status writeDisabledIds(const std::vector<std::string>& ids) const;

    std::filesystem::path m_userDataDir;
};

/// module.json `id` of a module folder without validating the rest (empty when unreadable).
std::string moduleIdOf(const std::filesystem::path& moduleFolder);

} // namespace tkm::packs
