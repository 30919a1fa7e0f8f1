import Foundation

/// Renaming posts: a merge gives a post the next free second when both sides added a different post
/// under the same ID (spec §4.4: an ID is the post's time, moved forward a second while it is taken).
extension Feed {
    /// This feed with the posts at `renames`' indexes given new IDs, wherever their ID is written: the
    /// headline and every `:ID:` drawer entry holding it. Every other byte is kept.
    func renamingPosts(_ renames: [Int: String]) -> Feed {
        guard !renames.isEmpty else { return self }
        let all = Array(posts)
        var edits: [ByteEdit] = []
        for (index, newID) in renames {
            let post = all[index]
            guard let id = post.id else { continue }
            let replacement = Array(newID.utf8)
            let idBytes = Array(id.utf8)
            let headline = post.layout.start..<post.layout.headlineContentEnd
            if let range = ByteSearch.firstRange(of: idBytes, in: bytes, within: headline) {
                edits.append(ByteEdit(range: range, replacement: replacement))
            }
            for entry in post.entryRange {
                let span = post.entrySpan(entry)
                let name = bytes[span.nameStart..<span.nameEnd]
                guard name.count == 2, name.first.map({ $0 | 0x20 }) == UInt8(ascii: "i"),
                    name.last.map({ $0 | 0x20 }) == UInt8(ascii: "d"),
                    bytes[span.valueStart..<span.valueEnd].elementsEqual(idBytes)
                else { continue }
                edits.append(ByteEdit(range: span.valueStart..<span.valueEnd, replacement: replacement))
            }
        }
        return applying(edits)
    }

    /// The first ID after `id`, a second at a time in `id`'s own UTC offset, that `taken` does not hold;
    /// `nil` when `id` is not a timestamp.
    static func nextFreeID(after id: String, avoiding taken: Set<String>) -> String? {
        let timestamp = OrgTimestamp(id)
        guard let instant = timestamp.instant,
            let zone = TimeZone(secondsFromGMT: timestamp.utcOffsetSeconds ?? 0)
        else { return nil }
        var moment = instant
        var candidate = id
        repeat {
            moment += 1
            candidate = OrgTimestamp.format(moment, timeZone: zone)
        } while taken.contains(candidate)
        return candidate
    }
}
