#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking self-pipe that lets Swift tasks wake a libmicrohttpd thread blocked in `poll(2)`.
/// Both descriptors are closed in `deinit`.
final class WakeupPipe: Sendable {
    /// The end to poll for `POLLIN`.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// Creates the pipe, or returns `nil` if the process is out of descriptors.
    init?() {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return nil }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        for descriptor in descriptors {
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Makes the read end readable. A full pipe is already readable, so a failed write is harmless.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
