// Axis analysis, a small form of Triton's AxisInfo (lib/Analysis/AxisInfo.cpp): for every value, along the
// tile's last (contiguous) dimension, the length of the runs of consecutive integers (contiguity), the power
// of two that divides the first element of each run (divisibility; of a pointer: its byte address) and the
// length of the runs of equal values (constancy). Loads and stores read it to drop run-time tests a chunk
// provably passes: a pointer chunk that lies inside one contiguous run needs no per-element comparison, one
// whose run starts on a multiple of the vector's bytes no alignment test, a mask that is constant over the
// chunk is tested once, and `offsets < n` with contiguous offsets is tested at the chunk's last element only.
// As in Triton, a pointer parameter specialised as 16-byte aligned and an integer one as divisible by 16
// start at 16, a `for` loop's index is divisible by gcd(start, step), and `contiguous < uniform` is constant
// over runs of gcd(contiguity, both divisibilities). Loop-carried values and anything unknown get the safe
// answer (1, 1, 1).

#include "engine/triton/lower/lower_impl.h"

#include <algorithm>
#include <numeric>

namespace tkm::triton::lower {

using ir::OpKind;

namespace {

constexpr int64_t kMaxDiv = int64_t{1} << 30;

int64_t lastExtent(const ir::Type& t) { return t.shape.empty() ? 1 : t.shape.back(); }

/// The largest power of two dividing x (kMaxDiv for 0).
int64_t pow2Divisor(int64_t x)
{
    if (x == 0) {
        return kMaxDiv;
    }
    int64_t d = 1;
    while (d < kMaxDiv && x % (d * 2) == 0) {
        d *= 2;
    }
    return d;
}

class Analysis
{
public:
    Analysis(const ir::Function& f, std::vector<AxisInfo>& out) : m_fn(f), m_info(out)
    {
        m_info.assign(f.values.size(), AxisInfo{});
        for (const ir::KernelParam& p : f.params) {
            if (p.value >= 0 && p.divisibleBy16) {
                m_info[static_cast<size_t>(p.value)].divis = 16;
            }
        }
    }

    void region(const ir::Region& r)
    {
        for (const ir::Op& o : r.ops) {
            op(o);
            if (o.kind == OpKind::For && !o.regions.empty() && !o.regions[0]->args.empty() && o.operands.size() >= 3) {
                loopIndex(o);
            }
            for (const auto& sub : o.regions) {
                region(*sub);
            }
        }
    }

private:
    const ir::Function& m_fn;
    std::vector<AxisInfo>& m_info;

    AxisInfo& at(ir::ValueId v) { return m_info[static_cast<size_t>(v)]; }
    int64_t extent(ir::ValueId v) const { return lastExtent(m_fn.typeOf(v)); }

    /// A for loop's index takes start, start + step, …: divisible by what divides both.
    void loopIndex(const ir::Op& o)
    {
        const ir::ValueId iv = o.regions[0]->args[0];
        if (ir::isInt(m_fn.typeOf(iv).elem)) {
            at(iv) = {1, std::gcd(at(o.operands[0]).divis, at(o.operands[2]).divis), 1};
        }
    }

    /// Constancy of `a < b` / `a >= b` with a contiguous and b uniform (Triton's CmpOp rule): over a run of
    /// g = gcd(contiguity of a, divisibility of a, divisibility of b) aligned elements a stays on one side
    /// of b. 1 when the operands do not have that form.
    static int64_t compareRuns(const AxisInfo& a, const AxisInfo& b)
    {
        if (a.contig < 2 || b.constancy < 2) {
            return 1;
        }
        return std::gcd(std::gcd(a.contig, b.constancy), std::gcd(a.divis, b.divis));
    }

    void set(const ir::Op& o, AxisInfo a)
    {
        const int64_t n = extent(o.results[0]);
        a.contig = std::clamp<int64_t>(a.contig, 1, n);
        a.constancy = std::clamp<int64_t>(a.constancy, 1, n);
        a.divis = std::clamp<int64_t>(a.divis, 1, kMaxDiv);
        a.isConst = a.isConst && a.constancy == n;
        at(o.results[0]) = a;
    }

