// engine/problem: parsing the real vector-add exercise, and every rejection path of the spec validator.

#include "test_util.h"

#include "engine/problem/spec.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

using namespace tkm;
using nlohmann::json;

TEST(Spec, ParsesTheVectorAddExercise)
{
    auto spec = problem::loadSpec(test::vectorAddDir());
    ASSERT_TRUE(spec.ok()) << spec.error().message;
    EXPECT_EQ(spec->id, "vector-add");
    EXPECT_EQ(spec->kernel, "vector_add");
    EXPECT_TRUE(spec->dir.is_absolute());
    ASSERT_EQ(spec->params.size(), 4u);
    EXPECT_EQ(spec->params[0].name, "x");
    EXPECT_EQ(spec->params[0].kind, problem::ParamKind::Buffer);
    EXPECT_EQ(spec->params[0].dtype, engine::DType::F32);
    EXPECT_EQ(spec->params[0].role, problem::Role::In);
    ASSERT_TRUE(spec->params[1].init.has_value());
    EXPECT_EQ(spec->params[1].init->dist, problem::Dist::Uniform);
    EXPECT_EQ(spec->params[1].init->low, -4);
    EXPECT_EQ(spec->params[2].role, problem::Role::Out);
    EXPECT_FALSE(spec->params[2].init.has_value());
    EXPECT_EQ(spec->params[3].kind, problem::ParamKind::Scalar);
    EXPECT_EQ(spec->params[3].value, "n");
    ASSERT_EQ(spec->meta.size(), 2u);
    EXPECT_EQ(spec->meta[0].name, "BLOCK_SIZE");
    EXPECT_EQ(spec->meta[0].defaultValue, 1024);
    EXPECT_EQ(spec->meta[1].allowed.size(), 6u);
    EXPECT_EQ(spec->launch.grid.at(0), "cdiv(n, BLOCK_SIZE)");
    EXPECT_EQ(spec->launch.sharedBytes, "0");
    EXPECT_EQ(spec->reference.kernel, "vector_add_ref");
    EXPECT_EQ(spec->reference.launch.grid.at(0), "cdiv(n, 256)");
    EXPECT_EQ(spec->cases.size(), 7u);
    EXPECT_EQ(spec->cases[4].sizes.at("n"), 1025);
    EXPECT_FALSE(spec->cases[0].seedGiven);
    EXPECT_EQ(spec->cases[6].init.at("x").dist, problem::Dist::Large);
    ASSERT_TRUE(spec->performance.has_value());
    EXPECT_EQ(spec->performance->sizes.at("n"), 67108864);
    EXPECT_EQ(spec->tolerance.at(engine::DType::F32).atol, 1e-6);
    EXPECT_EQ(spec->idealBytes, "3 * n * 4");
    ASSERT_EQ(spec->bugs.size(), 2u);
    EXPECT_EQ(spec->bugs[0].expect.verdict, report::Verdict::Fault);
    EXPECT_EQ(spec->bugs[0].expect.fault, "read-past-end");
    EXPECT_EQ(spec->bugs[0].expect.buffer, "x");
    EXPECT_EQ(spec->bugs[1].expect.reason, "unwritten");
    EXPECT_FALSE(spec->bugs[0].resetToZero.has_value());
    EXPECT_EQ(spec->hints.size(), 3u);
    EXPECT_EQ(spec->paramIndex("out"), 2);
    EXPECT_EQ(spec->path("solution.cu"), spec->dir / "solution.cu");
}

TEST(Spec, MissingFolderAndBadJson)
{
    auto missing = problem::loadSpec("/nonexistent/exercise");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("exercise.json: not found"), std::string::npos);

    auto bad = problem::parseSpec("{\"format\": 1,", test::vectorAddDir());
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().kind, engine::ErrorKind::BadSpec);
    EXPECT_EQ(bad.error().message.rfind("exercise.json: not valid JSON", 0), 0u) << bad.error().message;
}

