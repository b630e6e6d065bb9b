// The CPU interpreter on hand-built tile IR (the checker is tested on its own): results, fp16/bf16 rounding,
// integer semantics, faults with line/program/lane, control flow, atomics, prints and the deadline.
#include "engine/triton/interp/interpreter.h"

#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>

namespace tkm::triton::interp {
namespace {

using ir::Elem;
using ir::OpKind;
using ir::ValueId;
using Shape = std::vector<int64_t>;

ir::Type ty(Elem e, Shape shape = {})
{
    ir::Type t;
    t.elem = e;
    t.shape = std::move(shape);
    return t;
}

ir::Type ptrTy(Elem pointee, Shape shape = {})
{
    ir::Type t = ty(Elem::Ptr, std::move(shape));
    t.pointee = pointee;
    return t;
}

/// Builds a Function op by op, as the checker would; `line` is the source line of the next ops.
class Kernel
{
public:
    Kernel() { m_regions.push_back(&fn.body); }

    ir::Function fn;
    int line = 1;

    ValueId param(const std::string& name, ir::Type t)
    {
        ir::KernelParam p;
        p.name = name;
        p.kind = t.isPtr() ? ir::ParamKind::Pointer : ir::ParamKind::Scalar;
        p.type = t;
        p.value = fn.addValue(t, name);
        fn.params.push_back(p);
        return p.value;
    }

    ValueId emit(OpKind k, ir::Type t, std::vector<ValueId> operands, std::vector<int64_t> ints = {},
                 std::string text = {}, std::vector<double> floats = {})
    {
        ir::Op op = make(k, std::move(operands), std::move(ints), std::move(text));
        op.floats = std::move(floats);
        ValueId v = fn.addValue(t);
        op.results.push_back(v);
        m_regions.back()->ops.push_back(std::move(op));
        return v;
    }

    void emitVoid(OpKind k, std::vector<ValueId> operands, std::vector<int64_t> ints = {}, std::string text = {})
    {
        m_regions.back()->ops.push_back(make(k, std::move(operands), std::move(ints), std::move(text)));
    }

    const ir::Type& type(ValueId v) const { return fn.typeOf(v); }
    ValueId constI(int64_t v, Elem e = Elem::I32, Shape s = {}) { return emit(OpKind::Constant, ty(e, s), {}, {v}); }
    ValueId constF(double v, Elem e = Elem::F32, Shape s = {})
    {
        return emit(OpKind::Constant, ty(e, s), {}, {}, {}, {v});
    }
    ValueId pid(int axis = 0) { return emit(OpKind::ProgramId, ty(Elem::I32), {}, {axis}); }
    ValueId arange(int64_t lo, int64_t hi) { return emit(OpKind::Arange, ty(Elem::I32, {hi - lo}), {}, {lo, hi}); }
    ValueId splat(ValueId v, Shape s)
    {
        ir::Type t = type(v);
        t.shape = std::move(s);
        return emit(OpKind::Splat, t, {v});
    }
    ValueId broadcast(ValueId v, Shape s)
    {
        ir::Type t = type(v);
        t.shape = std::move(s);
        return emit(OpKind::Broadcast, t, {v});
    }
    ValueId expand(ValueId v, int axis)
    {
        ir::Type t = type(v);
        t.shape.insert(t.shape.begin() + axis, 1);
        return emit(OpKind::ExpandDims, t, {v}, {axis});
    }
    /// a ∘ b with a's element type (I1 for comparisons) and the larger shape.
    ValueId bin(OpKind k, ValueId a, ValueId b, std::vector<int64_t> ints = {})
    {
        ir::Type t = type(a).numel() >= type(b).numel() ? type(a) : type(b);
        t.elem = type(a).elem;
        t.pointee = type(a).pointee;
        if (k >= OpKind::Eq && k <= OpKind::Ge) {
            t.elem = Elem::I1;
        }
        return emit(k, t, {a, b}, std::move(ints));
    }
    ValueId addptr(ValueId p, ValueId off)
    {
        ir::Type t = type(p);
        t.shape = type(off).shape;
        return emit(OpKind::AddPtr, t, {p, off});
    }
    ValueId load(ValueId p, ValueId mask = ir::kNoValue, ValueId other = ir::kNoValue)
    {
        ir::Type t = ty(type(p).pointee, type(p).shape);
        return emit(OpKind::Load, t, {p, mask, other}, {mask != ir::kNoValue ? 1 : 0});
    }
    void store(ValueId p, ValueId v, ValueId mask = ir::kNoValue) { emitVoid(OpKind::Store, {p, v, mask}); }
    ValueId cast(ValueId v, Elem to, int64_t rtz = 0)
    {
        ir::Type t = type(v);
        t.elem = to;
        ValueId r = emit(OpKind::Cast, t, {v}, {rtz});
        m_regions.back()->ops.back().toType = t;
        return r;
    }

    /// A For op; `body(iv, carried)` emits the body and returns the yielded values.
    std::vector<ValueId> forLoop(ValueId lb, ValueId ub, ValueId step, std::vector<ValueId> inits,
                                 const std::function<std::vector<ValueId>(ValueId, std::vector<ValueId>)>& body)
    {
        auto region = std::make_unique<ir::Region>();
        ValueId iv = fn.addValue(type(lb));
        region->args.push_back(iv);
        std::vector<ValueId> carried;
        for (ValueId v : inits) {
            carried.push_back(fn.addValue(type(v)));
            region->args.push_back(carried.back());
        }
        m_regions.push_back(region.get());
        std::vector<ValueId> yields = body(iv, carried);
        emitVoid(OpKind::Yield, yields);
        m_regions.pop_back();
        std::vector<ValueId> operands{lb, ub, step};
        operands.insert(operands.end(), inits.begin(), inits.end());
        std::vector<std::unique_ptr<ir::Region>> regions;
        regions.push_back(std::move(region));
        return finish(OpKind::For, std::move(operands), inits, std::move(regions));
    }

