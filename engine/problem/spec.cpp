#include "engine/problem/spec.h"

#include "engine/common/paths.h"

namespace tkm::problem {

std::string_view roleName(Role r)
{
    switch (r) {
    case Role::In:
        return "in";
    case Role::Out:
        return "out";
    case Role::InOut:
        return "inout";
    }
    return "in";
}

std::string_view distName(Dist d)
{
    switch (d) {
    case Dist::Normal:
        return "normal";
    case Dist::Uniform:
        return "uniform";
    case Dist::Negative:
        return "negative";
    case Dist::Large:
        return "large";
    case Dist::Int:
        return "int";
    case Dist::Arange:
        return "arange";
    }
    return "normal";
}

std::string_view layoutName(LayoutKind k)
{
    switch (k) {
    case LayoutKind::Contiguous:
        return "contiguous";
    case LayoutKind::Transposed:
        return "transposed";
    case LayoutKind::Padded:
        return "padded";
    }
    return "contiguous";
}

const Param* ExerciseSpec::findParam(std::string_view name) const
{
    const int i = paramIndex(name);
    return i < 0 ? nullptr : &params[static_cast<std::size_t>(i)];
}

int ExerciseSpec::paramIndex(std::string_view name) const
{
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (params[i].name == name) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

std::filesystem::path ExerciseSpec::path(std::string_view rel) const
{
    return dir / std::filesystem::path(std::string(rel));
}

engine::Expected<ExerciseSpec> loadSpec(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::filesystem::path abs = std::filesystem::absolute(dir, ec);
    if (ec) {
        abs = dir;
    }
    abs = abs.lexically_normal();
    if (!abs.empty() && abs.filename().empty()) {
        abs = abs.parent_path(); // drop a trailing slash
    }
    const auto file = abs / "exercise.json";
    if (!std::filesystem::is_regular_file(file, ec)) {
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 file.string() + ": not found: an exercise folder must contain exercise.json");
    }
    auto text = engine::readTextFile(file);
    if (!text) {
        return text.error();
    }
    return parseSpec(*text, abs);
}

} // namespace tkm::problem