TEST(Spec, ExactMessageForABadRole)
{
    json j = test::vectorAddJson();
    j["params"][2]["role"] = "output";
    auto r = test::parseIn(j);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "exercise.json: /params/2/role: \"output\" is not one of in, out, inout");
}

TEST(Spec, OptionalFieldsAndExtras)
{
    json j = test::vectorAddJson();
    j["reset_to_zero"] = {"out"};
    j["params"][2]["role"] = "inout";
    j["params"][2]["init"] = {{"dist", "arange"}, {"start", 1}};
    j["cases"][0]["seed"] = 12345;
    j["cases"][2]["layouts"] = {{"x", {{"kind", "contiguous"}}}};
    j["autotune"] = {{"key", {"n"}}, {"shapes", {{{"n", 4096}}, {{"n", 1 << 20}}}}, {"min_configs", 3}};
    j["tolerance"]["f32"]["scale"] = "1";
    j["bugs"][1]["reset_to_zero"] = json::array(); // the solution "tuned" without the reset
    auto r = test::parseIn(j);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->resetToZero.at(0), "out");
    ASSERT_TRUE(r->bugs[1].resetToZero.has_value());
    EXPECT_TRUE(r->bugs[1].resetToZero->empty());
    EXPECT_TRUE(r->cases[0].seedGiven);
    EXPECT_EQ(r->cases[0].seed, 12345u);
    ASSERT_TRUE(r->autotune.has_value());
    EXPECT_EQ(r->autotune->minConfigs, 3);
    EXPECT_EQ(r->autotune->shapes.size(), 2u);
    EXPECT_FALSE(r->firstStep.has_value());

    j["first_step"] = {{"file", "starter.cu"}, {"title", "First step: one element per thread"}};
    auto f = test::parseIn(j);
    ASSERT_TRUE(f.ok()) << f.error().message;
    ASSERT_TRUE(f->firstStep.has_value());
    EXPECT_EQ(f->firstStep->file, "starter.cu");
    EXPECT_EQ(f->firstStep->title, "First step: one element per thread");
}

TEST(Spec, BaselinesParse)
{
    json j = test::vectorAddJson();
    j["baselines"] = json::parse(R"json([
      {"name": "two kernels", "kind": "kernels", "file": "solution.cu",
       "temps": [{"name": "tmp", "dtype": "f32", "shape": ["n"]}],
       "launches": [{"kernel": "vector_add", "args": ["x", "y", "tmp", "n"], "grid": ["cdiv(n, 1024)"],
                     "block": ["128"]}]},
      {"name": "cuBLAS-ish", "kind": "cublas_gemm", "a": "x", "b": "y", "c": "out", "m": "1", "n": "n", "k": "1",
       "dtype": "f32"}])json");
    auto r = test::parseIn(j);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->baselines.size(), 2u);
    EXPECT_EQ(r->baselines[0].temps.at(0).name, "tmp");
    EXPECT_EQ(r->baselines[0].launches.at(0).args.size(), 4u);
    EXPECT_EQ(r->baselines[1].gemm.at("c"), "out");
}

namespace {

struct Rejection
{
    const char* what;
    std::function<void(json&)> mutate;
    const char* expected; // substring of the message, which always starts with "exercise.json: "
};

} // namespace

