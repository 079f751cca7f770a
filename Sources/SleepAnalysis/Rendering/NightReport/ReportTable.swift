/// The data table behind a chart: a disclosure (`<details>`) holding a table with a caption, column headers and,
/// when `rowHeaders`, the first cell of each row as its header. Cells are escaped.
enum ReportTable {
    /// The markup.
    ///
    /// - Parameters:
    ///   - caption: What the table holds.
    ///   - columns: The column headers.
    ///   - rows: The cells, row by row.
    ///   - rowHeaders: Whether each row's first cell heads it.
    ///   - collapsed: Inside a closed `<details>` (behind a chart) or shown.
    static func html(
        caption: String, columns: [String], rows: [[String]], rowHeaders: Bool = true, collapsed: Bool = true
    ) -> String {
        var table =
            "<div class=\"table-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"\(HTMLEscaping.escape(caption))\">\n"
        table += "<table>\n<caption>\(HTMLEscaping.escape(caption))</caption>\n<thead><tr>"
        table +=
            columns.map { "<th scope=\"col\">\(HTMLEscaping.escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows {
            table += "<tr>"
            for (index, cell) in row.enumerated() {
                table +=
                    index == 0 && rowHeaders
                    ? "<th scope=\"row\">\(HTMLEscaping.escape(cell))</th>" : "<td>\(HTMLEscaping.escape(cell))</td>"
            }
            table += "</tr>\n"
        }
        table += "</tbody>\n</table>\n</div>\n"
        guard collapsed else { return table }
        return
            "<details class=\"data\">\n<summary>Table: \(HTMLEscaping.escape(caption))</summary>\n\(table)</details>\n"
    }

    /// Label–value pairs as a two-column table without column headers (each row headed by its label).
    static func facts(_ facts: [(String, String)], caption: String) -> String {
        var table = "<table class=\"facts\">\n<caption>\(HTMLEscaping.escape(caption))</caption>\n<tbody>\n"
        for (label, value) in facts {
            table +=
                "<tr><th scope=\"row\">\(HTMLEscaping.escape(label))</th><td>\(HTMLEscaping.escape(value))</td></tr>\n"
        }
        return table + "</tbody>\n</table>\n"
    }
}
