import Foundation
import TestSupport
import XCTest

/// The intervals the events model card quotes (`Models/events.intervals.json`, `Tools/events/studies/intervals.sh`)
/// belong to the shipped model's figures: every type's F1 equals the held-out F1 of `Models/events.figures.json`,
/// lies inside its own 95 % interval and fold range, and the thin types are the card's (fewer than 30 clips). A
/// retrain that rewrites the figures and not the intervals would leave the card quoting another model's spread.
final class ShippedEventModelIntervalsTests: XCTestCase {
    private struct Intervals: Decodable {
        struct TypeRow: Decodable {
            let type: String
            let clips: Int
            let thin: Bool
            let f1: Double
            let interval95: [Double]
            let foldRange: [Double]?
            let f1ByFold: [Double?]
        }
        let types: [TypeRow]
        let folds: Int
        let macroF1: Double
        let macroInterval95: [Double]
    }

    private struct Figures: Decodable {
        struct Clean: Decodable {
            struct Class: Decodable {
                let f1: Double
                let support: Int
            }
            let classes: [String: Class]
            let macroF1: Double
        }
        let heldOutClean: Clean
    }

    private func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        let url = FixturePaths.repositoryRoot.appendingPathComponent("Models/\(name)")
        return try JSONDecoder().decode(T.self, from: try Data(contentsOf: url))
    }

    func test_theCardsIntervals_belongToTheShippedFigures() throws {
        let intervals = try load("events.intervals.json", as: Intervals.self)
        let figures = try load("events.figures.json", as: Figures.self).heldOutClean
        XCTAssertEqual(intervals.macroF1, figures.macroF1, accuracy: 5e-4)
        XCTAssertTrue(
            intervals.macroInterval95[0] < intervals.macroF1 && intervals.macroF1 < intervals.macroInterval95[1])
        let trained = figures.classes.filter { $0.value.support > 0 && $0.key != "digestive" }
        XCTAssertEqual(Set(intervals.types.map(\.type)), Set(trained.keys))
        for row in intervals.types {
            let figure = try XCTUnwrap(figures.classes[row.type], row.type)
            XCTAssertEqual(row.f1, figure.f1, accuracy: 5e-4, "\(row.type): F1 of another run")
            XCTAssertEqual(row.clips, figure.support, row.type)
            XCTAssertEqual(row.thin, row.clips < 30, "\(row.type): the card's thin rule")
            XCTAssertLessThanOrEqual(row.interval95[0], row.f1, row.type)
            XCTAssertGreaterThanOrEqual(row.interval95[1], row.f1, row.type)
            XCTAssertEqual(row.f1ByFold.count, intervals.folds, row.type)
            let range = try XCTUnwrap(row.foldRange, row.type)
            XCTAssertLessThanOrEqual(range[0], row.f1, row.type)
            XCTAssertGreaterThanOrEqual(range[1], row.f1, row.type)
        }
    }
}
