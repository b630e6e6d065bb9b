#include "app/activities/runnablebug.h"

#include "app/common/qtconvert.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QStringList>

#include "engine/problem/spec.h"
#include "modules/course/model.h"

namespace tkm::app {

namespace {

// Names of the @triton.jit functions of a listing, in order.
QStringList jitFunctions(const QString& code)
{
    static const QRegularExpression def(QStringLiteral("@triton\\.jit[^\\n]*\\n(?:\\s*@[^\\n]*\\n)*\\s*def\\s+(\\w+)"));
    QStringList names;
    for (auto it = def.globalMatch(code); it.hasNext();)
        names << it.next().captured(1);
    return names;
}

QString canonicalPath(const std::filesystem::path& path)
{
    const QFileInfo info(qs(path));
    return info.canonicalFilePath().isEmpty() ? info.absoluteFilePath() : info.canonicalFilePath();
}

QString tritonEntry(const course::Exercise& ex)
{
    const auto& track = *ex.spec->triton;
    return qs(track.kernel.empty() ? ex.spec->kernel : track.kernel);
}

} // namespace

std::optional<RunnableBug> runnableBug(const course::SpotTheBug& item, const course::Module* module)
{
    const QString lang = qs(item.language).toLower();
    if (!module || (lang != QLatin1String("python") && lang != QLatin1String("triton")))
        return std::nullopt;
    const QString code = qs(item.code);
    const QStringList jit = jitFunctions(code);
    if (jit.isEmpty())
        return std::nullopt;
    QString named;
    if (item.run) {
        const auto& folder = item.run->exerciseFolder;
        named = canonicalPath(folder.is_absolute() ? folder : module->folder / folder);
    }
    for (const course::Activity& a : module->activities) {
        const auto* ex = a.as<course::Exercise>();
        if (!ex || !ex->spec || !ex->spec->triton)
            continue;
        const QString entry = tritonEntry(*ex);
        const bool isNamed = !named.isEmpty() && canonicalPath(ex->folder) == named;
        if (!isNamed && !jit.contains(entry))
            continue;
        RunnableBug bug;
        bug.exerciseFolder = canonicalPath(ex->folder);
        bug.exerciseTitle = qs(a.title);
        bug.source = code;
        if (!jit.contains(entry) && jit.size() == 1) // the tutorial's name for the exercise's kernel
            bug.source.replace(QRegularExpression(QStringLiteral("\\b%1\\b").arg(jit.first())), entry);
        return bug;
    }
    return std::nullopt;
}

} // namespace tkm::app
