// engine/problem: expressions, meta-parameters, instantiation (shapes, strides, launch) and input generators.

#include "test_util.h"

#include "engine/common/dtype.h"
#include "engine/problem/expr.h"
#include "engine/problem/generate.h"
#include "engine/problem/instance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

using namespace tkm;
using nlohmann::json;

namespace {

problem::ExerciseSpec vectorAdd()
{
    auto spec = problem::loadSpec(test::vectorAddDir());
    EXPECT_TRUE(spec.ok()) << spec.error().message;
    return std::move(spec).value();
}

problem::ProblemInstance instance(const problem::ExerciseSpec& spec, int caseIndex, problem::MetaValues meta = {})
{
    auto m = problem::resolveMeta(spec, meta);
    EXPECT_TRUE(m.ok());
    auto inst = problem::instantiate(spec, spec.cases.at(static_cast<std::size_t>(caseIndex)), *m, caseIndex);
    EXPECT_TRUE(inst.ok()) << inst.error().message;
    return std::move(inst).value();
}

double valueAt(const problem::ArgInstance& a, const std::vector<std::byte>& bytes, int64_t linear)
{
    return engine::loadAs(a.dtype, bytes.data() + problem::storageOffset(a, linear) * engine::dtypeBytes(a.dtype));
}

} // namespace

TEST(Expressions, FunctionsAndVariables)
{
    const problem::Variables v = {{"n", 1025}, {"BLOCK_SIZE", 256}, {"x_stride0", 7}};
    EXPECT_EQ(*problem::evaluate("cdiv(n, BLOCK_SIZE)", v, "/f"), 5);
    EXPECT_EQ(*problem::evaluate("cdiv(1024, 256)", v, "/f"), 4);
    EXPECT_EQ(*problem::evaluate("pow2ceil(n)", v, "/f"), 2048);
    EXPECT_EQ(*problem::evaluate("pow2ceil(1024)", v, "/f"), 1024);
    EXPECT_EQ(*problem::evaluate("pow2ceil(1)", v, "/f"), 1);
    EXPECT_EQ(*problem::evaluate("min(n, 300) + max(2, 3)", v, "/f"), 303);
    EXPECT_EQ(*problem::evaluate("sqrt(16) * x_stride0", v, "/f"), 28);
    EXPECT_EQ(*problem::evaluate("3 * n * 4", v, "/f"), 12300);
    auto bad = problem::evaluate("n / 0", v, "/flops");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("/flops: \"n / 0\" evaluates to infinity"), std::string::npos);
    auto unknown = problem::evaluate("m + 1", v, "/ideal_bytes");
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().message.find("unknown name \"m\""), std::string::npos) << unknown.error().message;
    EXPECT_NE(unknown.error().message.find("known variables: BLOCK_SIZE, n, x_stride0"), std::string::npos);
    auto frac = problem::evaluateCount("n / 2", v, "/launch/grid/0");
    ASSERT_FALSE(frac.ok());
    EXPECT_EQ(frac.error().message, "/launch/grid/0: \"n / 2\" = 512.5 is not a non-negative integer");
    EXPECT_EQ(*problem::evaluateCount("n / 5", v, "/x"), 205);
    EXPECT_FALSE(problem::evaluate("", v, "/x").ok());
}

TEST(Meta, DefaultsOverridesAndErrors)
{
    const auto spec = vectorAdd();
    auto def = problem::resolveMeta(spec);
    ASSERT_TRUE(def.ok());
    EXPECT_EQ(def->at("BLOCK_SIZE"), 1024);
    EXPECT_EQ(def->at("NUM_WARPS"), 4);
    auto over = problem::resolveMeta(spec, {{"BLOCK_SIZE", 256}});
    ASSERT_TRUE(over.ok());
    EXPECT_EQ(over->at("BLOCK_SIZE"), 256);
    auto unknown = problem::resolveMeta(spec, {{"BLOCK", 3}});
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().message,
              "BLOCK = 3: the exercise has no meta-parameter BLOCK (it has BLOCK_SIZE, NUM_WARPS)");
    auto notAllowed = problem::resolveMeta(spec, {{"NUM_WARPS", 3}});
    ASSERT_FALSE(notAllowed.ok());
    EXPECT_EQ(notAllowed.error().message, "NUM_WARPS = 3 is not allowed (choose one of 1, 2, 4, 8, 16, 32)");
}

