import Foundation
import GraphQL

/// Options that shape the generated code.
public struct GenerationOptions: Sendable, Hashable {
    /// The `public enum` the schema's types are nested in; `nil` for none.
    public var namespace: String?
    /// Custom scalars mapped to Swift types conforming to `CustomScalarType`, by GraphQL name.
    public var customScalars: [String: String]
    /// Relay providers mapped to Swift types, by provider name (`CodegenConfiguration.providedVariables`).
    public var providedVariables: [String: String] = [:]
    /// How the generated code is split into files.
    public var fileLayout: CodegenConfiguration.FileLayout
    /// Under the `grouped` layout, how many files to write (`nil`: ``GroupedLayout/fileCount(definitions:)``
    /// of the definition count). The build plugin fixes it, as it names its outputs beforehand.
    public var groupedFileCount: Int?
    /// Which selection sets get memberwise initializers.
    public var selectionSetInitializers: SelectionSetInitializers = .default
    /// Whether to generate test mocks (`GeneratedOutput.testMockFiles`), and the module they import.
    public var testMocks: TestMockOptions?

    /// Options; by default no namespace, no custom scalars, a file per definition (the command
    /// line and `baton.json` default to `.grouped` instead: see `CodegenConfiguration.FileLayout`).
    public init(namespace: String? = nil, customScalars: [String: String] = [:], fileLayout: CodegenConfiguration.FileLayout = .perDefinition) {
        self.namespace = namespace
        self.customScalars = customScalars
        self.fileLayout = fileLayout
    }
}

/// What one generation produced.
public struct GeneratedOutput: Sendable, Hashable {
    /// The Swift files, with paths relative to the output folder.
    public let files: [GeneratedFile]
    /// Every operation's id, name, type and document, for persisted queries.
    public let manifest: OperationManifest
    /// Custom scalars the documents use that `customScalars` does not map (but `Upload`, whose
    /// `String` is the file's form field name): each is generated as `String`, which fails at run
    /// time for a value that is not a string (a `JSON` object).
    public var unmappedCustomScalars: [String] = []
    /// The test mocks, with paths relative to their own output folder (empty unless asked for).
    public var testMockFiles: [GeneratedFile] = []
}

/// The generator: schema + documents → Swift files and an operation manifest.
public enum CodeGenerator {
    /// Runs a configuration: loads, validates, generates and writes. Throws every input error.
    @discardableResult
    public static func run(_ configuration: CodegenConfiguration) throws(CodegenErrors) -> OutputWriter.Summary {
        let schema = try SchemaLoader.load(paths: configuration.schemaPaths)
        let sources = try DocumentCollector.collect(globs: configuration.documentGlobs)
        let output = try generate(schema: schema, sources: sources, options: options(for: configuration))
        do throws(CodegenError) {
            var summary = try OutputWriter.write(output.files, to: configuration.outputDirectory)
            summary.warnings = output.unmappedCustomScalars.map { name in
                "custom scalar \(name) has no Swift type in \"customScalars\", so it is generated as String and a value "
                    + "that is not a JSON string fails to decode at run time; map it to a type conforming to CustomScalarType "
                    + "(\"customScalars\": {\"\(name)\": \"MyType\"} in baton.json, or --custom-scalar \(name)=MyType)"
            }
            if let manifestPath = configuration.operationManifestPath {
                try OutputWriter.writeIfChanged(output.manifest.json, to: manifestPath)
            }
            if let testMocks = configuration.testMocks {
                let mocks = try OutputWriter.write(output.testMockFiles, to: testMocks.outputDirectory)
                summary.written += mocks.written.map { "\(testMocks.outputDirectory)/\($0)" }
                summary.unchanged += mocks.unchanged.map { "\(testMocks.outputDirectory)/\($0)" }
                summary.removed += mocks.removed.map { "\(testMocks.outputDirectory)/\($0)" }
            }
            return summary
        } catch {
            throw CodegenErrors([error])
        }
    }

