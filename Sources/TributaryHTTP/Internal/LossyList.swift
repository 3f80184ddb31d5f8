import Foundation

/// A JSON array whose elements are decoded one by one, keeping those that decode and counting
/// the rest.
package struct LossyList<Element: Decodable>: Decodable {
    package var elements: [Element] = []
    package var failures = 0
    package var count: Int { elements.count + failures }

    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        elements.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                failures += 1
                // A failed decode may or may not have moved past the element.
                if container.currentIndex == index {
                    _ = try container.decode(Skip.self)
                }
            }
        }
    }

    private struct Skip: Decodable {
        package init(from decoder: any Decoder) throws {}
    }
}
