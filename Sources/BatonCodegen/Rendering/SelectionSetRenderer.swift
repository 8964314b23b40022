import GraphQL

/// Renders a selection-set struct and the structs nested in it.
struct SelectionSetRenderer {
    let merger: FieldMerger
    let names: TypeNames
    /// How generated code names the schema metadata (`schemaMetadata`, or `Namespace.schemaMetadata`).
    var schemaMetadataReference = "schemaMetadata"
    /// The top-level scopes (an operation's `Data`, a fragment) whose structs get initializers.
    var initializerScopes: Set<ObjectIdentifier> = []
    var index: SchemaIndex { merger.index }

    func typeCondition(_ typeName: String) -> String {
        if index.isAbstract(typeName) {
            let possible = index.possibleTypes(of: typeName).sorted().map(SwiftNaming.stringLiteral).joined(separator: ", ")
            return "BatonAPI.TypeCondition(\(SwiftNaming.stringLiteral(typeName)), possibleTypes: [\(possible)])"
        }
        return "BatonAPI.TypeCondition(\(SwiftNaming.stringLiteral(typeName)))"
    }

    /// The Swift name another struct uses for `scope` from inside `from`.
    func reference(to scope: SelectionScope, from: SelectionScope) -> String {
        scope.enclosing === from ? scope.swiftName : scope.qualifiedName
    }

    func conditions(_ conditions: [Condition]) -> String {
        "[" + conditions.map { "\($0.isInverted ? ".skip" : ".include")(if: \(SwiftNaming.stringLiteral($0.variable)))" }
            .joined(separator: ", ") + "]"
    }

    func clientDirectives(_ directives: [Directive]) -> [String] {
        var result: [String] = []
        func argument(_ directive: Directive, _ name: String) -> (any Value)? {
            directive.arguments.first { $0.name.value == name }?.value
        }
        for directive in directives {
            switch directive.name.value {
            case "connection":
                let key = (argument(directive, "key") as? StringValue)?.value ?? ""
                var filters = "nil"
                if let list = argument(directive, "filters") as? ListValue {
                    filters = "[" + list.values.compactMap { ($0 as? StringValue).map { SwiftNaming.stringLiteral($0.value) } }
                        .joined(separator: ", ") + "]"
                }
                result.append(".connection(key: \(SwiftNaming.stringLiteral(key)), filters: \(filters))")
            case "appendNode", "prependNode":
                let connections = argument(directive, "connections").map(ValueRenderer.inputValue) ?? ".list([])"
                let edge = (argument(directive, "edgeTypeName") as? StringValue)?.value ?? ""
                result.append(".\(directive.name.value)(connections: \(connections), edgeTypeName: \(SwiftNaming.stringLiteral(edge)))")
            case "appendEdge", "prependEdge", "deleteEdge":
                let connections = argument(directive, "connections").map(ValueRenderer.inputValue) ?? ".list([])"
                result.append(".\(directive.name.value)(connections: \(connections))")
            case "deleteRecord":
                result.append(".deleteRecord")
            default:
                break
            }
        }
        return result
    }

