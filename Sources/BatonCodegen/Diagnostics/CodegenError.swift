/// An error in the generator's input, with the place it was found when there is one.
/// Prints as `path:line:column: error: message`.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the error is; `nil` when it concerns no one place (a missing file's glob, say).
    public let location: SourceLocation?
    /// What is wrong, in a sentence.
    public let message: String
    /// Other places the error concerns (the first definition of a duplicate name, …).
    public let notes: [CodegenNote]

    /// An error at `location`, with notes pointing elsewhere.
    public init(_ message: String, at location: SourceLocation? = nil, notes: [CodegenNote] = []) {
        self.location = location
        self.message = message
        self.notes = notes
    }

    /// `path:line:column: error: message`, then a line per note.
    public var description: String {
        var text = location.map { "\($0): error: \(message)" } ?? "error: \(message)"
        for note in notes { text += "\n" + note.description }
        return text
    }
}

/// A second place an error points to.
public struct CodegenNote: Sendable, Hashable, CustomStringConvertible {
    /// The place the note points to.
    public let location: SourceLocation
    /// What is at that place.
    public let message: String

    /// A note at `location`.
    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message
    }

    /// `path:line:column: note: message`.
    public var description: String { "\(location): note: \(message)" }
}

/// Every error found in one run, in input order. Generation stops after the phase that found them.
public struct CodegenErrors: Error, Sendable, CustomStringConvertible {
    /// The errors, in input order.
    public let errors: [CodegenError]

    /// The errors of one run.
    public init(_ errors: [CodegenError]) {
        self.errors = errors
    }

    /// Every error, one per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
