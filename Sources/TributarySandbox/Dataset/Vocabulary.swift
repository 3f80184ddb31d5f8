import NewsAPI

/// The words generated news is made of.
enum Vocabulary {
    static let sourcePrefixes = [
        "The Daily", "Morning", "Evening", "Global", "Metro", "National", "Weekly", "Northern",
        "Southern", "Coastal", "Capital", "Open",
    ]
    static let sourceNouns = [
        "Ledger", "Herald", "Courier", "Wire", "Post", "Tribune", "Chronicle", "Observer",
        "Gazette", "Review", "Signal", "Dispatch",
    ]
    static let firstNames = [
        "Ana", "Ben", "Chloé", "Daniel", "Eva", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kira",
        "Luca", "Maya", "Noah", "Olga", "Pablo", "Rosa", "Sven", "Tara", "Yusuf",
    ]
    static let lastNames = [
        "Andersen", "Bianchi", "Castillo", "Dubois", "Eriksen", "Fischer", "García", "Hughes",
        "Jansen", "Kowalski", "Lambert", "Moreau", "Novak", "O'Brien", "Patel", "Rossi", "Schmidt",
        "Tanaka", "Visser", "Walsh",
    ]
    static let places = [
        "Berlin", "Paris", "Madrid", "Rome", "Amsterdam", "London", "Toronto", "Sydney", "Mumbai",
        "New York", "Chicago", "Lyon", "Milan", "Rotterdam", "Seville", "Munich", "Oslo", "Austin",
    ]

    /// A topic's words: subjects, verbs in their plain form (`raise`, `warn about`), and
    /// objects, which a headline joins as subject, verb agreeing with it, and object.
    struct Topic {
        var subjects: [String]
        var verbs: [String]
        var objects: [String]

        /// "`subject` `verb` `object`", the verb agreeing with the subject in number.
        func headline(_ subject: String, _ verb: String, _ object: String) -> String {
            "\(subject) \(Vocabulary.isPlural(subject) ? verb : Vocabulary.thirdPerson(verb)) \(object)"
        }
    }

    /// Subjects that are plural (`Voters approve`), of every topic.
    static let pluralSubjects: Set<String> = [
        "Voters", "Police", "Researchers", "Doctors", "Nutritionists", "Astronomers", "Physicists",
        "Biologists",
        "Climate scientists", "Geologists", "Champions", "Swift developers", "Security researchers",
    ]

    static func isPlural(_ subject: String) -> Bool { pluralSubjects.contains(subject) }

    /// A verb's form for one subject: `raise` is `raises`, `study` `studies`, `reach` `reaches`,
    /// `warn about` `warns about`.
    static func thirdPerson(_ verb: String) -> String {
        let word = verb.prefix { $0 != " " }
        let rest = verb.dropFirst(word.count)
        let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
        let form: String
        if word.hasSuffix("y"), let before = word.dropLast().last, !vowels.contains(before) {
            form = word.dropLast() + "ies"
        } else if ["ch", "sh", "s", "x", "z", "o"].contains(where: { word.hasSuffix($0) }) {
            form = word + "es"
        } else {
            form = word + "s"
        }
        return form + rest
    }

    static let topics: [NewsCategory: Topic] = [
        .business: Topic(
            subjects: [
                "Central bank", "Shipping giant", "Retail chain", "Carmaker", "Start-up", "Stock market",
                "Energy company", "Airline", "Pension fund", "Chipmaker",
            ],
            verbs: ["raise", "cut", "double", "freeze", "delay", "announce", "weigh", "defend"],
            objects: [
                "interest rates", "quarterly profits", "its workforce", "a merger", "prices",
                "dividends", "new factory plans", "its growth forecast", "an electric truck",
            ]
        ),
        .entertainment: Topic(
            subjects: [
                "Film festival", "Pop star", "Streaming service", "Director", "Theatre company",
                "Comedian", "Record label", "Game studio",
            ],
            verbs: ["unveil", "cancel", "announce", "win", "postpone", "celebrate", "tease"],
            objects: [
                "a world tour", "the season finale", "a surprise album", "its lineup", "a sequel",
                "the top award", "a documentary", "the premiere",
            ]
        ),
        .general: Topic(
            subjects: [
                "City council", "Parliament", "Mayor", "Rail operator", "Weather service", "Police",
                "Voters", "Union", "School board",
            ],
            verbs: ["approve", "reject", "debate", "warn about", "report", "prepare for", "review"],
            objects: [
                "a new budget", "storm damage", "the housing plan", "a strike", "road closures",
                "election results", "the heatwave", "flood defences",
            ]
        ),
        .health: Topic(
            subjects: [
                "Hospital", "Researchers", "Health ministry", "Vaccine maker", "Doctors", "Clinic",
                "Nutritionists", "Public health agency",
            ],
            verbs: ["test", "recommend", "link", "expand", "warn against", "study", "approve"],
            objects: [
                "a flu vaccine", "sleep and memory", "waiting times", "a new therapy", "screening",
                "sugar taxes", "mental health services", "a rare disease",
            ]
        ),
        .science: Topic(
            subjects: [
                "Astronomers", "Space agency", "Physicists", "Biologists", "Climate scientists",
                "Telescope", "Rover", "Geologists",
            ],
            verbs: ["discover", "measure", "map", "launch", "observe", "explain", "confirm"],
            objects: [
                "an exoplanet", "gravitational waves", "ancient ice", "a comet", "deep-sea life",
                "solar storms", "a new mineral", "dark matter",
            ]
        ),
        .sports: Topic(
            subjects: [
                "Champions", "Coach", "Striker", "Cycling team", "Tennis star", "Marathon runner",
                "Olympic committee", "Rugby side",
            ],
            verbs: ["win", "lose", "sign", "break", "defend", "reach", "retire from"],
            objects: [
                "the final", "a record", "the title", "a transfer deal", "the semi-final",
                "the league lead", "a world ranking", "the season opener",
            ]
        ),
        .technology: Topic(
            subjects: [
                "Swift developers", "Chip designer", "Cloud provider", "Phone maker", "Open-source project",
                "Security researchers", "Robotics firm", "Browser team", "AI lab",
            ],
            verbs: ["release", "patch", "open-source", "ship", "rewrite", "benchmark", "unveil"],
            objects: [
                "a faster compiler", "a data race detector", "new laptops", "a privacy feature",
                "the concurrency model", "an image pipeline", "a reactive framework", "a server framework",
            ]
        ),
    ]

    static let qualifiers = [
        "", "", "", " after long talks", " amid criticism", " in a surprise move", " for the first time",
        " despite delays", " ahead of schedule", " as prices rise",
    ]

    static let fillers = [
        "Officials said more details would follow later in the week.",
        "Analysts had expected the decision for several months.",
        "The announcement drew mixed reactions from experts.",
        "Critics say the plan does not go far enough.",
        "Supporters welcomed the news on social media.",
        "It is the first change of its kind in a decade.",
        "Further updates are expected as the story develops.",
        "Local residents were among the first to react.",
    ]
}
