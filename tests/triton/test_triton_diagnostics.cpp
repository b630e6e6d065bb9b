// The checker's diagnostics table: each row is a wrong (or suspicious) kernel, the line and column the
// diagnostic points at, its severity and the text it must contain. Every row produces exactly one diagnostic
// (one per root cause: follow-on errors are suppressed). Kernel bodies are placed in a common kernel whose
// first body line is line 6:
//   import triton / import triton.language as tl / (blank) / @triton.jit /
//   def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):    with BLOCK = 128, x_ptr/y_ptr fp32 pointers, n int32

#include "tests/triton/triton_test_util.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using tkm::triton::CheckInput;
using tkm::triton::ConstexprValue;
using tkm::triton::Diagnostic;
using tkm::triton::Severity;
using tkm::triton::ir::Elem;
using tkm::triton::ir::Type;

struct Row
{
    const char* name;    ///< what is wrong
    const char* prelude; ///< top-level code before the kernel (shifts no lines: put it after the kernel)
    const char* body;    ///< the kernel body, each line indented by 4
    int line;            ///< expected line
    int column;          ///< expected column
    Severity severity;   ///< error or warning
    const char* text;    ///< a substring of the message
};

constexpr Severity E = Severity::Error;
constexpr Severity W = Severity::Warning;

