import Foundation

/// Builds each session's engines from the licence's features, the session's sensors and the loaded models.
struct EngineFactory: Sendable {
    /// What `initialize` set up.
    let context: AnalyzerContext
    /// The analyzer's clock.
    let clock: any AnalysisClock

    /// The event types a session reports: standard types with `audioEvents` (movement from audio only when the
    /// accelerometer is not used), snoring with `snoringDetection`, extended types with `extendedAudioEvents`.
    func enabledEventTypes(config: SleepAnalysisConfig) -> Set<EventType> {
        let features = context.features
        var types: Set<EventType> = []
        if features.audioEvents { types.formUnion(EventType.standardTypes.subtracting([.snoring])) }
        if features.snoringDetection { types.insert(.snoring) }
        if features.extendedAudioEvents { types.formUnion(EventType.extendedTypes) }
        if config.useAccelerometer { types.remove(.movement) }
        return types
    }

    /// The events engine of one channel of a stereo source (all licensed types; the arbiter assigns them).
    func makeChannelEventsEngine() -> any AudioEventsEngine {
        makeEventsEngine(sessionId: UUID(), types: enabledEventTypes(config: SleepAnalysisConfig(useAudio: true)))
            ?? SilentEventsEngine()
    }

    /// What a two-sleeper pipeline needs, with this factory's events engines.
    func stereoSetup(separation: ChannelSeparationConfig) -> StereoSetup {
        StereoSetup(separation: separation, makeChannelEventsEngine: { makeChannelEventsEngine() })
    }

    /// A smart alarm for a session that had none, and the events it starts with (`.armed`).
    func makeSmartAlarm(
        sessionId: UUID, configuration: SmartAlarmConfig?
    ) -> (
        driver: any SmartAlarmDriver, initialEvents: [SmartAlarmEvent]
    ) {
        let engine = SmartAlarmEngine(sessionId: sessionId, configuration: configuration, now: clock.now)
        return (engine, engine.takePendingEvents())
    }

    /// The processor of a new (or resumed) session, with its engines.
    func makeProcessor(
        for session: SessionDescriptor, output: any AnalysisOutputSink, listeners: ListenerBox,
        restoring restored: RestoredSessionState?, arbiter: StereoEventArbiter?, source: (any DataSource)? = nil
    ) -> SessionProcessor {
        let features = context.features
        let config = session.config
        var engines = SessionEngines()
        if config.useAudio {
            if let arbiter {
                engines.events = ArbitratedEventsEngine(
                    arbiter: arbiter, channel: session.channel, sessionId: session.sessionId,
                    enabledTypes: enabledEventTypes(config: config), startTime: session.startTime)
            } else {
                engines.events = makeEventsEngine(
                    sessionId: session.sessionId, types: enabledEventTypes(config: config))
            }
        }
        if config.useAudio || config.useAccelerometer {
            var breathing = BreathingRateConfiguration()
            breathing.useAudio = config.useAudio
            breathing.useAccelerometer = config.useAccelerometer
            engines.breathing = make("breathing-rate") {
                try BreathingRateEstimator(sessionId: session.sessionId, configuration: breathing)
            }
        }
        if config.useAudio {
            engines.audioHealth = make("audio health") {
                try AudioHealthMonitor(sessionId: session.sessionId, startTime: session.startTime)
            }
        }
        if config.useAccelerometer {
            engines.motion = make("motion") {
                try AccelerometerMotionEngine(sessionId: session.sessionId, sessionStart: session.startTime)
            }
        }
        if let model = context.models.staging {
            engines.staging = PipelineSleepStager(model: model, sessionStart: session.startTime)
        }
        var initialAlarmEvents: [SmartAlarmEvent] = []
        if features.smartAlarm && session.channel == .primary {
            let engine: SmartAlarmEngine
            if let state = restored?.alarmState {
                engine = SmartAlarmEngine(restoring: state)
                if state.configuration != session.smartAlarmConfig {
                    initialAlarmEvents += engine.update(configuration: session.smartAlarmConfig, now: session.startTime)
                }
            } else {
                engine = SmartAlarmEngine(
                    sessionId: session.sessionId, configuration: session.smartAlarmConfig, now: session.startTime)
            }
            initialAlarmEvents += engine.takePendingEvents()
            engines.smartAlarm = engine
        }
        let processor = SessionProcessor(
            sessionId: session.sessionId, channel: session.channel, config: config, startTime: session.startTime,
            timeZone: restored?.timeZone ?? .current, engines: engines,
            publishing: SessionPublishing(
                realTimeStages: features.realTimeSleepStaging, wholeNightStages: features.sleepStaging),
            output: output, listeners: listeners,
            recorder: SessionJournalRecorder(
                journal: context.journal, logger: context.logger, fingerprint: { source?.fingerprint }),
            restoring: restored,
            eventPresence: EventPresence(onThresholds: context.models.events?.onThreshold ?? [:]),
            bandLimitedEventPresence: context.models.bandLimitedEvents.map {
                EventPresence(onThresholds: $0.onThreshold)
            })
        processor.publishInitialAlarmEvents(initialAlarmEvents)
        return processor
    }

    /// Builds an engine, logging (not throwing) when it cannot be set up: the session runs without it.
    private func make<Engine>(_ name: String, _ body: () throws -> Engine) -> Engine? {
        do {
            return try body()
        } catch {
            context.logger.error("\(name) engine unavailable: \(error)")
            return nil
        }
    }

    private func makeEventsEngine(sessionId: UUID, types: Set<EventType>) -> (any AudioEventsEngine)? {
        guard let model = context.models.events, !types.isEmpty else { return nil }
        do {
            return try EventDetector(
                model: model, bandLimitedModel: context.models.bandLimitedEvents, enabledTypes: types,
                sessionId: sessionId)
        } catch {
            context.logger.error("events engine unavailable: \(error)")
            return nil
        }
    }
}

/// An events engine that finds nothing: for a stereo channel when no events feature is licensed.
package final class SilentEventsEngine: AudioEventsEngine {
    package init() {}
    package func process(_ batch: AudioBatch) -> EventDetectorOutput { .empty }
    package func finish() -> EventDetectorOutput { .empty }
    package var eventReach: EventReach? { .never }
}
