#include "modules/course/detail/markdown.h"

#include "modules/course/detail/json_file.h"

#include <algorithm>
#include <charconv>

namespace tkm::course::detail {

namespace {

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        lines.push_back(line);
        if (end == text.size()) {
            break;
        }
        start = end + 1;
    }
    return lines;
}

std::string_view trim(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = s.find_last_not_of(" \t");
    return s.substr(first, last - first + 1);
}

int columnOf(std::string_view line, std::size_t byte)
{
    return positionOfByte(line, byte).column;
}

struct FrontMatter
{
    std::optional<std::string> title;
    std::optional<int> minutes;
    std::size_t bodyStart = 0; // index of the first body line
};

std::optional<FrontMatter> parseFrontMatter(const std::vector<std::string_view>& lines,
                                            const std::filesystem::path& file, std::vector<Diagnostic>& diags)
{
    auto error = [&](int line, int column, std::string message) {
        diags.push_back({file, line, column, Severity::Error, std::move(message)});
    };
    if (lines.empty() || trim(lines[0]) != "---") {
        error(1, 1,
              "a lesson page must start with a front matter block: a line \"---\", \"title: …\" "
              "(and optionally \"minutes: N\"), then \"---\"");
        return std::nullopt;
    }
    FrontMatter fm;
    bool ok = true;
    bool closed = false;
    bool sawTitle = false;
    bool sawMinutes = false;
    std::size_t i = 1;
    for (; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        const int lineNo = static_cast<int>(i) + 1;
        if (trim(line) == "---") {
            closed = true;
            ++i;
            break;
        }
        if (trim(line).empty()) {
            continue;
        }
        const auto colon = line.find(':');
        const std::string_view key = colon == std::string_view::npos ? std::string_view{} : trim(line.substr(0, colon));
        if (key.empty() || key.find(' ') != std::string_view::npos) {
            error(lineNo, 1,
                  "front matter lines are \"key: value\"; this line is not (did you forget the closing \"---\"?)");
            ok = false;
            continue;
        }
        std::string_view value = trim(line.substr(colon + 1));
        const std::size_t valueByte =
            line.size() - line.substr(colon + 1).size() + line.substr(colon + 1).find_first_not_of(" \t");
        const int valueColumn = value.empty() ? columnOf(line, line.size()) + 0 : columnOf(line, valueByte);
        if (key == "title") {
            if (sawTitle) {
                error(lineNo, 1, "\"title\" is given twice in the front matter; keep one");
                ok = false;
                continue;
            }
            sawTitle = true;
            if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
                value = value.substr(1, value.size() - 2);
            }
            if (trim(value).empty()) {
                error(lineNo, valueColumn, "the front matter \"title\" is empty; give the page a title");
                ok = false;
                continue;
            }
            fm.title = std::string(value);
        } else if (key == "minutes") {
            if (sawMinutes) {
                error(lineNo, 1, "\"minutes\" is given twice in the front matter; keep one");
                ok = false;
                continue;
            }
            sawMinutes = true;
            int minutes = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), minutes);
            if (ec != std::errc{} || end != value.data() + value.size() || minutes < 1 || minutes > 600) {
                error(lineNo, valueColumn,
                      "\"minutes\" must be a whole number of minutes between 1 and 600, not \"" + std::string(value) +
                          "\"");
                ok = false;
                continue;
            }
            fm.minutes = minutes;
        } else {
            error(lineNo, 1, "unknown front matter key \"" + std::string(key) + "\"; allowed keys: title, minutes");
            ok = false;
        }
    }
    if (!closed) {
        error(1, 1, "the front matter block opened on line 1 is never closed: add a line \"---\" after its keys");
        return std::nullopt;
    }
    if (!sawTitle && ok) {
        error(1, 1, "the front matter has no \"title\": add a line \"title: …\" between the \"---\" lines");
        return std::nullopt;
    }
    if (!ok || !fm.title) {
        return std::nullopt;
    }
    fm.bodyStart = i;
    return fm;
}

bool isFence(std::string_view line, std::string_view& fence)
{
    const std::string_view t = trim(line);
    if (t.size() < 3 || (t[0] != '`' && t[0] != '~')) {
        return false;
    }
    std::size_t n = 0;
    while (n < t.size() && t[n] == t[0]) {
        ++n;
    }
    if (n < 3) {
        return false;
    }
    if (fence.empty()) {
        fence = t.substr(0, n);
        return true;
    }
    // A fence closes only with the same character and at least as many of it, and nothing after.
    if (t[0] == fence[0] && n >= fence.size() && trim(t.substr(n)).empty()) {
        fence = {};
        return true;
    }
    return false;
}

// "> [!KIND] title" → the byte offset of '[' in `line`, or npos when the line does not start a callout.
std::size_t calloutMarker(std::string_view line)
{
    std::size_t i = 0;
    while (i < line.size() && i < 3 && line[i] == ' ') {
        ++i;
    }
    if (i >= line.size() || line[i] != '>') {
        return std::string_view::npos;
    }
    ++i;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
        ++i;
    }
    if (line.substr(i, 2) != "[!") {
        return std::string_view::npos;
    }
    return i;
}

std::string_view quoteContent(std::string_view line)
{
    std::string_view t = line;
    while (!t.empty() && t.front() == ' ') {
        t.remove_prefix(1);
    }
    t.remove_prefix(1); // '>'
    if (!t.empty() && t.front() == ' ') {
        t.remove_prefix(1);
    }
    return t;
}

