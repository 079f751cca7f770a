/// A chart on a page: the picture in a region that scrolls sideways when the page is narrower than the chart's
/// readable width (focusable, so that a keyboard scrolls it too, and named), and its caption (the legend) under it,
/// which wraps with the page.
enum ReportFigure {
    /// The markup.
    ///
    /// - Parameters:
    ///   - chart: The SVG picture.
    ///   - name: What the chart shows, naming the scrolling region (`hypnogram`).
    ///   - caption: The caption's markup (a legend, a note); none when nil.
    static func html(_ chart: String, name: String, caption: String? = nil) -> String {
        "<figure class=\"chart\">\n<div class=\"chart-scroll\" tabindex=\"0\" role=\"region\" "
            + "aria-label=\"\(HTMLEscaping.escape(name)) chart\">\n\(chart)</div>\n"
            + (caption.map { "<figcaption>\($0)</figcaption>\n" } ?? "") + "</figure>\n"
    }
}
