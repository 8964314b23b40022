struct Post: ObjectValue {
    static let typename = "Post"
    let id: Int
    let title: String?
    let votes: Int
    let authorID: Int
}

struct Author: ObjectValue {
    static let typename = "Author"
    let id: Int
    let firstName: String?
    let lastName: String?
}

/// The posts of one server and their votes.
final class PostStore: Sendable {
    static let authors = [
        Author(id: 11, firstName: "Tom", lastName: "Coleman"),
        Author(id: 12, firstName: "Sashko", lastName: "Stubailo"),
    ]

    private let posts = Locked([
        Post(id: 1, title: "Introduction to GraphQL", votes: 0, authorID: 11),
        Post(id: 2, title: "Welcome to Apollo", votes: 0, authorID: 12),
        Post(id: 3, title: "Advanced GraphQL", votes: 0, authorID: 12),
    ])

    /// Every post, in id order.
    var all: [Post] { posts.withLock { $0 } }

    func post(id: Int) -> Post? {
        posts.withLock { posts in posts.first { $0.id == id } }
    }

    /// Adds one vote to the post `id` and returns it.
    func upvote(id: Int) throws -> Post {
        try posts.withLock { posts in
            guard let index = posts.firstIndex(where: { $0.id == id }) else {
                throw ResolverError("No post with id \(id)")
            }
            let post = posts[index]
            posts[index] = Post(id: post.id, title: post.title, votes: post.votes + 1, authorID: post.authorID)
            return posts[index]
        }
    }
}

/// Resolvers of the posts part of the schema.
enum PostResolvers {
    static var table: ResolverTable {
        var table = ResolverTable()
        table.field("Query", "posts") { call in call.context.state.posts.all }
        table.field("Query", "post") { call in call.context.state.posts.post(id: try call.required("id") { $0.int }) }
        table.field("Mutation", "upvotePost") { call in
            try call.context.state.posts.upvote(id: try call.required("postId") { $0.int })
        }
        table.field("Post", "author") { call in
            let authorID = try call.source(as: Post.self).authorID
            return PostStore.authors.first { $0.id == authorID }
        }
        table.field("Author", "posts") { call in
            let authorID = try call.source(as: Author.self).id
            return call.context.state.posts.all.filter { $0.authorID == authorID }
        }
        return table
    }
}
