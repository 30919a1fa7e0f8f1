import Engine

/// `orgsocial engine`: serves the official apps' client-core protocol (JSON-RPC 2.0, one message per
/// line) on standard input and output, as `orgsocial-engine` does.
struct EngineCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "engine",
            abstract: "Serve the official apps' engine protocol on stdio.",
            discussion: """
                Reads JSON-RPC 2.0 requests, one per line, and answers each by id; writes to the feed run \
                one at a time in order. It stops once standard input ends and every request has been \
                answered. The official terminal client runs it when ORG_SOCIAL_ENGINE names \
                orgsocial-engine, the same engine as a program of its own (see docs/engine.md).
                """)
    }

    init(parsing arguments: ParsedArguments) throws {}

    func validate() throws {}

    func run(in context: CommandContext) async throws {
        await EngineRunner.serveStandardStreams()
    }
}
