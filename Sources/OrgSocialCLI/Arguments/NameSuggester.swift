/// Suggests the nearest known name for a mistyped command or option ("Did you mean 'post'?").
enum NameSuggester {
    /// The closest candidate, or `nil` when none is close enough to be a plausible typo.
    ///
    /// Like swift-argument-parser, a candidate qualifies when its edit distance to the typed name (dashes
    /// included) is below 4; here the distance is the optimal-string-alignment one (swapping two
    /// neighbouring letters counts once), and it must also be smaller than the candidate's own length
    /// without dashes, so that `--x` suggests nothing. Ties go to the earlier candidate.
    /// - Parameters:
    ///   - typed: what the user typed, e.g. `--fiel`.
    ///   - candidates: the valid names, e.g. `["--file", "--text"]`.
    /// - Returns: the suggested name, or `nil`.
    static func suggestion(for typed: String, among candidates: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, candidate)
            let length = candidate.drop { $0 == "-" }.count
            guard distance < 4, distance < length else { continue }
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance between two strings (by `Character`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var table = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { table[i][0] = i }
        for j in 0...y.count { table[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[x.count][y.count]
    }
}
