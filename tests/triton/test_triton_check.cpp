// The checker (engine/triton/check/): the tutorials' kernels check, the IR is what ir.h documents (a vector
// add as a golden, substring checks elsewhere), constexpr folding, static_range unrolling, helper inlining with
// tuple returns, loop-carried values, the promotion table of semantic.py and block-pointer desugaring.

#include "tests/triton/triton_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using tkm::triton::CheckInput;
using tkm::triton::ConstexprValue;
using tkm::triton::ir::Elem;
using tkm::triton::ir::OpKind;
using tkm::triton::ir::Type;
using tkm::triton::test::compile;
using tkm::triton::test::Compiled;
using tkm::triton::test::diagnosticsText;

Type ptr(Elem e)
{
    return Type{Elem::Ptr, {}, e};
}

Type scalar(Elem e)
{
    return Type{e, {}, Elem::F32};
}

std::string readData(const std::string& name)
{
    fs::path p = fs::path(TKM_SOURCE_DIR) / "tests" / "data" / "triton" / "tutorials" / name;
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

CheckInput input(const std::string& entry, std::vector<Type> types, std::map<std::string, ConstexprValue> cs = {})
{
    CheckInput in;
    in.entry = entry;
    in.runtimeParamTypes = std::move(types);
    in.constexprs = std::move(cs);
    return in;
}

/// Compiles and expects success; returns the dump.
std::string okDump(const std::string& src, const CheckInput& in)
{
    Compiled c = compile(src, in);
    EXPECT_TRUE(c.checked.function.has_value()) << diagnosticsText(c);
    if (!c.checked.function) {
        return {};
    }
    return tkm::triton::ir::dump(*c.checked.function);
}

int countOps(const tkm::triton::ir::Region& r, OpKind k)
{
    int n = 0;
    for (const auto& op : r.ops) {
        n += op.kind == k ? 1 : 0;
        for (const auto& sub : op.regions) {
            n += countOps(*sub, k);
        }
    }
    return n;
}

const char* kVecAdd = R"(import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)
)";

TEST(TritonCheck, VectorAddGolden)
{
    std::string d =
        okDump(kVecAdd, input("add_kernel", {ptr(Elem::F32), ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32)},
                              {{"BLOCK", ConstexprValue::ofInt(1024)}}));
    EXPECT_EQ(
        d,
        R"(func add_kernel(%0 x_ptr: pointer<fp32>, %1 y_ptr: pointer<fp32>, %2 out_ptr: pointer<fp32>, %3 n: int32) num_warps=4 num_stages=3
  %4 = program_id 0 : int32  # line 6
  %5 = constant 1024 : int32  # line 7
  %6 = mul %4, %5 : int32  # line 7
  %7 = arange 0 1024 : <1024xint32>  # line 7
  %8 = splat %6 : <1024xint32>  # line 7
  %9 = add %8, %7 : <1024xint32>  # line 7
  %10 = splat %3 : <1024xint32>  # line 8
  %11 = lt %9, %10 : <1024xint1>  # line 8
  %12 = splat %0 : <1024xpointer<fp32>>  # line 9
  %13 = addptr %12, %9 : <1024xpointer<fp32>>  # line 9
  %14 = load %13, %11, %none 1 : <1024xfp32>  # line 9
  %15 = splat %1 : <1024xpointer<fp32>>  # line 10
  %16 = addptr %15, %9 : <1024xpointer<fp32>>  # line 10
  %17 = load %16, %11, %none 1 : <1024xfp32>  # line 10
  %18 = splat %2 : <1024xpointer<fp32>>  # line 11
  %19 = addptr %18, %9 : <1024xpointer<fp32>>  # line 11
  %20 = add %14, %17 : <1024xfp32>  # line 11
  store %19, %20, %11  # line 11
)");
}

struct Tutorial
{
    const char* file;
    const char* entry;
    std::vector<Type> types;
    std::map<std::string, ConstexprValue> cs;
};

class TutorialKernels : public ::testing::TestWithParam<int>
{
};

