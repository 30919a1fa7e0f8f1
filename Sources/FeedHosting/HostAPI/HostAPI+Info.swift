import HTTPCore
import SystemSupport

extension HostAPI {
    /// `GET /`: the node's name, description and API version, with `_links` to every endpoint, as the
    /// reference host answers (`version` is the Host API version this node speaks).
    func info(_ request: HTTPRequest) -> HTTPResponse {
        func link(_ path: String, _ method: String, _ description: String) -> JSONValue {
            .object([("href", .string(path)), ("method", .string(method)), ("description", .string(description))])
        }
        return Envelope.success(
            .object([
                ("name", "Org Social Host"),
                ("description", "Host your social.org files online (orgsocial serve)"),
                ("version", "1.0.0"),
            ]),
            links: .object([
                ("self", .object([("href", "/"), ("method", "GET")])),
                ("signup", link("/signup", "POST", "Register a new nickname and get vfile token")),
                ("upload", link("/upload", "POST", "Upload or update your social.org file")),
                ("delete", link("/delete", "POST", "Delete your hosted file")),
                ("redirect", link("/redirect", "POST", "Set up permanent redirect to new URL")),
                ("remove-redirect", link("/remove-redirect", "POST", "Remove redirect and resume hosting")),
                (
                    "public-routes",
                    link("/public-routes", "GET", "List all public social.org files hosted on the server")
                ),
            ])
        )
    }

    /// `GET /public-routes`: the public URL of every non-empty feed under the root that is not
    /// redirected (Host API accounts and feeds placed by hand alike), sorted by path.
    func publicRoutes(_ request: HTTPRequest) -> HTTPResponse {
        var urls: [JSONValue] = []
        for feed in store.directory.feeds() {
            if let nick = feed.folder, accounts.directory.account(nick: nick)?.redirectURL != nil {
                continue
            }
            guard let status = try? store.directory.status(of: feed), status.size > 0 else { continue }
            urls.append(.string(siteURL + feed.urlPath))
        }
        return Envelope.success(.array(urls))
    }
}