    /// A While op over scalars: `cond(carried)` returns the condition, `body(carried)` the next values.
    std::vector<ValueId> whileLoop(std::vector<ValueId> inits, const std::function<ValueId(std::vector<ValueId>)>& cond,
                                   const std::function<std::vector<ValueId>(std::vector<ValueId>)>& body)
    {
        auto before = std::make_unique<ir::Region>();
        auto after = std::make_unique<ir::Region>();
        std::vector<ValueId> a, b;
        for (ValueId v : inits) {
            a.push_back(fn.addValue(type(v)));
            b.push_back(fn.addValue(type(v)));
        }
        before->args = a;
        after->args = b;
        m_regions.push_back(before.get());
        std::vector<ValueId> condOps{cond(a)};
        condOps.insert(condOps.end(), a.begin(), a.end());
        emitVoid(OpKind::Condition, condOps);
        m_regions.back() = after.get();
        emitVoid(OpKind::Yield, body(b));
        m_regions.pop_back();
        std::vector<std::unique_ptr<ir::Region>> regions;
        regions.push_back(std::move(before));
        regions.push_back(std::move(after));
        return finish(OpKind::While, inits, inits, std::move(regions));
    }

    /// An If op yielding values of the types of `like`.
    std::vector<ValueId> ifOp(ValueId c, std::vector<ValueId> like, const std::function<std::vector<ValueId>()>& then,
                              const std::function<std::vector<ValueId>()>& otherwise)
    {
        std::vector<std::unique_ptr<ir::Region>> regions;
        for (const auto* branch : {&then, &otherwise}) {
            regions.push_back(std::make_unique<ir::Region>());
            m_regions.push_back(regions.back().get());
            emitVoid(OpKind::Yield, (*branch)());
            m_regions.pop_back();
        }
        return finish(OpKind::If, {c}, like, std::move(regions));
    }

private:
    ir::Op make(OpKind k, std::vector<ValueId> operands, std::vector<int64_t> ints, std::string text)
    {
        ir::Op op;
        op.kind = k;
        op.operands = std::move(operands);
        op.ints = std::move(ints);
        op.text = std::move(text);
        op.range.begin = {line, 5};
        op.range.end = {line, 20};
        return op;
    }

    std::vector<ValueId> finish(OpKind k, std::vector<ValueId> operands, const std::vector<ValueId>& like,
                                std::vector<std::unique_ptr<ir::Region>> regions)
    {
        ir::Op op = make(k, std::move(operands), {}, {});
        for (ValueId v : like) {
            op.results.push_back(fn.addValue(type(v)));
        }
        op.regions = std::move(regions);
        std::vector<ValueId> results = op.results;
        m_regions.back()->ops.push_back(std::move(op));
        return results;
    }

    std::vector<ir::Region*> m_regions;
};

template <class T> HostBuffer buffer(const std::string& name, std::vector<T>& v, Elem e)
{
    return HostBuffer{name, e, reinterpret_cast<std::byte*>(v.data()), static_cast<int64_t>(v.size())};
}

RunOptions grid(int64_t x, int64_t y = 1, int64_t z = 1)
{
    RunOptions o;
    o.grid = {x, y, z};
    return o;
}

/// Tutorial 01: out = x + y over n elements, BLOCK per program; `masked` false drops the mask.
Kernel vectorAdd(int64_t block, bool masked = true)
{
    Kernel k;
    ValueId x = k.param("x", ptrTy(Elem::F32));
    ValueId y = k.param("y", ptrTy(Elem::F32));
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId n = k.param("n", ty(Elem::I32));
    k.line = 5;
    ValueId start = k.bin(OpKind::Mul, k.pid(), k.constI(block));
    ValueId offs = k.bin(OpKind::Add, k.splat(start, {block}), k.arange(0, block));
    ValueId mask = masked ? k.bin(OpKind::Lt, offs, k.splat(n, {block})) : ir::kNoValue;
    k.line = 9;
    ValueId xv = k.load(k.addptr(k.splat(x, {block}), offs), mask);
    k.line = 10;
    ValueId yv = k.load(k.addptr(k.splat(y, {block}), offs), mask);
    k.line = 12;
    k.store(k.addptr(k.splat(out, {block}), offs), k.bin(OpKind::Add, xv, yv), mask);
    return k;
}

struct VectorCase
{
    std::vector<float> x, y, out;
    std::vector<HostBuffer> buffers;
    std::vector<ArgValue> args;
    explicit VectorCase(int64_t n) : x(static_cast<size_t>(n)), y(x.size()), out(x.size(), -7.0f)
    {
        for (size_t i = 0; i < x.size(); ++i) {
            x[i] = static_cast<float>(i) * 0.5f;
            y[i] = 1.0f / static_cast<float>(i + 1);
        }
        buffers = {buffer("x", x, Elem::F32), buffer("y", y, Elem::F32), buffer("out", out, Elem::F32)};
        args = {{0}, {1}, {2}, {-1, n}};
    }
};

TEST(TritonInterp, VectorAddRaggedWithMask)
{
    Kernel k = vectorAdd(256);
    VectorCase c(1000);
    RunResult r = run(k.fn, c.args, c.buffers, grid(4));
    ASSERT_FALSE(r.fault) << r.fault->message;
    EXPECT_EQ(r.programsRun, 4);
    for (size_t i = 0; i < c.x.size(); ++i) {
        ASSERT_EQ(c.out[i], c.x[i] + c.y[i]) << i;
    }
}

TEST(TritonInterp, MissingMaskFaultNamesLineProgramLane)
{
    Kernel k = vectorAdd(1024, false);
    VectorCase c(1000);
    RunResult r = run(k.fn, c.args, c.buffers, grid(1));
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::ReadPastEnd);
    EXPECT_EQ(r.fault->message,
              "line 9: tl.load reads x[1000] (x has 1000 elements) in program 0, lane 1000 of 1024 — no mask was "
              "given");
    EXPECT_EQ(r.fault->lane, 1000);
    EXPECT_EQ(r.fault->laneIndex, Shape{1000});
    EXPECT_EQ(r.fault->tileLanes, 1024);
    EXPECT_EQ(r.fault->badLanes, 24);
    EXPECT_EQ(r.fault->buffer, "x");
    EXPECT_EQ(r.fault->offset, 1000);
    EXPECT_EQ(r.fault->bufferElements, 1000);
    EXPECT_FALSE(r.fault->masked);
    EXPECT_EQ(r.fault->range.begin.line, 9);
    EXPECT_EQ(r.programsRun, 0);
    EXPECT_STREQ(faultKindName(r.fault->kind), "read-past-end");
}

TEST(TritonInterp, ReadBeforeStart)
{
    Kernel k;
    ValueId x = k.param("x", ptrTy(Elem::F32));
    k.line = 3;
    ValueId offs = k.bin(OpKind::Sub, k.arange(0, 16), k.constI(1, Elem::I32, {16}));
    k.load(k.addptr(k.splat(x, {16}), offs));
    std::vector<float> xs(16);
    std::vector<HostBuffer> bufs{buffer("x", xs, Elem::F32)};
    std::vector<ArgValue> args{{0}};
    RunResult r = run(k.fn, args, bufs, grid(1));
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::ReadBeforeStart);
    EXPECT_EQ(r.fault->offset, -1);
    EXPECT_EQ(r.fault->lane, 0);
    EXPECT_EQ(r.fault->badLanes, 1);
    EXPECT_EQ(r.fault->message,
              "line 3: tl.load reads x[-1] (x has 16 elements) in program 0, lane 0 of 16 — no mask was given");
}

