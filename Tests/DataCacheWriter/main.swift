// Writes entries into a DataCache as fast as it can until it is killed: the other half of
// the crash-safety test in TributaryImagesTests. Each entry is "KEY|SHA256(BODY)\n" + BODY, so
// the test can tell a whole entry from a damaged one. After each flush it prints "flushed", so
// the test can kill it once entries are on the disk. Usage: DataCacheWriter DIRECTORY SEED
import Crypto
import Foundation
import TributaryImages

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: DataCacheWriter DIRECTORY SEED\n".utf8))
    exit(2)
}
let cache = try DataCache(directory: URL(fileURLWithPath: arguments[1]), sizeLimit: 8 << 20)
var state = seed | 1
var round = 0
while true {
    round += 1
    let key = "entry-\(round % 40)"
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let body = Data(
        (0..<(4_096 + Int(state >> 40) % 200_000)).map {
            UInt8(truncatingIfNeeded: $0 &* Int(state >> 56 | 1))
        }
    )
    let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
    cache.storeData(Data("\(key)|\(digest)\n".utf8) + body, for: key)
    if round % 16 == 0 {
        cache.flush()
        FileHandle.standardOutput.write(Data("flushed\n".utf8))
    }
}
