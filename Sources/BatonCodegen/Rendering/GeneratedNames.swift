import GraphQL

/// The Swift names of the top-level types a generation declares, chosen so that every valid
/// GraphQL program compiles whatever its names (documented in the DocC article `GeneratingSwift`):
///
/// - Without a namespace, the schema's enums, input objects and custom scalars keep their names
///   (all of the schema's, used or not, so a fragment's name does not change when a document
///   starts using a type); so do the modules generated code names (`BatonAPI`, `Swift`).
/// - Operations take `Name` + their kind's suffix (`HeroQuery`; a name already ending with it is
///   kept); when that is taken, the suffix is added again (`StatusQueryQuery`), then a number
///   (`StatusQueryQuery2`). Those whose name already ends with the suffix choose first, then the
///   others, each group in order of their GraphQL names: `query HeroQuery` is `HeroQuery`, and
///   `query Hero` beside it `HeroQueryQuery`.
/// - Fragments, in order of their names, take their name; when that is taken (by a schema type,
///   an operation or a module), `NameFragment`, then `NameFragment2`, …
///
/// A top-level name that a member of a generated type could hide (`shadowable`) is reached
/// through `__Name`, an alias declared beside the type.
struct GeneratedNames {
    /// An operation's Swift type, by the operation's GraphQL name.
    var operations: [String: String] = [:]
    /// A fragment's Swift type, by the fragment's GraphQL name.
    var fragments: [String: String] = [:]
    /// Every name taken at the top level (schema types and modules included).
    private(set) var taken: Set<String> = []

    /// `suffix(operation)`: the suffix of an operation's kind (`Query`, `LocalCacheMutation`).
    init(
        operations: [OperationDefinition], fragmentNames: [String], schema: GraphQLSchema, namespace: String?,
        suffix: (OperationDefinition) -> String
    ) {
        taken = SwiftNaming.moduleNames
        if let namespace {
            taken.insert(namespace)
        } else {
            for (name, type) in schema.typeMap where !name.hasPrefix("__") {
                if type is GraphQLEnumType || type is GraphQLInputObjectType
                    || (type is GraphQLScalarType && !IntrospectionConverter.builtInScalars.contains(name))
                {
                    taken.insert(name)
                }
            }
        }
        let named = operations.compactMap { operation in
            operation.name.map { (name: $0.value, suffix: suffix(operation), exact: $0.value.hasSuffix(suffix(operation))) }
        }
        for operation in named.sorted(by: { ($0.exact ? 0 : 1, $0.name) < ($1.exact ? 0 : 1, $1.name) }) {
            let preferred = operation.exact ? operation.name : operation.name + operation.suffix
            self.operations[operation.name] = claim(preferred, else: preferred + operation.suffix)
        }
        for name in fragmentNames.sorted() {
            fragments[name] = claim(name, else: name + "Fragment")
        }
    }

    /// `preferred` when free, else `fallback`, else `fallback` numbered from 2.
    private mutating func claim(_ preferred: String, else fallback: String) -> String {
        var name = preferred
        if taken.contains(name) { name = fallback }
        var counter = 2
        while taken.contains(name) {
            name = fallback + String(counter)
            counter += 1
        }
        taken.insert(name)
        return name
    }

    /// The top-level names among `topLevel` that a member of a generated type could hide in an
    /// expression (`project.__selections` inside a struct with a `project` property refers to the
    /// property): names starting with a lowercase letter or `_` (any member may be so named,
    /// BatonAPI's protocol members too), the member types generated types declare
    /// (`SwiftNaming.memberTypeNames`), and the names of the members the scopes declare (fields'
    /// response keys, inline fragments' and fragments' accessors).
    static func shadowable(_ topLevel: some Sequence<String>, scopes: [SelectionScope], names: TypeNames) -> Set<String> {
        var members = SwiftNaming.memberTypeNames
        var visited: Set<ObjectIdentifier> = []
        func visit(_ scope: SelectionScope) {
            guard visited.insert(ObjectIdentifier(scope)).inserted else { return }
            for selection in scope.selections {
                switch selection {
                case .field(let field):
                    members.insert(field.responseKey)
                case .inlineFragment(let child):
                    if let alias = child.alias, !alias.isEmpty { members.insert(alias) }
                    members.insert(SwiftNaming.lowerCamel(child.swiftName))
                case .fragmentSpread(let name, _, _, _, let alias):
                    if let alias { members.insert(alias) }
                    members.insert(names.fragmentAccessor(name))
                }
            }
            for child in scope.children { visit(child) }
        }
        for scope in scopes { visit(scope) }
        return Set(
            topLevel.filter { name in
                guard let first = name.first else { return false }
                return first.isLowercase || first == "_" || members.contains(name)
            })
    }
}
