// pack.json parsing and writing (docs/packs.md).
#include "modules/packs/pack.h"

#include "engine/common/json_safe.h"
#include "engine/common/paths.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>

namespace tkm::packs {

using engine::ErrorKind;
using engine::makeError;
namespace fs = std::filesystem;

bool isValidPackId(std::string_view id)
{
    if (id.empty() || id.size() > 64 || id.front() == '-') {
        return false;
    }
    return std::all_of(id.begin(), id.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

bool isValidModuleFolderName(std::string_view name)
{
    if (name.empty() || name.size() > 128 || name == "." || name == "..") {
        return false;
    }
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
               c == '.';
    });
}

bool isAllowedFileKind(const fs::path& name)
{
    static constexpr std::array<std::string_view, 8> kAllowed = {".json", ".md",  ".cu",  ".cuh",
                                                                 ".py",   ".txt", ".svg", ".png"};
    const std::string ext = name.extension().string();
    return std::find(kAllowed.begin(), kAllowed.end(), ext) != kAllowed.end();
}

namespace {

engine::Error bad(std::string_view label, const std::string& what)
{
    return makeError(ErrorKind::BadSpec, std::string(label) + ": " + what);
}

} // namespace

engine::Expected<PackInfo> parseManifest(std::string_view json, std::string_view label)
{
    engine::JsonParseResult parsed = engine::parseJson(json);
    if (!parsed.ok()) {
        // The position is what the author needs to find the mistake.
        return bad(label, "is not valid JSON (" + engine::describe(*parsed.error) + "); fix the syntax and try again.");
    }
    if (!parsed.duplicates.empty()) {
        return bad(label, "the key \"" + parsed.duplicates.front().key +
                              "\" appears twice in the same object; keep one.");
    }
    const nlohmann::json doc = std::move(parsed.value);
    if (!doc.is_object()) {
        return bad(label, "must be a JSON object with format, id, title, author, created and modules.");
    }
    if (!doc.contains("format") || !doc["format"].is_number_integer()) {
        return bad(label, "needs an integer \"format\" (this version writes format 1).");
    }
    // Read as the JSON number it is: get<int>() would truncate 4294967297 to 1.
    const nlohmann::json& format = doc["format"];
    if (format.is_number_unsigned() && format.get<uint64_t>() > static_cast<uint64_t>(kPackFormat)) {
        return bad(label, "this pack was made by a newer version of Triton Kernel Mastery (format " + format.dump() +
                              "); update the app.");
    }
    PackInfo info;
    const int64_t formatValue = format.get<int64_t>();
    if (formatValue < 1) {
        return bad(label, "\"format\" " + format.dump() + " is not a pack format; use 1.");
    }
    info.format = static_cast<int>(formatValue);
    auto text = [&](const char* key, bool required, std::string& out) -> engine::Status {
        if (!doc.contains(key)) {
            if (required) {
                return bad(label, std::string("needs a string \"") + key + "\".");
            }
            return {};
        }
        if (!doc[key].is_string()) {
            return bad(label, std::string("\"") + key + "\" must be a string.");
        }
        out = doc[key].get<std::string>();
        return {};
    };
    for (auto [key, required, out] : {std::tuple{"id", true, &info.id}, std::tuple{"title", true, &info.title},
                                      std::tuple{"author", false, &info.author},
                                      std::tuple{"created", false, &info.created}}) {
        if (auto st = text(key, required, *out); !st) {
            return st.error();
        }
    }
    if (!isValidPackId(info.id)) {
        return bad(label, "\"id\" \"" + info.id +
                              "\" is not a pack id; use 1-64 lower-case letters, digits and '-' (e.g. \"my-pack\").");
    }
    if (info.title.empty()) {
        return bad(label, "\"title\" is empty; give the pack a title.");
    }
    if (!doc.contains("modules") || !doc["modules"].is_array()) {
        return bad(label, "needs a \"modules\" array of module folder names.");
    }
    for (const auto& m : doc["modules"]) {
        if (!m.is_string() || !isValidModuleFolderName(m.get<std::string>())) {
            return bad(label, "\"modules\" entry " + m.dump() +
                                  " is not a module folder name; use one folder name of letters, digits, '-', '_', '.'.");
        }
        const auto name = m.get<std::string>();
        if (std::find(info.modules.begin(), info.modules.end(), name) != info.modules.end()) {
            return bad(label, "\"modules\" lists \"" + name + "\" twice; list each module folder once.");
        }
        info.modules.push_back(name);
    }
    return info;
}

engine::Expected<PackInfo> readPack(const fs::path& folder)
{
    const fs::path manifest = folder / kManifestName;
    auto text = engine::readTextFile(manifest);
    if (!text) {
        return makeError(ErrorKind::BadSpec,
                         folder.string() + " is not a pack: it has no readable pack.json (see docs/packs.md).");
    }
    auto info = parseManifest(*text, manifest.string());
    if (!info) {
        return info.error();
    }
    for (const auto& m : info->modules) {
        if (!fs::is_directory(folder / m)) {
            return makeError(ErrorKind::BadSpec, manifest.string() + ": module folder \"" + m +
                                                     "\" is listed but missing; add it or remove it from \"modules\".");
        }
    }
    info->folder = folder;
    return info;
}

std::string manifestText(const PackInfo& info)
{
    // ordered_json keeps the documented key order so exported manifests diff cleanly.
    nlohmann::ordered_json doc;
    doc["format"] = info.format;
    doc["id"] = info.id;
    doc["title"] = info.title;
    doc["author"] = info.author;
    doc["created"] = info.created;
    doc["modules"] = info.modules;
    return doc.dump(2) + "\n";
}

engine::Status writeManifest(const PackInfo& info)
{
    return engine::writeFileAtomic(info.folder / kManifestName, manifestText(info));
}

} // namespace tkm::packs
