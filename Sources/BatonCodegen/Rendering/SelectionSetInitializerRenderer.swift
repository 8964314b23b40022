import GraphQL

/// Renders a selection set's memberwise initializer (Apollo's `selectionSetInitializers`): every
/// field its accessors show, with `__typename` set to the struct's type (a parameter when that
/// type is an interface or union), so data built in Swift matches the selections and reads back
/// through fragments and `asX`. An inline fragment also gets `asRootEntityType`, the same data
/// seen as the field's own struct, which is how a type case becomes a field's value.
struct SelectionSetInitializerRenderer {
    let selectionSets: SelectionSetRenderer
    var names: TypeNames { selectionSets.names }
    var index: SchemaIndex { selectionSets.index }

    func render(_ scope: SelectionScope, into w: inout SwiftWriter) {
        let abstract = index.isAbstract(scope.typeName)
        var seen: Set<String> = []
        var fields = (scope.mergedFields ?? []).filter { seen.insert($0.responseKey).inserted }
        // What Relay's conveniences add (a refetchable fragment's `id`, a connection's `pageInfo`)
        // has no accessor, but the selections need it: a parameter too.
        for field in addedFields(of: scope) where seen.insert(field.responseKey).inserted {
            fields.append(
                MergedField(
                    responseKey: field.responseKey, name: field.name, type: field.type, description: nil,
                    isConditional: !field.conditionSets.contains([]), scope: field.child))
        }
        // Fragments read through accessors of their own (an `@alias`, a `@catch`) are not merged
        // into the struct's fields, but the data must hold theirs too: without them the
        // fragment's accessor would read fields that are not there.
        for field in separatelyReadFragmentFields(of: scope) where seen.insert(field.responseKey).inserted {
            fields.append(field)
        }
        let typename = abstract ? "__typename" : SwiftNaming.stringLiteral(scope.typeName)
        let selectsTypename = fields.contains { $0.responseKey == "__typename" }

        var parameters: [String] = abstract ? ["__typename: Swift.String"] : []
        var body: [String] = []
        var entries: [String] = []
        if abstract || selectsTypename { entries.append("\"__typename\": .string(\(typename))") }
        for field in fields where field.responseKey != "__typename" {
            let key = SwiftNaming.stringLiteral(field.responseKey)
            if field.name == "__typename" {
                // `kind: __typename`: the type's name, not a parameter.
                entries.append("\(key): .string(\(typename))")
                continue
            }
            var type = names.output(field.type, composite: field.scope.map { selectionSets.reference(to: $0, from: scope) })
            if field.isConditional, !type.hasSuffix("?") { type += "?" }
            let name = SwiftNaming.identifier(field.responseKey)
            parameters.append("\(name): \(type)" + (type.hasSuffix("?") ? " = nil" : ""))
            if field.isConditional {
                // Absent when not given: the field's condition does not hold.
                body.append("if let __value = \(name) { __object[\(key)] = \(json(field.type, "__value", unwrapped: true)) }")
            } else {
                body.append("__object[\(key)] = \(json(field.type, name, unwrapped: false))")
            }
        }

        w.line()
        w.line("/// Data for these selections, built in Swift (an optimistic response, a preview, a test).")
        w.block("public init(\(parameters.joined(separator: ", ")))") { b in
            let literal = entries.isEmpty ? "[:]" : "[" + entries.joined(separator: ", ") + "]"
            b.line("\(body.isEmpty ? "let" : "var") __object: BatonAPI.JSONObject = \(literal)")
            for line in body { b.line(line) }
            b.line("self.init(_dataDict: BatonAPI.DataDict(__object))")
        }
        if scope.kind == .inlineFragment {
            var root = scope.enclosing
            while let current = root, current.kind == .inlineFragment { root = current.enclosing }
            if let root {
                let name = root.qualifiedName
                w.line()
                w.line("/// The same data as `\(root.relativeName)`, the struct of the field this type case belongs to.")
                w.line("public var asRootEntityType: \(name) { \(name)(_dataDict: __data) }")
            }
        }
    }

