// Warnings Triton never gives: the wrong neutral element in `other=` for the reduction that consumes a load,
// an unmasked access whose offsets grow with tl.program_id while the kernel has a size argument, and a mask
// that is stretched along the rows of a 2-D block (only the columns are checked).
#include "engine/triton/check/checker_impl.h"

#include <cmath>

namespace tkm::triton::sema {

void Checker::noteLoad(ir::ValueId result, LoadFact f)
{
    m_loads[result] = std::move(f);
}

void Checker::lintReduceInput(const Value& x, const std::string& kind, SourceRange r)
{
    if (!x.isTensor()) {
        return;
    }
    ir::ValueId id = x.id;
    for (auto c = m_castOf.find(id); c != m_castOf.end(); c = m_castOf.find(id)) {
        id = c->second;
    }
    auto it = m_loads.find(id);
    if (it == m_loads.end() || !it->second.hasMask) {
        return;
    }
    const LoadFact& f = it->second;
    double neutral = 0;
    std::string neutralText = "0";
    std::string why;
    if (kind == "max" || kind == "argmax") {
        neutral = -INFINITY;
        neutralText = "-float('inf')";
        why = " and win over negative rows";
    } else if (kind == "min" || kind == "argmin") {
        neutral = INFINITY;
        neutralText = "float('inf')";
        why = " and win over positive rows";
    } else if (kind == "sum" || kind == "xor_sum") {
        neutral = 0;
        neutralText = "0";
        why = " in the sum";
    } else {
        return;
    }
    if (!f.hasOther) {
        if (kind != "sum") {
            warn(DiagId::WarnMaskNoOther, f.loadRange, {"tl." + kind, neutralText});
        }
        return;
    }
    if (!f.otherConst || f.otherValue == neutral) {
        return;
    }
    DiagNote n;
    n.range = r;
    n.message = "the masked load feeds tl." + kind + " here";
    warn(DiagId::WarnOtherNotNeutral, f.otherRange, {f.otherText, "tl." + kind, why, neutralText}, {n});
}

void Checker::lintMemAccess(const Value& ptr, bool hasMask, const char* what, SourceRange r)
{
    // Only a block indexed by program_id · BLOCK (a row base times a runtime stride may be a full row).
    if (hasMask || m_warnedNoMask || m_sizeParams.empty() || ptr.type.isScalar() || !m_pidBlock.count(ptr.id) ||
        m_wrapped.count(ptr.id)) {
        return;
    }
    std::string size = m_sizeParams.front();
    for (const std::string& p : m_sizeParams) {
        if (p.rfind("stride", 0) != 0) {
            size = p;
            break;
        }
    }
    m_warnedNoMask = true;
    warn(DiagId::WarnNoMask, r, {what, size});
}

void Checker::lintMaskBroadcast(const Value& mask, const Value& ptr, SourceRange r)
{
    // A mask [1, N] (columns only) on a [M, N] block whose rows move with the program: the rows are unchecked.
    if (!mask.isTensor() || mask.type.shape.size() != 2 || ptr.type.shape.size() != 2) {
        return;
    }
    if (mask.type.shape[0] != 1 || ptr.type.shape[0] <= 1 || mask.type.shape[1] != ptr.type.shape[1]) {
        return;
    }
    if (!m_pidDerived.count(ptr.id) || m_wrapped.count(ptr.id)) {
        return;
    }
    warn(DiagId::WarnMaskBroadcast, r, {mask.type.str(), shapeText(ptr.type.shape)});
}

} // namespace tkm::triton::sema
