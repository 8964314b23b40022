// ToDoItem.swift: the fragment of Relay.swift's "@Mutation" page (seed 001), as written; the view
// that uses it is type-checked against a SwiftUI stand-in in BatonTests (SwiftUIStandInTests).

import BatonAPI

private let itemFragment = graphql("""
fragment ToDoItem_item on Item {
  id
  text
  complete
}
""")
