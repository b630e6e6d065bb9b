#include "engine/measure/perf_case.h"

#include "engine/cuda/driver.h"
#include "engine/problem/generate.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

namespace tkm::measure {

PerfCase::~PerfCase() = default;

engine::Expected<std::unique_ptr<PerfCase>> PerfCase::create(const Measurer& measurer,
                                                             const problem::ExerciseSpec& spec,
                                                             const problem::MetaValues& meta, const problem::Case& c,
                                                             int caseIndex)
{
    std::unique_ptr<PerfCase> pc(new PerfCase(measurer));
    auto inst = problem::instantiate(spec, c, meta, caseIndex);
    if (!inst)
        return inst.error();
    pc->m_instance = std::move(*inst);
    // Drawn on every core straight into uninitialised host memory, one input at a time (no host image of the
    // whole case, no zero-fill): the data is timed, never checked (problem/generate.h). Outputs get no host
    // image at all: resetOutputs() fills them on the device before every timed or profiled launch.
    const cuda::DriverApi& drv = cuda::api();
    for (const problem::ArgInstance& a : pc->m_instance.args) {
        if (a.kind != problem::ParamKind::Buffer)
            continue;
        Buffer b;
        b.name = a.name;
        b.role = a.role;
        b.dtype = a.dtype;
        b.zero = a.resetToZero;
        const size_t bytes = static_cast<size_t>(std::max<int64_t>(a.bytes, 1));
        auto data = detail::DeviceAllocation::create(bytes);
        if (!data)
            return data.error();
        b.data = std::move(*data);
        if (a.role != problem::Role::Out) {
            std::unique_ptr<std::byte[]> host(new (std::nothrow) std::byte[bytes]);
            if (!host)
                return engine::makeError(engine::ErrorKind::BadInput, "not enough host memory for the inputs of case \"" +
                                                                          pc->m_instance.caseName + "\"");
            problem::drawPerformanceInput(a, host.get());
            if (auto st = cuda::check(drv.cuMemcpyHtoD(b.data.ptr(), host.get(), bytes), "cuMemcpyHtoD"); !st)
                return st.error();
            if (a.role == problem::Role::InOut) {
                auto pristine = detail::DeviceAllocation::create(bytes);
                if (!pristine)
                    return pristine.error();
                b.pristine = std::move(*pristine);
                if (auto st = pc->m_measurer.copyDeviceBytes(b.pristine.ptr(), b.data.ptr(), bytes, nullptr); !st)
                    return st.error();
            }
        }
        if (a.role != problem::Role::In)
            pc->m_outputBytes += static_cast<double>(a.bytes);
        pc->m_buffers.push_back(std::move(b));
    }
    if (auto st = pc->resetOutputs(nullptr); !st)
        return st.error();
    if (auto st = cuda::check(drv.cuCtxSynchronize(), "cuCtxSynchronize"); !st)
        return st.error();
    return pc;
}

CUdeviceptr PerfCase::buffer(std::string_view name) const
{
    for (const Buffer& b : m_buffers)
        if (b.name == name)
            return b.data.ptr();
    return 0;
}

engine::Status PerfCase::resetOutputs(CUstream stream) const
{
    const cuda::DriverApi& drv = cuda::api();
    for (const Buffer& b : m_buffers) {
        if (b.role == problem::Role::In)
            continue;
        if (b.role == problem::Role::InOut) {
            if (auto st = m_measurer.copyDeviceBytes(b.data.ptr(), b.pristine.ptr(), b.data.bytes(), stream); !st)
                return st;
            continue;
        }
        const int64_t elem = engine::dtypeBytes(b.dtype);
        if (!b.zero && elem == 4) {
            const auto bits = static_cast<unsigned>(engine::poisonBits(b.dtype));
            if (auto st = cuda::check(drv.cuMemsetD32Async(b.data.ptr(), bits, b.data.bytes() / 4, stream),
                                      "cuMemsetD32Async");
                !st)
                return st;
        } else if (auto st =
                       cuda::check(drv.cuMemsetD8Async(b.data.ptr(), 0, b.data.bytes(), stream), "cuMemsetD8Async");
                   !st) {
            return st;
        }
    }
    return {};
}

cuda::KernelArgs PerfCase::kernelArgs() const
{
    cuda::KernelArgs args;
    for (const problem::ArgInstance& a : m_instance.args) {
        if (a.kind == problem::ParamKind::Buffer) {
            args.addPointer(buffer(a.name));
            continue;
        }
        switch (a.dtype) {
        case engine::DType::I32:
            args.add(static_cast<int32_t>(a.intValue));
            break;
        case engine::DType::I64:
            args.add(static_cast<int64_t>(a.intValue));
            break;
        case engine::DType::F32:
            args.add(static_cast<float>(a.floatValue));
            break;
        case engine::DType::F64:
            args.add(a.floatValue);
            break;
        default:
            args.add(static_cast<int32_t>(a.intValue));
            break; // the spec allows no other scalar dtypes
        }
    }
    return args;
}

engine::Status launchRaw(const cuda::Kernel& kernel, const problem::LaunchDims& dims, cuda::KernelArgs& args,
                         CUstream stream)
{
    return cuda::check(cuda::api().cuLaunchKernel(
                           kernel.handle(), static_cast<unsigned>(dims.grid[0]), static_cast<unsigned>(dims.grid[1]),
                           static_cast<unsigned>(dims.grid[2]), static_cast<unsigned>(dims.block[0]),
                           static_cast<unsigned>(dims.block[1]), static_cast<unsigned>(dims.block[2]),
                           static_cast<unsigned>(dims.sharedBytes), stream, args.pointers(), nullptr),
                       "cuLaunchKernel");
}

engine::Expected<Workload> PerfCase::workload(const cuda::Kernel& kernel, const problem::LaunchDims& dims,
                                              std::string label) const
{
    auto args = std::make_shared<cuda::KernelArgs>(kernelArgs());
    if (auto st = cuda::checkArgs(kernel, *args); !st)
        return st.error();
    if (dims.sharedBytes > 48 * 1024)
        if (auto st = cuda::check(cuda::api().cuFuncSetAttribute(kernel.handle(),
                                                                 CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                                 static_cast<int>(dims.sharedBytes)),
                                  "cuFuncSetAttribute");
            !st)
            return st.error();
    Workload w;
    w.label = std::move(label);
    w.launch = [&kernel, dims, args](CUstream stream) { return launchRaw(kernel, dims, *args, stream); };
    w.resetOutputs = [this](CUstream stream) { return resetOutputs(stream); };
    w.idealBytes = m_instance.idealBytes;
    w.flops = m_instance.flops;
    w.outputBytes = m_outputBytes;
    return w;
}

} // namespace tkm::measure
