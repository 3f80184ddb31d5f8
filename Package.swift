// swift-tools-version: 6.1

import PackageDescription

/// Applied to every target: the upcoming-feature set the whole package is written against.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let nonApple: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

/// OpenCombine supplies Combine where Apple's is absent.
let openCombine: [Target.Dependency] = [
    .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApple)),
    .product(name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(platforms: nonApple)),
    .product(name: "OpenCombineFoundation", package: "OpenCombine", condition: .when(platforms: nonApple)),
]

let package = Package(
    name: "Tributary",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Tributary", targets: ["Tributary"]),
        .library(name: "TributaryHTTP", targets: ["TributaryHTTP"]),
        .library(name: "TributaryAsyncHTTPClient", targets: ["TributaryAsyncHTTPClient"]),
        .library(name: "TributaryHTTPTesting", targets: ["TributaryHTTPTesting"]),
        .library(name: "TributaryTesting", targets: ["TributaryTesting"]),
        .library(name: "TributaryStreams", targets: ["TributaryStreams"]),
        .library(name: "TributaryImages", targets: ["TributaryImages"]),
        .library(name: "NewsAPI", targets: ["NewsAPI"]),
        .library(name: "TributaryFeeds", targets: ["TributaryFeeds"]),
        .library(name: "TributarySandbox", targets: ["TributarySandbox"]),
        .library(name: "HackerNews", targets: ["HackerNews"]),
        .library(name: "TMDb", targets: ["TMDb"]),
        .library(name: "TributaryLab", targets: ["TributaryLab"]),
        .library(name: "TributaryLabClient", targets: ["TributaryLabClient"]),
        .library(name: "TributaryLabWire", targets: ["TributaryLabWire"]),
        .library(name: "TributaryTracing", targets: ["TributaryTracing"]),
        .executable(name: "tributary", targets: ["TributaryCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/pointfreeco/combine-schedulers.git", from: "1.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // `swift package generate-documentation`: each library's DocC catalog, built in CI with
        // warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Tributary",
            dependencies: openCombine + [.product(name: "DequeModule", package: "swift-collections")]
        ),
        // Lanes as spans of swift-distributed-tracing, in a product of their own, so that an app
        // that does not trace does not depend on it.
        .target(
            name: "TributaryTracing",
            dependencies: ["Tributary", .product(name: "Tracing", package: "swift-distributed-tracing")]
        ),
        .testTarget(
            name: "TributaryTracingTests",
            dependencies: [
                "Tributary",
                "TributaryTracing",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "TributaryHTTP",
            dependencies: [
                "Tributary",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "TributaryHTML"),
        .testTarget(name: "TributaryHTMLTests", dependencies: ["TributaryHTML"]),
        .target(
            name: "TributaryAsyncHTTPClient",
            dependencies: [
                "Tributary",
                "TributaryHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(name: "TributaryHTTPTesting", dependencies: ["Tributary", "TributaryHTTP"]),
        .target(
            name: "TributaryStreams",
            dependencies: [
                "Tributary",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "TributaryTesting",
            dependencies: [
                "Tributary",
                "TributaryStreams",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
            ]
        ),
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .target(name: "CImageCodecs", dependencies: ["CJPEG", "CPNG"]),
        .target(
            name: "TributaryImages",
            dependencies: [
                "Tributary",
                "TributaryHTTP",
                .target(name: "CImageCodecs", condition: .when(platforms: nonApple)),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "TributaryFeeds",
            dependencies: ["Tributary", "TributaryHTML", "TributaryHTTP"],
            // iconv is in the C library on Linux, in libiconv on Apple platforms.
            linkerSettings: [
                .linkedLibrary(
                    "iconv",
                    .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])
                )
            ]
        ),
        .target(
            name: "NewsAPI",
            dependencies: [
                "Tributary",
                "TributaryFeeds",
                "TributaryHTTP",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "HackerNews",
            dependencies: [
                "TributaryHTML",
                "Tributary",
                "TributaryHTTP",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "TMDb",
            dependencies: [
                "Tributary",
                "TributaryHTTP",
                "TributaryImages",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(name: "TributaryLabWire", dependencies: ["Tributary", "TributaryStreams"]),
        .target(
            name: "TributaryLab",
            dependencies: [
                "TributaryHTML",
                .product(name: "Crypto", package: "swift-crypto"),
                "TributaryFeeds",
                "Tributary",
                "TributaryStreams",
                "TributaryLabWire",
                .product(name: "DequeModule", package: "swift-collections"),
                "NewsAPI",
                "TributaryHTTP",
                "TributaryImages",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Web"), .copy("Examples")]
        ),
        .target(
            name: "TributaryLabClient",
            dependencies: [
                "Tributary",
                "TributaryHTTP",
                "TributaryStreams",
                "TributaryLabWire",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TributarySandbox",
            dependencies: [
                "TributaryHTML",
                "NewsAPI",
                "Tributary",
                "TributaryHTTP",
                "TributaryImages",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "TributaryCLI",
            dependencies: [
                "TributaryFeeds",
                "HackerNews",
                "TMDb",
                "TributaryLab",
                "TributaryLabClient",
                "TributaryLabWire",
                "NewsAPI",
                "TributarySandbox",
                "Tributary",
                "TributaryAsyncHTTPClient",
                "TributaryHTTP",
                "TributaryImages",
                "TributaryStreams",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "TributaryTestSupport",
            dependencies: [
                "Tributary",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/TributaryTestSupport"
        ),
        .testTarget(
            name: "TributaryLabWireTests",
            dependencies: ["Tributary", "TributaryLabWire", "TributaryStreams", "TributaryTestSupport"]
        ),
        .testTarget(
            name: "TributaryCLITests",
            dependencies: [
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "HackerNews",
                "TMDb",
                "TributaryLab",
                "TributaryLabWire",
                "NewsAPI",
                "TributarySandbox",
                "TributaryCLI",
                "TributaryStreams",
                "TributaryTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "DataCacheWriter",
            dependencies: ["TributaryImages", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/DataCacheWriter"
        ),
        .testTarget(
            name: "TributaryImagesTests",
            dependencies: [
                .target(name: "CJPEG", condition: .when(platforms: nonApple)),
                "DataCacheWriter",
                "Tributary",
                "TributaryHTTP",
                "TributaryImages",
                "TributaryTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TributaryTests",
            dependencies: [
                "Tributary",
                "TributaryTestSupport",
                "TributaryTesting",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "TributaryTestingTests",
            dependencies: [
                "Tributary",
                "TributaryTesting",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
            ]
        ),
        .testTarget(
            name: "TributaryStreamsTests",
            dependencies: [
                "TributaryStreams",
                "Tributary",
                "TributaryTestSupport",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TributaryFeedsTests",
            dependencies: [
                "TributarySandbox", "Tributary", "TributaryFeeds", "TributaryHTML", "TributaryTestSupport",
            ]
        ),
        .testTarget(
            name: "NewsAPITests",
            dependencies: [
                "TributaryFeeds",
                "NewsAPI",
                "TributarySandbox",
                "TributaryAsyncHTTPClient",
                "Tributary",
                "TributaryHTTP",
                "TributaryHTTPTesting",
                "TributaryTestSupport",
                "TributaryTesting",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HackerNewsTests",
            dependencies: [
                "HackerNews",
                "TributaryHTML",
                "TributarySandbox",
                "Tributary",
                "TributaryAsyncHTTPClient",
                "TributaryHTTP",
                "TributaryTestSupport",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "TMDbTests",
            dependencies: [
                "TributarySandbox",
                "TMDb",
                "Tributary",
                "TributaryAsyncHTTPClient",
                "TributaryHTTP",
                "TributaryImages",
                "TributaryTestSupport",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "TributaryLabTests",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                "TributaryLab",
                "TributarySandbox",
                "TributaryImages",
                "TributaryLabClient",
                "Tributary",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                "TributaryStreams",
                "TributaryAsyncHTTPClient",
                "TributaryHTTP",
                "TributaryTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "TributarySandboxTests",
            dependencies: [
                "NewsAPI",
                "TributarySandbox",
                "TributaryAsyncHTTPClient",
                "TributaryFeeds",
                "TributaryHTTP",
                "TributaryImages",
                "TributaryTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "TributaryHTTPTests",
            dependencies: [
                "TributaryHTTP",
                "TributaryAsyncHTTPClient",
                "TributaryHTTPTesting",
                "TributaryTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