std::vector<Tutorial> tutorials()
{
    auto i32 = scalar(Elem::I32);
    auto f32 = scalar(Elem::F32);
    auto pf = ptr(Elem::F32);
    auto ph = ptr(Elem::F16);
    std::vector<Type> attn{ph, ph, ph, f32, pf, ph};
    for (int k = 0; k < 16; ++k) {
        attn.push_back(i32);
    }
    attn.push_back(i32);
    attn.push_back(i32);
    return {
        {"01_vector_add.py", "vec_add_kernel", {pf, pf, pf, i32}, {{"BLOCK_SIZE", ConstexprValue::ofInt(1024)}}},
        {"02_fused_softmax.py",
         "softmax_one_row",
         {pf, pf, i32, i32, i32},
         {{"BLOCK_SIZE", ConstexprValue::ofInt(1024)}}},
        {"02_fused_softmax.py",
         "softmax_persistent",
         {pf, pf, i32, i32, i32, i32},
         {{"BLOCK_SIZE", ConstexprValue::ofInt(1024)}, {"num_stages", ConstexprValue::ofInt(2)}}},
        {"03_matmul.py",
         "matmul_kernel",
         {ph, ph, ph, i32, i32, i32, i32, i32, i32, i32, i32, i32},
         {{"BLOCK_SIZE_M", ConstexprValue::ofInt(64)},
          {"BLOCK_SIZE_N", ConstexprValue::ofInt(64)},
          {"BLOCK_SIZE_K", ConstexprValue::ofInt(32)},
          {"GROUP_SIZE_M", ConstexprValue::ofInt(8)},
          {"ACTIVATION", ConstexprValue::ofStr("leaky_relu")}}},
        {"05_layer_norm.py",
         "_layer_norm_fwd_fused",
         {pf, pf, pf, pf, pf, pf, i32, i32, f32},
         {{"BLOCK_SIZE", ConstexprValue::ofInt(256)}}},
        {"06_fused_attention.py",
         "_attn_fwd",
         attn,
         {{"N_CTX", ConstexprValue::ofInt(256)},
          {"HEAD_DIM", ConstexprValue::ofInt(64)},
          {"BLOCK_M", ConstexprValue::ofInt(64)},
          {"BLOCK_N", ConstexprValue::ofInt(32)},
          {"STAGE", ConstexprValue::ofInt(3)}}},
        {"06_fused_attention.py",
         "_attn_fwd",
         attn,
         {{"N_CTX", ConstexprValue::ofInt(256)},
          {"HEAD_DIM", ConstexprValue::ofInt(64)},
          {"BLOCK_M", ConstexprValue::ofInt(64)},
          {"BLOCK_N", ConstexprValue::ofInt(32)},
          {"STAGE", ConstexprValue::ofInt(1)}}},
    };
}

TEST_P(TutorialKernels, ChecksWithoutDiagnostics)
{
    const Tutorial t = tutorials()[static_cast<size_t>(GetParam())];
    Compiled c = compile(readData(t.file), input(t.entry, t.types, t.cs));
    ASSERT_TRUE(c.checked.function.has_value()) << t.file << "\n" << diagnosticsText(c);
    EXPECT_EQ(diagnosticsText(c), "") << t.file;
}

INSTANTIATE_TEST_SUITE_P(Tutorials, TutorialKernels, ::testing::Range(0, 7));

const char* kHeader = "import triton\nimport triton.language as tl\n\n";

CheckInput basic(std::map<std::string, ConstexprValue> cs = {})
{
    return input("k", {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32)}, std::move(cs));
}

TEST(TritonCheck, ConstexprIfFolds)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n, STAGE: tl.constexpr):
    offs = tl.arange(0, 16)
    if STAGE == 1:
        v = tl.load(x_ptr + offs)
    elif STAGE == 2:
        v = tl.load(y_ptr + offs)
    else:
        v = tl.zeros((16,), dtype=tl.float32)
    tl.store(y_ptr + offs, v)
)";
    for (int stage : {1, 2, 3}) {
        Compiled c = compile(src, basic({{"STAGE", ConstexprValue::ofInt(stage)}}));
        ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
        const auto& f = *c.checked.function;
        EXPECT_EQ(countOps(f.body, OpKind::If), 0);
        EXPECT_EQ(countOps(f.body, OpKind::Load), stage == 3 ? 0 : 1);
        std::string d = tkm::triton::ir::dump(f);
        if (stage == 2) {
            EXPECT_NE(d.find("splat %1 : <16xpointer<fp32>>  # line 10"), std::string::npos) << d;
        }
    }
}