TEST(TritonInterp, WritePastEndThroughAWrongMaskWritesNothing)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId offs = k.arange(0, 16);
    ValueId mask = k.bin(OpKind::Le, offs, k.constI(10, Elem::I32, {16})); // `<=` where `<` was meant
    k.line = 7;
    k.store(k.addptr(k.splat(out, {16}), offs), k.constF(1.0, Elem::F32, {16}), mask);
    std::vector<float> o(10, 0.0f);
    std::vector<HostBuffer> bufs{buffer("out", o, Elem::F32)};
    std::vector<ArgValue> args{{0}};
    RunResult r = run(k.fn, args, bufs, grid(1));
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::WritePastEnd);
    EXPECT_TRUE(r.fault->masked);
    EXPECT_EQ(r.fault->message, "line 7: tl.store writes out[10] (out has 10 elements) in program 0, lane 10 of 16 "
                                "— the mask let this lane through");
    EXPECT_EQ(o, std::vector<float>(10, 0.0f));
}

TEST(TritonInterp, TwoDimensionalTileReportsLaneCoordinates)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId rows = k.broadcast(k.expand(k.arange(0, 16), 1), {16, 8});
    ValueId cols = k.broadcast(k.expand(k.arange(0, 8), 0), {16, 8});
    ValueId base = k.bin(OpKind::Add, k.pid(0), k.constI(24));
    ValueId offs =
        k.bin(OpKind::Sub, k.bin(OpKind::Add, k.bin(OpKind::Mul, rows, k.constI(8, Elem::I32, {16, 8})), cols),
              k.splat(base, {16, 8}));
    ValueId mask = k.bin(OpKind::And, k.bin(OpKind::Ge, rows, k.constI(3, Elem::I32, {16, 8})),
                         k.bin(OpKind::Lt, offs, k.constI(64, Elem::I32, {16, 8})));
    k.line = 12;
    k.store(k.addptr(k.splat(out, {16, 8}), offs), k.constF(2.0, Elem::F32, {16, 8}), mask);
    std::vector<float> o(64, 0.0f);
    std::vector<HostBuffer> bufs{buffer("out", o, Elem::F32)};
    std::vector<ArgValue> args{{0}};
    RunResult r = run(k.fn, args, bufs, grid(2, 2));
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.programsRun, 1);
    EXPECT_EQ(r.fault->kind, FaultKind::WriteBeforeStart);
    EXPECT_EQ(r.fault->message, "line 12: tl.store writes out[-1] (out has 64 elements) in program (1, 0, 0), lane "
                                "(3, 0) of 16×8 — the mask let this lane through");
    EXPECT_EQ(r.fault->laneIndex, (Shape{3, 0}));
    EXPECT_EQ(r.fault->lane, 24);
    EXPECT_EQ(r.fault->tileLanes, 128);
    EXPECT_EQ(r.fault->badLanes, 1);
    EXPECT_EQ(r.fault->programId, (std::array<int64_t, 3>{1, 0, 0}));
    EXPECT_EQ(o[0], 2.0f); // program (0, 0, 0) ran
}

TEST(TritonInterp, MaskedLoadReadsOtherOrZero)
{
    Kernel k;
    ValueId x = k.param("x", ptrTy(Elem::F32));
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId offs = k.arange(0, 16);
    ValueId mask = k.bin(OpKind::Lt, offs, k.constI(5, Elem::I32, {16}));
    ValueId p = k.addptr(k.splat(x, {16}), offs);
    ValueId a = k.load(p, mask, k.constF(-1.5, Elem::F32, {16}));
    ValueId b = k.load(p, mask);
    ValueId outp = k.addptr(k.splat(out, {16}), offs);
    k.store(outp, k.bin(OpKind::Add, a, k.bin(OpKind::Mul, b, k.constF(100.0, Elem::F32, {16}))));
    std::vector<float> xs{1, 2, 3, 4, 5};
    std::vector<float> o(16);
    std::vector<HostBuffer> bufs{buffer("x", xs, Elem::F32), buffer("out", o, Elem::F32)};
    std::vector<ArgValue> args{{0}, {1}};
    RunResult r = run(k.fn, args, bufs, grid(1));
    ASSERT_FALSE(r.fault) << r.fault->message;
    EXPECT_EQ(o[0], 101.0f);
    EXPECT_EQ(o[4], 505.0f);
    EXPECT_EQ(o[5], -1.5f);
    EXPECT_EQ(o[15], -1.5f);
}

/// Runs a kernel whose only parameter is `out` (float32 or int64 storage) and returns the buffer.
template <class T> std::vector<T> runOut(Kernel& k, size_t n, Elem e, RunOptions o = grid(1))
{
    std::vector<T> out(n);
    std::vector<HostBuffer> bufs{buffer("out", out, e)};
    std::vector<ArgValue> args{{0}};
    RunResult r = run(k.fn, args, bufs, o);
    EXPECT_FALSE(r.fault) << r.fault->message;
    return out;
}

/// Stores the scalars `vs` (already of the pointee type) at out[0..].
void storeAll(Kernel& k, ValueId out, const std::vector<ValueId>& vs)
{
    for (size_t i = 0; i < vs.size(); ++i) {
        k.store(k.addptr(out, k.constI(static_cast<int64_t>(i))), vs[i]);
    }
}

