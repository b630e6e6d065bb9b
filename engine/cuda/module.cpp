#include "engine/cuda/module.h"

#include "engine/cuda/driver.h"

#include <fmt/format.h>

#include <cstring>
#include <utility>

namespace tkm::cuda {

engine::Expected<Module> Module::load(std::span<const char> cubin)
{
    const Driver& d = Driver::instance();
    if (!d.ready()) {
        return d.unavailableError();
    }
    if (cubin.empty()) {
        return engine::makeError(engine::ErrorKind::Internal, "Module::load was given an empty CUBIN.");
    }
    Module m;
    if (auto s = check(api().cuModuleLoadData(&m.m_module, cubin.data()), "cuModuleLoadData"); !s) {
        m.m_module = nullptr;
        return s.error();
    }
    return m;
}

Module::~Module()
{
    if (m_module != nullptr) {
        api().cuModuleUnload(m_module);
    }
}

Module::Module(Module&& other) noexcept : m_module(std::exchange(other.m_module, nullptr)) {}

Module& Module::operator=(Module&& other) noexcept
{
    if (this != &other) {
        if (m_module != nullptr) {
            api().cuModuleUnload(m_module);
        }
        m_module = std::exchange(other.m_module, nullptr);
    }
    return *this;
}

engine::Expected<Kernel> Module::kernel(const std::string& loweredName) const
{
    const DriverApi& a = api();
    Kernel k;
    k.m_name = loweredName;
    if (auto s = check(a.cuModuleGetFunction(&k.m_func, m_module, loweredName.c_str()), "cuModuleGetFunction"); !s) {
        return s.error();
    }
    int v = 0;
    if (a.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k.m_func) == CUDA_SUCCESS) {
        k.m_registers = v;
    }
    if (a.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k.m_func) == CUDA_SUCCESS) {
        k.m_maxThreads = v;
    }
    if (a.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k.m_func) == CUDA_SUCCESS) {
        k.m_staticShared = v;
    }
    if (a.cuFuncGetParamInfo != nullptr) {
        // Index past the last parameter answers CUDA_ERROR_INVALID_VALUE: that ends the list.
        for (size_t i = 0; i < 4096; ++i) {
            ParamInfo p;
            const CUresult rc = a.cuFuncGetParamInfo(k.m_func, i, &p.offset, &p.size);
            if (rc == CUDA_ERROR_INVALID_VALUE) {
                k.m_paramsKnown = true;
                break;
            }
            if (rc != CUDA_SUCCESS) {
                k.m_params.clear();
                break;
            }
            k.m_params.push_back(p);
        }
    }
    return k;
}

void KernelArgs::addPointer(CUdeviceptr ptr)
{
    addBytes(&ptr, sizeof ptr);
}

void KernelArgs::addBytes(const void* value, size_t size)
{
    std::vector<std::byte> bytes(size);
    std::memcpy(bytes.data(), value, size);
    m_values.push_back(std::move(bytes));
}

void** KernelArgs::pointers()
{
    m_pointers.clear();
    for (auto& v : m_values) {
        m_pointers.push_back(v.data());
    }
    return m_pointers.data();
}

engine::Status checkArgs(const Kernel& kernel, const KernelArgs& args)
{
    if (!kernel.paramsKnown()) {
        return {};
    }
    const auto& params = kernel.params();
    if (params.size() != args.count()) {
        return engine::makeError(engine::ErrorKind::BadInput,
                                 fmt::format("kernel `{}` takes {} parameters but {} arguments were given",
                                             kernel.name(), params.size(), args.count()));
    }
    for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].size != args.sizeOf(i)) {
            return engine::makeError(
                engine::ErrorKind::BadInput,
                fmt::format("argument {} of `{}` is {} bytes but the kernel's parameter {} is {} bytes", i + 1,
                            kernel.name(), args.sizeOf(i), i + 1, params[i].size));
        }
    }
    return {};
}

engine::Status launch(const Kernel& kernel, const LaunchConfig& config, KernelArgs& args, const Stream& stream)
{
    if (auto s = checkArgs(kernel, args); !s) {
        return s;
    }
    const unsigned threads = config.block[0] * config.block[1] * config.block[2];
    if (kernel.maxThreadsPerBlock() > 0 && threads > static_cast<unsigned>(kernel.maxThreadsPerBlock())) {
        return engine::makeError(
            engine::ErrorKind::BadInput,
            fmt::format("the block has {} threads but `{}` can run at most {} per block (it uses {} registers per "
                        "thread): use fewer warps or fewer registers",
                        threads, kernel.name(), kernel.maxThreadsPerBlock(), kernel.registers()));
    }
    const DriverApi& a = api();
    if (config.sharedBytes > 48 * 1024) {
        // Above 48 KiB dynamic shared memory must be opted in per kernel.
        if (auto s = check(a.cuFuncSetAttribute(kernel.handle(), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                static_cast<int>(config.sharedBytes)),
                           "cuFuncSetAttribute");
            !s) {
            return s;
        }
    }
    return check(a.cuLaunchKernel(kernel.handle(), config.grid[0], config.grid[1], config.grid[2], config.block[0],
                                  config.block[1], config.block[2], config.sharedBytes, stream.handle(),
                                  args.pointers(), nullptr),
                 "cuLaunchKernel");
}

} // namespace tkm::cuda
