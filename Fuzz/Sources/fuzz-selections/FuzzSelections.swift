// libFuzzer target: a parsed response decoded by generated selection sets and normalized.
import BatonAPI
import BatonExampleAPI
import BatonStore

/// Decodes with `init(jsonObject:)` of a root selection set, then normalizes the same object
/// into records, as the client does with a response's `data`. Returns what decoded.
@discardableResult
func decodeAndNormalize<Data: RootSelectionSet>(_: Data.Type, _ object: JSONObject, variables: JSONObject) -> Data? {
    defer {
        _ = ResponseNormalizer.normalizeWithHandles(
            object, selections: Data.__selections, rootType: Data.__parentType.name, variables: variables
        )
    }
    return try? Data(jsonObject: object, variables: variables)
}

/// A number read from the data, kept small: `Int(_:)` of a Double beyond Int's range traps.
func weight(_ value: Double?) -> Int {
    guard let value else { return 0 }
    return value.isFinite ? Int(value.magnitude.truncatingRemainder(dividingBy: 1024)) : 1
}

/// Reads every field of decoded data: what `init(jsonObject:)` accepts, the accessors must read.
func readAll(_ data: HeroAndFriendsQuery.Data) -> Int {
    guard let hero = data.hero else { return 0 }
    var count = hero.id.utf8.count + hero.appearsIn.count + hero.fragments.characterName.name.utf8.count
    for friend in hero.friends ?? [] { count += friend?.name.utf8.count ?? 0 }
    count += weight(hero.asHuman?.height) + (hero.asDroid?.primaryFunction?.utf8.count ?? 0)
    return count
}

func readAll(_ data: SearchQuery.Data) -> Int {
    var count = 0
    for result in data.search ?? [] {
        count += result?.asHuman.map { $0.id.utf8.count + $0.name.utf8.count + ($0.homePlanet?.utf8.count ?? 0) } ?? 0
        count += result?.asDroid.map { $0.id.utf8.count + $0.name.utf8.count + ($0.primaryFunction?.utf8.count ?? 0) } ?? 0
        count += result?.asStarship.map { $0.id.utf8.count + $0.name.utf8.count + weight($0.length) } ?? 0
    }
    return count
}

func readAll(_ data: HumanQuery.Data) -> Int {
    guard let human = data.human else { return 0 }
    return human.id.utf8.count + human.name.utf8.count + (human.homePlanet?.utf8.count ?? 0)
        + weight(human.height) + weight(human.mass) + human.appearsIn.count
}

/// Keeps the reads from being optimized away.
nonisolated(unsafe) var readCount = 0

/// The input is a response (`{"data": …}`) or a bare data object; its `variables` member, when
/// an object, is used as the operation's variables, so `@include`/`@skip` and arguments vary too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSelections(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let response = try? JSONValue(parsing: bytes).objectValue else { return 0 }
    let object = response["data"]?.objectValue ?? response
    let variables = response["variables"]?.objectValue ?? [:]
    if let data = decodeAndNormalize(HeroAndFriendsQuery.Data.self, object, variables: variables) { readCount &+= readAll(data) }
    if let data = decodeAndNormalize(SearchQuery.Data.self, object, variables: variables) { readCount &+= readAll(data) }
    if let data = decodeAndNormalize(HumanQuery.Data.self, object, variables: variables) { readCount &+= readAll(data) }
    decodeAndNormalize(LaunchListQuery.Data.self, object, variables: variables)
    decodeAndNormalize(PaginatedTodosQuery.Data.self, object, variables: variables)
    decodeAndNormalize(TodoListPaginationQuery.Data.self, object, variables: variables)
    return 0
}
