// libFuzzer target: the code generator's document input, against the example schema.
import BatonCodegen

/// The example server's schema, loaded once from the root package's sources. libFuzzer calls
/// the target from one thread, and the schema is only read (GraphQLSwift's schema types are not
/// `Sendable`, so neither is `LoadedSchema`).
nonisolated(unsafe) let exampleSchema: LoadedSchema = {
    let path = String(#filePath.prefix(upTo: #filePath.range(of: "/Fuzz/Sources/")!.lowerBound))
        + "/Sources/BatonExampleServer/Resources/schema.graphqls"
    do {
        return try SchemaLoader.load(paths: [path])
    } catch {
        fatalError("the example schema does not load: \(error)")
    }
}()

/// Parses, validates and generates Swift for the input as a `.graphql` file: a typed
/// `CodegenErrors` is fine, a crash is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocuments(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? CodeGenerator.generate(schema: exampleSchema, sources: [DocumentSource(path: "Fuzz.graphql", text: text)])
    return 0
}
