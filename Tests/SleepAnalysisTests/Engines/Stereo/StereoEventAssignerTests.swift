import Foundation
import XCTest

@testable import SleepAnalysis

final class StereoEventAssignerTests: XCTestCase {
    /// Cues of a sound `delay` seconds earlier and `level` dB louder on the primary microphone.
    private func cues(
        delay: Double?, level: Double?, primary: Double = 0.9, secondary: Double = 0.9, correlation: Double = 0.6
    ) -> EventStereoCues {
        EventStereoCues(
            timeDifference: delay, correlationStrength: correlation, levelDifference: level,
            primaryProbability: primary, secondaryProbability: secondary)
    }

    // MARK: - Presets

    func test_bedSideMics_assignsPrimary_whenTheSoundIsEarlierAndLouderOnPrimary() {
        let assigner = StereoEventAssigner(config: .bedSideMics)
        XCTAssertEqual(assigner.assign(.snoring, cues: cues(delay: 0.0025, level: 8)), .primary)
    }

    func test_bedSideMics_assignsSecondary_whenTheSoundIsLaterAndQuieterOnPrimary() {
        let assigner = StereoEventAssigner(config: .bedSideMics)
        XCTAssertEqual(assigner.assign(.coughing, cues: cues(delay: -0.0025, level: -8)), .secondary)
    }

    func test_bedSideMics_givesBoth_whenTheSoundIsMidway() {
        let assigner = StereoEventAssigner(config: .bedSideMics)
        XCTAssertEqual(assigner.assign(.talking, cues: cues(delay: 0.0001, level: 0.2)), .both)
    }

    func test_centeredMicArray_followsASubMillisecondTimeDifference_whenLevelsAreEqual() {
        let assigner = StereoEventAssigner(config: .centeredMicArray)
        XCTAssertEqual(assigner.assign(.snoring, cues: cues(delay: 0.00022, level: 0.3)), .primary)
        XCTAssertEqual(assigner.assign(.snoring, cues: cues(delay: -0.00022, level: -0.3)), .secondary)
    }

    func test_bedSideMics_treatsTheSameSubMillisecondDelay_asAmbiguous() {
        // 0.22 ms is nearly the whole range of a 10-cm array but a fraction of a 1.5-m pair's.
        let assigner = StereoEventAssigner(config: .bedSideMics)
        XCTAssertEqual(assigner.assign(.snoring, cues: cues(delay: 0.00022, level: 0.3)), .both)
    }

    func test_detectionStrengthOnly_ignoresSpatialCues_andFollowsTheStrongerDetection() {
        let assigner = StereoEventAssigner(config: .detectionStrengthOnly())
        let spatiallyPrimary = cues(delay: 0.004, level: 12, primary: 0.55, secondary: 0.95)
        XCTAssertEqual(assigner.assign(.snoring, cues: spatiallyPrimary), .secondary)
        XCTAssertEqual(
            assigner.assign(.snoring, cues: cues(delay: nil, level: nil, primary: 0.9, secondary: 0.6)), .primary)
    }

    func test_timeDifference_isIgnored_whenTheCorrelationIsWeak() {
        var config = ChannelSeparationConfig.bedSideMics
        config.levelDifferenceWeight = 0
        config.detectionStrengthWeight = 0
        let assigner = StereoEventAssigner(config: config)
        XCTAssertEqual(assigner.position(of: cues(delay: 0.004, level: nil, correlation: 0.05)), 0)
        XCTAssertEqual(assigner.position(of: cues(delay: 0.005, level: nil, correlation: 0.5)), 1, accuracy: 1e-9)
    }

    func test_position_isTheWeightedMeanOfTheClampedCues() {
        let config = ChannelSeparationConfig(
            microphoneSpacing: 1.0, ambiguityZone: 0.1, timeDifferenceWeight: 2, levelDifferenceWeight: 1,
            detectionStrengthWeight: 1, levelDifferenceScale: 10)
        let assigner = StereoEventAssigner(config: config)
        // delay: 0.5 of the maximum; level: −5/10 = −0.5; strength: (0.4 − 0.8)/0.8 = −0.5.
        let position = assigner.position(of: cues(delay: 0.5 / 343, level: -5, primary: 0.4, secondary: 0.8))
        XCTAssertEqual(position, (2 * 0.5 - 0.5 - 0.5) / 4, accuracy: 1e-9)
        XCTAssertEqual(assigner.position(of: cues(delay: 1.0, level: 99)), (2 + 1 + 0) / 4.0, accuracy: 1e-9)
    }

    // MARK: - Ambiguity resolution

    private func ambiguous(_ resolution: ChannelSeparationConfig.AmbiguityResolution) -> StereoEventAssigner {
        var config = ChannelSeparationConfig.bedSideMics
        config.ambiguityZone = 0.5
        config.ambiguityResolution = resolution
        return StereoEventAssigner(config: config)
    }

    func test_ambiguityZone_resolvedAsBoth_givesTheEventToBothSleepers() {
        XCTAssertEqual(ambiguous(.both).assign(.snoring, cues: cues(delay: -0.0005, level: -1)), .both)
    }

