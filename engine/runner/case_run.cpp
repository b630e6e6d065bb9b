#include "engine/runner/case_run.h"

#include "engine/runner/device_print.h"

#include <fmt/format.h>

#include <cstdint>

namespace tkm::runner::detail {

const memory::GuardOptions& GuardPlan::forBuffer(const std::string& name) const
{
    const auto it = perBuffer.find(name);
    return it != perBuffer.end() ? it->second : fallback;
}

DeviceArgs::~DeviceArgs()
{
    if (pool == nullptr) {
        return;
    }
    for (auto& b : buffers) {
        if (b) {
            pool->release(std::move(*b));
        }
    }
}

DeviceArgs::DeviceArgs(DeviceArgs&& other) noexcept
    : buffers(std::move(other.buffers)), args(std::move(other.args)), pool(other.pool)
{
    other.buffers.clear();
}

DeviceArgs& DeviceArgs::operator=(DeviceArgs&& other) noexcept
{
    if (this != &other) {
        DeviceArgs old(std::move(*this));
        buffers = std::move(other.buffers);
        args = std::move(other.args);
        pool = other.pool;
        other.buffers.clear();
    }
    return *this;
}

engine::Expected<DeviceArgs> prepareArgs(const cuda::Context& ctx, const cuda::Stream& stream,
                                         const problem::ProblemInstance& inst, const problem::GeneratedInputs& images,
                                         Side side, const GuardPlan& plan, memory::BufferPool* pool)
{
    DeviceArgs out;
    out.pool = pool;
    out.buffers.resize(inst.args.size());
    for (size_t i = 0; i < inst.args.size(); ++i) {
        const problem::ArgInstance& arg = inst.args[i];
        if (arg.kind == problem::ParamKind::Scalar) {
            switch (arg.dtype) {
            case engine::DType::I32:
                out.args.add(static_cast<int32_t>(arg.intValue));
                break;
            case engine::DType::I64:
                out.args.add(static_cast<int64_t>(arg.intValue));
                break;
            case engine::DType::F32:
                out.args.add(static_cast<float>(arg.floatValue));
                break;
            case engine::DType::F64:
                out.args.add(arg.floatValue);
                break;
            default:
                return engine::makeError(engine::ErrorKind::BadSpec,
                                         fmt::format("scalar `{}` has dtype {}, which a scalar cannot have", arg.name,
                                                     engine::dtypeName(arg.dtype)));
            }
            continue;
        }
        const problem::BufferImage* image = images.find(arg.name);
        if (image == nullptr) {
            return engine::makeError(engine::ErrorKind::Internal,
                                     fmt::format("no generated image for buffer `{}`", arg.name));
        }
        const engine::DType dt = side == Side::Learner ? arg.dtype : engine::referenceDType(arg.dtype);
        const auto& bytes = side == Side::Learner ? image->learner : image->reference;
        const auto elem = static_cast<size_t>(engine::dtypeBytes(dt));
        const size_t size = static_cast<size_t>(arg.storageElements) * elem;
        if (bytes.size() != size) {
            return engine::makeError(engine::ErrorKind::Internal, fmt::format("image of `{}` has {} bytes, expected {}",
                                                                              arg.name, bytes.size(), size));
        }
        auto buf = pool != nullptr ? pool->acquire(ctx, size, elem, plan.forBuffer(arg.name))
                                   : memory::GuardedBuffer::create(ctx, size, elem, plan.forBuffer(arg.name));
        if (!buf) {
            return buf.error();
        }
        if (auto s = buf->fillCanaries(stream); !s) {
            return s.error();
        }
        if (auto s = buf->upload(bytes, stream); !s) {
            return s.error();
        }
        out.args.addPointer(buf->data());
        out.buffers[i] = std::move(*buf);
    }
    return out;
}

LaunchOutcome launchAndWait(const cuda::Kernel& kernel, const problem::LaunchDims& dims, DeviceArgs& args,
                            const cuda::Stream& stream)
{
    LaunchOutcome o;
    cuda::LaunchConfig cfg;
    for (int d = 0; d < 3; ++d) {
        const int64_t gmax = d == 0 ? 2147483647 : 65535;
        if (dims.grid[d] < 1 || dims.grid[d] > gmax || dims.block[d] < 1 || dims.block[d] > 1024) {
            o.error = engine::makeError(
                engine::ErrorKind::BadInput,
                fmt::format("the launch [{}, {}, {}] × [{}, {}, {}] is outside CUDA's limits (grid x ≤ 2^31−1, "
                            "y and z ≤ 65535; at most 1024 threads per block)",
                            dims.grid[0], dims.grid[1], dims.grid[2], dims.block[0], dims.block[1], dims.block[2]));
            return o;
        }
        cfg.grid[d] = static_cast<unsigned>(dims.grid[d]);
        cfg.block[d] = static_cast<unsigned>(dims.block[d]);
    }
    cfg.sharedBytes = static_cast<unsigned>(dims.sharedBytes);
    cuda::clearLastFailure();
    if (auto s = cuda::launch(kernel, cfg, args.args, stream); !s) {
        o.error = s.error();
        o.failure = cuda::lastFailure();
        return o;
    }
    StderrWindow stderrWindow; // a failed device assert reports on stderr
    auto done = stream.synchronize();
    o.printed = drainDevicePrintf(kPrintedKept, o.printedDropped);
    for (std::string& line : stderrWindow.take()) {
        if (o.printed.size() < kPrintedKept) {
            o.printed.push_back(std::move(line));
        } else {
            ++o.printedDropped;
        }
    }
    if (!done) {
        o.error = done.error();
        o.failure = cuda::lastFailure();
        return o;
    }
    o.ok = true;
    return o;
}

engine::Expected<std::vector<std::byte>> download(const DeviceArgs& args, size_t index, const cuda::Stream& stream)
{
    const auto& buf = args.buffers.at(index);
    if (!buf) {
        return engine::makeError(engine::ErrorKind::Internal, "download of a scalar argument");
    }
    std::vector<std::byte> host(buf->bytes());
    if (auto s = buf->download(host, stream); !s) {
        return s.error();
    }
    return host;
}

} // namespace tkm::runner::detail
