/// An error in the generator's input, with the place it was found when there is one.
/// Prints as `path:line:column: error: message`.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    public let location: SourceLocation?
    public let message: String
    /// Other places the error concerns (the first definition of a duplicate name, …).
    public let notes: [CodegenNote]

    public init(_ message: String, at location: SourceLocation? = nil, notes: [CodegenNote] = []) {
        self.location = location
        self.message = message
        self.notes = notes
    }

    public var description: String {
        var text = location.map { "\($0): error: \(message)" } ?? "error: \(message)"
        for note in notes { text += "\n" + note.description }
        return text
    }
}

/// A second place an error points to.
public struct CodegenNote: Sendable, Hashable, CustomStringConvertible {
    public let location: SourceLocation
    public let message: String

    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): note: \(message)" }
}

/// Every error found in one run, in input order. Generation stops after the phase that found them.
public struct CodegenErrors: Error, Sendable, CustomStringConvertible {
    public let errors: [CodegenError]

    public init(_ errors: [CodegenError]) {
        self.errors = errors
    }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
