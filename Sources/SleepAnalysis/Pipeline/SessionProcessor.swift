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
    private let listeners: ListenerBox

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
    /// Data before this time was analysed before a resume (or precedes the session) and is skipped.
    private let resumeFrom: Date
    /// Health changes journaled before a resume.
    private let priorHealthUpdates: [AudioHealthUpdate]
    /// What was journaled before a resume: outputs the engines find again while they catch up are not recorded
    /// twice.
    private var journaledEvents: Set<Event> = []
    private var journaledRates: Set<BreathingRate> = []
    /// True once the engines have seen the session's audio from its start (a replayed night, also after a resume:
    /// they catch up on the part analysed before it), so their own state covers the whole session.
    private var audioSeenFromStart = false
    /// Whether an audio batch has come yet.
    private var audioStarted = false
    /// The events detector's choice of model journaled before a resume; whether this processor has seen the choice.
    private var restoredEventsModel: EventsModelChoice?
    private var eventsModelNoted = false
    /// Keeps the session's records for a resume; nil when the session is not recorded.
    private var recorder: (any SessionRecorder)?
    private var pendingJournal: [JournaledRecord] = []
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
        self.listeners = listeners
        self.recorder = recorder
        let resumeFrom = restored?.processedUntil ?? startTime
        self.resumeFrom = resumeFrom
        self.dataTime = resumeFrom
        priorHealthUpdates = restored?.healthUpdates ?? []
        if let restored {
            events = restored.events
            breathingRates = restored.breathingRates
            realTimePredictions = restored.realTimePredictions
            observations = restored.observations
            latestPrediction = restored.realTimePredictions.last
            journaledEvents = Set(restored.events)
            journaledRates = Set(restored.breathingRates)
            restoredEventsModel = restored.eventsModel
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
            if !audioSeenFromStart, let choice = restoredEventsModel {
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

        notifyListeners(batch: batch, update: update)

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
            let new = movements.filter { !journaledEvents.contains($0) }
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
        recorder = nil
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
        guard resumeFrom > startTime, !audioSeenFromStart else { return AudioStatistics(healthIntervals: timeline) }
        let current = timeline.filter { $0.interval.end > resumeFrom }
        var prior: [AudioHealthInterval] = []
        var status = AudioHealthStatus.healthy
        var since = startTime
        for update in priorHealthUpdates where update.timestamp < resumeFrom {
            if update.timestamp > since {
                prior.append(
                    AudioHealthInterval(status: status, interval: DateInterval(start: since, end: update.timestamp)))
            }
            status = update.status
            since = max(since, update.timestamp)
        }
        if resumeFrom > since {
            prior.append(AudioHealthInterval(status: status, interval: DateInterval(start: since, end: resumeFrom)))
        }
        var joined: [AudioHealthInterval] = []
        for interval in prior + current {
            if let last = joined.last, last.status == interval.status,
                abs(last.interval.end.timeIntervalSince(interval.interval.start)) < 1e-6
            {
                joined[joined.count - 1] = AudioHealthInterval(
                    status: last.status, interval: DateInterval(start: last.interval.start, end: interval.interval.end))
            } else {
                joined.append(interval)
            }
        }
        return AudioStatistics(healthIntervals: joined)
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
        if restoredEventsModel == nil { pendingJournal.append(.eventsModel(EventsModelChoice(bandLimited: choice))) }
    }

    private func record(health change: AudioHealthUpdate) {
        output.publish(audioHealth: change)
        pendingJournal.append(.health(change))
    }

    private func record(events found: [Event]) {
        let newEvents = journaledEvents.isEmpty ? found : found.filter { !journaledEvents.contains($0) }
        guard !newEvents.isEmpty else { return }
        events.append(contentsOf: newEvents)
        events.sort { $0.interval.start < $1.interval.start }
        let movements = newEvents.filter { $0.type == .movement && $0.source == .accelerometer }.count
        if movements > 0 { epoch?.addMovementEvents(movements) }
        pendingJournal.append(contentsOf: newEvents.map(JournaledRecord.event))
        output.publish(events: newEvents)
    }

    private func record(breathing rate: BreathingRate) {
        guard !journaledRates.contains(rate) else { return }
        breathingRates.append(rate)
        pendingJournal.append(.breathing(rate))
        output.publish(breathingRate: rate)
    }

    private func notifyListeners(batch: AudioBatch, update: EventDetectorOutput) {
        guard !listeners.listeners.isEmpty else { return }
        var probabilities: [EventType: Float] = [:]
        for type in EventType.allCases { probabilities[type] = update.probabilities[type] ?? 0 }
        let ended = update.ended.map {
            EventEndedInfo(
                type: $0.type, startTime: $0.interval.start, endTime: $0.interval.end,
                probability: Float($0.probability))
        }
        for listener in listeners.listeners {
            listener.onAudioAnalysisBatchCompleted(
                sessionId: sessionId, audioSamples: batch.samples, audioSampleRate: AudioBatch.sampleRate,
                audioStartTime: batch.startTime, audioEndTime: batch.endTime, audioProbability: probabilities,
                eventsStarted: update.started, eventsEnded: ended, dbSpl: batch.features.dbSpl)
        }
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
        pendingJournal.append(.epoch(observation))
        if let staging = engines.staging {
            let prediction = staging.addEpoch(observation)
            latestPrediction = prediction
            realTimePredictions.append(prediction)
            pendingJournal.append(.realTimePrediction(prediction))
            if publishing.realTimeStages { output.publish(sleepStage: prediction) }
        }
        commitJournal(processedUntil: finished.interval.end)
    }

    /// Writes what happened since the last commit, with a checkpoint at `processedUntil`, in one transaction.
    private func commitJournal(processedUntil: Date) {
        guard let recorder else {
            pendingJournal.removeAll()
            return
        }
        if let alarm = engines.smartAlarm { pendingJournal.append(.alarmState(alarm.state)) }
        recorder.commit(pendingJournal, sessionId: sessionId, processedUntil: processedUntil)
        pendingJournal.removeAll()
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