TEST(Instance, VectorAddLaunchAndSizes)
{
    const auto spec = vectorAdd();
    const auto inst = instance(spec, 4, {{"BLOCK_SIZE", 1024}, {"NUM_WARPS", 4}}); // n = 1025
    EXPECT_EQ(inst.caseName, "n = 1025, one element over");
    EXPECT_EQ(inst.launch.grid, (std::array<int64_t, 3>{2, 1, 1}));
    EXPECT_EQ(inst.launch.block, (std::array<int64_t, 3>{128, 1, 1}));
    EXPECT_EQ(inst.launch.sharedBytes, 0);
    EXPECT_EQ(inst.referenceLaunch.grid[0], 5); // cdiv(1025, 256)
    EXPECT_EQ(inst.referenceLaunch.block[0], 256);
    ASSERT_EQ(inst.args.size(), 4u);
    const auto& x = inst.args[0];
    EXPECT_EQ(x.shape, std::vector<int64_t>{1025});
    EXPECT_EQ(x.strides, std::vector<int64_t>{1});
    EXPECT_EQ(x.numel, 1025);
    EXPECT_EQ(x.storageElements, 1025);
    EXPECT_EQ(x.bytes, 4100);
    EXPECT_EQ(inst.args[3].intValue, 1025);
    EXPECT_EQ(inst.idealBytes, 3.0 * 1025 * 4);
    EXPECT_EQ(inst.flops, 1025);
    EXPECT_EQ(inst.toleranceFor(engine::DType::F32).atol, 1e-6);
    EXPECT_EQ(inst.toleranceFor(engine::DType::I32).atol, 0); // integers compare exactly
    EXPECT_EQ(inst.variables.at("x_numel"), 1025);
    EXPECT_EQ(inst.variables.at("out_stride0"), 1);
    EXPECT_NE(x.seed, inst.args[1].seed); // every buffer has its own stream
    EXPECT_EQ(inst.seed, problem::defaultCaseSeed("vector-add", 4));
    EXPECT_EQ(inst.args[2].seed, 0u); // outputs are not generated
    const auto other = instance(spec, 3);
    EXPECT_NE(other.seed, inst.seed);
    const auto small = instance(spec, 4, {{"BLOCK_SIZE", 128}, {"NUM_WARPS", 1}});
    EXPECT_EQ(small.launch.grid[0], 9);
    EXPECT_EQ(small.launch.block[0], 32);
}

TEST(Instance, LargerThanTwoToThe31)
{
    const auto spec = vectorAdd();
    problem::Case c;
    c.name = "huge";
    c.sizes = {{"n", (int64_t{1} << 31) + 5}};
    auto meta = problem::resolveMeta(spec);
    json j = test::vectorAddJson();
    j["params"][3]["dtype"] = "i64";
    auto spec64 = test::parseIn(j);
    ASSERT_TRUE(spec64.ok()) << spec64.error().message;
    auto inst = problem::instantiate(*spec64, c, *meta, 0);
    ASSERT_TRUE(inst.ok()) << inst.error().message;
    EXPECT_EQ(inst->args[0].numel, (int64_t{1} << 31) + 5);
    EXPECT_EQ(inst->args[0].bytes, ((int64_t{1} << 31) + 5) * 4);
    EXPECT_EQ(inst->args[3].intValue, (int64_t{1} << 31) + 5);
    EXPECT_EQ(inst->launch.grid[0], 2097153);
    // With the spec's i32 scalar the same size is a clear error.
    auto bad = problem::instantiate(spec, c, *meta, 0);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("does not fit the i32 scalar `n`: make it i64"), std::string::npos);
    problem::Case zero = c;
    zero.sizes["n"] = 0;
    auto z = problem::instantiate(spec, zero, *meta, 0);
    ASSERT_FALSE(z.ok());
    EXPECT_NE(z.error().message.find("sizes must be ≥ 1"), std::string::npos);
}

