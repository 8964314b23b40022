struct FriendsConnection: ObjectValue {
    static let typename = "FriendsConnection"
    let totalCount: Int
    let edges: [FriendsEdge]
    let friends: [any Character]
    let pageInfo: PageInfo
}

struct FriendsEdge: ObjectValue {
    static let typename = "FriendsEdge"
    let cursor: String
    let node: any Character
}

/// Resolvers of the Star Wars part of the schema.
enum StarWarsResolvers {
    static var table: ResolverTable {
        var table = ResolverTable()
        table.field("Query", "hero") { call in StarWarsData.hero(episode: call.string("episode")) }
        table.field("Query", "character") { call in StarWarsData.character(id: try call.required("id") { $0.string }) }
        table.field("Query", "human") { call in
            let id = try call.required("id") { $0.string }
            return StarWarsData.humans.first { $0.id == id }
        }
        table.field("Query", "droid") { call in
            let id = try call.required("id") { $0.string }
            return StarWarsData.droids.first { $0.id == id }
        }
        table.field("Query", "starship") { call in StarWarsData.starship(id: try call.required("id") { $0.string }) }
        table.field("Query", "search") { call in StarWarsData.search(call.string("text")) }
        table.field("Query", "reviews") { call in
            call.context.state.starWars.reviews(episode: try call.required("episode") { $0.string })
        }
        table.field("Mutation", "createReview") { call in
            let input = try call.input("review")
            let review = Review(
                episode: call.string("episode"),
                stars: try input.requiredInt("stars"),
                commentary: input.string("commentary")
            )
            call.context.state.starWars.add(review)
            return review
        }
        table.events("Subscription", "reviewAdded") { call in
            call.context.state.starWars.reviewsAdded(episode: call.string("episode"))
        }
        table.field("Subscription", "reviewAdded") { call in call.source }

        for type in ["Human", "Droid"] {
            table.field(type, "friends") { call in
                try call.source(as: (any Character).self).friendIDs.compactMap(StarWarsData.character(id:))
            }
            table.field(type, "friendsConnection") { call in
                try friendsConnection(of: call.source(as: (any Character).self), first: call.int("first"), after: call.string("after"))
            }
        }
        table.field("Human", "height") { call in
            StarWarsData.length(try call.source(as: Human.self).heightInMeters, in: call.string("unit"))
        }
        table.field("Human", "starships") { call in
            try call.source(as: Human.self).starshipIDs.compactMap(StarWarsData.starship(id:))
        }
        table.field("Starship", "length") { call in
            StarWarsData.length(try call.source(as: Starship.self).lengthInMeters, in: call.string("unit"))
        }
        return table
    }

    /// The friends of `character` from the one after the cursor `after`, at most `first` of them.
    static func friendsConnection(of character: any Character, first: Int?, after: String?) throws -> FriendsConnection {
        let friends = character.friendIDs.compactMap(StarWarsData.character(id:))
        var start = 0
        if let after {
            guard let position = Cursor.value(of: after, prefix: "cursor").flatMap(Int.init), position >= 0 else {
                throw ResolverError("Invalid cursor: \(after)")
            }
            start = min(position, friends.count)
        }
        if let first, first < 0 {
            throw ResolverError("first must not be negative")
        }
        let end = min(friends.count, start + (first ?? friends.count))
        let edges = (start..<end).map { FriendsEdge(cursor: Cursor.make("cursor", String($0 + 1)), node: friends[$0]) }
        return FriendsConnection(
            totalCount: friends.count,
            edges: edges,
            friends: edges.map(\.node),
            pageInfo: PageInfo(
                startCursor: edges.first?.cursor,
                endCursor: edges.last?.cursor,
                hasNextPage: end < friends.count,
                hasPreviousPage: start > 0
            )
        )
    }
}
