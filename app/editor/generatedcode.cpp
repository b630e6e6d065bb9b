#include "app/editor/generatedcode.h"

#include "app/common/qtconvert.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

#include "engine/compile/compiler.h"
#include "engine/compile/sass.h"
#include "engine/problem/instance.h"
#include "engine/problem/spec.h"
#include "engine/runner/triton_binding.h"
#include "engine/triton/lower/lower.h"

namespace tkm::app {

namespace {

const QString kTritonFile = QStringLiteral("kernel.py");

EditorDiagnostic toEditor(const triton::Diagnostic& d)
{
    EditorDiagnostic e;
    e.line = d.range.begin.line;
    e.column = d.range.begin.column;
    e.severity = d.severity == triton::Severity::Error     ? QStringLiteral("error")
                 : d.severity == triton::Severity::Warning ? QStringLiteral("warning")
                                                           : QStringLiteral("note");
    e.message = qs(d.message);
    auto range = [](const triton::SourceRange& r) {
        return EditorRange{r.begin.line, r.begin.column, r.end.line, r.end.column};
    };
    if (d.range.begin.line > 0)
        e.ranges.append(range(d.range));
    for (const triton::SourceRange& r : d.underline)
        if (r.begin.line > 0)
            e.ranges.append(range(r));
    for (const triton::DiagNote& n : d.notes)
        e.notes << (n.range.begin.line > 0 ? QStringLiteral("line %1: %2").arg(n.range.begin.line).arg(qs(n.message))
                                           : qs(n.message));
    return e;
}

// The kernel part of a lowered translation unit, without the tile runtime and the #line directives, with the
// Triton line of each remaining line.
MappedListing kernelListing(const triton::lower::Lowered& lowered)
{
    const QStringList lines = qs(lowered.source).split(QLatin1Char('\n'));
    QList<int> tritonOf(lines.size(), 0);
    for (const triton::lower::LineMap& m : lowered.lines)
        for (int l = m.firstCudaLine; l <= m.lastCudaLine && l <= lines.size(); ++l)
            if (l >= 1)
                tritonOf[l - 1] = m.tritonLine;
    int start = 0;
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].startsWith(QStringLiteral("#line 1 \"")) && lines[i].contains(QStringLiteral(".py.cu\"")))
            start = i + 1;
    MappedListing out;
    QStringList shown;
    for (int i = start; i < lines.size(); ++i) {
        if (lines[i].startsWith(QStringLiteral("#line ")))
            continue;
        shown << lines[i];
        out.tritonLineOf.append(tritonOf[i]);
    }
    while (!shown.isEmpty() && shown.last().isEmpty()) {
        shown.removeLast();
        out.tritonLineOf.removeLast();
    }
    out.text = shown.join(QLatin1Char('\n'));
    return out;
}

// The NVRTC request for the lowered translation unit: PTX for compute_<cc>, or a CUBIN for sm_<cc>.
compile::CompileRequest requestFor(const TritonLowering& lowering, int cc, bool ptx)
{
    compile::CompileRequest req;
    req.source = lowering.fullSource.toStdString();
    req.sourceName = kTritonFile.toStdString() + ".cu";
    req.kernel = lowering.kernelName.toStdString();
    req.computeCapability = cc;
    req.ptx = ptx;
    req.useCache = !ptx;
    return req;
}

} // namespace

QList<int> MappedListing::linesFrom(int line) const
{
    QList<int> result;
    for (int i = 0; i < tritonLineOf.size(); ++i)
        if (tritonLineOf[i] == line && line > 0)
            result.append(i + 1);
    return result;
}

int MappedListing::tritonLine(int line) const
{
    return line >= 1 && line <= tritonLineOf.size() ? tritonLineOf[line - 1] : 0;
}

