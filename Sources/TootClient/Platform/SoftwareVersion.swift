/// A server's version as three numbers, read from the front of a version string such as `4.5.0`,
/// `0.16.0+git-8f2c` or `2024.08-1`; missing parts are 0. ``zero`` means "not known".
public struct SoftwareVersion: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The major version.
    public var major: Int
    /// The minor version.
    public var minor: Int
    /// The patch version.
    public var patch: Int

    /// The unknown version, 0.0.0.
    public static let zero = SoftwareVersion(0, 0, 0)

    /// Makes a version from its numbers.
    /// - Parameters:
    ///   - major: the major version.
    ///   - minor: the minor version.
    ///   - patch: the patch version.
    public init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Reads the leading `X.Y.Z` of `text` (up to three dot-separated numbers); ``zero`` when it starts with
    /// no digit.
    /// - Parameter text: a version string as a server reports it.
    public init(parsing text: String) {
        var numbers: [Int] = []
        var current: Int?
        for character in text.drop(while: { $0 == "v" || $0 == " " }) {
            if let digit = character.wholeNumberValue, character.isASCII {
                current = (current ?? 0) * 10 + digit
            } else if character == ".", let value = current, numbers.count < 2 {
                numbers.append(value)
                current = nil
            } else {
                break
            }
        }
        if let value = current { numbers.append(value) }
        while numbers.count < 3 { numbers.append(0) }
        self.init(numbers[0], numbers[1], numbers[2])
    }

    /// `major.minor.patch`.
    public var description: String { "\(major).\(minor).\(patch)" }

    /// Orders versions by major, then minor, then patch.
    public static func < (lhs: SoftwareVersion, rhs: SoftwareVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}
