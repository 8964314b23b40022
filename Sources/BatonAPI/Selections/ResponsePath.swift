/// A path into a response: object keys and list indices, written `hero.friends[2].name`.
public struct ResponsePath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step of a path: an object key or a list index.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the response's `data`.
    public var components: [Component]

    /// A path of `components`; the root when empty.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// A path written as a list: `["hero", "friends", 2]`.
    public init(arrayLiteral elements: Component...) {
        components = elements
    }

    /// The path one object key deeper.
    public func appending(_ key: String) -> ResponsePath {
        ResponsePath(components + [.key(key)])
    }

    /// The path one list index deeper.
    public func appending(_ index: Int) -> ResponsePath {
        ResponsePath(components + [.index(index)])
    }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text.isEmpty ? "(root)" : text
    }
}

extension ResponsePath.Component: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .key(value) }
    public init(integerLiteral value: Int) { self = .index(value) }
}
