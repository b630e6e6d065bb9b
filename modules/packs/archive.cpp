// .tkmpack export and import through libzip (docs/packs.md).
#include "modules/packs/archive.h"

#include <zip.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <set>

namespace tkm::packs {

using engine::ErrorKind;
using engine::makeError;
namespace fs = std::filesystem;

namespace {

// Fixed stamp for every exported entry (2000-01-01 12:00 UTC) so that the same pack gives the same bytes.
constexpr time_t kExportTime = 946728000;
constexpr uint32_t kRegularFileMode = S_IFREG | 0644;

struct ZipDiscard
{
    void operator()(zip_t* z) const { zip_discard(z); }
};
using ZipPtr = std::unique_ptr<zip_t, ZipDiscard>;

struct ZipFileClose
{
    void operator()(zip_file_t* f) const { zip_fclose(f); }
};
using ZipFilePtr = std::unique_ptr<zip_file_t, ZipFileClose>;

std::string mib(uint64_t bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return buf;
}

engine::Error refuse(const fs::path& zipFile, const std::string& what)
{
    return makeError(ErrorKind::BadSpec, zipFile.filename().string() + ": " + what);
}

bool portableChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '/';
}

// A file that is not a zip archive at all, or a damaged one (validate's exit code 2: the path is unusable).
engine::Error unreadable(const fs::path& zipFile, const std::string& what)
{
    return makeError(ErrorKind::Io, zipFile.filename().string() + ": " + what);
}

// The first entry name written twice, read without libzip's consistency check (which stops at the duplicate).
std::optional<std::string> duplicateEntryName(const fs::path& zipFile)
{
    int err = 0;
    ZipPtr zip(zip_open(zipFile.c_str(), ZIP_RDONLY, &err));
    if (!zip) {
        return std::nullopt;
    }
    std::set<std::string> seen;
    const zip_int64_t count = zip_get_num_entries(zip.get(), 0);
    for (zip_int64_t i = 0; i < count; ++i) {
        const char* name = zip_get_name(zip.get(), static_cast<zip_uint64_t>(i), ZIP_FL_ENC_GUESS);
        if (name && !seen.insert(name).second) {
            return std::string(name);
        }
    }
    return std::nullopt;
}

// Why an entry name is unsafe, or "" when it is fine. Directory entries end in '/'.
std::string nameProblem(const std::string& name)
{
    if (name.empty()) {
        return "has an empty name";
    }
    if (name.find('\\') != std::string::npos) {
        return "has a backslash in its name; pack paths use '/' only";
    }
    if (name.front() == '/' || (name.size() > 1 && name[1] == ':')) {
        return "has an absolute path; pack entries must be relative to the pack root";
    }
    // libzip turns a NUL byte inside a name into a space, so the character rule below refuses it too.
    size_t start = 0;
    const std::string body = name.back() == '/' ? name.substr(0, name.size() - 1) : name;
    while (start <= body.size()) {
        const size_t end = std::min(body.find('/', start), body.size());
        const std::string part = body.substr(start, end - start);
        if (part == "..") {
            return "has a '..' component; pack entries must stay inside the pack";
        }
        if (part.empty() || part == ".") {
            return "has an empty or '.' path component";
        }
        start = end + 1;
    }
    if (!std::all_of(name.begin(), name.end(), portableChar)) {
        return "has a character outside letters, digits, '-', '_', '.' and '/' in its name (NUL bytes and spaces "
               "included)";
    }
    return {};
}

} // namespace

fs::path uniqueTempPath(const fs::path& parent, const std::string& stem)
{
    std::random_device rd;
    std::mt19937_64 rng((static_cast<uint64_t>(rd()) << 32) ^ rd());
    for (;;) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%012llx", static_cast<unsigned long long>(rng() & 0xffffffffffffull));
        fs::path p = parent / ("." + stem + "-" + buf);
        if (!fs::exists(p)) {
            return p;
        }
    }
}

