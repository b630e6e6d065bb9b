#include "app/activities/choiceorder.h"

#include <QRandomGenerator>
#include <QStringList>

namespace tkm::app {

namespace {

/// splitmix64 (Steele, Lea, Flood 2014): a small generator whose output is fixed by its seed alone.
quint64 splitmix64(quint64& state)
{
    quint64 z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// FNV-1a over the UTF-16 code units, so that each question of one attempt gets its own order.
quint64 hashSalt(const QString& salt)
{
    quint64 h = 0xCBF29CE484222325ULL;
    for (QChar c : salt) {
        h ^= c.unicode();
        h *= 0x100000001B3ULL;
    }
    return h;
}

} // namespace

quint64 attemptSeed(const QString& storedText)
{
    bool ok = false;
    const quint64 seed = storedText.toULongLong(&ok);
    return ok ? seed : QRandomGenerator::global()->generate64();
}

QList<int> shuffledOrder(int count, quint64 seed, const QString& salt)
{
    QList<int> order;
    for (int i = 0; i < count; ++i)
        order.append(i);
    quint64 state = seed ^ hashSalt(salt);
    for (int i = count - 1; i > 0; --i) {
        // The modulo bias is below 2^-58 for the few choices a question has.
        const int j = static_cast<int>(splitmix64(state) % static_cast<quint64>(i + 1));
        order.swapItemsAt(i, j);
    }
    return order;
}

QString orderToText(const QList<int>& order)
{
    QStringList parts;
    for (int i : order)
        parts.append(QString::number(i));
    return parts.join(QLatin1Char(','));
}

QList<int> orderFromText(const QString& text, int count)
{
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (parts.size() != count)
        return {};
    QList<int> order;
    QList<bool> seen(count, false);
    for (const QString& p : parts) {
        bool ok = false;
        const int i = p.trimmed().toInt(&ok);
        if (!ok || i < 0 || i >= count || seen[i])
            return {};
        seen[i] = true;
        order.append(i);
    }
    return order;
}

} // namespace tkm::app
