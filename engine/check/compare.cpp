#include "engine/check/compare.h"
#include "engine/problem/elements.h"

#include "engine/problem/generate.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <sstream>

namespace tkm::check {
namespace {

using engine::DType;

std::string number(double v)
{
    if (std::isnan(v)) {
        return "NaN";
    }
    if (std::isinf(v)) {
        return v > 0 ? "inf" : "-inf";
    }
    std::ostringstream s;
    s.precision(9);
    s << v;
    return s.str();
}

std::string plural(int64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

std::string formatIndex(const std::vector<int64_t>& index)
{
    std::string s = "[";
    for (std::size_t i = 0; i < index.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(index[i]);
    }
    return s + "]";
}

OutputCheck compareOutput(const problem::ArgInstance& arg, std::span<const std::byte> got,
                          std::span<const std::byte> reference, const problem::Tolerance& tol)
{
    OutputCheck c;
    c.buffer = arg.name;
    c.atol = tol.atol;
    c.rtol = tol.rtol;
    const DType t = arg.dtype;
    const DType rt = engine::referenceDType(t);
    const int64_t size = engine::dtypeBytes(t);
    const int64_t rsize = engine::dtypeBytes(rt);
    if (static_cast<int64_t>(got.size()) < arg.storageElements * size ||
        static_cast<int64_t>(reference.size()) < arg.storageElements * rsize) {
        // A caller bug: report every element as failing rather than reading out of bounds.
        c.checked = arg.numel;
        c.mismatches = arg.numel;
        return c;
    }
    forEachElement(arg, [&](int64_t linear, int64_t offset) {
        ++c.checked;
        const std::byte* g = got.data() + offset * size;
        const double expected = engine::loadAs(rt, reference.data() + offset * rsize);
        bool bad = false;
        bool unwritten = false;
        double value = 0;
        if (std::isnan(expected)) {
            ++c.referenceNan;
            bad = true;
        }
        if (engine::isPoison(t, g)) {
            unwritten = true;
            bad = true;
            if (c.unwritten++ == 0) {
                c.firstUnwritten = linear;
            }
        } else {
            value = engine::loadAs(t, g);
            if (std::isnan(value)) {
                bad = true;
                if (c.nan++ == 0) {
                    c.firstNan = linear;
                }
            } else if (std::isinf(value)) {
                ++c.inf;
                bad = bad || value != expected;
            } else if (!std::isnan(expected)) {
                const double err = std::fabs(value - expected);
                if (std::isinf(expected)) {
                    bad = true;
                } else {
                    c.maxAbsError = std::max(c.maxAbsError, err);
                    if (expected != 0) {
                        c.maxRelError = std::max(c.maxRelError, err / std::fabs(expected));
                    }
                    bad = err > tol.atol + tol.rtol * std::fabs(expected);
                }
            }
        }
        if (bad) {
            if (c.mismatches++ < kMaxListed) {
                Mismatch m;
                m.linear = linear;
                m.index = problem::logicalIndex(arg, linear);
                m.unwritten = unwritten;
                m.got = value;
                m.expected = expected;
                c.firstMismatches.push_back(std::move(m));
            }
        }
    });
    return c;
}

std::pair<int64_t, int64_t> canaryDamage(std::span<const std::byte> zone)
{
    int64_t damaged = 0;
    int64_t nearest = 0;
    const std::size_t n = zone.size();
    for (std::size_t k = 0; k < n; ++k) {
        // Byte k bytes before the end belongs to the word ending at the buffer start: pattern byte 3 − (k mod 4)
        // of the little-endian word.
        const std::size_t fromEnd = n - 1 - k;
        const auto expected = static_cast<std::byte>((kCanaryWord >> (8 * (3 - fromEnd % 4))) & 0xFFu);
        if (zone[k] != expected) {
            ++damaged;
            const auto distance = static_cast<int64_t>(fromEnd + 1);
            if (nearest == 0 || distance < nearest) {
                nearest = distance;
            }
        }
    }
    return {damaged, nearest};
}

void fillCanary(std::span<std::byte> zone)
{
    const std::size_t n = zone.size();
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t fromEnd = n - 1 - k;
        zone[k] = static_cast<std::byte>((kCanaryWord >> (8 * (3 - fromEnd % 4))) & 0xFFu);
    }
}

void addCanaryDamage(OutputCheck& check, std::span<const std::byte> zone)
{
    const auto [damaged, nearest] = canaryDamage(zone);
    check.canaryBeforeStart = damaged;
    check.firstCanaryOffset = nearest;
}

DeterminismCheck compareLaunches(const problem::ArgInstance& arg, std::span<const std::byte> first,
                                 std::span<const std::byte> second)
{
    DeterminismCheck d;
    d.buffer = arg.name;
    const int64_t size = engine::dtypeBytes(arg.dtype);
    if (static_cast<int64_t>(first.size()) < arg.storageElements * size ||
        static_cast<int64_t>(second.size()) < arg.storageElements * size) {
        d.differing = arg.numel;
        d.firstIndex = 0;
        d.firstCoords = problem::logicalIndex(arg, 0);
        return d;
    }
    forEachElement(arg, [&](int64_t linear, int64_t offset) {
        if (std::memcmp(first.data() + offset * size, second.data() + offset * size, static_cast<std::size_t>(size)) !=
            0) {
            if (d.differing++ == 0) {
                d.firstIndex = linear;
                d.firstCoords = problem::logicalIndex(arg, linear);
            }
        }
    });
    return d;
}

std::string caseMessage(const problem::ProblemInstance& inst, const std::vector<OutputCheck>& outputs,
                        const std::vector<DeterminismCheck>& determinism)
{
    std::vector<std::string> parts;
    for (const auto& c : outputs) {
        const problem::ArgInstance* arg = inst.find(c.buffer);
        auto at = [&](int64_t linear) {
            if (!arg || arg->shape.size() == 1) {
                return "index " + std::to_string(linear);
            }
            return "index " + formatIndex(problem::logicalIndex(*arg, linear));
        };
        const std::string of = " of " + std::to_string(c.checked) + " elements of `" + c.buffer + "`";
        if (c.unwritten > 0) {
            std::string s =
                std::to_string(c.unwritten) + of + " were never written (first at " + at(c.firstUnwritten) + ")";
            if (c.unwritten == c.checked) {
                s += ": does the kernel store its result at all?";
            } else if (arg && c.firstUnwritten > 0 && c.firstUnwritten + c.unwritten == c.checked) {
                s += ": does the last program cover the tail?";
            } else {
                s += ": do the programs and their threads cover every element?";
            }
            parts.push_back(s);
        }
        if (c.nan > 0) {
            parts.push_back(std::to_string(c.nan) + of + (c.nan == 1 ? " is" : " are") + " NaN (first at " +
                            at(c.firstNan) + "): a masked-off load without a fill value, or 0/0, exp overflow?");
        }
        if (c.referenceNan > 0) {
            parts.push_back("the reference produced " + plural(c.referenceNan, "NaN", "NaNs") + " for `" + c.buffer +
                            "`: the exercise itself is broken, please report it");
        }
        const int64_t wrong = c.mismatches - c.unwritten - c.nan;
        if (wrong > 0) {
            std::string s = std::to_string(wrong) + of + " differ from the reference by more than atol " +
                            number(c.atol) + " + rtol " + number(c.rtol) + "·|expected|";
            for (const auto& m : c.firstMismatches) {
                if (!m.unwritten && !std::isnan(m.got)) {
                    s += " (first at " +
                         (m.index.size() == 1 ? "index " + std::to_string(m.linear) : "index " + formatIndex(m.index)) +
                         ": got " + number(m.got) + ", expected " + number(m.expected) + ")";
                    break;
                }
            }
            parts.push_back(s);
        }
        if (c.canaryBeforeStart > 0) {
            parts.push_back("the kernel wrote " + plural(c.canaryBeforeStart, "byte", "bytes") +
                            " before the start of `" + c.buffer + "` (nearest " + std::to_string(c.firstCanaryOffset) +
                            " bytes before it): a negative offset?");
        }
    }
    for (const auto& d : determinism) {
        if (!d.identical()) {
            parts.push_back("a second launch on the same inputs changed " + plural(d.differing, "element", "elements") +
                            " of `" + d.buffer + "` (first at index " +
                            (d.firstCoords.size() > 1 ? formatIndex(d.firstCoords) : std::to_string(d.firstIndex)) +
                            "): does the kernel accumulate into its output, or race?");
        }
    }
    std::string message;
    for (const auto& p : parts) {
        if (!message.empty()) {
            message += "; ";
        }
        message += p;
    }
    if (!message.empty()) {
        message[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(message[0])));
        if (message.back() != '?') {
            message += ".";
        }
    }
    return message;
}

} // namespace tkm::check