engine::Status exportPack(const fs::path& packFolder, const fs::path& zipFile, const ArchiveLimits& limits)
{
    auto info = readPack(packFolder);
    if (!info) {
        return info.error();
    }
    // Relative names, sorted, pack.json first: the archive's byte order depends only on the pack's contents.
    std::vector<std::string> names;
    for (const auto& module : info->modules) {
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(packFolder / module, ec); it != fs::end(it); it.increment(ec)) {
            if (ec) {
                break;
            }
            const auto rel = fs::relative(it->path(), packFolder).generic_string();
            if (it->is_symlink()) {
                return makeError(ErrorKind::BadSpec, rel + " is a symbolic link; a pack holds plain files only. "
                                                           "Replace it with a copy of the file.");
            }
            if (it->is_directory()) {
                continue;
            }
            if (!it->is_regular_file()) {
                return makeError(ErrorKind::BadSpec, rel + " is not a regular file; remove it from the pack.");
            }
            if (!isAllowedFileKind(it->path())) {
                return makeError(ErrorKind::BadSpec,
                                 rel + " is a kind of file a pack may not carry; packs hold only .json .md .cu .cuh "
                                       ".py .txt .svg .png files. Remove or rename it.");
            }
            if (it->file_size() > limits.maxEntryBytes) {
                return makeError(ErrorKind::BadSpec, rel + " is " + mib(it->file_size()) + "; a pack file may be at most " +
                                                         mib(limits.maxEntryBytes) + ".");
            }
            if (!nameProblem(rel).empty()) {
                return makeError(ErrorKind::BadSpec, rel + " " + nameProblem(rel) + "; rename it.");
            }
            names.push_back(rel);
        }
        if (ec) {
            return makeError(ErrorKind::Io, "Cannot list " + (packFolder / module).string() + ": " + ec.message());
        }
    }
    std::sort(names.begin(), names.end());
    names.insert(names.begin(), std::string(kManifestName));

    int err = 0;
    zip_t* raw = zip_open(zipFile.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!raw) {
        zip_error_t ze;
        zip_error_init_with_code(&ze, err);
        std::string msg = "Cannot create " + zipFile.string() + ": " + zip_error_strerror(&ze) + ".";
        zip_error_fini(&ze);
        return makeError(ErrorKind::Io, msg);
    }
    ZipPtr zip(raw);
    for (const auto& name : names) {
        zip_source_t* src = zip_source_file(zip.get(), (packFolder / name).c_str(), 0, -1);
        if (!src) {
            return makeError(ErrorKind::Io, "Cannot read " + (packFolder / name).string() + ": " +
                                                zip_strerror(zip.get()));
        }
        const zip_int64_t idx = zip_file_add(zip.get(), name.c_str(), src, ZIP_FL_ENC_UTF_8);
        if (idx < 0) {
            zip_source_free(src);
            return makeError(ErrorKind::Io, "Cannot add " + name + " to " + zipFile.string() + ": " +
                                                zip_strerror(zip.get()));
        }
        const auto u = static_cast<zip_uint64_t>(idx);
        if (zip_file_set_mtime(zip.get(), u, kExportTime, 0) != 0 ||
            zip_file_set_external_attributes(zip.get(), u, 0, ZIP_OPSYS_UNIX, kRegularFileMode << 16) != 0 ||
            zip_set_file_compression(zip.get(), u, ZIP_CM_DEFLATE, 9) != 0) {
            return makeError(ErrorKind::Io, "Cannot set the attributes of " + name + ": " + zip_strerror(zip.get()));
        }
    }
    if (zip_close(zip.get()) != 0) {
        std::string msg = "Cannot write " + zipFile.string() + ": " + zip_strerror(zip.get()) + ".";
        return makeError(ErrorKind::Io, msg);
    }
    (void)zip.release(); // zip_close freed it
    return {};
}

