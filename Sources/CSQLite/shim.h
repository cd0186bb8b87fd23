// SQLite's C API, for the benchmark's raw baseline (Debian: libsqlite3-dev).
#include <sqlite3.h>
