import Foundation
import NewsAPI
import Testing

@testable import TributarySandbox

/// Generated headlines read as headlines: the verb agrees with its subject, and a name keeps
/// its capital inside a sentence.
struct HeadlineTests {
    @Test(arguments: [
        ("Tennis star", "lose", "a record", "Tennis star loses a record"),
        ("Champions", "lose", "the final", "Champions lose the final"),
        ("Hospital", "study", "sugar taxes", "Hospital studies sugar taxes"),
        ("Researchers", "study", "sugar taxes", "Researchers study sugar taxes"),
        ("Rover", "reach", "a comet", "Rover reaches a comet"),
        ("Voters", "warn about", "road closures", "Voters warn about road closures"),
        ("Mayor", "warn about", "road closures", "Mayor warns about road closures"),
        ("Chip designer", "patch", "a data race detector", "Chip designer patches a data race detector"),
        ("Carmaker", "delay", "a merger", "Carmaker delays a merger"),
        ("Start-up", "freeze", "prices", "Start-up freezes prices"),
    ])
    func agreeWithTheirSubjects(subject: String, verb: String, object: String, headline: String) {
        let topic = Vocabulary.Topic(subjects: [subject], verbs: [verb], objects: [object])
        #expect(topic.headline(subject, verb, object) == headline)
    }

    @Test func readAsSentencesInTheDataset() {
        let articles = sharedDataset.articles.filter { $0.title != "[Removed]" }
        // No singular subject with a plural verb and no plural subject with a singular one, as
        // "Tennis star lose" or "Voters approves" would be.
        for article in articles.prefix(2_000) {
            let title = article.title
            let subject = Vocabulary.topics.values.flatMap(\.subjects).filter { title.hasPrefix($0 + " ") }
                .max { $0.count < $1.count }
            guard let subject else {
                Issue.record("no known subject in \(title)")
                continue
            }
            let verb = title.dropFirst(subject.count + 1).prefix { $0 != " " }
            #expect(verb.hasSuffix("s") != Vocabulary.isPlural(subject) || verb == "discuss", "\(title)")
            let summary = article.description ?? ""
            #expect(!summary.contains(", aI ") && !summary.contains(", swift developers"), "\(summary)")
        }
    }
}
