#ifndef AVIATOR_CSQLITE_SHIM_H
#define AVIATOR_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
