import HTTPCore
import Testing

@Suite struct HTTPHeadersTests {
    @Test func looksUpNamesCaseInsensitively() {
        let headers: HTTPHeaders = ["Content-Type": "text/plain", "X-Count": "3"]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.contains("x-count"))
        #expect(headers["missing"] == nil)
    }

    @Test func keepsOrderAndRepeatedFields() {
        var headers = HTTPHeaders()
        headers.add("Vary", "Accept")
        headers.add("Link", "<a>")
        headers.add("vary", "Origin")
        #expect(headers.map(\.name) == ["Vary", "Link", "vary"])
        #expect(headers.values(for: "VARY") == ["Accept", "Origin"])
        #expect(headers["Vary"] == "Accept")
        #expect(headers.count == 3)
    }

    @Test func settingReplacesEveryFieldOfThatNameInPlace() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
        headers["a"] = "4"
        #expect(headers.fields == [HTTPHeaders.Field(name: "A", value: "4"), HTTPHeaders.Field(name: "B", value: "2")])
        headers["C"] = "5"
        #expect(headers.map(\.name) == ["A", "B", "C"])
    }

    @Test func settingNilRemovesEveryFieldOfThatName() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
        headers["A"] = nil
        #expect(headers.map(\.name) == ["B"])
        headers.remove("b")
        #expect(headers.isEmpty)
    }

    /// Lookups as the client transport relies on them: any case, order kept, setting replaces.
    @Test func headersLookUpNamesInAnyCaseAndKeepOrder() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        headers.add("x-a", "2")
        #expect(headers["X-a"] == "1")
        headers["X-A"] = "3"
        #expect(headers.fields.map(\.name) == ["Content-Type", "X-A"])
        #expect(headers["x-a"] == "3")
        headers["content-type"] = nil
        #expect(!headers.contains("Content-Type"))
    }
}
