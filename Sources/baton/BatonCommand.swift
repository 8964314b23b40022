import ArgumentParser

/// `baton`: Baton's code generator on the command line.
@main
struct BatonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baton",
        abstract: "Generates typed Swift for GraphQL operations.",
        subcommands: [GenerateCommand.self, FetchSchemaCommand.self]
    )
}
