import Foundation

/// The plans of the walks run on this thread, kept from one walk to the next: a selection set's
/// plan for one set of variables is worked out once per thread and reused by every later walk
/// with the same selections and variables (the executor's, the reader's, the prefetcher's, the
/// response checks').
///
/// Why per thread and not one table for the process: every object a walk meets retains parts of
/// its plan (the planned fields of its type, their checks). Two threads walking with one shared
/// plan would write the same reference counts from two cores, and that contention would cost more
/// than building the plan did. A walk is synchronous, so a plan never leaves the thread that
/// keeps it.
package enum SelectionPlanCache {
    /// At most this many plans per thread; past it, one is dropped for each new one.
    package static let capacity = 64

    /// The plan of `selections` on `parentType` with `variables`, built on this thread's first
    /// ask and kept for the next.
    package static func plan(
        _ selections: [Selection], parentType: String?, variables: JSONObject, separatesCaughtFragments: Bool = false
    ) -> SelectionPlan {
        // An empty selection set costs nothing to plan, and its array has no buffer of its own to
        // name it by (every empty array shares one).
        guard !selections.isEmpty, let identity = selections.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) })
        else {
            return SelectionPlan(selections, parentType: parentType, variables: variables, separatesCaughtFragments: separatesCaughtFragments)
        }
        let key = Key(
            selections: identity, parentType: parentType, variables: variables, separatesCaughtFragments: separatesCaughtFragments)
        let table = ThreadPlans.current
        if let kept = table.plans[key] { return kept.plan }
        let plan = SelectionPlan(
            selections, parentType: parentType, variables: variables, separatesCaughtFragments: separatesCaughtFragments)
        if table.plans.count >= capacity { table.plans.remove(at: table.plans.startIndex) }
        // The entry holds the selections, so their buffer (the key's address) is not freed and
        // reused by another array while the entry names it.
        table.plans[key] = ThreadPlans.Entry(selections: selections, plan: plan)
        return plan
    }

    /// How many plans this thread keeps (for tests).
    package static var countOnThisThread: Int { ThreadPlans.current.plans.count }

    /// A plan's name: the buffer of its selections (kept alive by the entry), its type, its
    /// variables and how it treats `@catch` fragments.
    struct Key: Hashable {
        let selections: UnsafeRawPointer
        let parentType: String?
        let variables: JSONObject
        let separatesCaughtFragments: Bool
    }
}

/// One thread's table of plans, kept in the thread's dictionary.
private final class ThreadPlans {
    struct Entry {
        let selections: [Selection]
        let plan: SelectionPlan
    }

    var plans: [SelectionPlanCache.Key: Entry] = [:]

    private static let name = "Baton.SelectionPlanCache"

    /// This thread's table, made on first use.
    static var current: ThreadPlans {
        let dictionary = Thread.current.threadDictionary
        if let table = dictionary[name] as? ThreadPlans { return table }
        let table = ThreadPlans()
        dictionary[name] = table
        return table
    }
}