TEST(TritonInterp, Fp16ArithmeticRoundsLikeTheGpu)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId h16 = k.param("h", ptrTy(Elem::F16));
    ValueId big = k.constF(2048.0, Elem::F16);
    ValueId s1 = k.bin(OpKind::Add, big, k.constF(1.0, Elem::F16));
    ValueId s3 = k.bin(OpKind::Add, big, k.constF(3.0, Elem::F16));
    ValueId tenth = k.constF(0.1, Elem::F16);
    storeAll(k, out, {k.cast(s1, Elem::F32), k.cast(s3, Elem::F32), k.cast(tenth, Elem::F32)});
    k.store(h16, s3);
    std::vector<float> o(3);
    std::vector<uint16_t> h(1);
    std::vector<HostBuffer> bufs{buffer("out", o, Elem::F32), buffer("h", h, Elem::F16)};
    std::vector<ArgValue> args{{0}, {1}};
    RunResult r = run(k.fn, args, bufs, grid(1));
    ASSERT_FALSE(r.fault) << r.fault->message;
    EXPECT_EQ(o[0], 2048.0f); // 2049 is a tie between 2048 and 2050: even mantissa
    EXPECT_EQ(o[1], 2052.0f); // 2051: tie → 2052
    EXPECT_EQ(o[2], 0.0999755859375f);
    EXPECT_EQ(h[0], 0x6802); // 2052 in fp16 bits
}

TEST(TritonInterp, Bf16Rounding)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId one = k.constF(1.0, Elem::BF16);
    ValueId a = k.bin(OpKind::Add, one, k.constF(std::ldexp(1.0, -8), Elem::BF16));
    ValueId b = k.bin(OpKind::Add, one, k.constF(3 * std::ldexp(1.0, -8), Elem::BF16));
    ValueId third = k.cast(k.constF(1.0 / 3.0, Elem::F32), Elem::BF16);
    ValueId thirdRtz = k.cast(k.constF(1.0 / 3.0, Elem::F32), Elem::BF16, 1);
    storeAll(k, out,
             {k.cast(a, Elem::F32), k.cast(b, Elem::F32), k.cast(third, Elem::F32), k.cast(thirdRtz, Elem::F32)});
    std::vector<float> o = runOut<float>(k, 4, Elem::F32);
    EXPECT_EQ(o[0], 1.0f);
    EXPECT_EQ(o[1], 1.015625f);
    EXPECT_EQ(o[2], 0.333984375f); // 0x3EAB
    EXPECT_EQ(o[3], 0.33203125f);  // 0x3EAA: toward zero
}

/// `v` rounded to nearest even with `p` bits of precision, normal exponents ≥ emin and largest finite `max`.
double roundReference(double v, int p, int emin, double max)
{
    if (v == 0 || !std::isfinite(v)) {
        return v;
    }
    int e = 0;
    std::frexp(v, &e);
    int q = std::max(e - 1, emin) - (p - 1);
    double r = std::ldexp(std::nearbyint(std::ldexp(v, -q)), q);
    return std::fabs(r) > max ? std::copysign(INFINITY, v) : r;
}

TEST(TritonInterp, Fp64ToFp16AndBf16RoundOnceToNearestEven)
{
    const int64_t n = 4096;
    Kernel k;
    ValueId x = k.param("x", ptrTy(Elem::F64));
    ValueId out = k.param("out", ptrTy(Elem::F64));
    ValueId offs = k.arange(0, n);
    ValueId v = k.load(k.addptr(k.splat(x, {n}), offs));
    k.store(k.addptr(k.splat(out, {n}), offs), k.cast(k.cast(v, Elem::F16), Elem::F64));
    ValueId hi = k.bin(OpKind::Add, offs, k.constI(n, Elem::I32, {n}));
    k.store(k.addptr(k.splat(out, {n}), hi), k.cast(k.cast(v, Elem::BF16), Elem::F64));
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> mant(-2, 2);
    std::uniform_int_distribution<int> ex(-30, 17);
    std::vector<double> xs(n), o(2 * n);
    for (size_t i = 0; i < xs.size(); ++i) {
        double base = std::ldexp(mant(rng), ex(rng));
        switch (i % 4) { // exact ties of fp16 / bf16 and values a hair away from them, where double rounding bites
        case 0:
            xs[i] = base;
            break;
        case 1:
            xs[i] = roundReference(base, 12, -15, 1e300);
            break;
        case 2:
            xs[i] = std::nextafter(roundReference(base, 12, -15, 1e300), 0.0);
            break;
        default:
            xs[i] = std::nextafter(roundReference(base, 9, -127, 1e300), 1e300);
            break;
        }
    }
    std::vector<HostBuffer> bufs{buffer("x", xs, Elem::F64), buffer("out", o, Elem::F64)};
    std::vector<ArgValue> args{{0}, {1}};
    ASSERT_FALSE(run(k.fn, args, bufs, grid(1)).fault);
    for (size_t i = 0; i < xs.size(); ++i) {
        ASSERT_EQ(o[i], roundReference(xs[i], 11, -14, 65504.0)) << xs[i];
        ASSERT_EQ(o[n + i], roundReference(xs[i], 8, -126, std::ldexp(255.0, 120))) << xs[i];
    }
}

