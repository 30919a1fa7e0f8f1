// Bridge header for libpq, PostgreSQL's C client library
// (https://www.postgresql.org/docs/15/libpq.html). Only the PostgresStore module imports this module.
//
// The PG_DIAG_* field codes are character-literal macros, which Swift does not import; the constants
// below give them names Swift can see.
#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H

#include <libpq-fe.h>
#include <postgres_ext.h>

/// PQresultErrorField code of the five-character SQLSTATE.
static const int clibpq_diag_sqlstate = PG_DIAG_SQLSTATE;
/// PQresultErrorField code of the primary message.
static const int clibpq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
/// PQresultErrorField code of the optional detail.
static const int clibpq_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;
/// PQresultErrorField code of the optional hint.
static const int clibpq_diag_message_hint = PG_DIAG_MESSAGE_HINT;
/// PQresultErrorField code of the constraint name, for integrity violations.
static const int clibpq_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;

#endif