engine::Expected<CheckedArchive> checkArchive(const fs::path& zipFile, const ArchiveLimits& limits)
{
    int err = 0;
    zip_t* raw = zip_open(zipFile.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &err);
    if (!raw && err == ZIP_ER_EXISTS) {
        // libzip's consistency check refuses a name written twice; say which one, as for any other entry.
        if (const auto name = duplicateEntryName(zipFile)) {
            return refuse(zipFile, "entry \"" + *name + "\" appears twice. The pack was refused and nothing was written.");
        }
    }
    if (!raw) {
        return unreadable(zipFile, "is not a readable pack file (not a zip archive, or a damaged one); export it again.");
    }
    ZipPtr zip(raw);
    const zip_int64_t count = zip_get_num_entries(zip.get(), 0);
    if (count > limits.maxEntries) {
        return refuse(zipFile, "has " + std::to_string(count) + " entries; a pack may hold at most " +
                                   std::to_string(limits.maxEntries) + ".");
    }
    CheckedArchive out;
    std::set<std::string> seen;
    const ArchiveEntry* manifestEntry = nullptr;
    for (zip_int64_t i = 0; i < count; ++i) {
        const auto u = static_cast<zip_uint64_t>(i);
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(zip.get(), u, ZIP_FL_ENC_GUESS, &st) != 0 || !(st.valid & ZIP_STAT_NAME)) {
            return unreadable(zipFile, "entry " + std::to_string(i) + " cannot be read; the file is damaged.");
        }
        const std::string name = st.name;
        if (auto why = nameProblem(name); !why.empty()) {
            return refuse(zipFile, "entry \"" + name + "\" " + why + ". The pack was refused and nothing was written.");
        }
        if (!seen.insert(name).second) {
            return refuse(zipFile, "entry \"" + name + "\" appears twice. The pack was refused and nothing was written.");
        }
        zip_uint8_t opsys = 0;
        zip_uint32_t attr = 0;
        if (zip_file_get_external_attributes(zip.get(), u, 0, &opsys, &attr) == 0 && opsys == ZIP_OPSYS_UNIX) {
            const uint32_t type = (attr >> 16) & S_IFMT;
            if (type == S_IFLNK) {
                return refuse(zipFile, "entry \"" + name +
                                           "\" is a symbolic link; packs hold plain files only. The pack was refused "
                                           "and nothing was written.");
            }
            if (type != 0 && type != S_IFREG && type != S_IFDIR) {
                return refuse(zipFile, "entry \"" + name + "\" is not a regular file. The pack was refused and "
                                                           "nothing was written.");
            }
        }
        if (name.back() == '/') {
            continue; // folder entries carry nothing; folders are made from file paths
        }
        if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE) {
            return refuse(zipFile, "entry \"" + name + "\" is encrypted; export the pack again without a password.");
        }
        if (!(st.valid & ZIP_STAT_SIZE) || st.size > limits.maxEntryBytes) {
            return refuse(zipFile, "entry \"" + name + "\" is " + mib(st.size) + "; a pack file may be at most " +
                                       mib(limits.maxEntryBytes) + ". The pack was refused and nothing was written.");
        }
        out.totalBytes += st.size;
        if (out.totalBytes > limits.maxTotalBytes) {
            return refuse(zipFile, "unpacks to more than " + mib(limits.maxTotalBytes) + " (at entry \"" + name +
                                       "\"); split it into smaller packs.");
        }
        if (!isAllowedFileKind(name)) {
            return refuse(zipFile, "entry \"" + name +
                                       "\" is a kind of file a pack may not carry; packs hold only .json .md .cu .cuh "
                                       ".py .txt .svg .png files. The pack was refused and nothing was written.");
        }
        out.files.push_back({u, name, st.size});
    }
    for (const auto& f : out.files) {
        if (f.name == kManifestName) {
            manifestEntry = &f;
        }
    }
    if (!manifestEntry) {
        return refuse(zipFile, "has no pack.json at its root; it is not a Triton Kernel Mastery pack.");
    }
    ZipFilePtr mf(zip_fopen_index(zip.get(), manifestEntry->index, 0));
    std::string text(manifestEntry->size, '\0');
    if (!mf || zip_fread(mf.get(), text.data(), text.size()) != static_cast<zip_int64_t>(text.size())) {
        return unreadable(zipFile, "pack.json cannot be read; the file is damaged.");
    }
    auto manifest = parseManifest(text, zipFile.filename().string() + ": pack.json");
    if (!manifest) {
        return engine::Error{manifest.error().kind,
                             manifest.error().message + " The pack was refused and nothing was written.", {}};
    }
    out.manifest = std::move(*manifest);
    for (const auto& f : out.files) {
        if (f.name == kManifestName) {
            continue;
        }
        const std::string top = f.name.substr(0, f.name.find('/'));
        if (f.name.find('/') == std::string::npos ||
            std::find(out.manifest.modules.begin(), out.manifest.modules.end(), top) == out.manifest.modules.end()) {
            return refuse(zipFile, "entry \"" + f.name +
                                       "\" is not inside a module folder listed in pack.json; list its folder in "
                                       "\"modules\" or remove it. The pack was refused and nothing was written.");
        }
    }
    for (const auto& m : out.manifest.modules) {
        const std::string want = m + "/module.json";
        if (std::none_of(out.files.begin(), out.files.end(), [&](const ArchiveEntry& f) { return f.name == want; })) {
            return refuse(zipFile, "pack.json lists module \"" + m + "\" but the archive has no \"" + want +
                                       "\". The pack was refused and nothing was written.");
        }
    }
    return out;
}

