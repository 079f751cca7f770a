import Foundation

/// One session's analysis: feeds its engines, publishes what they find, keeps what goes into its result.
///
/// Owned by the pipeline thread; never shared.
final class SessionProcessor {
    /// The session.
    let sessionId: UUID
    /// Its channel.
    let channel: AnalysisChannel
    /// Its sensors.
    let config: SleepAnalysisConfig
    /// When it started (as requested).
    let startTime: Date
    /// The time zone in force at its start.
    let timeZone: TimeZone

    private var engines: SessionEngines
    private let publishing: SessionPublishing
    private let output: any AnalysisOutputSink
    private let listenerNotifier: AudioBatchListenerNotifier

    private var events: [Event] = []
    private var breathingRates: [BreathingRate] = []
    private var realTimePredictions: [SleepStagePrediction] = []
    private var observations: [EpochObservation] = []
    private var alarmEvents: [SmartAlarmEvent] = []
    private var epoch: EpochAccumulator?
    private var latestPrediction: SleepStagePrediction?
    private var movementSinceTick = false
    /// The end of the data analysed so far.
    private(set) var dataTime: Date
    /// What was journaled before a resume: where analysis continues, outputs the engines find again while they
    /// catch up (not recorded twice), the events model chosen, the audio health before it.
    private let ledger: SessionResumeLedger
    /// Data before this time was analysed before a resume (or precedes the session) and is skipped.
    private var resumeFrom: Date { ledger.resumeFrom }
    /// True once the engines have seen the session's audio from its start (a replayed night, also after a resume:
    /// they catch up on the part analysed before it), so their own state covers the whole session.
    private var audioSeenFromStart = false
    /// Whether an audio batch has come yet.
    private var audioStarted = false
    /// Whether this processor has seen the events detector's choice of model.
    private var eventsModelNoted = false
    /// The records since the last checkpoint, and where they are committed.
    private var journal: SessionJournalBatch
    /// When an event type counts as present in a batch.
    private var eventPresence: EventPresence
    /// When an event type counts as present once the events detector runs its band-limited model.
    private let bandLimitedEventPresence: EventPresence?

    /// Creates the processor of a session starting at `startTime`.
    init(
        sessionId: UUID, channel: AnalysisChannel, config: SleepAnalysisConfig, startTime: Date, timeZone: TimeZone,
        engines: SessionEngines, publishing: SessionPublishing, output: any AnalysisOutputSink, listeners: ListenerBox,
        recorder: (any SessionRecorder)? = nil, restoring restored: RestoredSessionState? = nil,
        eventPresence: EventPresence = EventPresence(), bandLimitedEventPresence: EventPresence? = nil
    ) {
        self.eventPresence = eventPresence
        self.bandLimitedEventPresence = bandLimitedEventPresence
        self.sessionId = sessionId
        self.channel = channel
        self.config = config
        self.startTime = startTime
        self.timeZone = timeZone
        self.engines = engines
        self.publishing = publishing
        self.output = output
        listenerNotifier = AudioBatchListenerNotifier(
            sessionId: sessionId, listeners: listeners,
            levelShift: config.soundLevelCalibration.map {
                Float($0.offsetDb - LevelCalibration.default.offsetDb)
            } ?? 0)
        journal = SessionJournalBatch(sessionId: sessionId, recorder: recorder)
        ledger = SessionResumeLedger(restoring: restored, sessionStart: startTime)
        self.dataTime = ledger.resumeFrom
        if let restored {
            events = restored.events
            breathingRates = restored.breathingRates
            realTimePredictions = restored.realTimePredictions
            observations = restored.observations
            latestPrediction = restored.realTimePredictions.last
            // Rebuild the staging engine's causal state; its earlier outputs are already in the result.
            for observation in restored.observations { _ = engines.staging?.addEpoch(observation) }
            // The epoch after the checkpoint was open when the session was interrupted.
            if let processedUntil = restored.processedUntil {
                epoch = EpochAccumulator(start: processedUntil, presence: eventPresence)
            }
        }
    }