TEST(TritonInterp, IntegerSemantics)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::I64));
    auto i32 = [&](int64_t v) { return k.constI(v, Elem::I32); };
    auto to64 = [&](ValueId v) { return k.cast(v, Elem::I64); };
    ValueId maxv = i32(2147483647);
    storeAll(k, out,
             {
                 to64(k.bin(OpKind::Add, maxv, i32(1))),
                 to64(k.bin(OpKind::Mul, maxv, i32(2))),
                 to64(k.bin(OpKind::Div, i32(-7), i32(2))),
                 to64(k.bin(OpKind::Rem, i32(-7), i32(2))),
                 to64(k.bin(OpKind::Div, i32(5), i32(0))),
                 to64(k.bin(OpKind::Div, i32(-2147483647 - 1), i32(-1))),
                 to64(k.bin(OpKind::Shl, i32(1), i32(32))),
                 to64(k.bin(OpKind::Shr, i32(-8), i32(40))),
                 to64(k.bin(OpKind::Shr, i32(-8), i32(1))),
                 k.cast(k.bin(OpKind::Div, k.constI(7, Elem::U32), k.constI(0, Elem::U32)), Elem::I64),
                 to64(k.bin(OpKind::FloorDiv, i32(-7), i32(2))),
             });
    std::vector<int64_t> o = runOut<int64_t>(k, 11, Elem::I64);
    EXPECT_EQ(o[0], -2147483648LL);
    EXPECT_EQ(o[1], -2);
    EXPECT_EQ(o[2], -3); // C-style, as Triton tensors
    EXPECT_EQ(o[3], -1);
    EXPECT_EQ(o[4], -1); // the GPU's div.s32 by zero
    EXPECT_EQ(o[5], -2147483648LL);
    EXPECT_EQ(o[6], 0);
    EXPECT_EQ(o[7], -1);
    EXPECT_EQ(o[8], -4);
    EXPECT_EQ(o[9], 4294967295LL);
    EXPECT_EQ(o[10], -4);
}

TEST(TritonInterp, CastFloatToIntTruncatesAndSaturates)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::I32));
    std::vector<ValueId> vs;
    for (double v : {2.7, -2.7, 3e9, -3e9, std::nan("")}) {
        vs.push_back(k.cast(k.constF(v), Elem::I32));
    }
    vs.push_back(k.cast(k.constF(-1.0), Elem::U8)); // unsigned saturates at 0, stored into an int32 by a cast
    vs.back() = k.cast(vs.back(), Elem::I32);
    storeAll(k, out, vs);
    std::vector<int32_t> o = runOut<int32_t>(k, 6, Elem::I32);
    EXPECT_EQ(o, (std::vector<int32_t>{2, -2, 2147483647, -2147483647 - 1, 0, 0}));
}

TEST(TritonInterp, ReductionsWithKeepDimsAndArgmaxTies)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId idx = k.param("idx", ptrTy(Elem::I32));
    // v[r, c] = (r * 8 + c) % 3 as fp32: rows have ties for the max
    ValueId rc =
        k.bin(OpKind::Add,
              k.bin(OpKind::Mul, k.broadcast(k.expand(k.arange(0, 4), 1), {4, 8}), k.constI(8, Elem::I32, {4, 8})),
              k.broadcast(k.expand(k.arange(0, 8), 0), {4, 8}));
    ValueId v = k.cast(k.bin(OpKind::Rem, rc, k.constI(3, Elem::I32, {4, 8})), Elem::F32);
    ValueId sums = k.emit(OpKind::Reduce, ty(Elem::F32, {4, 1}), {v}, {1, 1}, "sum");
    ValueId maxs = k.emit(OpKind::Reduce, ty(Elem::F32, {8}), {v}, {0, 0}, "max");
    ValueId am = k.emit(OpKind::Reduce, ty(Elem::I32, {4}), {v}, {1, 0, 1}, "argmax");
    ValueId total =
        k.emit(OpKind::Reduce, ty(Elem::F32), {k.emit(OpKind::Reshape, ty(Elem::F32, {4}), {sums})}, {0, 0}, "sum");
    ValueId ro =
        k.emit(OpKind::Reshape, ty(Elem::I32, {4, 1}), {k.emit(OpKind::Reshape, ty(Elem::I32, {4}), {k.arange(0, 4)})});
    k.store(k.addptr(k.splat(out, {4, 1}), ro), sums);
    k.store(k.addptr(k.splat(out, {8}), k.bin(OpKind::Add, k.arange(0, 8), k.constI(4, Elem::I32, {8}))), maxs);
    k.store(k.addptr(out, k.constI(12)), total);
    k.store(k.addptr(k.splat(idx, {4}), k.arange(0, 4)), am);
    std::vector<float> o(13);
    std::vector<int32_t> ix(4);
    std::vector<HostBuffer> bufs{buffer("out", o, Elem::F32), buffer("idx", ix, Elem::I32)};
    std::vector<ArgValue> args{{0}, {1}};
    RunResult r = run(k.fn, args, bufs, grid(1));
    ASSERT_FALSE(r.fault) << r.fault->message;
    // rows: 0 1 2 0 1 2 0 1 | 2 0 1 2 0 1 2 0 | 1 2 0 1 2 0 1 2 | 0 1 2 0 1 2 0 1
    EXPECT_EQ((std::vector<float>(o.begin(), o.begin() + 4)), (std::vector<float>{7, 8, 9, 7}));
    EXPECT_EQ((std::vector<float>(o.begin() + 4, o.begin() + 12)), (std::vector<float>{2, 2, 2, 2, 2, 2, 2, 2}));
    EXPECT_EQ(o[12], 31.0f);
    EXPECT_EQ(ix, (std::vector<int32_t>{2, 0, 1, 2})); // the first of the tied maxima
}

TEST(TritonInterp, ScansAndNanIgnoringMax)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId v = k.cast(k.arange(0, 8), Elem::F32);
    ValueId fwd = k.emit(OpKind::Scan, ty(Elem::F32, {8}), {v}, {0, 0}, "sum");
    ValueId rev = k.emit(OpKind::Scan, ty(Elem::F32, {8}), {v}, {0, 1}, "sum");
    // lanes 0..3 NaN (0/0), the rest 4..7: tl.max ignores the NaNs (propagate_nan NONE)
    ValueId nan = k.bin(OpKind::Div, k.constF(0.0, Elem::F32, {8}), k.constF(0.0, Elem::F32, {8}));
    ValueId mixed = k.emit(OpKind::Select, ty(Elem::F32, {8}),
                           {k.bin(OpKind::Lt, k.arange(0, 8), k.constI(4, Elem::I32, {8})), nan, v});
    ValueId mx = k.emit(OpKind::Reduce, ty(Elem::F32), {mixed}, {0, 0}, "max");
    ValueId am = k.emit(OpKind::Reduce, ty(Elem::I32), {mixed}, {0, 0, 1}, "argmin");
    k.store(k.addptr(k.splat(out, {8}), k.arange(0, 8)), fwd);
    k.store(k.addptr(k.splat(out, {8}), k.bin(OpKind::Add, k.arange(0, 8), k.constI(8, Elem::I32, {8}))), rev);
    k.store(k.addptr(out, k.constI(16)), mx);
    k.store(k.addptr(out, k.constI(17)), k.cast(am, Elem::F32));
    std::vector<float> o = runOut<float>(k, 18, Elem::F32);
    EXPECT_EQ((std::vector<float>(o.begin(), o.begin() + 8)), (std::vector<float>{0, 1, 3, 6, 10, 15, 21, 28}));
    EXPECT_EQ((std::vector<float>(o.begin() + 8, o.begin() + 16)), (std::vector<float>{28, 28, 27, 25, 22, 18, 13, 7}));
    EXPECT_EQ(o[16], 7.0f);
    EXPECT_EQ(o[17], 4.0f);
}

