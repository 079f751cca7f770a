/// The night report's style sheet, written inline into the page: system fonts only (nothing fetched), one column
/// at most 1000 pixels wide, charts scaled to the column.
enum NightReportStyle {
    static let css = """
        body { margin: 0; background: #f4f5f7; color: #1f2328; font: 15px/1.45 system-ui, sans-serif; }
        main { max-width: 1000px; margin: 0 auto; padding: 16px; }
        h1 { font-size: 24px; margin: 8px 0 2px; }
        h2 { font-size: 18px; margin: 0 0 8px; }
        header p { margin: 0 0 12px; color: #57606a; }
        section { background: #ffffff; border: 1px solid #d8dee4; border-radius: 6px; padding: 12px 16px;
          margin: 0 0 12px; }
        section > svg { display: block; width: 100%; height: auto; }
        .note { color: #57606a; margin: 4px 0 0; }
        .notice { border-left: 4px solid #bf8700; background: #fff8c5; }
        .validated { border-left: 4px solid #1a7f37; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid #eaeef2; vertical-align: top; }
        th { width: 12em; font-weight: 600; }
        .score { font-size: 40px; font-weight: 700; margin: 0; }
        ul { margin: 0; padding-left: 20px; }
        """
}
