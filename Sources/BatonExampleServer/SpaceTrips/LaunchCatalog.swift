struct Launch: ObjectValue {
    static let typename = "Launch"
    let id: String
    let site: String?
    let mission: Mission
    let rocket: Rocket
    /// The launch's cursor in `launches`.
    let cursor: String
}

struct Mission: ObjectValue {
    static let typename = "Mission"
    let name: String?
    /// The flight number the patch URLs are made from.
    let flightNumber: Int

    /// The URL of the mission patch image in `size` ("SMALL" or "LARGE", the default).
    func missionPatch(size: String?) -> String {
        "https://images.example.com/patches/\(flightNumber)-\(size == "SMALL" ? "small" : "large").png"
    }
}

struct Rocket: ObjectValue {
    static let typename = "Rocket"
    let id: String
    let name: String?
    let type: String?
}

/// The 30 launches of the space-trips example: "launch-1" (the oldest) to "launch-30".
enum LaunchCatalog {
    private static let missionNames = [
        "FalconSat", "DemoSat", "Trailblazer", "RatSat", "RazakSat",
        "Falcon 9 Test Flight", "COTS 1", "COTS 2", "CRS-1", "CRS-2",
        "CASSIOPE", "SES-8", "Thaicom 6", "CRS-3", "OG-2 Mission 1",
        "AsiaSat 8", "AsiaSat 6", "CRS-4", "CRS-5", "DSCOVR",
        "ABS-3A Eutelsat 115W B", "CRS-6", "TurkmenAlem52E / MonacoSAT", "CRS-7", "OG-2 Mission 2",
        "Jason 3", "SES-9", "CRS-8", "JCSAT-14", "Thaicom 8",
    ]

    /// Every launch, newest first.
    static let newestFirst: [Launch] = missionNames.indices.reversed().map { index in
        let flightNumber = index + 1
        let id = "launch-\(flightNumber)"
        return Launch(
            id: id,
            site: site(flightNumber),
            mission: Mission(name: missionNames[index], flightNumber: flightNumber),
            rocket: rocket(flightNumber),
            cursor: Cursor.make("launch:", id)
        )
    }

    /// The launch with `id`, or with flight number `id` (`"25"` is `launch-25`: the Apollo
    /// tutorial's server, whose GraphiQL examples seed 002 shows, numbers its launches so).
    static func launch(id: String) -> Launch? {
        newestFirst.first { $0.id == id || $0.id == "launch-\(id)" }
    }

    private static func site(_ flightNumber: Int) -> String {
        switch flightNumber {
        case ...5: "Kwajalein Atoll"
        case _ where flightNumber % 4 == 0: "VAFB SLC 4E"
        case _ where flightNumber % 3 == 0: "KSC LC 39A"
        default: "CCAFS SLC 40"
        }
    }

    private static func rocket(_ flightNumber: Int) -> Rocket {
        switch flightNumber {
        case ...5: Rocket(id: "falcon1", name: "Falcon 1", type: "Merlin A")
        case ...25: Rocket(id: "falcon9", name: "Falcon 9", type: "v1.1")
        default: Rocket(id: "falcon9", name: "Falcon 9", type: "FT")
        }
    }
}
