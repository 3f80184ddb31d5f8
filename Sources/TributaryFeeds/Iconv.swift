import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's iconv, for the encodings feeds declare that neither the WHATWG standard nor
/// Foundation decodes here: DOS and EBCDIC code pages, the Mac encodings, KOI8-T, and EUC-JP
/// where Foundation lacks it.
enum Iconv {
    /// What iconv calls encodings that feeds name otherwise (by Python's names, mostly).
    private static let aliases: [String: String] = [
        "macroman": "MACINTOSH", "maccentraleurope": "MAC-CENTRALEUROPE", "maclatin2": "MAC-CENTRALEUROPE",
        "maciceland": "MAC-IS", "cp-is": "CP861", "csibm861": "IBM861", "ibm039": "IBM037",
        "maccyrillic": "MAC-CYRILLIC",
    ]

    /// The name iconv knows `label` by, if it decodes it.
    static func name(for label: String) -> String? {
        let key = label.lowercased().replacingOccurrences(of: "_", with: "-")
        for candidate in [aliases[key], key].compactMap(\.self) {
            guard let descriptor = open(candidate) else { continue }
            iconv_close(descriptor)
            return candidate
        }
        return nil
    }

    private static func open(_ name: String) -> iconv_t? {
        guard let descriptor = iconv_open("UTF-8", name), descriptor != iconv_t(bitPattern: -1) else {
            return nil
        }
        return descriptor
    }

    /// `bytes`, in the encoding iconv calls `name`, as UTF-8; or, where they are not valid in
    /// it, the offset of the first byte that is not.
    static func decode(_ bytes: [UInt8], from name: String) -> Result<[UInt8], InvalidInput> {
        guard let descriptor = open(name) else { return .failure(InvalidInput(offset: 0)) }
        defer { iconv_close(descriptor) }
        var input = bytes
        // No single byte of any encoding becomes more than four bytes of UTF-8.
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        let (consumed, written, failed) = input.withUnsafeMutableBytes { inputBytes in
            output.withUnsafeMutableBytes { outputBytes in
                var inputPointer = inputBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inputLeft = inputBytes.count
                var outputPointer = outputBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outputLeft = outputBytes.count
                let result = iconv(descriptor, &inputPointer, &inputLeft, &outputPointer, &outputLeft)
                return (inputBytes.count - inputLeft, outputBytes.count - outputLeft, result == -1)
            }
        }
        guard !failed else { return .failure(InvalidInput(offset: consumed)) }
        return .success(Array(output[..<written]))
    }

    /// Where input stopped being valid.
    struct InvalidInput: Error {
        var offset: Int
    }
}