TEST(TritonInterp, ForLoopCarriesATile)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::F32));
    ValueId acc0 = k.constF(0.0, Elem::F32, {16});
    ValueId lanes = k.cast(k.arange(0, 16), Elem::F32);
    std::vector<ValueId> res =
        k.forLoop(k.constI(0), k.constI(5), k.constI(1), {acc0, k.constI(0)},
                  [&](ValueId iv, std::vector<ValueId> c) -> std::vector<ValueId> {
                      ValueId step = k.bin(OpKind::Add, k.splat(k.cast(iv, Elem::F32), {16}), lanes);
                      return {k.bin(OpKind::Add, c[0], step), k.bin(OpKind::Add, c[1], k.constI(1))};
                  });
    k.store(k.addptr(k.splat(out, {16}), k.arange(0, 16)), res[0]);
    k.store(k.addptr(out, k.constI(16)), k.cast(res[1], Elem::F32));
    std::vector<float> o = runOut<float>(k, 17, Elem::F32);
    for (int i = 0; i < 16; ++i) {
        EXPECT_EQ(o[static_cast<size_t>(i)], 10.0f + 5.0f * static_cast<float>(i));
    }
    EXPECT_EQ(o[16], 5.0f);
}

TEST(TritonInterp, WhileLoopAndIfWithYields)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::I32));
    std::vector<ValueId> w = k.whileLoop(
        {k.constI(0), k.constI(0)}, [&](std::vector<ValueId> c) { return k.bin(OpKind::Lt, c[0], k.constI(10)); },
        [&](std::vector<ValueId> c) -> std::vector<ValueId> {
            return {k.bin(OpKind::Add, c[0], k.constI(3)), k.bin(OpKind::Add, c[1], k.constI(1))};
        });
    ValueId odd = k.bin(OpKind::Eq, k.bin(OpKind::Rem, k.pid(), k.constI(2)), k.constI(1));
    std::vector<ValueId> pick = k.ifOp(
        odd, {w[0]}, [&]() -> std::vector<ValueId> { return {k.constI(100)}; },
        [&]() -> std::vector<ValueId> { return {w[1]}; });
    ValueId at = k.bin(OpKind::Mul, k.pid(), k.constI(2));
    k.store(k.addptr(out, at), w[0]);
    k.store(k.addptr(out, k.bin(OpKind::Add, at, k.constI(1))), pick[0]);
    std::vector<int32_t> o = runOut<int32_t>(k, 4, Elem::I32, grid(2));
    EXPECT_EQ(o, (std::vector<int32_t>{12, 4, 12, 100}));
}

TEST(TritonInterp, BreakLeavesTheLoopWithItsCarriedValues)
{
    Kernel k;
    ValueId out = k.param("out", ptrTy(Elem::I32));
    std::vector<ValueId> res = k.forLoop(k.constI(0), k.constI(100), k.constI(1), {k.constI(0)},
                                         [&](ValueId iv, std::vector<ValueId> c) -> std::vector<ValueId> {
                                             ValueId stop = k.bin(OpKind::Eq, iv, k.constI(7));
                                             k.ifOp(
                                                 stop, {},
                                                 [&]() -> std::vector<ValueId> {
                                                     k.emitVoid(OpKind::Break, {});
                                                     return {};
                                                 },
                                                 [&]() -> std::vector<ValueId> { return {}; });
                                             return {k.bin(OpKind::Add, c[0], iv)};
                                         });
    ValueId bits = k.emit(OpKind::Bitcast, ty(Elem::I32), {k.constF(1.0)});
    storeAll(k, out, {res[0], bits});
    std::vector<int32_t> o = runOut<int32_t>(k, 2, Elem::I32);
    EXPECT_EQ(o[0], 0 + 1 + 2 + 3 + 4 + 5 + 6); // the sum carried into iteration 7, which broke
    EXPECT_EQ(o[1], 0x3f800000);
}

TEST(TritonInterp, AtomicHistogramAcrossPrograms)
{
    Kernel k;
    ValueId bins = k.param("bins", ptrTy(Elem::I32));
    ValueId old = k.param("old", ptrTy(Elem::I32));
    ValueId lanes = k.arange(0, 8);
    ValueId bin = k.bin(OpKind::Rem, k.bin(OpKind::Add, lanes, k.splat(k.pid(), {8})), k.constI(3, Elem::I32, {8}));
    ValueId mask = k.bin(OpKind::Lt, lanes, k.constI(7, Elem::I32, {8}));
    ValueId prev = k.emit(OpKind::AtomicRMW, ty(Elem::I32, {8}),
                          {k.addptr(k.splat(bins, {8}), bin), k.constI(1, Elem::I32, {8}), mask}, {}, "add");
    ValueId where = k.bin(OpKind::Add, k.bin(OpKind::Mul, k.splat(k.pid(), {8}), k.constI(8, Elem::I32, {8})), lanes);
    k.store(k.addptr(k.splat(old, {8}), where), prev);
    std::vector<int32_t> b(3, 0), o(32, -9);
    std::vector<HostBuffer> bufs{buffer("bins", b, Elem::I32), buffer("old", o, Elem::I32)};
    std::vector<ArgValue> args{{0}, {1}};
    RunResult r = run(k.fn, args, bufs, grid(4));
    ASSERT_FALSE(r.fault) << r.fault->message;
    // 4 programs × 7 active lanes = 28 increments over bins (lane + pid) % 3
    std::vector<int32_t> expect(3, 0);
    for (int p = 0; p < 4; ++p) {
        for (int l = 0; l < 7; ++l) {
            ++expect[static_cast<size_t>((l + p) % 3)];
        }
    }
    EXPECT_EQ(b, expect);
    EXPECT_EQ(o[0], 0); // program 0 lane 0: bin 0 was 0
    EXPECT_EQ(o[3], 1); // program 0 lane 3: bin 0 already had lane 0's increment
    EXPECT_EQ(o[7], 0); // masked-off lane returns 0
}

