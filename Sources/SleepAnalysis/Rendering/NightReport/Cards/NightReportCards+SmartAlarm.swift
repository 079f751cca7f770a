import Foundation

extension NightReportCards {
    /// The smart alarm, when one was set: when it was armed and when and why it fired.
    static func smartAlarm(_ context: NightReportContext) -> NightReportCard? {
        let events = context.result.smartAlarmEvents
        guard !events.isEmpty else { return nil }
        let facts: [(String, String)] = events.map { event in
            switch event.type {
            case .armed: ("Armed", context.clock(event.timestamp))
            case .triggered(let reason): ("Fired", "\(context.clock(event.timestamp)) (\(reason.rawValue))")
            }
        }
        return NightReportCard(
            id: "smart-alarm", title: "Smart alarm", body: ReportTable.facts(facts, caption: "the smart alarm"))
    }
}
