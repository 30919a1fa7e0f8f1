/// A server a test starts and must stop before it ends (a fake feed farm, a fake relay, a node).
package protocol StoppableServer: Sendable {
    /// Stops the server and returns once it no longer serves.
    func stop() async
}

/// Runs `body` with `server` and always awaits its ``StoppableServer/stop()`` before returning or
/// rethrowing, so that no server outlives its test (unlike `defer { Task { await server.stop() } }`,
/// which lets the test end before the server has stopped).
///
///     try await withServer(CrawlFarm()) { farm in … }
///
/// - Parameters:
///   - server: Starts the server (evaluated once, before `body`).
///   - body: The test's work.
/// - Returns: What `body` returns.
/// - Throws: What starting the server or `body` throws.
package func withServer<Server: StoppableServer, Result>(
    _ server: @autoclosure () throws -> Server, _ body: (Server) async throws -> Result
) async throws -> Result {
    let server = try server()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
