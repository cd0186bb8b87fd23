// SQLite's C API: for the benchmark's raw baseline and the tests that open files beside the
// engine, and for the process-wide settings the engine applies before its first connection
// (Debian: libsqlite3-dev).
#include <sqlite3.h>

// Turns off SQLite's memory statistics, which make every allocation and free take one
// process-wide mutex to count the bytes. Nothing in shop reads them (sqlite3_memory_used, a soft
// heap limit). SQLite takes the setting only before it starts: the result is SQLITE_OK, or
// SQLITE_MISUSE once a connection has been opened. (sqlite3_config is variadic, which Swift
// cannot call.)
static inline int shop_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
