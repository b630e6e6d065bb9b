// Step-through state checks: each diagram's state fields (docs/content-format.md, step-through table).
#include "modules/course/detail/activities.h"

#include <cmath>

namespace tkm::course::detail {

namespace {

using nlohmann::json;

// A JSON number; `-inf` / `inf` are accepted as strings because JSON has no infinities (m_i starts at −∞).
bool isNumberLike(const json& v)
{
    if (v.is_number()) {
        return true;
    }
    return v.is_string() && (v == "-inf" || v == "inf");
}

class StateChecker
{
public:
    StateChecker(Reporter& file, const json& state, const std::string& pointer, std::string diagram)
        : m_reader(file, state, pointer, "the " + diagram + " state"), m_file(file), m_diagram(std::move(diagram))
    {
    }

    const json* field(const char* key, bool required = true) { return m_reader.any(key, required); }
    std::string at(const char* key) const { return m_reader.fieldPointer(key); }

    void number(const char* key, bool nonNegative, bool required = true)
    {
        if (const json* v = field(key, required)) {
            if (!v->is_number()) {
                bad(key, "a number", *v);
            } else if (nonNegative && v->get<double>() < 0) {
                m_file.error(at(key),
                             "\"" + std::string(key) + "\" of the " + m_diagram + " state must not be negative");
            }
        }
    }
    void numberOrInfinity(const char* key)
    {
        if (const json* v = field(key)) {
            if (!isNumberLike(*v)) {
                bad(key, "a number (or \"-inf\")", *v);
            }
        }
    }
    std::optional<long long> index(const char* key, long long minValue = 0)
    {
        if (const json* v = field(key)) {
            if (!v->is_number_integer() || v->get<long long>() < minValue) {
                bad(key, minValue > 0 ? "a positive integer" : "a non-negative integer", *v);
                return std::nullopt;
            }
            return v->get<long long>();
        }
        return std::nullopt;
    }
    // An array of numbers, or (for tiles) an array of arrays of numbers.
    void numbers(const char* key, bool required = true)
    {
        if (const json* v = field(key, required)) {
            if (!v->is_array()) {
                bad(key, "an array of numbers", *v);
                return;
            }
            for (std::size_t i = 0; i < v->size(); ++i) {
                const json& e = (*v)[i];
                bool ok = isNumberLike(e);
                if (e.is_array()) {
                    ok = std::all_of(e.begin(), e.end(), [](const json& x) { return isNumberLike(x); });
                }
                if (!ok) {
                    m_file.error(pointerAppend(at(key), i), "\"" + std::string(key) +
                                                                "\" must hold numbers (or rows of "
                                                                "numbers), not " +
                                                                jsonTypeName(e));
                }
            }
        }
    }
    void oneOf(const char* key, std::initializer_list<const char*> values)
    {
        if (const json* v = field(key)) {
            for (const char* allowed : values) {
                if (*v == allowed) {
                    return;
                }
            }
            std::string list;
            for (const char* allowed : values) {
                list += (list.empty() ? "" : ", ") + std::string(allowed);
            }
            m_file.error(at(key), "\"" + std::string(key) + "\" of the " + m_diagram + " state must be one of " + list +
                                      ", not " + v->dump());
        }
    }
    void bad(const char* key, const char* expected, const json& v)
    {
        m_file.error(at(key), "\"" + std::string(key) + "\" of the " + m_diagram + " state must be " + expected +
                                  ", not " + jsonTypeName(v));
    }
    ObjectReader& reader() { return m_reader; }
    Reporter& file() { return m_file; }

private:
    ObjectReader m_reader;
    Reporter& m_file;
    std::string m_diagram;
};

void checkTraffic(StateChecker& s)
{
    if (const json* transfers = s.field("transfers")) {
        if (!transfers->is_array()) {
            s.bad("transfers", "an array", *transfers);
        } else {
            for (std::size_t i = 0; i < transfers->size(); ++i) {
                ObjectReader r(s.file(), (*transfers)[i], pointerAppend(s.at("transfers"), i), "transfer");
                for (const char* end : {"from", "to"}) {
                    if (auto v = r.string(end, true); v && *v != "HBM" && *v != "SRAM") {
                        s.file().error(r.fieldPointer(end), "\"" + std::string(end) +
                                                                "\" of a transfer must be \"HBM\" or "
                                                                "\"SRAM\", not \"" +
                                                                *v + "\"");
                    }
                }
                r.string("label", true);
                if (const json* bytes = r.any("bytes", true);
                    bytes && (!bytes->is_number() || bytes->get<double>() < 0)) {
                    s.file().error(r.fieldPointer("bytes"), "\"bytes\" of a transfer must be a non-negative number");
                }
                r.finish();
            }
        }
    }
    s.number("read_bytes", true);
    s.number("written_bytes", true);
    s.oneOf("lane", {"fused", "unfused"});
}

void checkOnlineSoftmax(StateChecker& s)
{
    s.index("tile");
    s.numbers("scores");
    s.numberOrInfinity("m");
    s.number("l", true);
    s.numbers("acc");
    s.numbers("full", false);
}

void checkTileGrid(StateChecker& s)
{
    const auto gridM = s.index("grid_m", 1);
    const auto gridN = s.index("grid_n", 1);
    const auto group = s.index("group_size_m", 1);
    if (group && gridM && *group > *gridM) {
        s.file().error(s.at("group_size_m"), "\"group_size_m\" (" + std::to_string(*group) +
                                                 ") cannot exceed \"grid_m\" (" + std::to_string(*gridM) + ")");
    }
    if (const json* computed = s.field("computed")) {
        if (!computed->is_array()) {
            s.bad("computed", "an array of [row, col] pairs", *computed);
        } else {
            for (std::size_t i = 0; i < computed->size(); ++i) {
                const json& cell = (*computed)[i];
                const bool pair =
                    cell.is_array() && cell.size() == 2 && cell[0].is_number_integer() && cell[1].is_number_integer();
                if (!pair) {
                    s.file().error(pointerAppend(s.at("computed"), i),
                                   "each entry of \"computed\" is a [row, col] pair of "
                                   "integers");
                } else if (gridM && gridN &&
                           (cell[0].get<long long>() < 0 || cell[0].get<long long>() >= *gridM ||
                            cell[1].get<long long>() < 0 || cell[1].get<long long>() >= *gridN)) {
                    s.file().error(pointerAppend(s.at("computed"), i),
                                   "tile " + cell.dump() + " lies outside the " + std::to_string(*gridM) + "×" +
                                       std::to_string(*gridN) + " grid (rows and columns count from 0)");
                }
            }
        }
    }
    s.index("a_loads");
    s.index("b_loads");
}

void checkPipeline(StateChecker& s)
{
    std::size_t stageCount = 0;
    if (const json* stages = s.field("stages")) {
        const bool ok = stages->is_array() && !stages->empty() &&
                        std::all_of(stages->begin(), stages->end(), [](const json& x) { return x.is_string(); });
        if (!ok) {
            s.bad("stages", "a non-empty array of stage names", *stages);
        }
        stageCount = stages->is_array() ? stages->size() : 0;
    }
    if (const auto active = s.index("active");
        active && stageCount > 0 && *active >= static_cast<long long>(stageCount)) {
        s.file().error(s.at("active"), "\"active\" is " + std::to_string(*active) + " but there are only " +
                                           std::to_string(stageCount) + " stages (counted from 0)");
    }
    s.reader().string("artifact", true);
}

void checkTable(StateChecker& s)
{
    const json* values = s.field("values");
    if (!values) {
        return;
    }
    if (!values->is_object()) {
        s.bad("values", "an object {name: value}", *values);
        return;
    }
    for (const auto& [name, value] : values->items()) {
        if (!value.is_number() && !value.is_string()) {
            s.file().error(pointerAppend(s.at("values"), name), "table value \"" + name +
                                                                    "\" must be a number or a "
                                                                    "string, not " +
                                                                    jsonTypeName(value));
        }
    }
}

} // namespace

void checkDiagramState(Diagram diagram, const json& state, Reporter& file, const std::string& pointer)
{
    StateChecker s(file, state, pointer, std::string(diagramName(diagram)));
    if (!s.reader().valid()) {
        return;
    }
    switch (diagram) {
    case Diagram::Traffic:
        checkTraffic(s);
        break;
    case Diagram::OnlineSoftmax:
        checkOnlineSoftmax(s);
        break;
    case Diagram::TileGrid:
        checkTileGrid(s);
        break;
    case Diagram::Pipeline:
        checkPipeline(s);
        break;
    case Diagram::Table:
        checkTable(s);
        break;
    }
    s.reader().finish();
}

} // namespace tkm::course::detail
