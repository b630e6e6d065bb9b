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
    fs::path p = fs::path(__FILE__).parent_path().parent_path() / "data" / "triton" / "tutorials" / name;
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
    std::string d = okDump(kVecAdd, input("add_kernel", {ptr(Elem::F32), ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32)},
                                          {{"BLOCK", ConstexprValue::ofInt(1024)}}));
    EXPECT_EQ(d, R"(func add_kernel(%0 x_ptr: pointer<fp32>, %1 y_ptr: pointer<fp32>, %2 out_ptr: pointer<fp32>, %3 n: int32) num_warps=4 num_stages=3
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
        {"02_fused_softmax.py", "softmax_one_row", {pf, pf, i32, i32, i32}, {{"BLOCK_SIZE", ConstexprValue::ofInt(1024)}}},
        {"02_fused_softmax.py", "softmax_persistent", {pf, pf, i32, i32, i32, i32},
         {{"BLOCK_SIZE", ConstexprValue::ofInt(1024)}, {"num_stages", ConstexprValue::ofInt(2)}}},
        {"03_matmul.py", "matmul_kernel", {ph, ph, ph, i32, i32, i32, i32, i32, i32, i32, i32, i32},
         {{"BLOCK_SIZE_M", ConstexprValue::ofInt(64)}, {"BLOCK_SIZE_N", ConstexprValue::ofInt(64)},
          {"BLOCK_SIZE_K", ConstexprValue::ofInt(32)}, {"GROUP_SIZE_M", ConstexprValue::ofInt(8)},
          {"ACTIVATION", ConstexprValue::ofStr("leaky_relu")}}},
        {"05_layer_norm.py", "_layer_norm_fwd_fused", {pf, pf, pf, pf, pf, pf, i32, i32, f32},
         {{"BLOCK_SIZE", ConstexprValue::ofInt(256)}}},
        {"06_fused_attention.py", "_attn_fwd", attn,
         {{"N_CTX", ConstexprValue::ofInt(256)}, {"HEAD_DIM", ConstexprValue::ofInt(64)},
          {"BLOCK_M", ConstexprValue::ofInt(64)}, {"BLOCK_N", ConstexprValue::ofInt(32)},
          {"STAGE", ConstexprValue::ofInt(3)}}},
        {"06_fused_attention.py", "_attn_fwd", attn,
         {{"N_CTX", ConstexprValue::ofInt(256)}, {"HEAD_DIM", ConstexprValue::ofInt(64)},
          {"BLOCK_M", ConstexprValue::ofInt(64)}, {"BLOCK_N", ConstexprValue::ofInt(32)},
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

} // namespace