TEST(Spec, EveryRejectionPath)
{
    const std::vector<Rejection> table = {
        {"unknown top-level field", [](json& j) { j["colour"] = "red"; }, "/colour: unknown field"},
        {"missing kernel", [](json& j) { j.erase("kernel"); }, "/: missing required field \"kernel\""},
        {"missing performance", [](json& j) { j.erase("performance"); }, "missing required field \"performance\""},
        {"format 2", [](json& j) { j["format"] = 2; }, "/format: 2 is not a supported format version"},
        {"format string", [](json& j) { j["format"] = "1"; }, "/format: must be an integer, not a string"},
        {"id with capitals", [](json& j) { j["id"] = "Vector_Add"; }, "/id: \"Vector_Add\" may contain only"},
        {"empty title", [](json& j) { j["title"] = " "; }, "/title: must not be empty"},
        {"kernel not an identifier", [](json& j) { j["kernel"] = "vector-add"; },
         "/kernel: \"vector-add\" is not a C identifier"},
        {"absolute path", [](json& j) { j["prompt"] = "/etc/passwd"; },
         "/prompt: \"/etc/passwd\" must be a path relative"},
        {"path with ..", [](json& j) { j["starter"] = "../vector-add/starter.cu"; },
         "/starter: \"../vector-add/starter.cu\" must be a path relative"},
        {"missing file", [](json& j) { j["solution"] = "nope.cu"; }, "/solution: file \"nope.cu\" does not exist in"},
        {"first step without title", [](json& j) { j["first_step"] = {{"file", "solution.cu"}}; },
         "/first_step: missing required field \"title\""},
        {"first step file missing", [](json& j) { j["first_step"] = {{"file", "slow.cu"}, {"title", "t"}}; },
         "/first_step/file: file \"slow.cu\" does not exist"},
        {"first step not an object", [](json& j) { j["first_step"] = "slow.cu"; }, "/first_step: must be an object"},
        {"reference file missing", [](json& j) { j["reference"]["file"] = "ref64.cu"; },
         "/reference/file: file \"ref64.cu\" does not exist"},
        {"reference without kernel", [](json& j) { j["reference"].erase("kernel"); },
         "/reference: missing required field \"kernel\""},
        {"reference unknown field", [](json& j) { j["reference"]["meta"] = 1; }, "/reference/meta: unknown field"},
        {"reference uses a meta-parameter", [](json& j) { j["reference"]["grid"][0] = "cdiv(n, BLOCK_SIZE)"; },
         "/reference/grid/0: unknown name \"BLOCK_SIZE\""},
        {"hints not strings", [](json& j) { j["hints"][1] = 3; }, "/hints/1: must be a string, not a number"},
        {"params empty", [](json& j) { j["params"] = json::array(); }, "/params: must be a non-empty array"},
        {"param kind", [](json& j) { j["params"][0]["kind"] = "tensor"; },
         "/params/0/kind: \"tensor\" is not one of buffer, scalar"},
        {"param unknown field", [](json& j) { j["params"][0]["stride"] = 1; }, "/params/0/stride: unknown field"},
        {"dtype", [](json& j) { j["params"][1]["dtype"] = "f8"; },
         "/params/1/dtype: \"f8\" is not one of f16, bf16, f32, f64, i32, i64"},
        {"scalar f16", [](json& j) { j["params"][3]["dtype"] = "f16"; },
         "/params/3/dtype: a scalar is one of i32, i64, f32, f64"},
        {"scalar without value", [](json& j) { j["params"][3].erase("value"); },
         "/params/3: missing required field \"value\""},
        {"duplicate param", [](json& j) { j["params"][1]["name"] = "x"; },
         "/params/1/name: \"x\" is used by two parameters"},
        {"param name not identifier", [](json& j) { j["params"][0]["name"] = "2x"; },
         "/params/0/name: \"2x\" is not a C identifier"},
        {"shape of 5",
         [](json& j) {
             j["params"][0]["shape"] = {"n", "1", "1", "1", "1"};
         },
         "/params/0/shape: has 5 entries; it needs 1 to 4"},
        {"shape empty", [](json& j) { j["params"][0]["shape"] = json::array(); }, "/params/0/shape: has 0 entries"},
        {"shape not array", [](json& j) { j["params"][0]["shape"] = "n"; }, "/params/0/shape: must be an array"},
        {"init on out",
         [](json& j) {
             j["params"][2]["init"] = {{"dist", "normal"}};
         },
         "/params/2/init: an output buffer is poisoned"},
        {"no init on in", [](json& j) { j["params"][0].erase("init"); },
         "/params/0: buffer `x` with role in needs \"init\""},
        {"unknown dist", [](json& j) { j["params"][0]["init"]["dist"] = "gauss"; },
         "/params/0/init/dist: \"gauss\" is not one of normal, uniform, negative, large, int, arange"},
        {"generator unknown field", [](json& j) { j["params"][0]["init"]["sigma"] = 1; },
         "/params/0/init/sigma: unknown field (allowed here: dist, mean, std)"},
        {"normal all zeros",
         [](json& j) {
             j["params"][0]["init"] = {{"dist", "normal"}, {"mean", 0}, {"std", 0}};
         },
         "/params/0/init: mean 0 with std 0 gives all zeros"},
        {"normal negative std", [](json& j) { j["params"][0]["init"]["std"] = -1; }, "/params/0/init/std: must be ≥ 0"},
        {"uniform all zeros",
         [](json& j) {
             j["params"][1]["init"] = {{"dist", "uniform"}, {"low", 0}, {"high", 0}};
         },
         "/params/1/init: low = high = 0 gives all zeros"},
        {"uniform reversed",
         [](json& j) {
             j["params"][1]["init"] = {{"dist", "uniform"}, {"low", 4}, {"high", -4}};
         },
         "/params/1/init: low must be < high"},
        {"uniform without high",
         [](json& j) {
             j["params"][1]["init"] = {{"dist", "uniform"}, {"low", 4}};
         },
         "/params/1/init: a uniform generator needs \"high\""},
        {"negative not negative",
         [](json& j) {
             j["params"][1]["init"] = {{"dist", "negative"}, {"low", -5}, {"high", 1}};
         },
         "a negative generator needs low < high < 0"},
        {"large magnitude 0",
         [](json& j) {
             j["params"][1]["init"] = {{"dist", "large"}, {"magnitude", 0}};
         },
         "/params/1/init/magnitude: must be > 0"},
        {"int not integral",
         [](json& j) {
             j["params"][1]["init"] = {{"dist", "int"}, {"low", 0.5}, {"high", 3}};
         },
         "an int generator needs integer low and high"},
        {"arange all zeros",
         [](json& j) {
             j["params"][1]["init"] = {{"dist", "arange"}, {"step", 0}};
         },
         "start 0 with step 0 gives all zeros"},
        {"f16 overflow",
         [](json& j) {
             j["params"][1]["dtype"] = "f16";
             j["params"][1]["init"] = {{"dist", "large"}, {"magnitude", 1e5}};
         },
         "do not fit in f16"},
        {"meta default not allowed", [](json& j) { j["meta"][0]["default"] = 100; },
         "/meta/0/default: 100 is not in \"allowed\""},
        {"meta allowed empty", [](json& j) { j["meta"][0]["allowed"] = json::array(); },
         "/meta/0/allowed: must be a non-empty array"},
        {"meta float", [](json& j) { j["meta"][1]["default"] = 4.5; }, "/meta/1/default: must be an integer, not 4.5"},
        {"meta clashes with param", [](json& j) { j["meta"][0]["name"] = "x"; },
         "/meta/0/name: \"x\" is already the name"},
        {"meta clashes with size", [](json& j) { j["meta"][0]["name"] = "n"; }, "/meta/0/name: \"n\""},
        {"launch grid of 4",
         [](json& j) {
             j["launch"]["grid"] = {"1", "1", "1", "1"};
         },
         "/launch/grid: has 4 entries; it needs 1 to 3"},
        {"launch unknown field", [](json& j) { j["launch"]["cluster"] = {"1"}; }, "/launch/cluster: unknown field"},
        {"launch unknown variable", [](json& j) { j["launch"]["grid"][0] = "cdiv(N, BLOCK_SIZE)"; },
         "/launch/grid/0: unknown name \"N\" in \"cdiv(N, BLOCK_SIZE)\""},
        {"launch syntax", [](json& j) { j["launch"]["grid"][0] = "cdiv(n, "; }, "/launch/grid/0: "},
        {"block over 1024", [](json& j) { j["launch"]["block"][0] = "2048"; },
         "/launch/block/0: \"2048\" = 2048 threads: at most 1024"},
        {"block product over 1024",
         [](json& j) {
             j["launch"]["block"] = {"64", "32"};
         },
         "/launch/block: 2048 threads per block"},
        {"grid of 0", [](json& j) { j["launch"]["grid"][0] = "n - n"; }, "/launch/grid/0: \"n - n\" = 0"},
        {"grid not integral", [](json& j) { j["launch"]["grid"][0] = "n / 2"; },
         "/launch/grid/0: \"n / 2\" = 0.5 is not a non-negative integer"},
        {"shared bytes negative", [](json& j) { j["launch"]["shared_bytes"] = "-4"; },
         "/launch/shared_bytes: \"-4\" = -4 is not a non-negative integer"},
        {"cases empty", [](json& j) { j["cases"] = json::array(); }, "/cases: must be a non-empty array"},
        {"case unknown field", [](json& j) { j["cases"][1]["repeat"] = 2; }, "/cases/1/repeat: unknown field"},
        {"size 0", [](json& j) { j["cases"][1]["sizes"]["n"] = 0; },
         "/cases/1/sizes/n: 0 is not a valid size: sizes must be ≥ 1"},
        {"size not integer", [](json& j) { j["cases"][1]["sizes"]["n"] = 2.5; },
         "/cases/1/sizes/n: must be an integer"},
        {"sizes differ",
         [](json& j) {
             j["cases"][3]["sizes"] = {{"m", 4}};
         },
         "/cases/3/sizes: missing size \"n\""},
        {"extra size", [](json& j) { j["cases"][3]["sizes"]["k"] = 4; },
         "/cases/3/sizes/k: size \"k\" is not given by the first case"},
        {"duplicate case name", [](json& j) { j["cases"][1]["name"] = "one element"; },
         "/cases/1/name: \"one element\" is the name of an earlier case"},
        {"negative seed", [](json& j) { j["cases"][0]["seed"] = -3; }, "/cases/0/seed: must be a non-negative integer"},
        {"layout of unknown buffer",
         [](json& j) {
             j["cases"][0]["layouts"] = {{"z", {{"kind", "padded"}, {"pad", "1"}}}};
         },
         "/cases/0/layouts/z: \"z\" is not a buffer parameter"},
        {"layout of scalar",
         [](json& j) {
             j["cases"][0]["layouts"] = {{"n", {{"kind", "contiguous"}}}};
         },
         "/cases/0/layouts/n: \"n\" is not a buffer parameter"},
        {"layout kind",
         [](json& j) {
             j["cases"][0]["layouts"] = {{"x", {{"kind", "strided"}}}};
         },
         "/cases/0/layouts/x/kind: \"strided\" is not one of contiguous, transposed, padded"},
        {"padded rank 1",
         [](json& j) {
             j["cases"][0]["layouts"] = {{"x", {{"kind", "padded"}, {"pad", "3"}}}};
         },
         "/cases/0/layouts/x: a padded layout needs a buffer of rank ≥ 2"},
        {"padded without pad",
         [](json& j) {
             j["params"][0]["shape"] = {"n", "1"};
             j["cases"][0]["layouts"] = {{"x", {{"kind", "padded"}}}};
         },
         "/cases/0/layouts/x: missing required field \"pad\""},
        {"init override of output",
         [](json& j) {
             j["cases"][0]["init"] = {{"out", {{"dist", "normal"}}}};
         },
         "/cases/0/init/out: `out` is an output"},
        {"init override invalid",
         [](json& j) {
             j["cases"][0]["init"] = {{"x", {{"dist", "uniform"}, {"low", 0}, {"high", 0}}}};
         },
         "/cases/0/init/x: low = high = 0"},
        {"performance size 0", [](json& j) { j["performance"]["sizes"]["n"] = 0; },
         "/performance/sizes/n: 0 is not a valid size"},
        {"tolerance missing dtype",
         [](json& j) {
             j["tolerance"] = {{"f16", {{"atol", 1e-3}, {"rtol", 1e-3}}}};
         },
         "/tolerance: no entry for f32, the dtype of output `out`"},
        {"tolerance unknown key",
         [](json& j) {
             j["tolerance"]["fp32"] = {{"atol", 1}, {"rtol", 1}};
         },
         "/tolerance/fp32: unknown field"},
        {"tolerance negative", [](json& j) { j["tolerance"]["f32"]["atol"] = -1; },
         "/tolerance/f32: atol and rtol must be ≥ 0"},
        {"tolerance missing rtol", [](json& j) { j["tolerance"]["f32"].erase("rtol"); },
         "/tolerance/f32: missing required field \"rtol\""},
        {"tolerance bad scale", [](json& j) { j["tolerance"]["f32"]["scale"] = "sqrt(K)"; },
         "/tolerance/f32/scale: unknown name \"K\""},
        {"ideal bytes unknown name", [](json& j) { j["ideal_bytes"] = "3 * m * 4"; },
         "/ideal_bytes: unknown name \"m\""},
        {"flops not expression", [](json& j) { j["flops"] = json::array(); }, "/flops: must be an expression"},
        {"bug verdict", [](json& j) { j["bugs"][0]["expect"]["verdict"] = "crash"; },
         "/bugs/0/expect/verdict: \"crash\" is not one of fail, fault, timeout, compile_error"},
        {"bug fault kind", [](json& j) { j["bugs"][0]["expect"]["fault"] = "oob"; },
         "/bugs/0/expect/fault: \"oob\" is not one of read-past-end"},
        {"bug fault without buffer", [](json& j) { j["bugs"][0]["expect"].erase("buffer"); },
         "/bugs/0/expect: a read-past-end fault names the buffer"},
        {"bug buffer not a param", [](json& j) { j["bugs"][0]["expect"]["buffer"] = "z"; },
         "/bugs/0/expect/buffer: \"z\" is not a buffer parameter"},
        {"bug fail with fault field", [](json& j) { j["bugs"][1]["expect"]["fault"] = "trap"; },
         "/bugs/1/expect/fault: unknown field (allowed here: verdict, case, reason)"},
        {"bug reason", [](json& j) { j["bugs"][1]["expect"]["reason"] = "slow"; },
         "/bugs/1/expect/reason: \"slow\" is not one of mismatch, nan, unwritten, nondeterministic"},
        {"bug case unknown", [](json& j) { j["bugs"][1]["expect"]["case"] = "huge"; },
         "/bugs/1/expect/case: \"huge\" is not the name of a case"},
        {"bug file missing", [](json& j) { j["bugs"][0]["file"] = "bugs/none.cu"; },
         "/bugs/0/file: file \"bugs/none.cu\" does not exist"},
        {"bug without expect", [](json& j) { j["bugs"][0].erase("expect"); },
         "/bugs/0: missing required field \"expect\""},
        {"bug reset_to_zero of input", [](json& j) { j["bugs"][1]["reset_to_zero"] = {"y"}; },
         "/bugs/1/reset_to_zero/0: \"y\" is not an output buffer of this exercise"},
        {"bug reset_to_zero not array", [](json& j) { j["bugs"][1]["reset_to_zero"] = "out"; },
         "/bugs/1/reset_to_zero: must be an array of output buffer names"},
        {"reset_to_zero of input", [](json& j) { j["reset_to_zero"] = {"x"}; },
         "/reset_to_zero/0: \"x\" is not an out or inout buffer"},
        {"autotune key",
         [](json& j) {
             j["autotune"] = {{"key", {"m"}}, {"shapes", {{{"n", 4}}}}};
         },
         "/autotune/key/0: \"m\" is not a size variable"},
        {"autotune shape sizes",
         [](json& j) {
             j["autotune"] = {{"key", {"n"}}, {"shapes", {{{"m", 4}}}}};
         },
         "/autotune/shapes/0: missing size \"n\""},
        {"autotune unknown field",
         [](json& j) {
             j["autotune"] = {{"key", {"n"}}, {"shapes", {{{"n", 4}}}}, {"top", 1}};
         },
         "/autotune/top: unknown field"},
        {"baseline kind",
         [](json& j) {
             j["baselines"] = {{{"name", "b"}, {"kind", "triton"}}};
         },
         "/baselines/0/kind: \"triton\" is not one of kernels, cublas_gemm"},
        {"baseline gemm operand",
         [](json& j) {
             j["baselines"] = {{{"name", "b"},
                                {"kind", "cublas_gemm"},
                                {"a", "n"},
                                {"b", "y"},
                                {"c", "out"},
                                {"m", "1"},
                                {"n", "n"},
                                {"k", "1"},
                                {"dtype", "f32"}}};
         },
         "/baselines/0/a: \"n\" is not a buffer parameter"},
        {"baseline bad arg expression",
         [](json& j) {
             j["baselines"] = json::parse(
                 R"json([{"name": "b", "kind": "kernels", "file": "solution.cu", "launches": [{"kernel": "k", "args": ["x", "q + 1"], "grid": ["1"], "block": ["1"]}]}])json");
         },
         "/baselines/0/launches/0/args/1: unknown name \"q\""},
        {"baseline without launches",
         [](json& j) {
             j["baselines"] = json::parse(R"json([{"name": "b", "kind": "kernels", "file": "solution.cu"}])json");
         },
         "/baselines/0: missing required field \"launches\""},
        {"no outputs",
         [](json& j) {
             j["params"][2]["role"] = "in";
             j["params"][2]["init"] = {{"dist", "normal"}};
             j["bugs"] = json::array();
         },
         "/params: no buffer has role out or inout"},
        {"scalar not integral", [](json& j) { j["params"][3]["value"] = "n / 2"; },
         "/params/3/value: \"n / 2\" = 0.5 is not a non-negative integer"},
        {"i32 scalar overflow", [](json& j) { j["cases"][6]["sizes"]["n"] = 3000000000LL; },
         "/params/3/value: \"n\" = 3000000000 does not fit the i32 scalar `n`"},
    };
    for (const auto& row : table) {
        json j = test::vectorAddJson();
        row.mutate(j);
        auto r = test::parseIn(j);
        ASSERT_FALSE(r.ok()) << row.what << ": accepted";
        EXPECT_EQ(r.error().kind, engine::ErrorKind::BadSpec) << row.what;
        EXPECT_EQ(r.error().message.rfind("exercise.json: ", 0), 0u) << row.what << ": " << r.error().message;
        EXPECT_NE(r.error().message.find(row.expected), std::string::npos)
            << row.what << "\n  expected to contain: " << row.expected << "\n  got: " << r.error().message;
    }
}

