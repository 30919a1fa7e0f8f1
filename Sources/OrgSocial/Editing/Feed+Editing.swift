import Foundation

/// A replacement of one byte range of a feed.
struct ByteEdit {
    var range: Range<Int>
    var replacement: [UInt8]
}

// MARK: - Engine

extension Feed {
    /// Applies non-overlapping edits (given against the current bytes) and parses the result.
    func applying(_ edits: [ByteEdit]) -> Feed {
        guard !edits.isEmpty else { return self }
        var out = bytes
        // From the end backwards, so earlier offsets stay valid; of two edits at the same offset the one
        // listed later is applied first, which leaves the one listed first in front of it.
        let ordered = edits.enumerated().sorted {
            ($0.element.range.lowerBound, $0.offset) > ($1.element.range.lowerBound, $1.offset)
        }
        for (_, edit) in ordered {
            out.replaceSubrange(edit.range, with: edit.replacement)
        }
        return OrgSocialParser().parse(bytes: out)
    }

    /// Text written with this file's line break (LF unless the file uses CRLF or CR).
    func encoded(_ text: String) -> [UInt8] {
        switch lineEnding {
        case .lf: Array(text.utf8)
        case .crlf: Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case .cr: Array(text.replacingOccurrences(of: "\n", with: "\r").utf8)
        }
    }

    /// An insertion at `offset`; when it goes at the very end of a file whose last line has no line
    /// break, a line break is put first so the new text starts on its own line.
    func insertion(at offset: Int, _ text: String) -> ByteEdit {
        var replacement = encoded(text)
        if offset == bytes.count, !layout.endsWithLineBreak, offset > layout.contentStart {
            replacement = lineEnding.bytes + replacement
        }
        return ByteEdit(range: offset..<offset, replacement: replacement)
    }

    func removal(_ range: Range<Int>) -> ByteEdit { ByteEdit(range: range, replacement: []) }

    func postIndex(id: String) throws -> Int {
        let matches = positionsOfPosts(withID: id)
        guard let index = matches.first else { throw OrgSocialError.postNotFound(id: id) }
        guard matches.count == 1 else {
            throw OrgSocialError.duplicatePostID(id: id, lines: matches.map { posts[$0].line })
        }
        return index
    }
}
