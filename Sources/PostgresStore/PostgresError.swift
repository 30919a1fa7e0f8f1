import Foundation

/// The one error type of the PostgresStore module.
///
/// Server errors carry PostgreSQL's SQLSTATE (<https://www.postgresql.org/docs/15/errcodes-appendix.html>),
/// its message, detail and hint, and the SQL that failed. `errorDescription` says what failed and what to do.
package enum PostgresError: Error, Sendable, Equatable, LocalizedError {
    /// The connection URL is malformed (the URL is shown without its password).
    case invalidURL(String, reason: String)
    /// libpq could not connect: the server is not running, refused the login, or the database is missing.
    case connectionFailed(url: String, endpoint: String, message: String)
    /// The server answered a statement with an error.
    case server(ServerError)
    /// The connection broke while a statement ran, or was used after ``Connection/close()``.
    case connectionLost(message: String, sql: String?)
    /// A row has no column with this name.
    case columnNotFound(name: String, sql: String)
    /// A column holds a value that cannot be read as the requested Swift type (`found` names the value's
    /// kind: integer, double, bool, text, bytes or NULL, and the column's PostgreSQL type OID).
    case typeMismatch(column: String, expected: String, found: String, sql: String)
    /// A transaction's body caught a failed statement and went on; PostgreSQL refuses every later statement
    /// of an aborted transaction, so the transaction was rolled back instead of committed.
    case transactionAborted(sql: String?)
    /// The migrations recorded in the database are not a prefix of the registered ones: the database was
    /// written by a different (usually newer) build.
    case migrationHistoryMismatch(applied: [String], registered: [String])
    /// The pool was closed while a task waited for a connection, or used after ``PostgresPool/close()``.
    case poolClosed
    /// The calling task was cancelled inside ``Connection/cancellingOnTaskCancellation(_:)``: the statement
    /// was cancelled on the server, or not sent.
    case cancelled(sql: String?)
    /// The store was used in a way the code should never do (a bug in the caller): wrong number of
    /// arguments, a column index out of range.
    case misuse(message: String, sql: String?)

    /// The error fields the server sent.
    package struct ServerError: Sendable, Hashable {
        /// The five-character SQLSTATE, e.g. `23505` (see ``SQLState``).
        package var sqlState: String
        /// The primary message.
        package var message: String
        /// The optional detail (e.g. which key was duplicated).
        package var detail: String?
        /// The optional hint.
        package var hint: String?
        /// The constraint that was violated, for integrity errors.
        package var constraint: String?
        /// The SQL that failed.
        package var sql: String?
    }

    /// The SQLSTATE, when the server sent one.
    package var sqlState: String? {
        if case .server(let error) = self { error.sqlState } else { nil }
    }

    /// Whether this is an integrity constraint violation (SQLSTATE class 23: unique, foreign key, not null,
    /// check, exclusion).
    package var isConstraintViolation: Bool { sqlState?.hasPrefix("23") == true }

    /// A sentence saying what failed and what to do next.
    package var errorDescription: String? {
        switch self {
        case .invalidURL(let url, let reason):
            return "Invalid PostgreSQL URL '\(url)': \(reason). "
                + "Use postgres://user[:password]@host[:port]/database, e.g. postgres://relay@127.0.0.1:5432/relay."
        case .connectionFailed(let url, let endpoint, let message):
            return "Cannot connect to PostgreSQL at \(url): \(message). \(Self.connectAdvice(message, endpoint))"
        case .server(let error):
            var text = "PostgreSQL error \(error.sqlState)"
            if let sql = error.sql { text += " while running `\(sql)`" }
            text += ": \(error.message)"
            if let detail = error.detail { text += " (\(detail))" }
            if let hint = error.hint { text += " Hint: \(hint)" }
            return text + " " + Self.advice(forSQLState: error.sqlState)
        case .connectionLost(let message, let sql):
            let context = sql.map { " while running `\($0)`" } ?? ""
            return "The PostgreSQL connection was lost\(context): \(message). Check that the server is still "
                + "running; the pool replaces broken connections, so retrying the operation may succeed."
        case .columnNotFound(let name, let sql):
            return "The result of `\(sql)` has no column named '\(name)'. Check the column name or the SELECT list."
        case .typeMismatch(let column, let expected, let found, let sql):
            return "Column '\(column)' of `\(sql)` holds \(found), which cannot be read as \(expected). "
                + "Read it as an optional, or cast it in the SQL (e.g. `::int8`, `::text`)."
        case .transactionAborted(let sql):
            let context = sql.map { " after `\($0)` failed" } ?? ""
            return "The transaction was aborted\(context) and has been rolled back. Let the error propagate out "
                + "of the transaction, or wrap the statement that may fail in a nested transaction (a savepoint)."
        case .migrationHistoryMismatch(let applied, let registered):
            return "The database records migrations [\(applied.joined(separator: ", "))], which do not match the "
                + "migrations this build knows [\(registered.joined(separator: ", "))]. It was probably written "
                + "by a newer version; use that version or a fresh database."
        case .poolClosed:
            return "The PostgreSQL connection pool is closed; make a new pool."
        case .cancelled(let sql):
            let context = sql.map { " `\($0)`" } ?? ""
            return "The statement\(context) was cancelled because its task was cancelled (the caller no longer "
                + "wants the answer); nothing needs to be done, and the connection is still usable."
        case .misuse(let message, let sql):
            let context = sql.map { " (SQL: `\($0)`)" } ?? ""
            return "[PostgresStore bug] \(message)\(context). This is a programming error in the caller."
        }
    }

    /// What to do when connecting failed with libpq's `message`.
    private static func connectAdvice(_ message: String, _ endpoint: String) -> String {
        let lowered = message.lowercased()
        if lowered.contains("connection refused") || lowered.contains("no such file or directory") {
            return "Is PostgreSQL running at \(endpoint)? Start it (e.g. `systemctl start postgresql`) or fix the "
                + "host and port in the URL."
        }
        if lowered.contains("password authentication failed") || lowered.contains("no password supplied") {
            return "Check the user name and password in the URL (or ~/.pgpass)."
        }
        if lowered.contains("no pg_hba.conf entry") {
            return "The server does not allow this user, database or address; add a line to its pg_hba.conf."
        }
        if lowered.contains("database") && lowered.contains("does not exist") {
            return "Create the database (`createdb NAME`) or fix its name in the URL."
        }
        if lowered.contains("role") && lowered.contains("does not exist") {
            return "Create the role (`createuser NAME`) or fix the user name in the URL."
        }
        if lowered.contains("timeout") || lowered.contains("could not translate host name") {
            return "Check the host name in the URL and that the server is reachable from here."
        }
        return "Check the URL and that the server at \(endpoint) accepts connections."
    }

    /// What to do about a server error of this SQLSTATE (by class, the first two characters).
    private static func advice(forSQLState state: String) -> String {
        switch state.prefix(2) {
        case "23":
            "The data breaks a rule of the schema (duplicate key, missing referenced row, NULL or CHECK); "
                + "change the data or look the row up first."
        case "42":
            "Check the SQL (syntax, table and column names, types), and run the migrations if the schema may "
                + "be older than the code."
        case "22":
            "A value is out of range or malformed for its column type; check the arguments."
        case "40":
            "The transaction conflicted with another one (serialization failure or deadlock); run it again."
        case "53":
            "The server is out of a resource (disk, memory, connections); free some or raise its limits."
        case "57":
            "The server cancelled the statement or is shutting down; try again once it is back."
        case "08":
            "The connection failed; check that the server is running and reachable."
        default:
            "See https://www.postgresql.org/docs/15/errcodes-appendix.html for this SQLSTATE."
        }
    }
}

/// SQLSTATE codes the project tests for (<https://www.postgresql.org/docs/15/errcodes-appendix.html>).
package enum SQLState {
    /// `23505`: a UNIQUE or PRIMARY KEY constraint was violated.
    package static let uniqueViolation = "23505"
    /// `23503`: a FOREIGN KEY constraint was violated.
    package static let foreignKeyViolation = "23503"
    /// `23502`: a NOT NULL constraint was violated.
    package static let notNullViolation = "23502"
    /// `23514`: a CHECK constraint was violated.
    package static let checkViolation = "23514"
    /// `42601`: a syntax error.
    package static let syntaxError = "42601"
    /// `42P01`: the table does not exist.
    package static let undefinedTable = "42P01"
    /// `25P02`: the transaction is aborted; statements are refused until its end.
    package static let inFailedTransaction = "25P02"
    /// `40001`: a serialization failure.
    package static let serializationFailure = "40001"
    /// `57014`: the statement was cancelled.
    package static let queryCanceled = "57014"
}
