/// Separable resampling with a Catmull-Rom kernel widened by the scale factor when shrinking,
/// so that every source pixel contributes (no aliasing), over premultiplied colour.
enum Resampler {
    /// The kernel's weights for every output position along one axis.
    struct Weights {
        /// The first source index each output position reads.
        var starts: [Int]
        /// `taps` weights per output position, normalised to sum to one.
        var weights: [Float]
        var taps: Int

        init(source: Int, target: Int) {
            let scale = Double(source) / Double(target)
            let stretch = max(scale, 1)
            let radius = 2 * stretch
            taps = Int((radius * 2).rounded(.up)) + 1
            starts = []
            weights = []
            starts.reserveCapacity(target)
            weights.reserveCapacity(target * taps)
            for position in 0..<target {
                let center = (Double(position) + 0.5) * scale - 0.5
                var start = Int((center - radius).rounded(.up))
                start = min(max(start, 0), max(source - taps, 0))
                var row = [Double](repeating: 0, count: taps)
                for tap in 0..<taps where start + tap < source {
                    row[tap] = Self.catmullRom((Double(start + tap) - center) / stretch)
                }
                let sum = row.reduce(0, +)
                starts.append(start)
                weights.append(contentsOf: row.map { Float(sum == 0 ? 0 : $0 / sum) })
            }
        }

        static func catmullRom(_ distance: Double) -> Double {
            let x = abs(distance)
            if x < 1 { return 1.5 * x * x * x - 2.5 * x * x + 1 }
            if x < 2 { return -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 }
            return 0
        }
    }

    static func resize(_ bitmap: Bitmap, to size: PixelSize) -> Bitmap {
        let sourceWidth = bitmap.width
        let sourceHeight = bitmap.height
        let horizontal = Weights(source: sourceWidth, target: size.width)
        let vertical = Weights(source: sourceHeight, target: size.height)
        // Horizontal pass: source rows into premultiplied floats, size.width wide.
        let rowLength = size.width * 4
        var intermediate = [Float](repeating: 0, count: rowLength * sourceHeight)
        var premultiplied = [Float](repeating: 0, count: sourceWidth * 4)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            intermediate.withUnsafeMutableBufferPointer { output in
                premultiplied.withUnsafeMutableBufferPointer { line in
                    horizontal.weights.withUnsafeBufferPointer { weights in
                        for y in 0..<sourceHeight {
                            let rowStart = y * sourceWidth * 4
                            for x in 0..<sourceWidth {
                                let offset = rowStart + x * 4
                                let alpha = Float(pixels[offset + 3]) / 255
                                line[x * 4] = Float(pixels[offset]) * alpha
                                line[x * 4 + 1] = Float(pixels[offset + 1]) * alpha
                                line[x * 4 + 2] = Float(pixels[offset + 2]) * alpha
                                line[x * 4 + 3] = Float(pixels[offset + 3])
                            }
                            let outputStart = y * rowLength
                            for x in 0..<size.width {
                                var r: Float = 0
                                var g: Float = 0
                                var b: Float = 0
                                var a: Float = 0
                                let start = horizontal.starts[x]
                                let weightStart = x * horizontal.taps
                                for tap in 0..<horizontal.taps where start + tap < sourceWidth {
                                    let weight = weights[weightStart + tap]
                                    let from = (start + tap) * 4
                                    r += line[from] * weight
                                    g += line[from + 1] * weight
                                    b += line[from + 2] * weight
                                    a += line[from + 3] * weight
                                }
                                let into = outputStart + x * 4
                                output[into] = r
                                output[into + 1] = g
                                output[into + 2] = b
                                output[into + 3] = a
                            }
                        }
                    }
                }
            }
        }
        // Vertical pass, a whole row at a time so that memory is read in order.
        return Bitmap(width: size.width, height: size.height) { target in
            var accumulator = [Float](repeating: 0, count: rowLength)
            intermediate.withUnsafeBufferPointer { input in
                accumulator.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<size.height {
                        for index in 0..<rowLength { sums[index] = 0 }
                        let start = vertical.starts[y]
                        for tap in 0..<vertical.taps where start + tap < sourceHeight {
                            let weight = vertical.weights[y * vertical.taps + tap]
                            if weight == 0 { continue }
                            let from = (start + tap) * rowLength
                            for index in 0..<rowLength { sums[index] += input[from + index] * weight }
                        }
                        let into = y * rowLength
                        for x in 0..<size.width {
                            let offset = x * 4
                            let alpha = min(max(sums[offset + 3], 0), 255)
                            let unpremultiply: Float = alpha > 0 ? 255 / alpha : 0
                            for channel in 0..<3 {
                                let value = sums[offset + channel] * unpremultiply
                                target[into + offset + channel] = UInt8(min(max(value, 0), 255).rounded())
                            }
                            target[into + offset + 3] = UInt8(alpha.rounded())
                        }
                    }
                }
            }
        }
    }
}
