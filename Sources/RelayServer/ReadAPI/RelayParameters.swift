import Foundation
import HTTPCore

/// The query items of a request, read as Django's `QueryDict.get` does (the last value of a repeated name).
struct RelayParameters {
    /// The items in request order.
    let items: [HTTPQueryItem]

    /// Wraps the items.
    init(_ items: [HTTPQueryItem]) { self.items = items }

    /// The last value of `name`, or `nil`.
    func value(_ name: String) -> String? {
        items.last { $0.name == name }?.value
    }

    /// The last value of `name` stripped of surrounding whitespace (Python `strip()`), or `nil`.
    func stripped(_ name: String) -> String? {
        value(name)?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
