/// A path into a response: object keys and list indices, written `hero.friends[2].name`.
public struct ResponsePath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    public init(arrayLiteral elements: Component...) {
        components = elements
    }

    public func appending(_ key: String) -> ResponsePath {
        ResponsePath(components + [.key(key)])
    }

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
