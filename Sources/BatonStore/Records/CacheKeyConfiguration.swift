import BatonAPI

/// How the store finds an object's cache key (its record ID), Apollo's and Relay's rules in one:
///
/// 1. A type with key fields (`@typePolicy(keyFields:)`, or given here): `Typename:value`,
///    several values joined by `+` (a `\` or `+` inside a value escaped with `\`).
/// 2. Otherwise its `id` field: the bare `id` when the schema promises IDs unique across types
///    (Relay's `Node` contract, for `Node` and its implementers), else `Typename:id`, safe when
///    IDs are unique per type only, as in most schemas.
/// 3. Only strings and integers make keys; an object whose key value is anything else (a boolean,
///    float, object, list or null) has no cache key and gets a client ID from its place.
///
/// It also says where objects have no record of their own and where a read may find a record by
/// a field's arguments, as Apollo Kotlin's normalized cache and Apollo iOS read their schema's
/// cache directives:
///
/// - ``embeddedFields``: `@typePolicy(embeddedFields:)`. The object under such a field is stored
///   inside its parent's record, never as a record of its own, even when it has a cache key.
/// - ``keyArguments``: `@fieldPolicy(forFields:, keyArgs:)`. A read of such a field that its
///   parent's record lacks (`book(id: 1)` never fetched) is answered from the record the
///   arguments name (`Book:1`, written by another query): a cache redirect. A list field with one
///   list argument (`books(ids: [1, 2])`) is answered item by item.
///
/// A client made from generated operations takes this from the generated `SchemaMetadata` with
/// no code of yours; a `Store(cacheKeys:)` given one uses it instead, for every operation.
public struct CacheKeyConfiguration: Sendable, Hashable {
    /// Which types' `id` is a cache key on its own.
    public enum GlobalIDs: Sendable, Hashable {
        /// None: every `id` is qualified by its typename, `Typename:id` (Apollo iOS's form).
        case none
        /// Every type's: the bare `id` (relay-runtime's default; IDs must be unique across types).
        case all
        /// These types' (the `Node` interface and its implementers); others get `Typename:id`.
        case only(Set<String>)
    }

    /// Key fields per type name; types not listed use `defaultKeyField`.
    public var keyFields: [String: [String]]
    /// The field that holds a cache key for types without key fields; `nil` for none.
    public var defaultKeyField: String?
    /// Which types' `defaultKeyField` value is a key without the typename in front.
    public var globalIDs: GlobalIDs
    /// Fields whose objects are stored inside their parent's record, by parent type name
    /// (`@typePolicy(embeddedFields:)`). The runtime type is looked up first, then the field's
    /// parent type in the selections.
    public var embeddedFields: [String: Set<String>]
    /// The arguments that name the record a field returns, by parent type name and field name
    /// (`@fieldPolicy(forFields:, keyArgs:)`), in key order: a read of the field that its parent's
    /// record lacks is answered from that record (see ``redirect(returning:values:)``).
    public var keyArguments: [String: [String: [String]]]
    /// The object types an interface or union can be, by name: a redirect of a field returning
    /// one is answered from the first of them whose record is in the store.
    public var possibleTypes: [String: Set<String>]
    /// The generated schema's unions, beside its interfaces in `possibleTypes` (kept apart so
    /// that making a rule copies no table).
    private var unionMembers: [String: Set<String>] = [:]

    /// A rule as given; without `embeddedFields` and `keyArguments`, every object with a cache
    /// key has a record of its own and no read is redirected.
    public init(
        keyFields: [String: [String]] = [:], defaultKeyField: String? = "id", globalIDs: GlobalIDs = .none,
        embeddedFields: [String: Set<String>] = [:], keyArguments: [String: [String: [String]]] = [:],
        possibleTypes: [String: Set<String>] = [:]
    ) {
        self.keyFields = keyFields
        self.defaultKeyField = defaultKeyField
        self.globalIDs = globalIDs
        self.embeddedFields = embeddedFields
        self.keyArguments = keyArguments
        self.possibleTypes = possibleTypes
    }

    /// The rule a generated schema declares: its `@typePolicy(keyFields:)` key fields (an
    /// interface's apply to its implementers), bare IDs for the global-ID interface's types, and
    /// its `@typePolicy(embeddedFields:)` and `@fieldPolicy(keyArgs:)`.
    public init(schema: SchemaMetadata) {
        let directives = schema.cacheDirectives
        // An interface's policies apply to its implementers too (a record's typename is an
        // object type's), each field keeping an object's own policy first.
        // (Made for every operation a client runs: the work follows the directives, not the schema.)
        var embedded = directives.embeddedFields
        for (interface, fields) in directives.embeddedFields {
            for object in schema.interfaces[interface] ?? [] { embedded[object, default: []].formUnion(fields) }
        }
        var keyArguments: [String: [String: [String]]] = [:]
        for (type, fields) in directives.keyArgs {
            let withArguments = fields.filter { !$0.value.isEmpty }
            if !withArguments.isEmpty { keyArguments[type] = withArguments }
        }
        for interface in keyArguments.keys.filter({ schema.interfaces[$0] != nil }).sorted() {
            for object in schema.interfaces[interface] ?? [] {
                keyArguments[object, default: [:]].merge(keyArguments[interface] ?? [:]) { own, _ in own }
            }
        }
        self.init(
            keyFields: schema.objectKeyFields, defaultKeyField: "id",
            globalIDs: schema.globalIDInterface == nil ? .none : .only(schema.globalIDTypes),
            embeddedFields: embedded, keyArguments: keyArguments, possibleTypes: keyArguments.isEmpty ? [:] : schema.interfaces)
        if !keyArguments.isEmpty { unionMembers = schema.unions }
    }

