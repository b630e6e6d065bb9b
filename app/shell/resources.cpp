// Registers the icons of resources/tkm.qrc: a static library's resources need an explicit initialisation.
#include <QtGlobal>

void tkmInitResources() { Q_INIT_RESOURCE(tkm); }
