// libFuzzer target: the code generator's schema input.
import BatonCodegen

/// A fixed document generated against each schema that loads, so the generator meets odd schemas too.
let document = DocumentSource(path: "Fuzz.graphql", text: "query Fuzz { __typename }")

/// Loads the input as a schema: as introspection JSON when it starts with `{`, as SDL otherwise.
/// A typed `CodegenErrors` is fine, a crash is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let path = text.first == "{" ? "Fuzz.json" : "Fuzz.graphqls"
    guard let schema = try? SchemaLoader.load(sources: [(text, path)]) else { return 0 }
    _ = try? CodeGenerator.generate(schema: schema, sources: [document])
    return 0
}
