// libFuzzer harness for the relay's registration JSON reader (`PythonJSONScanner`, the body of
// `POST /feeds/`). Built by `scripts/fuzz --harness registration-json` together with the scanner's
// source, as one module, so it can reach the scanner's internal API.
//
// For every input it checks that the scanner either fails with a message or returns a value, that a
// value written back out as JSON reads back as the same value, and that the scanner's own answer does
// not depend on how often it is asked. A failed check is a `fatalError`, which libFuzzer saves as a
// crash; a stack overflow (unbounded nesting) is caught by AddressSanitizer.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegistrationJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let first: Result<PythonJSONScanner.Value, PythonJSONScanner.Failure>
    do {
        first = .success(try PythonJSONScanner.parse(bytes))
    } catch {
        first = .failure(error)
    }
    switch first {
    case .failure(let failure):
        if failure.description.isEmpty { fatalError("A refused body has an empty message.") }
    case .success(let value):
        let written = JSONWriter.text(of: value)
        let reread: PythonJSONScanner.Value
        do {
            reread = try PythonJSONScanner.parse(Array(written.utf8))
        } catch {
            fatalError("The scanner refuses its own value written back out: \(error.description)")
        }
        if reread != value { fatalError("A value written back out reads back differently.") }
    }
    // The scanner is a pure function of its input.
    let second: Result<PythonJSONScanner.Value, PythonJSONScanner.Failure>
    do {
        second = .success(try PythonJSONScanner.parse(bytes))
    } catch {
        second = .failure(error)
    }
    switch (first, second) {
    case (.success(let a), .success(let b)) where a == b: break
    case (.failure(let a), .failure(let b)) where a == b: break
    default: fatalError("Two reads of the same body disagree.")
    }
    return 0
}

/// Writes a scanned value back out as JSON (numbers, which the scanner only recognises, as `0`).
private enum JSONWriter {
    static func text(of value: PythonJSONScanner.Value) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    private static func write(_ value: PythonJSONScanner.Value, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number: output += "0"
        case .string(let text): writeString(text, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                write(item, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                writeString(member.key, to: &output)
                output += ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
