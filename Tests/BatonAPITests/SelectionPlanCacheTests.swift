import BatonAPI
import Testing

/// Plans are built once and kept (issue 26: "one collected-fields plan per selection set and
/// runtime type, built once and cached"): per thread, by selections, type and variables.
@Suite("Selection plans kept between walks")
struct SelectionPlanCacheTests {
    static let selections: [Selection] = [
        .field("id", type: .nonNull(.scalar("ID"))),
        .field("todos", type: .list(.object("Todo")), arguments: ["first": .variable("count")], selections: [
            .field("title", type: .scalar("String"))
        ]),
    ]

    @Test func aSecondWalkWithTheSameSelectionsAndVariablesTakesTheSamePlan() {
        let first = SelectionPlanCache.plan(Self.selections, parentType: "User", variables: ["count": 2])
        let second = SelectionPlanCache.plan(Self.selections, parentType: "User", variables: ["count": 2])
        #expect(first === second)
        // The plan's types are worked out once too: the second walk finds them made.
        #expect(first.object(for: "User") === second.object(for: "User"))
    }

    @Test func otherVariablesOrAnotherTypeGetTheirOwnPlan() {
        let two = SelectionPlanCache.plan(Self.selections, parentType: "User", variables: ["count": 2])
        let three = SelectionPlanCache.plan(Self.selections, parentType: "User", variables: ["count": 3])
        #expect(two !== three)
        #expect(two.object(for: "User").fields.map(\.storageKey) == ["id", "todos(first:2)"])
        #expect(three.object(for: "User").fields.map(\.storageKey) == ["id", "todos(first:3)"])
        let onAnotherType = SelectionPlanCache.plan(Self.selections, parentType: "Admin", variables: ["count": 2])
        #expect(onAnotherType !== two)
        let separatingCaught = SelectionPlanCache.plan(
            Self.selections, parentType: "User", variables: ["count": 2], separatesCaughtFragments: true)
        #expect(separatingCaught !== two)
    }

    /// Plans are named by their selections' buffer. Arrays made and freed one after another can
    /// get the same address; each must still get the plan of its own selections, before and
    /// after the thread's table is full and drops plans.
    @Test func selectionsMadeForOneWalkEachGetTheirOwnPlan() {
        for round in 0..<(SelectionPlanCache.capacity * 3) {
            let key = "field\(round)"
            let selections: [Selection] = [.field(key, type: .scalar("String"))]
            let plan = SelectionPlanCache.plan(selections, parentType: "Query", variables: [:])
            #expect(plan.object(for: "Query").fields.map(\.responseKey) == [key])
            #expect(SelectionPlanCache.countOnThisThread <= SelectionPlanCache.capacity)
        }
    }

    @Test func anEmptySelectionSetIsPlannedWithoutBeingKept() {
        let before = SelectionPlanCache.countOnThisThread
        let plan = SelectionPlanCache.plan([], parentType: "Query", variables: [:])
        #expect(plan.object(for: "Query").fields.isEmpty)
        #expect(SelectionPlanCache.countOnThisThread == before)
    }
}
