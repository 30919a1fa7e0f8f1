import Foundation

/// A group this relay enables: its display name (from `--groups`) and slug (`relay-api.md` §2.12).
struct ConfiguredGroup: Sendable, Hashable {
    /// The display name, as configured.
    var name: String
    /// The slug: lower-cased, spaces turned into `-`.
    var slug: String

    /// Makes a group from its display name.
    init(name: String) {
        self.name = name
        self.slug = Self.slug(of: name)
    }

    /// The slug of a group name as the reference relay computes it: lower-cased, each space turned into `-`.
    static func slug(of name: String) -> String {
        name.lowercased().replacingOccurrences(of: " ", with: "-")
    }
}
