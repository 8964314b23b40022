import GraphQL

/// What `@catch(to:)`, `@required(action:)` and `@semanticNonNull` under `@throwOnFieldError` ask
/// of one selected field: rendered into its `__selections` entry (`errorHandling:`) and into its
/// accessor's type (not optional where a null cannot reach it, a `Result` under `@catch(to:
/// RESULT)`).
struct FieldErrorSpec: Equatable {
    /// `RESULT` or `NULL`.
    var catchTarget: String?
    /// `NONE`, `LOG` or `THROW`.
    var required: String?
    var throwsOnFieldError = false
    var semanticNonNullLevels: [Int] = []

    /// The spec of `field` (selected on `parentType`), read under `@throwOnFieldError` or not;
    /// `nil` when nothing applies.
    static func of(_ field: ScopedField, parentType: String, throwsOnFieldError: Bool, index: SchemaIndex) -> FieldErrorSpec? {
        var spec = FieldErrorSpec()
        for directive in field.directives {
            let argument = { (name: String) in directive.arguments.first { $0.name.value == name }?.value as? EnumValue }
            switch directive.name.value {
            case "catch": spec.catchTarget = argument("to")?.value ?? "RESULT"
            case "required": spec.required = argument("action")?.value ?? "THROW"
            default: break
            }
        }
        if throwsOnFieldError {
            spec.throwsOnFieldError = true
            spec.semanticNonNullLevels = index.loaded.semanticNonNull[parentType]?[field.name] ?? []
        }
        return spec == FieldErrorSpec() ? nil : spec
    }

    /// The `BatonAPI.FieldErrorHandling(…)` expression.
    var rendered: String {
        var parts: [String] = []
        if let catchTarget { parts.append("catchTarget: .\(catchTarget == "NULL" ? "null" : "result")") }
        if let required {
            let action = ["THROW": "`throw`", "LOG": "log", "NONE": "silent"][required] ?? "`throw`"
            parts.append("required: .\(action)")
        }
        if throwsOnFieldError { parts.append("throwsOnFieldError: true") }
        if !semanticNonNullLevels.isEmpty { parts.append("semanticNonNullLevels: [\(semanticNonNullLevels.map(String.init).joined(separator: ", "))]") }
        return "BatonAPI.FieldErrorHandling(" + parts.joined(separator: ", ") + ")"
    }

    /// The levels of the field's type that are not optional in Swift: the field itself under
    /// `@required` (a null goes to the parent or fails the read), and the semantic non-null
    /// levels under `@throwOnFieldError` (a null there fails the read). `@catch(to: NULL)` makes
    /// the field optional again.
    var nonNullLevels: Set<Int> {
        var levels = Set(throwsOnFieldError ? semanticNonNullLevels : [])
        if required != nil { levels.insert(0) }
        if catchTarget == "NULL" { levels.remove(0) }
        return levels
    }

    /// The accessor's type from the type the levels give.
    func accessorType(_ type: String) -> String {
        catchTarget == "RESULT" ? "Result<\(type), BatonAPI.GraphQLFieldError>" : type
    }
}