    func test_ambiguityZone_resolvedAsNeither_givesTheEventToNobody() {
        XCTAssertEqual(ambiguous(.neither).assign(.snoring, cues: cues(delay: -0.0005, level: -1)), .neither)
    }

    func test_ambiguityZone_resolvedAsStronger_givesTheEventToTheSideItLeansTo() {
        let assigner = ambiguous(.stronger)
        XCTAssertEqual(assigner.assign(.snoring, cues: cues(delay: -0.0005, level: -1)), .secondary)
        XCTAssertEqual(assigner.assign(.snoring, cues: cues(delay: 0.0005, level: 1)), .primary)
        // Exactly in the middle: the stronger detection decides.
        XCTAssertEqual(
            assigner.assign(.snoring, cues: cues(delay: 0, level: 0, primary: 0.7, secondary: 0.7)), .primary)
    }

    func test_outsideTheAmbiguityZone_theResolutionDoesNotMatter() {
        for resolution in [ChannelSeparationConfig.AmbiguityResolution.both, .neither, .stronger] {
            XCTAssertEqual(ambiguous(resolution).assign(.snoring, cues: cues(delay: 0.004, level: 12)), .primary)
        }
    }

    // MARK: - Confidence and per-type settings

    func test_belowTheMinimumDetectionConfidence_theEventGoesToNeither() {
        let assigner = StereoEventAssigner(config: .bedSideMics)
        XCTAssertEqual(
            assigner.assign(.snoring, cues: cues(delay: 0.004, level: 12, primary: 0.3, secondary: 0.2)), .neither)
    }

    func test_perTypeSettings_overrideZoneResolutionAndConfidence_forThatTypeOnly() {
        var config = ChannelSeparationConfig.bedSideMics
        config.eventTypeSettings[.talking] = ChannelSeparationConfig.EventTypeSettings(
            ambiguityZone: 0.9, ambiguityResolution: .neither, minimumDetectionConfidence: 0.2)
        let assigner = StereoEventAssigner(config: config)
        let clear = cues(delay: 0.002, level: 6)
        XCTAssertEqual(assigner.assign(.snoring, cues: clear), .primary)
        XCTAssertEqual(assigner.assign(.talking, cues: clear), .neither)
        let weak = cues(delay: 0.005, level: 12, primary: 0.3, secondary: 0.1)
        XCTAssertEqual(assigner.assign(.snoring, cues: weak), .neither)
        XCTAssertEqual(assigner.assign(.talking, cues: weak), .primary)
    }

    func test_perTypeSettings_withNilFields_fallBackToTheGeneralOnes() {
        var config = ChannelSeparationConfig.bedSideMics
        config.eventTypeSettings[.coughing] = ChannelSeparationConfig.EventTypeSettings(ambiguityResolution: .neither)
        let rules = config.resolved(for: .coughing)
        XCTAssertEqual(rules.zone, config.ambiguityZone)
        XCTAssertEqual(rules.resolution, .neither)
        XCTAssertEqual(rules.minimumConfidence, config.minimumDetectionConfidence)
    }

    // MARK: - Validation

    func test_presets_areValid() throws {
        try ChannelSeparationConfig.bedSideMics.validate()
        try ChannelSeparationConfig.centeredMicArray.validate()
        try ChannelSeparationConfig.detectionStrengthOnly().validate()
        try ChannelSeparationConfig.detectionStrengthOnly(ambiguityZone: 0.3, ambiguityResolution: .neither).validate()
    }

    func test_validate_rejectsEachBadParameter_withInvalidConfiguration() {
        var cases: [(String, ChannelSeparationConfig)] = []
        func bad(_ name: String, _ change: (inout ChannelSeparationConfig) -> Void) {
            var config = ChannelSeparationConfig.bedSideMics
            change(&config)
            cases.append((name, config))
        }
        bad("negative spacing") { $0.microphoneSpacing = -1 }
        bad("NaN spacing") { $0.microphoneSpacing = .nan }
        bad("speed of sound") { $0.speedOfSound = 0 }
        bad("zone above 1") { $0.ambiguityZone = 1.5 }
        bad("negative weight") { $0.levelDifferenceWeight = -1 }
        bad("infinite weight") { $0.timeDifferenceWeight = .infinity }
        bad("no weight") {
            $0.timeDifferenceWeight = 0
            $0.levelDifferenceWeight = 0
            $0.detectionStrengthWeight = 0
        }
        bad("time cue without spacing") { $0.microphoneSpacing = 0 }
        bad("level scale") { $0.levelDifferenceScale = 0 }
        bad("correlation") { $0.minimumCorrelationStrength = 2 }
        bad("confidence") { $0.minimumDetectionConfidence = -0.1 }
        bad("per-type zone") { $0.eventTypeSettings[.snoring] = .init(ambiguityZone: -0.2) }
        bad("per-type confidence") { $0.eventTypeSettings[.talking] = .init(minimumDetectionConfidence: 1.2) }
        for (name, config) in cases {
            XCTAssertThrowsError(try config.validate(), name) { error in
                guard case .invalidConfiguration = error as? SleepCycleSdkError else {
                    return XCTFail("\(name): \(error)")
                }
            }
        }
    }
}
