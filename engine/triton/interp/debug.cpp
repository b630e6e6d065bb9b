// tl.device_print and tl.device_assert. Print lines follow the GPU's device_print format (PrintOpToLLVM), one
// line per lane: "pid (0, 0, 0) idx (3) x: 1.5" ("(operand i) " before the value when several operands are
// printed), bounded by RunOptions::maxPrintLines (the rest are counted). Two deliberate differences from the
// GPU's printf: indices are not padded to the extent's width and floats print as their shortest round-trip
// decimal ("1.5", where %f gives "1.500000"). A false assert lane stops the run; unlike Triton, which drops
// device_assert unless debug is on, the interpreter always checks (it is the reference executor).
#include "engine/triton/interp/detail.h"

#include <algorithm>

namespace tkm::triton::interp::detail {

using ir::OpKind;

namespace {

void addLine(Context& ctx, std::string line)
{
    if (static_cast<int64_t>(ctx.result.printed.size()) < ctx.options.maxPrintLines) {
        ctx.result.printed.push_back(std::move(line));
    } else {
        ++ctx.result.printedDropped;
    }
}

bool full(const Context& ctx)
{
    return static_cast<int64_t>(ctx.result.printed.size()) >= ctx.options.maxPrintLines;
}

std::string indexText(int64_t lane, const std::vector<int64_t>& shape)
{
    std::string s = "idx (";
    std::vector<int64_t> c = laneCoords(lane, shape);
    for (size_t d = 0; d < c.size(); ++d) {
        s += (d ? ", " : "") + std::to_string(c[d]);
    }
    return s + ")";
}

/// The prefix as semantic.py's device_print munges it (idempotent, so a prefix the checker already munged
/// stays as it is): ends in ": " when there are operands, starts with " " when longer than 2.
std::string mungePrefix(std::string prefix, bool hasArgs)
{
    if (hasArgs && (prefix.empty() || prefix.back() != ' ')) {
        prefix += ' ';
    }
    if (hasArgs && !prefix.ends_with(": ")) {
        prefix = prefix.substr(0, prefix.size() - 1) + ": ";
    }
    if (prefix.size() > 2 && prefix[0] != ' ') {
        prefix = " " + prefix;
    }
    return prefix;
}

void evalPrint(Context& ctx, const ir::Op& op)
{
    std::string pid = "pid (" + std::to_string(ctx.pid[0]) + ", " + std::to_string(ctx.pid[1]) + ", " +
                      std::to_string(ctx.pid[2]) + ")";
    std::string prefix = mungePrefix(op.text, !op.operands.empty());
    bool hex = !op.ints.empty() && op.ints[0] == 1;
    if (op.operands.empty()) {
        addLine(ctx, pid + prefix);
        return;
    }
    for (size_t o = 0; o < op.operands.size(); ++o) {
        const ir::Type& t = ctx.type(op.operands[o]);
        const Tile& v = ctx.tile(op.operands[o]);
        std::string operand = op.operands.size() > 1 ? "(operand " + std::to_string(o) + ") " : "";
        int64_t n = t.numel();
        for (int64_t k = 0; k < n; ++k) {
            if (full(ctx)) { // count without formatting
                ctx.result.printedDropped += n - k;
                break;
            }
            addLine(ctx, pid + " " + indexText(k, t.shape) + prefix + operand + laneText(v, k, t, hex));
        }
    }
}

void evalAssert(Context& ctx, const ir::Op& op)
{
    const ir::Type& t = ctx.type(op.operands[0]);
    const Tile& c = ctx.tile(op.operands[0]);
    int64_t first = -1;
    int64_t bad = 0;
    for (size_t k = 0; k < c.i.size(); ++k) {
        if (c.i[k] == 0 && bad++ == 0) {
            first = static_cast<int64_t>(k);
        }
    }
    if (bad == 0) {
        return;
    }
    raise(ctx, FaultKind::Assert, op,
          "tl.device_assert failed in " + programText(ctx) + laneText(first, t.shape) +
              (op.text.empty() ? std::string() : ": " + op.text));
    Fault& f = *ctx.result.fault;
    f.lane = first;
    f.laneIndex = t.shape.empty() ? std::vector<int64_t>{} : laneCoords(first, t.shape);
    f.tileLanes = t.numel();
    f.badLanes = bad;
}

} // namespace

void evalDebug(Context& ctx, const ir::Op& op)
{
    if (op.kind == OpKind::Print) {
        evalPrint(ctx, op);
    } else {
        evalAssert(ctx, op);
    }
}

} // namespace tkm::triton::interp::detail
