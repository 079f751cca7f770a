import Foundation
import XCTest

@testable import SleepAnalysis

final class EpochAccumulatorTests: XCTestCase {
    func test_event_seconds_use_the_models_per_type_thresholds() {
        // Given a model whose snoring threshold is 0.3 and movement threshold 0.9
        let presence = EventPresence(onThresholds: [.snoring: 0.3, .movement: 0.9])
        var epoch = EpochAccumulator(start: Date(timeIntervalSince1970: 0), presence: presence)
        // When two one-second batches say snoring 0.4 (present) and movement 0.6 (absent), then coughing 0.55
        epoch.addAudio(dbSpl: [40, 42], seconds: 1, probabilities: [.snoring: 0.4, .movement: 0.6])
        epoch.addAudio(dbSpl: [50], seconds: 1, probabilities: [.coughing: 0.55])
        let observation = epoch.observation(activity: nil, breathing: nil)
        // Then one second of snoring, no movement, one other-sound batch, and the level statistics
        XCTAssertEqual(observation.snoringSeconds, 1)
        XCTAssertEqual(observation.movementEventCount, 0)
        XCTAssertEqual(observation.soundEventCount, 1)
        XCTAssertEqual(observation.meanDbSpl ?? 0, 44, accuracy: 1e-9)
        XCTAssertEqual(observation.dbSplDeviation ?? 0, (56.0 / 3).squareRoot(), accuracy: 1e-9)
    }
}
