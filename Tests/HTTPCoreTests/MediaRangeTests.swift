import HTTPCore
import Testing

/// Reading `Accept` headers into media ranges.
struct MediaRangeTests {
    @Test func readsTypesParametersAndWeights() {
        let ranges = MediaRange.list("Text/HTML, application/json; Indent=4 ;q=0.5,, ;q=1, */*;q=x, text/plain;flag")
        #expect(ranges.map(\.type) == ["text/html", "application/json", "*/*", "text/plain"])
        #expect(ranges[0].quality == 1)
        #expect(ranges[1].parameter("indent") == "4")
        #expect(ranges[1].quality == 0.5)
        #expect(ranges[2].quality == 0)
        #expect(ranges[3].parameters.isEmpty)
    }

    @Test func keepsRepeatedParametersInOrder() {
        let range = MediaRange.list("application/json; indent=2; indent=x")[0]
        #expect(range.parameters.map(\.value) == ["2", "x"])
        #expect(range.parameter("indent") == "x")
    }
}