    /// Whether the object under `field` of an object of type `parentType` is stored inside its
    /// parent's record.
    public func isEmbedded(_ field: String, on parentType: String) -> Bool {
        embeds(field, typename: parentType, parentType: parentType)
    }

    /// Whether any type keeps a field embedded in its record.
    var hasEmbeddedFields: Bool { !embeddedFields.isEmpty }

    /// Whether `field` is embedded in an object of runtime type `typename` (when known) found
    /// where the selections expect `parentType`: the runtime type's embedded fields when it has
    /// some, else the selections' type's (Apollo Kotlin's order).
    @inline(__always)
    func embeds(_ field: String, typename: String?, parentType: String) -> Bool {
        guard !embeddedFields.isEmpty else { return false }
        let fields = typename.flatMap { embeddedFields[$0] } ?? embeddedFields[parentType]
        return fields?.contains(field) ?? false
    }

    /// The record IDs a field of type `returnType` names with its key arguments' `values` (in
    /// ``keyArguments`` order): the cache keys objects of that type with those key values get,
    /// one per possible type for an interface or union (sorted). Empty when a value cannot make
    /// a key (only strings and integers do).
    public func redirect(returning returnType: String, values: [JSONValue]) -> [DataID] {
        var texts: [String] = []
        texts.reserveCapacity(values.count)
        for value in values {
            guard let text = Self.keyText(value) else { return [] }
            texts.append(text)
        }
        guard !texts.isEmpty else { return [] }
        var ids: [DataID] = []
        for type in (possibleTypes[returnType] ?? unionMembers[returnType]).map({ $0.sorted() }) ?? [returnType] {
            let id: DataID
            if keyFields[type]?.isEmpty == false || texts.count > 1 {
                id = DataID(type + ":" + texts.map(Self.escaped).joined(separator: "+"))
            } else {
                switch globalIDs {
                case .all: id = DataID(texts[0])
                case .only(let global) where global.contains(type): id = DataID(texts[0])
                case .none, .only: id = DataID(type + ":" + texts[0])
                }
            }
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    /// `Typename:id` for every type: safe whatever the schema.
    public static let `default` = CacheKeyConfiguration()
    /// relay-runtime's rule: the bare `id` of every type.
    public static let globalIDs = CacheKeyConfiguration(globalIDs: .all)

    /// The cache key of a response object of type `typename`, or `nil` when it has none.
    public func cacheKey(typename: String?, object: JSONObject) -> DataID? {
        var memo = GlobalTypeMemo()
        return cacheKey(typename: typename, object: object, memo: &memo)
    }

    /// The last type name asked about and whether its `id` is global. A walk meets objects of one
    /// type in runs (the items of a list), and looking a type name up in a large `.only` set is
    /// not cheap: on the GitHub schema (about 400 `Node` types) it took some 3,000 instructions,
    /// about a tenth of the executor's walk (callgrind, `baton-bench --profile receive`).
    struct GlobalTypeMemo {
        var typename: String?
        var isGlobal = false
    }

    /// ``cacheKey(typename:object:)``, remembering in `memo` the last type's answer of `.only`.
    func cacheKey(typename: String?, object: JSONObject, memo: inout GlobalTypeMemo) -> DataID? {
        cacheKey(typename: typename, memo: &memo) { object[$0] }
    }

    /// ``cacheKey(typename:object:)`` with the object's members given by `member` (`nil`: absent).
    @inline(__always)
    func cacheKey(typename: String?, memo: inout GlobalTypeMemo, member: (String) -> JSONValue?) -> DataID? {
        // Most schemas declare no key fields: no lookup (and no hash of the typename) then.
        if !keyFields.isEmpty, let typename, let fields = keyFields[typename], !fields.isEmpty {
            var values: [String] = []
            values.reserveCapacity(fields.count)
            for field in fields {
                guard let value = member(field), let text = Self.keyText(value) else { return nil }
                values.append(Self.escaped(text))
            }
            return DataID(typename + ":" + values.joined(separator: "+"))
        }
        guard let field = defaultKeyField, let value = member(field), let text = Self.keyText(value) else { return nil }
        switch globalIDs {
        case .all:
            return DataID(text)
        case .only(let types):
            guard let typename else { return nil }
            if typename != memo.typename {
                memo.typename = typename
                memo.isGlobal = types.contains(typename)
            }
            return memo.isGlobal ? DataID(text) : DataID(typename + ":" + text)
        case .none:
            guard let typename else { return nil }
            return DataID(typename + ":" + text)
        }
    }

    /// Whether ``cacheKey(typename:object:)`` for an object of `typename` reads the member `key`.
    func readsKey(_ key: String, typename: String?) -> Bool {
        if !keyFields.isEmpty, let typename, let fields = keyFields[typename], !fields.isEmpty { return fields.contains(key) }
        return key == defaultKeyField
    }

    /// A key-field value with `\` and `+` escaped (as Apollo iOS does), so that different
    /// values never join into the same key: `["a+b", "c"]` and `["a", "b+c"]` stay apart.
    private static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "+") }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 2)
        for character in text {
            if character == "\\" || character == "+" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A key value's text: strings and integers only, as Apollo iOS takes them.
    private static func keyText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): return string
        case .int(let int): return String(int)
        default: return nil
        }
    }
}
