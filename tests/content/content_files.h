#pragma once
// Finding the built-in content's exercise folders for the content tests (independent of the course loader,
// so that compile and GPU checks still run while a module has other problems).

#include <filesystem>
#include <string>
#include <vector>

namespace tkm::test {

/// The content root: env TKM_CONTENT_DIR, else the compiled-in content folder.
std::filesystem::path contentRoot();

/// Every `<module>/exercises/<id>/` folder that holds an exercise.json, sorted.
std::vector<std::filesystem::path> exerciseFolders(const std::filesystem::path& root);

/// "04-fused-softmax/exercises/fused-softmax" for messages.
std::string shortName(const std::filesystem::path& folder, const std::filesystem::path& root);

} // namespace tkm::test
