// The pack store and the effective course (docs/packs.md).
#include "modules/packs/store.h"

#include "engine/common/paths.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace tkm::packs {

using engine::ErrorKind;
using engine::makeError;
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStateFile = "packs-state.json";

} // namespace

std::string moduleIdOf(const fs::path& moduleFolder)
{
    auto text = engine::readTextFile(moduleFolder / "module.json");
    if (!text) {
        return {};
    }
    const auto doc = nlohmann::json::parse(*text, nullptr, false);
    if (!doc.is_object() || !doc.contains("id") || !doc["id"].is_string()) {
        return {};
    }
    return doc["id"].get<std::string>();
}

PackStore::PackStore(fs::path userDataDir) : m_userDataDir(std::move(userDataDir)) {}

fs::path PackStore::packsDir() const { return m_userDataDir / "packs"; }

fs::path PackStore::packFolder(const std::string& packId) const { return packsDir() / packId; }

std::vector<PackInfo> PackStore::list(std::vector<std::string>* problems) const
{
    std::vector<PackInfo> out;
    std::error_code ec;
    if (!fs::is_directory(packsDir(), ec)) {
        return out;
    }
    for (const auto& entry : fs::directory_iterator(packsDir(), ec)) {
        const std::string name = entry.path().filename().string();
        // Dot-folders are imports or replacements in progress, never packs.
        if (!entry.is_directory() || entry.is_symlink() || name.starts_with(".")) {
            continue;
        }
        auto info = readPack(entry.path());
        if (!info) {
            if (problems) {
                problems->push_back(info.error().message);
            }
            continue;
        }
        if (info->id != name) {
            if (problems) {
                problems->push_back(entry.path().string() + ": pack.json says id \"" + info->id +
                                    "\" but the folder is named \"" + name + "\"; rename one so they agree.");
            }
            continue;
        }
        out.push_back(std::move(*info));
    }
    std::sort(out.begin(), out.end(), [](const PackInfo& a, const PackInfo& b) { return a.id < b.id; });
    return out;
}

engine::Expected<PackInfo> PackStore::find(const std::string& packId) const
{
    if (!contains(packId)) {
        return makeError(ErrorKind::BadInput, "No pack \"" + packId + "\" is installed.");
    }
    return readPack(packFolder(packId));
}

bool PackStore::contains(const std::string& packId) const
{
    std::error_code ec;
    return isValidPackId(packId) && fs::is_directory(packFolder(packId), ec);
}

engine::Expected<PackInfo> PackStore::create(const std::string& packId, const std::string& title,
                                             const std::string& author, const std::string& created)
{
    if (!isValidPackId(packId)) {
        return makeError(ErrorKind::BadInput, "\"" + packId +
                                                  "\" is not a pack id; use 1-64 lower-case letters, digits and '-'.");
    }
    if (title.empty()) {
        return makeError(ErrorKind::BadInput, "A pack needs a title; enter one.");
    }
    if (contains(packId)) {
        return makeError(ErrorKind::BadInput,
                         "A pack \"" + packId + "\" is already installed; choose another id or delete that pack.");
    }
    std::error_code ec;
    fs::create_directories(packFolder(packId), ec);
    if (ec) {
        return makeError(ErrorKind::Io, "Cannot create " + packFolder(packId).string() + ": " + ec.message());
    }
    PackInfo info;
    info.id = packId;
    info.title = title;
    info.author = author;
    info.created = created;
    info.folder = packFolder(packId);
    if (auto st = writeManifest(info); !st) {
        return st.error();
    }
    return info;
}

engine::Status PackStore::remove(const std::string& packId)
{
    if (!contains(packId)) {
        return makeError(ErrorKind::BadInput, "No pack \"" + packId + "\" is installed.");
    }
    std::error_code ec;
    fs::remove_all(packFolder(packId), ec);
    if (ec) {
        return makeError(ErrorKind::Io, "Cannot delete " + packFolder(packId).string() + ": " + ec.message());
    }
    auto ids = disabledIds();
    std::erase(ids, packId);
    return writeDisabledIds(ids);
}

engine::Expected<fs::path> PackStore::copyBuiltinModule(const fs::path& builtinModuleFolder, const std::string& packId)
{
    auto info = find(packId);
    if (!info) {
        return info.error();
    }
    const std::string name = builtinModuleFolder.filename().string();
    if (!fs::is_regular_file(builtinModuleFolder / "module.json")) {
        return makeError(ErrorKind::BadInput, builtinModuleFolder.string() + " is not a module folder (no module.json).");
    }
    if (!isValidModuleFolderName(name)) {
        return makeError(ErrorKind::BadInput, "\"" + name + "\" cannot be a module folder name in a pack.");
    }
    const fs::path target = info->folder / name;
    if (fs::exists(target)) {
        return makeError(ErrorKind::BadInput, "Pack \"" + packId + "\" already has a module folder \"" + name +
                                                  "\"; edit that copy or remove it first.");
    }
    std::error_code ec;
    // Symlinks in built-in content are not followed into the pack: packs hold plain files only.
    fs::copy(builtinModuleFolder, target, fs::copy_options::recursive | fs::copy_options::skip_symlinks, ec);
    if (ec) {
        fs::remove_all(target, ec);
        return makeError(ErrorKind::Io, "Cannot copy " + builtinModuleFolder.string() + " into pack \"" + packId + "\".");
    }
    info->modules.push_back(name);
    if (auto st = writeManifest(*info); !st) {
        return st.error();
    }
    return target;
}