TEST(TritonCheck, StaticRangeUnrolls)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n, R: tl.constexpr):
    acc = tl.zeros((16,), dtype=tl.float32)
    for i in tl.static_range(R):
        acc += tl.load(x_ptr + i * 16 + tl.arange(0, 16))
    tl.store(y_ptr + tl.arange(0, 16), acc)
)";
    Compiled c = compile(src, basic({{"R", ConstexprValue::ofInt(4)}}));
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    EXPECT_EQ(countOps(c.checked.function->body, OpKind::For), 0);
    EXPECT_EQ(countOps(c.checked.function->body, OpKind::Load), 4);
}

TEST(TritonCheck, HelperInlinedWithTupleReturn)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def stats(x, N: tl.constexpr):
    mean = tl.sum(x, axis=0) / N
    d = x - mean
    return mean, tl.sum(d * d, axis=0) / N

@triton.jit
def k(x_ptr, y_ptr, n):
    x = tl.load(x_ptr + tl.arange(0, 64))
    m, v = stats(x, 64)
    tl.store(y_ptr, m)
    tl.store(y_ptr + 1, v)
)";
    Compiled c = compile(src, input("k", {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32)}));
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    const auto& f = *c.checked.function;
    EXPECT_EQ(countOps(f.body, OpKind::Reduce), 2);
    EXPECT_EQ(countOps(f.body, OpKind::Store), 2);
    // The helper's lines are kept on its ops.
    EXPECT_NE(tkm::triton::ir::dump(f).find("reduce %6 0 0 \"sum\" : fp32  # line 6"), std::string::npos)
        << tkm::triton::ir::dump(f);
}

TEST(TritonCheck, LoopCarriedValues)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n):
    acc = tl.zeros((32,), dtype=tl.float32)
    count = 0
    for i in range(0, n, 32):
        acc += tl.load(x_ptr + i + tl.arange(0, 32), mask=i + tl.arange(0, 32) < n, other=0.0)
        count += 1
    tl.store(y_ptr + tl.arange(0, 32), acc / count)
)";
    Compiled c = compile(src, basic());
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    const auto& f = *c.checked.function;
    const tkm::triton::ir::Op* loop = nullptr;
    for (const auto& op : f.body.ops) {
        if (op.kind == OpKind::For) {
            loop = &op;
        }
    }
    ASSERT_NE(loop, nullptr);
    ASSERT_EQ(loop->operands.size(), 5u); // lb, ub, step, acc, count
    ASSERT_EQ(loop->results.size(), 2u);
    ASSERT_EQ(loop->regions.size(), 1u);
    const auto& body = *loop->regions[0];
    ASSERT_EQ(body.args.size(), 3u); // iv, acc, count
    EXPECT_EQ(f.typeOf(body.args[0]).str(), "int32");
    EXPECT_EQ(f.typeOf(body.args[1]).str(), "<32xfp32>");
    EXPECT_EQ(f.typeOf(body.args[2]).str(), "int32");
    ASSERT_FALSE(body.ops.empty());
    EXPECT_EQ(body.ops.back().kind, OpKind::Yield);
    EXPECT_EQ(body.ops.back().operands.size(), 2u);
    EXPECT_EQ(f.typeOf(loop->results[0]).str(), "<32xfp32>");
}

TEST(TritonCheck, RuntimeIfYieldsAssignedNames)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if n > 4:
        x = x * 2.0
        only_here = 1
    tl.store(y_ptr + tl.arange(0, 16), x)
)";
    Compiled c = compile(src, basic());
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    const auto& f = *c.checked.function;
    const tkm::triton::ir::Op* iff = nullptr;
    for (const auto& op : f.body.ops) {
        if (op.kind == OpKind::If) {
            iff = &op;
        }
    }
    ASSERT_NE(iff, nullptr);
    EXPECT_EQ(iff->results.size(), 1u);
    ASSERT_EQ(iff->regions.size(), 2u);
    EXPECT_EQ(iff->regions[0]->ops.back().kind, OpKind::Yield);
    EXPECT_EQ(iff->regions[1]->ops.back().kind, OpKind::Yield);
    EXPECT_EQ(iff->regions[1]->ops.back().operands.size(), 1u);
}

TEST(TritonCheck, EarlyReturnPutsTheRestInTheElseBranch)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n):
    pid = tl.program_id(0)
    if pid * 16 >= n:
        return
    offs = pid * 16 + tl.arange(0, 16)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))
)";
    Compiled c = compile(src, basic());
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    const auto& f = *c.checked.function;
    ASSERT_EQ(f.body.ops.back().kind, OpKind::If);
    EXPECT_EQ(countOps(*f.body.ops.back().regions[1], OpKind::Store), 1);
    EXPECT_EQ(countOps(*f.body.ops.back().regions[0], OpKind::Store), 0);
}

