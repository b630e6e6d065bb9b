#include "test_util.h"

#include "engine/common/paths.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

namespace tkm::test {

std::filesystem::path vectorAddDir()
{
    return engine::contentDir() / "02-vector-add" / "exercises" / "vector-add";
}

nlohmann::json vectorAddJson()
{
    std::ifstream in(vectorAddDir() / "exercise.json");
    return nlohmann::json::parse(in);
}

engine::Expected<problem::ExerciseSpec> parseIn(const nlohmann::json& spec, const std::filesystem::path& dir)
{
    return problem::parseSpec(spec.dump(), dir);
}

nlohmann::json matrixJson()
{
    return nlohmann::json::parse(R"json({
      "format": 1, "id": "copy-matrix", "title": "Copy a matrix", "kernel": "copy",
      "prompt": "prompt.md", "starter": "starter.cu", "solution": "solution.cu",
      "reference": {"file": "reference.cu", "kernel": "copy_ref", "grid": ["M"], "block": ["min(N, 256)"]},
      "params": [
        {"name": "a", "kind": "buffer", "dtype": "f32", "shape": ["M", "N"], "role": "in",
         "init": {"dist": "uniform", "low": -1, "high": 1}},
        {"name": "b", "kind": "buffer", "dtype": "f32", "shape": ["M", "N"], "role": "out"},
        {"name": "M", "kind": "scalar", "dtype": "i32", "value": "M"},
        {"name": "N", "kind": "scalar", "dtype": "i32", "value": "N"},
        {"name": "lda", "kind": "scalar", "dtype": "i64", "value": "a_stride0"}
      ],
      "meta": [{"name": "BLOCK_N", "default": 64, "allowed": [32, 64, 128]}],
      "launch": {"grid": ["M", "cdiv(N, BLOCK_N)"], "block": ["BLOCK_N"]},
      "cases": [
        {"name": "3 x 5", "sizes": {"M": 3, "N": 5}},
        {"name": "padded", "sizes": {"M": 4, "N": 6}, "layouts": {"a": {"kind": "padded", "pad": "3"}}},
        {"name": "transposed", "sizes": {"M": 4, "N": 6}, "seed": 99, "layouts": {"a": {"kind": "transposed"}}}
      ],
      "performance": {"name": "big", "sizes": {"M": 8192, "N": 8192}},
      "tolerance": {"f32": {"atol": 1e-6, "rtol": 1e-6}, "scale": "sqrt(N)"},
      "ideal_bytes": "2 * M * N * 4",
      "flops": "0"
    })json");
}

problem::ExerciseSpec matrixSpec(const nlohmann::json& j)
{
    problem::ParseOptions o;
    o.checkFiles = false;
    auto spec = problem::parseSpec(j.dump(), "/nonexistent", o);
    EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message);
    if (!spec.ok()) {
        std::abort();
    }
    return std::move(spec).value();
}

} // namespace tkm::test
