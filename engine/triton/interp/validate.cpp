// A structural check of the IR before it runs, so a checker bug becomes an Unsupported fault naming the op and
// its line instead of an out-of-range read on the host: value ids in range, operand counts, regions of
// control flow, and lane counts of elementwise operands (1 or the result's), numeric kinds (int vs float)
// that the evaluators rely on. It does not re-check Triton's typing rules: that is the checker's job.
#include "engine/triton/interp/detail.h"

#include <optional>

namespace tkm::triton::interp::detail {

using ir::OpKind;

namespace {

/// What is wrong with `op`, or nothing.
class Validator
{
public:
    explicit Validator(const ir::Function& fn) : m_fn(fn) {}

    std::optional<std::string> region(const ir::Region& r)
    {
        for (ir::ValueId v : r.args) {
            if (!valid(v)) {
                return "a region argument is not a value";
            }
        }
        for (const ir::Op& op : r.ops) {
            if (auto why = check(op)) {
                m_bad = &op;
                return why;
            }
            for (const auto& sub : op.regions) {
                if (!sub) {
                    m_bad = &op;
                    return std::string("a missing region");
                }
                if (auto why = region(*sub)) {
                    return why;
                }
            }
        }
        return std::nullopt;
    }

    const ir::Op* bad() const { return m_bad; }

private:
    bool valid(ir::ValueId v) const { return v >= 0 && static_cast<size_t>(v) < m_fn.values.size(); }
    const ir::Type& type(ir::ValueId v) const { return m_fn.typeOf(v); }

    /// Operands [0, required) must be values; later ones values or kNoValue.
    std::optional<std::string> operands(const ir::Op& op, size_t required) const
    {
        if (op.operands.size() < required) {
            return "it has " + std::to_string(op.operands.size()) + " operands, expected " + std::to_string(required);
        }
        for (size_t j = 0; j < op.operands.size(); ++j) {
            if (!(valid(op.operands[j]) || (j >= required && op.operands[j] == ir::kNoValue))) {
                return "operand " + std::to_string(j) + " is not a value";
            }
        }
        return std::nullopt;
    }

    /// Each given operand has 1 lane or the result's lanes, and (when `sameKind`) the result's int/float kind.
    std::optional<std::string> lanes(const ir::Op& op, size_t from, size_t to, bool sameKind) const
    {
        const ir::Type& rt = type(op.results[0]);
        for (size_t j = from; j < std::min(to, op.operands.size()); ++j) {
            if (op.operands[j] == ir::kNoValue) {
                continue;
            }
            const ir::Type& t = type(op.operands[j]);
            if (t.numel() != 1 && t.numel() != rt.numel()) {
                return "operand " + std::to_string(j) + " has " + std::to_string(t.numel()) + " lanes, the result " +
                       std::to_string(rt.numel());
            }
            if (sameKind && (ir::isFloat(t.elem) != ir::isFloat(rt.elem) || t.isPtr() != rt.isPtr())) {
                return "operand " + std::to_string(j) + " is " + t.str() + ", the result " + rt.str();
            }
        }
        return std::nullopt;
    }

    /// Operand j has the result's int/float/pointer kind.
    std::optional<std::string> sameKind(const ir::Op& op, size_t j) const
    {
        const ir::Type& t = type(op.operands[j]);
        const ir::Type& rt = type(op.results[0]);
        if (ir::isFloat(t.elem) != ir::isFloat(rt.elem) || t.isPtr() != rt.isPtr()) {
            return "operand " + std::to_string(j) + " is " + t.str() + ", the result " + rt.str();
        }
        return std::nullopt;
    }

    /// Operands [from, to) are integer scalars or tiles (conditions, loop bounds, masks).
    std::optional<std::string> integers(const ir::Op& op, size_t from, size_t to) const
    {
        for (size_t j = from; j < std::min(to, op.operands.size()); ++j) {
            if (op.operands[j] != ir::kNoValue && !ir::isInt(type(op.operands[j]).elem)) {
                return "operand " + std::to_string(j) + " is " + type(op.operands[j]).str() + ", not an integer";
            }
        }
        return std::nullopt;
    }

