/// An image a post's body links to, which a bridge uploads as an attachment with its description as alt
/// text.
public struct OrgImageLink: Sendable, Hashable, Codable {
    /// The link's target as written: an `http(s)://` URL, a `file:` link or a path.
    public var target: String
    /// The link's description (its plain text), or `nil` when it has none.
    public var description: String?

    /// Makes a link.
    /// - Parameters:
    ///   - target: the target.
    ///   - description: the description.
    public init(target: String, description: String?) {
        self.target = target
        self.description = description
    }

    /// The file extensions read as images.
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "avif"]

    /// The links to images in an Org body, in order, each target once: bracket links (`[[url][alt]]`,
    /// `[[file:a.png]]`) and bare URLs whose path ends with an image extension.
    /// - Parameter body: the Org body.
    /// - Returns: the links.
    public static func images(in body: String) -> [OrgImageLink] {
        var result: [OrgImageLink] = []
        var seen = Set<String>()
        func visit(_ nodes: [OrgInline]) {
            for node in nodes {
                switch node {
                case .link(let target, let description):
                    if isImage(target), seen.insert(target).inserted {
                        let text = description.map(plainText).flatMap { $0.isEmpty ? nil : $0 }
                        result.append(OrgImageLink(target: target, description: text))
                    }
                case .bareURL(let url):
                    if isImage(url), seen.insert(url).inserted {
                        result.append(OrgImageLink(target: url, description: nil))
                    }
                case .emphasis(_, let content): visit(content)
                case .text, .verbatim: break
                }
            }
        }
        for line in body.split(separator: "\n", omittingEmptySubsequences: true) {
            visit(OrgInline.parse(String(line)))
        }
        return result
    }

    /// Whether a target's path ends with an image extension (query and fragment ignored).
    private static func isImage(_ target: String) -> Bool {
        let path = target.prefix { $0 != "?" && $0 != "#" }
        guard let dot = path.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// The plain text of a description.
    private static func plainText(_ nodes: [OrgInline]) -> String {
        var text = ""
        for node in nodes {
            switch node {
            case .text(let value), .verbatim(_, let value), .bareURL(let value): text += value
            case .emphasis(_, let content): text += plainText(content)
            case .link(let target, let description): text += description.map(plainText) ?? target
            }
        }
        return text
    }
}
