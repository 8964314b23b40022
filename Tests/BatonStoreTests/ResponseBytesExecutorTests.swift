import BatonAPI
import BatonStore
import BatonTestSupport
import Foundation
import Testing

/// The executor's walk over a response's bytes (issue 26) is a faster reading of the same
/// rules as its walk over a parsed tree: for any body, both give the same records, the same
/// data in the store's shape and the same errors. Checked against the tree's walk on seeded
/// random selections and responses, regular ones (the bytes' walk takes them) and irregular
/// ones (keys out of order, missing or extra, `__typename` late, values of the wrong type,
/// errors at a path before or after the data, broken JSON), which it leaves to the tree's.
@Suite("The executor over a response's bytes", .ownThread)
struct ResponseBytesExecutorTests {
    /// Random selections: objects (some with `id`, some under lists, some nullable), scalars of
    /// four types, `__typename` first or not at all.
    struct Shapes {
        var random: SeededGenerator

        mutating func selections(depth: Int) -> [Selection] {
            var result: [Selection] = []
            if random.next(upperBound: 4) != 0 { result.append(.field("__typename", type: .nonNull(.scalar("String")))) }
            if random.next(upperBound: 2) == 0 { result.append(.field("id", type: .nonNull(.scalar("ID")))) }
            for index in 0..<(1 + random.next(upperBound: 4)) {
                // The walk over the bytes checks the built-in scalars and enums in place, and asks
                // the field's check for lists of scalars and custom scalars.
                let scalar = ["String", "Int", "Boolean", "Float", "ID", "Color", "DateTime", "[Int]"][random.next(upperBound: 8)]
                let base: FieldType =
                    switch scalar {
                    case "Color": .enumeration("Color")
                    case "[Int]": .list(.nonNull(.scalar("Int")))
                    default: .scalar(scalar)
                    }
                let type: FieldType = random.next(upperBound: 2) == 0 ? base : .nonNull(base)
                result.append(.field("s\(index)", alias: random.next(upperBound: 5) == 0 ? "a\(index)" : nil, type: type))
            }
            if depth < 3 {
                for index in 0..<random.next(upperBound: 3) {
                    let inner = selections(depth: depth + 1)
                    let type: FieldType =
                        switch random.next(upperBound: 3) {
                        case 0: .object("T\(depth)")
                        case 1: .list(.object("T\(depth)"))
                        default: .nonNull(.list(.nonNull(.object("T\(depth)"))))
                        }
                    result.append(
                        .field("o\(index)", type: type, arguments: index == 1 ? ["first": .value(2)] : [:], selections: inner))
                }
            }
            return result
        }

        /// A response's value for `selections` on `type`.
        mutating func object(_ selections: [Selection], type: String) -> JSONObject {
            var object = JSONObject()
            for case .field(let field) in selections {
                let key = field.alias ?? field.name
                switch field.name {
                case "__typename": object[key] = .string(type)
                // Few IDs, so that one record is met more than once.
                case "id": object[key] = .string("\(type)-\(random.next(upperBound: 4))")
                default: object[key] = value(field.type, field.selections, type: field.type.namedType)
                }
            }
            return object
        }

        mutating func value(_ type: FieldType, _ selections: [Selection], type named: String, nullable: Bool = true) -> JSONValue
        {
            switch type {
            case .nonNull(let inner):
                return value(inner, selections, type: named, nullable: false)
            case .list(let inner):
                if nullable && random.next(upperBound: 8) == 0 { return .null }
                return .list((0..<random.next(upperBound: 4)).map { _ in value(inner, selections, type: named) })
            case .object:
                return nullable && random.next(upperBound: 6) == 0 ? .null : .object(object(selections, type: named))
            case .scalar(let name), .enumeration(let name):
                if nullable && random.next(upperBound: 8) == 0 { return .null }
                switch name {
                case "Int": return .int(random.next(upperBound: 1000))
                case "Boolean": return .bool(random.next(upperBound: 2) == 0)
                // A Float may come as an integer, an ID as a number.
                case "Float" where random.next(upperBound: 4) == 0: return .int(random.next(upperBound: 1000))
                case "Float": return .double(Double(random.next(upperBound: 1000)) / 8)
                case "ID" where random.next(upperBound: 3) == 0: return .int(random.next(upperBound: 1000))
                case "Color": return .string(["RED", "GREEN"][random.next(upperBound: 2)])
                // A custom scalar without a Swift type takes any value.
                case "DateTime" where random.next(upperBound: 3) == 0: return .object(["at": .int(random.next(upperBound: 99))])
                default:
                    return .string(
                        random.next(upperBound: 2) == 0 ? "text \(random.next(upperBound: 99))" : "a \"quoted\"\n line")
                }
            }
        }

