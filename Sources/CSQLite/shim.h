// Bridge header for SQLite (https://sqlite.org/c3ref/intro.html).
//
// sqlite3_db_config is variadic and SQLITE_TRANSIENT and SQLITE_STATIC are cast macros; Swift imports neither. The static
// inline wrappers below give them a fixed arity. Only the SQLiteStore module imports this module.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// sqlite3_db_config for the options that take an int and report the new setting through an int pointer
/// (SQLITE_DBCONFIG_ENABLE_FKEY, SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DEFENSIVE, ...).
/// https://sqlite.org/c3ref/db_config.html
static inline int csqlite_db_config_int(sqlite3 *db, int option, int value, int *result) {
    return sqlite3_db_config(db, option, value, result);
}

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the bytes before returning.
static inline int csqlite_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int byteCount) {
    return sqlite3_bind_text(statement, index, text, byteCount, SQLITE_TRANSIENT);
}

/// sqlite3_bind_text with SQLITE_STATIC: SQLite reads the bytes where they are, without a copy, so they
/// must stay alive and unchanged until the statement is reset and the parameter bound to something else.
static inline int csqlite_bind_text_static(sqlite3_stmt *statement, int index, const char *text, int byteCount) {
    return sqlite3_bind_text(statement, index, text, byteCount, SQLITE_STATIC);
}

/// sqlite3_bind_blob with SQLITE_TRANSIENT: SQLite copies the bytes before returning.
static inline int csqlite_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int byteCount) {
    return sqlite3_bind_blob(statement, index, bytes, byteCount, SQLITE_TRANSIENT);
}

#endif
