import Foundation
import TestSupport
import Testing

@testable import OrgSocialCLI

/// `orgsocial help --man <dir>`: man pages generated from the command definitions (``ManPageGenerator``),
/// one per command, in roff that groff reads without a warning.
struct ManPageTests {
    /// A small command tree whose texts hold what roff would misread.
    struct TrickyCommand: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "tricky",
                abstract: "Do -x things.",
                discussion: """
                    First paragraph, with a back\\slash and --dashes.
                    .SH not a section
                    'quoted line

                      .example line
                      --flag value
                    """,
                options: [.value("level", short: "l", help: "The level ($ORGSOCIAL_RELAY_PORT).", defaultValue: "-1")])
        }

        init(parsing arguments: ParsedArguments) throws {}
        func run(in context: CommandContext) throws {}
    }

    /// The root of the small tree.
    struct TrickyRoot: CommandGroup {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: CLI.name, abstract: "The root.", subcommands: [TrickyCommand.self])
        }
    }

    /// The requests the generator writes; any other line starting with `.` or `'` is text roff would misread.
    static let requests: Set<String> = [
        ".TH", ".SH", ".TP", ".PP", ".RS", ".RE", ".nf", ".fi", ".ad", ".nh", ".BR", ".\\\"",
    ]

    /// The lines of a page that start like a request but are none of ``requests``.
    static func strayRequests(in page: ManPageGenerator.Page) -> [String] {
        page.text.split(separator: "\n").map(String.init).filter { line in
            (line.hasPrefix(".") || line.hasPrefix("'"))
                && !requests.contains(String(line.prefix { $0 != " " }))
        }
    }

    @Test func everyCommandGetsAPageWithItsOptionsSubcommandsAndSections() {
        let generator = ManPageGenerator()
        let pages = generator.pages
        #expect(pages.count == generator.nodes.count)
        #expect(pages.first?.name == "orgsocial")
        let names = Set(pages.map(\.name))
        for expected in [
            "orgsocial-post", "orgsocial-timeline", "orgsocial-group-join", "orgsocial-serve-token",
            "orgsocial-relay-serve", "orgsocial-bridge-run", "orgsocial-completion",
        ] {
            #expect(names.contains(expected), "no page \(expected)")
        }
        for (node, page) in zip(generator.nodes, pages) {
            #expect(page.name == ManPageGenerator.pageName(path: node.path))
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "SEE ALSO"] {
                #expect(page.text.contains("\n.SH \(section)\n"), "\(page.name) has no \(section)")
            }
            for option in node.options {
                #expect(
                    page.text.contains(ManPageGenerator.escaped(option.longForm)), "\(page.name): \(option.longForm)")
            }
            for subcommand in node.subcommands {
                #expect(page.text.contains("\\fB\(ManPageGenerator.escaped(subcommand.name))\\fR"))
            }
            #expect(Self.strayRequests(in: page).isEmpty, "\(page.name): \(Self.strayRequests(in: page))")
            #expect(!page.text.contains("See DESCRIPTION."), "\(page.name) names a variable nothing describes")
        }
    }

    @Test func thePostPageShowsOptionsEnvironmentFilesAndExitCodes() throws {
        let page = try #require(ManPageGenerator().pages.first { $0.name == "orgsocial-post" })
        #expect(page.text.contains(".SH NAME\norgsocial\\-post \\- Append a post\n"))
        #expect(page.text.contains("\\fB\\-\\-file\\fR \\fIfile\\fR"))
        #expect(page.text.contains("\\fB\\-\\-text\\fR \\fItext\\fR"))
        #expect(page.text.contains(".SH ENVIRONMENT\n.TP\n\\fBORGSOCIAL_FEED_URL\\fR\n"))
        for variable in ["ORGSOCIAL_NOW", "TZ", "ORGSOCIAL_CONFIG"] {
            #expect(page.text.contains("\\fB\(variable)\\fR"), "no \(variable)")
        }
        #expect(page.text.contains(".SH FILES\n.TP\n\\fI~/.config/orgsocial/config.json\\fR\n"))
        #expect(page.text.contains(".SH EXIT STATUS\n.TP\n\\fB0\\fR\n"))
        #expect(page.text.contains("\\fB2\\fR\nA usage error"))
        #expect(page.text.contains(".BR orgsocial (1)"))
    }

    @Test func theServicePagesNameTheirUnitsSettings() throws {
        let pages = ManPageGenerator().pages
        let relay = try #require(pages.first { $0.name == "orgsocial-relay-serve" })
        #expect(relay.text.contains("\\fI/etc/orgsocial/relay.env\\fR"))
        #expect(relay.text.contains("\\fBORGSOCIAL_RELAY_PORT\\fR\nUsed when \\-\\-port is not given"))
        #expect(!relay.text.contains("\\fB130\\fR"), "a server stops on SIGTERM with its own status")
        let bridge = try #require(pages.first { $0.name == "orgsocial-bridge-run" })
        #expect(bridge.text.contains("\\fI/etc/orgsocial/bridge.env\\fR"))
        #expect(bridge.text.contains("\\fI~/.local/share/orgsocial/bridge.sqlite\\fR"))
    }

    @Test func textIsEscapedForRoff() throws {
        #expect(ManPageGenerator.escaped("--feed-url") == "\\-\\-feed\\-url")
        #expect(ManPageGenerator.escaped("a\\b") == "a\\eb")
        #expect(ManPageGenerator.escaped("\u{2026} \u{1F44D}") == "\\[u2026] \\[u1F44D]")
        #expect(ManPageGenerator.escaped(".SH x\n'y\nz.") == "\\&.SH x\n\\&'y\nz.")
        let generator = ManPageGenerator(root: TrickyRoot.self, version: "9.9")
        let page = try #require(generator.pages.first { $0.name == "orgsocial-tricky" })
        #expect(page.text.contains(".TH ORGSOCIAL\\-TRICKY 1 \"\" \"orgsocial 9.9\""))
        #expect(page.text.contains("orgsocial\\-tricky \\- Do \\-x things\n"))
        #expect(page.text.contains("back\\eslash and \\-\\-dashes.\n\\&.SH not a section\n\\&'quoted line\n"))
        #expect(page.text.contains(".RS 2\n.nf\n\\&.example line\n\\-\\-flag value\n.fi\n.RE\n"))
        #expect(
            page.text.contains(
                "\\fB\\-l\\fR, \\fB\\-\\-level\\fR \\fIlevel\\fR\nThe level ($ORGSOCIAL_RELAY_PORT). (default: \\-1)"))
        #expect(Self.strayRequests(in: page).isEmpty, "\(Self.strayRequests(in: page))")
        #expect(ManPageGenerator.synopsisToken("[--tag <tag> ...]") == "[\\fB\\-\\-tag\\fR \\fItag\\fR ...]")
    }

    @Test func groffReadsEveryPageWithoutAWarning() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else {
            print("SKIPPED: groff is not installed")
            return
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for page in ManPageGenerator().pages {
            let path = try folder.write(page.text, to: page.fileName)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
            process.arguments = ["-man", "-Tutf8", "-ww", "-z", path]
            let error = Pipe()
            process.standardError = error
            try process.run()
            let warnings = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(page.name): \(warnings)")
        }
    }

    @Test func helpManWritesEveryPageIntoTheFolder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.path("man")
        let result = await runCLI(["help", "--man", target])
        #expect(result.status == 0, "\(result.error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: target).sorted()
        #expect(files.count == ManPageGenerator().nodes.count)
        #expect(files.contains("orgsocial.1") && files.contains("orgsocial-post.1"))
        #expect(result.output == "Wrote \(files.count) man pages into \(target).\n")
        let page = try String(contentsOfFile: folder.path("man/orgsocial-post.1"), encoding: .utf8)
        #expect(page == ManPageGenerator().pages.first { $0.name == "orgsocial-post" }?.text)
    }

    @Test func helpManTakesNoSubcommandNames() async {
        let result = await runCLI(["help", "--man", "/tmp/unused", "post"])
        #expect(result.status == 2)
        #expect(result.error.contains("'--man' writes every page"))
    }
}
