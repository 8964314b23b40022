/// A response object did not match the selections it was read with.
public struct SelectionSetDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the response: `hero.friends[2].name`.
    public let path: ResponsePath
    /// What the selections call for: `String`, `[Character]!`, `an object`.
    public let expected: String
    /// What was there: `Int 42`, `null`, `nothing`.
    public let found: String

    /// An error at `path`.
    public init(path: ResponsePath, expected: String, found: String) {
        self.path = path
        self.expected = expected
        self.found = found
    }

    public var description: String { "\(path): expected \(expected), found \(found)" }
}

/// Checks a response object against selection metadata: every field the selections require is
/// there, and every value has the selected type. Works from a ``ValidationPlan``, so fragments,
/// conditions and type names are resolved once per selection set and runtime type, not once per
/// object of a list.
struct SelectionSetValidator {
    let variables: JSONObject

    init(variables: JSONObject) {
        self.variables = variables
    }

    func validateObject(_ object: JSONObject, selections: [Selection], parentType: String) throws(SelectionSetDecodingError) {
        let plan = ValidationPlan(selections: selections, parentType: parentType, variables: variables)
        do {
            try plan.validate(object)
        } catch {
            throw SelectionSetDecodingError(
                path: ResponsePath(Array(error.reversedPath.reversed())), expected: error.expected, found: error.found)
        }
    }
}