TEST(Instance, LayoutsAndStrides)
{
    const auto spec = test::matrixSpec();
    auto meta = problem::resolveMeta(spec);
    ASSERT_TRUE(meta.ok());
    auto contiguous = problem::instantiate(spec, spec.cases[0], *meta, 0); // 3 x 5
    ASSERT_TRUE(contiguous.ok()) << contiguous.error().message;
    EXPECT_EQ(contiguous->args[0].strides, (std::vector<int64_t>{5, 1}));
    EXPECT_EQ(contiguous->args[4].intValue, 5); // lda = a_stride0
    EXPECT_EQ(contiguous->launch.grid, (std::array<int64_t, 3>{3, 1, 1}));
    EXPECT_EQ(contiguous->launch.block[0], 64);
    EXPECT_EQ(contiguous->referenceLaunch.block[0], 5);                                           // min(N, 256)
    EXPECT_NEAR(contiguous->toleranceFor(engine::DType::F32).atol, 1e-6 * std::sqrt(5.0), 1e-18); // scaled

    auto padded = problem::instantiate(spec, spec.cases[1], *meta, 1); // 4 x 6, pad 3
    ASSERT_TRUE(padded.ok());
    const auto& a = padded->args[0];
    EXPECT_EQ(a.layout, problem::LayoutKind::Padded);
    EXPECT_EQ(a.strides, (std::vector<int64_t>{9, 1}));
    EXPECT_EQ(a.numel, 24);
    EXPECT_EQ(a.storageElements, 3 * 9 + 6); // ends flush with the last logical element
    EXPECT_EQ(a.bytes, 33 * 4);
    EXPECT_EQ(padded->args[4].intValue, 9);
    EXPECT_EQ(padded->args[1].strides, (std::vector<int64_t>{6, 1})); // b stays contiguous

    auto transposed = problem::instantiate(spec, spec.cases[2], *meta, 2);
    ASSERT_TRUE(transposed.ok());
    const auto& t = transposed->args[0];
    EXPECT_EQ(t.strides, (std::vector<int64_t>{1, 4})); // (1, M)
    EXPECT_EQ(t.storageElements, 24);
    EXPECT_EQ(transposed->seed, 99u);
    EXPECT_EQ(problem::storageOffset(t, 7), 1 + 1 * 4); // element (1, 1)
    EXPECT_EQ(problem::logicalIndex(t, 7), (std::vector<int64_t>{1, 1}));
}

TEST(Instance, LaunchErrorsNameTheField)
{
    json j = test::matrixJson();
    j["meta"][0]["allowed"] = {32, 64, 128, 2048};
    auto spec = test::matrixSpec(j);
    auto meta = problem::resolveMeta(spec, {{"BLOCK_N", 2048}});
    ASSERT_TRUE(meta.ok());
    auto r = problem::instantiate(spec, spec.cases[0], *meta, 0);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "/launch/block/0: \"BLOCK_N\" = 2048 threads: at most 1024");
}

TEST(Generators, SeededAndReproducible)
{
    const auto spec = vectorAdd();
    const auto inst = instance(spec, 5); // n = 98432
    auto a = problem::generateInputs(inst);
    auto b = problem::generateInputs(inst);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->buffers.size(), 3u);
    EXPECT_EQ(a->buffers[0].learner, b->buffers[0].learner);
    EXPECT_EQ(a->buffers[1].reference, b->buffers[1].reference);
    EXPECT_NE(a->buffers[0].learner, a->buffers[1].learner);
    // Another case draws other values.
    const auto other = instance(spec, 4);
    auto c = problem::generateInputs(other);
    ASSERT_TRUE(c.ok());
    EXPECT_NE(std::memcmp(c->buffers[0].learner.data(), a->buffers[0].learner.data(), 1025 * 4), 0);
    // The reference sees the rounded values, widened.
    const auto& x = inst.args[0];
    for (int64_t i = 0; i < 100; ++i) {
        double ref = 0;
        std::memcpy(&ref, a->buffers[0].reference.data() + i * 8, 8);
        EXPECT_EQ(ref, valueAt(x, a->buffers[0].learner, i));
    }
    // normal(0, 1) and uniform[-4, 4) look like themselves.
    double sum = 0;
    double sq = 0;
    double lo = 1e9;
    double hi = -1e9;
    for (int64_t i = 0; i < x.numel; ++i) {
        const double v = valueAt(x, a->buffers[0].learner, i);
        sum += v;
        sq += v * v;
        const double u = valueAt(inst.args[1], a->buffers[1].learner, i);
        lo = std::min(lo, u);
        hi = std::max(hi, u);
    }
    const double mean = sum / static_cast<double>(x.numel);
    EXPECT_NEAR(mean, 0.0, 0.02);
    EXPECT_NEAR(std::sqrt(sq / static_cast<double>(x.numel) - mean * mean), 1.0, 0.02);
    EXPECT_GE(lo, -4.0);
    EXPECT_LT(hi, 4.0);
    EXPECT_LT(lo, -3.9);
    EXPECT_GT(hi, 3.9);
    // Outputs arrive poisoned, in both images.
    for (int64_t i = 0; i < x.numel; i += 997) {
        EXPECT_TRUE(engine::isPoison(engine::DType::F32, a->buffers[2].learner.data() + i * 4));
        EXPECT_TRUE(engine::isPoison(engine::DType::F64, a->buffers[2].reference.data() + i * 8));
    }
}

