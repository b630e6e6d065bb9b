// engine/check: comparing learner outputs with the float64 reference, canaries and the determinism check.

#include "test_util.h"

#include "engine/check/compare.h"
#include "engine/common/dtype.h"
#include "engine/problem/generate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tkm;
using engine::DType;

namespace {

// An output buffer of `dtype` and shape, contiguous unless strides are given.
problem::ArgInstance output(DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides = {})
{
    problem::ArgInstance a;
    a.name = "out";
    a.kind = problem::ParamKind::Buffer;
    a.dtype = dtype;
    a.role = problem::Role::Out;
    a.shape = std::move(shape);
    if (strides.empty()) {
        strides.assign(a.shape.size(), 1);
        for (std::size_t d = a.shape.size() - 1; d > 0; --d) {
            strides[d - 1] = strides[d] * a.shape[d];
        }
    }
    a.strides = std::move(strides);
    a.numel = 1;
    a.storageElements = 1;
    for (std::size_t d = 0; d < a.shape.size(); ++d) {
        a.numel *= a.shape[d];
        a.storageElements += (a.shape[d] - 1) * a.strides[d];
    }
    a.bytes = a.storageElements * engine::dtypeBytes(dtype);
    return a;
}

// Learner image (poisoned) and reference image of `a`, reference values f(i) by logical index.
struct Images
{
    std::vector<std::byte> got;
    std::vector<std::byte> ref;
};

Images images(const problem::ArgInstance& a, double (*f)(int64_t))
{
    Images im;
    im.got.resize(static_cast<std::size_t>(a.bytes));
    im.ref.resize(static_cast<std::size_t>(a.storageElements * 8));
    engine::fillPoison(a.dtype, im.got.data(), a.storageElements);
    engine::fillPoison(engine::referenceDType(a.dtype), im.ref.data(), a.storageElements);
    for (int64_t i = 0; i < a.numel; ++i) {
        const int64_t off = problem::storageOffset(a, i);
        engine::storeAs(engine::referenceDType(a.dtype), f(i), im.ref.data() + off * 8);
    }
    return im;
}

void put(const problem::ArgInstance& a, std::vector<std::byte>& img, int64_t linear, double v)
{
    engine::storeAs(a.dtype, v, img.data() + problem::storageOffset(a, linear) * engine::dtypeBytes(a.dtype));
}

double ramp(int64_t i)
{
    return 0.5 + static_cast<double>(i) * 0.25;
}

const problem::Tolerance kTol{1e-6, 1e-6, ""};

} // namespace

TEST(Check, ExactAndWithinTolerancePass)
{
    const auto a = output(DType::F32, {1000});
    auto im = images(a, ramp);
    for (int64_t i = 0; i < a.numel; ++i) {
        put(a, im.got, i, ramp(i) * (1 + 5e-7)); // inside atol + rtol·|ref|
    }
    const auto c = check::compareOutput(a, im.got, im.ref, kTol);
    EXPECT_TRUE(c.pass());
    EXPECT_EQ(c.checked, 1000);
    EXPECT_EQ(c.mismatches, 0);
    EXPECT_GT(c.maxAbsError, 0.0);
    EXPECT_LT(c.maxRelError, 1e-6);
    EXPECT_EQ(c.atol, 1e-6);
}