TEST(TritonCheck, WhileLoop)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n):
    i = 0
    s = 0.0
    while i < n:
        s += tl.load(x_ptr + i)
        i += 1
    tl.store(y_ptr, s)
)";
    Compiled c = compile(src, basic());
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    const auto& f = *c.checked.function;
    const tkm::triton::ir::Op* w = nullptr;
    for (const auto& op : f.body.ops) {
        if (op.kind == OpKind::While) {
            w = &op;
        }
    }
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->operands.size(), 2u);
    EXPECT_EQ(w->regions[0]->ops.back().kind, OpKind::Condition);
    EXPECT_EQ(w->regions[0]->ops.back().operands.size(), 3u);
    EXPECT_EQ(w->regions[1]->ops.back().kind, OpKind::Yield);
    EXPECT_EQ(w->results.size(), 2u);
}

/// The element type of `a <op> b` where a and b are written as Python expressions over the kernel's tiles.
std::string resultType(const std::string& expr)
{
    std::string src = std::string(kHeader) +
                      "@triton.jit\ndef k(x_ptr, y_ptr, n):\n"
                      "    i1 = tl.arange(0, 16) < 3\n"
                      "    i8 = tl.zeros((16,), dtype=tl.int8)\n"
                      "    i32 = tl.zeros((16,), dtype=tl.int32)\n"
                      "    i64 = tl.zeros((16,), dtype=tl.int64)\n"
                      "    u32 = tl.zeros((16,), dtype=tl.uint32)\n"
                      "    f16 = tl.zeros((16,), dtype=tl.float16)\n"
                      "    bf16 = tl.zeros((16,), dtype=tl.bfloat16)\n"
                      "    f32 = tl.zeros((16,), dtype=tl.float32)\n"
                      "    f64 = tl.zeros((16,), dtype=tl.float64)\n"
                      "    r = " +
                      expr +
                      "\n"
                      "    tl.static_print(r)\n";
    Compiled c = compile(src, basic());
    if (!c.checked.function) {
        return "error: " + diagnosticsText(c);
    }
    const auto& f = *c.checked.function;
    return f.typeOf(f.body.ops.back().results.at(0)).str();
}

TEST(TritonCheck, PromotionTable)
{
    struct P
    {
        const char* expr;
        const char* type;
    };
    const P table[] = {
        {"i32 + f16", "<16xfp16>"},
        {"f16 + bf16", "<16xfp16>"},
        {"bf16 + bf16", "<16xbf16>"},
        {"bf16 + i32", "<16xfp32>"},
        {"i32 + i64", "<16xint64>"},
        {"u32 + i32", "<16xuint32>"},
        {"i8 + i32", "<16xint32>"},
        {"i1 + i1", "<16xint1>"},
        {"f32 + f64", "<16xfp64>"},
        {"f16 * 2.5", "<16xfp16>"},
        {"i8 + 1000", "<16xint8>"},
        {"i32 / i32", "<16xfp32>"},
        {"f16 / f16", "<16xfp32>"},
        {"i32 // 2", "<16xint32>"},
        {"i64 % 3", "<16xint64>"},
        {"i32 < f32", "<16xint1>"},
        {"i1 & i1", "<16xint1>"},
        {"i32 + 1.5", "<16xfp32>"},
        {"bf16 * 2.0", "<16xbf16>"},
        {"f16 + f32", "<16xfp32>"},
        {"u32 >> 1", "<16xuint32>"},
        {"tl.sum(i8, axis=0)", "int32"},
        {"tl.sum(i1, axis=0)", "int32"},
        {"tl.sum(f16, axis=0)", "fp16"},
        {"tl.max(f16, axis=0)", "fp32"},
        {"tl.max(bf16, axis=0)", "fp32"},
        {"tl.argmax(f32, axis=0)", "int32"},
        {"tl.where(i1, i32, f16)", "<16xfp16>"},
        {"tl.where(i1, f32, 0)", "<16xfp32>"},
    };
    for (const P& p : table) {
        EXPECT_EQ(resultType(p.expr), p.type) << p.expr;
    }
}

