package import Foundation

/// Which data the API serves right now: a counter bumped by every write that changes served data, and
/// the time of that write. The HTTP layer derives `ETag` and `Last-Modified` from it and keys its
/// response cache on it.
package struct RelayChangeStamp: Sendable, Hashable {
    /// Bumped by every write that changes served data.
    package var generation: Int
    /// When that write happened.
    package var changedAt: Date

    /// Makes a stamp.
    package init(generation: Int, changedAt: Date) {
        self.generation = generation
        self.changedAt = changedAt
    }
}
