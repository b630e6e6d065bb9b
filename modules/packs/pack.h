#pragma once
// A pack: a folder with `pack.json` and one module folder (docs/content-format.md) per entry of its `modules` list.
// The format is docs/packs.md. Qt-free.

#include "engine/common/error.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::packs {

/// The pack.json format this build writes and the newest it reads.
inline constexpr int kPackFormat = 1;
/// File name of the manifest at a pack's root.
inline constexpr std::string_view kManifestName = "pack.json";

/// The manifest of a pack (pack.json) and where it lives.
struct PackInfo
{
    int format = kPackFormat;         ///< pack.json `format`
    std::string id;                   ///< pack.json `id`, [a-z0-9-]+, 1–64 characters; also the folder name
    std::string title;                ///< shown in the app
    std::string author;               ///< who made it (may be empty)
    std::string created;              ///< creation date, ISO 8601 text (e.g. "2026-11-30"); not interpreted
    std::vector<std::string> modules; ///< module folder names in pack order (single path components)
    std::filesystem::path folder;     ///< the pack folder (empty for a manifest read from an archive)
};

/// Whether `id` is a valid pack id ([a-z0-9-]+, 1–64 characters, not starting with '-').
bool isValidPackId(std::string_view id);

/// Whether `name` is a safe module folder name: one path component of [A-Za-z0-9._-], not "." or "..".
bool isValidModuleFolderName(std::string_view name);

/// Whether a pack may carry a file with this name: extension .json .md .cu .cuh .py .txt .svg or .png.
bool isAllowedFileKind(const std::filesystem::path& name);

/// Parses pack.json text. `label` names the file in messages ("pack.json", "my.tkmpack: pack.json").
/// Errors (kind BadSpec): bad JSON (with line/column), a missing or mistyped field, a bad id or module name,
/// a format newer than kPackFormat ("…made by a newer version of Triton Kernel Mastery (format N); update the app").
engine::Expected<PackInfo> parseManifest(std::string_view json, std::string_view label = kManifestName);

/// Reads `<folder>/pack.json`, parses it and checks that each listed module folder exists; sets PackInfo::folder.
engine::Expected<PackInfo> readPack(const std::filesystem::path& folder);

/// pack.json text for `info` (2-space indented, fixed key order, trailing newline).
std::string manifestText(const PackInfo& info);

/// Writes `<info.folder>/pack.json` (through a temporary file and a rename).
engine::Status writeManifest(const PackInfo& info);

} // namespace tkm::packs
