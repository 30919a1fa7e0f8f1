// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features every target opts into (see docs/STYLE.md, house rule 3).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "orgsocial",
    products: [
        .library(name: "OrgSocial", targets: ["OrgSocial"]),
        .executable(name: "orgsocial", targets: ["orgsocial"]),
        .executable(name: "orgsocial-bench", targets: ["orgsocial-bench"]),
    ],
    targets: [
        // Pure model, lossless parser/serializer, editor, composers and validator. Foundation only, no I/O.
        .target(name: "OrgSocial", swiftSettings: strictSettings),
        // Every CLI subcommand, as a library so tests can run commands in process.
        .target(name: "OrgSocialCLI", dependencies: ["OrgSocial"], swiftSettings: strictSettings),
        // The `orgsocial` binary: one entry point that hands over to OrgSocialCLI.
        .executableTarget(name: "orgsocial", dependencies: ["OrgSocialCLI"], swiftSettings: strictSettings),
        // Parser/serializer benchmark (run it in release mode).
        .executableTarget(name: "orgsocial-bench", dependencies: ["OrgSocial"], swiftSettings: strictSettings),
        .testTarget(
            name: "OrgSocialTests",
            dependencies: ["OrgSocial"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "OrgSocialCLITests", dependencies: ["OrgSocialCLI", "OrgSocial"], swiftSettings: strictSettings),
    ]
)
