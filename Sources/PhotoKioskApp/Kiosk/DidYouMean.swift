/// The closest candidate to a misspelt name, for "did you mean" hints; nil when nothing is close
/// enough to be a plausible typo (more than a third of the letters differ).
func closestMatch(to name: String, in candidates: [String]) -> String? {
    var best: (name: String, distance: Int)?
    for candidate in candidates {
        let d = editDistance(name.lowercased(), candidate.lowercased())
        if d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    guard let best, best.distance <= max(1, name.count / 3) else { return nil }
    return best.name
}

/// Levenshtein distance counting an adjacent swap as one edit (optimal string alignment).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[a.count][b.count]
}
