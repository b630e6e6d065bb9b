#pragma once
// The order in which a quiz shows its choices and a drag-match its items: a seeded shuffle per attempt, recorded as
// text ("2,0,3,1") in the activity's stored values so that a revisit or a review shows what the learner saw.

#include <QList>
#include <QString>

namespace tkm::app {

/// The seed of an attempt: the one written in `storedText` (decimal, as stored with the attempt), or a fresh one
/// from the system's random source when the text holds none (a new attempt).
quint64 attemptSeed(const QString& storedText);

/// A uniform permutation of 0..count-1 drawn from `seed` and `salt` (e.g. a question id): the same seed and salt
/// always give the same order, on every platform (splitmix64 + Fisher–Yates, no std:: distribution).
QList<int> shuffledOrder(int count, quint64 seed, const QString& salt);

/// "2,0,3,1" for {2, 0, 3, 1}.
QString orderToText(const QList<int>& order);

/// Parses orderToText()'s text; empty unless it is a permutation of 0..count-1 (an order recorded for content that
/// has since changed is dropped).
QList<int> orderFromText(const QString& text, int count);

} // namespace tkm::app
