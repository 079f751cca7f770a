import Foundation

/// Watches what a data source delivers for input that analyses badly without failing: low sample rates,
/// band-limited audio, non-finite samples (repaired here), clipped audio, implausible heart rates, sensor readings that
/// miss the recording. Its `warnings` go into each session's result. Confined to the pipeline thread.
struct InputQualityMonitor {
    /// The rate the detectors were trained at (Hz).
    static let trainedSampleRate = 16_000.0

    private var sampleRate: Double?
    private var nonFiniteSamples = 0
    private var clipping = ClippingMonitor()
    private var implausibleHeartRates = 0
    private var bandwidth = AudioBandwidthMonitor()
    private var readings: [SensorKind: ReadingSpan] = [:]

    /// A kind of sensor reading.
    enum SensorKind: String, CaseIterable {
        case accelerometer = "accelerometer"
        case heartRate = "heart-rate"
        case activityCounts = "activity-count"
    }

    /// How many readings of a kind came, the earliest one at or after the source's start, and how many had the
    /// time of the reading before them.
    private struct ReadingSpan {
        var count = 0
        var firstInSession: Date?
        var last: Date?
        var simultaneous = 0
    }

    /// Replaces NaN and infinite samples of `chunk` by 0 (silence), counting them; counts its clipped samples and
    /// notes its sample rate.
    mutating func inspect(_ chunk: inout AudioChunk) {
        if sampleRate == nil { sampleRate = chunk.sampleRate }
        nonFiniteSamples += NonFiniteSampleRepair.zero(&chunk.samples)
        clipping.add(chunk.samples, channelCount: chunk.channelCount)
    }

    /// Notes the features of the first analysed signal (for the bandwidth check).
    mutating func inspect(_ features: FeatureBlock) {
        bandwidth.add(features)
    }

    /// Counts the heart-rate readings outside `HeartRateSample.plausibleBpm`.
    mutating func noteHeartRates(_ samples: [HeartRateSample]) {
        implausibleHeartRates += samples.count { !HeartRateSample.plausibleBpm.contains($0.bpm) }
    }

    /// Notes sensor readings of `kind` taken at `times` (in time order), for a source that started at `start`.
    mutating func noteReadings(_ kind: SensorKind, times: some Collection<Date>, start: Date) {
        var span = readings[kind] ?? ReadingSpan()
        span.count += times.count
        if span.firstInSession == nil { span.firstInSession = times.first { $0 >= start } }
        for time in times {
            if time == span.last { span.simultaneous += 1 }
            span.last = time
        }
        readings[kind] = span
    }

    /// The warnings for a session over `start...end` of a source whose audio ended at `audioEnd` (nil without
    /// audio); `bandLimitedEventModel`: the session's events detector judged the audio band-limited; `channel`: the
    /// input channel the session analyses alone (two sleepers), nil when it analyses them all mixed.
    func warnings(
        start: Date, audioEnd: Date?, bandLimitedEventModel: Bool = false, channel: Int? = nil
    )
        -> [AnalysisWarning]
    {
        var warnings: [AnalysisWarning] = []
        if let sampleRate, sampleRate < Self.trainedSampleRate {
            warnings.append(
                AnalysisWarning(
                    kind: .lowSampleRate,
                    message: "the audio's sample rate is \(Int(sampleRate)) Hz, below the 16 kHz the detectors were "
                        + "trained at: nothing above \(Int(sampleRate / 2)) Hz is heard. When the first seconds "
                        + "of sound hold nothing above 4 kHz, sound events are detected with the model trained for "
                        + "band-limited audio (events-band-limited.bin), which still misses some snoring, talking and "
                        + "coughing and raises more false alarms than on full-band audio; breathing and staging from "
                        + "sound are less reliable"))
        } else if bandwidth.isBandLimited {
            warnings.append(
                AnalysisWarning(
                    kind: .bandLimitedAudio,
                    message: "the audio holds almost nothing above 4 kHz (it was probably recorded or resampled at "
                        + "8 kHz, or passed through a telephone-band microphone or codec). When the first seconds of "
                        + "sound hold nothing above 4 kHz too, sound events are detected with the model trained for "
                        + "band-limited audio (events-band-limited.bin), which still misses some snoring, talking and "
                        + "coughing and raises more false alarms than on full-band audio"))
        } else if bandLimitedEventModel {
            warnings.append(
                AnalysisWarning(
                    kind: .bandLimitedAudio,
                    message: "the first seconds of sound held nothing above 4 kHz (the audio was probably recorded "
                        + "or resampled at 8 kHz, or passed through a telephone-band microphone or codec), so sound "
                        + "events were detected with the model trained for band-limited audio "
                        + "(events-band-limited.bin), which still misses some snoring, talking and coughing and "
                        + "raises more false alarms than on full-band audio. The night as a whole was not flagged: "
                        + "in quiet audio the noise of its 16-bit samples fills the upper band"))
        }
        if nonFiniteSamples > 0 {
            warnings.append(
                AnalysisWarning(
                    kind: .nonFiniteSamples,
                    message: "\(nonFiniteSamples) audio sample(s) were NaN or infinite and were replaced by silence; "
                        + "only the analysis windows holding them are affected",
                    count: nonFiniteSamples))
        }
        if let clipped = clipping.clipping(channel: channel) {
            let share = 100 * Double(clipped.clipped) / Double(max(1, clipped.samples))
            let shareText = share < 0.001 ? "under 0.001" : String(format: "%.3g", share)
            let whose = channel.map { "of channel \($0 + 1) " } ?? ""
            warnings.append(
                AnalysisWarning(
                    kind: .clippedAudio,
                    message: "\(clipped.clipped) audio sample(s) \(whose)(\(shareText) % of the "
                        + "recording) were clipped at full scale: the microphone's gain is too high, or sounds were "
                        + "louder than the input can take. Loud sounds are distorted there and their sound level "
                        + "reads low; lower the input gain",
                    count: clipped.clipped))
        }
        if implausibleHeartRates > 0 {
            let range = HeartRateSample.plausibleBpm
            warnings.append(
                AnalysisWarning(
                    kind: .implausibleHeartRates,
                    message: "\(implausibleHeartRates) heart-rate reading(s) lay outside "
                        + "\(Int(range.lowerBound))–\(Int(range.upperBound)) bpm (the wearable's glitches) and were "
                        + "left out of the staging",
                    count: implausibleHeartRates))
        }
        for kind in SensorKind.allCases {
            guard let span = readings[kind], span.simultaneous > 0 else { continue }
            warnings.append(
                AnalysisWarning(
                    kind: .duplicateSensorReadings,
                    message: "\(span.simultaneous) of the \(span.count) \(kind.rawValue) reading(s) had the same "
                        + "time as the reading before them (rows written twice, or many readings stamped with one "
                        + "instant): they were used as given, which weighs those instants more; check how the file "
                        + "was exported",
                    count: span.simultaneous))
        }
        for kind in SensorKind.allCases {
            guard let span = readings[kind], span.count > 0 else { continue }
            let missed =
                if let first = span.firstInSession { audioEnd.map { first > $0 } ?? false } else { true }
            guard missed else { continue }
            let window = audioEnd.map { "\(start.formatted(.iso8601)) to \($0.formatted(.iso8601))" }
            warnings.append(
                AnalysisWarning(
                    kind: .sensorReadingsOutsideRecording,
                    message: "none of the \(span.count) \(kind.rawValue) reading(s) lies within the recording "
                        + "(\(window ?? "from \(start.formatted(.iso8601))")), so none was used; check the start "
                        + "time given and the file's timestamps",
                    count: span.count))
        }
        return warnings
    }
}
