// swift-tools-version: 6.1

import PackageDescription

// Lanes exported by swift-otel over OTLP/HTTP to a receiver on loopback: a package of its own,
// so that building Tributary does not build an OpenTelemetry SDK. `.ci/run` runs it:
//     swift test --package-path Tests/OpenTelemetry
let package = Package(
    name: "TributaryOpenTelemetry",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tributary", path: "../.."),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .testTarget(
            name: "OTLPExportTests",
            dependencies: [
                .product(name: "Tributary", package: "Tributary"),
                .product(name: "TributaryTracing", package: "Tributary"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ]
)