    /// Writes only the test mocks of a configuration (its `testMocks` must be set): for a target
    /// whose operations the build plugin generates, the mocks come from the command line.
    @discardableResult
    public static func runTestMocksOnly(_ configuration: CodegenConfiguration) throws(CodegenErrors) -> OutputWriter.Summary {
        guard let testMocks = configuration.testMocks else {
            throw CodegenErrors([CodegenError("no test mocks to write: set \"testMocks\" in baton.json or --test-mocks-output")])
        }
        let schema = try SchemaLoader.load(paths: configuration.schemaPaths)
        let sources = try DocumentCollector.collect(globs: configuration.documentGlobs)
        let output = try generate(schema: schema, sources: sources, options: options(for: configuration))
        do throws(CodegenError) {
            return try OutputWriter.write(output.testMockFiles, to: testMocks.outputDirectory)
        } catch {
            throw CodegenErrors([error])
        }
    }

    static func options(for configuration: CodegenConfiguration) -> GenerationOptions {
        var options = GenerationOptions(
            namespace: configuration.namespace, customScalars: configuration.customScalars, fileLayout: configuration.fileLayout)
        options.providedVariables = configuration.providedVariables
        options.groupedFileCount = configuration.groupedFileCount
        options.selectionSetInitializers = configuration.selectionSetInitializers
        options.testMocks = configuration.testMocks.map { TestMockOptions(apiModule: $0.apiModule) }
        return options
    }

