/// Separable resampling with a Catmull-Rom kernel widened by the scale factor when shrinking,
/// so that every source pixel contributes (no aliasing), over premultiplied colour.
///
/// Each pixel is one `SIMD4<Float>` (red, green, blue, alpha) through both passes, so the
/// four channels are weighed in one vector operation.
enum Resampler {
    typealias Vector = SIMD4<Float>

    /// The kernel's weights for the output positions of one axis that are computed.
    struct Weights {
        /// The first source index each output position reads.
        var starts: [Int]
        /// How many source pixels each output position reads (`taps`, fewer at a short edge).
        var counts: [Int]
        /// `taps` weights per output position, normalised to sum to one.
        var weights: [Float]
        var taps: Int

        /// Weights for the positions in `window` of a `target`-long axis scaled from `source`.
        init(source: Int, target: Int, window: Range<Int>) {
            let scale = Double(source) / Double(target)
            let stretch = max(scale, 1)
            let radius = 2 * stretch
            taps = Int((radius * 2).rounded(.up)) + 1
            starts = []
            counts = []
            weights = []
            starts.reserveCapacity(window.count)
            counts.reserveCapacity(window.count)
            weights.reserveCapacity(window.count * taps)
            for position in window {
                let center = (Double(position) + 0.5) * scale - 0.5
                var start = Int((center - radius).rounded(.up))
                start = min(max(start, 0), max(source - taps, 0))
                let count = min(taps, source - start)
                var row = [Double](repeating: 0, count: taps)
                for tap in 0..<count {
                    row[tap] = Self.catmullRom((Double(start + tap) - center) / stretch)
                }
                let sum = row.reduce(0, +)
                starts.append(start)
                counts.append(count)
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

    /// The part of `bitmap` scaled to `scaled` that lies in `columns` and `rows`: the same pixels
    /// as scaling it whole and cropping, at the cost of the part alone.
    static func resize(
        _ bitmap: Bitmap,
        to scaled: PixelSize,
        columns: Range<Int>,
        rows: Range<Int>
    ) -> Bitmap {
        let size = PixelSize(width: columns.count, height: rows.count)
        let horizontal = Weights(source: bitmap.width, target: scaled.width, window: columns)
        let vertical = Weights(source: bitmap.height, target: scaled.height, window: rows)
        // The source rows the kept output rows read; starts only grow along an axis.
        let firstRow = vertical.starts.first ?? 0
        let sourceRows = firstRow..<max(zip(vertical.starts, vertical.counts).map(+).max() ?? 0, firstRow)
        // Horizontal pass: each of those rows, premultiplied, into a row size.width wide.
        var intermediate = [Vector](repeating: .zero, count: size.width * sourceRows.count)
        var line = [Vector](repeating: .zero, count: bitmap.width)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            intermediate.withUnsafeMutableBufferPointer { output in
                line.withUnsafeMutableBufferPointer { line in
                    for y in sourceRows {
                        premultiply(row: y, of: pixels, width: bitmap.width, into: line)
                        let row = y - firstRow
                        let outputRow = UnsafeMutableBufferPointer(
                            rebasing: output[(row * size.width)..<((row + 1) * size.width)]
                        )
                        horizontal.apply(to: UnsafeBufferPointer(line), into: outputRow)
                    }
                }
            }
        }
        // Vertical pass, a whole row at a time so that memory is read in order.
        return Bitmap(width: size.width, height: size.height) { target in
            var sums = [Vector](repeating: .zero, count: size.width)
            intermediate.withUnsafeBufferPointer { input in
                sums.withUnsafeMutableBufferPointer { sums in
                    vertical.weights.withUnsafeBufferPointer { weights in
                        for y in 0..<size.height {
                            for x in 0..<size.width { sums[x] = .zero }
                            let start = vertical.starts[y] - firstRow
                            for tap in 0..<vertical.counts[y] {
                                let weight = weights[y * vertical.taps + tap]
                                if weight == 0 { continue }
                                let from = (start + tap) * size.width
                                for x in 0..<size.width { sums[x] += input[from + x] * weight }
                            }
                            unpremultiply(UnsafeBufferPointer(sums), into: target, row: y)
                        }
                    }
                }
            }
        }
    }

    /// Row `y` of `pixels` as premultiplied vectors, the colour channels scaled by alpha / 255.
    private static func premultiply(
        row y: Int,
        of pixels: UnsafeBufferPointer<UInt8>,
        width: Int,
        into line: UnsafeMutableBufferPointer<Vector>
    ) {
        let bytes = UnsafeRawPointer(pixels.baseAddress!) + y * width * 4
        for x in 0..<width {
            let pixel = Vector(bytes.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
            let alpha = pixel.w * (1 / 255)
            line[x] = pixel * Vector(alpha, alpha, alpha, 1)
        }
    }

    /// Writes one row of premultiplied sums to `target` as 8-bit straight-alpha pixels.
    private static func unpremultiply(
        _ sums: UnsafeBufferPointer<Vector>,
        into target: UnsafeMutableBufferPointer<UInt8>,
        row y: Int
    ) {
        let into = y * sums.count * 4
        for x in 0..<sums.count {
            let sum = sums[x]
            let alpha = min(max(sum.w, 0), 255)
            let unpremultiply: Float = alpha > 0 ? 255 / alpha : 0
            var pixel = sum * Vector(unpremultiply, unpremultiply, unpremultiply, 0)
            pixel.w = alpha
            pixel = pixel.clamped(lowerBound: .zero, upperBound: Vector(repeating: 255))
                .rounded(.toNearestOrAwayFromZero)
            let offset = into + x * 4
            target[offset] = UInt8(pixel.x)
            target[offset + 1] = UInt8(pixel.y)
            target[offset + 2] = UInt8(pixel.z)
            target[offset + 3] = UInt8(pixel.w)
        }
    }
}

extension Resampler.Weights {
    /// Weighs `line` into `output`, one output pixel per position of this axis.
    fileprivate func apply(
        to line: UnsafeBufferPointer<Resampler.Vector>,
        into output: UnsafeMutableBufferPointer<Resampler.Vector>
    ) {
        weights.withUnsafeBufferPointer { weights in
            starts.withUnsafeBufferPointer { starts in
                counts.withUnsafeBufferPointer { counts in
                    for x in 0..<output.count {
                        output[x] = Self.weigh(
                            line.baseAddress! + starts[x],
                            weights.baseAddress! + x * taps,
                            count: counts[x]
                        )
                    }
                }
            }
        }
    }

    /// The sum of `count` pixels times their weights, in four independent running sums so that
    /// the additions need not wait on each other.
    private static func weigh(
        _ pixels: UnsafePointer<Resampler.Vector>,
        _ weights: UnsafePointer<Float>,
        count: Int
    ) -> Resampler.Vector {
        var first = Resampler.Vector.zero
        var second = Resampler.Vector.zero
        var third = Resampler.Vector.zero
        var fourth = Resampler.Vector.zero
        var tap = 0
        while tap + 4 <= count {
            first += pixels[tap] * weights[tap]
            second += pixels[tap + 1] * weights[tap + 1]
            third += pixels[tap + 2] * weights[tap + 2]
            fourth += pixels[tap + 3] * weights[tap + 3]
            tap += 4
        }
        while tap < count {
            first += pixels[tap] * weights[tap]
            tap += 1
        }
        return (first + second) + (third + fourth)
    }
}