const std::vector<Row>& rows()
{
    static const std::vector<Row> r = {
        {"arange-not-pow2", "", "    offs = tl.arange(0, 1000)\n", 6, 25, E,
         "1000 is not a power of two: use 1024 (triton.next_power_of_2(1000)) and mask the extra lanes"},
        {"broadcast", "",
         "    a = tl.load(x_ptr + tl.arange(0, 32))\n    b = tl.load(y_ptr + tl.arange(0, 64))\n    c = a + b\n", 8, 9,
         E, "cannot broadcast `a` <32xfp32> with `b` <64xfp32>"},
        {"axis-range", "", "    x = tl.zeros((64, 128), dtype=tl.float32)\n    s = tl.sum(x, axis=2)\n", 7, 19, E,
         "axis 2 is out of range for `x` of shape [64, 128] (rank 2): use axis 0 or 1"},
        {"and-precedence", "",
         "    rm = tl.arange(0, 16)\n    rk = tl.arange(0, 16)\n    m = rm[:, None] < n & rk[None, :] < n\n", 8, 9, E,
         "`&` binds tighter than `<` in Python: write `(rm[:, None] < n) & (rk[None, :] < n)`"},
        {"and-precedence-single", "", "    offs = tl.arange(0, 16)\n    m = (offs < n) & offs > 2\n", 7, 9, E,
         "`&` binds tighter than `>` in Python: write `(offs < n) & (offs > 2)`"},
        {"advance-unused", "",
         "    p = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), "
         "order=(0,))\n    tl.advance(p, (BLOCK,))\n",
         7, 5, E, "the result of tl.advance is dropped: a block pointer is a value"},
        {"not-constexpr-param", "", "    offs = tl.arange(0, n)\n", 6, 25, E,
         "n is not a tl.constexpr: annotate it in the signature (n: tl.constexpr); if n is a size that changes between calls, keep it a runtime argument and give the tile a power-of-two constexpr instead (BLOCK: tl.constexpr, launched with triton.next_power_of_2(n)), masking the lanes at or past n"},
        {"not-constexpr-local", "", "    B = 128\n    offs = tl.arange(0, B)\n", 7, 25, E,
         "`B` is not a tl.constexpr: a plain assignment makes a tensor in Triton; write `B: tl.constexpr = …`"},
        {"zeros-shape-runtime", "", "    acc = tl.zeros((n,), dtype=tl.float32)\n", 6, 21, E,
         "n is not a tl.constexpr: annotate it in the signature"},
        {"static-range-runtime", "", "    for i in tl.static_range(n):\n        pass\n", 6, 30, E,
         "n is not a tl.constexpr"},
        {"reshape-runtime", "", "    x = tl.zeros((128,), dtype=tl.float32)\n    y = tl.reshape(x, (n, 2))\n", 7, 24, E,
         "n is not a tl.constexpr"},
        {"other-without-mask", "", "    x = tl.load(x_ptr + tl.arange(0, BLOCK), other=0.0)\n", 6, 46, E,
         "`other=` without `mask=`"},
        {"loop-carried-type", "",
         "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n    for i in range(0, n):\n        acc = "
         "acc.to(tl.float16)\n",
         8, 15, E, "loop-carried variable `acc` changes type from <128xfp32> to <128xfp16> in the loop body"},
        {"loop-carried-shape", "",
         "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n    for i in range(0, n):\n        acc = acc[:, None]\n", 8,
         15, E, "changes type from <128xfp32> to <128x1xfp32>"},
        {"full-shape-runtime", "", "    x = tl.full((BLOCK, n), 0, tl.float32)\n", 6, 25, E, "n is not a tl.constexpr"},
        {"int-index", "", "    x = tl.zeros((BLOCK,), dtype=tl.float32)\n    v = x[0]\n", 7, 11, E,
         "Triton 3.6 does not support integer indexing of tensors (`x[0]`): to read one element, use "
         "tl.sum(tl.where(offs == 0, x, 0))"},
        {"dot-dtype", "",
         "    a = tl.zeros((32, 32), dtype=tl.float16)\n    b = tl.zeros((32, 32), dtype=tl.float32)\n"
         "    c = tl.dot(a, b)\n",
         8, 9, E, "tl.dot: both operands must have the same dtype, got <32x32xfp16> and <32x32xfp32>"},
        {"dot-k", "",
         "    a = tl.zeros((32, 64), dtype=tl.float16)\n    b = tl.zeros((32, 32), dtype=tl.float16)\n"
         "    c = tl.dot(a, b)\n",
         8, 9, E, "tl.dot: the inner dimensions differ: `a` is [32, 64] and `b` is [32, 32]"},
        {"dot-small", "",
         "    a = tl.zeros((8, 32), dtype=tl.float16)\n    b = tl.zeros((32, 32), dtype=tl.float16)\n"
         "    c = tl.dot(a, b)\n",
         8, 9, E, "M (rows of the first operand) = 8 is smaller than 16"},
        {"exp-fp16", "", "    x = tl.zeros((BLOCK,), dtype=tl.float16)\n    y = tl.exp(x)\n", 7, 9, E,
         "tl.exp accepts fp32 or fp64 only (as Triton's libdevice does), got fp16: write tl.exp(x.to(tl.float32))"},
        {"undefined-name", "", "    offsets = tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + offset)\n", 7, 25, E,
         "name `offset` is not defined: did you mean `offsets`?"},
        {"non-jit-call", "def helper(x):\n    return x\n", "    y = helper(n)\n", 6, 9, E,
         "`helper` is a plain Python function: a kernel can only call @triton.jit functions"},
        {"jit-arity", "@triton.jit\ndef helper(a, b):\n    return a + b\n", "    y = helper(n)\n", 6, 9, E,
         "`helper` takes 2 argument(s) but 1 were given"},
        {"unknown-tl", "", "    x = tl.zeros((BLOCK,), dtype=tl.float32)\n    m = tl.maxx(x)\n", 7, 9, E,
         "`tl.maxx` is not a function of triton.language: did you mean `tl.max`?"},
        {"bad-keyword", "", "    x = tl.load(x_ptr, maskk=None)\n", 6, 24, E,
         "tl.load does not accept the keyword `maskk`: did you mean `mask`?"},
        {"store-shape", "", "    tl.store(x_ptr + tl.arange(0, 64), tl.zeros((128,), dtype=tl.float32))\n", 6, 40, E,
         "cannot store `tl.zeros((128,), dtype=tl.float32)` <128xfp32> through `x_ptr + tl.arange(0, 64)` "
         "<64xpointer<fp32>>"},
        {"store-not-pointer", "", "    tl.store(n, 1.0)\n", 6, 14, E,
         "tl.store needs a pointer, but `n` is a scalar int32"},
        {"ptr-float", "", "    p = x_ptr + 1.5\n", 6, 9, E, "cannot add `1.5` (1.5) to a pointer"},
        {"program-id-axis", "", "    pid = tl.program_id(3)\n", 6, 25, E, "axis must be 0, 1 or 2"},
        {"with", "", "    with n:\n        pass\n", 6, 5, E,
         "the `with` statement is not supported in a Triton kernel"},
        {"break", "", "    for i in range(0, n):\n        break\n", 7, 9, E, "`break` is not supported"},
        {"try", "", "    try:\n        pass\n    except Exception:\n        pass\n", 6, 5, E,
         "the `try` statement is not supported in a Triton kernel"},
        {"continue", "", "    for i in range(0, n):\n        continue\n", 7, 9, E, "`continue` is not supported"},
        {"return-in-while", "", "    i = 0\n    while i < n:\n        return\n", 8, 9, E,
         "`return` inside a `for` or `while` loop is not supported"},
        {"name-only-in-branch", "", "    if n > 0:\n        v = 1.0\n    tl.store(x_ptr, v)\n", 8, 21, E,
         "`v` is not defined here: it is only assigned in the `then` branch of the runtime `if` on line 6"},
        {"name-only-in-loop", "", "    for i in range(0, n):\n        last = i\n    tl.store(x_ptr, last)\n", 8, 21, E,
         "`last` is not defined here: it is first assigned inside the loop body on line 6"},
        {"pointer-type-call", "", "    h = x_ptr.to(tl.pointer_type(tl.float16))\n", 6, 18, E,
         "calling `tl.pointer_type` inside a kernel is not supported"},
        {"ptr-minus-ptr", "", "    d = x_ptr - y_ptr\n", 6, 9, E, "cannot subtract two pointers"},
        {"pow-tensor", "", "    y = tl.arange(0, BLOCK) ** 2\n", 6, 9, E, "`**` is not supported on tensors"},
        {"floordiv-float", "", "    y = tl.zeros((BLOCK,), dtype=tl.float32) // 2.0\n", 6, 9, E,
         "`//` is only defined for integer tensors"},
        {"static-assert", "", "    tl.static_assert(BLOCK == 64, \"need 64\")\n", 6, 5, E,
         "static assertion failed: need 64"},
        {"mask-not-bool", "", "    x = tl.load(x_ptr + tl.arange(0, BLOCK), mask=tl.arange(0, BLOCK))\n", 6, 46, E,
         "the mask must be a boolean (int1) tensor, got <128xint32>"},
        {"if-type-mismatch", "",
         "    if n > 0:\n        v = tl.zeros((BLOCK,), dtype=tl.float32)\n    else:\n"
         "        v = tl.zeros((BLOCK,), dtype=tl.float16)\n    tl.store(x_ptr + tl.arange(0, BLOCK), v)\n",
         6, 5, E, "`v` has type <128xfp32> in the `then` branch but <128xfp16> in the `else` branch"},
        {"return-in-loop", "", "    for i in range(0, n):\n        return\n", 7, 9, E,
         "`return` inside a `for` or `while` loop is not supported"},
        {"boolop-chain", "", "    if n > 0 and n < 10 and n != 5:\n        pass\n", 6, 8, E,
         "chained boolean operators (A and B and C) are not supported"},
        {"global-not-constexpr", "SIZE = 128\n", "    offs = tl.arange(0, SIZE)\n", 6, 25, E,
         "the global `SIZE` is not a constexpr"},
        {"unsigned-negative", "", "    x = tl.zeros((BLOCK,), dtype=tl.uint32) + -1\n", 6, 9, E,
         "cannot combine an unsigned tensor (uint32) with the negative scalar -1"},
        {"div-signedness", "", "    x = tl.zeros((BLOCK,), dtype=tl.uint32) // tl.zeros((BLOCK,), dtype=tl.int32)\n", 6,
         9, E, "cannot use `//` with uint32 and int32 because they have different signedness"},
        {"reshape-numel", "", "    y = tl.reshape(tl.zeros((128,), dtype=tl.float32), (64, 4))\n", 6, 9, E,
         "cannot reshape `tl.zeros((128,), dtype=tl.float32)` <128xfp32> to [64, 4]"},
        {"trans-perm", "", "    y = tl.trans(tl.zeros((64, 64), dtype=tl.float32), 0, 0)\n", 6, 9, E,
         "tl.trans: [0, 0] is not a permutation of the 2 axes"},
        {"tuple-index", "", "    t = (1, 2)\n    v = t[5]\n", 7, 11, E,
         "tuple index 5 is out of range for a tuple of 2"},
        {"for-iter", "", "    for i in n:\n        pass\n", 6, 14, E,
         "a kernel's `for` must iterate over range(…), tl.range(…) or tl.static_range(…)"},
        {"cond-not-scalar", "", "    if tl.arange(0, BLOCK) > 0:\n        pass\n", 6, 8, E,
         "the condition of an `if` must be a scalar, but `tl.arange(0, BLOCK) > 0` is a tile <128xint1>"},
        {"shape-not-pow2", "", "    x = tl.zeros((100,), dtype=tl.float32)\n", 6, 18, E,
         "the shape [100] has an extent 100 that is not a power of two"},
        {"tile-too-large", "", "    x = tl.arange(0, 2097152)\n", 6, 9, E, "a tile of 2097152 elements is too large"},
        {"expected-dtype", "", "    x = tl.zeros((BLOCK,), dtype=3)\n", 6, 28, E,
         "the dtype must be a dtype such as tl.float32, got 3"},
        {"assign-subscript", "", "    x = tl.zeros((BLOCK,), dtype=tl.float32)\n    x[0] = 1.0\n", 7, 5, E,
         "cannot assign to `x[0]`: tensors are immutable in Triton"},
        {"return-value-kernel", "", "    return 1\n", 6, 5, E, "a kernel cannot return a value"},
        {"return-in-nested-if",
         "@triton.jit\ndef helper(a):\n    if a > 0:\n        if a > 1:\n            return a\n    return -a\n",
         "    y = helper(n)\n", 13, 13, E,
         "`return` under a runtime `if` is only supported at the top level of a function"},
        {"return-mismatch", "@triton.jit\ndef helper(a):\n    if a > 0:\n        return a\n    return 1.0\n",
         "    y = helper(n)\n", 11, 5, E,
         "this function returns a scalar int32 on one path and a scalar fp32 on the other"},
        {"mask-rank", "",
         "    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :], mask=tl.arange(0, 16) < n)\n",
         6, 80, E, "the mask `tl.arange(0, 16) < n` [16] does not match the pointer block"},
        {"warn-other-not-neutral", "",
         "    offs = tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n    m = tl.max(x, "
         "axis=0)\n"
         "    tl.store(y_ptr, m)\n",
         7, 46, W,
         "other=0.0 is not neutral for tl.max: masked-off lanes would count as 0.0 and win over negative rows; use "
         "other=-float('inf')"},
        {"warn-mask-no-other", "",
         "    offs = tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + offs, mask=offs < n)\n    m = tl.min(x, axis=0)\n"
         "    tl.store(y_ptr, m)\n",
         7, 9, W, "masked-off lanes of this load are undefined on the GPU and feed tl.min: give other=float('inf')"},
        {"warn-no-mask", "",
         "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + offs)\n"
         "    tl.store(y_ptr + offs, x, mask=offs < n)\n",
         7, 9, W,
         "this load has no mask, yet its offsets grow with tl.program_id and the kernel has a size argument `n`"},
        {"warn-mask-broadcast", "",
         "    rows = tl.program_id(0) * 16 + tl.arange(0, 16)\n    cols = tl.arange(0, BLOCK)\n"
         "    x = tl.load(x_ptr + rows[:, None] * n + cols[None, :], mask=cols[None, :] < n)\n"
         "    tl.store(y_ptr + cols, tl.sum(x, axis=0), mask=cols < n)\n",
         8, 60, W, "the mask <1x128xint1> is broadcast to the [16, 128] block along its leading axis"},
    };
    return r;
}

