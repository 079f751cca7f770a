/// The style sheet of the night report and the trends page, written inline into the page: system fonts only
/// (nothing fetched), one column at most 1000 pixels wide; at phone width the figures go two by two and a chart
/// keeps a readable size and scrolls sideways inside its card; printed, the cards lose their frames, charts fit the
/// page, colours print as shown and the data tables (on screen behind each chart) are left out.
enum NightReportStyle {
    static let css = """
        body { margin: 0; background: #f4f5f7; color: #1f2328; font: 16px/1.45 system-ui, sans-serif; }
        main { max-width: 1000px; margin: 0 auto; padding: 16px; }
        h1 { font-size: 26px; margin: 8px 0 2px; }
        h2 { font-size: 19px; margin: 0 0 8px; }
        h3 { font-size: 17px; margin: 0 0 8px; }
        .night-header p { margin: 0 0 12px; color: #4b535c; }
        .night-header h2 { margin: 16px 0 2px; font-size: 22px; }
        section { background: #ffffff; border: 1px solid #d8dee4; border-radius: 8px; padding: 12px 16px;
          margin: 0 0 12px; }
        figure { margin: 8px 0; }
        .chart-scroll, .table-scroll { overflow-x: auto; }
        .chart-scroll > svg { display: block; width: 100%; min-width: 600px; height: auto; }
        .bar svg.stage-bar { display: block; width: 100%; height: 28px; border-radius: 4px; }
        .note { color: #4b535c; margin: 4px 0 0; }
        .notice { border-left: 6px solid #9a6700; }
        .glance { display: grid; grid-template-columns: minmax(180px, 1fr) 3fr; gap: 12px 24px; align-items: center; }
        .score p { margin: 0; }
        .score-number { font-size: 56px; font-weight: 700; line-height: 1; }
        .score-unit { font-size: 20px; color: #4b535c; }
        .score-missing { font-size: 18px; font-weight: 600; }
        .figures { display: grid; grid-template-columns: repeat(4, 1fr); gap: 8px 16px; margin: 0; }
        .figures dt { font-size: 14px; color: #4b535c; }
        .figures dd { margin: 0; font-size: 20px; font-weight: 600; }
        .figures dd small { display: block; font-size: 14px; font-weight: 400; color: #4b535c; }
        .legend { list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 4px 18px; }
        .legend li { white-space: nowrap; }
        .legend-value { color: #4b535c; }
        .swatch { display: inline-block; width: 12px; height: 12px; vertical-align: -1px; margin-right: 5px; }
        table { border-collapse: collapse; width: 100%; margin: 6px 0; }
        caption { text-align: left; color: #4b535c; font-size: 14px; }
        th, td { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid #eaeef2; vertical-align: top; }
        tbody th { font-weight: 600; }
        .facts th { width: 14em; }
        details.data { margin: 4px 0; }
        details.data summary { cursor: pointer; color: #0550ae; }
        ul { margin: 0; padding-left: 20px; }
        body > footer { max-width: 1000px; margin: 0 auto; padding: 0 16px 16px; }
        @media (max-width: 640px) {
          main { padding: 8px; }
          section { padding: 10px 12px; }
          h1 { font-size: 22px; }
          .glance { grid-template-columns: 1fr; }
          .figures { grid-template-columns: 1fr 1fr; }
          .facts th { width: auto; }
        }
        @media print {
          * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
          body { background: #ffffff; font-size: 11pt; }
          main { max-width: none; padding: 0; }
          section { border: 0; border-top: 1px solid #8c959f; border-radius: 0; padding: 8px 0; break-inside: avoid; }
          .chart-scroll, .table-scroll { overflow: visible; }
          .chart-scroll > svg { min-width: 0; }
          details.data { display: none; }
        }
        """
}
