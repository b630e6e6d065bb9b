#pragma once
// A loaded CUBIN (Module), one kernel in it (Kernel), kernel arguments packed as bytes (KernelArgs), and the
// launch itself. Before a launch the argument sizes are checked against the kernel's parameters with
// cuFuncGetParamInfo (CUDA 12.4+ drivers); with an older driver that check is skipped (Kernel::paramsKnown()).

#include "engine/common/error.h"
#include "engine/cuda/context.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tkm::cuda {

/// A kernel parameter as the CUBIN describes it.
struct ParamInfo
{
    size_t offset = 0; ///< [bytes] in the parameter buffer
    size_t size = 0;   ///< [bytes]
};

/// A kernel (CUfunction) of a loaded module; valid while its Module lives.
class Kernel
{
public:
    Kernel() = default;                                               ///< empty
    CUfunction handle() const { return m_func; }                      ///< raw handle
    const std::string& name() const { return m_name; }                ///< entry name as looked up
    bool paramsKnown() const { return m_paramsKnown; }                ///< cuFuncGetParamInfo was available
    const std::vector<ParamInfo>& params() const { return m_params; } ///< when paramsKnown()
    int registers() const { return m_registers; }                     ///< per thread
    int maxThreadsPerBlock() const { return m_maxThreads; }           ///< for this kernel [threads]
    int64_t staticSharedBytes() const { return m_staticShared; }      ///< [bytes]

private:
    friend class Module;
    CUfunction m_func = nullptr;
    std::string m_name;
    bool m_paramsKnown = false;
    std::vector<ParamInfo> m_params;
    int m_registers = 0;
    int m_maxThreads = 0;
    int64_t m_staticShared = 0;
};

/// A CUBIN loaded into the current context.
class Module
{
public:
    /// Loads a CUBIN image (cuModuleLoadData). Errors: Cuda (e.g. CUDA_ERROR_NO_BINARY_FOR_GPU for a wrong arch).
    static engine::Expected<Module> load(std::span<const char> cubin);

    Module() = default;                         ///< empty
    ~Module();                                  ///< unloads
    Module(Module&& other) noexcept;            ///< moves ownership
    Module& operator=(Module&& other) noexcept; ///< moves ownership
    Module(const Module&) = delete;             ///< owner: not copyable
    Module& operator=(const Module&) = delete;  ///< owner: not copyable

    /// Looks up a kernel by its lowered (mangled, or plain extern "C") name and reads its parameter layout.
    engine::Expected<Kernel> kernel(const std::string& loweredName) const;
    CUmodule handle() const { return m_module; } ///< raw handle

private:
    CUmodule m_module = nullptr;
};

/// Kernel arguments in parameter order, each stored as its own bytes (pointers as CUdeviceptr, scalars by value).
class KernelArgs
{
public:
    /// Appends a device pointer (8 bytes).
    void addPointer(CUdeviceptr ptr);
    /// Appends a scalar of `size` bytes copied from `value`.
    void addBytes(const void* value, size_t size);
    /// Appends a trivially copyable value.
    template <class T> void add(const T& value) { addBytes(&value, sizeof(T)); }
    size_t count() const { return m_values.size(); }             ///< number of arguments
    size_t sizeOf(size_t i) const { return m_values[i].size(); } ///< bytes of argument i
    /// The void* array cuLaunchKernel wants (pointers into this object: keep it alive and unchanged).
    void** pointers();

private:
    std::vector<std::vector<std::byte>> m_values;
    std::vector<void*> m_pointers;
};

/// Launch geometry.
struct LaunchConfig
{
    std::array<unsigned, 3> grid{1, 1, 1};  ///< thread blocks (programs) per dimension
    std::array<unsigned, 3> block{1, 1, 1}; ///< threads per dimension
    unsigned sharedBytes = 0;               ///< dynamic shared memory [bytes]
};

/// Checks `args` against the kernel's parameters (count and each size) when they are known.
/// Error (BadInput): "kernel `f` takes 4 parameters but 3 arguments were given" or
/// "argument 2 of `f` is 8 bytes but the kernel's parameter 2 is 4 bytes".
engine::Status checkArgs(const Kernel& kernel, const KernelArgs& args);

/// Checks the arguments, opts in to more than 48 KiB of dynamic shared memory when asked, and launches on
/// `stream` (asynchronous: a fault shows at the next synchronisation). Errors: BadInput for argument
/// mismatches or a block too large for the kernel, Cuda for a failed launch.
engine::Status launch(const Kernel& kernel, const LaunchConfig& config, KernelArgs& args, const Stream& stream);

} // namespace tkm::cuda
