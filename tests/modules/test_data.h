#pragma once
// Where the test fixtures live (tests/support/data_dir.h).

#include "tests/support/data_dir.h"
