extension FeedMarkup {
    /// How many bytes the expansion of declared entities may add to a document in all: a
    /// feed's few abbreviations need far less, and a "billion laughs" document is refused
    /// when it reaches this, not after.
    static let entityExpansionLimit = 1 << 20
    /// How deep declared entities may refer to one another.
    static let entityNestingLimit = 8

    /// Reads the entities a document declares in its DOCTYPE's internal subset, as XML does,
    /// and takes the subset out, since Foundation's parser on Linux traps on some of what it
    /// may hold. References to internal entities are replaced by their text, expanded in
    /// turn to ``entityNestingLimit`` levels and ``entityExpansionLimit`` bytes in all;
    /// references to external entities are left out, never fetched. Returns what it did.
    static func expandDeclaredEntities(in bytes: inout [UInt8]) throws(FeedError) -> [FeedRepair] {
        guard let doctype = doctypeStart(in: bytes) else { return [] }
        var subset = DoctypeSubset(bytes: bytes, start: doctype)
        guard try subset.read() else { return [] }
        var expansion = EntityExpansion(declared: subset.declared, external: subset.external)
        var output = Array(bytes[..<subset.open])
        output.reserveCapacity(bytes.count)
        output.append(contentsOf: bytes[(subset.close + 1)...])
        let body = subset.open
        bytes = try expansion.expand(output, from: body)
        var repairs: [FeedRepair] = []
        if !expansion.usedInternal.isEmpty {
            repairs.append(.expandedDeclaredEntities(expansion.usedInternal))
        }
        if !expansion.usedExternal.isEmpty {
            repairs.append(.leftOutExternalEntities(expansion.usedExternal))
        }
        return repairs
    }

    /// Where `<!DOCTYPE` starts, if it comes before the root element.
    private static func doctypeStart(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if isSpace(bytes[index]) {
                index += 1
            } else if starts(Array("<?".utf8), in: bytes, at: index) {
                guard let end = find(Array("?>".utf8), in: bytes, from: index + 2) else { return nil }
                index = end + 2
            } else if starts(Array("<!--".utf8), in: bytes, at: index) {
                guard let end = find(Array("-->".utf8), in: bytes, from: index + 4) else { return nil }
                index = end + 3
            } else {
                return starts(Array("<!DOCTYPE".utf8), in: bytes, at: index) ? index : nil
            }
        }
        return nil
    }
}

/// The internal subset of a DOCTYPE: where its brackets are and the entities it declares.
private struct DoctypeSubset {
    let bytes: [UInt8]
    var index: Int
    /// Where `[` and `]` are.
    var open = 0
    var close = 0
    var declared: [String: [UInt8]] = [:]
    var external: Set<String> = []

    init(bytes: [UInt8], start: Int) {
        self.bytes = bytes
        index = start + "<!DOCTYPE".utf8.count
    }

    /// Reads the subset; false when the DOCTYPE has none.
    mutating func read() throws(FeedError) -> Bool {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: ">"): return false
            case UInt8(ascii: "["): open = index
            case UInt8(ascii: "\""), UInt8(ascii: "'"): try skipQuoted()
            default: break
            }
            index += 1
            if open > 0 { break }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if FeedMarkup.isSpace(byte) {
                index += 1
            } else if byte == UInt8(ascii: "]") {
                close = index
                return true
            } else if FeedMarkup.starts(Array("<!--".utf8), in: bytes, at: index) {
                guard let end = FeedMarkup.find(Array("-->".utf8), in: bytes, from: index + 4) else {
                    throw failure("a comment in the document type declaration is not closed")
                }
                index = end + 3
            } else if FeedMarkup.starts(Array("<!ENTITY".utf8), in: bytes, at: index) {
                try entity()
            } else if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "%") {
                // Other declarations, processing instructions and parameter entity references
                // say nothing a feed reader uses.
                try skipDeclaration()
            } else {
                throw failure("the document type declaration is not well-formed")
            }
        }
        throw failure("the document type declaration is not closed")
    }

    /// `<!ENTITY name "value">`, `<!ENTITY name SYSTEM "…">`, or a parameter entity.
    private mutating func entity() throws(FeedError) {
        let start = index
        index += "<!ENTITY".utf8.count
        skipSpaces()
        if index < bytes.count, bytes[index] == UInt8(ascii: "%") {
            index = start
            try skipDeclaration()
            return
        }
        let nameStart = index
        while index < bytes.count, !FeedMarkup.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") {
            index += 1
        }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        skipSpaces()
        guard !name.isEmpty, index < bytes.count else {
            throw failure("an entity declaration is not well-formed")
        }
        if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
            let valueStart = index + 1
            try skipQuoted()
            if declared[name] == nil, !external.contains(name) {
                declared[name] = Array(bytes[valueStart..<index])
            }
            index += 1
        } else if declared[name] == nil {
            external.insert(name)
        }
        index = start
        try skipDeclaration()
    }

    /// Moves past the `>` that ends the declaration at `index`, quotes respected.
    private mutating func skipDeclaration() throws(FeedError) {
        if bytes[index] == UInt8(ascii: "%") {
            while index < bytes.count, bytes[index] != UInt8(ascii: ";") { index += 1 }
            index += 1
            return
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: ">"):
                index += 1
                return
            case UInt8(ascii: "\""), UInt8(ascii: "'"): try skipQuoted()
            default: break
            }
            index += 1
        }
        throw failure("a declaration in the document type declaration is not closed")
    }

    /// Moves to the quote that closes the one at `index`.
    private mutating func skipQuoted() throws(FeedError) {
        let quote = bytes[index]
        guard let end = bytes[(index + 1)...].firstIndex(of: quote) else {
            throw failure("a quoted value in the document type declaration is not closed")
        }
        index = end
    }

    private mutating func skipSpaces() {
        while index < bytes.count, FeedMarkup.isSpace(bytes[index]) { index += 1 }
    }

    private func failure(_ reason: String) -> FeedError {
        let (line, column) = FeedMarkup.position(of: index, in: bytes)
        return FeedError(.malformed(reason: reason), line: line, column: column)
    }
}

