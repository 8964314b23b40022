/// Which selection sets get memberwise initializers (Apollo's `selectionSetInitializers`): an
/// operation's `Data` and its nested types, a fragment and its nested types. `"selectionSetInitializers"`
/// in `baton.json`: `true` for all, or `{ "operations": true, "namedFragments": true, "definitionsNamed": ["HeroQuery"] }`.
public struct SelectionSetInitializers: Sendable, Hashable {
    /// Every operation's `Data`.
    public var operations: Bool
    /// Every mutation's `Data`, on by default: a typed optimistic response
    /// (`Mutation.Data(changeTodoStatus: .init(…))`) needs no configuration.
    public var mutations: Bool
    /// Every named fragment.
    public var namedFragments: Bool
    /// Operations and fragments by name, besides those: an operation by its name in the document
    /// (`Hero`) or its Swift type's (`HeroQuery`), a fragment by its name.
    public var definitionsNamed: Set<String>

    /// Initializers for the operations and fragments chosen here.
    public init(operations: Bool = false, mutations: Bool = true, namedFragments: Bool = false, definitionsNamed: Set<String> = []) {
        self.operations = operations
        self.mutations = mutations
        self.namedFragments = namedFragments
        self.definitionsNamed = definitionsNamed
    }

    /// Initializers for mutations only (the default).
    public static let `default` = SelectionSetInitializers()
    /// No initializers (`"selectionSetInitializers": false`).
    public static let none = SelectionSetInitializers(mutations: false)
    /// Initializers for every operation and fragment.
    public static let all = SelectionSetInitializers(operations: true, namedFragments: true)

    /// Whether an operation (GraphQL name, Swift type name) gets initializers.
    func includesOperation(named name: String, typeName: String, isMutation: Bool = false) -> Bool {
        operations || (mutations && isMutation) || definitionsNamed.contains(name) || definitionsNamed.contains(typeName)
    }

    /// Whether a fragment gets initializers.
    func includesFragment(named name: String) -> Bool {
        namedFragments || definitionsNamed.contains(name)
    }

    /// Reads the `baton.json` value: a Boolean or an object of `operations`, `namedFragments`
    /// and `definitionsNamed`.
    static func parse(_ value: LocatedJSON, path: String) throws(CodegenError) -> SelectionSetInitializers {
        if case .bool(let all) = value.value { return all ? .all : .none }
        guard case .object(let members) = value.value else {
            throw CodegenError(
                "\"selectionSetInitializers\" must be true, false or an object of operations, namedFragments and definitionsNamed, not \(value.kindDescription)",
                at: value.location(in: path))
        }
        var result = SelectionSetInitializers()
        for (key, member) in members {
            switch key {
            case "operations", "mutations", "namedFragments":
                guard case .bool(let flag) = member.value else {
                    throw CodegenError("\"selectionSetInitializers.\(key)\" must be true or false, not \(member.kindDescription)", at: member.location(in: path))
                }
                switch key {
                case "operations": result.operations = flag
                case "mutations": result.mutations = flag
                default: result.namedFragments = flag
                }
            case "definitionsNamed":
                guard let names = member.arrayValue else {
                    throw CodegenError(
                        "\"selectionSetInitializers.definitionsNamed\" must be an array of names, not \(member.kindDescription)", at: member.location(in: path))
                }
                for name in names {
                    guard let string = name.stringValue else {
                        throw CodegenError(
                            "\"selectionSetInitializers.definitionsNamed\" must hold strings, not \(name.kindDescription)", at: name.location(in: path))
                    }
                    result.definitionsNamed.insert(string)
                }
            default:
                throw CodegenError(
                    "unknown key \"selectionSetInitializers.\(key)\" (expected operations, mutations, namedFragments, definitionsNamed)", at: member.location(in: path))
            }
        }
        return result
    }
}
