/// The posts of a feed in file order: a random-access collection of ``Post`` values.
///
/// A post list keeps only where each post starts and its line (a byte or two each per post, see
/// `IncreasingIntegers`) next to the feed's bytes,
/// and reads a ``Post`` from those bytes each time an element is accessed. Its memory is therefore a
/// small fraction of the file's size whatever the file holds (a hostile file of millions of bare `**`
/// lines included), at the price of re-reading a post's bytes on each access: keep a ``Post`` in a
/// variable rather than subscripting the list again in a loop. Reading a post is O(its size).
///
/// Iterating (`for post in list`, `map`, `filter`, …) is the fast way through: the iterator reads the
/// posts in turn with one reader, where each subscript sets one up for its post alone.
///
/// ```swift
/// let feed = Feed(parsing: text)
/// for post in feed.posts where post.kind == .poll { print(post.id ?? "?", post.pollOptions) }
/// let newest = feed.posts.sortedByDate().first
/// ```
public struct PostList: RandomAccessCollection, Sendable {
    /// The feed's bytes, shared with ``Feed/bytes``.
    let source: [UInt8]
    /// Where each post's headline line starts.
    let starts: IncreasingIntegers
    /// The 1-based line of each post's headline.
    let lines: IncreasingIntegers
    /// Whether each post is bare: a headline alone, with no drawer and no body.
    let bare: BitList
    /// Whether the file has CR bytes (then CR and CRLF also end lines).
    let hasCarriageReturns: Bool

    init(
        source: [UInt8], starts: IncreasingIntegers, lines: IncreasingIntegers, bare: BitList,
        hasCarriageReturns: Bool
    ) {
        self.source = source
        self.starts = starts
        self.lines = lines
        self.bare = bare
        self.hasCarriageReturns = hasCarriageReturns
    }

    /// No posts.
    init() {
        self.init(
            source: [], starts: IncreasingIntegers(), lines: IncreasingIntegers(), bare: BitList(),
            hasCarriageReturns: false)
    }

    /// The position of the first post: 0.
    public var startIndex: Int { 0 }

    /// The position after the last post: the number of posts.
    public var endIndex: Int { starts.count }

    /// The post at `position`, read from the feed's bytes (O(the post's size)).
    /// - Parameter position: a valid index, `0..<count`.
    public subscript(position: Int) -> Post {
        precondition(indices.contains(position), "Post index out of range")
        return OrgSocialParser.post(
            in: source, index: position, start: starts[position], line: lines[position],
            hasCarriageReturns: hasCarriageReturns)
    }
}

extension PostList {
    /// Reads the posts of a list in order, reusing one reader for all of them (setting a reader up and
    /// tearing it down cost more than reading a small post).
    public struct Iterator: IteratorProtocol {
        private let list: PostList
        private var position: Int
        /// The position after the last post read.
        private let end: Int
        /// Made by the first `next()`; its run is rebound to the bytes' address on each call.
        private var reader: Reader?

        /// Holds the parse run by reference, so that reading a post updates it in place instead of
        /// copying the whole run in and out of the iterator.
        private final class Reader {
            var run: ParseRun

            init(_ run: ParseRun) { self.run = run }
        }

        init(_ list: PostList, positions: Range<Int>? = nil) {
            self.list = list
            position = positions?.lowerBound ?? list.startIndex
            end = positions?.upperBound ?? list.endIndex
        }

        /// The next post, or `nil` after the last.
        public mutating func next() -> Post? {
            guard position < end else { return nil }
            let index = position
            position += 1
            return read(index)
        }

        /// The next post that is not bare (a headline alone: no drawer, no body), or `nil` after the last;
        /// bare posts on the way are not read, only their headline's line is handed to `skipped`. For
        /// readers that know what a bare post amounts to (a validator: an empty post), so that a file of
        /// millions of `**` lines costs them next to nothing.
        /// - Parameter skipped: receives the line of each bare post passed over, in order.
        /// - Returns: the next post with a drawer or a body.
        package mutating func next(skippingBare skipped: (_ line: Int) -> Void) -> Post? {
            while position < end, list.bare[position] {
                skipped(list.lines[position])
                position += 1
            }
            return next()
        }

