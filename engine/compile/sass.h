#pragma once
// SASS of a CUBIN through the CUDA toolkit's nvdisasm, mapped to source lines: `nvdisasm -g -c` writes, before
// the instructions of each source line, a block of `//## File "<path>", line N` comments (one per inlined frame,
// innermost first, the call site last; with -gi a frame may end `inlined at "<path>", line M`). Seen on the H200
// (CUDA 13.0, tests/data/sass): with -g the vector loads of an inlined tile-runtime helper name only the runtime
// header's line, not the Triton line that called it. nvdisasm is looked for in
// the toolkit of NVRTC (engine::cudaRoot(), then the folders above the loaded libnvrtc), CUDA_HOME, CUDA_PATH and
// PATH; CI machines often lack it, so its absence is an error value with a sentence, never a crash.

#include "engine/common/error.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::compile {

/// A SASS listing and the source line of each of its lines.
struct SassListing
{
    std::string text;              ///< nvdisasm's output, one listing line per row
    std::vector<int> sourceLineOf; ///< per listing line [0-based]: the line [1-based] of the mapped file, 0 none
    /// Listing lines [1-based, ascending] that hold an instruction (`/*0040*/ …`) mapped to `sourceLine`.
    std::vector<int> instructionsFrom(int sourceLine) const;
};

/// Where nvdisasm is (toolkit of NVRTC, CUDA_HOME/bin, CUDA_PATH/bin, PATH); empty when none of them has it.
std::filesystem::path findNvdisasm();

/// Maps `nvdisasm -g`/`-gi` output to lines of `fileName` (compared by file name, so "kernel.py" matches any
/// folder): each `//## File` block maps the lines after it to its first frame in `fileName`, or to the `inlined at`
/// line in `fileName` of a frame from another file; a block that names only other files (a runtime helper without
/// its call site) keeps the line of the block before it. Lines before the first of ours, and after a function's
/// header, map to 0.
SassListing mapSass(std::string_view nvdisasmOutput, std::string_view fileName);

/// Disassembles `cubin` (an sm_XY ELF) with `nvdisasm -g -c` and maps it to `fileName`'s lines (mapSass).
/// Errors: NotFound when nvdisasm is absent (the message says where it was looked for and that PTX needs no
/// tool), Io when the temporary CUBIN cannot be written, Internal when nvdisasm fails or runs past 20 s.
engine::Expected<SassListing> disassemble(const std::vector<char>& cubin, std::string_view fileName);

} // namespace tkm::compile
