#pragma once
// The learner's state of each activity (new, in progress, done) and small per-activity values (quiz scores).
// Kept in memory and in QSettings; issue "Progress in SQLite" replaces the storage by subclassing this store.

#include <QHash>
#include <QObject>
#include <QString>
#include <QVariant>

namespace tkm::app {

/// Where the learner stands on one activity.
enum class ActivityState { New = 0, InProgress = 1, Done = 2 };

/// Activity states of one learner.
class ActivityStateStore : public QObject {
  Q_OBJECT
public:
  explicit ActivityStateStore(QObject *parent = nullptr);

  /// The state of an activity (New when never touched).
  virtual ActivityState state(const QString &moduleId, const QString &activityId) const;
  /// Sets the state exactly (reset uses New).
  virtual void setState(const QString &moduleId, const QString &activityId, ActivityState state);
  /// Moves the state forward only (New → InProgress → Done); a done activity stays done.
  void advance(const QString &moduleId, const QString &activityId, ActivityState state);
  /// A stored value of an activity (e.g. "score"), or `fallback`.
  virtual QVariant value(const QString &moduleId, const QString &activityId, const QString &key,
                         const QVariant &fallback = {}) const;
  /// Stores a value of an activity.
  virtual void setValue(const QString &moduleId, const QString &activityId, const QString &key,
                        const QVariant &value);
  /// Forgets the state and values of one activity.
  virtual void resetActivity(const QString &moduleId, const QString &activityId);

  /// Human-readable state ("new", "in progress", "done").
  static QString stateName(ActivityState state);

signals:
  /// An activity's state changed.
  void stateChanged(const QString &moduleId, const QString &activityId, tkm::app::ActivityState state);

private:
  static QString key(const QString &moduleId, const QString &activityId, const QString &leaf);
  mutable QHash<QString, QVariant> m_cache;
};

} // namespace tkm::app