    /// The smart-alarm events so far (for reports).
    var smartAlarmHistory: [SmartAlarmEvent] { alarmEvents }

    /// Whether the session's events engine detects with the model for band-limited audio.
    var usesBandLimitedEventModel: Bool { engines.events?.bandLimitedModelChoice == true }

    // MARK: - Input

    /// Analyses one audio batch of the session's signal. Batches that begin before the session are skipped;
    /// batches before a resume's checkpoint only bring the engines up to date (`catchUp(_:)`).
    func process(_ batch: AudioBatch) {
        guard config.useAudio, batch.startTime >= startTime.addingTimeInterval(-1e-6) else { return }
        if batch.startTime <= startTime.addingTimeInterval(1e-6) { audioSeenFromStart = true }
        if !audioStarted {
            audioStarted = true
            // Engines that see the night from its start choose again, alike; others take the journaled choice.
            if !audioSeenFromStart, let choice = ledger.restoredEventsModel {
                engines.events?.adoptModelChoice(bandLimited: choice.bandLimited)
            }
        }
        guard batch.startTime >= resumeFrom.addingTimeInterval(-1e-6) else { return catchUp(batch) }
        let seconds = Double(batch.samples.count) / Double(AudioBatch.sampleRate)
        if epoch == nil {
            epoch = EpochAccumulator(start: epochStart(containing: batch.startTime), presence: eventPresence)
        }

        var update = EventDetectorOutput.empty
        if let eventsEngine = engines.events { update = eventsEngine.process(batch) }
        record(events: update.ended)
        noteEventsModelChoice()
        for rate in engines.breathing?.process(batch) ?? [] { record(breathing: rate) }
        for change in engines.audioHealth?.process(batch) ?? [] { record(health: change) }

        listenerNotifier.batchCompleted(batch, update: update)

        closeEpochs(until: batch.startTime)
        epoch?.addAudio(dbSpl: batch.features.dbSpl, seconds: seconds, probabilities: update.probabilities)
        if eventPresence.isPresent(.movement, in: update.probabilities) { movementSinceTick = true }
        dataTime = max(dataTime, batch.endTime)
        closeEpochs(until: batch.endTime)
        tickAlarm(now: batch.endTime)
    }

    /// Analyses accelerometer readings. Readings from before a resume's checkpoint bring the engines up to date;
    /// what they find that was journaled already is not recorded again.
    func process(accelerometer samples: [AccelerometerSample]) {
        guard config.useAccelerometer, let last = samples.last, last.timestamp >= startTime else { return }
        let inSession = samples.filter { $0.timestamp >= startTime }
        if let motion = engines.motion {
            let movements = motion.process(inSession)
            let new = ledger.unjournaled(movements)
            if !new.isEmpty { movementSinceTick = true }
            record(events: new)
        }
        for rate in engines.breathing?.process(accelerometer: inSession) ?? [] { record(breathing: rate) }
        if last.timestamp >= resumeFrom { advanceWithoutAudio(to: last.timestamp) }
    }

    /// Takes device activity counts.
    func process(activityCounts samples: [ActivityCountSample]) {
        guard config.useAccelerometer, let last = samples.last else { return }
        engines.motion?.process(activityCounts: samples.filter { $0.timestamp >= startTime })
        if last.timestamp >= resumeFrom { advanceWithoutAudio(to: last.timestamp) }
    }

    /// Takes heart-rate readings.
    func process(heartRates samples: [HeartRateSample]) {
        guard config.useHeartRate, let last = samples.last else { return }
        let values = samples.filter { $0.timestamp >= resumeFrom && $0.bpm.isFinite }
        if epoch == nil, let first = values.first, !config.useAudio {
            epoch = EpochAccumulator(start: epochStart(containing: first.timestamp), presence: eventPresence)
        }
        epoch?.addHeartRates(values.map(\.bpm))
        advanceWithoutAudio(to: last.timestamp)
    }

    /// Checks for missing audio at wall-clock time `now` (live sources only).
    func checkForMissingInput(now: Date) {
        for change in engines.audioHealth?.checkForMissingInput(now: now) ?? [] { record(health: change) }
    }