        private mutating func read(_ index: Int) -> Post {
            let source = list.source
            let reader =
                self.reader
                ?? source.withUnsafeBufferPointer { buffer in
                    Reader(
                        OrgSocialParser.postReader(
                            for: source, buffer: buffer, hasCarriageReturns: list.hasCarriageReturns))
                }
            self.reader = reader
            return source.withUnsafeBufferPointer { buffer in
                reader.run.rebind(to: buffer)
                return reader.run.readOnePost(index: index, start: list.starts[index], line: list.lines[index])
            }
        }
    }

    /// An iterator over the posts in file order.
    public func makeIterator() -> Iterator { Iterator(self) }

    /// An iterator over the posts at `positions`, in file order, reading them as ``makeIterator()``'s does.
    /// - Parameter positions: valid positions, within `0..<count`.
    /// - Returns: the iterator.
    package func makeIterator(over positions: Range<Int>) -> Iterator {
        precondition(positions.lowerBound >= startIndex && positions.upperBound <= endIndex, "Posts out of range")
        return Iterator(self, positions: positions)
    }

    /// How many bytes of the file post `position` covers: from its headline to the next post's (or the end).
    /// - Parameter position: a valid index, `0..<count`.
    /// - Returns: the number of bytes.
    package func byteCount(at position: Int) -> Int {
        (position + 1 < endIndex ? starts[position + 1] : source.count) - starts[position]
    }

    /// The positions of the posts whose bytes (headline to the next headline) meet `range`, or touch it
    /// when it is empty (an insertion between two posts meets both).
    /// - Parameter range: bytes of the file.
    /// - Returns: consecutive positions, empty when `range` lies before the first post.
    package func positions(meeting range: Range<Int>) -> Range<Int> {
        guard !isEmpty else { return startIndex..<startIndex }
        /// The last post starting at or before `offset`, or `startIndex - 1` when none does.
        func post(containing offset: Int) -> Int {
            var (low, high) = (startIndex, endIndex)
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= offset { low = middle + 1 } else { high = middle }
            }
            return low - 1
        }
        let first = Swift.max(startIndex, post(containing: Swift.max(0, range.lowerBound - 1)))
        let last = post(containing: range.upperBound)
        guard last >= startIndex, last >= first else { return startIndex..<startIndex }
        return first..<(last + 1)
    }

    /// The positions of the posts cut into at most `count` consecutive runs of about the same number of
    /// bytes (each at least `minimumBytes`, so small feeds make one run), for reading them on several threads.
    /// - Parameters:
    ///   - count: the most runs wanted.
    ///   - minimumBytes: the fewest bytes of the file a run should cover.
    /// - Returns: consecutive, non-empty ranges covering every position, in order (none for no posts).
    package func runs(count: Int, minimumBytes: Int) -> [Range<Int>] {
        guard !isEmpty else { return [] }
        let first = starts[startIndex]
        let bytes = source.count - first
        let runCount = Swift.max(1, Swift.min(count, bytes / Swift.max(1, minimumBytes), self.count))
        var runs: [Range<Int>] = []
        var lower = startIndex
        for run in 1..<runCount {
            // The first post starting at or after the run's share of the bytes.
            let boundary = first + bytes / runCount * run
            var (low, high) = (lower + 1, endIndex)
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] < boundary { low = middle + 1 } else { high = middle }
            }
            guard low < endIndex else { break }
            runs.append(lower..<low)
            lower = low
        }
        runs.append(lower..<endIndex)
        return runs
    }
}

extension PostList: Equatable {
    /// Two lists are equal when they have equal posts in the same order.
    public static func == (lhs: PostList, rhs: PostList) -> Bool { lhs.elementsEqual(rhs) }
}