TEST(TritonInterp, DevicePrintIsCapturedAndBounded)
{
    Kernel k;
    k.emitVoid(OpKind::Print, {k.arange(0, 16)}, {0}, "x: ");
    k.emitVoid(OpKind::Print, {k.constF(1.5)}, {0}, "s");
    k.emitVoid(OpKind::Print, {}, {0}, "hello");
    RunOptions o = grid(2);
    o.maxPrintLines = 10;
    std::vector<HostBuffer> none;
    RunResult r = run(k.fn, {}, none, o);
    ASSERT_FALSE(r.fault);
    ASSERT_EQ(r.printed.size(), 10u);
    EXPECT_EQ(r.printed[3], "pid (0, 0, 0) idx (3) x: 3");
    EXPECT_EQ(r.printedDropped, 2 * 18 - 10);
    o.maxPrintLines = 100;
    r = run(k.fn, {}, none, o);
    EXPECT_EQ(r.printed[16], "pid (0, 0, 0) idx () s: 1.5"); // the prefix munged as semantic.py does
    EXPECT_EQ(r.printed[17], "pid (0, 0, 0) hello");
    EXPECT_EQ(r.printed[18], "pid (1, 0, 0) idx (0) x: 0");
}

TEST(TritonInterp, EndlessLoopStopsAtTheDeadline)
{
    Kernel k;
    k.line = 7;
    k.forLoop(k.constI(0), k.constI(10), k.constI(0), {k.constI(0)},
              [&](ValueId, std::vector<ValueId> c) -> std::vector<ValueId> {
                  return {k.bin(OpKind::Add, c[0], k.constI(1))};
              });
    RunOptions o = grid(1);
    o.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    auto t0 = std::chrono::steady_clock::now();
    std::vector<HostBuffer> none;
    RunResult r = run(k.fn, {}, none, o);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::Timeout);
    EXPECT_EQ(r.fault->message, "line 7: the kernel did not finish within the time limit — an endless loop?");
    EXPECT_LT(s, 2.0);
}

TEST(TritonInterp, AssertFaultsOnTheFirstFalseLane)
{
    Kernel k;
    k.line = 4;
    ValueId ok = k.bin(OpKind::Lt, k.arange(0, 8), k.constI(5, Elem::I32, {8}));
    k.emitVoid(OpKind::Assert, {ok}, {}, "offsets in range");
    std::vector<HostBuffer> none;
    RunResult r = run(k.fn, {}, none, grid(1));
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::Assert);
    EXPECT_EQ(r.fault->lane, 5);
    EXPECT_EQ(r.fault->badLanes, 3);
    EXPECT_EQ(r.fault->message, "line 4: tl.device_assert failed in program 0, lane 5 of 8: offsets in range");
}

TEST(TritonInterp, MalformedIrIsAnUnsupportedFaultNotACrash)
{
    Kernel k;
    k.line = 6;
    ValueId a = k.arange(0, 8);
    k.emit(OpKind::Add, ty(Elem::I32, {16}), {a, a}); // 8 lanes into 16: a checker bug
    std::vector<HostBuffer> none;
    RunResult r = run(k.fn, {}, none, grid(1));
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::Unsupported);
    EXPECT_EQ(r.fault->message, "line 6: internal error: the interpreter cannot run this `add` op: operand 0 has 8 "
                                "lanes, the result 16");
    Kernel f;
    f.emit(OpKind::Load, ty(Elem::F32, {4}), {f.arange(0, 4)});
    r = run(f.fn, {}, none, grid(1));
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, FaultKind::Unsupported);
}

/// out[M,N] = a[M,K] · b[K,N] loaded from row-major buffers, with `precision`.
Kernel dotKernel(int64_t m, int64_t n, int64_t kk, const std::string& precision)
{
    Kernel k;
    ValueId a = k.param("a", ptrTy(Elem::F32));
    ValueId b = k.param("b", ptrTy(Elem::F32));
    ValueId out = k.param("out", ptrTy(Elem::F32));
    auto grid2 = [&](int64_t rows, int64_t cols) {
        ValueId r = k.broadcast(k.expand(k.arange(0, rows), 1), {rows, cols});
        ValueId c = k.broadcast(k.expand(k.arange(0, cols), 0), {rows, cols});
        return k.bin(OpKind::Add, k.bin(OpKind::Mul, r, k.constI(cols, Elem::I32, {rows, cols})), c);
    };
    ValueId av = k.load(k.addptr(k.splat(a, {m, kk}), grid2(m, kk)));
    ValueId bv = k.load(k.addptr(k.splat(b, {kk, n}), grid2(kk, n)));
    ValueId d = k.emit(OpKind::Dot, ty(Elem::F32, {m, n}), {av, bv, k.constF(0.25, Elem::F32, {m, n})}, {}, precision);
    k.store(k.addptr(k.splat(out, {m, n}), grid2(m, n)), d);
    return k;
}

TEST(TritonInterp, DotMatchesANaiveProduct)
{
    const int64_t m = 32, n = 16, kk = 64;
    Kernel k = dotKernel(m, n, kk, "ieee");
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> a(m * kk), b(kk * n), o(m * n);
    for (float& v : a)
        v = dist(rng);
    for (float& v : b)
        v = dist(rng);
    std::vector<HostBuffer> bufs{buffer("a", a, Elem::F32), buffer("b", b, Elem::F32), buffer("out", o, Elem::F32)};
    std::vector<ArgValue> args{{0}, {1}, {2}};
    ASSERT_FALSE(run(k.fn, args, bufs, grid(1)).fault);
    for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
            double s = 0.25;
            for (int64_t x = 0; x < kk; ++x) {
                s += static_cast<double>(a[i * kk + x]) * b[x * n + j];
            }
            ASSERT_NEAR(o[i * n + j], s, 1e-5) << i << "," << j;
        }
    }
}