    /// Pointers convert only to pointers (Cast/Bitcast), through PtrToInt/IntToPtr to and from integers.
    std::optional<std::string> conversion(const ir::Op& op) const
    {
        bool fromPtr = type(op.operands[0]).isPtr();
        bool toPtr = type(op.results[0]).isPtr();
        bool ok = op.kind == OpKind::PtrToInt   ? fromPtr && ir::isInt(type(op.results[0]).elem)
                  : op.kind == OpKind::IntToPtr ? toPtr && ir::isInt(type(op.operands[0]).elem)
                                                : fromPtr == toPtr;
        if (op.kind == OpKind::Bitcast && !fromPtr &&
            ir::bitWidth(type(op.operands[0]).elem) != ir::bitWidth(type(op.results[0]).elem)) {
            ok = false;
        }
        return ok ? std::nullopt
                  : std::optional<std::string>("it converts " + type(op.operands[0]).str() + " to " +
                                               type(op.results[0]).str());
    }

    std::optional<std::string> shapeOp(const ir::Op& op) const
    {
        const ir::Type& at = type(op.operands[0]);
        const ir::Type& rt = type(op.results[0]);
        if (auto why = sameKind(op, 0)) {
            return why;
        }
        if ((op.kind == OpKind::ExpandDims || op.kind == OpKind::Reshape) && at.numel() != rt.numel()) {
            return std::string("it changes the number of lanes");
        }
        if (op.kind == OpKind::Trans) {
            if (op.ints.size() != rt.shape.size() || at.shape.size() != rt.shape.size()) {
                return std::string("its permutation does not match the rank");
            }
            for (int64_t d : op.ints) {
                if (d < 0 || d >= static_cast<int64_t>(at.shape.size())) {
                    return std::string("its permutation is out of range");
                }
            }
        }
        if (op.kind == OpKind::Broadcast) {
            if (at.shape.size() > rt.shape.size()) {
                return std::string("it broadcasts to a lower rank");
            }
            size_t pad = rt.shape.size() - at.shape.size();
            for (size_t d = 0; d < at.shape.size(); ++d) {
                if (at.shape[d] != 1 && at.shape[d] != rt.shape[d + pad]) {
                    return "it cannot broadcast " + at.str() + " to " + rt.str();
                }
            }
        }
        return std::nullopt;
    }

    std::optional<std::string> memoryOp(const ir::Op& op) const
    {
        const ir::Type& pt = type(op.operands[0]);
        if (!pt.isPtr()) {
            return "operand 0 is " + pt.str() + ", not a pointer";
        }
        bool f = ir::isFloat(pt.pointee);
        int64_t n = pt.numel();
        size_t valueFrom = op.kind == OpKind::Load ? 2 : 1;
        size_t valueTo = op.kind == OpKind::AtomicCAS ? 3 : valueFrom + 1;
        if (op.kind == OpKind::Store) {
            n = std::max(n, type(op.operands[1]).numel());
        } else if (type(op.results[0]).numel() != n && n != 1) {
            return std::string("its result and pointer differ in lanes");
        } else {
            n = type(op.results[0]).numel();
            if (ir::isFloat(type(op.results[0]).elem) != f) {
                return "its result is not of the pointee type " + std::string(ir::elemName(pt.pointee));
            }
        }
        for (size_t j = 0; j < op.operands.size(); ++j) {
            ir::ValueId v = op.operands[j];
            if (v == ir::kNoValue) {
                continue;
            }
            if (type(v).numel() != 1 && type(v).numel() != n) {
                return "operand " + std::to_string(j) + " has " + std::to_string(type(v).numel()) +
                       " lanes, the access " + std::to_string(n);
            }
            bool isValue = j >= valueFrom && j < valueTo;
            if (isValue && ir::isFloat(type(v).elem) != f) {
                return "operand " + std::to_string(j) + " is not of the pointee type " +
                       std::string(ir::elemName(pt.pointee));
            }
            if (j > 0 && !isValue && !ir::isInt(type(v).elem)) {
                return "its mask is " + type(v).str();
            }
        }
        return std::nullopt;
    }