extension PostList: Encodable {
    /// Encodes the posts as an array, reading one post at a time.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for post in self { try container.encode(post) }
    }
}

/// Booleans stored one bit each.
struct BitList: Sendable {
    private var words: [UInt64] = []
    /// The number of values.
    private(set) var count = 0

    /// Appends a value.
    mutating func append(_ value: Bool) {
        if count & 63 == 0 { words.append(0) }
        if value { words[count >> 6] |= 1 << UInt64(count & 63) }
        count += 1
    }

    /// The value at `index`.
    subscript(index: Int) -> Bool { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
}

/// Non-negative integers stored in 32 bits each while they fit, in 64 bits from the first that does not.
struct CompactIntegers: Sendable {
    private var narrow: [UInt32] = []
    private var wide: [Int]?

    /// The number of values.
    var count: Int { wide?.count ?? narrow.count }

    /// Reserves room for `capacity` values (address space only: untouched pages cost no memory).
    mutating func reserveCapacity(_ capacity: Int) { narrow.reserveCapacity(capacity) }

    /// Removes every value; keeps the 32-bit storage when asked.
    mutating func removeAll(keepingCapacity: Bool) {
        narrow.removeAll(keepingCapacity: keepingCapacity && wide == nil)
        wide = nil
    }

    /// Appends a value.
    mutating func append(_ value: Int) {
        if wide == nil, let small = UInt32(exactly: value) {
            narrow.append(small)
            return
        }
        if wide == nil {
            wide = narrow.map { Int($0) }
            narrow = []
        }
        wide?.append(value)
    }

    /// The value at `index`.
    subscript(index: Int) -> Int {
        if let wide { return wide[index] }
        return Int(narrow[index])
    }
}

/// Non-decreasing integers (where posts start, their lines), stored as small distances from the first
/// value of their block of 64: one byte each while the distances fit, two bytes while they fit in 16
/// bits, else as ``CompactIntegers``. A feed of millions of three-byte posts then costs about a byte per
/// post and value instead of four, and a typical feed (posts of a few hundred bytes) two.
struct IncreasingIntegers: Sendable {
    /// The first value of each block of 64.
    private var bases: [Int] = []
    /// Distances from the block's base, while every one fits in a byte.
    private var small: [UInt8] = []
    /// Distances from the block's base, once one did not fit in a byte.
    private var medium: [UInt16]?
    /// The values themselves, once a distance did not fit in 16 bits.
    private var wide: CompactIntegers?
    /// The number of values.
    private(set) var count = 0
    /// The last value appended.
    private var last = 0

    private static var blockShift: Int { 6 }

    /// Reserves room for `capacity` values (address space only: untouched pages cost no memory).
    mutating func reserveCapacity(_ capacity: Int) {
        small.reserveCapacity(capacity)
        bases.reserveCapacity(capacity >> Self.blockShift + 1)
    }

    /// Appends a value, no smaller than the last one.
    mutating func append(_ value: Int) {
        precondition(count == 0 || value >= last, "IncreasingIntegers values must not decrease")
        defer {
            count += 1
            last = value
        }
        if wide != nil {
            wide?.append(value)
            return
        }
        if count & (1 << Self.blockShift - 1) == 0 { bases.append(value) }
        let distance = value - bases[count >> Self.blockShift]
        if medium == nil, let byte = UInt8(exactly: distance) {
            small.append(byte)
            return
        }
        if medium == nil, UInt16(exactly: distance) != nil {
            medium = small.map { UInt16($0) }
            small = []
        }
        if let half = UInt16(exactly: distance), medium != nil {
            medium?.append(half)
            return
        }
        var values = CompactIntegers()
        for index in 0..<count { values.append(self[index]) }
        values.append(value)
        wide = values
        small = []
        medium = nil
        bases = []
    }

    /// The value at `index`.
    subscript(index: Int) -> Int {
        if let wide { return wide[index] }
        let base = bases[index >> Self.blockShift]
        if let medium { return base + Int(medium[index]) }
        return base + Int(small[index])
    }
}
