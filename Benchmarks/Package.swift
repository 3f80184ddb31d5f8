// swift-tools-version: 6.1

import PackageDescription

let package = Package(
    name: "TributaryBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(url: "https://github.com/pointfreeco/combine-schedulers.git", from: "1.2.2"),
        .package(name: "Tributary", path: ".."),
        .package(
            url: "https://github.com/ordo-one/benchmark.git",
            from: "1.38.1",
            traits: ["MallocInterposer"]
        ),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Benchmarks/BenchmarkSupport"
        ),
        .executableTarget(
            name: "OperatorBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Tributary", package: "Tributary"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            path: "Benchmarks/OperatorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "BridgeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Tributary", package: "Tributary"),
                .product(name: "TributaryTesting", package: "Tributary"),
            ],
            path: "Benchmarks/BridgeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "HTTPBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Tributary", package: "Tributary"),
                .product(name: "TributaryHTTP", package: "Tributary"),
                .product(name: "TributaryAsyncHTTPClient", package: "Tributary"),
                "BenchmarkSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Benchmarks/HTTPBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StreamBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TributaryStreams", package: "Tributary"),
                .product(name: "Tributary", package: "Tributary"),
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
            ],
            path: "Benchmarks/StreamBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ImageBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TributaryImages", package: "Tributary"),
                .product(name: "TributaryHTTP", package: "Tributary"),
                .product(name: "TributaryAsyncHTTPClient", package: "Tributary"),
                "BenchmarkSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Benchmarks/ImageBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LabBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Tributary", package: "Tributary"),
                .product(name: "TributaryLab", package: "Tributary"),
                .product(name: "TributaryLabClient", package: "Tributary"),
                .product(name: "TributaryLabWire", package: "Tributary"),
                .product(name: "TributaryStreams", package: "Tributary"),
                .product(name: "NewsAPI", package: "Tributary"),
                .product(name: "TributarySandbox", package: "Tributary"),
                .product(name: "TributaryAsyncHTTPClient", package: "Tributary"),
                .product(name: "TributaryHTTP", package: "Tributary"),
                "BenchmarkSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            path: "Benchmarks/LabBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
