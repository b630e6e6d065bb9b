// The driver of the CPU interpreter: runs the grid program by program (axis 0 fastest), each program's body
// op by op over one frame of tiles, and the structured control flow (For, While, If, Break). Loop-carried
// values move between a loop's Yield and its region arguments through a staging tile per value (copied, then
// swapped in), so a Yield that permutes its arguments stays correct. The deadline is read every 1024 loop
// iterations and before each program.
#include "engine/triton/interp/detail.h"

#include <utility>

namespace tkm::triton::interp {

const char* faultKindName(FaultKind k)
{
    switch (k) {
    case FaultKind::ReadPastEnd:
        return "read-past-end";
    case FaultKind::ReadBeforeStart:
        return "read-before-start";
    case FaultKind::WritePastEnd:
        return "write-past-end";
    case FaultKind::WriteBeforeStart:
        return "write-before-start";
    case FaultKind::Assert:
        return "assert";
    case FaultKind::Timeout:
        return "timeout";
    case FaultKind::Unsupported:
        return "unsupported";
    }
    return "unknown";
}

namespace detail {
namespace {

using ir::OpKind;

/// How a region ended.
enum class Flow { Done, Break, Fault };

struct Exit
{
    Flow flow = Flow::Done;
    const ir::Op* terminator = nullptr; ///< the Yield / Condition / Break that ended the region, if any
};

Exit runRegion(Context& ctx, const ir::Region& region);

/// Copies value `from` into `to` (both of the same type).
void assign(Context& ctx, ir::ValueId to, ir::ValueId from)
{
    if (to != from) {
        Tile& d = ctx.tile(to);
        const Tile& s = ctx.tile(from);
        d.i = s.i;
        d.f = s.f;
        d.buf = s.buf;
    }
}

/// targets[j] = sources[j] for all j at once (sources may overlap targets).
void assignAll(Context& ctx, const std::vector<ir::ValueId>& targets, std::span<const ir::ValueId> sources,
               std::vector<Tile>& staging)
{
    size_t n = std::min(targets.size(), sources.size());
    staging.resize(n);
    for (size_t j = 0; j < n; ++j) {
        const Tile& s = ctx.tile(sources[j]);
        staging[j].i = s.i;
        staging[j].f = s.f;
        staging[j].buf = s.buf;
    }
    for (size_t j = 0; j < n; ++j) {
        std::swap(ctx.tile(targets[j]), staging[j]);
    }
}

/// True (and a Timeout fault raised) when the deadline has passed; reads the clock every 1024 calls.
bool pastDeadline(Context& ctx, const ir::Op& loop)
{
    if ((++ctx.ticks & 1023) != 0 || std::chrono::steady_clock::now() < ctx.options.deadline) {
        return false;
    }
    raise(ctx, FaultKind::Timeout, loop, "the kernel did not finish within the time limit — an endless loop?");
    return true;
}

void setScalar(Context& ctx, ir::ValueId v, int64_t x)
{
    Tile& t = prepare(ctx, v);
    t.i[0] = wrapInt(x, ctx.type(v).elem);
}

/// The values a loop leaves when a Break ends it: the Break's operands if it has them, else the carried ones.
void breakResults(Context& ctx, const ir::Op& loop, const ir::Op* brk, const std::vector<ir::ValueId>& carried,
                  std::vector<Tile>& staging)
{
    if (brk && !brk->operands.empty()) {
        assignAll(ctx, loop.results, brk->operands, staging);
    } else {
        assignAll(ctx, loop.results, carried, staging);
    }
}

void runFor(Context& ctx, const ir::Op& op)
{
    const ir::Region& body = *op.regions[0];
    int64_t lb = ctx.tile(op.operands[0]).i[0];
    int64_t ub = ctx.tile(op.operands[1]).i[0];
    int64_t step = ctx.tile(op.operands[2]).i[0];
    std::vector<ir::ValueId> carried(body.args.begin() + 1, body.args.end());
    std::vector<Tile> staging;
    assignAll(ctx, carried, std::span(op.operands).subspan(3), staging);
    ir::ValueId iv = body.args[0];
    // step > 0 counts up while iv < ub, step < 0 down while iv > ub; step 0 never ends (the deadline stops it)
    for (int64_t i = lb; step >= 0 ? i < ub : i > ub;) {
        if (pastDeadline(ctx, op)) {
            return;
        }
        setScalar(ctx, iv, i);
        Exit e = runRegion(ctx, body);
        if (e.flow == Flow::Fault) {
            return;
        }
        if (e.flow == Flow::Break) {
            breakResults(ctx, op, e.terminator, carried, staging);
            return;
        }
        if (e.terminator) {
            assignAll(ctx, carried, e.terminator->operands, staging);
        }
        if (__builtin_add_overflow(i, step, &i)) {
            break; // past the int64 range: no further iteration could satisfy the bound
        }
    }
    assignAll(ctx, op.results, carried, staging);
}

void runWhile(Context& ctx, const ir::Op& op)
{
    const ir::Region& before = *op.regions[0];
    const ir::Region& after = *op.regions[1];
    std::vector<Tile> staging;
    assignAll(ctx, before.args, op.operands, staging);
    for (;;) {
        if (pastDeadline(ctx, op)) {
            return;
        }
        Exit e = runRegion(ctx, before);
        if (e.flow == Flow::Fault) {
            return;
        }
        if (e.flow == Flow::Break || !e.terminator || e.terminator->kind != OpKind::Condition) {
            breakResults(ctx, op, e.terminator, before.args, staging);
            return;
        }
        std::span<const ir::ValueId> forwarded = std::span(e.terminator->operands).subspan(1);
        if (ctx.tile(e.terminator->operands[0]).i[0] == 0) {
            assignAll(ctx, op.results, forwarded, staging);
            return;
        }
        assignAll(ctx, after.args, forwarded, staging);
        e = runRegion(ctx, after);
        if (e.flow == Flow::Fault) {
            return;
        }
        if (e.flow == Flow::Break) {
            breakResults(ctx, op, e.terminator, after.args, staging);
            return;
        }
        if (e.terminator) {
            assignAll(ctx, before.args, e.terminator->operands, staging);
        }
    }
}

/// Runs the taken branch; a Break inside it is passed up to the enclosing loop.
Exit runIf(Context& ctx, const ir::Op& op)
{
    bool taken = ctx.tile(op.operands[0]).i[0] != 0;
    if (!taken && op.regions.size() < 2) {
        return {};
    }
    Exit e = runRegion(ctx, *op.regions[taken ? 0 : 1]);
    if (e.flow == Flow::Done && e.terminator) {
        for (size_t j = 0; j < op.results.size() && j < e.terminator->operands.size(); ++j) {
            assign(ctx, op.results[j], e.terminator->operands[j]);
        }
    }
    return e;
}

Exit runRegion(Context& ctx, const ir::Region& region)
{
    for (const ir::Op& op : region.ops) {
        switch (op.kind) {
        case OpKind::Yield:
        case OpKind::Condition:
            return {Flow::Done, &op};
        case OpKind::Break:
            return {Flow::Break, &op};
        case OpKind::For:
            runFor(ctx, op);
            break;
        case OpKind::While:
            runWhile(ctx, op);
            break;
        case OpKind::If: {
            Exit e = runIf(ctx, op);
            if (e.flow == Flow::Break) {
                return e;
            }
            break;
        }
        case OpKind::Constant:
        case OpKind::ProgramId:
        case OpKind::NumPrograms:
        case OpKind::Arange:
        case OpKind::Splat:
        case OpKind::Broadcast:
        case OpKind::ExpandDims:
        case OpKind::Reshape:
        case OpKind::Trans:
        case OpKind::Join:
        case OpKind::Cat:
            evalShape(ctx, op);
            break;
        case OpKind::Exp:
        case OpKind::Exp2:
        case OpKind::Log:
        case OpKind::Log2:
        case OpKind::Sqrt:
        case OpKind::Rsqrt:
        case OpKind::Abs:
        case OpKind::Floor:
        case OpKind::Ceil:
        case OpKind::Sin:
        case OpKind::Cos:
        case OpKind::Erf:
        case OpKind::Tanh:
        case OpKind::Sigmoid:
        case OpKind::Fma:
        case OpKind::UMulHi:
        case OpKind::Cast:
        case OpKind::Bitcast:
        case OpKind::PtrToInt:
        case OpKind::IntToPtr:
            evalConvert(ctx, op);
            break;
        case OpKind::Load:
        case OpKind::Store:
        case OpKind::AtomicRMW:
        case OpKind::AtomicCAS:
            evalMemory(ctx, op);
            break;
        case OpKind::Reduce:
        case OpKind::Scan:
            evalReduce(ctx, op);
            break;
        case OpKind::Dot:
            evalDot(ctx, op);
            break;
        case OpKind::Print:
        case OpKind::Assert:
            evalDebug(ctx, op);
            break;
        default:
            evalArith(ctx, op);
            break;
        }
        if (ctx.failed()) {
            return {Flow::Fault, nullptr};
        }
    }
    return {};
}

/// Binds the runtime parameters for a program (pointers: offset 0 into their buffer).
bool bindParams(Context& ctx, std::span<const ArgValue> args)
{
    for (size_t p = 0; p < ctx.fn.params.size(); ++p) {
        const ir::KernelParam& param = ctx.fn.params[p];
        if (param.value == ir::kNoValue) {
            continue;
        }
        ArgValue a = p < args.size() ? args[p] : ArgValue{};
        Tile& t = prepare(ctx, param.value);
        const ir::Type& type = ctx.type(param.value);
        if (type.isPtr()) {
            t.i[0] = 0;
            t.buf[0] = a.buffer >= 0 && static_cast<size_t>(a.buffer) < ctx.buffers.size() ? a.buffer : -1;
        } else if (ir::isFloat(type.elem)) {
            t.f[0] = roundFloat(a.floatValue, type.elem);
        } else {
            t.i[0] = wrapInt(a.intValue, type.elem);
        }
    }
    return true;
}

} // namespace
} // namespace detail

RunResult run(const ir::Function& f, std::span<const ArgValue> args, std::span<HostBuffer> buffers,
              const RunOptions& options)
{
    RunResult result;
    detail::Context ctx{f, buffers, options, result, {}, {0, 0, 0}, 0, {}, {}};
    ctx.frame.resize(f.values.size());
    if (!detail::validate(ctx)) {
        return result;
    }
    const auto& g = options.grid;
    for (int64_t z = 0; z < g[2]; ++z) {
        for (int64_t y = 0; y < g[1]; ++y) {
            for (int64_t x = 0; x < g[0]; ++x) {
                ctx.pid = {x, y, z};
                if (std::chrono::steady_clock::now() >= options.deadline) {
                    Fault fault;
                    fault.kind = FaultKind::Timeout;
                    fault.programId = ctx.pid;
                    fault.message = "the kernel did not finish within the time limit (stopped before " +
                                    detail::programText(ctx) + ")";
                    result.fault = std::move(fault);
                    return result;
                }
                detail::bindParams(ctx, args);
                detail::runRegion(ctx, f.body);
                if (result.fault) {
                    return result;
                }
                ++result.programsRun;
            }
        }
    }
    return result;
}

} // namespace tkm::triton::interp
