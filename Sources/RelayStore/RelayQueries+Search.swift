import Foundation
import HTTPServer
import RelayCore
import SQLiteStore

/// `GET /search/` (`relay-api.md` §2.11) with the deliberate differences 3 (bad paging is a 400), 5 (links
/// with the slash and the term encoded) and 6 (Unicode case-insensitive `q`).
extension RelayQueries {
    /// The default page size.
    static let defaultPerPage = 10
    /// The largest page size.
    static let maximumPerPage = 50

    /// `GET /search/?q=|tag=[&page=][&perPage=]`.
    func search(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let q = parameters.value("q").flatMap { $0.isEmpty ? nil : $0 }
        let tag = parameters.value("tag").flatMap { $0.isEmpty ? nil : $0 }
        guard q != nil || tag != nil else {
            return RelayEnvelope.error("Either 'q' (query) or 'tag' parameter is required", status: .badRequest)
        }
        guard let page = Self.integer(parameters.value("page"), default: 1) else {
            return RelayEnvelope.error("Invalid 'page' parameter. Must be a positive integer", status: .badRequest)
        }
        guard let requestedPerPage = Self.integer(parameters.value("perPage"), default: Self.defaultPerPage),
            requestedPerPage > 0
        else {
            return RelayEnvelope.error("Invalid 'perPage' parameter. Must be a positive integer", status: .badRequest)
        }
        guard page >= 1 else {
            return RelayEnvelope.error("Page number must be 1 or greater", status: .badRequest)
        }
        let perPage = min(requestedPerPage, Self.maximumPerPage)
        let matches: SearchMatches = if let q { try textMatches(q) } else { try tagMatches(tag ?? "") }
        let total = try matches.count(db)
        let pages = (total + perPage - 1) / perPage
        if page > pages, total > 0 {
            return RelayEnvelope.error("Page \(page) does not exist. Maximum page is \(pages)", status: .badRequest)
        }
        // Past the last page there is nothing to read (and no offset to compute: `page` may be huge).
        let list = page > pages ? [] : try matches.page(db, limit: perPage, offset: (page - 1) * perPage)
        let hasNext = page < pages
        let hasPrevious = page > 1
        let (name, term) = if let q { ("q", q) } else { ("tag", tag ?? "") }
        func href(_ page: Int) -> JSONValue {
            var text = "/search/?\(name)=\(RelayPercentEncoding.encode(term))"
            if perPage != Self.defaultPerPage { text += "&perPage=\(perPage)" }
            return RelayEnvelope.link(text + "&page=\(page)")
        }
        return RelayEnvelope.success(
            RelayEnvelope.strings(list),
            meta: [
                (q != nil ? "query" : "tag", .string(term)), ("total", .int(total)), ("page", .int(page)),
                ("perPage", .int(perPage)), ("hasNext", .bool(hasNext)), ("hasPrevious", .bool(hasPrevious)),
            ],
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

    /// Posts whose case-folded content or tags contain `q`: the trigram index for 3 characters or more, a scan
    /// of the folded column below that.
    func textMatches(_ q: String) throws -> SearchMatches {
        let folded = RelaySearchText.fold(q)
        if folded.unicodeScalars.count >= 3 {
            let phrase = "\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return SearchMatches(
                condition: "p.id IN (SELECT rowid FROM post_search WHERE post_search MATCH ?)", arguments: [phrase],
                countSQL: "SELECT count(*) FROM post_search WHERE post_search MATCH ?")
        }
        return SearchMatches(condition: "instr(p.search_text, ?) > 0", arguments: [folded])
    }

    /// Posts whose `TAGS` has `tag` as a whole word, case-insensitively (`(^|\s)TAG(\s|$)`).
    func tagMatches(_ tag: String) throws -> SearchMatches {
        let words = tag.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }
        guard let first = words.first else {
            return SearchMatches(condition: "0", arguments: [])
        }
        guard words.count > 1 else {
            return SearchMatches(condition: "p.id IN (SELECT post_id FROM post_tags WHERE tag = ?)", arguments: [first])
        }
        // A tag with spaces matches consecutive words: find candidates by the first word, then check the rest.
        let candidates = try db.query(
            sql: """
                SELECT p.id, p.tags FROM posts p WHERE p.id IN (SELECT post_id FROM post_tags WHERE tag = ?)
                """,
            arguments: [first])
        let wanted = " " + words.joined(separator: " ") + " "
        var ids: [Int] = []
        for row in candidates {
            let tags: String = try row.value(at: 1)
            let normalized =
                " "
                + tags.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }.joined(
                    separator: " ") + " "
            if normalized.contains(wanted) { ids.append(try row.value(at: 0)) }
        }
        return SearchMatches(condition: "p.id IN (\(ids.map(String.init).joined(separator: ",")))", arguments: [])
    }
}

/// A search condition on `posts p` with its arguments.
struct SearchMatches {
    /// The SQL condition.
    var condition: String
    /// Its arguments.
    var arguments: PositionalArguments
    /// A cheaper query for the count, taking the same arguments (the full-text index alone: its rows are
    /// exactly the posts).
    var countSQL: String?

    /// How many posts match.
    func count(_ db: Connection) throws -> Int {
        let sql = countSQL ?? "SELECT count(*) FROM posts p WHERE \(condition)"
        return try db.queryOne(sql: sql, arguments: arguments)?.value(at: 0) ?? 0
    }

    /// One page of matching post URLs, newest first.
    func page(_ db: Connection, limit: Int, offset: Int) throws -> [String] {
        try db.query(
            sql: "SELECT p.url FROM posts p WHERE \(condition) ORDER BY \(RelayQueries.newestFirst) LIMIT ? OFFSET ?",
            arguments: arguments + [limit, offset]
        ).map { try $0.value(at: 0, as: String.self) }
    }
}
