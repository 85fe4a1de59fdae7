/// Seeded single-character edits of a valid text, for fuzz tests of parsers: each edit replaces,
/// removes or inserts one character drawn from the alphabet.
///
/// The alphabet is the characters a parser cares about plus ``nonASCII``, so every parser also
/// sees multi-byte UTF-8, a byte-order mark, a combining mark and a character outside the BMP.
public struct TextMutation: Sendable {
    /// Characters outside ASCII that every alphabet includes.
    public static let nonASCII: [Character] = ["ä", "°", "€", "\u{00A0}", "\u{FEFF}", "\u{0301}", "😀", "\u{0000}"]

    /// The characters inserted or substituted.
    public let alphabet: [Character]
    /// The most edits per mutation (at least one is made).
    public let maximumEdits: Int

    /// Edits with `characters` (those the parser under test treats specially) and ``nonASCII``.
    public init(characters: String, maximumEdits: Int) {
        alphabet = Array(characters) + Self.nonASCII
        self.maximumEdits = max(1, maximumEdits)
    }

    /// `text` with 1…``maximumEdits`` random edits drawn from `random`.
    public func mutate(_ text: String, using random: inout SplitMix64) -> String {
        var characters = Array(text)
        for _ in 0..<random.below(maximumEdits) + 1 where !characters.isEmpty {
            let index = random.below(characters.count)
            switch random.below(3) {
            case 0: characters[index] = alphabet[random.below(alphabet.count)]
            case 1: characters.remove(at: index)
            default: characters.insert(alphabet[random.below(alphabet.count)], at: index)
            }
        }
        return String(characters)
    }
}