    /// The fields of the fragments and aliased inline fragments of `scope` that have accessors
    /// of their own (`@alias`, `@catch`) and apply to every object of it; conditional when the
    /// spread is.
    func separatelyReadFragmentFields(of scope: SelectionScope) -> [MergedField] {
        let merger = selectionSets.merger
        var result: [MergedField] = []
        for selection in scope.selections {
            let fragment: SelectionScope
            let conditional: Bool
            switch selection {
            case .fragmentSpread(let name, let conditions, let isDeferred, _, let alias):
                guard let spread = merger.builder.fragmentScope(name), alias != nil || spread.catchTarget != nil else { continue }
                fragment = spread
                conditional = !conditions.isEmpty || isDeferred
            case .inlineFragment(let child):
                guard child.alias != nil, !child.isAdded else { continue }
                fragment = child
                conditional = !child.conditions.isEmpty || child.isDeferred
            case .field:
                continue
            }
            guard index.condition(fragment.typeName, alwaysMatches: scope.typeName) else { continue }
            for var field in merger.ownFields(fragment) {
                field.isConditional = field.isConditional || conditional
                result.append(field)
            }
        }
        return result
    }

    /// Fields the generator added (`isAdded`) that every object of the scope has: its own, those
    /// of inline fragments and fragments that always apply, and (for a type case) its parents'.
    func addedFields(of scope: SelectionScope) -> [ScopedField] {
        var result: [ScopedField] = []
        var visited: Set<ObjectIdentifier> = []
        func visit(_ scope: SelectionScope) {
            guard visited.insert(ObjectIdentifier(scope)).inserted else { return }
            for selection in scope.selections {
                switch selection {
                case .field(let field):
                    if field.isAdded { result.append(field) }
                case .inlineFragment(let child):
                    if child.alias == nil, child.conditions.isEmpty, !child.isDeferred, index.condition(child.typeName, alwaysMatches: scope.typeName) {
                        visit(child)
                    }
                case .fragmentSpread(let name, let conditions, let isDeferred, _, let alias):
                    if alias == nil, conditions.isEmpty, !isDeferred, let fragment = selectionSets.merger.builder.fragmentScope(name),
                        index.condition(fragment.typeName, alwaysMatches: scope.typeName)
                    {
                        visit(fragment)
                    }
                }
            }
            if scope.kind == .inlineFragment, let parent = scope.enclosing { visit(parent) }
        }
        visit(scope)
        return result
    }

    /// The JSON of `value`, a field of GraphQL type `type` (`unwrapped`: already unwrapped from
    /// the optional its nullability adds). A selection set, scalar or enum writes itself; a custom
    /// scalar mapped to an app's type writes its `jsonValue`.
    func json(_ type: any GraphQLType, _ value: String, unwrapped: Bool, depth: Int = 0) -> String {
        guard mapsCustomScalar(type) else { return "\(value)._selectionSetJSON" }
        func inner(_ type: any GraphQLType, _ value: String, nullable: Bool, depth: Int) -> String {
            if let nonNull = type as? GraphQLNonNull { return inner(nonNull.ofType, value, nullable: false, depth: depth) }
            if nullable {
                let element = "__v\(depth)"
                return "\(value).map { \(element) in \(inner(type, element, nullable: false, depth: depth + 1)) } ?? .null"
            }
            if let list = type as? GraphQLList {
                let element = "__e\(depth)"
                return ".list(\(value).map { \(element) in \(inner(list.ofType, element, nullable: true, depth: depth + 1)) })"
            }
            return "\(value).jsonValue"
        }
        return inner(type, value, nullable: !unwrapped && !(type is GraphQLNonNull), depth: depth)
    }

    /// Whether the field's named type is a custom scalar mapped to a Swift type of the app's.
    func mapsCustomScalar(_ type: any GraphQLType) -> Bool {
        guard let scalar = getNamedType(type: type) as? GraphQLScalarType else { return false }
        return names.customScalars[scalar.name] != nil && !IntrospectionConverter.builtInScalars.contains(scalar.name)
    }
}
