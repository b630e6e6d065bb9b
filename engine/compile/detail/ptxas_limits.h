#pragma once
// Resource errors of ptxas in one sentence (internal to engine/compile). NVRTC runs ptxas inside itself and, when
// ptxas refuses a kernel for its static shared memory ("uses too much shared data (0x40000 bytes, 0xc000 max)")
// or its constant data ("File uses too much global constant data (0x13880 bytes, 0x10000 max)"), the program log
// holds only ptxas's info lines and no error at all. So after such a failure the program is compiled to PTX
// (-arch=compute_XX: no ptxas), the `.shared` and `.const` declarations are summed, and each limit that is
// exceeded becomes one Diagnostic on the line that declares the largest array:
//   "the kernel asks for 256 KiB of shared memory; an sm_90 block may have at most 227 KiB"
// Limits: 48 KiB of static shared memory per kernel (ptxas's 0xc000), the opt-in shared memory per block of the
// architecture (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability": 227 KiB on sm_90
// and sm_100, 163 KiB on sm_80/87, 99 KiB on sm_86/89/120, 64 KiB on sm_75, 96 KiB on sm_70) and 64 KiB of
// constant memory.

#include "engine/compile/compiler.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::compile::detail {

/// One module-scope variable of a PTX module in the shared or constant state space.
struct PtxVariable
{
    std::string name;   ///< the PTX name (mangled for function-local statics, e.g. _ZZ10vector_addE3big)
    std::string source; ///< the name as the source writes it ("big")
    int64_t bytes = 0;  ///< [bytes]
    bool shared = true; ///< .shared (true) or .const (false)
};

/// The `.shared` (not `.extern`) and `.const` declarations of a PTX module, e.g.
/// ".shared .align 4 .b8 _ZZ10vector_addE3big[262144];" or ".const .align 4 .f32 table[20000];".
std::vector<PtxVariable> staticVariables(std::string_view ptx);

/// Largest shared memory one block may have on compute capability `cc` with the opt-in attribute [bytes].
int64_t maxSharedPerBlock(int cc);

/// Static shared memory ptxas accepts in one kernel [bytes] (0xc000).
inline constexpr int64_t kMaxStaticShared = 48 * 1024;
/// Constant memory a module may declare [bytes] (0x10000).
inline constexpr int64_t kMaxConstant = 64 * 1024;

/// The sentences for the limits `vars` exceed on `cc`, each on the line of `source` that declares the largest such
/// variable (column of its name; line 0 when it cannot be found). Empty when no limit is exceeded.
std::vector<Diagnostic> resourceDiagnostics(const std::vector<PtxVariable>& vars, int cc, std::string_view source,
                                            const std::string& sourceName);

} // namespace tkm::compile::detail
