#pragma once
// .tkmpack files: one zip (libzip) holding pack.json at the root and the pack's module folders.
// Export is deterministic (sorted entries, fixed time stamps and permissions). Import checks every entry and the
// manifest before anything is written, extracts into a dot-folder under `<userDataDir>/packs/`, validates every
// module with tkm_course, then renames the folder into place. docs/packs.md lists every rule.

#include "engine/common/error.h"
#include "modules/course/loader.h"
#include "modules/packs/pack.h"
#include "modules/packs/store.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tkm::packs {

/// File name extension of an exported pack.
inline constexpr std::string_view kPackExtension = ".tkmpack";

/// Limits an archive must respect (defaults: docs/packs.md).
struct ArchiveLimits
{
    uint64_t maxEntryBytes = 8ull << 20;  ///< [bytes] uncompressed size of any one file (8 MiB)
    uint64_t maxTotalBytes = 64ull << 20; ///< [bytes] uncompressed size of all files together (64 MiB)
    int64_t maxEntries = 2000;            ///< entries in the zip directory, folders included
};

/// One file of a checked archive.
struct ArchiveEntry
{
    uint64_t index = 0; ///< zip entry index
    std::string name;   ///< relative path with '/' separators ("alpha/module.json")
    uint64_t size = 0;  ///< [bytes] uncompressed
};

/// An archive whose entries and manifest passed every check.
struct CheckedArchive
{
    PackInfo manifest;                ///< parsed pack.json (folder empty)
    std::vector<ArchiveEntry> files;  ///< every file entry (folders left out), pack.json included
    uint64_t totalBytes = 0;          ///< [bytes] uncompressed total
};

/// Writes pack folder `packFolder` (its pack.json and listed module folders, nothing else) to `zipFile`.
/// Refuses (BadSpec) symlinks, files of a kind a pack may not carry, and files over the limits, naming the file.
engine::Status exportPack(const std::filesystem::path& packFolder, const std::filesystem::path& zipFile,
                          const ArchiveLimits& limits = {});

/// Checks a .tkmpack without writing anything: entry names, types, sizes, counts, kinds, pack.json.
/// Errors (BadSpec) are one sentence naming the archive and the entry.
engine::Expected<CheckedArchive> checkArchive(const std::filesystem::path& zipFile, const ArchiveLimits& limits = {});

/// Extracts a checked archive into `dest` (created; must not exist). Sizes are enforced while reading.
engine::Status extractArchive(const std::filesystem::path& zipFile, const CheckedArchive& checked,
                              const std::filesystem::path& dest);

/// What to do when an imported pack's id is already installed.
enum class ClashChoice {
    Cancel,  ///< import nothing (an Error says why)
    Replace, ///< the imported pack replaces the installed one
    KeepBoth ///< install the imported pack under a free id "<id>-2", "<id>-3", … (its pack.json id is rewritten)
};

/// Options of importPack.
struct ImportOptions
{
    ClashChoice onClash = ClashChoice::Cancel; ///< used when `ask` is empty
    /// Asked on a clash (installed pack, incoming manifest); overrides `onClash` when set.
    std::function<ClashChoice(const PackInfo& installed, const PackInfo& incoming)> ask;
    ArchiveLimits limits; ///< entry limits
};

/// What importPack installed.
struct ImportResult
{
    PackInfo pack;                               ///< the installed pack (its final id and folder)
    bool replaced = false;                       ///< an installed pack of the same id was replaced
    bool renamed = false;                        ///< keep-both gave it a new id
    std::vector<course::Diagnostic> warnings;    ///< module warnings (paths inside the installed pack)
};

/// Imports a .tkmpack into `store`. Nothing is left in the store on any error. A module that fails validation
/// gives a BadSpec error whose message names the first problem as "<module>/<file>:line:col: …" and whose detail
/// lists every problem.
engine::Expected<ImportResult> importPack(const std::filesystem::path& zipFile, const PackStore& store,
                                          const ImportOptions& options = {});

/// The id keep-both gives an incoming pack: the first of "<id>-2", "<id>-3", … not installed, with `id` shortened
/// so that the result is still a valid pack id (at most 64 characters). nullopt when 9999 tries are all taken.
std::optional<std::string> keepBothId(const std::string& id, const PackStore& store);

/// A fresh, not yet existing dot-folder name under `parent` ("<parent>/.<stem>-<random>").
std::filesystem::path uniqueTempPath(const std::filesystem::path& parent, const std::string& stem);

} // namespace tkm::packs
