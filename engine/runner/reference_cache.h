#pragma once
// Internal to the runner: what a warm worker keeps between jobs about each correctness case — its generated host
// images (learner dtype and float64) and the float64 reference kernel's outputs on them. The inputs are seeded,
// so for one (exercise, case, seed, shapes, reference kernel) they are the same bytes every run: a second job on
// the same exercise neither generates nor runs the reference again. Entries are keyed by caseKey(); the cache is
// bounded by bytes and drops the least recently used entries.
//
// prefetch() generates the images of cases not yet held on a background thread, in case order, so that the input
// generation of later cases overlaps the GPU work of earlier ones; inputs() waits for a prefetched entry.

#include "engine/common/error.h"
#include "engine/problem/generate.h"
#include "engine/problem/instance.h"

#include <cstddef>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::runner::detail {

/// Default bound of the cache [bytes] (host images plus reference outputs).
inline constexpr size_t kDefaultCaseCacheBytes = size_t{512} << 20;

/// Generated host images of one case, shared read-only between the jobs that use them.
using SharedInputs = std::shared_ptr<const problem::GeneratedInputs>;

/// Reference outputs of one case by argument index (empty for inputs and scalars).
using ReferenceOutputs = std::vector<std::vector<std::byte>>;

/// The cache of case inputs and reference outputs (see file comment). Thread-safe.
class CaseCache
{
public:
    /// A cache of at most `maxBytes`.
    explicit CaseCache(size_t maxBytes = kDefaultCaseCacheBytes);
    ~CaseCache(); ///< waits for a running prefetch
    CaseCache(const CaseCache&) = delete;            ///< holds a thread's future
    CaseCache& operator=(const CaseCache&) = delete; ///< holds a thread's future

    /// The key of a case: everything its images and reference outputs depend on — the instance's buffers
    /// (name, dtype, role, shape, strides, generator, seed, reset_to_zero), scalars and the reference launch — and
    /// `referenceKey` (the reference kernel's CUBIN cache key, so an edited reference is run again).
    static std::string caseKey(const problem::ProblemInstance& inst, std::string_view referenceKey);

    /// The images of `inst` (with float64 images): the held ones, a prefetched one (waiting for it), or generated
    /// now and held. Errors: those of problem::generateInputs.
    engine::Expected<SharedInputs> inputs(const problem::ProblemInstance& inst, const std::string& key);
    /// Generates, on one background thread and in order, the images of the cases not held yet.
    void prefetch(std::vector<std::pair<std::string, problem::ProblemInstance>> cases);
    /// The reference outputs held for `key`, or nullptr.
    std::shared_ptr<const ReferenceOutputs> reference(const std::string& key);
    /// Holds the reference outputs of `key` (the images must be held already; otherwise nothing is kept).
    void storeReference(const std::string& key, ReferenceOutputs outputs);

    int64_t inputHits() const { return m_inputHits; }         ///< inputs() served without generating
    int64_t referenceHits() const { return m_referenceHits; } ///< reference() calls that found outputs

private:
    struct Entry
    {
        std::shared_future<engine::Expected<SharedInputs>> inputs;
        std::shared_ptr<const ReferenceOutputs> reference;
        size_t bytes = 0;
        uint64_t used = 0;
    };
    void evictLocked();
    size_t m_maxBytes;
    std::mutex m_mutex;
    std::map<std::string, Entry> m_entries;
    size_t m_bytes = 0;
    uint64_t m_clock = 0;
    std::future<void> m_prefetch;
    int64_t m_inputHits = 0;
    int64_t m_referenceHits = 0;
};

/// The cases `indices` of `spec` instantiated with `meta`, each with its caseKey() for `referenceKey`, for
/// CaseCache::prefetch(); a case that does not instantiate is left out (the runner reports it).
std::vector<std::pair<std::string, problem::ProblemInstance>> caseList(const problem::ExerciseSpec& spec,
                                                                       const problem::MetaValues& meta,
                                                                       const std::vector<int>& indices,
                                                                       std::string_view referenceKey);

} // namespace tkm::runner::detail