    // MARK: - Commands

    /// Replaces, adds or cancels the smart alarm at data time.
    func updateSmartAlarm(_ configuration: SmartAlarmConfig?) -> Bool {
        guard let alarm = engines.smartAlarm else { return false }
        publish(alarm: alarm.update(configuration: configuration, now: dataTime))
        return true
    }

    /// Gives the session a smart alarm it did not have (its first events are published).
    func installSmartAlarm(_ alarm: (driver: any SmartAlarmDriver, initialEvents: [SmartAlarmEvent])) {
        engines.smartAlarm = alarm.driver
        publish(alarm: alarm.initialEvents)
    }

    /// The sleeper touched the device at `time` (data time when nil).
    func notifyUserInteraction(at time: Date?) {
        guard let alarm = engines.smartAlarm else { return }
        publish(alarm: alarm.notifyUserInteraction(at: time ?? dataTime))
    }

    /// Publishes the alarm's first events (e.g. `.armed`) when the session starts.
    func publishInitialAlarmEvents(_ events: [SmartAlarmEvent]) { publish(alarm: events) }

    // MARK: - Finish

    /// Closes the session at `end` (nil: the end of the analysed data) and returns its result.
    func finish(at end: Date?) -> AnalysisResult {
        let endTime = max(startTime, end ?? dataTime)
        if let eventsEngine = engines.events { record(events: eventsEngine.finish().ended) }
        if let motion = engines.motion { record(events: motion.finish()) }
        for rate in engines.breathing?.finish() ?? [] { record(breathing: rate) }
        closeEpochs(until: endTime)
        if let partial = epoch, partial.coveredSeconds >= EpochAccumulator.epochLength / 2,
            partial.interval.start < endTime
        {
            close(partial)
            epoch = nil
        }
        return ResultBuilder(
            sessionId: sessionId, startTime: startTime, endTime: endTime, timeZone: timeZone,
            events: events.filter { $0.interval.start < endTime },
            breathingRates: breathingRates.filter { $0.timestamp <= endTime },
            realTimePredictions: realTimePredictions.filter { $0.interval.start < endTime },
            wholeNight: publishing.wholeNightStages
                ? (engines.staging?.wholeNight() ?? []).filter { $0.interval.start < endTime } : nil,
            stagingBasis: engines.staging?.basis,
            audioStatistics: config.useAudio ? audioStatistics(until: endTime) : nil,
            includeRealTime: publishing.realTimeStages, smartAlarmEvents: alarmEvents
        ).build()
    }

    /// The result so far, for an interrupted session that stays resumable: the journal is detached first, so the
    /// open epoch and the engines' unfinished outputs are not journaled (a resume analyses them again from the
    /// last checkpoint), and the session is not marked finished. The processor is not used afterwards.
    ///
    /// - Returns: The session's result up to the latest analysed time.
    func interrupt() -> AnalysisResult {
        journal.detach()
        return finish(at: nil)
    }

    // MARK: - Internals

    /// The start of the 30-second epoch (on the session's grid) that contains `time`.
    private func epochStart(containing time: Date) -> Date {
        let offset = max(0, time.timeIntervalSince(startTime))
        let index = (offset / EpochAccumulator.epochLength + 1e-9).rounded(.down)
        return startTime.addingTimeInterval(index * EpochAccumulator.epochLength)
    }

    /// Audio health over the session: the engine's own timeline when it saw the session from its start (also after
    /// a resume of a replayed night); otherwise what was journaled before the resume, then the engine's intervals,
    /// with neighbours of one status joined.
    private func audioStatistics(until end: Date) -> AudioStatistics? {
        guard let engine = engines.audioHealth else { return nil }
        let timeline = engine.finish(at: end).healthIntervals
        guard ledger.resumesAfterStart, !audioSeenFromStart else { return AudioStatistics(healthIntervals: timeline) }
        return AudioStatistics(healthIntervals: ledger.healthIntervals(continuedBy: timeline))
    }

