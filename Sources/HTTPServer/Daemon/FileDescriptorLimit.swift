#if canImport(Glibc)
    import Glibc
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`), which bounds how many connections a server with
/// a descriptor per connection can hold.
enum FileDescriptorLimit {
    /// Raises the soft limit to at least `minimum` (never past the hard limit) if it is lower. Returns
    /// the old and new soft limits when it changed them, `nil` when it left them alone.
    static func raise(toAtLeast minimum: Int) -> (from: Int, to: Int)? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let wanted = rlim_t(max(0, minimum))
        guard limit.rlim_cur < wanted, limit.rlim_cur < limit.rlim_max else { return nil }
        let old = limit.rlim_cur
        limit.rlim_cur = min(wanted, limit.rlim_max)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return (Int(clamping: old), Int(clamping: limit.rlim_cur))
    }
}
