import Foundation
import HTTPCore
import RelayCore

/// `GET /search/` (`relay-api.md` §2.11) with the deliberate differences 3 (bad paging is a 400), 5 (links
/// with the slash and the term encoded) and 6 (Unicode case-insensitive `q`).
extension RelayReadAPI {
    /// The default page size.
    static let defaultPerPage = 10
    /// The largest page size.
    static let maximumPerPage = 50
    /// The longest `q`, in Unicode scalars after case folding (a deliberate difference: the reference has
    /// no limit). A longer `q` is a 400.
    static let maximumQueryLength = RelaySearchText.maximumQueryLength

    /// `GET /search/?q=|tag=[&page=][&perPage=]`; a search over the store's budget is a 503 with a clear
    /// message.
    func search(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let q = parameters.value("q").flatMap { $0.isEmpty ? nil : $0 }
        let tag = parameters.value("tag").flatMap { $0.isEmpty ? nil : $0 }
        guard q != nil || tag != nil else {
            return RelayJSONEnvelope.error("Either 'q' (query) or 'tag' parameter is required", status: .badRequest)
        }
        if let q, RelaySearchText.isTooLong(q) {
            return RelayJSONEnvelope.error(
                "Search query too long: at most \(Self.maximumQueryLength) characters", status: .badRequest)
        }
        guard let page = Self.integer(parameters.value("page"), default: 1) else {
            return RelayJSONEnvelope.error("Invalid 'page' parameter. Must be a positive integer", status: .badRequest)
        }
        guard let requestedPerPage = Self.integer(parameters.value("perPage"), default: Self.defaultPerPage),
            requestedPerPage > 0
        else {
            return RelayJSONEnvelope.error(
                "Invalid 'perPage' parameter. Must be a positive integer", status: .badRequest)
        }
        guard page >= 1 else {
            return RelayJSONEnvelope.error("Page number must be 1 or greater", status: .badRequest)
        }
        let perPage = min(requestedPerPage, Self.maximumPerPage)
        let results: SearchResults
        do {
            let term: SearchTerm = if let q { .text(q) } else { .tag(tag ?? "") }
            results = try await readModel.search(term, page: page, perPage: perPage)
        } catch RelayReadError.searchOverBudget {
            return RelayJSONEnvelope.error(
                "Search stopped: it needed more than 1 second or 48 MB; use a longer or more specific query",
                status: .serviceUnavailable)
        }
        let total = results.total
        let pages = (total + perPage - 1) / perPage
        if page > pages, total > 0 {
            return RelayJSONEnvelope.error(
                "Page \(page) does not exist. Maximum page is \(pages)", status: .badRequest)
        }
        // An estimated total (more than `SearchResults.exactTotalBound` matches) cannot say where the pages
        // end; the rows read can.
        let hasNext = results.totalIsEstimated ? results.hasMore : page < pages
        // As the reference: no previous page when there are no results at all.
        let hasPrevious = page > 1 && total > 0
        let (name, term) = if let q { ("q", q) } else { ("tag", tag ?? "") }
        func href(_ page: Int) -> JSONValue {
            var text = "/search/?\(name)=\(RelayPercentEncoding.encode(term))"
            if perPage != Self.defaultPerPage { text += "&perPage=\(perPage)" }
            return RelayJSONEnvelope.link(text + "&page=\(page)")
        }
        var meta: [(String, JSONValue)] = [(q != nil ? "query" : "tag", .string(term)), ("total", .int(total))]
        // The one key the reference does not have, present only when the total is an estimate.
        if results.totalIsEstimated { meta.append(("totalIsEstimate", .bool(true))) }
        meta += [
            ("page", .int(page)), ("perPage", .int(perPage)), ("hasNext", .bool(hasNext)),
            ("hasPrevious", .bool(hasPrevious)),
        ]
        return RelayJSONEnvelope.success(
            RelayJSONEnvelope.strings(results.posts),
            meta: meta,
            links: [
                ("self", href(page)), ("next", hasNext ? href(page + 1) : .null),
                ("previous", hasPrevious ? href(page - 1) : .null),
            ])
    }

    /// Parses an integer parameter (surrounding spaces allowed, as Python's `int()`); `default` when absent.
    static func integer(_ text: String?, default value: Int) -> Int? {
        guard let text else { return value }
        return Int(text.trimmingCharacters(in: .whitespaces))
    }
}