// The Triton track's own tolerance (attention-fwd: TF32 allowed in CUDA, ieee asked for in Triton).
TEST(Spec, TritonTrackToleranceReplacesTheSpecsForTritonJobs)
{
    json j = test::vectorAddJson();
    j["triton"]["tolerance"] = {{"f32", {{"atol", 1e-7}, {"rtol", 2e-7}}}};
    auto ok = test::parseIn(j);
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    ASSERT_TRUE(ok->triton.has_value());
    ASSERT_EQ(ok->triton->tolerance.count(engine::DType::F32), 1u);
    EXPECT_DOUBLE_EQ(ok->triton->tolerance.at(engine::DType::F32).rtol, 2e-7);
    EXPECT_DOUBLE_EQ(ok->tolerance.at(engine::DType::F32).rtol, 1e-6) << "the CUDA track keeps the spec's";

    j["triton"]["tolerance"] = {{"f16", {{"atol", 1e-3}, {"rtol", 1e-3}}}};
    auto missing = test::parseIn(j);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("/triton/tolerance: no entry for f32"), std::string::npos)
        << missing.error().message;
    j["tolerance"]["f32"]["arithmetic"] = "tf32";
    j["triton"].erase("tolerance");
    auto tf32 = test::parseIn(j);
    ASSERT_TRUE(tf32.ok()) << tf32.error().message;
    EXPECT_EQ(tf32->tolerance.at(engine::DType::F32).arithmetic, "tf32");
    j["tolerance"]["f32"]["arithmetic"] = "bf16x3";
    auto unknown = test::parseIn(j);
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().message.find("/tolerance/f32/arithmetic: the one arithmetic"), std::string::npos)
        << unknown.error().message;
    j["tolerance"]["f32"].erase("arithmetic");
    j["triton"]["tolerance"] = {{"f32", {{"atol", -1}, {"rtol", 0}}}};
    auto negative = test::parseIn(j);
    ASSERT_FALSE(negative.ok());
    EXPECT_NE(negative.error().message.find("/triton/tolerance/f32: atol and rtol must be"), std::string::npos)
        << negative.error().message;
}

