// A stand-in for the few SwiftUI declarations Baton's wrappers (Sources/Baton/SwiftUI) and seed
// 001's view use, with Apple's signatures, so that they type-check on Linux where SwiftUI does
// not exist. Built into a `SwiftUI` module by SwiftUIStandInTests; not part of BatonTests (the
// test target excludes this folder). Nothing here runs.

/// A property a view stores that SwiftUI updates before each `body`.
public protocol DynamicProperty {
    /// Called by SwiftUI before the view's `body` is evaluated.
    mutating func update()
}

extension DynamicProperty {
    public mutating func update() {}
}

/// A value SwiftUI keeps for a view across updates.
@propertyWrapper
public struct State<Value>: DynamicProperty {
    private let box: Value

    public init(wrappedValue value: Value) { box = value }
    public init(initialValue value: Value) { box = value }

    public var wrappedValue: Value {
        get { box }
        nonmutating set {}
    }

    public var projectedValue: Binding<Value> { Binding(get: { box }, set: { _ in }) }
}

extension State: Sendable where Value: Sendable {}

/// A reference to a value and a way to change it.
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
    private let getter: () -> Value
    private let setter: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        getter = get
        setter = set
    }

    public var wrappedValue: Value {
        get { getter() }
        nonmutating set { setter(newValue) }
    }

    public var projectedValue: Binding<Value> { self }

    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { self.wrappedValue[keyPath: keyPath] }, set: { _ in })
    }
}

/// A key for a value in the environment.
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// The values a view's environment holds.
public struct EnvironmentValues {
    public init() {}

    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { K.defaultValue }
        set {}
    }
}

/// A value read from the view's environment.
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    private let keyPath: KeyPath<EnvironmentValues, Value>

    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }

    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}


/// A piece of user interface.
@MainActor
@preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// No view.
public struct EmptyView: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}

/// Several views in a row of a builder.
public struct TupleView<T>: View {
    nonisolated public init(_ value: T) {}
    public var body: Never { fatalError() }
}

/// One of two views.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// Builds a view from the statements of a closure.
@resultBuilder
public struct ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { _ConditionalContent() }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { _ConditionalContent() }
}

/// Text.
public struct Text: View {
    public init<S: StringProtocol>(_ content: S) {}
    public var body: Never { fatalError() }
}

/// An image.
public struct Image: View {
    public init(systemName: String) {}
    public var body: Never { fatalError() }
}

/// A horizontal stack.
public struct HStack<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// A button.
public struct Button<Label: View>: View {
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError() }
}

/// A view with a modifier applied.
public struct ModifiedView<Content: View>: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}

extension View {
    public func disabled(_ disabled: Bool) -> some View { ModifiedView<Self>() }
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View { ModifiedView<Self>() }
}

// What the Guide's SwiftUI screens use (DocumentationCodeBlockTests compiles them).

extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

/// A progress indicator.
public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public var body: Never { fatalError() }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    public init() where Label == EmptyView {}
}

/// Rows in a scrolling list.
public struct List<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}

extension List where SelectionValue == Never {
    public init(@ViewBuilder content: () -> Content) {}
}

/// Views made from a collection's elements.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) where Content: View {}
}

extension ForEach: View where Content: View {
    public var body: Never { fatalError() }
}

/// A switch.
public struct Toggle<Label: View>: View {
    public var body: Never { fatalError() }
}

extension Toggle where Label == Text {
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

extension View {
    public func refreshable(action: @escaping @Sendable () async -> Void) -> some View { ModifiedView<Self>() }
}

/// Part of an app's user interface: a window, a document.
@MainActor
@preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

/// Builds a scene from the statements of a closure.
@resultBuilder
public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// An app: its scenes.
@MainActor
@preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    init()
}

extension App {
    /// The app's entry point, which `@main` calls.
    @MainActor
    public static func main() {}
}

/// A window of views.
public struct WindowGroup<Content: View>: Scene {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}
