import SQLiteStore

/// The bridge state file's schema as named, append-only migrations, recorded by SQLiteStore's
/// ``SQLiteStore/Migrator`` as the relay's are. Never edit a migration that has shipped: append one.
enum BridgeSchema {
    /// Every migration, in order.
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("bridge 1: accounts, mappings, cursors, runs") { db in
            for statement in version1 { try db.execute(sql: statement) }
        }
        migrator.registerMigration("bridge 2: push actions") { db in
            for statement in version2 { try db.execute(sql: statement) }
        }
        migrator.registerMigration("bridge 3: pull (remote account IDs, notification cursors)") { db in
            for statement in version3 { try db.execute(sql: statement) }
        }
        return migrator
    }

    /// What a push did that is not a status of its own: a favourite (a reaction), a reblog (a boost), a pin.
    private static let version2 = [
        """
        CREATE TABLE push_actions (
            feed TEXT NOT NULL,
            account TEXT NOT NULL REFERENCES accounts (name) ON DELETE CASCADE,
            post_id TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('favourite', 'reblog', 'pin')),
            status_id TEXT NOT NULL,
            PRIMARY KEY (feed, account, post_id, action)
        ) WITHOUT ROWID
        """
    ]

    /// Accounts; each post's mapping and its statuses in order; a cursor per direction; runs.
    private static let version1 = [
        """
        CREATE TABLE accounts (
            name TEXT PRIMARY KEY,
            instance TEXT NOT NULL,
            server_profile TEXT NOT NULL,
            added_at REAL NOT NULL
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE mappings (
            feed TEXT NOT NULL,
            account TEXT NOT NULL REFERENCES accounts (name) ON DELETE CASCADE,
            post_id TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('feed', 'account')),
            media_ids TEXT NOT NULL,
            poll_id TEXT,
            PRIMARY KEY (feed, account, post_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE mapping_parts (
            feed TEXT NOT NULL,
            account TEXT NOT NULL,
            post_id TEXT NOT NULL,
            part INTEGER NOT NULL,
            status_id TEXT NOT NULL,
            status_url TEXT,
            PRIMARY KEY (feed, account, post_id, part),
            UNIQUE (account, status_id),
            FOREIGN KEY (feed, account, post_id) REFERENCES mappings (feed, account, post_id) ON DELETE CASCADE
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE cursors (
            feed TEXT NOT NULL,
            account TEXT NOT NULL REFERENCES accounts (name) ON DELETE CASCADE,
            direction TEXT NOT NULL CHECK (direction IN ('push', 'pull')),
            value TEXT NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (feed, account, direction)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            feed TEXT NOT NULL,
            account TEXT NOT NULL REFERENCES accounts (name) ON DELETE CASCADE,
            started_at REAL NOT NULL,
            finished_at REAL NOT NULL,
            pushed INTEGER NOT NULL,
            edited INTEGER NOT NULL,
            deleted INTEGER NOT NULL,
            pulled INTEGER NOT NULL,
            error TEXT
        )
        """,
        "CREATE INDEX runs_by_account ON runs (account, id)",
    ]

    /// What pull and notifications keep: each account's ID on its instance (so a pull with nothing new is one
    /// request), and the newest notification already shown.
    private static let version3 = [
        """
        CREATE TABLE remote_accounts (
            account TEXT PRIMARY KEY REFERENCES accounts (name) ON DELETE CASCADE,
            remote_id TEXT NOT NULL,
            acct TEXT NOT NULL
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE notification_cursors (
            account TEXT PRIMARY KEY REFERENCES accounts (name) ON DELETE CASCADE,
            value TEXT NOT NULL,
            updated_at REAL NOT NULL
        ) WITHOUT ROWID
        """,
    ]
}
