import Foundation
import Testing

@testable import OrgSocialClient

/// Reading a 422 body, whatever shape the server chose.
struct RemoteDiagnosticTests {
    @Test func readsAnEnvelopeWithDiagnosticsInData() {
        let body = Array(
            """
            {"type":"Error","errors":["The feed has errors"],"data":{"diagnostics":[
              {"line":5,"column":1,"severity":"error","code":"invalid-post-id","message":"Bad ID"}]}}
            """.utf8)
        let (diagnostics, message) = RemoteDiagnostic.decode(from: body)
        #expect(message == "The feed has errors")
        #expect(
            diagnostics == [
                RemoteDiagnostic(line: 5, column: 1, severity: "error", code: "invalid-post-id", message: "Bad ID")
            ])
        #expect(diagnostics.first { $0.line == 5 }?.description == "5:1: error: Bad ID [invalid-post-id]")
    }

    @Test func readsABareListAndPlainStrings() {
        let (list, _) = RemoteDiagnostic.decode(from: Array(#"[{"message":"one","line":2},"two"]"#.utf8))
        #expect(list == [RemoteDiagnostic(line: 2, message: "one"), RemoteDiagnostic(message: "two")])
        let (none, text) = RemoteDiagnostic.decode(from: Array("Feed is invalid\n".utf8))
        #expect(none.isEmpty)
        #expect(text == "Feed is invalid")
    }

    @Test func encodesAndDecodesAsJSON() throws {
        let diagnostic = RemoteDiagnostic(line: 1, column: 2, severity: "warning", code: "x", message: "m")
        let data = try JSONEncoder().encode(diagnostic)
        #expect(try JSONDecoder().decode(RemoteDiagnostic.self, from: data) == diagnostic)
    }
}
