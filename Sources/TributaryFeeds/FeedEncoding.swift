import Foundation

/// What an encoding label means, after the WHATWG Encoding standard's table of labels: the
/// names browsers accept, and the encoding each one stands for there.
enum FeedEncoding {
    case utf8
    /// UTF-16, which only a byte-order mark, the first bytes or a header can announce; nil when
    /// the label does not say which byte order.
    case wide(String.Encoding?)
    /// Windows-1252, which the standard also reads for ISO-8859-1 and ASCII.
    case windows1252
    /// An encoding Foundation decodes, with its standard name.
    case foundation(String.Encoding, name: String)
    /// Bytes every decoder of `name` must accept: ASCII and a letter of the script it is for.
    /// A decoder that refuses them is missing from this system's Foundation.
    static func probe(for name: String) -> [UInt8] {
        let letter: [UInt8] =
            switch name {
            case "EUC-JP": [0xC6, 0xFC]
            case "Shift_JIS": [0x93, 0xFA]
            case "EUC-KR": [0xC7, 0xD1]
            case "Big5": [0xA4, 0xA4]
            case "GBK", "gb18030": [0xD6, 0xD0]
            case "ISO-2022-JP": [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x1B, 0x28, 0x42]
            default: [0xE9]
            }
        return [0x3C] + letter
    }

    /// Labels the standard maps to its replacement encoding: encodings that are unsafe to read.
    case replacement
    /// An encoding the standard does not list and the system's iconv decodes, by iconv's name.
    case iconv(String)

    /// The encoding `label` names: by the standard's labels (also written with `_` for `-`,
    /// as Python writes them), or else by iconv's.
    init?(label: String) {
        let key = label.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let (name, code) = Self.labels[key] ?? Self.labels[key.replacingOccurrences(of: "_", with: "-")]
        else {
            guard let name = Iconv.name(for: key) else { return nil }
            self = .iconv(name)
            return
        }
        switch name {
        case "UTF-8": self = .utf8
        case "UTF-16LE": self = .wide(key == "utf-16le" ? .utf16LittleEndian : nil)
        case "UTF-16BE": self = .wide(.utf16BigEndian)
        case "windows-1252": self = .windows1252
        case "replacement": self = .replacement
        case "macintosh": self = .foundation(.macOSRoman, name: name)
        case "Shift_JIS": self = .foundation(.shiftJIS, name: name)
        case "EUC-JP": self = .foundation(.japaneseEUC, name: name)
        case "ISO-2022-JP": self = .foundation(.iso2022JP, name: name)
        default:
            // Foundation numbers the encodings it has beyond its own constants after
            // CoreFoundation's, with the high bit set.
            self = .foundation(String.Encoding(rawValue: 0x8000_0000 | UInt(code)), name: name)
        }
    }

    /// Each label, lowercased, with its encoding's name and CoreFoundation's number for it.
    private static let labels: [String: (String, UInt32)] = {
        var table: [String: (String, UInt32)] = [:]
        for (name, code, labels) in encodings {
            for label in labels.split(separator: " ") { table[String(label)] = (name, code) }
        }
        return table
    }()

    /// The standard's encodings, with the labels it lists for each. EUC-KR is read as Windows
    /// code page 949 and GBK as GB 18030, the supersets the standard's decoders implement.
    private static let encodings: [(String, UInt32, String)] = [
        ("UTF-8", 0x0800_0100, "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8"),
        ("IBM866", 0x0413, "866 cp866 csibm866 ibm866"),
        (
            "ISO-8859-2", 0x0202,
            "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2"
        ),
        (
            "ISO-8859-3", 0x0203,
            "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3"
        ),
        (
            "ISO-8859-4", 0x0204,
            "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4"
        ),
        (
            "ISO-8859-5", 0x0205,
            "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988"
        ),
        (
            "ISO-8859-6", 0x0206,
            "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e "
                + "iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987"
        ),
        (
            "ISO-8859-7", 0x0207,
            "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 "
                + "iso_8859-7 iso_8859-7:1987 sun_eu_greek"
        ),
        (
            "ISO-8859-8", 0x0208,
            "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 "
                + "iso_8859-8 iso_8859-8:1988 visual csiso88598i iso-8859-8-i logical"
        ),
        ("ISO-8859-10", 0x020A, "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6"),
        ("ISO-8859-13", 0x020D, "iso-8859-13 iso8859-13 iso885913"),
        ("ISO-8859-14", 0x020E, "iso-8859-14 iso8859-14 iso885914"),
        ("ISO-8859-15", 0x020F, "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9"),
        ("ISO-8859-16", 0x0210, "iso-8859-16"),
        ("KOI8-R", 0x0A02, "cskoi8r koi koi8 koi8-r koi8_r"),
        ("KOI8-U", 0x0A08, "koi8-ru koi8-u"),
        ("macintosh", 0x0000, "csmacintosh mac macintosh x-mac-roman"),
        (
            "windows-874", 0x041D,
            "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874"
        ),
        ("windows-1250", 0x0501, "cp1250 windows-1250 x-cp1250"),
        ("windows-1251", 0x0502, "cp1251 windows-1251 x-cp1251"),
        (
            "windows-1252", 0,
            "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 "
                + "iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252"
        ),
        ("windows-1253", 0x0503, "cp1253 windows-1253 x-cp1253"),
        (
            "windows-1254", 0x0504,
            "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 "
                + "latin5 windows-1254 x-cp1254"
        ),
        ("windows-1255", 0x0505, "cp1255 windows-1255 x-cp1255"),
        ("windows-1256", 0x0506, "cp1256 windows-1256 x-cp1256"),
        ("windows-1257", 0x0507, "cp1257 windows-1257 x-cp1257"),
        ("windows-1258", 0x0508, "cp1258 windows-1258 x-cp1258"),
        ("x-mac-cyrillic", 0x0007, "x-mac-cyrillic x-mac-ukrainian"),
        (
            "GBK", 0x0632,
            "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk"
        ),
        ("gb18030", 0x0632, "gb18030"),
        ("Big5", 0x0A03, "big5 big5-hkscs cn-big5 csbig5 x-x-big5"),
        ("EUC-JP", 0x0920, "cseucpkdfmtjapanese euc-jp x-euc-jp"),
        ("ISO-2022-JP", 0x0820, "csiso2022jp iso-2022-jp"),
        (
            "Shift_JIS", 0x0421,
            "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis"
        ),
        (
            "EUC-KR", 0x0422,
            "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 "
                + "windows-949"
        ),
        ("replacement", 0, "csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr replacement"),
        ("UTF-16BE", 0, "unicodefffe utf-16be"),
        ("UTF-16LE", 0, "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le"),
    ]
}
