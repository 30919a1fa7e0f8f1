import Foundation

/// The read model's own failure (other failures are the storage's errors).
package enum RelayReadError: Error, Equatable, LocalizedError {
    /// A search needed more than its budget of time or memory.
    case searchOverBudget

    /// What failed and what to do.
    package var errorDescription: String? {
        switch self {
        case .searchOverBudget: "The search needed more than its time or memory budget; use a more specific query."
        }
    }
}