    void op(const ir::Op& o)
    {
        if (o.results.empty()) {
            return;
        }
        const ir::ValueId r = o.results[0];
        const int64_t n = extent(r);
        auto in = [&](size_t k) { return at(o.operands[k]); };
        switch (o.kind) {
        case OpKind::Constant: {
            const bool integer = !o.ints.empty() && !ir::isFloat(m_fn.typeOf(r).elem);
            const int64_t v = integer ? o.ints[0] : 1;
            set(o, {1, pow2Divisor(v), n, integer, v});
            return;
        }
        case OpKind::Arange: set(o, {n, pow2Divisor(o.ints.empty() ? 0 : o.ints[0]), 1}); return;
        case OpKind::Splat: set(o, {1, in(0).divis, n, in(0).isConst, in(0).value}); return;
        case OpKind::ExpandDims:
        case OpKind::Broadcast: {
            const ir::Type& st = m_fn.typeOf(o.operands[0]);
            const bool lastKept = o.kind == OpKind::Broadcast ? lastExtent(st) == n
                                                              : !st.shape.empty() && lastExtent(st) == n;
            if (st.isScalar() || !lastKept) {
                // the last dimension is new or stretched: constant along it, each element its own run, so the
                // divisibility is every element's — none for values that were consecutive (Triton's rule)
                set(o, {1, in(0).contig > 1 ? 1 : in(0).divis, n, in(0).isConst, in(0).value});
            } else {
                set(o, in(0));
            }
            return;
        }
        case OpKind::Add:
        case OpKind::Sub:
        case OpKind::AddPtr: {
            const AxisInfo a = in(0), b = in(1);
            AxisInfo x;
            x.contig = std::max(std::gcd(a.contig, b.constancy), o.kind == OpKind::Sub ? 1 : std::gcd(a.constancy, b.contig));
            // the runs of the result may be pieces of an operand's longer runs: a piece starts where that run
            // starts plus a multiple of the piece's length
            auto runStart = [&](const AxisInfo& v) { return v.contig > x.contig ? std::gcd(v.divis, x.contig) : v.divis; };
            // a pointer's divisibility is of its byte address, its offset's in elements
            const int64_t scale = o.kind == OpKind::AddPtr ? ir::elemBytes(m_fn.typeOf(o.operands[0]).pointee) : 1;
            x.divis = std::gcd(runStart(a), std::min(kMaxDiv, runStart(b) * scale));
            x.constancy = std::gcd(a.constancy, b.constancy);
            x.isConst = a.isConst && b.isConst && o.kind != OpKind::AddPtr;
            x.value = o.kind == OpKind::Sub ? a.value - b.value : a.value + b.value;
            set(o, x);
            return;
        }
        case OpKind::Mul: {
            const AxisInfo a = in(0), b = in(1);
            if (b.isConst && b.value == 1) {
                set(o, a);
            } else if (a.isConst && a.value == 1) {
                set(o, b);
            } else {
                // k·d times a run of consecutive values (d only divides its first): Triton counts such an operand
                // as divisible by 1
                const int64_t da = a.contig > 1 ? 1 : a.divis, db = b.contig > 1 ? 1 : b.divis;
                set(o, {1, std::min(kMaxDiv, da * db), std::gcd(a.constancy, b.constancy)});
            }
            return;
        }
        case OpKind::Cast:
            if (!ir::isFloat(m_fn.typeOf(r).elem) && !ir::isFloat(m_fn.typeOf(o.operands[0]).elem) &&
                ir::bitWidth(m_fn.typeOf(r).elem) >= ir::bitWidth(m_fn.typeOf(o.operands[0]).elem)) {
                set(o, in(0)); // integer widening keeps runs and constants
            } else {
                set(o, {1, 1, in(0).constancy});
            }
            return;
        case OpKind::Lt:
        case OpKind::Le:
        case OpKind::Gt:
        case OpKind::Ge:
        case OpKind::Eq:
        case OpKind::Ne:
        case OpKind::And:
        case OpKind::Or:
        case OpKind::Xor:
        case OpKind::Select:
        case OpKind::Min:
        case OpKind::Max: {
            int64_t c = n;
            for (size_t k = 0; k < o.operands.size(); ++k) {
                c = std::gcd(c, in(k).constancy);
            }
            if (o.operands.size() == 2 && ir::isInt(m_fn.typeOf(o.operands[0]).elem)) {
                if (o.kind == OpKind::Lt || o.kind == OpKind::Ge) {
                    c = std::max(c, compareRuns(in(0), in(1)));
                } else if (o.kind == OpKind::Gt || o.kind == OpKind::Le) {
                    c = std::max(c, compareRuns(in(1), in(0)));
                }
            }
            set(o, {1, 1, c});
            return;
        }
        default: return; // unknown: (1, 1, 1)
        }
    }
};

} // namespace

std::vector<AxisInfo> analyseAxes(const ir::Function& f)
{
    std::vector<AxisInfo> out;
    Analysis a(f, out);
    a.region(f.body);
    return out;
}

} // namespace tkm::triton::lower