TEST(TritonCheck, BlockPointerDesugars)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n):
    bp = tl.make_block_ptr(base=x_ptr, shape=(n, 64), strides=(64, 1), offsets=(tl.program_id(0) * 32, 0),
                           block_shape=(32, 64), order=(1, 0))
    t = tl.load(bp, boundary_check=(0, 1), padding_option="zero")
    bp = tl.advance(bp, (0, 64))
    out = tl.make_block_ptr(base=y_ptr, shape=(n, 64), strides=(64, 1), offsets=(0, 0), block_shape=(32, 64),
                            order=(1, 0))
    tl.store(out, t + tl.load(bp), boundary_check=(0,))
)";
    Compiled c = compile(src, basic());
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    const auto& f = *c.checked.function;
    std::string d = tkm::triton::ir::dump(f);
    int loads = 0;
    for (const auto& op : f.body.ops) {
        if (op.kind == OpKind::Load) {
            ++loads;
            EXPECT_EQ(f.typeOf(op.operands[0]).str(), "<32x64xpointer<fp32>>") << d;
            EXPECT_EQ(f.typeOf(op.results[0]).str(), "<32x64xfp32>");
            if (loads == 1) {
                ASSERT_NE(op.operands[1], tkm::triton::ir::kNoValue) << "boundary_check gives a mask";
                ASSERT_NE(op.operands[2], tkm::triton::ir::kNoValue) << "padding_option=zero gives other";
                EXPECT_EQ(f.typeOf(op.operands[1]).str(), "<32x64xint1>");
            } else {
                EXPECT_EQ(op.operands[1], tkm::triton::ir::kNoValue);
            }
        }
        if (op.kind == OpKind::Store) {
            EXPECT_NE(op.operands[2], tkm::triton::ir::kNoValue);
        }
    }
    EXPECT_EQ(loads, 2);
    EXPECT_EQ(countOps(f.body, OpKind::Arange), 6);
}

TEST(TritonCheck, BroadcastErrorHasShapeNotes)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n):
    a = tl.load(x_ptr + tl.arange(0, 32))
    b = tl.load(y_ptr + tl.arange(0, 64))
    c = a + b
)";
    Compiled c = compile(src, basic());
    ASSERT_EQ(c.checked.diagnostics.size(), 1u);
    const auto& d = c.checked.diagnostics[0];
    ASSERT_EQ(d.notes.size(), 2u);
    EXPECT_EQ(d.notes[0].range.begin.line, 6);
    EXPECT_EQ(d.notes[1].range.begin.line, 7);
    EXPECT_EQ(d.underline.size(), 2u);
    EXPECT_NE(diagnosticsText(c).find("kernel.py:6:"), std::string::npos) << diagnosticsText(c);
}

TEST(TritonCheck, SignatureMarksConstexprAndHeuristics)
{
    std::string src = std::string(kHeader) + R"(@triton.heuristics({"EVEN": lambda args: args["n"] % 16 == 0})
@triton.jit
def k(x_ptr, n, EVEN, BLOCK: tl.constexpr = 128):
    pass
)";
    auto parsed = tkm::triton::parse(src);
    const auto* fn = parsed.module.function("k");
    ASSERT_NE(fn, nullptr);
    auto sig = tkm::triton::signatureOf(*fn);
    ASSERT_EQ(sig.size(), 4u);
    EXPECT_FALSE(sig[0].constexpr_);
    EXPECT_FALSE(sig[1].constexpr_);
    EXPECT_TRUE(sig[2].constexpr_);
    EXPECT_TRUE(sig[3].constexpr_);
    EXPECT_TRUE(sig[3].hasDefault);
}

TEST(TritonCheck, ParamCountMismatchNamesBothSides)
{
    Compiled c = compile(kVecAdd, input("add_kernel", {ptr(Elem::F32)}, {{"BLOCK", ConstexprValue::ofInt(64)}}));
    ASSERT_FALSE(c.checked.function);
    EXPECT_NE(diagnosticsText(c).find("has 4 runtime parameter(s) but the exercise passes 1: x_ptr, y_ptr, out_ptr, n"),
              std::string::npos)
        << diagnosticsText(c);
}