    std::optional<std::string> check(const ir::Op& op) const
    {
        for (ir::ValueId v : op.results) {
            if (!valid(v)) {
                return std::string("a result is not a value");
            }
        }
        bool hasResult = !op.results.empty();
        auto need = [&](size_t n, bool result) -> std::optional<std::string> {
            if (result && !hasResult) {
                return std::string("it has no result");
            }
            return operands(op, n);
        };
        switch (op.kind) {
        case OpKind::Constant:
            return need(0, true);
        case OpKind::ProgramId:
        case OpKind::NumPrograms:
            if (auto why = need(0, true)) {
                return why;
            }
            return ir::isInt(type(op.results[0]).elem) ? std::nullopt
                                                       : std::optional<std::string>("its result is not an integer");
        case OpKind::Arange: {
            if (auto why = need(0, true)) {
                return why;
            }
            return op.ints.size() < 2 || op.ints[1] - op.ints[0] != type(op.results[0]).numel()
                       ? std::optional<std::string>("its range does not match its type")
                       : std::nullopt;
        }
        case OpKind::Splat:
        case OpKind::ExpandDims:
        case OpKind::Reshape:
        case OpKind::Broadcast:
        case OpKind::Trans:
            if (auto why = need(1, true)) {
                return why;
            }
            return shapeOp(op);
        case OpKind::Join:
        case OpKind::Cat: {
            if (auto why = need(2, true)) {
                return why;
            }
            if (auto why = sameKind(op, 0)) {
                return why;
            }
            if (auto why = sameKind(op, 1)) {
                return why;
            }
            return 2 * type(op.operands[0]).numel() != type(op.results[0]).numel()
                       ? std::optional<std::string>("its result is not twice its operand")
                       : std::nullopt;
        }
        case OpKind::Load:
        case OpKind::Store:
        case OpKind::AtomicRMW:
        case OpKind::AtomicCAS:
            if (auto why = need(op.kind == OpKind::Load        ? 1
                                : op.kind == OpKind::AtomicCAS ? 3
                                                               : 2,
                                op.kind != OpKind::Store)) {
                return why;
            }
            return memoryOp(op);
        case OpKind::Reduce:
        case OpKind::Scan: {
            if (auto why = need(1, true)) {
                return why;
            }
            auto rank = static_cast<int64_t>(type(op.operands[0]).shape.size());
            int64_t axis = op.ints.empty() ? 0 : op.ints[0];
            if (rank > 0 && (axis < -rank || axis >= rank)) {
                return std::string("its axis is out of range");
            }
            int64_t extent =
                rank > 0 ? type(op.operands[0]).shape[static_cast<size_t>(axis < 0 ? axis + rank : axis)] : 1;
            int64_t expect = type(op.operands[0]).numel() / (op.kind == OpKind::Reduce ? extent : 1);
            return type(op.results[0]).numel() != expect ? std::optional<std::string>("its result has the wrong lanes")
                                                         : std::nullopt;
        }
        case OpKind::Dot: {
            if (auto why = need(2, true)) {
                return why;
            }
            const auto& a = type(op.operands[0]).shape;
            const auto& b = type(op.operands[1]).shape;
            const auto& r = type(op.results[0]).shape;
            bool ok = a.size() == 2 && b.size() == 2 && r.size() == 2 && a[1] == b[0] && r[0] == a[0] && r[1] == b[1];
            if (op.operands.size() > 2 && op.operands[2] != ir::kNoValue &&
                (type(op.operands[2]).shape != r || sameKind(op, 2))) {
                ok = false;
            }
            if (ir::isFloat(type(op.operands[0]).elem) != ir::isFloat(type(op.operands[1]).elem) || sameKind(op, 0)) {
                ok = false;
            }
            return ok ? std::nullopt : std::optional<std::string>("its operand shapes or types do not multiply");
        }
        case OpKind::Print:
        case OpKind::Yield:
        case OpKind::Break:
            return operands(op, 0);
        case OpKind::Assert:
        case OpKind::Condition:
            if (auto why = operands(op, 1)) {
                return why;
            }
            return integers(op, 0, 1);
        case OpKind::For:
            if (auto why = operands(op, 3)) {
                return why;
            }
            if (op.regions.size() != 1 || !op.regions[0] || op.regions[0]->args.size() != op.operands.size() - 2 ||
                op.results.size() != op.operands.size() - 3) {
                return std::string("its region does not match its carried values");
            }
            if (!ir::isInt(type(op.regions[0]->args[0]).elem)) {
                return std::string("its induction variable is not an integer");
            }
            return integers(op, 0, 3);
        case OpKind::While:
            if (op.regions.size() != 2 || !op.regions[0] || !op.regions[1] ||
                op.regions[0]->args.size() != op.operands.size()) {
                return std::string("its regions do not match its carried values");
            }
            return operands(op, 0);
        case OpKind::If:
            if (op.regions.empty() || (!op.results.empty() && op.regions.size() < 2)) {
                return std::string("it lacks a branch");
            }
            if (auto why = operands(op, 1)) {
                return why;
            }
            return integers(op, 0, 1);
        case OpKind::Select:
            if (auto why = need(3, true)) {
                return why;
            }
            if (auto why = lanes(op, 0, 1, false)) {
                return why;
            }
            if (auto why = integers(op, 0, 1)) {
                return why;
            }
            return lanes(op, 1, 3, true);
        case OpKind::AddPtr:
            if (auto why = need(2, true)) {
                return why;
            }
            if (auto why = integers(op, 1, 2)) {
                return why;
            }
            if (!type(op.operands[0]).isPtr() || !type(op.results[0]).isPtr()) {
                return std::string("it does not add to a pointer");
            }
            return lanes(op, 0, 2, false);
        case OpKind::Eq:
        case OpKind::Ne:
        case OpKind::Lt:
        case OpKind::Le:
        case OpKind::Gt:
        case OpKind::Ge:
            if (auto why = need(2, true)) {
                return why;
            }
            return lanes(op, 0, 2, false);
        case OpKind::Cast:
        case OpKind::Bitcast:
        case OpKind::PtrToInt:
        case OpKind::IntToPtr:
            if (auto why = need(1, true)) {
                return why;
            }
            if (auto why = conversion(op)) {
                return why;
            }
            return lanes(op, 0, 1, false);
        default: { // elementwise arithmetic and math: operands of the result's kind
            bool unary = op.kind == OpKind::Neg || op.kind == OpKind::Not ||
                         (op.kind >= OpKind::Exp && op.kind <= OpKind::Sigmoid);
            size_t n = unary ? 1 : op.kind == OpKind::Fma ? 3 : 2;
            if (auto why = need(n, true)) {
                return why;
            }
            return lanes(op, 0, n, true);
        }
        }
    }

    const ir::Function& m_fn;
    const ir::Op* m_bad = nullptr;
};

} // namespace

bool validate(Context& ctx)
{
    for (const ir::KernelParam& p : ctx.fn.params) {
        if (p.value != ir::kNoValue && (p.value < 0 || static_cast<size_t>(p.value) >= ctx.fn.values.size())) {
            Fault f;
            f.kind = FaultKind::Unsupported;
            f.message = "internal error: parameter `" + p.name + "` has no value in the IR";
            ctx.result.fault = std::move(f);
            return false;
        }
    }
    Validator v(ctx.fn);
    if (auto why = v.region(ctx.fn.body)) {
        const ir::Op* op = v.bad();
        if (op) {
            raise(ctx, FaultKind::Unsupported, *op,
                  std::string("internal error: the interpreter cannot run this `") + ir::opName(op->kind) +
                      "` op: " + *why);
        } else {
            Fault f;
            f.kind = FaultKind::Unsupported;
            f.message = "internal error: " + *why;
            ctx.result.fault = std::move(f);
        }
        return false;
    }
    return true;
}

} // namespace tkm::triton::interp::detail
