#include "engine/report/autotune_info.h"

#include <fmt/format.h>

#include <algorithm>

namespace tkm::report {

using nlohmann::json;

int AutotuneInfo::winnerForShape(int shape) const
{
    for (const AutotuneWinnerInfo& w : winners)
        for (int s : w.shapes)
            if (s == shape)
                return w.config;
    return -1;
}

std::string AutotuneInfo::configLabel(int config) const
{
    if (config < 0 || config >= static_cast<int>(configs.size()))
        return "?";
    std::string out;
    for (const auto& [name, value] : configs[config].meta)
        out += (out.empty() ? "" : ", ") + name + "=" + std::to_string(value);
    return out;
}

const AutotuneSampleInfo* AutotuneInfo::sample(int config, int shape) const
{
    for (const AutotuneSampleInfo& s : samples)
        if (s.config == config && s.shape == shape)
            return &s;
    return nullptr;
}

namespace {

std::string shapeLabel(const std::map<std::string, int64_t>& shape)
{
    std::string out;
    for (const auto& [name, value] : shape)
        out += (out.empty() ? "" : ",") + name + "=" + std::to_string(value);
    return out;
}

} // namespace

std::string formatAutotuneText(const AutotuneInfo& info)
{
    std::string out = "autotune  key (";
    for (size_t i = 0; i < info.key.size(); ++i)
        out += (i ? ", " : "") + info.key[i];
    out += fmt::format("); each case launched {}× on the same buffers", info.launchesPerCheck);
    if (!info.resetToZero.empty()) {
        out += "; reset_to_zero:";
        for (const auto& n : info.resetToZero)
            out += " " + n;
    }
    out += "\n";
    size_t labelWidth = 6;
    for (int k = 0; k < static_cast<int>(info.configs.size()); ++k)
        labelWidth = std::max(labelWidth, info.configLabel(k).size() + 4);
    for (int k = 0; k < static_cast<int>(info.configs.size()); ++k) {
        const AutotuneConfigInfo& c = info.configs[k];
        std::string line = fmt::format("  {:<{}} {:<13} {}", fmt::format("#{} {}", k + 1, info.configLabel(k)),
                                       labelWidth, verdictName(c.verdict),
                                       c.verdict == ConfigVerdict::Pass ? "" : c.summary);
        line.erase(line.find_last_not_of(' ') + 1);
        out += line + "\n";
    }
    if (!info.samples.empty()) {
        std::vector<std::string> heads;
        for (const auto& shape : info.shapes)
            heads.push_back(shapeLabel(shape));
        out += fmt::format("  {:<{}}", "median [ms]", labelWidth);
        for (const auto& h : heads)
            out += fmt::format(" {:>{}}", h, std::max<size_t>(h.size(), 10));
        out += "\n";
        for (int k = 0; k < static_cast<int>(info.configs.size()); ++k) {
            if (info.configs[k].verdict != ConfigVerdict::Pass)
                continue;
            std::string row = fmt::format("  {:<{}}", fmt::format("#{} {}", k + 1, info.configLabel(k)), labelWidth);
            for (int s = 0; s < static_cast<int>(info.shapes.size()); ++s) {
                const AutotuneSampleInfo* sample = info.sample(k, s);
                std::string cell = "- ";
                if (sample && sample->medianMs)
                    cell = fmt::format("{:.4f}{}", *sample->medianMs, info.winnerForShape(s) == k ? "*" : " ");
                else if (sample)
                    cell = "error ";
                row += fmt::format(" {:>{}}", cell, std::max<size_t>(heads[s].size(), 10));
            }
            row.erase(row.find_last_not_of(' ') + 1);
            out += row + "\n";
        }
        for (const AutotuneSampleInfo& s : info.samples)
            if (!s.error.empty())
                out += fmt::format("  #{} on {}: {}\n", s.config + 1,
                                   s.shape >= 0 && s.shape < static_cast<int>(heads.size()) ? heads[s.shape] : "?",
                                   s.error);
    }
    for (const AutotuneWinnerInfo& w : info.winners)
        out += fmt::format("  winner    {}: #{} {} — {:.4f} ms, {:.2f}× faster than the slowest\n", shapeLabel(w.key),
                           w.config + 1, info.configLabel(w.config), w.medianMs, w.speedupOverSlowest);
    if (!info.note.empty())
        out += "  " + info.note + "\n";
    return out;
}

void to_json(json& j, const AutotuneConfigInfo& v)
{
    j = {{"meta", v.meta}, {"verdict", v.verdict}};
    if (!v.summary.empty())
        j["summary"] = v.summary;
}

void from_json(const json& j, AutotuneConfigInfo& v)
{
    j.at("meta").get_to(v.meta);
    j.at("verdict").get_to(v.verdict);
    v.summary = j.value("summary", std::string());
}

void to_json(json& j, const AutotuneSampleInfo& v)
{
    j = {{"config", v.config}, {"shape", v.shape}, {"settled", v.settled}};
    if (v.medianMs)
        j["median_ms"] = *v.medianMs;
    if (!v.error.empty())
        j["error"] = v.error;
}

void from_json(const json& j, AutotuneSampleInfo& v)
{
    j.at("config").get_to(v.config);
    j.at("shape").get_to(v.shape);
    v.settled = j.value("settled", false);
    v.medianMs.reset();
    if (auto it = j.find("median_ms"); it != j.end() && it->is_number())
        v.medianMs = it->get<double>();
    v.error = j.value("error", std::string());
}

void to_json(json& j, const AutotuneWinnerInfo& v)
{
    j = {{"key", v.key},
         {"shapes", v.shapes},
         {"config", v.config},
         {"median_ms", v.medianMs},
         {"speedup_over_slowest", v.speedupOverSlowest}};
}

void from_json(const json& j, AutotuneWinnerInfo& v)
{
    j.at("key").get_to(v.key);
    v.shapes = j.value("shapes", std::vector<int>());
    j.at("config").get_to(v.config);
    v.medianMs = j.value("median_ms", 0.0);
    v.speedupOverSlowest = j.value("speedup_over_slowest", 0.0);
}

void to_json(json& j, const AutotuneInfo& v)
{
    j = {{"key", v.key},
         {"shapes", v.shapes},
         {"launches_per_check", v.launchesPerCheck},
         {"configs", v.configs}};
    if (!v.resetToZero.empty())
        j["reset_to_zero"] = v.resetToZero;
    if (!v.samples.empty())
        j["samples"] = v.samples;
    if (!v.winners.empty())
        j["winners"] = v.winners;
    if (!v.note.empty())
        j["note"] = v.note;
}

void from_json(const json& j, AutotuneInfo& v)
{
    v.key = j.value("key", std::vector<std::string>());
    v.shapes = j.value("shapes", std::vector<std::map<std::string, int64_t>>());
    v.resetToZero = j.value("reset_to_zero", std::vector<std::string>());
    v.launchesPerCheck = j.value("launches_per_check", 0);
    j.at("configs").get_to(v.configs);
    v.samples = j.value("samples", std::vector<AutotuneSampleInfo>());
    v.winners = j.value("winners", std::vector<AutotuneWinnerInfo>());
    v.note = j.value("note", std::string());
}

} // namespace tkm::report
