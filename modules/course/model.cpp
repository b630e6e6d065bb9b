#include "modules/course/model.h"

#include <array>
#include <utility>

namespace tkm::course {

namespace {

constexpr std::array<std::pair<ActivityKind, std::string_view>, 7> kActivityKinds{{
    {ActivityKind::Lesson, "lesson"},
    {ActivityKind::Walkthrough, "walkthrough"},
    {ActivityKind::Quiz, "quiz"},
    {ActivityKind::SpotTheBug, "spot-the-bug"},
    {ActivityKind::DragMatch, "drag-match"},
    {ActivityKind::StepThrough, "step-through"},
    {ActivityKind::Exercise, "exercise"},
}};

constexpr std::array<std::pair<CalloutKind, std::string_view>, 5> kCalloutKinds{{
    {CalloutKind::Probe, "PROBE"},
    {CalloutKind::Gotcha, "GOTCHA"},
    {CalloutKind::Rule, "RULE"},
    {CalloutKind::Version, "VERSION"},
    {CalloutKind::Note, "NOTE"},
}};

constexpr std::array<std::pair<Diagram, std::string_view>, 5> kDiagrams{{
    {Diagram::Traffic, "traffic"},
    {Diagram::OnlineSoftmax, "online-softmax"},
    {Diagram::TileGrid, "tile-grid"},
    {Diagram::Pipeline, "pipeline"},
    {Diagram::Table, "table"},
}};

template <class Enum, std::size_t N>
std::string_view nameOf(const std::array<std::pair<Enum, std::string_view>, N>& table, Enum value)
{
    for (const auto& [e, name] : table) {
        if (e == value) {
            return name;
        }
    }
    return {};
}

template <class Enum, std::size_t N>
std::optional<Enum> parse(const std::array<std::pair<Enum, std::string_view>, N>& table, std::string_view name)
{
    for (const auto& [e, n] : table) {
        if (n == name) {
            return e;
        }
    }
    return std::nullopt;
}

} // namespace

std::string_view activityKindName(ActivityKind kind)
{
    return nameOf(kActivityKinds, kind);
}
std::optional<ActivityKind> parseActivityKind(std::string_view name)
{
    return parse(kActivityKinds, name);
}
std::string_view calloutKindName(CalloutKind kind)
{
    return nameOf(kCalloutKinds, kind);
}
std::optional<CalloutKind> parseCalloutKind(std::string_view name)
{
    return parse(kCalloutKinds, name);
}
std::string_view diagramName(Diagram diagram)
{
    return nameOf(kDiagrams, diagram);
}
std::optional<Diagram> parseDiagram(std::string_view name)
{
    return parse(kDiagrams, name);
}

const Activity* Module::findActivity(std::string_view activityId) const
{
    for (const Activity& a : activities) {
        if (a.id == activityId) {
            return &a;
        }
    }
    return nullptr;
}

const Module* Course::findModule(std::string_view moduleId) const
{
    for (const Module& m : modules) {
        if (m.id == moduleId) {
            return &m;
        }
    }
    return nullptr;
}

} // namespace tkm::course
