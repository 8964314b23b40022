import BatonAPI
import BatonStore
import Foundation
import Testing

@testable import BatonCodegen
import BatonTestSupport

/// Apollo's AnimalKingdom local cache mutations (`@apollo_client_ios_localCacheMutation`) generate
/// mutable selection sets (checked in under `LocalCacheMutation/Generated/`, one file per
/// document so that no name repeats the golden files', and compiled into this target), and edits through them reach the records the data was read from.
@Suite("Local cache mutations", .ownThread)
struct LocalCacheMutationTests {
    static let output = TestPaths.packageRoot.appendingPathComponent("Tests/BatonCodegenTests/LocalCacheMutation/Generated")

    static func generate() throws -> GeneratedOutput {
        let kingdom = TestPaths.fixtures.appendingPathComponent("apollo/animalkingdom")
        let schema = try SchemaLoader.load(paths: [kingdom.appendingPathComponent("AnimalSchema.graphqls").path])
        let documents = ["AllAnimalsLocalCacheMutation.graphql", "PetSearchLocalCacheMutation.graphql", "PetDetailsMutation.graphql"]
            .map { kingdom.appendingPathComponent($0).path }
            + [TestPaths.fixtures.appendingPathComponent("LocalCacheMutation/CachedAnimals.graphql").path]
        return try CodeGenerator.generate(
            schema: schema, sources: try DocumentCollector.collect(globs: documents), options: GenerationOptions(namespace: "AnimalKingdomAPI", fileLayout: .perDocument))
    }

    @Test func generatedCodeMatchesTheCheckedInFiles() throws {
        let output = try Self.generate()
        if ProcessInfo.processInfo.environment["BATON_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: Self.output)
            _ = try OutputWriter.write(output.files, to: Self.output.path)
        }
        for file in output.files {
            let expected = try String(contentsOf: Self.output.appendingPathComponent(file.relativePath), encoding: .utf8)
            #expect(file.contents == expected, "\(file.relativePath) differs from its checked-in file")
        }
        // Never sent: no persisted-query entry.
        #expect(Set(output.manifest.operations.map(\.name)) == ["CachedAnimals", "CachedPets"])
    }

    /// Whether a type is mutable, asked at run time.
    func isMutable(_ type: Any.Type) -> Bool { type is any MutableSelectionSet.Type }

    @Test func localCacheMutationsAreMutableTypesNamedAsApolloNamesThem() {
        #expect(isMutable(AllAnimalsLocalCacheMutation.Data.self))
        #expect(isMutable(AllAnimalsLocalCacheMutation.Data.AllAnimal.AsBird.self))
        #expect(isMutable(PetDetailsMutation.self))
        #expect(!isMutable(CachedAnimalsQuery.Data.self))
        #expect(AllAnimalsLocalCacheMutation.operationName == "AllAnimalsLocalCacheMutation")
        #expect(!AllAnimalsLocalCacheMutation.operationDocument.contains("@apollo_client_ios_localCacheMutation"))
    }

    static let animals: JSONObject = [
        "allAnimals": [
            [
                "__typename": "Dog", "id": "1", "species": "Canis", "skinCovering": "FUR", "humanName": "Rex",
                "owner": ["__typename": "Human", "id": "10", "firstName": "Ada"], "adoptionDate": "2020-01-02",
            ],
            [
                "__typename": "Bird", "id": "2", "species": "Parrot", "skinCovering": "FEATHERS", "wingspan": 0.5, "humanName": nil,
                "owner": nil, "adoptionDate": nil,
            ],
        ]
    ]

    func filledStore() throws -> Store {
        let store = Store()
        store.write(data: try CachedAnimalsQuery.Data(jsonObject: Self.animals), for: CachedAnimalsQuery())
        return store
    }

    @Test func editsOfAQueryReachTheRecordsTheyWereReadFrom() throws {
        let store = try filledStore()
        try store.update(AllAnimalsLocalCacheMutation()) { data in
            #expect(data.allAnimals.count == 2)
            data.allAnimals[0].species = "Canis lupus"
            data.allAnimals[0].skinCovering = .case(.hair)
            data.allAnimals[1].asBird?.wingspan = 0.75
        }
        let read = try store.read(query: CachedAnimalsQuery())
        #expect(read.allAnimals[0].species == "Canis lupus")
        #expect(read.allAnimals[0].skinCovering == .case(.hair))
        #expect(read.allAnimals[1].asBird?.wingspan == 0.75)
        #expect(read.allAnimals[1].species == "Parrot")
        // The objects are still the records the query wrote (the mutation selects no id).
        #expect(read.allAnimals.map(\.id) == ["1", "2"])
        #expect(try store.read(localCacheMutation: AllAnimalsLocalCacheMutation()).allAnimals[0].species == "Canis lupus")
    }

    @Test func editsOfAMutableFragmentFollowLinksToNestedRecords() throws {
        let store = try filledStore()
        let dog = try #require(store.read(query: CachedAnimalsQuery()).allAnimals[0].asPet)
        #expect(dog.owner?.firstName == "Ada")
        let id: DataID = try #require(store.update { proxy in proxy.root.getLinkedRecords("allAnimals")?.first??.dataID })
        try store.update(fragment: PetDetailsMutation.self, id: id) { pet in
            pet.owner?.firstName = "Grace"
            pet.adoptionDate = "2021-03-04"
        }
        let edited = try #require(store.read(query: CachedAnimalsQuery()).allAnimals[0].asPet)
        #expect(edited.owner?.firstName == "Grace")
        #expect(edited.adoptionDate == "2021-03-04")
        #expect(edited.humanName == "Rex")
    }

    @Test func editsOfAQueryWithVariablesUseTheSameStorageKeys() throws {
        let store = Store()
        let filters = AnimalKingdomAPI.PetSearchFilters(
            species: .some(["Dog", "Cat"]), size: .some(.case(.small)),
            measurements: .some([AnimalKingdomAPI.MeasurementsInput(height: 10.5, weight: 5.0)]))
        let pets: JSONObject = ["pets": [["__typename": "Dog", "id": "1", "humanName": "Rex"]]]
        store.write(data: try CachedPetsQuery.Data(jsonObject: pets), for: CachedPetsQuery(filters: filters))
        // The local cache mutation's default filters are the same value.
        try store.update(PetSearchLocalCacheMutation()) { data in
            data.pets[0].humanName = "Max"
        }
        #expect(try store.read(query: CachedPetsQuery(filters: filters)).pets[0].humanName == "Max")
    }

    @Test func aMissingRecordIsACacheMissAndNothingIsWritten() throws {
        let store = Store()
        #expect(throws: CacheMissError.self) {
            try store.update(AllAnimalsLocalCacheMutation()) { data in data.allAnimals = [] }
        }
    }
}