        /// `object` changed in one place, somewhere in it: a key moved, dropped or added, a
        /// value of another type.
        mutating func irregular(_ object: JSONObject) -> JSONObject {
            var keys = object.keys
            var values = object.values
            // Into a nested object, half the time, when there is one.
            let nested = values.indices.filter { if case .object = values[$0] { true } else { false } }
            if let position = nested.randomElement(using: &random), random.next(upperBound: 2) == 0,
                case .object(let inner) = values[position]
            {
                values[position] = .object(irregular(inner))
                return JSONObject(zip(keys, values))
            }
            switch random.next(upperBound: 5) {
            case 0 where keys.count > 1:
                let moved = random.next(upperBound: keys.count)
                let (key, value) = (keys.remove(at: moved), values.remove(at: moved))
                keys.append(key)
                values.append(value)
            case 1 where !keys.isEmpty:
                let dropped = random.next(upperBound: keys.count)
                keys.remove(at: dropped)
                values.remove(at: dropped)
            case 2:
                keys.append("extra")
                values.append("more")
            case 3 where !keys.isEmpty:
                values[random.next(upperBound: keys.count)] = random.next(upperBound: 2) == 0 ? .list([.int(1)]) : .bool(true)
            default:
                if let position = keys.indices.randomElement(using: &random) { values[position] = .null }
            }
            return JSONObject(zip(keys, values))
        }
    }

    /// What a receive made of a body: the records a publish writes and the data, or the error.
    enum Outcome: Equatable {
        /// `rest`: the body's other members (`errors`, `extensions`).
        case prepared(records: RecordSource, data: JSONObject?, rest: JSONObject)
        case failed(String)
    }

