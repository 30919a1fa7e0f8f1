import RelayCore
import RelaySQLStore

/// The SQLite store is one of the relay's storage engines.
extension RelayDatabase: RelayStorage {}