TEST(Check, MismatchesListedWithCoordinates)
{
    // 3 x 4 padded to row stride 6: logical (1, 2) is storage 8.
    const auto a = output(DType::F32, {3, 4}, {6, 1});
    EXPECT_EQ(a.storageElements, 16);
    auto im = images(a, ramp);
    for (int64_t i = 0; i < a.numel; ++i) {
        put(a, im.got, i, ramp(i));
    }
    put(a, im.got, 6, 100.0); // (1, 2)
    put(a, im.got, 11, 0.0);  // (2, 3)
    const auto c = check::compareOutput(a, im.got, im.ref, kTol);
    EXPECT_FALSE(c.pass());
    EXPECT_EQ(c.mismatches, 2);
    ASSERT_EQ(c.firstMismatches.size(), 2u);
    EXPECT_EQ(c.firstMismatches[0].index, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(c.firstMismatches[0].got, 100.0);
    EXPECT_EQ(c.firstMismatches[0].expected, ramp(6));
    EXPECT_EQ(c.firstMismatches[1].index, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(c.maxAbsError, 100.0 - ramp(6));
    EXPECT_EQ(c.unwritten, 0); // padding is poison but never checked
    problem::ProblemInstance inst;
    inst.args = {a};
    const auto msg = check::caseMessage(inst, {c});
    EXPECT_EQ(msg,
              "2 of 12 elements of `out` differ from the reference by more than atol 1e-06 + rtol 1e-06·|expected| "
              "(first at index [1, 2]: got 100, expected 2).");
}

TEST(Check, AtMostTenListed)
{
    const auto a = output(DType::F64, {100});
    auto im = images(a, ramp);
    for (int64_t i = 0; i < a.numel; ++i) {
        put(a, im.got, i, -ramp(i));
    }
    const auto c = check::compareOutput(a, im.got, im.ref, kTol);
    EXPECT_EQ(c.mismatches, 100);
    EXPECT_EQ(c.firstMismatches.size(), static_cast<std::size_t>(check::kMaxListed));
    EXPECT_EQ(c.firstMismatches.back().linear, 9);
}

TEST(Check, UnwrittenTailMessage)
{
    auto a = output(DType::F32, {1025});
    auto im = images(a, ramp);
    for (int64_t i = 0; i < 1024; ++i) {
        put(a, im.got, i, ramp(i));
    }
    const auto c = check::compareOutput(a, im.got, im.ref, kTol);
    EXPECT_EQ(c.unwritten, 1);
    EXPECT_EQ(c.firstUnwritten, 1024);
    EXPECT_EQ(c.mismatches, 1);
    ASSERT_EQ(c.firstMismatches.size(), 1u);
    EXPECT_TRUE(c.firstMismatches[0].unwritten);
    problem::ProblemInstance inst;
    inst.args = {a};
    EXPECT_EQ(check::caseMessage(inst, {c}),
              "1 of 1025 elements of `out` were never written (first at index 1024): does the last program cover the "
              "tail?");
}

TEST(Check, UnwrittenHolesAndNothingWritten)
{
    const auto a = output(DType::BF16, {8, 128});
    auto im = images(a, ramp);
    problem::ProblemInstance inst;
    inst.args = {a};
    const auto none = check::compareOutput(a, im.got, im.ref, {1e-2, 1e-2, ""});
    EXPECT_EQ(none.unwritten, 1024);
    EXPECT_NE(check::caseMessage(inst, {none}).find("does the kernel store its result at all?"), std::string::npos);
    for (int64_t i = 0; i < a.numel; ++i) {
        if (i % 128 < 32) {
            put(a, im.got, i, ramp(i));
        }
    }
    const auto holes = check::compareOutput(a, im.got, im.ref, {1e-2, 1e-2, ""});
    EXPECT_EQ(holes.unwritten, 8 * 96);
    EXPECT_EQ(holes.firstUnwritten, 32);
    EXPECT_EQ(check::caseMessage(inst, {holes}),
              "768 of 1024 elements of `out` were never written (first at index [0, 32]): do the programs and their "
              "threads cover every element?");
}

TEST(Check, NaNNeverPasses)
{
    const auto a = output(DType::F32, {4});
    auto im = images(a, ramp);
    put(a, im.got, 0, ramp(0));
    put(a, im.got, 1, std::nan(""));
    put(a, im.got, 2, ramp(2));
    put(a, im.got, 3, ramp(3));
    const problem::Tolerance huge{1e30, 1e30, ""};
    auto c = check::compareOutput(a, im.got, im.ref, huge);
    EXPECT_EQ(c.nan, 1);
    EXPECT_EQ(c.firstNan, 1);
    EXPECT_EQ(c.mismatches, 1);
    // A NaN in the reference fails too, whatever the kernel wrote (even NaN): the exercise is broken.
    engine::storeAs(DType::F64, std::nan(""), im.ref.data() + 3 * 8);
    put(a, im.got, 3, std::nan(""));
    c = check::compareOutput(a, im.got, im.ref, huge);
    EXPECT_EQ(c.referenceNan, 1);
    EXPECT_EQ(c.mismatches, 2);
    problem::ProblemInstance inst;
    inst.args = {a};
    EXPECT_NE(check::caseMessage(inst, {c}).find("the exercise itself is broken"), std::string::npos);
}

TEST(Check, InfinityMatchesOnlyItself)
{
    const auto a = output(DType::F32, {3});
    auto im = images(a, [](int64_t i) { return i == 0 ? std::numeric_limits<double>::infinity() : 1.0; });
    put(a, im.got, 0, std::numeric_limits<double>::infinity());
    put(a, im.got, 1, -std::numeric_limits<double>::infinity());
    put(a, im.got, 2, 1.0);
    const auto c = check::compareOutput(a, im.got, im.ref, kTol);
    EXPECT_EQ(c.inf, 2);
    EXPECT_EQ(c.mismatches, 1);
    EXPECT_EQ(c.firstMismatches.at(0).linear, 1);
}

TEST(Check, HalfOutputsAreWidened)
{
    const auto a = output(DType::F16, {16});
    auto im = images(a, [](int64_t i) { return 0.1 * static_cast<double>(i + 1); });
    for (int64_t i = 0; i < a.numel; ++i) {
        put(a, im.got, i, 0.1 * static_cast<double>(i + 1)); // rounded to f16: error up to ~1e-3
    }
    EXPECT_FALSE(check::compareOutput(a, im.got, im.ref, kTol).pass());
    EXPECT_TRUE(check::compareOutput(a, im.got, im.ref, {1e-3, 1e-3, ""}).pass());
}

TEST(Check, IntegersCompareExactly)
{
    const auto a = output(DType::I32, {5});
    std::vector<std::byte> got(20);
    std::vector<std::byte> ref(20);
    for (int i = 0; i < 5; ++i) {
        engine::storeAs(DType::I32, i * 7, got.data() + i * 4);
        engine::storeAs(DType::I32, i * 7, ref.data() + i * 4);
    }
    EXPECT_TRUE(check::compareOutput(a, got, ref, {}).pass());
    engine::storeAs(DType::I32, 8, got.data() + 4);
    const auto c = check::compareOutput(a, got, ref, {});
    EXPECT_EQ(c.mismatches, 1);
    EXPECT_EQ(c.firstMismatches.at(0).got, 8);
    EXPECT_EQ(c.firstMismatches.at(0).expected, 7);
}

TEST(Check, CanaryDamage)
{
    std::vector<std::byte> zone(64);
    check::fillCanary(zone);
    EXPECT_EQ(check::canaryDamage(zone), (std::pair<int64_t, int64_t>{0, 0}));
    // The last word before the buffer reads 0xCA11AB1E as a little-endian uint32.
    uint32_t last = 0;
    std::memcpy(&last, zone.data() + 60, 4);
    EXPECT_EQ(last, check::kCanaryWord);
    // A float written one element before the start.
    const float v = 1.0f;
    std::memcpy(zone.data() + 60, &v, 4);
    auto [damaged, nearest] = check::canaryDamage(zone);
    EXPECT_EQ(damaged, 4); // bytes 00 00 80 3F against 1E AB 11 CA
    EXPECT_EQ(nearest, 1); // the byte right before the start
    check::OutputCheck c;
    c.buffer = "out";
    check::addCanaryDamage(c, zone);
    EXPECT_FALSE(c.pass());
    EXPECT_EQ(c.canaryBeforeStart, damaged);
    problem::ProblemInstance inst;
    EXPECT_NE(check::caseMessage(inst, {c}).find("before the start of `out`"), std::string::npos);
}

TEST(Check, DeterminismCompare)
{
    const auto a = output(DType::F32, {4, 5});
    std::vector<std::byte> first(static_cast<std::size_t>(a.bytes));
    for (int64_t i = 0; i < a.numel; ++i) {
        put(a, first, i, ramp(i));
    }
    auto second = first;
    EXPECT_TRUE(check::compareLaunches(a, first, second).identical());
    put(a, second, 7, ramp(7) * 2); // accumulated into
    put(a, second, 13, ramp(13) * 2);
    const auto d = check::compareLaunches(a, first, second);
    EXPECT_EQ(d.differing, 2);
    EXPECT_EQ(d.firstIndex, 7);
    EXPECT_EQ(d.firstCoords, (std::vector<int64_t>{1, 2}));
    problem::ProblemInstance inst;
    EXPECT_EQ(check::caseMessage(inst, {}, {d}),
              "A second launch on the same inputs changed 2 elements of `out` (first at index [1, 2]): does the "
              "kernel accumulate into its output, or race?");
}

TEST(Check, GeneratedReferenceImagesFitTheCheck)
{
    // The images generateInputs() makes for an output are exactly what compareOutput() reads.
    const auto spec = test::matrixSpec();
    auto meta = *problem::resolveMeta(spec);
    auto inst = problem::instantiate(spec, spec.cases[1], meta, 1);
    ASSERT_TRUE(inst.ok());
    auto g = problem::generateInputs(*inst);
    ASSERT_TRUE(g.ok());
    const auto& b = *inst->find("b");
    const auto& img = *g->find("b");
    const auto c = check::compareOutput(b, img.learner, img.reference, inst->toleranceFor(DType::F32));
    EXPECT_EQ(c.unwritten, b.numel);
    EXPECT_EQ(c.referenceNan, b.numel); // a reference that never ran leaves poison (NaN) behind
}