    /// Generates the files for documents against a schema, without touching the disk.
    public static func generate(schema: LoadedSchema, sources: [DocumentSource], options: GenerationOptions = GenerationOptions()) throws(CodegenErrors) -> GeneratedOutput {
        // Relay's client schema extensions: type system definitions among the documents.
        let schema = try ClientSchemaExtension.apply(to: schema, from: sources)
        var documents = try DocumentValidator.validate(sources, schema: schema)
        let index = SchemaIndex(schema)
        var names = TypeNames(namespace: options.namespace, customScalars: options.customScalars, providedVariables: options.providedVariables)
        var errors: [CodegenError] = []

        // Relay's fragment arguments and @refetchable: the refetch queries are documents too.
        let fragmentArguments = FragmentArgumentTable(fragments: documents.fragments, operations: documents.operations)
        var refetchQueries = RefetchQuerySynthesizer(
            index: index, fragments: documents.fragments, arguments: fragmentArguments, sourcePaths: documents.sourcePaths)
        let refetchSources = refetchQueries.synthesize()
        errors += fragmentArguments.errors + refetchQueries.errors
        if !errors.isEmpty { throw CodegenErrors(errors) }
        if !refetchSources.isEmpty { documents = try DocumentValidator.validate(sources + refetchSources, schema: schema) }
        // What Relay's compiler adds for its runtime: id to refetch through node(id:), pageInfo of connections.
        let nodeRefetchable = Set(refetchQueries.refetchables.values.filter { $0.root == .node }.map(\.fragmentName))
        documents = RelayAdditions(index: index).apply(to: documents, nodeRefetchable: nodeRefetchable)

        // Top-level names: every valid program gets distinct ones (GeneratedNames).
        let rootTypes = index.rootTypeNames
        func suffix(_ operation: OperationDefinition) -> String {
            // A local cache mutation is named as Apollo names it: `…LocalCacheMutation`.
            operation.directives.contains { $0.name.value == ClientDirectives.localCacheMutation }
                ? "LocalCacheMutation" : GraphQLOperationType(operation.operation).suffix
        }
        let generatedNames = GeneratedNames(
            operations: documents.operations, fragmentNames: Array(documents.fragments.keys), schema: index.schema,
            namespace: options.namespace, suffix: suffix)
        var topLevel: [String: SourceLocation?] = [:]
        var operationTypeNames: [(OperationDefinition, String, String)] = []  // operation, Swift type, root type
        for operation in documents.operations {
            let kind = GraphQLOperationType(operation.operation)
            let name = operation.name?.value ?? ""
            let typeName = generatedNames.operations[name] ?? name + suffix(operation)
            guard let rootType = rootTypes[kind] else {
                errors.append(CodegenError("the schema has no \(kind.rawValue) type", at: .of(operation)))
                continue
            }
            topLevel[typeName] = .of(operation)
            operationTypeNames.append((operation, typeName, rootType))
        }
        for name in documents.fragments.keys.sorted() {
            topLevel[generatedNames.fragments[name] ?? name] = .of(documents.fragments[name])
        }
        if let namespace = options.namespace, SwiftNaming.moduleNames.contains(namespace) {
            errors.append(CodegenError("the namespace \"\(namespace)\" would hide the \(namespace) module that generated code refers to"))
        }

        // Nested structs must not shadow the top-level types generated code names unqualified.
        var reserved = Set(topLevel.keys)
        if options.namespace == nil {
            for (name, type) in index.schema.typeMap where type is GraphQLEnumType || type is GraphQLInputObjectType || type is GraphQLScalarType {
                reserved.insert(name)
            }
        } else if let namespace = options.namespace {
            reserved.insert(namespace)
        }
        let fragmentTypeNames = generatedNames.fragments.filter { $0.key != $0.value }
        let builder = ScopeBuilder(
            index: index, fragments: documents.fragments, arguments: fragmentArguments, reservedNames: reserved,
            fragmentTypeNames: fragmentTypeNames)
        let fragmentNames = documents.fragments.keys.sorted()
        for name in fragmentNames { _ = builder.fragmentScope(name) }
        var operationScopes: [SelectionScope] = []
        for (operation, typeName, rootType) in operationTypeNames {
            operationScopes.append(builder.operationScope(operation, rootType: rootType, typeName: typeName))
        }
        errors += builder.errors

        // Schema types the documents use.
        let used = UsedSchemaTypes(index: index)
        for scope in builder.fragmentScopes.values { used.collect(scope) }
        for scope in operationScopes { used.collect(scope) }
        for operation in documents.operations {
            for definition in operation.variableDefinitions { used.collect(definition.type) }
        }
        for name in used.enums + used.inputObjects + used.customScalars
        where options.namespace == nil && SwiftNaming.moduleNames.contains(name) {
            errors.append(
                CodegenError(
                    "the schema type \"\(name)\" would hide the \(name) module that generated code refers to; generate with a namespace",
                    at: schema.typeLocations[name]))
        }
        // Names a member of a generated type could hide are reached through `__Name`.
        names.fragmentTypeNames = fragmentTypeNames
        names.fragmentAccessorNames = TypeNames.fragmentAccessorNames(documents.fragments.keys)
        var topLevelNames = Array(topLevel.keys)
        if let namespace = options.namespace {
            topLevelNames.append(namespace)
        } else {
            topLevelNames += used.enums + used.inputObjects + used.customScalars
        }
        names.shadowed = GeneratedNames.shadowable(topLevelNames, scopes: Array(builder.fragmentScopes.values) + operationScopes, names: names)
        for scope in builder.fragmentScopes.values where names.shadowed.contains(scope.swiftName) {
            scope.topLevelReference = names.reference(scope.swiftName)
        }
        for scope in operationScopes { scope.qualifiedPrefix = names.reference(scope.qualifiedPrefix) }
        if !errors.isEmpty { throw CodegenErrors(errors) }

        let merger = FieldMerger(builder: builder)
        for name in fragmentOrder(documents.fragments) {
            if let scope = builder.fragmentScope(name) { merger.resolveTree(scope) }
        }
        var selectionSets = SelectionSetRenderer(merger: merger, names: names)
        if let namespace = options.namespace { selectionSets.schemaMetadataReference = names.reference(namespace) + ".schemaMetadata" }
        for ((operation, typeName, _), scope) in zip(operationTypeNames, operationScopes)
        where options.selectionSetInitializers.includesOperation(
            named: operation.name?.value ?? "", typeName: typeName, isMutation: operation.operation == .mutation)
        {
            selectionSets.initializerScopes.insert(ObjectIdentifier(scope))
        }
        for name in fragmentNames where options.selectionSetInitializers.includesFragment(named: name) {
            if let scope = builder.fragmentScope(name) { selectionSets.initializerScopes.insert(ObjectIdentifier(scope)) }
        }
        let stripper = ClientFieldStripper(index: index, fragments: documents.fragments)
        var operationRenderer = OperationRenderer(selectionSets: selectionSets, fragments: documents.fragments, arguments: fragmentArguments)
        operationRenderer.stripper = stripper
        let schemaTypes = SchemaTypeRenderer(names: names, index: index)

        var units: [(path: String, group: String, body: String)] = []
        var manifest: [OperationManifest.Operation] = []
        for ((operation, typeName, _), scope) in zip(operationTypeNames, operationScopes) {
            var writer = SwiftWriter()
            do throws(CodegenError) {
                try operationRenderer.render(operation, typeName: typeName, scope: scope, into: &writer)
            } catch {
                errors.append(error)
                continue
            }
            let written = documents.sourcePaths["operation " + (operation.name?.value ?? "")] ?? ""
            let source = refetchQueries.fragmentPaths[written] ?? written
            if let alias = names.alias(for: typeName) { writer.raw(alias) }
            units.append(("Operations/\(typeName).swift", source, writer.text))
            // A local cache mutation is never sent: not a persisted query.
            if operation.directives.contains(where: { $0.name.value == ClientDirectives.localCacheMutation }) { continue }
            // Nor is a query of client-only fields: the store answers it. A mutation or a
            // subscription of client-only fields would send an empty selection set, and only the
            // server can answer one: refused here, with what to write instead.
            if operationRenderer.isClientOnly(operation) {
                if operation.operation != .query {
                    let kind = GraphQLOperationType(operation.operation).rawValue
                    errors.append(
                        CodegenError(
                            "\(kind) \"\(operation.name?.value ?? "")\" selects only client-only fields, so there is nothing to send to the "
                                + "server; write client fields with a local cache mutation (`query … @localCacheMutation`, "
                                + "`store.update`) and read them with a query",
                            at: .of(operation)))
                }
                continue
            }
            let document = operationRenderer.document(operation)
            manifest.append(
                OperationManifest.Operation(
                    id: OperationRenderer.sha256(document), name: operation.name?.value ?? "",
                    type: GraphQLOperationType(operation.operation).rawValue, body: document))
        }
        for name in fragmentNames {
            guard let scope = builder.fragmentScope(name), let definition = documents.fragments[name] else { continue }
            var writer = SwiftWriter()
            selectionSets.render(scope, into: &writer) { w in
                w.line("public static let fragmentName = \(SwiftNaming.stringLiteral(name))")
                w.line("public static let fragmentDefinition = \(SwiftNaming.stringLiteral(DocumentPrinter.fragment(stripper.fragments[name] ?? definition)))")
                w.line()
            }
            if let alias = names.alias(for: scope.swiftName) { writer.raw(alias) }
            if let refetchable = refetchQueries.refetchables[name] {
                writer.line()
                // Mapped providers of the refetch query's provided variables give their values
                // with the defaults (pagination sends the defaults as variables).
                var provided: [(name: String, expression: String)] = []
                let refetchQuery = documents.operations.first { $0.name?.value == refetchable.queryName }
                if let query = refetchQuery {
                    for variable in DocumentPrinter.providedVariables(query, fragments: documents.fragments, arguments: fragmentArguments) {
                        guard let providerType = options.providedVariables[variable.provider],
                            let type = operationRenderer.inputType(variable.type)
                        else { continue }
                        provided.append((variable.variableName, "(\(providerType).value as \(names.input(type))).variableJSON ?? .null"))
                    }
                }
                renderRefetchable(
                    refetchable, typeName: scope.swiftName, queryType: generatedNames.operations[refetchable.queryName], provided: provided,
                    into: &writer)
                if let refetchQuery {
                    writer.line()
                    do throws(CodegenError) {
                        try FragmentVariablesRenderer(operations: operationRenderer).render(refetchable, query: refetchQuery, into: &writer)
                    } catch {
                        errors.append(error)
                    }
                }
            }
            units.append(("Fragments/\(scope.swiftName).swift", documents.sourcePaths["fragment " + name] ?? "", writer.text))
        }
        if !errors.isEmpty { throw CodegenErrors(errors) }

        func inNamespace(_ name: String, _ render: (inout SwiftWriter) -> Void) -> String {
            var writer = SwiftWriter()
            if let namespace = options.namespace {
                writer.block("extension \(namespace)") { render(&$0) }
            } else {
                render(&writer)
                if let alias = names.alias(for: name) { writer.raw(alias) }
            }
            return writer.text
        }
        var schemaUnits: [(path: String, body: String)] = []
        if let namespace = options.namespace {
            schemaUnits.append(("Schema/\(namespace).swift", "/// The schema types the documents use.\npublic enum \(namespace) {}\n"))
        }
        for name in used.enums {
            guard let type = index.schema.getType(name: name) as? GraphQLEnumType else { continue }
            var shorthands = SwiftWriter()
            schemaTypes.renderEnumShorthands(type, into: &shorthands)
            schemaUnits.append(("Schema/Enums/\(name).swift", inNamespace(name) { schemaTypes.renderEnum(type, into: &$0) } + shorthands.text))
        }
        for name in used.inputObjects {
            guard let type = index.schema.getType(name: name) as? GraphQLInputObjectType else { continue }
            schemaUnits.append(("Schema/InputObjects/\(name).swift", inNamespace(name) { schemaTypes.renderInputObject(type, into: &$0) }))
        }
        for name in used.customScalars {
            guard let type = index.schema.getType(name: name) as? GraphQLScalarType else { continue }
            schemaUnits.append(("Schema/CustomScalars/\(name).swift", inNamespace(name) { schemaTypes.renderCustomScalar(type, into: &$0) }))
        }
        var metadataWriter = SwiftWriter()
        if let namespace = options.namespace {
            metadataWriter.block("extension \(namespace)") { w in
                SchemaMetadataRenderer(index: index).render(into: &w, declaration: "public static let schemaMetadata: BatonAPI.SchemaMetadata")
            }
        } else {
            SchemaMetadataRenderer(index: index).render(into: &metadataWriter, declaration: "public let schemaMetadata: BatonAPI.SchemaMetadata")
        }
        schemaUnits.append(("Schema/SchemaMetadata.swift", metadataWriter.text))

        let prelude = GeneratedFile.header + "\nimport BatonAPI\n\n"
        var files: [GeneratedFile] = []
        switch options.fileLayout {
        case .perDefinition:
            for unit in units { files.append(GeneratedFile(relativePath: unit.path, contents: prelude + unit.body)) }
            for unit in schemaUnits { files.append(GeneratedFile(relativePath: unit.path, contents: prelude + unit.body)) }
        case .perDocument:
            var groups: [String: [String]] = [:]
            var order: [String] = []
            var fullPaths: [String: String] = [:]
            for source in sources {
                let fileName = (source.path as NSString).lastPathComponent + ".swift"
                if let other = fullPaths[fileName], other != source.path {
                    throw CodegenErrors([
                        CodegenError(
                            "two documents are named \((source.path as NSString).lastPathComponent) (the other is \(other)); the per-document layout needs unique file names",
                            at: SourceLocation(path: source.path, line: 1, column: 1))
                    ])
                }
                fullPaths[fileName] = source.path
                if groups[fileName] == nil {
                    order.append(fileName)
                    groups[fileName] = []
                }
            }
            for unit in units {
                let fileName = (unit.group as NSString).lastPathComponent + ".swift"
                groups[fileName, default: []].append(unit.body)
            }
            for fileName in order {
                files.append(GeneratedFile(relativePath: fileName, contents: prelude + (groups[fileName] ?? []).joined(separator: "\n")))
            }
            files.append(GeneratedFile(relativePath: "SchemaTypes.swift", contents: prelude + schemaUnits.map(\.body).joined(separator: "\n")))
        case .grouped:
            let all = units.map { (path: $0.path, body: $0.body) } + schemaUnits
            let count = max(1, options.groupedFileCount ?? GroupedLayout.fileCount(definitions: all.count))
            var groups = Array(repeating: [String](), count: count)
            for unit in all { groups[GroupedLayout.fileIndex(of: unit.path, count: count)].append(unit.body) }
            for (index, bodies) in groups.enumerated() {
                files.append(GeneratedFile(relativePath: GroupedLayout.fileName(index, of: count), contents: prelude + bodies.joined(separator: "\n")))
            }
        }
        // One module may not hold two files of the same name (a fragment named SchemaMetadata):
        // a later one takes its folder's name too.
        var baseNames: Set<String> = []
        for (offset, file) in files.enumerated() {
            let name = (file.relativePath as NSString).lastPathComponent
            if baseNames.insert(name).inserted { continue }
            let folder = (file.relativePath as NSString).deletingLastPathComponent
            let stem = (name as NSString).deletingPathExtension
            var candidate = "\(stem)+\((folder as NSString).lastPathComponent).swift"
            var counter = 2
            while baseNames.contains(candidate) {
                candidate = "\(stem)+\((folder as NSString).lastPathComponent)\(counter).swift"
                counter += 1
            }
            baseNames.insert(candidate)
            files[offset] = GeneratedFile(relativePath: (folder as NSString).appendingPathComponent(candidate), contents: file.contents)
        }
        var output = GeneratedOutput(files: files, manifest: OperationManifest(operations: manifest.sorted { $0.name < $1.name }))
        // `Upload` (the multipart request spec's) is a String by design: the file's form field name.
        output.unmappedCustomScalars = used.customScalars.filter { options.customScalars[$0] == nil && $0 != "Upload" }.sorted()
        if let testMocks = options.testMocks {
            let scopes = operationScopes + fragmentNames.compactMap { builder.fragmentScope($0) }
            // In their own module, the mocks name the schema types module-qualified (a test target may
            // declare types of the same names).
            let qualifier = [testMocks.apiModule, options.namespace].compactMap { $0 }.joined(separator: ".")
            let mockNames = TypeNames(namespace: qualifier.isEmpty ? nil : qualifier, customScalars: options.customScalars)
            output.testMockFiles = MockRenderer(index: index, names: mockNames, options: testMocks).files(for: scopes)
            // Compiled into the operations' module, a mock type must not take an operation's or fragment's name.
            if testMocks.apiModule == nil {
                let clashes = output.testMockFiles.map { String($0.relativePath.dropLast("+Mock.swift".count)) }.filter { topLevel[$0] != nil }
                if !clashes.isEmpty {
                    throw CodegenErrors(
                        clashes.map { name in
                            CodegenError(
                                "the test mock type \"\(name)\" would clash with the generated type of the same name; give the mocks a module of their own (\"apiModule\")",
                                at: topLevel[name] ?? nil)
                        })
                }
            }
        }
        return output
    }

