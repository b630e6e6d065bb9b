#pragma once
// Internal: lesson pages (front matter block + Markdown body with callouts), docs/content-format.md.

#include "modules/course/loader.h"
#include "modules/course/model.h"

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace tkm::course::detail {

/// Parses a lesson page's text. Problems go to `diagnostics` with `file` and the 1-based line (and the column
/// of the bad token where there is one); returns nullopt when any error was found in this page.
std::optional<Lesson> parseLessonText(std::string_view text, const std::filesystem::path& file,
                                      std::vector<Diagnostic>& diagnostics);

/// Finds the callouts of a lesson body (Lesson::markdown) whose first line is page line `firstLine` [1-based];
/// malformed or empty callouts go to `diagnostics` (no file, page lines) and are left out. False on an error.
bool scanLessonBody(std::string_view body, int firstLine, std::vector<Callout>& callouts,
                    std::vector<Diagnostic>& diagnostics);

/// Reads `file` and parses it as a lesson page (a missing file is a diagnostic).
std::optional<Lesson> loadLessonFile(const std::filesystem::path& file, std::vector<Diagnostic>& diagnostics);

} // namespace tkm::course::detail