    /// The entries of `__selections`.
    func selectionEntries(_ scope: SelectionScope) -> [String] {
        var entries: [String] = []
        for selection in scope.selections {
            switch selection {
            case .field(let field):
                for conditionSet in field.conditionSets {
                    var parts = [SwiftNaming.stringLiteral(field.name)]
                    if let alias = field.alias { parts.append("alias: \(SwiftNaming.stringLiteral(alias))") }
                    parts.append("type: \(names.fieldType(field.type))")
                    if !field.arguments.isEmpty {
                        parts.append(
                            "arguments: [" + field.arguments.map { "\(SwiftNaming.stringLiteral($0.name.value)): \(ValueRenderer.inputValue($0.value))" }
                                .joined(separator: ", ") + "]")
                    }
                    if !conditionSet.isEmpty { parts.append("conditions: \(conditions(conditionSet))") }
                    let directives = clientDirectives(field.directives)
                    if !directives.isEmpty { parts.append("directives: [" + directives.joined(separator: ", ") + "]") }
                    if let spec = FieldErrorSpec.of(
                        field, parentType: scope.typeName, throwsOnFieldError: scope.throwsOnFieldError, index: index)
                    {
                        parts.append("errorHandling: \(spec.rendered)")
                    }
                    if index.isClientField(field.name, on: scope.typeName, directives: field.directives) {
                        parts.append("isClientOnly: true")
                    }
                    if let scalar = getNamedType(type: field.type) as? GraphQLScalarType,
                        !IntrospectionConverter.builtInScalars.contains(scalar.name)
                    {
                        parts.append("scalar: \(names.schemaType(scalar.name)).self")
                    }
                    if let child = field.child { parts.append("selections: \(child.swiftName).__selections") }
                    entries.append(".field(" + parts.joined(separator: ", ") + ")")
                }
            case .inlineFragment(let child):
                var parts = ["on: " + (child.typeConditionWritten ? "\(child.swiftName).__parentType" : "nil")]
                if !child.conditions.isEmpty { parts.append("conditions: \(conditions(child.conditions))") }
                if child.isDeferred { parts.append("isDeferred: true") }
                if let target = child.catchTarget {
                    parts.append("catching: \(Self.catchCase(target))")
                    if let alias = child.alias { parts.append("alias: \(SwiftNaming.stringLiteral(alias))") }
                }
                parts.append("selections: \(child.swiftName).__selections")
                entries.append(".inlineFragment(" + parts.joined(separator: ", ") + ")")
            case .fragmentSpread(let name, let conditionList, let isDeferred, let arguments, _):
                let type = names.fragment(name)
                var parts = [SwiftNaming.stringLiteral(name), "on: \(type).__parentType"]
                if !conditionList.isEmpty { parts.append("conditions: \(conditions(conditionList))") }
                if isDeferred { parts.append("isDeferred: true") }
                if let target = merger.builder.fragmentScope(name)?.catchTarget { parts.append("catching: \(Self.catchCase(target))") }
                if arguments.isEmpty {
                    parts.append("selections: \(type).__selections")
                } else {
                    let values = arguments.map { "\(SwiftNaming.stringLiteral($0.name)): \($0.value.map(ValueRenderer.inputValue) ?? ".value(.null)")" }
                    parts.append("selections: \(type).__selections._applyingFragmentArguments([\(values.joined(separator: ", "))])")
                }
                entries.append(".fragment(" + parts.joined(separator: ", ") + ")")
            }
        }
        return entries
    }

