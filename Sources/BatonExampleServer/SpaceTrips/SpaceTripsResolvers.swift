struct LaunchConnection: ObjectValue {
    static let typename = "LaunchConnection"
    let cursor: String
    let hasMore: Bool
    let launches: [Launch]
}

struct TripUpdateResponse: ObjectValue {
    static let typename = "TripUpdateResponse"
    let success: Bool
    let message: String?
    let launches: [Launch]
}

/// Resolvers of the space-trips part of the schema: launches, login and trips.
enum SpaceTripsResolvers {
    static var table: ResolverTable {
        var table = ResolverTable()
        table.field("Query", "launches") { call in
            try page(pageSize: call.int("pageSize") ?? 20, after: call.string("after"))
        }
        table.field("Query", "launch") { call in LaunchCatalog.launch(id: try call.required("id") { $0.string }) }
        table.field("Query", "me") { call in call.context.user }
        table.field("Mutation", "login") { call in
            try call.context.state.users.login(email: try call.required("email") { $0.string })
        }
        table.field("Mutation", "bookTrips") { call in
            guard let user = call.context.user else { throw ResolverError("You must be logged in to book trips") }
            let ids = try call.required("launchIds") { $0.array }.compactMap(\.string)
            let launches = ids.compactMap(LaunchCatalog.launch(id:))
            call.context.state.users.book(launches.map(\.id), for: user.id)
            let unknown = ids.filter { LaunchCatalog.launch(id: $0) == nil }
            return TripUpdateResponse(
                success: unknown.isEmpty,
                message: unknown.isEmpty
                    ? "trips booked successfully"
                    : "the following launches couldn't be booked: \(unknown.joined(separator: ", "))",
                launches: launches
            )
        }
        table.field("Mutation", "cancelTrip") { call in
            guard let user = call.context.user else { throw ResolverError("You must be logged in to cancel trips") }
            let id = try call.required("launchId") { $0.string }
            guard let launch = LaunchCatalog.launch(id: id), call.context.state.users.cancel(id, for: user.id) else {
                return TripUpdateResponse(success: false, message: "failed to cancel trip \(id): it is not booked", launches: [])
            }
            return TripUpdateResponse(success: true, message: "trip cancelled", launches: [launch])
        }
        table.field("Launch", "isBooked") { call in
            guard let user = call.context.user else { return false }
            return call.context.state.users.trips(of: user.id).contains(try call.source(as: Launch.self).id)
        }
        table.field("Mission", "missionPatch") { call in
            try call.source(as: Mission.self).missionPatch(size: call.string("size"))
        }
        table.field("User", "trips") { call in
            call.context.state.users.trips(of: try call.source(as: User.self).id).compactMap(LaunchCatalog.launch(id:))
        }
        return table
    }

    /// The launches after the one whose cursor is `after` (from the newest when nil), at most `pageSize`.
    static func page(pageSize: Int, after: String?) throws -> LaunchConnection {
        guard pageSize >= 0 else { throw ResolverError("pageSize must not be negative") }
        let all = LaunchCatalog.newestFirst
        var start = 0
        if let after {
            guard let index = all.firstIndex(where: { $0.cursor == after }) else {
                throw ResolverError("Invalid cursor: \(after)")
            }
            start = index + 1
        }
        let end = min(all.count, start + pageSize)
        let launches = Array(all[start..<end])
        return LaunchConnection(cursor: launches.last?.cursor ?? after ?? "", hasMore: end < all.count, launches: launches)
    }
}
