#pragma once
// Helpers shared by the engine tests: the vector-add exercise, temporary folders, small inline specs.

#include "engine/problem/spec.h"
#include "tests/support/temp_dir.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace tkm::test {

/// content/02-vector-add/exercises/vector-add under the content dir (TKM_CONTENT_DIR or the compiled-in one).
std::filesystem::path vectorAddDir();
/// The vector-add exercise.json as JSON.
nlohmann::json vectorAddJson();

/// Parses `spec` with the vector-add folder as its directory (files are checked there).
engine::Expected<problem::ExerciseSpec> parseIn(const nlohmann::json& spec,
                                                const std::filesystem::path& dir = vectorAddDir());

/// A 2-D exercise (no files checked): in `a` (M×N, f32), out `b` (M×N, f32), scalars M, N, lda = a_stride0.
nlohmann::json matrixJson();
/// matrixJson() parsed with checkFiles off; aborts the test on failure.
problem::ExerciseSpec matrixSpec(const nlohmann::json& j = matrixJson());

} // namespace tkm::test
