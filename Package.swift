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
        // Every library an app can embed. Each product is one module; SwiftPM links the targets it
        // depends on (the C wrappers, the relay's store and crawler) without exposing them.
        .library(name: "OrgSocial", targets: ["OrgSocial"]),
        .library(name: "OrgSocialClient", targets: ["OrgSocialClient"]),
        .library(name: "OrgSocialText", targets: ["OrgSocialText"]),
        .library(name: "OrgSocialHTML", targets: ["OrgSocialHTML"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "HTTPClient", targets: ["HTTPClient"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "TootClient", targets: ["TootClient"]),
        .library(name: "Bridge", targets: ["Bridge"]),
        .library(name: "FeedHosting", targets: ["FeedHosting"]),
        .library(name: "Relay", targets: ["Relay"]),
        .executable(name: "orgsocial", targets: ["orgsocial"]),
        .executable(name: "orgsocial-bench", targets: ["orgsocial-bench"]),
        // The engine the official apps run through ORG_SOCIAL_ENGINE (`orgsocial engine` runs the same).
        .executable(name: "orgsocial-engine", targets: ["orgsocial-engine"]),
    ],
    targets: [
        // Pure model, lossless parser/serializer, editor, composers and validator. Foundation only, no I/O.
        .target(name: "OrgSocial", swiftSettings: strictSettings),
        // Text conversion between Org and the web (mastodon-api.md §1.9, §4): Org to HTML (RSS descriptions,
        // the feed page's post bodies), HTML to Org (others' Mastodon statuses), Org to Mastodon plain text,
        // Mastodon's character counting and thread splitting. Pure: OrgSocial and Foundation only.
        .target(name: "OrgSocialText", dependencies: ["OrgSocial"], swiftSettings: strictSettings),
        .testTarget(
            name: "OrgSocialTextTests", dependencies: ["OrgSocialText", "OrgSocial", "TestSupport"],
            swiftSettings: strictSettings),
        // The feed's web page with its stylesheet (post bodies through OrgSocialText's Org-to-HTML converter).
        .target(name: "OrgSocialHTML", dependencies: ["OrgSocial", "OrgSocialText"], swiftSettings: strictSettings),
        .testTarget(
            name: "OrgSocialHTMLTests", dependencies: ["OrgSocialHTML", "OrgSocial", "TestSupport"],
            swiftSettings: strictSettings),
        // Every CLI subcommand, as a library so tests can run commands in process.
        .target(
            name: "OrgSocialCLI",
            dependencies: [
                "OrgSocial", "FeedHosting", "OrgSocialClient", "HTTPClient", "Crypto", "Relay", "RelayCore", "HTTPCore",
                "HTTPServer",
                "SystemSupport", "OrgSocialHTML", "OrgSocialText", "Bridge", "TootClient", "Metrics", "Engine",
            ],
            swiftSettings: strictSettings
        ),
        // The official apps' client-core protocol: JSON-RPC 2.0 over lines (values, params, errors and their
        // kinds, requests run concurrently, writes one at a time in order). No Org Social knowledge.
        .target(name: "EngineProtocol", dependencies: ["HTTPCore"], swiftSettings: strictSettings),
        // The engine's methods over the libraries: the own feed's write cycle (local file, destinations,
        // WriteAnnouncer), the mirror's reads, the protocol's post and profile JSON.
        .target(
            name: "Engine",
            dependencies: ["EngineProtocol", "OrgSocial", "OrgSocialClient", "HTTPClient", "HTTPCore"],
            swiftSettings: strictSettings),
        .executableTarget(name: "orgsocial-engine", dependencies: ["Engine"], swiftSettings: strictSettings),
        .testTarget(
            name: "EngineTests",
            dependencies: [
                "Engine", "EngineProtocol", "OrgSocial", "HTTPCore", "HTTPServer", "Crypto", "TestSupport",
            ],
            swiftSettings: strictSettings),
        // The `orgsocial` binary: one entry point that hands over to OrgSocialCLI.
        .executableTarget(name: "orgsocial", dependencies: ["OrgSocialCLI", "Engine"], swiftSettings: strictSettings),
        // Parser/serializer benchmark, and with --text the text converters' (run it in release mode).
        .executableTarget(
            name: "orgsocial-bench", dependencies: ["OrgSocial", "OrgSocialText"], swiftSettings: strictSettings),
        .executableTarget(
            name: "timeline-example", dependencies: ["OrgSocialClient", "OrgSocial"], path: "Examples/Timeline",
            swiftSettings: strictSettings),
        .testTarget(
            name: "OrgSocialTests",
            dependencies: ["OrgSocial", "TestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OrgSocialCLITests",
            dependencies: [
                "OrgSocialCLI", "OrgSocial", "OrgSocialClient", "HTTPClient", "HTTPCore", "HTTPServer", "TestSupport",
                "SystemSupport", "Bridge", "FakeMastodon", "TootClient", "Relay",
                // `--mirror` reads are checked against our relay's mirror API in process.
                "RelayServer", "RelayCore", "RelayStore", "RelayTestFixtures",
            ],
            swiftSettings: strictSettings),
        // libmicrohttpd, as a C module: a modulemap and a shim.h. Only HTTPServer imports it.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // Pure HTTP types, for server and client: request, response, headers, status, responder, router, JSONValue.
        .target(name: "HTTPCore", swiftSettings: strictSettings),
        // HTTP server: the libmicrohttpd adapter that serves an HTTPCore responder.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "HTTPCore"], swiftSettings: strictSettings),
        // Counters, gauges and histograms with labels, rendered in Prometheus's text format, and the
        // responder of a `GET /metrics` listener. Pure Swift: HTTPCore and Synchronization only.
        .target(name: "Metrics", dependencies: ["HTTPCore"], swiftSettings: strictSettings),
        .testTarget(
            name: "MetricsTests", dependencies: ["Metrics", "HTTPCore", "HTTPServer", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"], swiftSettings: strictSettings),
        // Atomic file replacement and reading, file status, SIGINT/SIGTERM as an AsyncStream. Foundation and libc only.
        .target(name: "SystemSupport", swiftSettings: strictSettings),
        // OpenSSL 3 libcrypto, as a C module. Only Crypto imports it.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // SHA-256, HMAC-SHA-256, secure random bytes and constant-time comparison over libcrypto.
        .target(name: "Crypto", dependencies: ["CLibCrypto"], swiftSettings: strictSettings),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPCore", "Crypto", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // The one test-support target every test target uses: temporary folders, `eventually`, gates and
        // counters, servers scoped to a test (`withServer { }`), the shared corpus, a raw HTTP/1.1 socket
        // client on 127.0.0.1, a raw HTTP server whose answers a test scripts byte by byte, the process's CPU
        // time, spawned server binaries, and the fake feed server, relay and farm that the client and CLI
        // tests share.
        .target(
            name: "TestSupport",
            dependencies: [
                "OrgSocial", "OrgSocialClient", "HTTPClient", "HTTPCore", "HTTPServer", "Crypto", "PostgresStore",
            ],
            path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"], swiftSettings: strictSettings),
        // zlib, as a C module. Only Gzip imports it.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // gzip compression and decompression over zlib.
        .target(name: "Gzip", dependencies: ["CZlib"], swiftSettings: strictSettings),
        // The `orgsocial serve` node: feed hosting with conditional GET, safe PUT and the Org Social Host API.
        .target(
            name: "FeedHosting",
            dependencies: [
                "OrgSocial", "HTTPCore", "HTTPServer", "Crypto", "Gzip", "SystemSupport", "OrgSocialHTML", "Metrics",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "GzipTests", dependencies: ["Gzip"], swiftSettings: strictSettings),
        .testTarget(
            name: "FeedHostingTests",
            dependencies: [
                "FeedHosting", "HTTPCore", "Crypto", "Gzip", "OrgSocial", "TestSupport", "OrgSocialHTML",
                "OrgSocialText",
            ],
            swiftSettings: strictSettings
        ),
        // libcurl, as a C module: a modulemap and a shim.h. Only CurlHTTP imports it.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // HTTP client transfers over libcurl's multi interface: one polling thread, decoded-byte caps.
        .target(name: "CurlHTTP", dependencies: ["CCurl"], swiftSettings: strictSettings),
        // The client layer: publishing (PUT with If-Match, the Org Social Host API), reading, PostWriter.
        .target(
            name: "OrgSocialClient", dependencies: ["OrgSocial", "HTTPCore", "HTTPClient", "SystemSupport", "Crypto"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "OrgSocialClientTests",
            dependencies: [
                "OrgSocialClient", "HTTPClient", "OrgSocial", "HTTPCore", "HTTPServer", "Crypto", "Gzip", "TestSupport",
                // The notification stream's tests run against our relay in process.
                "RelayServer", "RelayStore", "RelayCore", "RelayTestFixtures",
            ],
            swiftSettings: strictSettings
        ),
        // End-to-end publishing against the real node (FeedHosting): concurrency, 412/401/422, the Host API.
        .testTarget(
            name: "PublishingTests",
            dependencies: [
                "OrgSocialClient", "HTTPClient", "OrgSocial", "FeedHosting", "HTTPCore", "HTTPServer", "OrgSocialCLI",
                "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        // --- The Mastodon API: the HTTP transport, TootClient and the fake Mastodon server. ---
        // The HTTP transport both clients use: the request/response values, the transport protocol, the curl
        // transport and the multipart encoder.
        .target(name: "HTTPClient", dependencies: ["HTTPCore", "CurlHTTP"], swiftSettings: strictSettings),
        .testTarget(
            name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPCore", "HTTPServer", "Gzip", "TestSupport"],
            swiftSettings: strictSettings),
        // Our Mastodon-API client: platforms from nodeinfo, discovery, OAuth with PKCE, the calls a bridge
        // needs, paging, rate limits. Not the Org model.
        .target(
            name: "TootClient", dependencies: ["HTTPClient", "HTTPCore", "HTTPServer", "Crypto"],
            swiftSettings: strictSettings),
        // The fake Mastodon server the TootClient tests (and later the bridge's) run against, with presets.
        .target(
            name: "FakeMastodon", dependencies: ["HTTPCore", "HTTPServer", "Crypto", "TootClient"],
            path: "Tests/FakeMastodon",
            swiftSettings: strictSettings),
        .testTarget(
            name: "TootClientTests",
            dependencies: ["TootClient", "FakeMastodon", "HTTPClient", "HTTPCore", "OrgSocialText"],
            resources: [.copy("Fixtures")], swiftSettings: strictSettings),
        // The TootClient example of docs/library.md: discover, authorize, post, page through the statuses.
        .executableTarget(
            name: "tootclient-example", dependencies: ["TootClient"], path: "Examples/TootClientTour",
            swiftSettings: strictSettings),
        // --- end of the Mastodon API block. ---
        // --- The Mastodon bridge. ---
        // The bridge's state (accounts, post ↔ status mappings, cursors, runs) in SQLite, and the run lock.
        .target(
            name: "Bridge",
            dependencies: [
                "TootClient", "SQLiteStore", "OrgSocial", "OrgSocialText", "OrgSocialClient", "HTTPClient", "HTTPCore",
                "Crypto", "SystemSupport", "Metrics",
            ], swiftSettings: strictSettings),
        .testTarget(
            name: "BridgeTests",
            dependencies: [
                "Bridge", "TootClient", "SQLiteStore", "TestSupport", "FakeMastodon", "FeedHosting", "OrgSocial",
                "OrgSocialClient", "OrgSocialText", "HTTPClient", "HTTPCore", "Metrics",
            ],
            swiftSettings: strictSettings),
        // What the bridge costs against the fake Mastodon server and an in-process node: a push of 100 posts, a
        // first pull, a sync with nothing new. Run it in release mode.
        .executableTarget(
            name: "bridge-bench",
            dependencies: [
                "Bridge", "FakeMastodon", "FeedHosting", "TootClient", "HTTPClient", "OrgSocialClient", "OrgSocial",
                "TestSupport",
            ],
            swiftSettings: strictSettings),
        // --- end of the bridge block. ---
        // libsqlite3, as a C module: a modulemap and a shim.h. Only SQLiteStore imports it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // SQLite wrapper: connection, statements, transactions, migrations, and the Database actor.
        .target(name: "SQLiteStore", dependencies: ["CSQLite", "SystemSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "TestSupport"], swiftSettings: strictSettings),
        // The relay's shared vocabulary: the storage protocols, the typed rows the read model answers with,
        // notifications and reports.
        .target(name: "RelayCore", dependencies: ["OrgSocial"], swiftSettings: strictSettings),
        // The relay's storage logic written once for both engines, against a small SQL-session protocol, with
        // each engine's differences in one dialect type (so far: meta, the notification log, pending mentions
        // and the Webmention queue).
        .target(
            name: "RelaySQLStore", dependencies: ["RelayCore", "OrgSocial", "Gzip"], swiftSettings: strictSettings),
        // The relay's SQLite index: schema, incremental indexer and the read model's typed queries.
        .target(
            name: "RelayStore", dependencies: ["RelayCore", "RelaySQLStore", "OrgSocial", "SQLiteStore"],
            swiftSettings: strictSettings
        ),
        // The relay's crawler: conditional fetches, back-off, SSRF guard, follows and peer discovery, registration.
        .target(
            name: "RelayCrawler",
            dependencies: ["RelayCore", "OrgSocial", "OrgSocialClient", "HTTPClient", "Metrics"],
            swiftSettings: strictSettings
        ),
        // The relay's HTTP API: the URL table, parameter validation, status codes and the envelope (rows to
        // JSON), caching headers and 304s, SSE, RSS.
        .target(
            name: "RelayServer",
            dependencies: ["RelayCore", "HTTPCore", "Crypto", "SystemSupport", "OrgSocialText", "Metrics"],
            swiftSettings: strictSettings
        ),
        // The relay's bridges (relay-api.md §2.20): ActivityPub accounts and RSS/Atom/JSON feeds as virtual
        // social.org files, fetched behind the crawler's SSRF guard, converted with OrgSocialText.
        .target(
            name: "RelayBridges",
            dependencies: [
                "RelayCore", "RelayCrawler", "OrgSocialText", "OrgSocial", "OrgSocialClient", "HTTPClient", "HTTPCore",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RelayBridgesTests",
            dependencies: [
                "RelayBridges", "RelayCore", "RelayStore", "RelayServer", "RelayCrawler", "OrgSocial", "OrgSocialText",
                "HTTPCore",
                "HTTPServer", "RelayTestFixtures", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        // The relay as one service: store + crawler + API wired together (what `orgsocial relay serve` runs).
        .target(
            name: "Relay",
            dependencies: [
                "RelayCore", "RelayStore", "RelayPostgresStore", "RelaySQLStore", "PostgresStore", "SQLiteStore",
                "RelayCrawler",
                "RelayServer", "RelayBridges", "OrgSocialClient", "HTTPClient", "HTTPCore", "HTTPServer",
                "SystemSupport", "Metrics",
            ],
            swiftSettings: strictSettings
        ),
        // The relay's fixture feeds (alice, bob, carol, dave) shared by the relay test targets, and a
        // temporary database loaded with them.
        .target(
            name: "RelayTestFixtures",
            dependencies: [
                "RelayStore", "RelayPostgresStore", "PostgresStore", "RelayCore", "OrgSocial", "TestSupport",
            ],
            path: "Tests/RelayTestFixtures", swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RelayStoreTests",
            dependencies: [
                "RelayStore", "RelaySQLStore", "RelayCore", "OrgSocial", "SQLiteStore", "RelayTestFixtures",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RelayCrawlerTests",
            dependencies: [
                "RelayCrawler", "RelayCore", "RelayStore", "RelayServer", "OrgSocial", "OrgSocialClient", "HTTPClient",
                "HTTPCore",
                "HTTPServer", "FeedHosting", "RelayTestFixtures", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RelayServerTests",
            dependencies: [
                "RelayServer", "RelayCore", "RelayStore", "HTTPCore", "HTTPServer", "OrgSocial", "RelayTestFixtures",
                "TestSupport", "Metrics",
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        // End to end: fixture feeds served by `orgsocial serve`, registered, scanned, every endpoint checked.
        .testTarget(
            name: "RelayTests",
            dependencies: [
                "Relay", "RelayCore", "RelayStore", "RelayCrawler", "RelayServer", "OrgSocial", "OrgSocialClient",
                "HTTPClient",
                "HTTPCore", "HTTPServer", "FeedHosting", "OrgSocialCLI", "RelayTestFixtures", "TestSupport",
                "PostgresStore", "RelaySQLStore", "Metrics",
            ],
            swiftSettings: strictSettings
        ),
        // libpq (PostgreSQL's client library), as a C module: a modulemap and a shim.h. Only PostgresStore
        // imports it.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // PostgreSQL wrapper: URL, connection, typed prepared statements (text protocol), transactions with
        // savepoints, SQLSTATE errors, a bounded connection pool, and LISTEN/NOTIFY as an async sequence.
        .target(name: "PostgresStore", dependencies: ["CLibPQ", "SystemSupport"], swiftSettings: strictSettings),
        // Run against the throwaway cluster scripts/test starts (ORGSOCIAL_TEST_POSTGRES_URL); skipped without it.
        .testTarget(
            name: "PostgresStoreTests", dependencies: ["PostgresStore", "TestSupport"], swiftSettings: strictSettings),
        // The relay's PostgreSQL schema: the same named migrations as the SQLite store, in PostgreSQL's dialect.
        .target(
            name: "RelayPostgresStore", dependencies: ["PostgresStore", "RelayCore", "RelaySQLStore", "OrgSocial"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "RelayPostgresStoreTests",
            dependencies: [
                "RelayPostgresStore", "PostgresStore", "RelayStore", "SQLiteStore", "RelayCore", "RelayTestFixtures",
                "TestSupport",
            ],
            swiftSettings: strictSettings),
    ]
)
