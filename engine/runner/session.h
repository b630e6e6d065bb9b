#pragma once
// Internal to the runner: the warm CUDA state a Runner keeps between jobs (context, stream, loaded modules by
// CUBIN cache key) and the load of a compiled kernel into it.

#include "engine/compile/compiler.h"
#include "engine/cuda/context.h"
#include "engine/cuda/module.h"
#include "engine/memory/buffer_pool.h"
#include "engine/runner/reference_cache.h"
#include "engine/runner/runner.h"

#include <future>

#include <map>
#include <memory>
#include <string>

namespace tkm::runner {

namespace detail {

/// A kernel loaded into the warm context, keyed by its CUBIN cache key.
struct Loaded
{
    cuda::Module module; ///< the loaded CUBIN
    cuda::Kernel kernel; ///< its entry
};

} // namespace detail

/// The warm CUDA state of a Runner.
struct Runner::Session
{
    cuda::Context context;                                          ///< current context
    cuda::Stream stream;                                            ///< the runner's stream
    std::map<std::string, std::unique_ptr<detail::Loaded>> modules; ///< by CompileResult::cacheKey
    memory::BufferPool pool; ///< guarded buffers kept mapped between cases and jobs (freed before the context)
    detail::CaseCache cases; ///< case inputs and float64 reference outputs (reference_cache.h)
    std::future<engine::Status> warming;      ///< the measure phase's warm-up beside a fresh worker's first job
    std::map<std::string, double> warmStages; ///< its stage times [ms]
    bool broken = false;                                            ///< a sticky error happened
};

namespace detail {

/// The module of `c` loaded into the warm context (once per cache key; at most 64 kept).
engine::Expected<const Loaded*> load(std::map<std::string, std::unique_ptr<Loaded>>& cache,
                                     const compile::CompileResult& c);

} // namespace detail

} // namespace tkm::runner