    /// The outcome through the bytes' walk; `readFromBytes` is whether it took the body.
    static func throughBytes(_ body: Data, _ descriptor: OperationDescriptor, readFromBytes: inout Bool) -> Outcome {
        let store = Store()
        do {
            let prepared = try body.withUnsafeBytes { try store.prepare(responseBody: $0, for: descriptor) }
            readFromBytes = prepared.readFromBytes
            var rest = prepared.body
            rest["data"] = nil
            guard let payload = try prepared.payload?.get() else {
                return .prepared(records: store.snapshot(), data: nil, rest: rest)
            }
            let data = payload.data
            // Read from the bytes, the body's data is the data in the store's shape.
            if prepared.readFromBytes { #expect(prepared.body["data"] == .object(data)) }
            store.publish(payload, fetched: true)
            return .prepared(records: store.snapshot(), data: data, rest: rest)
        } catch {
            return .failed(Self.describe(error))
        }
    }

    static func throughBytes(_ body: Data, _ descriptor: OperationDescriptor) -> Outcome {
        var readFromBytes = false
        return throughBytes(body, descriptor, readFromBytes: &readFromBytes)
    }

    static func throughTree(_ body: Data, _ descriptor: OperationDescriptor) -> Outcome {
        let store = Store()
        do {
            let root = try JSONValue(parsing: body)
            var rest = root.objectValue ?? [:]
            rest["data"] = nil
            guard case .object(let data)? = root["data"] else {
                return .prepared(records: store.snapshot(), data: nil, rest: rest)
            }
            let errors = root["errors"]?.listValue?.map(GraphQLError.init(json:)) ?? []
            let prepared = try store.prepare(data: data, for: descriptor, errors: errors)
            let shaped = prepared.data
            store.publish(prepared, fetched: true)
            return .prepared(records: store.snapshot(), data: shaped, rest: rest)
        } catch {
            return .failed(Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? SelectionSetDecodingError {
            return "mismatch at \(error.path): \(error.expected), \(error.found)"
        }
        if error is JSONParseError { return "not JSON" }
        return "\(error)"
    }

    static func body(_ data: JSONObject, errors: JSONValue? = nil, errorsFirst: Bool = false) -> Data {
        var members: [(String, JSONValue)] = [("data", .object(data))]
        if let errors {
            if errorsFirst { members.insert(("errors", errors), at: 0) } else { members.append(("errors", errors)) }
        }
        return JSONValue.object(JSONObject(members)).serializedData()
    }

    static func query(_ selections: [Selection]) -> OperationDescriptor {
        OperationDescriptor(name: "Random", selections: selections, variables: [:], rootID: .rootID, rootType: "Query")
    }

    @Test(arguments: 0..<8)
    func regularAndIrregularResponsesGiveWhatTheTreesWalkGives(seed: UInt64) throws {
        var shapes = Shapes(random: SeededGenerator(seed: 0xB0D1 &+ seed))
        // How many bodies of each kind the bytes' walk took.
        var tookBytes = [0, 0, 0, 0]
        defer {
            // The irregular ones the walk can take (a missing nullable field is not one of
            // them; a null where a nullable value was is) and the errors after the data (read
            // from the bytes, then again as a tree for the errors' places: not counted).
            #expect(tookBytes[0] == 150 && tookBytes[1] > 0 && tookBytes[2] == 0 && tookBytes[3] == 0, "\(tookBytes)")
        }
        for round in 0..<150 {
            let selections = shapes.selections(depth: 0)
            let data = shapes.object(selections, type: "Query")
            var bodies: [Data] = [Self.body(data), Self.body(shapes.irregular(data))]
            // Field errors at a path, before and after the data.
            if let key = data.keys.first(where: { $0 != "__typename" }) {
                let errors: JSONValue = [["message": "failed", "path": [.string(key)]]]
                var nulled = data
                nulled[key] = .null
                bodies.append(Self.body(nulled, errors: errors, errorsFirst: true))
                bodies.append(Self.body(nulled, errors: errors))
            }
            for (index, body) in bodies.enumerated() {
                // Selections in an array of their own: a plan of their own, which has not
                // declined the bytes of another body yet.
                let descriptor = Self.query(selections.map { $0 })
                var readFromBytes = false
                let bytes = Self.throughBytes(body, descriptor, readFromBytes: &readFromBytes)
                let tree = Self.throughTree(body, descriptor)
                #expect(bytes == tree, "seed \(seed), round \(round), body \(index): \(String(decoding: body, as: UTF8.self))")
                if bytes != tree { return }
                // A regular body is read from its bytes.
                if index == 0 { #expect(readFromBytes, "seed \(seed), round \(round)") }
                tookBytes[index] += readFromBytes ? 1 : 0
            }
        }
    }

    @Test func aRegularResponseIsReadFromItsBytesWithTheRecordsAndDataOfTheTreesWalk() throws {
        let selections: [Selection] = [
            .field(
                "hero", type: .object("Character"),
                selections: [
                    .field("__typename", type: .nonNull(.scalar("String"))),
                    .field("id", type: .nonNull(.scalar("ID"))),
                    .field("name", type: .scalar("String")),
                    .field(
                        "friends", type: .list(.object("Character")),
                        selections: [
                            .field("__typename", type: .nonNull(.scalar("String"))),
                            .field("name", type: .scalar("String")),
                        ]),
                ])
        ]
        let body = Data(
            #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","friends":[{"__typename":"Human","name":"Luke"},null]}}}"#
                .utf8)
        let outcome = Self.throughBytes(body, Self.query(selections))
        #expect(outcome == Self.throughTree(body, Self.query(selections)))
        guard case .prepared(let records, let data, _) = outcome else {
            Issue.record("the body was not prepared: \(outcome)")
            return
        }
        #expect(records.state(of: "Droid:2001") != nil)
        #expect(records.state(of: "client:Droid:2001:friends:0") != nil)
        #expect(data?["hero"]?["friends"]?.listValue?.count == 2)
    }

    /// relay-runtime gives a server payload's updater the payload read through the operation's
    /// selector (`__id` included where selected); the receive gives it the data in the store's
    /// shape, whichever walk read the body.
    @Test func anUpdaterGetsTheDataInTheStoresShapeWhicheverWalkReadTheBody() throws {
        let descriptor = Self.query([
            .field(
                "hero", type: .object("Character"),
                selections: [
                    .field("__typename", type: .nonNull(.scalar("String"))),
                    .field("__id", type: .nonNull(.scalar("ID"))),
                    .field("name", type: .scalar("String")),
                ])
        ])
        let regular = Data(#"{"data":{"hero":{"__typename":"Droid","name":"R2-D2"}}}"#.utf8)
        // `name` before `__typename`: the walk over the bytes leaves it to the tree's.
        let irregular = Data(#"{"data":{"hero":{"name":"R2-D2","__typename":"Droid"}}}"#.utf8)
        for (body, fromBytes) in [(regular, true), (irregular, false)] {
            let store = Store()
            let prepared = try body.withUnsafeBytes { try store.prepare(responseBody: $0, for: descriptor) }
            #expect(prepared.readFromBytes == fromBytes)
            let given = Locked<JSONObject?>(nil)
            store.publish(
                try #require(try prepared.payload?.get()), fetched: true, updater: { _, data in given.withLock { $0 = data } })
            let hero = given.withLock { $0 }?["hero"]
            #expect(hero?["__id"] == "client:root:hero", "read from the bytes: \(fromBytes)")
            #expect(hero?["name"] == "R2-D2")
        }
        // A payload published as data (not a body) likewise.
        let store = Store()
        let given = Locked<JSONObject?>(nil)
        store.publish(
            data: ["hero": ["__typename": "Droid", "name": "R2-D2"]], for: descriptor,
            updater: { _, data in given.withLock { $0 = data } })
        #expect(given.withLock { $0 }?["hero"]?["__id"] == "client:root:hero")
    }

    @Test func aBodyThatIsNotJSONIsAParseError() {
        let descriptor = Self.query([.field("name", type: .scalar("String"))])
        for text in [#"{"data":{"name":"a"}"#, #"{"data":{"name":"a"}} x"#, #"{"data":{"name":tru}}"#, "[]"] {
            let outcome = Self.throughBytes(Data(text.utf8), descriptor)
            #expect(outcome == .failed("not JSON") || text == "[]", "\(text)")
        }
    }
}