bool isQuoteLine(std::string_view line)
{
    const std::string_view t = trim(line);
    return !t.empty() && t.front() == '>';
}

// The callouts of body lines lines[first…] (line numbers are indices + 1); false when a callout is malformed.
bool scanLessonBody(const std::vector<std::string_view>& lines, std::size_t first, const std::filesystem::path& file,
                    std::vector<Callout>& callouts, std::vector<Diagnostic>& diags)
{
    bool ok = true;
    std::string_view fence;
    for (std::size_t i = first; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        const int lineNo = static_cast<int>(i) + 1;
        if (isFence(line, fence) || !fence.empty()) {
            continue;
        }
        const std::size_t marker = calloutMarker(line);
        if (marker == std::string_view::npos) {
            continue;
        }
        const std::size_t close = line.find(']', marker);
        if (close == std::string_view::npos) {
            diags.push_back({file, lineNo, columnOf(line, marker), Severity::Error,
                             "the callout marker is not closed: write \"> [!KIND] title\" with a closing \"]\""});
            ok = false;
            continue;
        }
        const std::string_view kindText = line.substr(marker + 2, close - marker - 2);
        const std::optional<CalloutKind> kind = parseCalloutKind(kindText);
        if (!kind) {
            diags.push_back({file, lineNo, columnOf(line, marker + 2), Severity::Error,
                             "unknown callout kind \"" + std::string(kindText) +
                                 "\"; use one of PROBE, GOTCHA, RULE, VERSION, NOTE (in capitals)"});
            ok = false;
            continue;
        }
        Callout callout;
        callout.kind = *kind;
        callout.title = std::string(trim(line.substr(close + 1)));
        callout.line = lineNo;
        std::size_t j = i + 1;
        for (; j < lines.size() && isQuoteLine(lines[j]) && calloutMarker(lines[j]) == std::string_view::npos; ++j) {
            if (!callout.body.empty() || !trim(quoteContent(lines[j])).empty()) {
                if (!callout.body.empty()) {
                    callout.body.push_back('\n');
                }
                callout.body.append(quoteContent(lines[j]));
            }
        }
        while (!callout.body.empty() && (callout.body.back() == '\n' || callout.body.back() == ' ')) {
            callout.body.pop_back();
        }
        if (callout.title.empty() && callout.body.empty()) {
            diags.push_back({file, lineNo, 1, Severity::Error,
                             "this " + std::string(calloutKindName(*kind)) +
                                 " callout is empty: give it a title after the marker or \"> \" lines below it"});
            ok = false;
        }
        callouts.push_back(std::move(callout));
        i = j - 1;
    }
    if (!fence.empty()) {
        diags.push_back({file, static_cast<int>(lines.size()), 0, Severity::Warning,
                         "a fenced code block (" + std::string(fence) + ") is still open at the end of the page"});
    }
    return ok;
}


} // namespace

std::optional<Lesson> parseLessonText(std::string_view text, const std::filesystem::path& file,
                                      std::vector<Diagnostic>& diags)
{
    const std::vector<std::string_view> lines = splitLines(text);
    const std::optional<FrontMatter> fm = parseFrontMatter(lines, file, diags);
    if (!fm) {
        return std::nullopt;
    }
    Lesson lesson;
    lesson.title = *fm->title;
    lesson.minutes = fm->minutes;
    lesson.bodyFirstLine = static_cast<int>(fm->bodyStart) + 1;
    for (std::size_t i = fm->bodyStart; i < lines.size(); ++i) {
        lesson.markdown.append(lines[i]);
        if (i + 1 < lines.size()) {
            lesson.markdown.push_back('\n');
        }
    }

    if (!scanLessonBody(lines, fm->bodyStart, file, lesson.callouts, diags)) {
        return std::nullopt;
    }
    return lesson;
}

bool scanLessonBody(std::string_view body, int firstLine, std::vector<Callout>& callouts,
                    std::vector<Diagnostic>& diagnostics)
{
    // Blank lines in front put each body line at its page line, so positions match the page's.
    std::vector<std::string_view> lines(static_cast<std::size_t>(std::max(firstLine, 1) - 1));
    const std::vector<std::string_view> bodyLines = splitLines(body);
    lines.insert(lines.end(), bodyLines.begin(), bodyLines.end());
    return scanLessonBody(lines, static_cast<std::size_t>(std::max(firstLine, 1) - 1), {}, callouts, diagnostics);
}

std::optional<Lesson> loadLessonFile(const std::filesystem::path& file, std::vector<Diagnostic>& diags)
{
    std::string text;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec) || !readTextFile(file, text)) {
        diags.push_back(
            {file, 0, 0, Severity::Error, "cannot read this lesson page: it does not exist or is not readable"});
        return std::nullopt;
    }
    if (text.size() > kMaxMarkdownBytes) {
        diags.push_back({file, 0, 0, Severity::Error,
                         "this page is " + std::to_string(text.size() / 1024) + " KiB; a Markdown page may be at most " +
                             std::to_string(kMaxMarkdownBytes / 1024) + " KiB. Split it into several lessons"});
        return std::nullopt;
    }
    return parseLessonText(text, file, diags);
}

} // namespace tkm::course::detail
