import Foundation

/// A Star Wars character: a `Human` or a `Droid`.
protocol Character: ObjectValue {
    var id: String { get }
    var name: String { get }
    var friendIDs: [String] { get }
}

struct Human: Character {
    static let typename = "Human"
    let id: String
    let name: String
    let homePlanet: String?
    /// Height in meters.
    let heightInMeters: Double
    let mass: Double?
    let friendIDs: [String]
    let appearsIn: [String]
    let starshipIDs: [String]
}

struct Droid: Character {
    static let typename = "Droid"
    let id: String
    let name: String
    let primaryFunction: String?
    let friendIDs: [String]
    let appearsIn: [String]
}

struct Starship: ObjectValue {
    static let typename = "Starship"
    let id: String
    let name: String
    /// Length in meters.
    let lengthInMeters: Double
    let coordinates: [[Double]]
}

struct Review: ObjectValue {
    static let typename = "Review"
    let episode: String?
    let stars: Int
    let commentary: String?
}

/// The canonical Star Wars data of the GraphQL reference implementation and Apollo's
/// starwars-server.
enum StarWarsData {
    static let allEpisodes = ["NEWHOPE", "EMPIRE", "JEDI"]

    static let humans: [Human] = [
        Human(
            id: "1000", name: "Luke Skywalker", homePlanet: "Tatooine", heightInMeters: 1.72, mass: 77,
            friendIDs: ["1002", "1003", "2000", "2001"], appearsIn: allEpisodes, starshipIDs: ["3001", "3003"]
        ),
        Human(
            id: "1001", name: "Darth Vader", homePlanet: "Tatooine", heightInMeters: 2.02, mass: 136,
            friendIDs: ["1004"], appearsIn: allEpisodes, starshipIDs: ["3002"]
        ),
        Human(
            id: "1002", name: "Han Solo", homePlanet: nil, heightInMeters: 1.8, mass: 80,
            friendIDs: ["1000", "1003", "2001"], appearsIn: allEpisodes, starshipIDs: ["3000", "3003"]
        ),
        Human(
            id: "1003", name: "Leia Organa", homePlanet: "Alderaan", heightInMeters: 1.5, mass: 49,
            friendIDs: ["1000", "1002", "2000", "2001"], appearsIn: allEpisodes, starshipIDs: []
        ),
        Human(
            id: "1004", name: "Wilhuff Tarkin", homePlanet: nil, heightInMeters: 1.8, mass: nil,
            friendIDs: ["1001"], appearsIn: ["NEWHOPE"], starshipIDs: []
        ),
    ]

    static let droids: [Droid] = [
        Droid(
            id: "2000", name: "C-3PO", primaryFunction: "Protocol",
            friendIDs: ["1000", "1002", "1003", "2001"], appearsIn: allEpisodes
        ),
        Droid(
            id: "2001", name: "R2-D2", primaryFunction: "Astromech",
            friendIDs: ["1000", "1002", "1003"], appearsIn: allEpisodes
        ),
    ]

    static let starships: [Starship] = [
        Starship(id: "3000", name: "Millenium Falcon", lengthInMeters: 34.37, coordinates: [[1, 2], [3, 4]]),
        Starship(id: "3001", name: "X-Wing", lengthInMeters: 12.5, coordinates: [[1, 2], [3, 4]]),
        Starship(id: "3002", name: "TIE Advanced x1", lengthInMeters: 9.2, coordinates: [[1, 2], [3, 4]]),
        Starship(id: "3003", name: "Imperial shuttle", lengthInMeters: 20, coordinates: [[1, 2], [3, 4]]),
    ]

    static func character(id: String) -> (any Character)? {
        if let human = humans.first(where: { $0.id == id }) { return human }
        if let droid = droids.first(where: { $0.id == id }) { return droid }
        return nil
    }

    static func starship(id: String) -> Starship? {
        starships.first { $0.id == id }
    }

    /// The hero of an episode: Luke in The Empire Strikes Back, R2-D2 otherwise.
    static func hero(episode: String?) -> any Character {
        episode == "EMPIRE" ? humans[0] : droids[1]
    }

    /// Humans, droids and starships whose name contains `text`, ignoring case; all of them for
    /// no or empty text.
    static func search(_ text: String?) -> [any ObjectValue] {
        let all: [(name: String, value: any ObjectValue)] =
            humans.map { ($0.name, $0) } + droids.map { ($0.name, $0) } + starships.map { ($0.name, $0) }
        guard let text, !text.isEmpty else { return all.map(\.value) }
        return all.filter { $0.name.range(of: text, options: .caseInsensitive) != nil }.map(\.value)
    }

    /// Converts a length in meters to `unit` ("METER" or "FOOT").
    static func length(_ meters: Double, in unit: String?) -> Double {
        unit == "FOOT" ? meters * 3.28084 : meters
    }
}