engine::Status extractArchive(const fs::path& zipFile, const CheckedArchive& checked, const fs::path& dest)
{
    int err = 0;
    ZipPtr zip(zip_open(zipFile.c_str(), ZIP_RDONLY, &err));
    if (!zip) {
        return refuse(zipFile, "cannot be opened again for extraction.");
    }
    std::error_code ec;
    if (fs::exists(dest) || !fs::create_directories(dest, ec)) {
        return makeError(ErrorKind::Io, "Cannot create the folder " + dest.string() + ".");
    }
    std::vector<char> buf(1 << 16);
    for (const auto& f : checked.files) {
        const fs::path out = dest / fs::path(f.name);
        fs::create_directories(out.parent_path(), ec);
        ZipFilePtr in(zip_fopen_index(zip.get(), f.index, 0));
        std::ofstream os(out, std::ios::binary | std::ios::trunc);
        if (!in || !os) {
            return makeError(ErrorKind::Io, "Cannot extract \"" + f.name + "\" to " + out.string() + ".");
        }
        uint64_t total = 0;
        for (;;) {
            const zip_int64_t n = zip_fread(in.get(), buf.data(), buf.size());
            if (n < 0) {
                return refuse(zipFile, "entry \"" + f.name + "\" is damaged (" + zip_file_strerror(in.get()) + ").");
            }
            if (n == 0) {
                break;
            }
            total += static_cast<uint64_t>(n);
            // The directory's size was checked; a lying entry is still stopped here.
            if (total > f.size) {
                return refuse(zipFile, "entry \"" + f.name + "\" holds more data than its header says; refused.");
            }
            os.write(buf.data(), n);
        }
        if (!os) {
            return makeError(ErrorKind::Io, "Writing " + out.string() + " failed; check the free disk space.");
        }
    }
    return {};
}

std::optional<std::string> keepBothId(const std::string& id, const PackStore& store)
{
    for (int n = 2; n < 10000; ++n) {
        const std::string suffix = "-" + std::to_string(n);
        // A 63- or 64-character id has no room for the suffix: shorten the base, never the number.
        const std::string candidate = id.substr(0, 64 - suffix.size()) + suffix;
        if (isValidPackId(candidate) && candidate != id && !store.contains(candidate)) {
            return candidate;
        }
    }
    return std::nullopt;
}

