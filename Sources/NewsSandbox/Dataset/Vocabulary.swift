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

    struct Topic {
        var subjects: [String]
        var verbs: [String]
        var objects: [String]
    }

    static let topics: [NewsCategory: Topic] = [
        .business: Topic(
            subjects: [
                "Central bank", "Shipping giant", "Retail chain", "Carmaker", "Start-up", "Stock market",
                "Energy company", "Airline", "Pension fund", "Chipmaker",
            ],
            verbs: ["raises", "cuts", "doubles", "freezes", "delays", "announces", "weighs", "defends"],
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
            verbs: ["unveils", "cancels", "announces", "wins", "postpones", "celebrates", "teases"],
            objects: [
                "a world tour", "the season finale", "a surprise album", "its lineup", "a sequel",
                "top award", "a documentary", "the premiere",
            ]
        ),
        .general: Topic(
            subjects: [
                "City council", "Parliament", "Mayor", "Rail operator", "Weather service", "Police",
                "Voters", "Union", "School board",
            ],
            verbs: ["approves", "rejects", "debates", "warns about", "reports", "prepares for", "reviews"],
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
            verbs: ["tests", "recommends", "links", "expands", "warns against", "studies", "approves"],
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