    /// The `RefetchableFragment` (or `PaginatedFragment`) conformance of a `@refetchable` fragment.
    /// `typeName`: the fragment's Swift type; `queryType`: its refetch query's (by default the query's
    /// name with `Query`).
    static func renderRefetchable(
        _ refetchable: RefetchableFragment, typeName: String? = nil, queryType: String? = nil,
        provided: [(name: String, expression: String)] = [], into writer: inout SwiftWriter
    ) {
        let queryType = queryType ?? (refetchable.queryName.hasSuffix("Query") ? refetchable.queryName : refetchable.queryName + "Query")
        let paginated = refetchable.connectionPath != nil && (refetchable.forward != nil || refetchable.backward != nil)
        writer.block("extension \(typeName ?? refetchable.fragmentName): \(paginated ? "BatonAPI.PaginatedFragment" : "BatonAPI.GraphQLRefetchableFragment")") { w in
            w.line("public typealias RefetchQuery = \(queryType)")
            w.line("public static let refetchRoot: BatonAPI.RefetchRoot = .\(refetchable.root.rawValue)")
            let defaults = refetchable.argumentDefaults.map { "\(SwiftNaming.stringLiteral($0.name)): \(ValueRenderer.jsonValue($0.value))" }
            if provided.isEmpty {
                w.line("public static let argumentDefaults: BatonAPI.JSONObject = [\(defaults.isEmpty ? ":" : defaults.joined(separator: ", "))]")
            } else {
                let entries = defaults + provided.map { "\(SwiftNaming.stringLiteral($0.name)): \($0.expression)" }
                w.line("public static var argumentDefaults: BatonAPI.JSONObject { [\(entries.joined(separator: ", "))] }")
            }
            if paginated, let path = refetchable.connectionPath {
                func direction(_ pagination: RefetchableFragment.Pagination?) -> String {
                    guard let pagination else { return "nil" }
                    return "BatonAPI.PaginationVariables(count: \(SwiftNaming.stringLiteral(pagination.countVariable)), cursor: \(SwiftNaming.stringLiteral(pagination.cursorVariable)))"
                }
                w.line(
                    "public static let connection = BatonAPI.ConnectionPagination(path: [\(path.map(SwiftNaming.stringLiteral).joined(separator: ", "))], "
                        + "forward: \(direction(refetchable.forward)), backward: \(direction(refetchable.backward)))")
            }
        }
    }

    /// Fragments ordered so that each comes after the fragments it spreads.
    static func fragmentOrder(_ fragments: [String: FragmentDefinition]) -> [String] {
        var order: [String] = []
        var visited: Set<String> = []
        func visit(_ name: String) {
            guard visited.insert(name).inserted, let definition = fragments[name] else { return }
            for used in DocumentPrinter.fragmentsUsed(by: definition.selectionSet, fragments: fragments) { visit(used) }
            order.append(name)
        }
        for name in fragments.keys.sorted() { visit(name) }
        return order
    }
}
