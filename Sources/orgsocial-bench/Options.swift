import Foundation
import OrgSocial

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the command line asked for.
struct Options {
    var sizeMiB = 20.0
    var runs = 5
    var memoryOnly = false
    var memoryChildPath: String?
    var seed: UInt64 = 1
    var outputPath: String?
    var unicodePercent = 3
    var text = false
    var statuses = 10_000

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(for name: String) -> String {
            guard let next = rest.popFirst() else { fail("option '\(name)' needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--size-mb":
                guard let size = Double(value(for: argument)), size > 0 else {
                    fail("--size-mb needs a positive number")
                }
                options.sizeMiB = size
            case "--runs":
                guard let runs = Int(value(for: argument)), runs > 0 else { fail("--runs needs a positive number") }
                options.runs = runs
            case "--seed":
                guard let seed = UInt64(value(for: argument)) else { fail("--seed needs a whole number") }
                options.seed = seed
            case "--text":
                options.text = true
            case "--statuses":
                guard let count = Int(value(for: argument)), count > 0 else {
                    fail("--statuses needs a positive number")
                }
                options.statuses = count
            case "--memory":
                options.memoryOnly = true
            case "--unicode":
                guard let percent = Int(value(for: argument)), (0...100).contains(percent) else {
                    fail("--unicode needs a percentage from 0 to 100")
                }
                options.unicodePercent = percent
            case "--output":
                options.outputPath = value(for: argument)
            case "--memory-child":
                options.memoryChildPath = value(for: argument)
            case "-h", "--help":
                print(
                    """
                    USAGE: orgsocial-bench [--size-mb N] [--runs N] [--memory] [--seed N] [--unicode P] [--output FILE]
                           orgsocial-bench --text [--statuses N] [--runs N] [--seed N]

                    Generates a synthetic social.org feed and measures parsing, reading bodies and
                    serializing against a newline-counting baseline, plus the peak memory of one parse.
                    With --text: converts generated Mastodon statuses (HTML) to Org, and generated Org
                    posts to Mastodon text with character counting and thread splitting.

                    OPTIONS:
                      --size-mb N   size of the generated feed in MiB (default: 20)
                      --runs N      timed runs per measurement, best one reported (default: 5)
                      --memory      measure only the memory of one parse
                      --seed N      generator seed (default: 1)
                      --unicode P   chance in percent that a body word is non-ASCII (default: 3)
                      --output FILE write the generated feed to FILE and stop
                      --text        benchmark the text converters instead (OrgSocialText)
                      --statuses N  statuses and posts generated for --text (default: 10000)
                      -h, --help    show this help
                    """)
                exit(0)
            default:
                fail("unknown option '\(argument)'")
            }
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Error: \(message)\nSee 'orgsocial-bench --help' for more information.\n".utf8))
    exit(2)
}