std::string source(const Row& row)
{
    std::string s = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                    "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n";
    s += row.body;
    s += "\n\n";
    s += row.prelude;
    return s;
}

class DiagnosticsTable : public ::testing::TestWithParam<size_t>
{
};

TEST_P(DiagnosticsTable, PointsAtTheCauseWithTheFix)
{
    const Row& row = rows()[GetParam()];
    CheckInput in;
    in.entry = "k";
    in.runtimeParamTypes = {Type{Elem::Ptr, {}, Elem::F32}, Type{Elem::Ptr, {}, Elem::F32},
                            Type{Elem::I32, {}, Elem::F32}};
    in.constexprs["BLOCK"] = ConstexprValue::ofInt(128);
    auto c = tkm::triton::test::compile(source(row), in);
    ASSERT_TRUE(c.parsed.diagnostics.empty()) << row.name << "\n" << tkm::triton::test::diagnosticsText(c);
    const auto& ds = c.checked.diagnostics;
    ASSERT_EQ(ds.size(), 1u) << row.name << "\n" << tkm::triton::test::diagnosticsText(c);
    const Diagnostic& d = ds[0];
    EXPECT_EQ(d.severity, row.severity) << row.name;
    EXPECT_NE(d.message.find(row.text), std::string::npos) << row.name << "\n  got: " << d.message;
    EXPECT_EQ(d.range.begin.line, row.line) << row.name << ": " << d.message;
    EXPECT_EQ(d.range.begin.column, row.column) << row.name << ": " << d.message;
    EXPECT_FALSE(d.code.empty()) << row.name;
    if (row.severity == Severity::Error) {
        EXPECT_FALSE(c.checked.function.has_value()) << row.name;
    } else {
        EXPECT_TRUE(c.checked.function.has_value()) << row.name;
    }
}

INSTANTIATE_TEST_SUITE_P(Rows, DiagnosticsTable, ::testing::Range<size_t>(0, rows().size()),
                         [](const ::testing::TestParamInfo<size_t>& i) {
                             std::string n = rows()[i.param].name;
                             for (char& ch : n) {
                                 ch = ch == '-' ? '_' : ch;
                             }
                             return n;
                         });

TEST(Diagnostics, TableHasAtLeastFortyRows)
{
    EXPECT_GE(rows().size(), 40u);
}

} // namespace
