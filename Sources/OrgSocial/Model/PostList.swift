/// The posts of a feed in file order: a random-access collection of ``Post`` values.
///
/// A post list keeps only where each post starts (two 32-bit numbers per post) next to the feed's bytes,
/// and reads a ``Post`` from those bytes each time an element is accessed. Its memory is therefore a
/// small fraction of the file's size whatever the file holds (a hostile file of millions of bare `**`
/// lines included), at the price of re-reading a post's bytes on each access: keep a ``Post`` in a
/// variable rather than subscripting the list again in a loop. Reading a post is O(its size).
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
    let starts: CompactIntegers
    /// The 1-based line of each post's headline.
    let lines: CompactIntegers
    /// Whether the file has CR bytes (then CR and CRLF also end lines).
    let hasCarriageReturns: Bool

    init(source: [UInt8], starts: CompactIntegers, lines: CompactIntegers, hasCarriageReturns: Bool) {
        self.source = source
        self.starts = starts
        self.lines = lines
        self.hasCarriageReturns = hasCarriageReturns
    }

    /// No posts.
    init() {
        self.init(source: [], starts: CompactIntegers(), lines: CompactIntegers(), hasCarriageReturns: false)
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

/// Non-negative integers stored in 32 bits each while they fit, in 64 bits from the first that does not.
struct CompactIntegers: Sendable {
    private var narrow: [UInt32] = []
    private var wide: [Int]?

    /// The number of values.
    var count: Int { wide?.count ?? narrow.count }

    /// Reserves room for `capacity` values (address space only: untouched pages cost no memory).
    mutating func reserveCapacity(_ capacity: Int) { narrow.reserveCapacity(capacity) }

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
