import GraphQL

extension GraphQL.SelectionSet {
    /// Calls `visit` for every selection below, at any depth: fields, their sub-selections and
    /// inline fragments' selections (not the selections of the fragments that spreads name).
    func forEachSelection(_ visit: (any GraphQL.Selection) -> Void) {
        for selection in selections {
            visit(selection)
            switch selection {
            case let field as GraphQL.Field:
                field.selectionSet?.forEachSelection(visit)
            case let inline as GraphQL.InlineFragment:
                inline.selectionSet.forEachSelection(visit)
            default:
                break
            }
        }
    }
}
