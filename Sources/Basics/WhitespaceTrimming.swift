extension StringProtocol {
    /// The text without the whitespace (spaces, tabs, line breaks) at either end: what a value read
    /// from a file, a payload or an XML element means.
    public func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
