#pragma once
// "Run this bug": a spot-the-bug listing that is a Triton kernel of an exercise runs, as it is, against that
// exercise (the item's `run.exercise`, else an exercise of the same module whose Triton entry the listing
// defines). The listing's single @triton.jit function takes the exercise's entry name, so listings written with
// the tutorial's names (`add_kernel`) bind to the exercise (`vector_add`); line numbers are unchanged.

#include <QString>

#include <optional>

namespace tkm::course {
struct Module;
struct SpotTheBug;
} // namespace tkm::course

namespace tkm::app {

/// A listing ready to run against an exercise.
struct RunnableBug
{
    QString exerciseFolder; ///< absolute path of the exercise folder
    QString exerciseTitle;  ///< its title, for the learner
    QString source;         ///< the listing, its jit function renamed to the exercise's Triton entry
};

/// The run of `item`'s listing, or nullopt when the listing is not a Triton kernel of an exercise of `module`.
std::optional<RunnableBug> runnableBug(const course::SpotTheBug& item, const course::Module* module);

} // namespace tkm::app
