#include "engine/compile/detail/cubin_cache.h"

#include "engine/common/paths.h"

#include <nlohmann/json.hpp>

namespace tkm::compile::detail {
namespace {

using json = nlohmann::json;

} // namespace

std::optional<CompileResult> loadCached(const std::filesystem::path& dir, const std::string& key)
{
    auto meta = engine::readTextFile(dir / (key + ".json"));
    auto cubin = engine::readTextFile(dir / (key + ".cubin"));
    if (!meta || !cubin || cubin->empty()) {
        return std::nullopt;
    }
    try {
        const json j = json::parse(*meta);
        if (j.at("size").get<std::size_t>() != cubin->size()) {
            return std::nullopt; // torn or foreign entry
        }
        CompileResult r;
        r.cubin.assign(cubin->begin(), cubin->end());
        r.loweredName = j.at("lowered").get<std::string>();
        r.log = j.at("log").get<std::string>();
        for (const auto& d : j.at("diagnostics")) {
            r.diagnostics.push_back(
                Diagnostic{d.at("file"), d.at("line"), d.at("column"), d.at("severity"), d.at("message")});
        }
        const json& res = j.at("resources");
        r.resources.known = res.at("known");
        r.resources.registers = res.at("registers");
        r.resources.sharedBytes = res.at("shared_bytes");
        r.resources.localBytes = res.at("local_bytes");
        r.resources.spillStoresBytes = res.at("spill_stores_bytes");
        r.resources.spillLoadsBytes = res.at("spill_loads_bytes");
        r.resources.constantBytes = res.at("constant_bytes");
        return r;
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

void storeCached(const std::filesystem::path& dir, const std::string& key, const CompileResult& result)
{
    json diags = json::array();
    for (const auto& d : result.diagnostics) {
        diags.push_back({{"file", d.file},
                         {"line", d.line},
                         {"column", d.column},
                         {"severity", d.severity},
                         {"message", d.message}});
    }
    const auto& res = result.resources;
    const json meta = {{"size", result.cubin.size()},
                       {"lowered", result.loweredName},
                       {"log", result.log},
                       {"diagnostics", diags},
                       {"resources",
                        {{"known", res.known},
                         {"registers", res.registers},
                         {"shared_bytes", res.sharedBytes},
                         {"local_bytes", res.localBytes},
                         {"spill_stores_bytes", res.spillStoresBytes},
                         {"spill_loads_bytes", res.spillLoadsBytes},
                         {"constant_bytes", res.constantBytes}}}};
    // The CUBIN first: an entry counts only once its .json (which states the size) is in place.
    if (engine::writeFileAtomic(dir / (key + ".cubin"), std::string_view(result.cubin.data(), result.cubin.size()))) {
        (void)engine::writeFileAtomic(dir / (key + ".json"), meta.dump());
    }
}

} // namespace tkm::compile::detail
