import Foundation
import Testing
import Tributary
import TributaryFeeds
import TributaryHTML

/// What the reader does to a document before `XMLParser` sees it: encodings, processing
/// instructions and document type declarations.
struct FeedDocumentTests {
    /// A one-item RSS feed around `title`, after `prolog`.
    private func feed(title: String, prolog: String = "", declaration: String = "UTF-8") -> String {
        """
        <?xml version="1.0" encoding="\(declaration)"?>
        \(prolog)<rss version="2.0"><channel><title>Feed</title>
        <item><title>\(title)</title><link>https://example.com/1</link></item>
        </channel></rss>
        """
    }

    private func titles(_ data: Data) throws -> [String?] {
        try FeedReader.read(data).map(\.title)
    }

    @Test func readsLegacyEncodingsAsBrowsersDo() throws {
        // Labelled Latin-1, with Windows-1252's curly quotes, as such feeds usually are.
        var latin1 = Data(feed(title: "#Caf## #menu", declaration: "ISO-8859-1").utf8)
        let marks: [UInt8] = [0x93, 0xE9, 0x94, 0xA7]
        var next = 0
        for index in latin1.indices where latin1[index] == UInt8(ascii: "#") {
            latin1[index] = marks[next]
            next += 1
        }
        #expect(try titles(latin1) == ["“Café” §menu"])

        let japanese = try #require(feed(title: "ニュース", declaration: "Shift_JIS").data(using: .shiftJIS))
        #expect(try titles(japanese) == ["ニュース"])

        let prepared = try FeedReader.prepared(latin1)
        #expect(
            String(decoding: prepared.prefix(38), as: UTF8.self) == #"<?xml version="1.0" encoding="UTF-8"?>"#
        )
    }

    @Test func readsUTF16AndUTF32WithOrWithoutAByteOrderMark() throws {
        let text = feed(title: "Ωmega ✓", declaration: "UTF-16")
        let encodings: [(String.Encoding, [UInt8])] = [
            (.utf16LittleEndian, [0xFF, 0xFE]), (.utf16BigEndian, [0xFE, 0xFF]), (.utf16LittleEndian, []),
            (.utf16BigEndian, []), (.utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]),
        ]
        for (encoding, mark) in encodings {
            let data = try Data(mark) + #require(text.data(using: encoding))
            #expect(try titles(data) == ["Ωmega ✓"], "\(encoding) with \(mark.count) mark bytes")
        }
        // A UTF-8 byte-order mark wins over a wrong label.
        #expect(
            try titles(Data([0xEF, 0xBB, 0xBF]) + Data(feed(title: "Ωmega", declaration: "ISO-8859-1").utf8))
                == ["Ωmega"]
        )
    }

    @Test func readsInvalidUTF8AsWindows1252AndSaysWhereItBroke() throws {
        var data = Data(feed(title: "ab#cd").utf8)
        data[data.firstIndex(of: UInt8(ascii: "#"))!] = 0xFF
        let document = try FeedReader.document(data)
        #expect(document.entries.map(\.title) == ["abÿcd"])
        #expect(document.forgiven == [.redecodedAsWindows1252(line: 3, column: 16)])
        // A lone surrogate is no UTF-16.
        let broken = Data([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x3E, 0x00])
        #expect(throws: FeedError(.malformed(reason: "the document is not valid UTF-16"), line: 1, column: 1))
        {
            try FeedReader.read(broken)
        }
    }

    @Test func refusesAnEncodingItCannotConvert() {
        let data = Data(feed(title: "x", declaration: "x-klingon").utf8)
        #expect(throws: FeedError(.unsupported(reason: #"the encoding "x-klingon""#), line: 1, column: 31)) {
            try FeedReader.read(data)
        }
        // The same error comes from the publisher, before any parse starts.
        var failure: FeedError?
        let subscription = FeedReader.entries(in: data).sink(
            receiveCompletion: { if case .failure(let error) = $0 { failure = error } },
            receiveValue: { _ in }
        )
        subscription.cancel()
        #expect(failure == FeedError(.unsupported(reason: #"the encoding "x-klingon""#), line: 1, column: 31))
    }

    @Test func blanksProcessingInstructionsButNotTextThatLooksLikeThem() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <?xml-stylesheet?>
            <rss version="2.0"><channel><title>Feed</title><?empty?>
            <item><title><![CDATA[a <?b?> c]]></title><!-- <?d?> --><?php
            echo 1; ?><link>https://example.com/1</link></item>
            </channel></rss>
            """
        let data = Data(text.utf8)
        #expect(try titles(data) == ["a <?b?> c"])
        let prepared = try FeedReader.prepared(data)
        #expect(prepared.count == data.count)
        #expect(
            String(decoding: prepared, as: UTF8.self).components(separatedBy: "\n")[4].hasPrefix(
                String(repeating: " ", count: 10) + "<link>"
            )
        )

        // Positions in errors are those of the original document.
        let broken = text.replacingOccurrences(of: "</item>", with: "</itme>")
        #expect {
            try FeedReader.read(Data(broken.utf8))
        } throws: { error in
            (error as? FeedError)?.line == 5
        }
    }

    /// What an internal subset declares is read, and taken out before Foundation's parser
    /// sees it; nothing it points to outside is fetched.
    @Test(arguments: [
        #"<!DOCTYPE rss [<!ATTLIST rss a CDATA #IMPLIED>]>"#,
        #"<!DOCTYPE rss [<!NOTATION n SYSTEM "x">]>"#,
        #"<!DOCTYPE rss [<!ENTITY e "<?pi?>">]>"#,
        #"<!DOCTYPE rss [ <!-- a comment ] --> %pe; <!ENTITY % pe "x"> ]>"#,
    ])
    func readsInternalSubsets(doctype: String) throws {
        #expect(try titles(Data(feed(title: "x", prolog: doctype).utf8)) == ["x"])
    }

    @Test func expandsDeclaredEntitiesAndFetchesNoExternalOne() throws {
        let doctype = #"""
            <!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;-&copy;"><!ENTITY ext SYSTEM "file:///etc/passwd">]>
            """#
        let document = try FeedReader.document(Data(feed(title: "&b;|&ext;|&a;", prolog: doctype).utf8))
        #expect(document.entries.map(\.title) == ["aaaaaaaaaaaaaaaaaaaa-©||aaaaaaaaaa"])
        #expect(
            document.forgiven == [
                .expandedDeclaredEntities(["b", "a"]), .leftOutExternalEntities(["ext"]),
                .mappedHTMLEntities(["copy"]),
            ]
        )
    }

    /// A "billion laughs" document, and a cycle, are refused when the expansion passes its
    /// bound, not after: the work is bounded by the limit, not by what the entities describe.
    @Test func refusesEntityExpansionPastItsBounds() throws {
        func laughs(_ levels: Int) -> String {
            var declarations = #"<!ENTITY l0 "lol">"#
            for level in 1...levels {
                declarations +=
                    "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
            }
            return feed(title: "&l\(levels);", prolog: "<!DOCTYPE rss [\(declarations)]>")
        }
        // Six levels are 3 MB of text: refused at the first reference, once 1 MiB is reached.
        #expect(
            throws: FeedError(.unsupported(reason: "entities that expand past 1 MiB"), line: 3, column: 14)
        ) {
            try FeedReader.read(Data(laughs(6).utf8))
        }
        // The classic nine levels are refused for their depth before any text is made.
        #expect(
            throws: FeedError(
                .unsupported(reason: "entities nested more than 8 deep, or in a cycle"),
                line: 3,
                column: 14
            )
        ) {
            try FeedReader.read(Data(laughs(9).utf8))
        }
        #expect {
            try FeedReader.read(
                Data(feed(title: "&a;", prolog: #"<!DOCTYPE rss [<!ENTITY a "&b;"><!ENTITY b "&a;">]>"#).utf8)
            )
        } throws: { error in
            guard case .unsupported(let reason) = (error as? FeedError)?.kind else { return false }
            return reason.contains("cycle")
        }
        // Many references to one small entity are bounded in all, not one by one.
        let many = String(repeating: "&k;", count: 20_000)
        #expect(throws: FeedError.self) {
            try FeedReader.read(
                Data(
                    feed(
                        title: many,
                        prolog: "<!DOCTYPE rss [<!ENTITY k \"\(String(repeating: "k", count: 100))\">]>"
                    )
                    .utf8
                )
            )
        }
    }

    @Test func acceptsADocumentTypeWithoutAnInternalSubset() throws {
        let doctype =
            #"<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "rss[0.91].dtd">"#
        #expect(try titles(Data(feed(title: "Old", prolog: doctype).utf8)) == ["Old"])
    }
}