TEST(TritonCheck, BitmaskComparisonAndPythonMathAreAccepted)
{
    std::string src = std::string(kHeader) + R"(import math

@triton.jit
def k(x_ptr, y_ptr, n):
    LOG2E: tl.constexpr = math.log2(math.e)
    offs = tl.arange(0, 16)
    low = offs & 0xF < 8
    x = tl.load(x_ptr + offs, mask=low, other=0.0)
    tl.store(y_ptr + offs, tl.exp2(x * LOG2E), mask=low)
)";
    Compiled c = compile(src, basic());
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    EXPECT_EQ(diagnosticsText(c), "");
    EXPECT_NE(tkm::triton::ir::dump(*c.checked.function).find("constant 1.4427"), std::string::npos)
        << tkm::triton::ir::dump(*c.checked.function);
}

/// The type of every name bound by `body` in a kernel (x_ptr, y_ptr fp32 pointers, h_ptr fp16, n int32).
std::string typesOf(const std::string& body, const std::string& expect)
{
    std::string src =
        std::string(kHeader) + "@triton.jit\ndef k(x_ptr, y_ptr, h_ptr, n):\n" + body + "    tl.static_print(r)\n";
    Compiled c = compile(src, input("k", {ptr(Elem::F32), ptr(Elem::F32), ptr(Elem::F16), scalar(Elem::I32)}));
    if (!c.checked.function) {
        return "error: " + diagnosticsText(c);
    }
    (void)expect;
    // The value bound to `r` is the last value defined before the print.
    const auto& f = *c.checked.function;
    for (auto it = f.body.ops.rbegin(); it != f.body.ops.rend(); ++it) {
        if (!it->results.empty()) {
            return f.typeOf(it->results.back()).str();
        }
    }
    return "none";
}

TEST(TritonCheck, BuiltinResultTypes)
{
    struct B
    {
        const char* body;
        const char* type;
    };
    const B table[] = {
        {"    x = tl.zeros((16, 32), dtype=tl.float32)\n    r = tl.sum(x)\n", "fp32"},
        {"    x = tl.zeros((16, 32), dtype=tl.float32)\n    r = tl.max(x, axis=1, keep_dims=True)\n", "<16x1xfp32>"},
        {"    x = tl.zeros((16, 32), dtype=tl.float32)\n    r = tl.sum(x, axis=None, keep_dims=True)\n", "<1x1xfp32>"},
        {"    x = tl.zeros((16, 32), dtype=tl.float32)\n    r = tl.trans(x)\n", "<32x16xfp32>"},
        {"    x = tl.zeros((16, 32), dtype=tl.float32)\n    r = x.T\n", "<32x16xfp32>"},
        {"    x = tl.zeros((16, 32), dtype=tl.float32)\n    r = tl.reshape(x, (512,))\n", "<512xfp32>"},
        {"    x = tl.zeros((16, 32), dtype=tl.float32)\n    r = x.reshape(32, 16)\n", "<32x16xfp32>"},
        {"    x = tl.zeros((16,), dtype=tl.float32)\n    r = tl.expand_dims(x, 1)\n", "<16x1xfp32>"},
        {"    x = tl.zeros((16,), dtype=tl.float32)\n    r = tl.broadcast_to(x[None, :], (8, 16))\n", "<8x16xfp32>"},
        {"    a = tl.zeros((32, 16), dtype=tl.float16)\n    b = tl.zeros((16, 64), dtype=tl.float16)\n"
         "    r = tl.dot(a, b)\n",
         "<32x64xfp32>"},
        {"    a = tl.zeros((32, 16), dtype=tl.float16)\n    b = tl.zeros((16, 64), dtype=tl.float16)\n"
         "    r = tl.dot(a, b, out_dtype=tl.float16)\n",
         "<32x64xfp16>"},
        {"    a = tl.zeros((32, 32), dtype=tl.int8)\n    b = tl.zeros((32, 32), dtype=tl.int8)\n    r = tl.dot(a, b)\n",
         "<32x32xint32>"},
        // semantic.py: fp64 operands accumulate in fp64.
        {"    a = tl.zeros((32, 16), dtype=tl.float64)\n    b = tl.zeros((16, 32), dtype=tl.float64)\n"
         "    r = tl.dot(a, b)\n",
         "<32x32xfp64>"},
        {"    x = tl.load(h_ptr + tl.arange(0, 16))\n    r = x.to(tl.float32)\n", "<16xfp32>"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = x.to(tl.int32, bitcast=True)\n", "<16xint32>"},
        {"    r = tl.atomic_add(x_ptr + tl.arange(0, 16), 1.0)\n", "<16xfp32>"},
        {"    r = tl.atomic_cas(x_ptr, 0.0, 1.0)\n", "fp32"},
        {"    r = tl.cumsum(tl.arange(0, 16), axis=0)\n", "<16xint32>"},
        {"    r = tl.join(tl.arange(0, 16), tl.arange(0, 16))\n", "<16x2xint32>"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = tl.sigmoid(x)\n", "<16xfp32>"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = tl.fma(x, x, 1.0)\n", "<16xfp32>"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = tl.maximum(x, 0.0)\n", "<16xfp32>"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = max(x, 0.0)\n", "<16xfp32>"},
        {"    r = tl.cdiv(n, 16)\n", "int32"},
        {"    r = tl.num_programs(1)\n", "int32"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = tl.where(x > 0, x, 0.0)\n", "<16xfp32>"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = tl.argmin(x, axis=0)\n", "int32"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = tl.softmax(x)\n", "<16xfp32>"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = x.sum(axis=0)\n", "fp32"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = tl.math.exp2(x)\n", "<16xfp32>"},
        {"    x = tl.zeros((16, 32), dtype=tl.float32)\n    r = tl.permute(x, (1, 0))\n", "<32x16xfp32>"},
        {"    i = tl.arange(0, 16)\n    r = tl.multiple_of(i, 16) + 0\n", "<16xint32>"},
        {"    r = tl.full((4, 4), float('inf'), tl.float32)\n", "<4x4xfp32>"},
        {"    x = tl.load(x_ptr + tl.arange(0, 16))\n    r = tl.zeros_like(x)\n", "<16xfp32>"},
        {"    v = tl.load(x_ptr)\n    r = v if n > 0 else 1.0\n", "fp32"},
        {"    p = x_ptr.to(tl.int64)\n    r = p + 4\n", "int64"},
        {"    i = tl.arange(0, 16)\n    r = tl.where(i < n, x_ptr + i, y_ptr + i)\n", "<16xpointer<fp32>>"},
    };
    for (const B& b : table) {
        EXPECT_EQ(typesOf(b.body, b.type), b.type) << b.body;
    }
}

TEST(TritonCheck, NoWarningForRowsIndexedByARuntimeStride)
{
    // A row base program_id · stride with a full-width constexpr tile is in bounds: no "no mask" warning.
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n, D: tl.constexpr):
    row = tl.program_id(0)
    q = tl.load(x_ptr + row * n + tl.arange(0, D))
    tl.store(y_ptr + row * n + tl.arange(0, D), q * 2.0)
)";
    Compiled c = compile(src, basic({{"D", ConstexprValue::ofInt(64)}}));
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    EXPECT_EQ(diagnosticsText(c), "");
}

