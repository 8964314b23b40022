/// An error in a GraphQL response's `errors` list (GraphQL spec §7.1.2). A response with errors
/// is still a result: they come alongside any partial data.
public struct GraphQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line and column (1-based) in the request document.
    public struct Location: Sendable, Hashable {
        /// The line, from 1.
        public let line: Int
        /// The column, from 1.
        public let column: Int

        /// A place in the request document.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// What went wrong, as the server wrote it.
    public let message: String
    /// Where in the request document, if the server says.
    public let locations: [Location]?
    /// The response path of the field that failed, if the error is a field error.
    public let path: ResponsePath?
    /// The error's `extensions` (a `code`, say).
    public let extensions: JSONObject?

    /// An error with the fields of a response's error object.
    public init(message: String, locations: [Location]? = nil, path: ResponsePath? = nil, extensions: JSONObject? = nil) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
    }

    /// Reads an error object leniently: a missing message or malformed location is kept as
    /// what could be read, since an error report should never itself fail.
    public init(json: JSONValue) {
        guard case .object(let object) = json else {
            self.init(message: json.stringValue ?? "unreadable error: \(json)")
            return
        }
        let message = object["message"]?.stringValue ?? "(the server sent an error without a message)"
        let locations = object["locations"]?.listValue?.compactMap { location -> Location? in
            guard let line = location["line"]?.intValue, let column = location["column"]?.intValue else { return nil }
            return Location(line: line, column: column)
        }
        let path = object["path"]?.listValue.map { elements in
            ResponsePath(
                elements.compactMap { element -> ResponsePath.Component? in
                    if let key = element.stringValue { return .key(key) }
                    if let index = element.intValue { return .index(index) }
                    return nil
                })
        }
        self.init(message: message, locations: locations, path: path, extensions: object["extensions"]?.objectValue)
    }

    /// `extensions.code`, where servers put a machine-readable error code.
    public var code: String? { extensions?["code"]?.stringValue }

    public var description: String {
        var text = message
        if let path { text += " (at \(path))" }
        return text
    }
}
