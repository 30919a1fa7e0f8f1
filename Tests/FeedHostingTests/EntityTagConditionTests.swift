import Testing

@testable import FeedHosting

/// Parsing and comparing `If-Match`/`If-None-Match` values (RFC 9110, section 13.1).
struct EntityTagConditionTests {
    @Test func parsesStarListsWeakTagsAndUnquotedTags() {
        #expect(EntityTagCondition(fieldValues: []) == nil)
        #expect(EntityTagCondition(fieldValues: [" * "]) == .any)
        #expect(
            EntityTagCondition(fieldValues: [#""a", W/"b""#, #"c"#])
                == .tags([("\"a\"", false), ("\"b\"", true), ("\"c\"", false)]))
        #expect(EntityTagCondition(fieldValues: [#""with,comma""#]) == .tags([("\"with,comma\"", false)]))
        #expect(EntityTagCondition(fieldValues: [" , "]) == nil)
    }

    @Test func comparesWeaklyForIfNoneMatchAndStronglyForIfMatch() {
        let weak = EntityTagCondition(fieldValues: [#"W/"x""#])
        #expect(weak?.weakMatch(in: ["\"y\"", "\"x\""]) == "\"x\"")
        #expect(weak?.strongMatch(in: ["\"x\""]) == false)
        #expect(EntityTagCondition(fieldValues: [#""x""#])?.strongMatch(in: ["\"x\""]) == true)
        #expect(EntityTagCondition.any.strongMatch(in: []) == false)
        #expect(EntityTagCondition.any.weakMatch(in: ["\"z\""]) == "\"z\"")
    }
}
