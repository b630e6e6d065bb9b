#include "engine/runner/reference_cache.h"

#include "engine/common/hash.h"

#include <fmt/format.h>

#include <chrono>
#include <utility>

namespace tkm::runner::detail {
namespace {

size_t imageBytes(const problem::ProblemInstance& inst)
{
    size_t bytes = 0;
    for (const problem::ArgInstance& a : inst.args) {
        if (a.kind == problem::ParamKind::Buffer) {
            const auto ref = static_cast<size_t>(engine::dtypeBytes(engine::referenceDType(a.dtype)));
            bytes += static_cast<size_t>(a.bytes) + static_cast<size_t>(a.storageElements) * ref;
        }
    }
    return bytes;
}

engine::Expected<SharedInputs> generate(const problem::ProblemInstance& inst)
{
    auto images = problem::generateInputs(inst, true);
    if (!images) {
        return images.error();
    }
    return SharedInputs(std::make_shared<const problem::GeneratedInputs>(std::move(*images)));
}

} // namespace

CaseCache::CaseCache(size_t maxBytes) : m_maxBytes(maxBytes) {}

CaseCache::~CaseCache()
{
    if (m_prefetch.valid()) {
        m_prefetch.wait();
    }
}

std::string CaseCache::caseKey(const problem::ProblemInstance& inst, std::string_view referenceKey)
{
    engine::Hasher h;
    h.addField("tkm-case/1").addField(referenceKey).addField(inst.caseName);
    for (const problem::ArgInstance& a : inst.args) {
        std::string s = fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|", a.name, static_cast<int>(a.kind),
                                    static_cast<int>(a.dtype), static_cast<int>(a.role), a.resetToZero ? 1 : 0,
                                    a.seed, a.intValue, a.floatValue);
        for (size_t d = 0; d < a.shape.size(); ++d) {
            s += fmt::format("{}:{},", a.shape[d], a.strides[d]);
        }
        if (a.init) {
            const problem::Generator& g = *a.init;
            s += fmt::format("g{}:{}:{}:{}:{}:{}:{}:{}", static_cast<int>(g.dist), g.mean, g.std, g.low, g.high,
                             g.magnitude, g.start, g.step);
        }
        h.addField(s);
    }
    const problem::LaunchDims& r = inst.referenceLaunch;
    h.addField(fmt::format("{},{},{}/{},{},{}/{}", r.grid[0], r.grid[1], r.grid[2], r.block[0], r.block[1],
                           r.block[2], r.sharedBytes));
    return h.hex();
}

engine::Expected<SharedInputs> CaseCache::inputs(const problem::ProblemInstance& inst, const std::string& key)
{
    std::shared_future<engine::Expected<SharedInputs>> ready;
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_entries.find(key); it != m_entries.end()) {
            it->second.used = ++m_clock;
            ready = it->second.inputs;
            ++m_inputHits;
        }
    }
    if (ready.valid()) {
        return ready.get();
    }
    auto generated = generate(inst);
    if (!generated) {
        return generated;
    }
    std::lock_guard lock(m_mutex);
    std::promise<engine::Expected<SharedInputs>> p;
    p.set_value(*generated);
    Entry e;
    e.inputs = p.get_future().share();
    e.bytes = imageBytes(inst);
    e.used = ++m_clock;
    m_bytes += e.bytes;
    m_entries[key] = std::move(e);
    evictLocked();
    return generated;
}

void CaseCache::prefetch(std::vector<std::pair<std::string, problem::ProblemInstance>> cases)
{
    if (m_prefetch.valid()) {
        m_prefetch.wait();
    }
    auto todo = std::make_shared<std::vector<std::pair<problem::ProblemInstance, std::promise<engine::Expected<SharedInputs>>>>>();
    {
        std::lock_guard lock(m_mutex);
        for (auto& [key, inst] : cases) {
            if (m_entries.count(key) != 0) {
                continue;
            }
            std::promise<engine::Expected<SharedInputs>> p;
            Entry e;
            e.inputs = p.get_future().share();
            e.bytes = imageBytes(inst);
            e.used = ++m_clock;
            m_bytes += e.bytes;
            m_entries[key] = std::move(e);
            todo->emplace_back(std::move(inst), std::move(p));
        }
    }
    if (todo->empty()) {
        return;
    }
    m_prefetch = std::async(std::launch::async, [todo] {
        for (auto& [inst, promise] : *todo) {
            promise.set_value(generate(inst));
        }
    });
}

std::shared_ptr<const ReferenceOutputs> CaseCache::reference(const std::string& key)
{
    std::lock_guard lock(m_mutex);
    auto it = m_entries.find(key);
    if (it == m_entries.end() || !it->second.reference) {
        return nullptr;
    }
    it->second.used = ++m_clock;
    ++m_referenceHits;
    return it->second.reference;
}

void CaseCache::storeReference(const std::string& key, ReferenceOutputs outputs)
{
    std::lock_guard lock(m_mutex);
    auto it = m_entries.find(key);
    if (it == m_entries.end()) {
        return;
    }
    size_t bytes = 0;
    for (const auto& o : outputs) {
        bytes += o.size();
    }
    if (it->second.reference) {
        return;
    }
    it->second.reference = std::make_shared<const ReferenceOutputs>(std::move(outputs));
    it->second.bytes += bytes;
    m_bytes += bytes;
    evictLocked();
}

void CaseCache::evictLocked()
{
    while (m_bytes > m_maxBytes && m_entries.size() > 1) {
        auto oldest = m_entries.end();
        for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
            const bool ready =
                it->second.inputs.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
            if (ready && (oldest == m_entries.end() || it->second.used < oldest->second.used)) {
                oldest = it;
            }
        }
        if (oldest == m_entries.end()) {
            return;
        }
        m_bytes -= oldest->second.bytes;
        m_entries.erase(oldest);
    }
}

std::vector<std::pair<std::string, problem::ProblemInstance>> caseList(const problem::ExerciseSpec& spec,
                                                                       const problem::MetaValues& meta,
                                                                       const std::vector<int>& indices,
                                                                       std::string_view referenceKey)
{
    std::vector<std::pair<std::string, problem::ProblemInstance>> out;
    for (const int ci : indices) {
        if (ci < 0 || ci >= static_cast<int>(spec.cases.size())) {
            continue;
        }
        auto inst = problem::instantiate(spec, spec.cases[ci], meta, ci);
        if (inst) {
            std::string key = CaseCache::caseKey(*inst, referenceKey);
            out.emplace_back(std::move(key), std::move(*inst));
        }
    }
    return out;
}

} // namespace tkm::runner::detail
