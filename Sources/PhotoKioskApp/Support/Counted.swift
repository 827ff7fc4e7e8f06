/// "1 photo", "11 photos", "0 photos": a count with its noun in correct English, for log lines
/// and messages ("1 folders" reads as a bug).
public func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
