import BatonAPI

/// Data could not be built from a mock: a non-null field is unset, a value has the wrong type,
/// or the mock is of a type the selections do not accept. Says where, as a response path.
public struct MockDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the data: `hero.friends[1].name`.
    public let path: ResponsePath
    /// What is wrong there.
    public let message: String

    /// An error at `path`.
    public init(path: ResponsePath, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.components.isEmpty ? message : "\(path): \(message)" }
}