TEST(TritonCheck, NumWarpsParameterReadsTheLaunch)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def k(x_ptr, y_ptr, n, NUM_WARPS: tl.constexpr):
    offs = tl.arange(0, 32 * NUM_WARPS)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
)";
    CheckInput in = basic();
    in.numWarps = 8;
    Compiled c = compile(src, in);
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    EXPECT_NE(tkm::triton::ir::dump(*c.checked.function).find("arange 0 256"), std::string::npos);
}

TEST(TritonCheck, HelperEarlyReturnBecomesIfResults)
{
    std::string src = std::string(kHeader) + R"(@triton.jit
def clamp_low(x, lo):
    if lo > 0:
        return tl.maximum(x, lo.to(tl.float32)), lo
    return x, 0

@triton.jit
def k(x_ptr, y_ptr, n):
    v, used = clamp_low(tl.load(x_ptr + tl.arange(0, 16)), n)
    tl.store(y_ptr + tl.arange(0, 16), v + used)
)";
    Compiled c = compile(src, basic());
    ASSERT_TRUE(c.checked.function) << diagnosticsText(c);
    const auto& f = *c.checked.function;
    const tkm::triton::ir::Op* iff = nullptr;
    for (const auto& op : f.body.ops) {
        if (op.kind == OpKind::If) {
            iff = &op;
        }
    }
    ASSERT_NE(iff, nullptr);
    ASSERT_EQ(iff->results.size(), 2u);
    EXPECT_EQ(f.typeOf(iff->results[0]).str(), "<16xfp32>");
    EXPECT_EQ(f.typeOf(iff->results[1]).str(), "int32");
    EXPECT_EQ(iff->regions[0]->ops.back().operands.size(), 2u);
    EXPECT_EQ(iff->regions[1]->ops.back().operands.size(), 2u);
}

} // namespace
