import Foundation

/// The self-contained HTML5 document every page of the package is drawn in (the night report, the trends page):
/// the head with its Content-Security-Policy (no script, no fetch), the shared style sheet, the page's heading,
/// its content inside `<main>`, and the footer.
enum ReportDocument {
    /// The document's start, up to and including the `<h1>` heading.
    ///
    /// - Parameter title: The page's title and heading (escaped here).
    /// - Returns: The markup, to be followed by the content and then `end`.
    static func start(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <title>\(HTMLEscaping.escape(title)) – SleepAnalysis</title>
        <style>
        \(NightReportStyle.css)
        </style>
        </head>
        <body>
        <main>
        <h1>\(HTMLEscaping.escape(title))</h1>

        """
    }

    /// The document's end: `</main>`, the footer saying the page holds everything it shows, `</html>`.
    static let end =
        "</main>\n<footer class=\"note\">Written by SleepAnalysis; everything on this page is in this file.</footer>\n"
        + "</body>\n</html>\n"
}