TEST(Generators, EdgeDistributions)
{
    json j = test::matrixJson();
    j["cases"][0]["sizes"] = {{"M", 64}, {"N", 100}};
    j["cases"][0]["init"] = {{"a", {{"dist", "negative"}, {"low", -50}, {"high", -1}}}};
    j["cases"][1]["init"] = {{"a", {{"dist", "large"}, {"magnitude", 1000}}}};
    j["cases"][2]["init"] = {{"a", {{"dist", "int"}, {"low", -3}, {"high", 3}}}};
    j["cases"][2]["sizes"] = {{"M", 40}, {"N", 60}};
    j["cases"].push_back({{"name", "arange"},
                          {"sizes", {{"M", 2}, {"N", 3}}},
                          {"init", {{"a", {{"dist", "arange"}, {"start", 10}, {"step", 2}}}}}});
    const auto spec = test::matrixSpec(j);
    auto meta = *problem::resolveMeta(spec);
    auto gen = [&](int c) {
        auto inst = problem::instantiate(spec, spec.cases[static_cast<std::size_t>(c)], meta, c);
        EXPECT_TRUE(inst.ok()) << inst.error().message;
        auto g = problem::generateInputs(*inst);
        EXPECT_TRUE(g.ok());
        return std::make_pair(*inst, *g);
    };
    {
        auto [inst, g] = gen(0);
        const auto& a = inst.args[0];
        for (int64_t i = 0; i < a.numel; ++i) {
            const double v = valueAt(a, g.buffers[0].learner, i);
            ASSERT_LT(v, 0.0);
            ASSERT_GE(v, -50.0);
        }
    }
    {
        auto [inst, g] = gen(1);
        const auto& a = inst.args[0];
        int negative = 0;
        for (int64_t i = 0; i < a.numel; ++i) {
            const double v = valueAt(a, g.buffers[0].learner, i);
            ASSERT_GE(std::fabs(v), 500.0);
            ASSERT_LE(std::fabs(v), 1000.0);
            negative += v < 0;
        }
        EXPECT_GT(negative, 0);
        EXPECT_LT(negative, a.numel);
        // Padding (3 elements after each row) holds poison, in both images.
        EXPECT_EQ(a.strides[0], 9);
        for (int64_t row = 0; row + 1 < a.shape[0]; ++row) {
            for (int64_t p = 6; p < 9; ++p) {
                const int64_t off = row * 9 + p;
                EXPECT_TRUE(engine::isPoison(engine::DType::F32, g.buffers[0].learner.data() + off * 4));
                EXPECT_TRUE(engine::isPoison(engine::DType::F64, g.buffers[0].reference.data() + off * 8));
            }
        }
    }
    {
        auto [inst, g] = gen(2);
        const auto& a = inst.args[0];
        std::set<double> seen;
        for (int64_t i = 0; i < a.numel; ++i) {
            const double v = valueAt(a, g.buffers[0].learner, i);
            ASSERT_EQ(v, std::floor(v));
            seen.insert(v);
        }
        EXPECT_EQ(seen, (std::set<double>{-3, -2, -1, 0, 1, 2, 3})); // both ends of [low, high] drawn
    }
    {
        auto [inst, g] = gen(3);
        const auto& a = inst.args[0];
        for (int64_t i = 0; i < a.numel; ++i) {
            EXPECT_EQ(valueAt(a, g.buffers[0].learner, i), 10 + 2 * i);
        }
    }
}

TEST(Generators, HalfAndBf16Rounding)
{
    for (const char* dt : {"f16", "bf16"}) {
        json j = test::matrixJson();
        j["params"][0]["dtype"] = dt;
        j["params"][0]["init"] = {{"dist", "normal"}, {"mean", 0}, {"std", 3}};
        const auto spec = test::matrixSpec(j);
        auto meta = *problem::resolveMeta(spec);
        auto inst = problem::instantiate(spec, spec.cases[1], meta, 1);
        ASSERT_TRUE(inst.ok());
        auto g = problem::generateInputs(*inst);
        ASSERT_TRUE(g.ok());
        const auto& a = inst->args[0];
        EXPECT_EQ(a.bytes, a.storageElements * 2);
        int inexactInFloat = 0;
        for (int64_t i = 0; i < a.numel; ++i) {
            const int64_t off = problem::storageOffset(a, i);
            uint16_t bits = 0;
            std::memcpy(&bits, g->buffers[0].learner.data() + off * 2, 2);
            double ref = 0;
            std::memcpy(&ref, g->buffers[0].reference.data() + off * 8, 8);
            const double widened =
                std::string(dt) == "f16" ? engine::halfBitsToDouble(bits) : engine::bf16BitsToDouble(bits);
            ASSERT_EQ(ref, widened) << dt; // the reference sees exactly the rounded value
            inexactInFloat += ref != std::round(ref);
        }
        EXPECT_GT(inexactInFloat, 0);
        // The padding of a 16-bit buffer is 16-bit poison.
        EXPECT_TRUE(engine::isPoison(a.dtype, g->buffers[0].learner.data() + 6 * 2));
    }
}

