/// Trimming helpers for the HTML → Org conversion.
extension String {
    /// The text without leading and trailing `characters`.
    func trimming(_ characters: Set<Character>) -> String {
        // A character equal to one of `characters` is that one scalar: when neither the first nor the last
        // scalar is one of them, there is nothing to trim.
        if let first = unicodeScalars.first, let last = unicodeScalars.last,
            !characters.contains(Character(first)), !characters.contains(Character(last))
        {
            return self
        }
        var text = Substring(self)
        while let first = text.first, characters.contains(first) { text.removeFirst() }
        while let last = text.last, characters.contains(last) { text.removeLast() }
        return String(text)
    }
}

extension Substring {
    /// The text without trailing characters matching `predicate`.
    func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var text = self
        while let last = text.last, predicate(last) { text.removeLast() }
        return text
    }
}
