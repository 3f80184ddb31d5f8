import Foundation

extension Data {
    /// A copy with up to `maximumChanges` bytes after the first two replaced at random, cut
    /// short at a random point half of the time.
    func randomlyDamaged(maximumChanges: Int, using random: inout some RandomNumberGenerator) -> Data {
        var data = self
        for _ in 0..<Int.random(in: 1...maximumChanges, using: &random) {
            data[data.startIndex + Int.random(in: 2..<data.count, using: &random)] = UInt8.random(
                in: 0...255,
                using: &random
            )
        }
        if Bool.random(using: &random) {
            data = data.prefix(Int.random(in: 3..<data.count, using: &random))
        }
        return data
    }
}