    /// Renders the struct for `scope` (resolved beforehand) with its nested structs.
    func render(_ scope: SelectionScope, into writer: inout SwiftWriter, fragmentHeader: ((inout SwiftWriter) -> Void)? = nil) {
        merger.resolve(scope)
        let conformance: String
        let mutable = scope.isMutable
        switch scope.kind {
        case .root: conformance = mutable ? "BatonAPI.MutableRootSelectionSet" : "BatonAPI.RootSelectionSet"
        case .fragment: conformance = mutable ? "BatonAPI.MutableFragment" : "BatonAPI.GraphQLFragment"
        case .inlineFragment: conformance = mutable ? "BatonAPI.MutableInlineFragment" : "BatonAPI.InlineFragment"
        case .field, .merged: conformance = mutable ? "BatonAPI.MutableSelectionSet" : "BatonAPI.SelectionSet"
        }
        if scope.kind != .root && scope.kind != .fragment {
            writer.line("/// \(scope.relativeName)")
            writer.line("///")
            writer.line("/// Parent Type: `\(scope.typeName)`")
        }
        writer.block("public struct \(SwiftNaming.identifier(scope.swiftName)): \(conformance)") { w in
            fragmentHeader?(&w)
            w.line("public \(mutable ? "var" : "let") __data: BatonAPI.DataDict")
            w.line("public init(_dataDict: BatonAPI.DataDict) { __data = _dataDict }")
            w.line()
            // Declared types throughout: a file that refers to another's static (a fragment's
            // `__parentType`, the schema metadata) then never type-checks its initializer again.
            w.line("public static let __parentType: BatonAPI.TypeCondition = \(typeCondition(scope.typeName))")
            w.line("public static var __schema: BatonAPI.SchemaMetadata? { \(schemaMetadataReference) }")
            if scope.kind == .root || scope.kind == .fragment, let target = scope.catchTarget {
                w.line("public static var __catchTarget: BatonAPI.FieldErrorHandling.CatchTarget? { \(Self.catchCase(target)) }")
            }
            if scope.kind == .merged {
                let sources = scope.extraSources.map { "\($0.qualifiedName).__selections" }
                w.line("public static let __selections: [BatonAPI.Selection] = " + (sources.isEmpty ? "[]" : sources.joined(separator: " + ")))
            } else {
                let entries = selectionEntries(scope)
                if entries.isEmpty {
                    w.line("public static let __selections: [BatonAPI.Selection] = []")
                } else {
                    w.line("public static let __selections: [BatonAPI.Selection] = [")
                    w.indent()
                    for entry in entries { w.line(entry + ",") }
                    w.outdent()
                    w.line("]")
                }
            }

            let fields = (scope.mergedFields ?? []).filter { !($0.responseKey == "__typename" && $0.name == "__typename") }
            if !fields.isEmpty { w.line() }
            for field in fields {
                var type = names.output(
                    field.type, composite: field.scope.map { reference(to: $0, from: scope) },
                    nonNullLevels: field.isConditional ? [] : field.errorSpec?.nonNullLevels ?? [])
                if field.isConditional, !type.hasSuffix("?") { type += "?" }
                if let spec = field.errorSpec, !field.isConditional { type = spec.accessorType(type) }
                w.raw(SwiftNaming.docComment(index.field(field.name, on: scope.typeName)?.description ?? field.description, indent: w.indentation))
                let key = SwiftNaming.stringLiteral(field.responseKey)
                if mutable {
                    w.block("public var \(SwiftNaming.identifier(field.responseKey)): \(type)") { a in
                        a.line("get { __data[\(key)] }")
                        a.line("set { __data._set(newValue, for: \(key)) }")
                    }
                } else {
                    w.line("public var \(SwiftNaming.identifier(field.responseKey)): \(type) { __data[\(key)] }")
                }
            }

            let inlineFragments = scope.children.filter { $0.kind == .inlineFragment && !$0.isAdded }
            if !inlineFragments.isEmpty { w.line() }
            for child in inlineFragments {
                let unconditional = child.conditions.isEmpty && !child.isDeferred
                let accessor = unconditional ? "_asInlineFragment()" : "_asConditionalInlineFragment()"
                let property = child.alias.map { $0.isEmpty ? SwiftNaming.lowerCamel(child.swiftName) : $0 } ?? SwiftNaming.lowerCamel(child.swiftName)
                if let target = child.catchTarget, !mutable {
                    let key = SwiftNaming.stringLiteral("__caught:inline:" + (child.alias ?? ""))
                    let make = "{ () -> \(child.swiftName)? in \(accessor) }"
                    if target == "NULL" {
                        w.line("public var \(SwiftNaming.identifier(property)): \(child.swiftName)? { __data._catchingNull(\(key)) \(make) }")
                    } else {
                        w.line(
                            "public var \(SwiftNaming.identifier(property)): Result<\(child.swiftName), BatonAPI.GraphQLFieldError>? { __data._catchingConditionalResult(\(key)) \(make) }")
                    }
                } else if mutable {
                    w.block("public var \(SwiftNaming.identifier(property)): \(child.swiftName)?") { a in
                        a.line("get { \(unconditional ? "_asMutableInlineFragment()" : accessor) }")
                        a.line("set { _setInlineFragment(newValue) }")
                    }
                } else {
                    w.line("public var \(SwiftNaming.identifier(property)): \(child.swiftName)? { \(accessor) }")
                }
            }

            // Relay's `@alias` on spreads: the fragment through a property of its own.
            var aliased: Set<String> = []
            for case .fragmentSpread(let name, let conditions, let isDeferred, _, let alias?) in scope.selections where aliased.insert(alias).inserted {
                let type = names.fragment(name)
                let always = conditions.isEmpty && !isDeferred
                    && (merger.builder.fragmentScope(name).map { index.condition($0.typeName, alwaysMatches: scope.typeName) } ?? false)
                if aliased.count == 1 { w.line() }
                if let target = merger.builder.fragmentScope(name)?.catchTarget, !mutable {
                    let key = SwiftNaming.stringLiteral("__caught:fragment:" + name)
                    let make = "\(type)(_dataDict: __data)"
                    let matches = "__data.matches(\(type).__parentType, selections: \(type).__selections, defaultTypename: Self.__parentType.name)"
                    let property = SwiftNaming.identifier(alias)
                    if target == "NULL" {
                        w.line("public var \(property): \(type)? { __data._catchingNull(\(key)) { () -> \(type)? in \(always ? make : "\(matches) ? \(make) : nil") } }")
                    } else if always {
                        w.line("public var \(property): Result<\(type), BatonAPI.GraphQLFieldError> { __data._catchingResult(\(key)) { \(make) } }")
                    } else {
                        w.line(
                            "public var \(property): Result<\(type), BatonAPI.GraphQLFieldError>? { __data._catchingConditionalResult(\(key)) { () -> \(type)? in \(matches) ? \(make) : nil } }")
                    }
                } else if always {
                    w.line("public var \(SwiftNaming.identifier(alias)): \(type) { \(type)(_dataDict: __data) }")
                } else {
                    w.line(
                        "public var \(SwiftNaming.identifier(alias)): \(type)? { __data.matches(\(type).__parentType, selections: \(type).__selections, defaultTypename: Self.__parentType.name) ? \(type)(_dataDict: __data) : nil }")
                }
            }

            let fragments = merger.fragmentAccessors(scope)
            if !fragments.isEmpty {
                w.line()
                w.line("public var fragments: Fragments { Fragments(_dataDict: __data) }")
                w.line()
                w.block("public struct Fragments: BatonAPI.FragmentContainer") { f in
                    f.line("public let __data: BatonAPI.DataDict")
                    f.line("public init(_dataDict: BatonAPI.DataDict) { __data = _dataDict }")
                    f.line()
                    for fragment in fragments {
                        let accessor = SwiftNaming.identifier(names.fragmentAccessor(fragment.name))
                        let type = names.fragment(fragment.name)
                        if let target = merger.builder.fragmentScope(fragment.name)?.catchTarget, !mutable {
                            // `@catch` on the fragment's definition: its accessor holds what was caught.
                            let key = SwiftNaming.stringLiteral("__caught:fragment:" + fragment.name)
                            let make = fragment.isOptional ? "_toConditionalFragment()" : "_toFragment()"
                            if target == "NULL" {
                                f.line("public var \(accessor): \(type)? { __data._catchingNull(\(key)) { () -> \(type)? in \(make) } }")
                            } else if fragment.isOptional {
                                f.line(
                                    "public var \(accessor): Result<\(type), BatonAPI.GraphQLFieldError>? { __data._catchingConditionalResult(\(key)) { () -> \(type)? in \(make) } }")
                            } else {
                                f.line(
                                    "public var \(accessor): Result<\(type), BatonAPI.GraphQLFieldError> { __data._catchingResult(\(key)) { () -> \(type) in \(make) } }")
                            }
                        } else if fragment.isOptional {
                            f.line("public var \(accessor): \(names.fragment(fragment.name))? { _toConditionalFragment() }")
                        } else {
                            f.line("public var \(accessor): \(names.fragment(fragment.name)) { _toFragment() }")
                        }
                    }
                }
            }

            if wantsInitializer(scope) { SelectionSetInitializerRenderer(selectionSets: self).render(scope, into: &w) }

            var childIndex = 0
            while childIndex < scope.children.count {
                let child = scope.children[childIndex]
                merger.resolve(child)
                w.line()
                render(child, into: &w)
                childIndex += 1
            }
        }
    }

    /// The `FieldErrorHandling.CatchTarget` case of `@catch(to:)`'s value.
    static func catchCase(_ target: String) -> String { target == "NULL" ? ".null" : ".result" }

    /// Whether `scope` sits in an operation or fragment chosen for initializers.
    func wantsInitializer(_ scope: SelectionScope) -> Bool {
        guard !initializerScopes.isEmpty else { return false }
        var top = scope
        while let enclosing = top.enclosing { top = enclosing }
        return initializerScopes.contains(ObjectIdentifier(top))
    }
}
