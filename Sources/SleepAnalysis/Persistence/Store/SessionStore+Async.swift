import Foundation

/// The store's `async` calls: the same queries and writes, with the blocking database work done on a queue of the
/// store's own, so an actor or the cooperative thread pool is never blocked on the disk.
///
/// ```swift
/// let store = try SessionStore(directory: storeDirectory)
/// try await store.save(result)
/// let lastWeek = try await store.nights(in: DateInterval(start: weekAgo, end: now))
/// ```
extension SessionStore {
    /// Saves a night (replacing any earlier copy); see the synchronous `save(_:)`.
    ///
    /// - Parameter result: The night's result.
    /// - Returns: The change that was published on `changes`.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    @discardableResult
    public func save(_ result: AnalysisResult) async throws -> SessionStoreChange {
        try await offloaded { try $0.save(result) }
    }

    /// Deletes a night; see the synchronous `delete(sessionId:)`.
    ///
    /// - Parameter sessionId: The session to delete.
    /// - Returns: The published change, or nil when the store had no such night.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    @discardableResult
    public func delete(sessionId: UUID) async throws -> SessionStoreChange? {
        try await offloaded { try $0.delete(sessionId: sessionId) }
    }

    /// The nights that overlap `range`, oldest first.
    ///
    /// - Parameter range: The dates to look in.
    /// - Returns: The nights' summaries.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    public func nights(in range: DateInterval) async throws -> [StoredNight] {
        try await offloaded { try $0.nights(in: range) }
    }

    /// A stored night's whole result, or nil.
    ///
    /// - Parameter sessionId: The session.
    /// - Returns: The result, nil when the store has no such night.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    public func result(sessionId: UUID) async throws -> AnalysisResult? {
        try await offloaded { try $0.result(sessionId: sessionId) }
    }

    /// The nights that overlap `range`, skipping rows that do not decode; see `readableNights(in:)`.
    ///
    /// - Parameter range: The dates to look in.
    /// - Returns: The readable nights and the skipped rows.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    public func readableNights(
        in range: DateInterval
    ) async throws -> (
        nights: [StoredNight], unreadable: [UnreadableNight]
    ) {
        try await offloaded { try $0.readableNights(in: range) }
    }

    /// The results of the nights that overlap `range`, skipping rows that do not decode; see
    /// `readableResults(in:)`.
    ///
    /// - Parameter range: The dates to look in.
    /// - Returns: The readable results and the skipped rows.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    public func readableResults(
        in range: DateInterval
    ) async throws -> (
        results: [AnalysisResult], unreadable: [UnreadableNight]
    ) {
        try await offloaded { try $0.readableResults(in: range) }
    }

    /// The stage samples that overlap `range`.
    ///
    /// - Parameter range: The dates to look in.
    /// - Returns: The samples, in time order.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    public func stageSamples(in range: DateInterval) async throws -> [SleepStageSample] {
        try await offloaded { try $0.stageSamples(in: range) }
    }

    /// The nights added and deleted since `anchor` (all, for nil), and the anchor to ask from next time.
    ///
    /// - Parameters:
    ///   - anchor: Where the last query ended, or nil.
    ///   - limit: At most this many changes.
    /// - Returns: The changes and the new anchor.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    public func changes(since anchor: SessionStoreAnchor?, limit: Int? = nil) async throws -> AnchoredChanges {
        try await offloaded { try $0.changes(since: anchor, limit: limit) }
    }

    /// The anchor of the latest change.
    ///
    /// - Returns: The anchor.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    public func currentAnchor() async throws -> SessionStoreAnchor {
        try await offloaded { try $0.currentAnchor() }
    }

    /// HealthKit sleep-analysis samples of the nights that overlap `range`.
    ///
    /// - Parameter range: The dates to look in.
    /// - Returns: The samples.
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    public func healthKitSamples(in range: DateInterval) async throws -> [HealthKitSleepSample] {
        try await offloaded { try $0.healthKitSamples(in: range) }
    }

    /// Runs `work` on the store's queue and hands back its value or error.
    private func offloaded<Value: Sendable>(
        _ work: @escaping @Sendable (SessionStore) throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            blockingQueue.async {
                continuation.resume(with: Result { try work(self) })
            }
        }
    }
}
