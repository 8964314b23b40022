/// What a field error or a null does at one field, from the document's directives (Relay's
/// semantics): `@catch(to:)`, `@required(action:)`, and `@semanticNonNull` (schema) read under
/// `@throwOnFieldError` (the operation or fragment the field is written in).
public struct FieldErrorHandling: Sendable, Hashable {
    /// Where `@catch` puts a caught error.
    public enum CatchTarget: String, Sendable, Hashable {
        /// The accessor is a `Result<Value, GraphQLFieldError>`.
        case result = "RESULT"
        /// The accessor reads `nil`.
        case null = "NULL"
    }

    /// What `@required` does with a null.
    public enum RequiredAction: String, Sendable, Hashable {
        /// `NONE`: the null moves up to the parent object, which reads as null. (Not `none`,
        /// which Swift would take for `Optional.none`.)
        case silent = "NONE"
        /// As `silent`, and the client logs the path.
        case log = "LOG"
        /// The read fails with an error naming the path.
        case `throw` = "THROW"
    }

    /// `@catch(to:)` on the field.
    public var catchTarget: CatchTarget?
    /// `@required(action:)` on the field.
    public var required: RequiredAction?
    /// The field is read under `@throwOnFieldError`: a field error at it fails the read.
    public var throwsOnFieldError: Bool
    /// Under `@throwOnFieldError`, the levels that `@semanticNonNull(levels:)` declares never
    /// null except for an error (0: the field, 1: its list's items, …): a null there fails the
    /// read, and the accessor's type is not optional at those levels.
    public var semanticNonNullLevels: [Int]

    /// The handling the directives on a field ask for.
    public init(
        catchTarget: CatchTarget? = nil, required: RequiredAction? = nil, throwsOnFieldError: Bool = false,
        semanticNonNullLevels: [Int] = []
    ) {
        self.catchTarget = catchTarget
        self.required = required
        self.throwsOnFieldError = throwsOnFieldError
        self.semanticNonNullLevels = semanticNonNullLevels
    }
}

extension Array where Element == Selection {
    /// Whether any field (at any depth) has ``FieldErrorHandling``, or any fragment `@catch`:
    /// typed data made from these selections then goes through the field-error pass.
    public var handlesFieldErrors: Bool {
        contains { selection in
            switch selection {
            case .field(let field): return field.errorHandling != nil || field.selections.handlesFieldErrors
            case .inlineFragment(let fragment): return fragment.catchTarget != nil || fragment.selections.handlesFieldErrors
            case .fragmentSpread(let spread): return spread.catchTarget != nil || spread.selections.handlesFieldErrors
            }
        }
    }
}

extension FieldErrorHandling {
    /// The handling of fields merged under one response key: the first `@catch` and `@required`,
    /// `@throwOnFieldError` if any field is read under it, every semantic non-null level.
    static func merged(_ handlings: [FieldErrorHandling]) -> FieldErrorHandling? {
        guard var result = handlings.first else { return nil }
        for handling in handlings.dropFirst() {
            result.catchTarget = result.catchTarget ?? handling.catchTarget
            result.required = result.required ?? handling.required
            result.throwsOnFieldError = result.throwsOnFieldError || handling.throwsOnFieldError
            result.semanticNonNullLevels = Array(Set(result.semanticNonNullLevels + handling.semanticNonNullLevels)).sorted()
        }
        return result
    }
}
