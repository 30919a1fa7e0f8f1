import Foundation
import OrgSocialClient
import Testing

/// What the client's errors say: the advice fits the cause, and a server's own sentence is not followed by
/// a second period.
struct ErrorMessageTests {
    @Test func aRelaysAdviceFitsTheCause() {
        let missingEndpoint = OrgSocialClientError.relayError(
            url: "http://127.0.0.1:1/groups/", statusCode: 404, messages: [])
        #expect(missingEndpoint.localizedDescription.contains("not an endpoint of an Org Social relay"))
        #expect(!missingEndpoint.localizedDescription.contains("feed or post URL"))
        let unknownGroup = OrgSocialClientError.relayError(
            url: "http://127.0.0.1:1/groups/tea/", statusCode: 404, messages: ["Group 'tea' doesn't exist."])
        #expect(unknownGroup.localizedDescription.contains("Group 'tea' doesn't exist. Check what you asked for"))
        let failed = OrgSocialClientError.relayError(url: "http://127.0.0.1:1/stats/", statusCode: 500, messages: [])
        #expect(
            failed.localizedDescription.hasSuffix("The relay itself failed; try again later, or try another relay."))
    }

    @Test func aServerThatIsNotAHostIsSaidToBeNone() {
        let error = OrgSocialClientError.hostError(url: "http://127.0.0.1:1/signup", statusCode: 501, messages: [])
        #expect(!error.localizedDescription.contains("no details"))
        #expect(error.localizedDescription.contains("is not an Org Social Host"))
        let taken = OrgSocialClientError.hostError(
            url: "http://127.0.0.1:1/signup", statusCode: 409, messages: ["Nickname already taken."])
        #expect(taken.localizedDescription.hasSuffix("HTTP 409: Nickname already taken."))
    }

    @Test func credentialAndValidationErrorsDescribeTheProblemWithoutTheCLIsAdvice() {
        let url = "http://127.0.0.1:1/social.org"
        let token = OrgSocialClientError.unauthorized(url: url, message: nil)
        #expect(
            token.localizedDescription
                == "The server at \(url) refused the token (HTTP 401). Check the token you publish with and that it "
                + "belongs to this feed.")
        let vfile = OrgSocialClientError.vfileRejected(url: url, message: nil)
        #expect(
            vfile.localizedDescription
                == "The Org Social Host at \(url) refused the vfile. Check the vfile URL you got at sign-up; a lost "
                + "vfile cannot be recovered.")
        let rejected = OrgSocialClientError.rejected(url: url, diagnostics: [], message: nil)
        #expect(rejected.localizedDescription.hasSuffix("\nFix these problems and publish again."))
        for error in [token, vfile, rejected] {
            for word in ["ORGSOCIAL_", "publish.", "orgsocial ", "--"] {
                #expect(!error.localizedDescription.contains(word))
            }
        }
    }
}