engine::Status PackStore::removeModule(const std::string& packId, const std::string& folderName)
{
    auto info = find(packId);
    if (!info) {
        return info.error();
    }
    auto it = std::find(info->modules.begin(), info->modules.end(), folderName);
    if (it == info->modules.end()) {
        return makeError(ErrorKind::BadInput, "Pack \"" + packId + "\" has no module \"" + folderName + "\".");
    }
    info->modules.erase(it);
    // Manifest first: a pack never lists a folder that is gone.
    if (auto st = writeManifest(*info); !st) {
        return st;
    }
    std::error_code ec;
    fs::remove_all(info->folder / folderName, ec);
    if (ec) {
        return makeError(ErrorKind::Io, "Cannot delete " + (info->folder / folderName).string() + ": " + ec.message());
    }
    return {};
}

engine::Expected<int> PackStore::restoreBuiltin(const std::string& moduleId)
{
    int removed = 0;
    for (const auto& pack : list()) {
        for (const auto& folder : pack.modules) {
            if (moduleIdOf(pack.folder / folder) == moduleId) {
                if (auto st = removeModule(pack.id, folder); !st) {
                    return st.error();
                }
                ++removed;
            }
        }
    }
    return removed;
}

std::vector<std::string> PackStore::disabledIds() const
{
    auto text = engine::readTextFile(m_userDataDir / kStateFile);
    std::vector<std::string> ids;
    if (!text) {
        return ids;
    }
    const auto doc = nlohmann::json::parse(*text, nullptr, false);
    if (doc.is_object() && doc.contains("disabled") && doc["disabled"].is_array()) {
        for (const auto& v : doc["disabled"]) {
            if (v.is_string()) {
                ids.push_back(v.get<std::string>());
            }
        }
    }
    return ids;
}

engine::Status PackStore::writeDisabledIds(const std::vector<std::string>& ids) const
{
    std::error_code ec;
    fs::create_directories(m_userDataDir, ec);
    nlohmann::json doc;
    doc["disabled"] = ids;
    return engine::writeFileAtomic(m_userDataDir / kStateFile, doc.dump(2) + "\n");
}

bool PackStore::isEnabled(const std::string& packId) const
{
    const auto ids = disabledIds();
    return std::find(ids.begin(), ids.end(), packId) == ids.end();
}

engine::Status PackStore::setEnabled(const std::string& packId, bool enabled)
{
    auto ids = disabledIds();
    std::erase(ids, packId);
    if (!enabled) {
        ids.push_back(packId);
        std::sort(ids.begin(), ids.end());
    }
    return writeDisabledIds(ids);
}

int PackStore::cleanAbandoned(std::chrono::seconds minAge) const
{
    int handled = 0;
    std::error_code ec;
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(packsDir(), ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory() && !entry.is_symlink() &&
            (name.starts_with(".import-") || name.starts_with(".replaced-"))) {
            found.push_back(entry.path());
        }
    }
    const auto now = fs::file_time_type::clock::now();
    for (const fs::path& folder : found) {
        const auto mtime = fs::last_write_time(folder, ec);
        if (ec || now - mtime < minAge) {
            continue;
        }
        if (folder.filename().string().starts_with(".replaced-")) {
            // The installed pack was moved aside but the new one never took its place: put it back.
            auto info = readPack(folder);
            if (info && isValidPackId(info->id) && !fs::exists(packFolder(info->id), ec)) {
                fs::rename(folder, packFolder(info->id), ec);
                handled += ec ? 0 : 1;
                continue;
            }
        }
        handled += fs::remove_all(folder, ec) > 0 && !ec ? 1 : 0;
    }
    return handled;
}

EffectiveCourse PackStore::effectiveCourse(const fs::path& builtinRoot) const
{
    EffectiveCourse out;
    cleanAbandoned();
    auto builtin = course::loadCourse(builtinRoot);
    out.diagnostics = std::move(builtin.diagnostics);
    if (!builtin.course) {
        return out;
    }
    course::Course result = std::move(*builtin.course);
    for (const auto& m : result.modules) {
        out.origins.push_back({m.id, {}, false});
    }
    std::vector<std::string> problems;
    for (const auto& pack : list(&problems)) {
        if (!isEnabled(pack.id)) {
            continue;
        }
        for (const auto& folder : pack.modules) {
            auto loaded = course::loadModule(pack.folder / folder);
            for (auto& d : loaded.diagnostics) {
                out.diagnostics.push_back(std::move(d));
            }
            if (!loaded.module) {
                continue; // a broken pack module is skipped; the built-in one (if any) stays
            }
            course::Module mod = std::move(*loaded.module);
            auto it = std::find_if(result.modules.begin(), result.modules.end(),
                                   [&](const course::Module& m) { return m.id == mod.id; });
            if (it == result.modules.end()) {
                out.origins.push_back({mod.id, pack.id, false});
                result.modules.push_back(std::move(mod));
                continue;
            }
            auto& origin = out.origins[static_cast<size_t>(it - result.modules.begin())];
            if (!origin.packId.empty()) {
                out.diagnostics.push_back({pack.folder / folder / "module.json", 0, 0, course::Severity::Warning,
                                           "Module \"" + mod.id + "\" of pack \"" + pack.id +
                                               "\" replaces the copy from pack \"" + origin.packId +
                                               "\" (the pack whose id sorts last wins); disable one of them."});
            }
            const bool overrides = origin.overridesBuiltin || origin.packId.empty();
            origin = {mod.id, pack.id, overrides};
            *it = std::move(mod);
        }
    }
    for (const auto& p : problems) {
        out.diagnostics.push_back({packsDir(), 0, 0, course::Severity::Warning, p});
    }
    // Positions are the list order: built-in slots first (overrides keep theirs), then pack-only modules.
    for (size_t i = 0; i < result.modules.size(); ++i) {
        result.modules[i].order = static_cast<int>(i) + 1;
    }
    out.course = std::move(result);
    return out;
}

} // namespace tkm::packs