engine::Expected<ImportResult> importPack(const fs::path& zipFile, const PackStore& store, const ImportOptions& options)
{
    store.cleanAbandoned();
    auto checked = checkArchive(zipFile, options.limits);
    if (!checked) {
        return checked.error();
    }
    ImportResult result;
    std::string id = checked->manifest.id;
    ClashChoice choice = ClashChoice::Cancel;
    if (store.contains(id)) {
        auto installed = store.find(id);
        PackInfo installedInfo = installed ? *installed : PackInfo{};
        installedInfo.id = id;
        choice = options.ask ? options.ask(installedInfo, checked->manifest) : options.onClash;
        if (choice == ClashChoice::Cancel) {
            return makeError(ErrorKind::BadInput, "A pack \"" + id +
                                                      "\" is already installed; the import was cancelled. Choose "
                                                      "replace or keep both to import it.");
        }
        if (choice == ClashChoice::KeepBoth) {
            const auto free = keepBothId(id, store);
            if (!free) {
                return makeError(ErrorKind::BadInput, "Every id from \"" + id +
                                                          "-2\" to \"-9999\" is taken; remove some packs first.");
            }
            id = *free;
            result.renamed = true;
        }
    }

    std::error_code ec;
    fs::create_directories(store.packsDir(), ec);
    const fs::path temp = uniqueTempPath(store.packsDir(), "import");
    // Whatever happens below, the temporary folder does not outlive this call.
    struct Cleanup
    {
        fs::path path;
        ~Cleanup()
        {
            std::error_code e;
            if (!path.empty()) {
                fs::remove_all(path, e);
            }
        }
    } cleanup{temp};

    if (auto st = extractArchive(zipFile, *checked, temp); !st) {
        return st.error();
    }
    std::vector<course::Diagnostic> all;
    for (const auto& m : checked->manifest.modules) {
        auto loaded = course::loadModule(temp / m);
        for (auto& d : loaded.diagnostics) {
            all.push_back(std::move(d));
        }
    }
    if (course::hasErrors(all)) {
        std::string first;
        std::string detail;
        for (const auto& d : all) {
            const std::string line = d.format(temp);
            if (first.empty() && d.severity == course::Severity::Error) {
                first = line;
            }
            detail += line + "\n";
        }
        return makeError(ErrorKind::BadSpec,
                         zipFile.filename().string() + ": a module fails validation: " + first +
                             ". The pack was refused and nothing was written.",
                         detail);
    }
    if (result.renamed) {
        PackInfo renamed = checked->manifest;
        renamed.id = id;
        renamed.folder = temp;
        if (auto st = writeManifest(renamed); !st) {
            return st.error();
        }
    }
    const fs::path final = store.packFolder(id);
    fs::path trash;
    if (choice == ClashChoice::Replace) {
        trash = uniqueTempPath(store.packsDir(), "replaced");
        fs::rename(final, trash, ec);
        if (ec) {
            return makeError(ErrorKind::Io, "Cannot move the installed pack " + final.string() + " aside: " +
                                                ec.message());
        }
        result.replaced = true;
    }
    fs::rename(temp, final, ec);
    if (ec) {
        if (!trash.empty()) {
            std::error_code back;
            fs::rename(trash, final, back);
        }
        return makeError(ErrorKind::Io, "Cannot move the imported pack into " + final.string() + ": " + ec.message());
    }
    cleanup.path = trash; // the replaced pack goes; the new one stays
    auto installed = readPack(final);
    if (!installed) {
        return installed.error();
    }
    result.pack = std::move(*installed);
    for (auto& d : all) {
        d.file = final / fs::relative(d.file, temp);
        result.warnings.push_back(std::move(d));
    }
    return result;
}

} // namespace tkm::packs