/// References to declared entities replaced by their text, in bounded bytes and depth.
private struct EntityExpansion {
    let declared: [String: [UInt8]]
    let external: Set<String>
    var usedInternal: [String] = []
    var usedExternal: [String] = []
    /// Each entity's text with the entities it refers to expanded.
    private var expanded: [String: [UInt8]] = [:]
    private var added = 0

    init(declared: [String: [UInt8]], external: Set<String>) {
        self.declared = declared
        self.external = external
    }

    /// `bytes` with the references after `start` outside comments and CDATA sections replaced.
    mutating func expand(_ bytes: [UInt8], from start: Int) throws(FeedError) -> [UInt8] {
        var output = Array(bytes[..<start])
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                let skipped: (open: String, close: String)? =
                    FeedMarkup.starts(Array("<!--".utf8), in: bytes, at: index)
                    ? ("<!--", "-->")
                    : FeedMarkup.starts(Array("<![CDATA[".utf8), in: bytes, at: index)
                        ? ("<![CDATA[", "]]>") : nil
                if let skipped {
                    let end =
                        FeedMarkup.find(
                            Array(skipped.close.utf8),
                            in: bytes,
                            from: index + skipped.open.utf8.count
                        )
                        .map { $0 + skipped.close.utf8.count } ?? bytes.count
                    output.append(contentsOf: bytes[index..<end])
                    index = end
                    continue
                }
            } else if byte == UInt8(ascii: "&"), case let (name, end)? = reference(in: bytes, at: index) {
                if declared[name] != nil {
                    let text = try text(of: name, depth: 1, at: index, in: bytes)
                    added += max(0, text.count - (end + 1 - index))
                    guard added <= FeedMarkup.entityExpansionLimit else {
                        throw tooLarge(at: index, in: bytes)
                    }
                    output.append(contentsOf: text)
                    index = end + 1
                    continue
                }
                if external.contains(name) {
                    if !usedExternal.contains(name) { usedExternal.append(name) }
                    index = end + 1
                    continue
                }
            }
            output.append(byte)
            index += 1
        }
        return output
    }

    /// The name of the reference `&name;` at `index`, and where its `;` is.
    private func reference(in bytes: [UInt8], at index: Int) -> (String, Int)? {
        var end = index + 1
        while end < bytes.count, end - index <= 64, bytes[end] != UInt8(ascii: ";"),
            !FeedMarkup.isSpace(bytes[end]), bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "<")
        {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 else { return nil }
        return (String(decoding: bytes[(index + 1)..<end], as: UTF8.self), end)
    }

    /// An entity's text with the declared entities in it expanded, remembered once made. The
    /// depth is bounded by ``FeedMarkup/entityNestingLimit``, so the recursion never follows
    /// the input's size; a cycle reaches the bound.
    private mutating func text(
        of name: String,
        depth: Int,
        at position: Int,
        in document: [UInt8]
    ) throws(FeedError)
        -> [UInt8]
    {
        if let known = expanded[name] { return known }
        guard depth <= FeedMarkup.entityNestingLimit else {
            let (line, column) = FeedMarkup.position(of: position, in: document)
            throw FeedError(
                .unsupported(
                    reason: "entities nested more than \(FeedMarkup.entityNestingLimit) deep, or in a cycle"
                ),
                line: line,
                column: column
            )
        }
        if !usedInternal.contains(name) { usedInternal.append(name) }
        let value = declared[name] ?? []
        var result: [UInt8] = []
        var index = 0
        while index < value.count {
            if value[index] == UInt8(ascii: "&"), case let (inner, end)? = reference(in: value, at: index) {
                if declared[inner] != nil {
                    let text = try text(of: inner, depth: depth + 1, at: position, in: document)
                    guard result.count + text.count <= FeedMarkup.entityExpansionLimit else {
                        throw tooLarge(at: position, in: document)
                    }
                    result.append(contentsOf: text)
                    index = end + 1
                    continue
                }
                if external.contains(inner) {
                    if !usedExternal.contains(inner) { usedExternal.append(inner) }
                    index = end + 1
                    continue
                }
            }
            result.append(value[index])
            index += 1
        }
        expanded[name] = result
        return result
    }

    private func tooLarge(at position: Int, in document: [UInt8]) -> FeedError {
        let (line, column) = FeedMarkup.position(of: position, in: document)
        return FeedError(
            .unsupported(
                reason: "entities that expand past \(FeedMarkup.entityExpansionLimit / (1 << 20)) MiB"
            ),
            line: line,
            column: column
        )
    }
}
