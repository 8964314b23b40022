// libFuzzer target: a parsed response decoded by generated selection sets and normalized.
import BatonAPI
import BatonExampleAPI
import BatonStore

/// Decodes with `init(jsonObject:)` of a root selection set, then normalizes the same object
/// into records, as the client does with a response's `data`.
func decodeAndNormalize<Data: RootSelectionSet>(_: Data.Type, _ object: JSONObject, variables: JSONObject) {
    _ = try? Data(jsonObject: object, variables: variables)
    _ = ResponseNormalizer.normalizeWithHandles(
        object, selections: Data.__selections, rootType: Data.__parentType.name, variables: variables
    )
}

/// The input is a response (`{"data": …}`) or a bare data object; its `variables` member, when
/// an object, is used as the operation's variables, so `@include`/`@skip` and arguments vary too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSelections(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let response = try? JSONValue(parsing: bytes).objectValue else { return 0 }
    let object = response["data"]?.objectValue ?? response
    let variables = response["variables"]?.objectValue ?? [:]
    decodeAndNormalize(HeroAndFriendsQuery.Data.self, object, variables: variables)
    decodeAndNormalize(SearchQuery.Data.self, object, variables: variables)
    decodeAndNormalize(LaunchListQuery.Data.self, object, variables: variables)
    decodeAndNormalize(PaginatedTodosQuery.Data.self, object, variables: variables)
    decodeAndNormalize(TodoListPaginationQuery.Data.self, object, variables: variables)
    return 0
}
