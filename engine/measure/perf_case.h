#pragma once
// The performance case on the device for measuring: the spec's performance case (or an autotune shape)
// instantiated, its inputs generated and uploaded to plain allocations (correctness already passed on guarded
// buffers), and Workloads that launch a kernel on them and re-initialise the outputs before each sample.
//
// Output re-initialisation (outside the timed events): `reset_to_zero` outputs → 0; other `out` buffers → the
// dtype's poison with cuMemsetD32Async for 4-byte types, else 0; `inout` buffers → copied back from a pristine
// device copy of their generated values.

#include "engine/common/error.h"
#include "engine/cuda/module.h"
#include "engine/measure/detail/measure_kernels.h"
#include "engine/measure/measure.h"
#include "engine/measure/workload.h"
#include "engine/problem/instance.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::measure {

/// An instantiated case whose buffers live on the device. Owns the allocations; move-only through unique_ptr.
class PerfCase
{
public:
    /// Instantiates `c` (caseIndex −1 for the performance case), generates and uploads the inputs.
    /// Errors: BadSpec/Expression/BadInput from instantiation, Cuda for allocation or upload.
    static engine::Expected<std::unique_ptr<PerfCase>> create(const Measurer& measurer,
                                                              const problem::ExerciseSpec& spec,
                                                              const problem::MetaValues& meta, const problem::Case& c,
                                                              int caseIndex = -1);
    ~PerfCase();
    PerfCase(const PerfCase&) = delete;            ///< owns device memory
    PerfCase& operator=(const PerfCase&) = delete; ///< owns device memory

    const problem::ProblemInstance& instance() const { return m_instance; } ///< shapes, scalars, launch, bytes
    /// Device address of the buffer argument `name`, or 0 when there is none.
    CUdeviceptr buffer(std::string_view name) const;
    /// Bytes of the out/inout buffers [bytes].
    double outputBytes() const { return m_outputBytes; }
    /// Enqueues the re-initialisation of every out/inout buffer (see file comment).
    engine::Status resetOutputs(CUstream stream) const;
    /// The kernel's arguments in spec order (buffers as device pointers, scalars by their dtype).
    cuda::KernelArgs kernelArgs() const;
    /// A Workload launching `kernel` with `dims` on this case (ideal bytes and FLOPs from the instance).
    /// `kernel` must outlive the Workload. Opts in to > 48 KiB dynamic shared memory when the launch needs it.
    engine::Expected<Workload> workload(const cuda::Kernel& kernel, const problem::LaunchDims& dims,
                                        std::string label) const;

private:
    PerfCase(const Measurer& measurer) : m_measurer(measurer) {}
    struct Buffer
    {
        std::string name;
        detail::DeviceAllocation data;
        detail::DeviceAllocation pristine; ///< inout only
        problem::Role role = problem::Role::In;
        engine::DType dtype = engine::DType::F32;
        bool zero = false;
    };
    const Measurer& m_measurer;
    problem::ProblemInstance m_instance;
    std::vector<Buffer> m_buffers;
    double m_outputBytes = 0;
};

/// Launches `kernel` with `dims` and `args` on `stream` (cuLaunchKernel; no argument check, see workload()).
engine::Status launchRaw(const cuda::Kernel& kernel, const problem::LaunchDims& dims, cuda::KernelArgs& args,
                         CUstream stream);

} // namespace tkm::measure
