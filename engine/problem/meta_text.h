#pragma once
// Meta-parameter sets written as text, as `tkm-run run --config BLOCK_SIZE=256,NUM_WARPS=2` takes them.

#include "engine/common/error.h"
#include "engine/problem/instance.h"

#include <string>
#include <string_view>

namespace tkm::problem {

/// Parses "NAME=INTEGER[,NAME=INTEGER…]" (spaces around items allowed) into one configuration. Errors
/// (BadInput) quote the text and the bad item: an empty text, an item without "=", an empty name, a value that
/// is not an integer, or a name given twice. Names are not checked against a spec here (resolveMeta does).
engine::Expected<MetaValues> parseMetaAssignments(std::string_view text);

/// The configuration as "BLOCK_SIZE=256,NUM_WARPS=2" (name order), the form parseMetaAssignments() reads.
std::string formatMetaAssignments(const MetaValues& values);

} // namespace tkm::problem