    /// Runs the engines on a batch analysed before a resume, so that their state at the checkpoint is the state
    /// an uninterrupted run had there. Their outputs were journaled then: only what is missing from the journal is
    /// recorded (nothing, unless the interruption fell between an output and its epoch's commit); nothing is
    /// published, no epoch closes and no listener is called again.
    private func catchUp(_ batch: AudioBatch) {
        if let eventsEngine = engines.events { record(events: eventsEngine.process(batch).ended) }
        noteEventsModelChoice()
        for rate in engines.breathing?.process(batch) ?? [] { record(breathing: rate) }
        _ = engines.audioHealth?.process(batch)
    }

    /// Acts on the events detector's choice of model once it is made: event presence follows the band-limited
    /// model's on-thresholds from then on, and the choice is journaled (unless it was before a resume).
    private func noteEventsModelChoice() {
        guard !eventsModelNoted, let choice = engines.events?.bandLimitedModelChoice else { return }
        eventsModelNoted = true
        if choice, let bandLimitedEventPresence {
            eventPresence = bandLimitedEventPresence
            epoch?.thresholds = bandLimitedEventPresence
        }
        if ledger.restoredEventsModel == nil { journal.append(.eventsModel(EventsModelChoice(bandLimited: choice))) }
    }

    private func record(health change: AudioHealthUpdate) {
        output.publish(audioHealth: change)
        journal.append(.health(change))
    }

    private func record(events found: [Event]) {
        let newEvents = ledger.unjournaled(found)
        guard !newEvents.isEmpty else { return }
        events.append(contentsOf: newEvents)
        events.sort { $0.interval.start < $1.interval.start }
        let movements = newEvents.filter { $0.type == .movement && $0.source == .accelerometer }.count
        if movements > 0 { epoch?.addMovementEvents(movements) }
        journal.append(contentsOf: newEvents.map(JournaledRecord.event))
        output.publish(events: newEvents)
    }

    private func record(breathing rate: BreathingRate) {
        guard !ledger.isJournaled(rate) else { return }
        breathingRates.append(rate)
        journal.append(.breathing(rate))
        output.publish(breathingRate: rate)
    }

    /// Moves data time forward for sessions that have no audio (motion or heart rate only).
    private func advanceWithoutAudio(to time: Date) {
        guard !config.useAudio else { return }
        if epoch == nil {
            epoch = EpochAccumulator(start: epochStart(containing: max(time, resumeFrom)), presence: eventPresence)
        }
        if time > dataTime {
            epoch?.addMotionCoverage(seconds: time.timeIntervalSince(dataTime))
            dataTime = time
        }
        closeEpochs(until: time)
        tickAlarm(now: time)
    }

    private func closeEpochs(until time: Date) {
        while let current = epoch, current.interval.end <= time.addingTimeInterval(1e-6) {
            close(current)
            epoch = EpochAccumulator(start: current.interval.end, presence: eventPresence)
        }
    }

    private func close(_ finished: EpochAccumulator) {
        let activity = engines.motion?.activity(in: finished.interval)
        let latestBreathing = breathingRates.last { $0.timestamp <= finished.interval.end.addingTimeInterval(1e-6) }
        let observation = finished.observation(activity: activity, breathing: latestBreathing)
        observations.append(observation)
        journal.append(.epoch(observation))
        if let staging = engines.staging {
            let prediction = staging.addEpoch(observation)
            latestPrediction = prediction
            realTimePredictions.append(prediction)
            journal.append(.realTimePrediction(prediction))
            if publishing.realTimeStages { output.publish(sleepStage: prediction) }
        }
        journal.commit(processedUntil: finished.interval.end, alarmState: engines.smartAlarm?.state)
    }

    private func tickAlarm(now: Date) {
        guard let alarm = engines.smartAlarm else { return }
        publish(alarm: alarm.tick(now: now, stage: latestPrediction, movement: movementSinceTick))
        movementSinceTick = false
    }

    private func publish(alarm newEvents: [SmartAlarmEvent]) {
        for event in newEvents {
            alarmEvents.append(event)
            output.publish(smartAlarm: event)
        }
    }
}
