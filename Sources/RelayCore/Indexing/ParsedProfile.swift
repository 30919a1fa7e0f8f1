import Foundation
package import OrgSocial

/// The profile fields the relay stores, read as the reference does (`relay-api.md` §4.5).
package struct ParsedProfile {
    /// `#+TITLE:`, or empty.
    package var title: String
    /// `#+NICK:`, or empty.
    package var nick: String
    /// `#+DESCRIPTION:`, or empty.
    package var description: String
    /// `#+AVATAR:`, or empty.
    package var avatar: String
    /// `#+LOCATION:`, or empty.
    package var location: String
    /// `#+BIRTHDAY:` when it is a valid `YYYY-MM-DD` date.
    package var birthday: String?
    /// `#+LANGUAGE:` codes, space separated.
    package var languages: String
    /// `#+PINNED:`, or empty.
    package var pinned: String
    /// The `#+LINK:` values.
    package var links: [String]
    /// The `#+CONTACT:` values split at the first `:` (values without one are dropped).
    package var contacts: [(type: String, value: String)]

    /// Reads `profile`.
    package init(_ profile: Profile) {
        title = profile.title ?? ""
        nick = profile.nick ?? ""
        description = profile.description ?? ""
        avatar = profile.avatar ?? ""
        location = profile.location ?? ""
        birthday = profile.birthday.flatMap { Self.isValidBirthday($0) ? $0 : nil }
        languages = profile.languages.joined(separator: " ")
        pinned = profile.pinned ?? ""
        links = profile.links
        contacts = profile.contacts.compactMap { contact in
            guard let colon = contact.firstIndex(of: ":") else { return nil }
            return (String(contact[..<colon]), String(contact[contact.index(after: colon)...]))
        }
    }

    /// Whether `text` is a valid `YYYY-MM-DD` date.
    private static func isValidBirthday(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return false }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        let calendar = Calendar(identifier: .gregorian)
        return (1...12).contains(month) && day >= 1
            && calendar.date(from: components).map {
                calendar.component(.day, from: $0) == day
            } ?? false
    }
}
