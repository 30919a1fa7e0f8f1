#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: which one, on which path, and `strerror(errno)`.
package struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed (`open`, `fsync`, `rename`, …).
    package var operation: String
    /// The path it was called on.
    package var path: String
    /// The `errno` it set.
    package var code: Int32
    /// `strerror(code)`, such as "No such file or directory".
    package var message: String

    /// Captures `errno` right after the failed call.
    ///
    /// - Parameters:
    ///   - operation: The call that failed.
    ///   - path: The path it was called on.
    ///   - code: The error number; `errno` by default.
    package init(operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
        self.message = String(cString: strerror(code))
    }

    /// `<operation> failed: <message>`.
    package var description: String { "\(operation) failed: \(message)" }
}
