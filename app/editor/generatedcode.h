#pragma once
// What a learner's Triton kernel became, computed in-process with the Qt-free engine (no GPU, no worker): parse,
// bind to the exercise, check and lower (engine/triton, TRITON.md) give the CUDA C++ of one program and the
// Triton line each generated line came from; NVRTC compiles that source for the virtual architecture to PTX
// whose `.loc` directives (-lineinfo) name the Triton line; nvdisasm, when the toolkit has it, turns the CUBIN
// into SASS with the same line info. Parse, check and lower take milliseconds; PTX and SASS take an NVRTC
// compile (0.1–1 s), so callers run them off the UI thread.

#include "app/editor/kerneleditor.h"

#include <QList>
#include <QPair>
#include <QString>

#include <memory>

namespace tkm::problem {
struct ExerciseSpec;
}

namespace tkm::app {

/// A listing whose lines came from Triton lines.
struct MappedListing
{
    QString text;            ///< the listing, one line per row
    QList<int> tritonLineOf; ///< per listing line [0-based index]: the Triton line [1-based], 0 when none
    QString message;         ///< why `text` is empty, for the learner

    /// Listing lines [1-based, ascending] that came from `tritonLine` [1-based].
    QList<int> linesFrom(int tritonLine) const;
    /// The Triton line [1-based] listing line `line` [1-based] came from (0 when none).
    int tritonLine(int line) const;
};

/// The lowering of one kernel, as shown beside the editor.
struct TritonLowering
{
    bool ok = false;                     ///< the kernel parsed, bound, checked and lowered
    MappedListing cuda;                  ///< the generated CUDA of one program (runtime header left out)
    QList<EditorDiagnostic> diagnostics; ///< parse/bind/check problems with their ranges and notes
    QString fullSource;                  ///< the complete translation unit NVRTC compiles (runtime included)
    QString kernelName;                  ///< its extern "C" entry
    QString caseName;                    ///< the exercise case the constexprs were bound for
};

/// Lowers `source` (a kernel.py) for `spec`'s Triton track with the meta-parameter values `meta` (defaults for
/// the rest), bound to the spec's performance case (else its first case). Never throws; problems come back as diagnostics or a message.
TritonLowering lowerTriton(const problem::ExerciseSpec& spec, const QString& source,
                           const QList<QPair<QString, qint64>>& meta);

/// PTX of `lowering` for compute capability `cc` (90: the H200's), lines mapped to Triton through `.loc`.
/// Blocking (an NVRTC compile); safe off the UI thread.
MappedListing ptxOf(const TritonLowering& lowering, int cc = 90);

/// SASS of `lowering` through compile::disassemble() (nvdisasm -g, engine/compile/sass.h), when the CUDA toolkit
/// has nvdisasm; otherwise a listing whose message says what is missing. Blocking.
MappedListing sassOf(const TritonLowering& lowering, int cc = 90);

/// Maps PTX text to Triton lines: `.file` entries naming `fileName` and the `.loc` before each instruction.
MappedListing mapPtx(const QString& ptx, const QString& fileName = QStringLiteral("kernel.py"));

} // namespace tkm::app
