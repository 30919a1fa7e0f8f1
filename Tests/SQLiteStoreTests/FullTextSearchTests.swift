import SQLiteStore
import Testing

/// FTS5 with the trigram tokenizer, as the relay's search uses it (needs SQLite ≥ 3.34).
struct FullTextSearchTests {
    @Test func trigramTokenizerFindsSubstringsIncludingNonASCII() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='trigram')")
        let bodies = [
            "Learning Emacs org-mode today",
            "Org Social is a decentralised network",
            "Café in Zürich with Straßenbahn",
            "日本語のテキストを検索する",
        ]
        for body in bodies { try connection.execute(sql: "INSERT INTO t (body) VALUES (?)", arguments: [body]) }

        func search(_ term: String) throws -> [String] {
            try connection.query(sql: "SELECT body FROM t WHERE t MATCH ? ORDER BY rowid", arguments: [term])
                .map { try $0.value(at: 0) }
        }
        // A phrase in double quotes is matched as a substring, case-insensitively for ASCII.
        #expect(try search("\"ecentra\"") == [bodies[1]])
        #expect(try search("\"ORG\"") == [bodies[0], bodies[1]])
        #expect(try search("\"ürich\"") == [bodies[2]])
        #expect(try search("\"テキスト\"") == [bodies[3]])
        #expect(try search("\"nothing\"").isEmpty)
        // LIKE also uses the trigram index.
        let like = try connection.query(sql: "SELECT body FROM t WHERE body LIKE ?", arguments: ["%straßen%"])
        #expect(like.count == 1)
    }
}
