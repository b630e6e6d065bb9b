#pragma once
// How each kind of exercise.json field is shown as text in the exercise editor's form and read back: expressions
// ("cdiv(n, BLOCK_SIZE)" or a number), expression lists ("M, N"), sizes ("n = 1000, M = 64"), integer lists, names,
// one-line JSON for nested objects the form does not break down (case layouts, baselines' launches), and so on.

#include "app/instructor/exercise/exercisedocument.h"

#include <QString>
#include <QStringList>

namespace tkm::app {

/// Kind of a form field.
enum class FieldKind {
  Text,     ///< a string
  Expr,     ///< an expression: a JSON string, or a number when the text is one
  ExprList, ///< array of expressions, written "a, b" (top-level commas)
  Integer,  ///< an integer
  Number,   ///< a number
  IntList,  ///< array of integers, written "128, 256"
  Sizes,    ///< object of positive integers, written "n = 1000, M = 64"
  Choice,   ///< one string of a fixed list (a combo box)
  Json,     ///< any JSON value, written on one line
  Lines,    ///< array of strings, one per line
  Names,    ///< array of strings, written "a, b"
};

/// The text a field of `kind` shows for `value` (null: empty text).
QString fieldText(FieldKind kind, const SpecJson &value);

/// Reads a field's text back. Empty text gives a discarded value when `optional` (the key is removed), else the
/// kind's empty value. On malformed text returns false with `error` saying what is expected.
bool fieldValue(FieldKind kind, const QString &text, bool optional, SpecJson *value, QString *error);

/// The default generator of a distribution (docs/exercise-spec.md, "generator").
SpecJson defaultGenerator(const QString &dist);

/// The fields a generator of `dist` has besides "dist", in the spec's order ("mean", "std" for normal).
QStringList generatorFields(const QString &dist);

} // namespace tkm::app
