extension KioskConfig.DisplayMode {
    /// Why `text` is not a mode like "1920x1080", or nil when it is one; a rejected value
    /// always says why (the command line shows this after "invalid for '--mode'").
    public static func problem(parsing text: String) -> String? {
        guard Self(parsing: text) == nil else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            return "not WIDTHxHEIGHT in pixels, e.g. 1920x1080"
        }
        return "width and height must each be 1 to 16384 pixels, not \(width) and \(height)"
    }
}