TritonLowering lowerTriton(const problem::ExerciseSpec& spec, const QString& source,
                           const QList<QPair<QString, qint64>>& meta)
{
    TritonLowering out;
    auto fail = [&out](const QString& message) {
        out.cuda.message = message;
        return out;
    };
    if (!spec.triton || spec.cases.empty())
        return fail(QObject::tr("This exercise has no Triton track."));
    problem::MetaValues overrides;
    for (const auto& [name, value] : meta)
        overrides[name.toStdString()] = value;
    auto values = problem::resolveMeta(spec, overrides);
    if (!values)
        return fail(qs(values.error().message));
    // The performance case's sizes give the constexprs (BLOCK_SIZE = pow2ceil(N)) a learner is judged at.
    const problem::Case& sized = spec.performance ? *spec.performance : spec.cases.front();
    auto inst = problem::instantiate(spec, sized, *values, spec.performance ? -1 : 0);
    if (!inst)
        return fail(qs(inst.error().message));
    out.caseName = qs(sized.name);
    auto parsed = runner::parseTritonSource(kTritonFile.toStdString(), source.toStdString());
    std::vector<triton::Diagnostic> diags = parsed->parsed.diagnostics;
    auto report = [&](const QString& why) {
        for (const triton::Diagnostic& d : diags)
            out.diagnostics.append(toEditor(d));
        return fail(why);
    };
    if (triton::hasErrors(diags))
        return report(QObject::tr("The kernel does not parse yet: fix the marked lines to see its CUDA."));
    auto binding = runner::bindTriton(*parsed, runner::learnerTarget(*spec.triton), spec, *inst, diags);
    if (!binding)
        return report(qs(binding.error().message));
    if (!binding->has_value())
        return report(QObject::tr("The kernel does not fit the exercise yet: fix the marked lines to see its CUDA."));
    triton::CheckResult checked = triton::check((*binding)->input);
    diags.insert(diags.end(), checked.diagnostics.begin(), checked.diagnostics.end());
    if (!checked.function)
        return report(QObject::tr("The kernel does not check yet: fix the marked lines to see its CUDA."));
    for (const triton::Diagnostic& d : diags)
        out.diagnostics.append(toEditor(d));
    triton::lower::LowerOptions options;
    options.fileName = kTritonFile.toStdString();
    const triton::lower::Lowered lowered = triton::lower::lower(*checked.function, options);
    out.cuda = kernelListing(lowered);
    out.fullSource = qs(lowered.source);
    out.kernelName = qs(checked.function->name);
    out.ok = lowered.diagnostics.empty();
    for (const triton::Diagnostic& d : lowered.diagnostics)
        out.diagnostics.append(toEditor(d));
    return out;
}

MappedListing mapPtx(const QString& ptx, const QString& fileName)
{
    static const QRegularExpression fileDirective(QStringLiteral("^\\s*\\.file\\s+(\\d+)\\s+\"([^\"]*)\""));
    static const QRegularExpression locDirective(QStringLiteral("^\\s*\\.loc\\s+(\\d+)\\s+(\\d+)"));
    MappedListing out;
    const QStringList lines = ptx.split(QLatin1Char('\n'));
    QList<int> ours;
    for (const QString& line : lines) {
        const auto m = fileDirective.match(line);
        if (m.hasMatch() && QFileInfo(m.captured(2)).fileName() == fileName)
            ours.append(m.captured(1).toInt());
    }
    int current = 0;
    for (const QString& line : lines) {
        if (const auto m = locDirective.match(line); m.hasMatch())
            current = ours.contains(m.captured(1).toInt()) ? m.captured(2).toInt() : 0;
        else if (line.trimmed() == QLatin1String("}") || line.trimmed().startsWith(QLatin1String(".func")))
            current = 0;
        out.tritonLineOf.append(line.trimmed().isEmpty() ? 0 : current);
    }
    out.text = ptx;
    return out;
}

MappedListing ptxOf(const TritonLowering& lowering, int cc)
{
    MappedListing out;
    if (!lowering.ok) {
        out.message = QObject::tr("No PTX: the kernel has not lowered yet.");
        return out;
    }
    const auto compiled = compile::compileKernel(requestFor(lowering, cc, true));
    if (!compiled) {
        out.message = QObject::tr("NVRTC could not be used: %1").arg(qs(compiled.error().message));
        return out;
    }
    if (!compiled->ok) {
        out.message =
            QObject::tr("NVRTC refused the generated CUDA (a bug of our lowering): %1").arg(qs(compiled->firstError()));
        return out;
    }
    return mapPtx(qs(compiled->ptx));
}

MappedListing sassOf(const TritonLowering& lowering, int cc)
{
    MappedListing out;
    if (compile::findNvdisasm().empty()) {
        out.message = qs(compile::disassemble({}, kTritonFile.toStdString()).error().message);
        return out;
    }
    if (!lowering.ok) {
        out.message = QObject::tr("No SASS: the kernel has not lowered yet.");
        return out;
    }
    const auto compiled = compile::compileKernel(requestFor(lowering, cc, false));
    if (!compiled || !compiled->ok) {
        out.message = QObject::tr("The generated CUDA did not compile to a CUBIN.");
        return out;
    }
    const auto sass = compile::disassemble(compiled->cubin, kTritonFile.toStdString());
    if (!sass) {
        out.message = qs(sass.error().message);
        return out;
    }
    out.text = qs(sass->text);
    for (const int line : sass->sourceLineOf)
        out.tritonLineOf.append(line);
    // A trailing newline gives no row in the editor.
    while (out.text.endsWith(QLatin1Char('\n'))) {
        out.text.chop(1);
        if (out.tritonLineOf.size() > out.text.count(QLatin1Char('\n')) + 1)
            out.tritonLineOf.removeLast();
    }
    return out;
}

} // namespace tkm::app