TEST(Generators, NeverAllZerosAndResetToZero)
{
    json j = test::vectorAddJson();
    // int [0, 1] on a one-element buffer: a plain draw is 0 half of the time; the engine draws again.
    j["params"][0]["dtype"] = "i32";
    j["params"][0]["init"] = {{"dist", "int"}, {"low", 0}, {"high", 1}};
    j["reset_to_zero"] = {"out"};
    auto spec = test::parseIn(j);
    ASSERT_TRUE(spec.ok()) << spec.error().message;
    auto meta = *problem::resolveMeta(*spec);
    for (uint64_t seed = 0; seed < 40; ++seed) {
        problem::Case c = spec->cases[0];
        c.seed = seed;
        c.seedGiven = true;
        auto inst = problem::instantiate(*spec, c, meta, 0);
        ASSERT_TRUE(inst.ok());
        auto g = problem::generateInputs(*inst, false);
        ASSERT_TRUE(g.ok());
        int32_t v = 0;
        std::memcpy(&v, g->buffers[0].learner.data(), 4);
        EXPECT_EQ(v, 1) << "seed " << seed;
        EXPECT_TRUE(g->buffers[0].reference.empty());
        float out = 1;
        std::memcpy(&out, g->buffers[2].learner.data(), 4);
        EXPECT_EQ(out, 0.0f); // reset_to_zero: zeroed, not poisoned
    }
    // A generator that rounds to zero in its dtype is refused with a sentence.
    json tiny = test::vectorAddJson();
    tiny["params"][0]["dtype"] = "f16";
    tiny["params"][0]["init"] = {{"dist", "uniform"}, {"low", 1e-12}, {"high", 2e-12}};
    auto tinySpec = test::parseIn(tiny);
    ASSERT_TRUE(tinySpec.ok()) << tinySpec.error().message;
    auto inst = problem::instantiate(*tinySpec, tinySpec->cases[2], meta, 2);
    ASSERT_TRUE(inst.ok());
    auto g = problem::generateInputs(*inst);
    ASSERT_FALSE(g.ok());
    EXPECT_NE(g.error().message.find("the generator of `x` gives only zeros in f16"), std::string::npos)
        << g.error().message;
}

// Performance images are drawn in chunks of kPerformanceChunkElements, each walked from its own first element:
// on a padded 2-D buffer of two chunks (the second starts mid-row) every logical element is drawn, every padding
// element keeps its poison, and the bytes do not depend on the thread count.
TEST(Generate, PerformanceChunksCoverEveryElementOfAPaddedBuffer)
{
    problem::ArgInstance a;
    a.name = "x";
    a.dtype = engine::DType::F32;
    a.role = problem::Role::In;
    a.shape = {1100, 1000};
    a.strides = {1003, 1};
    a.numel = 1100 * 1000;
    a.storageElements = 1 + 1099 * 1003 + 999;
    a.bytes = a.storageElements * 4;
    a.init = problem::Generator{};
    a.seed = 42;
    ASSERT_GT(a.numel, problem::kPerformanceChunkElements);
    std::vector<std::byte> one(static_cast<size_t>(a.bytes)), four(static_cast<size_t>(a.bytes));
    problem::drawPerformanceInput(a, one.data(), 1);
    problem::drawPerformanceInput(a, four.data(), 4);
    EXPECT_EQ(one, four);
    std::vector<bool> logical(static_cast<size_t>(a.storageElements), false);
    for (int64_t linear = 0; linear < a.numel; ++linear) {
        logical[static_cast<size_t>(problem::storageOffset(a, linear))] = true;
    }
    int64_t drawnPoison = 0, paddingDrawn = 0;
    for (int64_t e = 0; e < a.storageElements; ++e) {
        const bool poison = engine::isPoison(a.dtype, one.data() + e * 4);
        drawnPoison += logical[static_cast<size_t>(e)] && poison;
        paddingDrawn += !logical[static_cast<size_t>(e)] && !poison;
    }
    EXPECT_EQ(drawnPoison, 0);
    EXPECT_EQ(paddingDrawn, 0);
}