TEST(Spec, FileLabelAndNoFileChecks)
{
    json j = test::vectorAddJson();
    j["solution"] = "elsewhere.cu";
    problem::ParseOptions o;
    o.checkFiles = false;
    o.fileLabel = "content/02-vector-add/exercises/vector-add/exercise.json";
    auto ok = problem::parseSpec(j.dump(), "/nonexistent", o);
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    j["params"][2]["role"] = "output";
    auto bad = problem::parseSpec(j.dump(), "/nonexistent", o);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message.rfind(o.fileLabel + ": /params/2/role", 0), 0u) << bad.error().message;
}

// The Triton track's own prompt and hints (docs/exercise-spec.md, "Triton track"): optional, the prompt a file
// of the folder like the top-level one, the hints strings.
TEST(Spec, TritonPromptAndHints)
{
    json j = test::vectorAddJson();
    ASSERT_TRUE(j.contains("triton"));
    j["triton"].erase("prompt");
    j["triton"].erase("hints");
    auto plain = test::parseIn(j);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    EXPECT_TRUE(plain->triton->prompt.empty());
    EXPECT_TRUE(plain->triton->hints.empty());

    j["triton"]["prompt"] = "prompt.md";
    j["triton"]["hints"] = {"`pid = tl.program_id(0)`", "mask the load and the store"};
    auto r = test::parseIn(j);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->triton->prompt, "prompt.md");
    ASSERT_EQ(r->triton->hints.size(), 2u);
    EXPECT_EQ(r->triton->hints[1], "mask the load and the store");
    EXPECT_NE(r->hints, r->triton->hints); // the CUDA track keeps its own

    j["triton"]["prompt"] = "prompt-triton-missing.md";
    auto missing = test::parseIn(j);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message.rfind("exercise.json: /triton/prompt: file \"prompt-triton-missing.md\" does "
                                            "not exist",
                                            0),
              0u)
        << missing.error().message;
    j["triton"]["prompt"] = "../prompt.md";
    EXPECT_FALSE(test::parseIn(j).ok());
    j["triton"]["prompt"] = "prompt.md";
    j["triton"]["hints"] = "one hint";
    auto notArray = test::parseIn(j);
    ASSERT_FALSE(notArray.ok());
    EXPECT_EQ(notArray.error().message, "exercise.json: /triton/hints: must be an array of strings");
    j["triton"]["hints"] = {"fine", 3};
    auto notString = test::parseIn(j);
    ASSERT_FALSE(notString.ok());
    EXPECT_EQ(notString.error().message.rfind("exercise.json: /triton/hints/1:", 0), 0u) << notString.error().message;
}