TEST(TritonInterp, DotRoundsFp32OperandsToTf32)
{
    float x = 1.0f + std::ldexp(1.0f, -12); // below tf32's 10-bit mantissa
    for (const char* precision : {"tf32", "ieee"}) {
        Kernel k = dotKernel(16, 16, 16, precision);
        std::vector<float> a(256, 0.0f), b(256, 0.0f), o(256);
        a[0] = x;
        b[0] = 1.0f;
        std::vector<HostBuffer> bufs{buffer("a", a, Elem::F32), buffer("b", b, Elem::F32), buffer("out", o, Elem::F32)};
        std::vector<ArgValue> args{{0}, {1}, {2}};
        ASSERT_FALSE(run(k.fn, args, bufs, grid(1)).fault);
        EXPECT_EQ(o[0], std::string(precision) == "tf32" ? 1.25f : x + 0.25f) << precision;
    }
}

/// Tutorial 03's loop without grouping: c[M,N] = a[M,K]·b[K,N], fp32 row-major, BM×BN×BK tiles, ieee dot.
Kernel matmulKernel(int64_t nn, int64_t kk, int64_t bm, int64_t bn, int64_t bk)
{
    Kernel k;
    ValueId a = k.param("a", ptrTy(Elem::F32));
    ValueId b = k.param("b", ptrTy(Elem::F32));
    ValueId c = k.param("c", ptrTy(Elem::F32));
    auto c32 = [&](int64_t v, Shape s = {}) { return k.constI(v, Elem::I32, s); };
    ValueId pid = k.pid();
    ValueId pm = k.bin(OpKind::Div, pid, c32(nn / bn));
    ValueId pn = k.bin(OpKind::Rem, pid, c32(nn / bn));
    ValueId rm = k.bin(OpKind::Add, k.splat(k.bin(OpKind::Mul, pm, c32(bm)), {bm}), k.arange(0, bm));
    ValueId rn = k.bin(OpKind::Add, k.splat(k.bin(OpKind::Mul, pn, c32(bn)), {bn}), k.arange(0, bn));
    ValueId rk = k.arange(0, bk);
    auto outer = [&](ValueId rows, ValueId cols, int64_t stride, Shape s) {
        ValueId r = k.bin(OpKind::Mul, k.broadcast(k.expand(rows, 1), s), c32(stride, s));
        return k.bin(OpKind::Add, r, k.broadcast(k.expand(cols, 0), s));
    };
    ValueId ap0 = k.addptr(k.splat(a, {bm, bk}), outer(rm, rk, kk, {bm, bk}));
    ValueId bp0 = k.addptr(k.splat(b, {bk, bn}), outer(rk, rn, nn, {bk, bn}));
    ValueId kMask = k.broadcast(k.expand(rk, 0), {bm, bk});
    ValueId kMaskB = k.broadcast(k.expand(rk, 1), {bk, bn});
    std::vector<ValueId> res = k.forLoop(
        c32(0), c32(kk / bk), c32(1), {k.constF(0.0, Elem::F32, {bm, bn}), ap0, bp0},
        [&](ValueId iv, std::vector<ValueId> v) -> std::vector<ValueId> {
            ValueId left = k.bin(OpKind::Sub, c32(kk), k.bin(OpKind::Mul, iv, c32(bk)));
            ValueId av =
                k.load(v[1], k.bin(OpKind::Lt, kMask, k.splat(left, {bm, bk})), k.constF(0.0, Elem::F32, {bm, bk}));
            ValueId bv =
                k.load(v[2], k.bin(OpKind::Lt, kMaskB, k.splat(left, {bk, bn})), k.constF(0.0, Elem::F32, {bk, bn}));
            ValueId acc = k.emit(OpKind::Dot, ty(Elem::F32, {bm, bn}), {av, bv, v[0]}, {}, "ieee");
            return {acc, k.addptr(v[1], c32(bk, {bm, bk})), k.addptr(v[2], c32(bk * nn, {bk, bn}))};
        });
    k.store(k.addptr(k.splat(c, {bm, bn}), outer(rm, rn, nn, {bm, bn})), res[0]);
    return k;
}

TEST(TritonInterp, Matmul512WithTutorialTilesIsExactAndFast)
{
    const int64_t n = 512;
    Kernel k = matmulKernel(n, n, 64, 64, 32);
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> dist(-4, 4);
    std::vector<float> a(n * n), b(n * n), c(n * n, -1.0f);
    for (float& v : a)
        v = static_cast<float>(dist(rng));
    for (float& v : b)
        v = static_cast<float>(dist(rng));
    std::vector<HostBuffer> bufs{buffer("a", a, Elem::F32), buffer("b", b, Elem::F32), buffer("c", c, Elem::F32)};
    std::vector<ArgValue> args{{0}, {1}, {2}};
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = run(k.fn, args, bufs, grid((n / 64) * (n / 64)));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_FALSE(r.fault) << r.fault->message;
    for (int64_t i = 0; i < n; i += 37) { // small integers: every partial sum is exact
        for (int64_t j = 0; j < n; ++j) {
            double s = 0;
            for (int64_t x = 0; x < n; ++x) {
                s += static_cast<double>(a[i * n + x]) * b[x * n + j];
            }
            ASSERT_EQ(c[i * n + j], s) << i << "," << j;
        }
    }
    std::printf("matmul 512x512x512, 64x64x32 tiles, 64 programs: %.1f ms\n", ms);
}

TEST(TritonInterp, VectorAddOfOneMillionElementsIsFast)
{
    const int64_t n = 1048577;
    Kernel k = vectorAdd(1024);
    VectorCase c(n);
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = run(k.fn, c.args, c.buffers, grid((n + 1023) / 1024));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_FALSE(r.fault) << r.fault->message;
    EXPECT_EQ(r.programsRun, 1025);
    EXPECT_EQ(c.out[n - 1], c.x[n - 1] + c.y[n - 1]);
    std::printf("vector add n=%lld, 1025 programs: %.1f ms\n", static_cast<long long>(n), ms);
}

} // namespace
} // namespace tkm::triton::interp
