import Foundation

extension SleepAnalyzer {
    // MARK: - Interrupt

    /// Interrupts the running analysis (the user pressed Ctrl-C): stops the data source and returns what each
    /// active session analysed so far, but leaves the sessions open in the journal, so that `resumeAnalysis(using:)`
    /// continues them later, in this process or the next, and the final result covers the whole night. Once it
    /// returns, the listeners have received every batch the results cover, and they receive no more.
    ///
    /// - Returns: Each active session's result so far, by channel.
    /// - Throws: `.notInitialized`, `.analysisNotActive` when no session runs.
    public func interruptAnalysis() async throws -> [AnalysisChannel: AnalysisResult] {
        _ = try requireContext()
        guard let pipeline, !activeSessions.isEmpty else { throw SleepCycleSdkError.analysisNotActive }
        let sessions = activeSessions.mapValues(\.channel)
        let results = try await pipeline.perform { core -> [AnalysisChannel: AnalysisResult] in
            var results: [AnalysisChannel: AnalysisResult] = [:]
            for (sessionId, channel) in sessions {
                guard let session = core.remove(sessionId) else { continue }
                var result = session.interrupt()
                result.warnings = core.inputWarnings(for: session) + result.warnings
                results[channel] = result
            }
            return results
        }
        // Shutting the pipeline down drops the sessions from memory only: their journal entries stay open.
        await shutDownPipeline()
        return results
    }
}
