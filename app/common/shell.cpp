#include "app/common/shell.h"

namespace tkm::app {

Shell::Shell(QWidget* parent) : QMainWindow(parent) {}

Shell::~Shell() = default;

} // namespace tkm::app
